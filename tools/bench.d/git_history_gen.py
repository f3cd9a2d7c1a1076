"""Generates a git-scraping repository for tools/bench --import-git.

git_history_gen.py --snapshots DIR --commits N --out REPO [--feeds F] [--seed S]

What a scraper that commits a feed every time it changes leaves behind: a
git repository where FEEDS/feed-K/feed.xml (RSS 2.0) is rewritten over N
commits, one hour apart, each commit changing one of the F feeds (default
1). The text is real: sentences from the blog-history snapshots (DIR,
already extracted) recombined into posts of about 10 KB. Each feed shows
its newest 30 posts (about 300 KB a version, so 7,000 commits hold about
2 GB of blobs). At each commit, one of:
  - a new post appears at the top and the oldest drops out (40%);
  - a post in the feed is edited: a sentence is added (30%);
  - a post is removed from the middle of the feed (3%);
  - only the channel's lastBuildDate changes (the rest).
The repository is written with `git fast-import` (so it takes seconds, not
an hour); it is a tool's output, not test data: nothing it writes belongs in
the repository. The same arguments give the same repository.
"""
import argparse
import os
import random
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from xml.sax.saxutils import escape

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scale_gen import sentences_from  # noqa: E402

WINDOW = 30
POST_BYTES = 10000


def rfc822(t):
    return t.strftime("%a, %d %b %Y %H:%M:%S +0000")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--snapshots", required=True)
    ap.add_argument("--commits", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--feeds", type=int, default=1)
    ap.add_argument("--seed", type=int, default=17)
    args = ap.parse_args()
    if os.path.exists(args.out):
        raise SystemExit("git_history_gen: %s exists; give a new path" % args.out)

    sentences = sentences_from(args.snapshots)
    if len(sentences) < 100:
        raise SystemExit("git_history_gen: too few sentences in %s" % args.snapshots)
    rng = random.Random(args.seed)
    start = datetime(2019, 1, 1, tzinfo=timezone.utc)
    numbers = [0] * args.feeds

    def paragraphs():
        out, size = [], 0
        while size < POST_BYTES:
            p = " ".join(rng.choice(sentences) for _ in range(rng.randint(3, 7)))
            out.append(p)
            size += len(p) + 7
        return out

    def new_post(feed, when):
        n = numbers[feed]
        numbers[feed] += 1
        return {"guid": "urn:gitgen:%d:%d" % (feed, n),
                "link": "https://feed-%d.example.org/posts/%d" % (feed, n),
                "title": " ".join(rng.choice(sentences).split()[:8]),
                "published": when, "paras": paragraphs(), "item": None}

    def item_xml(p):
        if p["item"] is None:  # cached: an unchanged post is the same text
            body = "".join("<p>%s</p>" % escape(s) for s in p["paras"])
            p["item"] = ("<item><title>%s</title><link>%s</link><guid isPermaLink=\"false\">%s</guid>"
                         "<pubDate>%s</pubDate><description>%s</description></item>\n"
                         % (escape(p["title"]), p["link"], p["guid"], rfc822(p["published"]),
                            escape(body)))
        return p["item"]

    feeds = []
    for f in range(args.feeds):
        t0 = start - timedelta(days=WINDOW)
        feeds.append([new_post(f, t0 + timedelta(days=i)) for i in range(WINDOW)][::-1])

    os.makedirs(args.out)
    subprocess.run(["git", "init", "-q", "-b", "main", args.out], check=True)
    fi = subprocess.Popen(["git", "-C", args.out, "fast-import", "--quiet"], stdin=subprocess.PIPE)
    out = fi.stdin
    blob_bytes = 0
    for c in range(args.commits):
        when = start + timedelta(hours=c)
        f = rng.randrange(args.feeds)
        posts = feeds[f]
        r = rng.random()
        if r < 0.40:
            posts.insert(0, new_post(f, when))
            del posts[WINDOW:]
            what = "new post"
        elif r < 0.70:
            p = rng.choice(posts)
            p["paras"].insert(rng.randrange(len(p["paras"]) + 1), rng.choice(sentences))
            p["item"] = None
            what = "edit"
        elif r < 0.73 and len(posts) > 2:
            del posts[rng.randrange(1, len(posts) - 1)]
            what = "removed a post"
        else:
            what = "lastBuildDate"
        body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel>\n"
                "<title>Generated feed %d</title><link>https://feed-%d.example.org/</link>\n"
                "<lastBuildDate>%s</lastBuildDate>\n%s</channel></rss>\n"
                % (f, f, rfc822(when), "".join(item_xml(p) for p in posts))).encode("utf-8")
        blob_bytes += len(body)
        stamp = "%d +0000" % int(when.timestamp())
        msg = ("feed-%d: %s" % (f, what)).encode()
        out.write(b"commit refs/heads/main\n")
        out.write(("committer Scraper <scraper@example.org> %s\n" % stamp).encode())
        out.write(b"data %d\n%s\n" % (len(msg), msg))
        out.write(("M 100644 inline feeds/feed-%d/feed.xml\n" % f).encode())
        out.write(b"data %d\n" % len(body))
        out.write(body)
        out.write(b"\n")
    out.close()
    if fi.wait() != 0:
        raise SystemExit("git_history_gen: git fast-import failed")
    subprocess.run(["git", "-C", args.out, "checkout", "-q", "main"], check=True)
    print("git_history_gen: %d commits of %d feed(s), %.0f MB of versions, from %d sentences, into %s"
          % (args.commits, args.feeds, blob_bytes / 1e6, len(sentences), args.out))


if __name__ == "__main__":
    main()
