#!/usr/bin/python3
"""Scores blogsearch-index and python3-feedparser on the broken-feed suite.

Usage: compare.py BLOGSEARCH_INDEX FEED_DIR

FEED_DIR holds the broken feeds and expected.json, the truth both tools are
measured against (tests/recovery_test.cc reads the same file). A feed counts
as right when the tool yields exactly the expected items, in order, each with
its title, link, date and a text that contains the expected substring (and
its id or authors where the expectation names them). blogsearch must also
say whether the document was complete; feedparser has no such notion, so
that check is blogsearch's alone.

Prints one line per feed and "blogsearch N/M, feedparser K/M"; exits 1
unless blogsearch gets every feed right and more of them than feedparser.
"""
import calendar
import html
import html.parser
import json
import os
import subprocess
import sys
import time

import feedparser


def norm(s):
    return " ".join((s or "").replace("\u00a0", " ").split())


class _Text(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts = []

    def handle_data(self, data):
        self.parts.append(data)

    def handle_starttag(self, tag, attrs):
        self.parts.append(" ")

    def handle_endtag(self, tag):
        self.parts.append(" ")


def strip_html(s):
    p = _Text()
    p.feed(s or "")
    p.close()
    return norm("".join(p.parts))


def rfc3339(t):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t)) if t is not None else None


def check(items, want):
    """'' when items match the expectation, else what differs first."""
    if len(items) != len(want):
        return "%d items, want %d" % (len(items), len(want))
    for i, (got, exp) in enumerate(zip(items, want), 1):
        if norm(got["title"]) != norm(exp["title"]):
            return "item %d title %r" % (i, got["title"])
        if got["link"] != exp["link"]:
            return "item %d link %r" % (i, got["link"])
        if norm(exp["text"]) not in norm(got["text"]):
            return "item %d text %r" % (i, got["text"][:60])
        if got["date"] != exp["date"]:
            return "item %d date %r" % (i, got["date"])
        if "authors" in exp and got["authors"] != exp["authors"]:
            return "item %d authors %r" % (i, got["authors"])
        if "id" in exp and got["id"] != exp["id"]:
            return "item %d id %r" % (i, got["id"])
    return ""


def blogsearch_items(binary, path):
    run = subprocess.run([binary, "parse", path], capture_output=True, timeout=120)
    if run.returncode != 0 or not run.stdout.strip():
        return None, None, run.stderr.decode("utf-8", "replace").strip()[:80]
    out = json.loads(run.stdout.decode("utf-8").splitlines()[0])
    items = [{"title": p["title"], "link": p["link"], "id": p["id"], "authors": p["authors"],
              "text": (p.get("summary") or "") + " " + (p.get("text") or ""),
              "date": p["published"] or p["updated"]} for p in out["posts"]]
    return items, out.get("complete", True), ""


def _date(value):
    """blogsearch prints dates as RFC 3339 strings or numbers; normalise."""
    if isinstance(value, (int, float)):
        return rfc3339(value)
    return value


def feedparser_items(path):
    with open(path, "rb") as f:
        d = feedparser.parse(f.read())
    items = []
    for e in d.entries:
        def text_of(detail, value):
            t = (detail or {}).get("type", "text/plain")
            return strip_html(value) if "html" in t else norm(value)
        title = text_of(e.get("title_detail"), e.get("title", ""))
        parts = [text_of(e.get("summary_detail"), e.get("summary", ""))]
        for c in e.get("content", []):
            parts.append(text_of(c, c.get("value", "")))
        parsed = e.get("published_parsed") or e.get("updated_parsed")
        authors = [a.get("name", "") for a in e.get("authors", []) if a.get("name")]
        items.append({"title": title, "link": e.get("link", ""), "id": e.get("id", ""),
                      "authors": authors, "text": " ".join(parts),
                      "date": rfc3339(calendar.timegm(parsed)) if parsed else None})
    return items


def main():
    binary, folder = sys.argv[1], sys.argv[2]
    with open(os.path.join(folder, "expected.json"), encoding="utf-8") as f:
        expected = json.load(f)
    ours = theirs = 0
    print("%-46s %-34s %s" % ("feed", "blogsearch", "feedparser"))
    for name in sorted(expected):
        want = expected[name]
        path = os.path.join(folder, name)
        items, complete, error = blogsearch_items(binary, path)
        if items is None:
            verdict = "error: " + error
        else:
            for it in items:
                it["date"] = _date(it["date"])
            verdict = check(items, want["items"])
            if not verdict and complete != want["complete"]:
                verdict = "complete=%s, want %s" % (complete, want["complete"])
        fp = check(feedparser_items(path), want["items"])
        ours += not verdict
        theirs += not fp
        print("%-46s %-34s %s" % (name, (verdict or "ok")[:34], (fp or "ok")[:60]))
    total = len(expected)
    print("blogsearch %d/%d, feedparser %d/%d" % (ours, total, theirs, total))
    if ours != total:
        print("FAIL: blogsearch got %d of %d broken feeds wrong" % (total - ours, total))
        return 1
    if ours <= theirs:
        print("FAIL: blogsearch does not beat feedparser")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
