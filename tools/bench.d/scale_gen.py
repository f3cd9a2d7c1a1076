"""Generates a snapshot archive of N posts in N/100 feeds for tools/bench --scale.

scale_gen.py --snapshots DIR --posts N --out DIR [--seed S]

The text is real: sentences from the blog-history snapshots (DIR, already
extracted), recombined into posts of about 4 KB. So that the vocabulary
keeps growing with N as a real archive's does (Heaps' law), about one word
in 40 is replaced by a rare word drawn from a pool that grows as N^0.6.
Dates spread over 20 years; authors and categories are drawn from pools of
thousands (Zipf-like: a few are common, most rare). Each feed has 100 posts
and three snapshots a month apart, each showing a window of 60 posts that
moves by 20: every post is seen, most leave the feed before the last
snapshot, and one post in 20 is edited between the snapshots it is in.

Writes OUT/archive/<feed>/<UTC>.xml (RSS 2.0, what blogsearch-index add
reads) and OUT/posts.csv (the newest version of every post: id, feed, title,
author, category, published, body; what sqlite3's FTS5 imports). Nothing it
writes belongs in the repository. The same arguments give the same files.
"""
import argparse
import csv
import glob
import html
import os
import random
import re
from datetime import datetime, timedelta, timezone
from xml.sax.saxutils import escape

POSTS_PER_FEED = 100
WINDOW = 60
STEP = 20
SNAPSHOTS = 3
TARGET_BYTES = 4000

TEXT_ELEMENTS = re.compile(
    r"<(description|content:encoded|content|summary)\b[^>]*>(.*?)</\1>", re.S | re.I)
TAG = re.compile(r"<[^>]+>")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
SYLLABLES = ["ka", "lo", "mi", "ter", "van", "qu", "zor", "pel", "dra", "sen", "ti", "bru",
             "mon", "ex", "ul", "fa", "gri", "hol", "jin", "nev", "os", "ry", "wix", "yel"]


def sentences_from(snapshots):
    seen = set()
    out = []
    for path in sorted(glob.glob(os.path.join(snapshots, "**", "*.xml"), recursive=True)):
        with open(path, "rb") as f:
            raw = f.read().decode("utf-8", "replace")
        for _, body in TEXT_ELEMENTS.findall(raw):
            body = body.replace("<![CDATA[", "").replace("]]>", "")
            text = TAG.sub(" ", html.unescape(html.unescape(body)))
            text = TAG.sub(" ", text)
            for s in SENTENCE_END.split(" ".join(text.split())):
                if 30 <= len(s) <= 400 and s not in seen:
                    seen.add(s)
                    out.append(s)
    return out


def made_word(n):
    """A pronounceable word for number n, different for every n."""
    parts = []
    n += len(SYLLABLES)
    while n:
        n, r = divmod(n, len(SYLLABLES))
        parts.append(SYLLABLES[r])
    return "".join(parts)


def zipf_pick(rng, size):
    """An index below size, small ones much more often (about 1/rank)."""
    return min(size - 1, int(size ** rng.random()) - 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--snapshots", required=True)
    ap.add_argument("--posts", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=17)
    args = ap.parse_args()

    sentences = sentences_from(args.snapshots)
    if len(sentences) < 100:
        raise SystemExit("scale_gen: too few sentences in %s" % args.snapshots)
    rng = random.Random(args.seed)
    n_feeds = max(1, args.posts // POSTS_PER_FEED)
    n_authors = 2000 + args.posts // 20
    n_categories = 1000 + args.posts // 50
    start = datetime(2006, 1, 1, tzinfo=timezone.utc)
    span = 20 * 365 * 86400

    def text_for(r, number):
        rare_pool = max(50, int(20 * (number + 1) ** 0.6))
        words = []
        size = 0
        while size < TARGET_BYTES:
            for w in r.choice(sentences).split():
                if r.random() < 0.025:
                    w = made_word(r.randrange(rare_pool))
                words.append(w)
                size += len(w) + 1
        return " ".join(words)

    archive = os.path.join(args.out, "archive")
    os.makedirs(archive, exist_ok=True)
    with open(os.path.join(args.out, "posts.csv"), "w", newline="", encoding="utf-8") as csv_file:
        rows = csv.writer(csv_file)
        rows.writerow(["id", "feed", "title", "author", "category", "published", "body"])
        number = 0
        for f in range(n_feeds):
            feed = "feed-%05d" % f
            posts = []
            base = rng.randrange(span - 86400 * 400)
            for i in range(POSTS_PER_FEED):
                r = random.Random(args.seed * 1000003 + number)
                published = start + timedelta(seconds=base + i * r.randrange(3600, 4 * 86400))
                words = r.choice(sentences).split()[:8]
                posts.append({
                    "guid": "urn:%s:%d" % (feed, i),
                    "link": "https://%s.example.org/p/%d" % (feed, i),
                    "title": " ".join(words) or "post %d" % number,
                    "author": "%s %s" % (made_word(zipf_pick(r, n_authors)).title(),
                                         made_word(zipf_pick(r, 500) + 7).title()),
                    "categories": sorted({made_word(zipf_pick(r, n_categories) + 31)
                                          for _ in range(r.randint(1, 3))}),
                    "published": published,
                    "text": text_for(r, number),
                    "edited": r.random() < 0.05,
                })
                number += 1
            os.makedirs(os.path.join(archive, feed), exist_ok=True)
            last = max(p["published"] for p in posts)
            for s in range(SNAPSHOTS):
                window = posts[s * STEP:s * STEP + WINDOW]
                when = last + timedelta(days=30 * s + 1)
                parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel>',
                         "<title>Feed %d</title><link>https://%s.example.org/</link>" % (f, feed)]
                for p in window:
                    text = p["text"]
                    # An edit shows from the second snapshot that has the post.
                    if p["edited"] and p.get("shown"):
                        text += " (Updated: corrected figures.)"
                    p["shown"] = True
                    p["final"] = text
                    parts.append(
                        "<item><title>%s</title><link>%s</link><guid isPermaLink=\"false\">%s</guid>"
                        "<pubDate>%s</pubDate><author>%s</author>%s<description>%s</description></item>"
                        % (escape(p["title"]), p["link"], p["guid"],
                           p["published"].strftime("%a, %d %b %Y %H:%M:%S +0000"),
                           escape(p["author"]),
                           "".join("<category>%s</category>" % escape(c) for c in p["categories"]),
                           escape("<p>%s</p>" % escape(text))))
                parts.append("</channel></rss>\n")
                with open(os.path.join(archive, feed, when.strftime("%Y-%m-%dT%H%M%SZ") + ".xml"), "wb") as out:
                    out.write("\n".join(parts).encode("utf-8"))
            for p in posts:
                rows.writerow([p["guid"], feed, p["title"], p["author"], " ".join(p["categories"]),
                               p["published"].strftime("%Y-%m-%d"), p.get("final", p["text"])])
    print("scale_gen: %d posts in %d feeds from %d sentences into %s" % (number, n_feeds, len(sentences), args.out))


if __name__ == "__main__":
    main()
