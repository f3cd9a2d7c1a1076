#!/usr/bin/python3
"""Copies the posts of a Xapian database into the search benchmark's rivals:
one HTML file per post for Omega's omindex, and an SQLite FTS5 table.

    posts_export.py --db XAPIAN_DB --html DIR --sqlite FILE

Each document's record (value slot 7) is read as blogsearch's JSON (title,
link, text); a document without one has its data read as the python
baseline writes it (title, newline, text).
Exits 2 with a one-line message when the database cannot be read.
"""

import argparse
import html
import json
import os
import sqlite3
import sys
import zlib

import lz4.block
import xapian

SLOT_TEXT = 5  # indexer/schema.h: kSlotText, the post's plain text
SLOT_RECORD = 7  # kSlotRecord: the post record (JSON)


def stored_text(value):
    """The plain text of a kSlotText value (record/stored_text.h): an LZ4
    block after "\\0L" and a 4-byte big-endian length (zlib after "\\0Z" in
    databases written before), as it is after "\\0P", else as it is."""
    if value[:2] == b"\0L":
        return lz4.block.decompress(value[6:], uncompressed_size=int.from_bytes(value[2:6], "big"))
    if value[:2] == b"\0Z":
        return zlib.decompress(value[6:])
    return value[2:] if value[:2] == b"\0P" else value


def read_posts(db_path):
    db = xapian.Database(db_path)
    for item in db.postlist(""):
        doc = db.get_document(item.docid)
        data = (doc.get_value(SLOT_RECORD) or doc.get_data()).decode("utf-8", "replace")
        text = stored_text(doc.get_value(SLOT_TEXT)).decode("utf-8", "replace")
        try:
            fields = json.loads(data)
        except ValueError:
            fields = None
        if isinstance(fields, dict):
            yield (fields.get("title") or "", fields.get("link") or "",
                   text or fields.get("summary") or "")
        else:
            title, _, text = data.partition("\n")
            yield title, "", text


def write_html(posts, folder):
    os.makedirs(folder, exist_ok=True)
    for number, (title, link, text) in enumerate(posts, 1):
        page = ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
                f"<title>{html.escape(title)}</title></head>\n<body>"
                f"<h1><a href=\"{html.escape(link)}\">{html.escape(title)}</a></h1>\n"
                f"<p>{html.escape(text)}</p></body></html>\n")
        with open(os.path.join(folder, f"{number:05d}.html"), "w", encoding="utf-8") as out:
            out.write(page)


def write_sqlite(posts, path):
    if os.path.exists(path):
        os.remove(path)
    con = sqlite3.connect(path)
    # porter over unicode61 is FTS5's nearest to Xapian's English stemmer.
    con.execute("CREATE VIRTUAL TABLE posts USING fts5("
                "title, link UNINDEXED, body, tokenize='porter unicode61')")
    con.executemany("INSERT INTO posts(title, link, body) VALUES (?, ?, ?)", posts)
    con.execute("INSERT INTO posts(posts) VALUES ('optimize')")
    con.commit()
    con.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--html", required=True)
    parser.add_argument("--sqlite", required=True)
    args = parser.parse_args()
    try:
        posts = list(read_posts(args.db))
    except xapian.Error as e:
        print(f"posts_export: cannot read {args.db}: {e.get_msg()}", file=sys.stderr)
        sys.exit(2)
    write_html(posts, args.html)
    write_sqlite(posts, args.sqlite)
    print(f"posts_export: {len(posts)} posts -> {args.html}/, {args.sqlite}")


if __name__ == "__main__":
    main()
