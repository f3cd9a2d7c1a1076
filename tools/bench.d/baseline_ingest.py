#!/usr/bin/python3
"""The ingest benchmark's python baseline: what `blogsearch-index add` does,
written the short way with python3-feedparser and python3-xapian.

    baseline_ingest.py --db FRESH_DB DIR

DIR holds one folder per feed, each with snapshots named so that name order is
observed order (blog-history's <UTC>.xml). Every snapshot of a feed is replayed
in that order; a post's identity is its entry id, else its link; an item whose
title+content hash is unchanged is skipped; at the end each post is indexed
once, in its newest version, with a TermGenerator and the English stemmer.
Prints one summary line. It must be run with Debian's /usr/bin/python3, which
has the feedparser and xapian modules.
"""

import argparse
import hashlib
import html.parser
import os
import sys
import time

import feedparser
import xapian

# Title terms are indexed under S and again unprefixed with a higher
# within-document frequency, as indexer/schema.h lays them out.
TITLE_WEIGHT = 5


class TextExtractor(html.parser.HTMLParser):
    """HTML to plain text: keep text and img alt, drop script/style bodies,
    break words at block elements so "end</p><p>Start" stays two words."""

    DROP = {"script", "style", "noscript", "template"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts = []
        self.dropping = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.DROP:
            self.dropping += 1
        elif tag == "img":
            alt = dict(attrs).get("alt")
            if alt:
                self.parts.append(" " + alt + " ")
        self.parts.append(" ")

    def handle_endtag(self, tag):
        if tag in self.DROP and self.dropping:
            self.dropping -= 1
        self.parts.append(" ")

    def handle_data(self, data):
        if not self.dropping:
            self.parts.append(data)


def html_to_text(markup):
    extractor = TextExtractor()
    extractor.feed(markup)
    extractor.close()
    return " ".join("".join(extractor.parts).split())


def entry_content(entry):
    """The entry's HTML: content (content:encoded, atom:content), else summary."""
    content = entry.get("content")
    if content:
        return content[0].get("value", "")
    return entry.get("summary", "")


def replay(root, feedparser_defaults=False):
    """Replays every snapshot; returns ({identity: (title, html)}, counters)."""
    posts = {}
    hashes = {}
    counts = {"snapshots": 0, "items": 0, "versions": 0, "unchanged": 0}
    for feed in sorted(os.listdir(root)):
        feed_dir = os.path.join(root, feed)
        if not os.path.isdir(feed_dir):
            continue
        for name in sorted(os.listdir(feed_dir)):
            if not name.endswith(".xml"):
                continue
            # Relative links and sanitising are not needed: the text is
            # extracted below, so both are turned off to keep the baseline fair.
            if feedparser_defaults:
                parsed = feedparser.parse(os.path.join(feed_dir, name))
            else:
                parsed = feedparser.parse(os.path.join(feed_dir, name),
                                          sanitize_html=False,
                                          resolve_relative_uris=False)
            counts["snapshots"] += 1
            for entry in parsed.entries:
                identity = entry.get("id") or entry.get("link")
                if not identity:
                    continue
                counts["items"] += 1
                title = entry.get("title", "")
                content = entry_content(entry)
                digest = hashlib.blake2b((title + "\0" + content).encode("utf-8", "replace"),
                                         digest_size=8).digest()
                if hashes.get(identity) == digest:
                    counts["unchanged"] += 1
                    continue
                hashes[identity] = digest
                counts["versions"] += 1
                posts[identity] = (title, content)
    return posts, counts


def index(posts, db_path):
    db = xapian.WritableDatabase(db_path, xapian.DB_CREATE_OR_OPEN)
    generator = xapian.TermGenerator()
    generator.set_stemmer(xapian.Stem("english"))
    db.begin_transaction()
    for identity, (title, content) in posts.items():
        doc = xapian.Document()
        generator.set_document(doc)
        generator.index_text(title, 1, "S")
        generator.index_text(title, TITLE_WEIGHT)
        generator.increase_termpos()
        text = html_to_text(content)
        generator.index_text(text)
        id_term = "Q" + identity
        if len(id_term.encode("utf-8")) > 245:
            id_term = "Q#" + hashlib.blake2b(identity.encode("utf-8"), digest_size=16).hexdigest()
        doc.add_boolean_term(id_term)
        doc.set_data(title + "\n" + text)
        db.replace_document(id_term, doc)
    db.commit_transaction()
    count = db.get_doccount()
    db.close()
    return count


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="fresh Xapian database to create")
    parser.add_argument("dir", help="folder of feed folders of snapshots")
    parser.add_argument("--feedparser-defaults", action="store_true",
                        help="call feedparser.parse(file) as a first script would (sanitising on)")
    args = parser.parse_args()
    if not os.path.isdir(args.dir):
        sys.exit(f"baseline_ingest: {args.dir}: not a directory")
    started = time.monotonic()
    posts, counts = replay(args.dir, args.feedparser_defaults)
    documents = index(posts, args.db)
    print(f"baseline: {counts['snapshots']} snapshots, {counts['items']} items, "
          f"{counts['versions']} versions, {counts['unchanged']} unchanged, "
          f"{documents} documents, {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
