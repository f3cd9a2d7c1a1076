"""Writes a synthetic snapshot archive for the rebuild test.

make_archive.py DIR FEEDS SNAPSHOTS ITEMS [PREFIX [FIRST_DAY]]

DIR/<feed>/<UTC>.xml + .headers.json for FEEDS feeds (PREFIX-00, ...; PREFIX
defaults to "feed"), each
with SNAPSHOTS snapshots a day apart; every snapshot holds ITEMS items and
the window moves by ITEMS/5 items per snapshot, so posts appear and leave.
Item text is drawn from a fixed vocabulary with a fixed seed: the same
arguments always give the same archive. Every post carries the word
"rebuildtest" and its feed's word ("feedword00", ...).
"""
import json
import os
import random
import sys
from datetime import datetime, timedelta, timezone
from xml.sax.saxutils import escape

out, feeds, snapshots, items = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
prefix = sys.argv[5] if len(sys.argv) > 5 else "feed"
first_day = int(sys.argv[6]) if len(sys.argv) > 6 else 1
rng = random.Random(4)
vocab = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 10))) for _ in range(5000)]
step = max(1, items // 5)

for f in range(feeds):
    feed = "%s-%02d" % (prefix, f)
    os.makedirs(os.path.join(out, feed), exist_ok=True)
    for s in range(snapshots):
        when = datetime(2026, 9, first_day, 6, 0, 0, tzinfo=timezone.utc) + timedelta(days=s, minutes=f)
        stamp = when.strftime("%Y-%m-%dT%H%M%SZ")
        parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel>',
                 "<title>Feed %02d</title><link>https://%s.example.org/</link>" % (f, feed)]
        for i in range(s * step, s * step + items):
            r = random.Random(f * 100003 + i)
            text = " ".join(r.choice(vocab) for _ in range(250))
            pub = datetime(2026, 8, 1, tzinfo=timezone.utc) + timedelta(hours=i)
            parts.append(
                "<item><title>%s post %d %s</title><link>https://%s.example.org/p/%d</link>"
                "<guid isPermaLink=\"false\">urn:%s:%d</guid><pubDate>%s</pubDate>"
                "<description>%s</description></item>"
                % (feed, i, escape(r.choice(vocab)), feed, i, feed, i,
                   pub.strftime("%a, %d %b %Y %H:%M:%S +0000"),
                   escape("<p>rebuildtest feedword%02d %s</p>" % (f, text))))
        parts.append("</channel></rss>\n")
        body = "\n".join(parts).encode()
        base = os.path.join(out, feed, stamp)
        with open(base + ".xml", "wb") as fh:
            fh.write(body)
        with open(base + ".headers.json", "w") as fh:
            json.dump({"fetchedAt": when.strftime("%Y-%m-%dT%H:%M:%SZ"), "status": 200,
                       "finalUrl": "https://%s.example.org/feed" % feed,
                       "contentLength": str(len(body))}, fh)
