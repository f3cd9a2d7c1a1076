#!/usr/bin/env python3
"""The encoding matrix (matrix.tsv) read by blogsearch and by python3-feedparser.

usage: matrix_compare.py BLOGSEARCH_INDEX MATRIX.TSV WORKDIR

Writes each row's document to WORKDIR, reads it with `blogsearch-index parse`
and with feedparser, and counts a reader right on a row when the item's title
and description both equal the expected text. A row's HTTP charset reaches
blogsearch as `fetch` records it, in the Content-Type of NN.headers.json
beside the file, and must give the same text when given with --charset
instead; feedparser gets it in response_headers' Content-Type. Prints both
scores, and the rows each got wrong. Exits 1 unless blogsearch is right at
least as often as feedparser and right on every row whose bytes determine the
answer.
"""

import json
import os
import subprocess
import sys

import feedparser

BOMS = {
    "-": b"",
    "utf8": b"\xef\xbb\xbf",
    "utf8x2": b"\xef\xbb\xbf\xef\xbb\xbf",
    "utf16le": b"\xff\xfe",
    "utf16lex2": b"\xff\xfe\xff\xfe",
    "utf16be": b"\xfe\xff",
    "utf32le": b"\xff\xfe\x00\x00",
    "utf32be": b"\x00\x00\xfe\xff",
}


def unescape(s):
    out = bytearray()
    i = 0
    while i < len(s):
        if s.startswith("\\\\", i):
            out += b"\\"
            i += 2
        elif s.startswith("\\x", i) and i + 3 < len(s):
            out.append(int(s[i + 2:i + 4], 16))
            i += 4
        else:
            out += s[i].encode("utf-8")
            i += 1
    return bytes(out)


def read_matrix(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 8:
                raise SystemExit("%s: not 8 fields: %r" % (path, line))
            name, layout, bom, declared, http, title, want, determined = fields
            rows.append({
                "name": name, "layout": layout, "bom": bom, "declared": declared,
                "http": "" if http == "-" else http, "title": unescape(title),
                "want": unescape(want).decode("utf-8"), "determined": determined,
            })
    return rows


# The same document tests/encoding_test.cc builds.
def document(r):
    if r["declared"] == "noxml":
        decl = b""
    elif r["declared"] == "-":
        decl = b'<?xml version="1.0"?>\n'
    else:
        decl = b'<?xml version="1.0" encoding="' + r["declared"].encode() + b'"?>\n'
    text = (decl + b'<rss version="2.0"><channel><title>Matrix</title><link>http://example.org/</link>'
            b"<item><title>" + r["title"] + b"</title><description>" + r["title"] +
            b"</description><guid>http://example.org/1</guid></item></channel></rss>\n")
    if r["layout"] != "bytes":
        text = text.decode("utf-8").encode(r["layout"])
    return BOMS[r["bom"]] + text


def blogsearch_reads(binary, path, http):
    if http:
        with open(path[:-len(".xml")] + ".headers.json", "w") as f:
            json.dump({"status": 200, "contentType": "application/rss+xml; charset=" + http}, f)
        got = parse_output(binary, [path])
        if got != parse_output(binary, ["--charset", http, path]):
            return None, "--charset and headers.json disagree"
        return got
    return parse_output(binary, [path])


def parse_output(binary, args):
    p = subprocess.run([binary, "parse"] + args, capture_output=True, timeout=60)
    if p.returncode != 0 or not p.stdout.strip():
        return None, p.stderr.decode("utf-8", "replace").strip()
    out = json.loads(p.stdout.decode("utf-8").splitlines()[0])
    if not out["posts"]:
        return None, "no posts"
    post = out["posts"][0]
    return (post["title"], post["summary"]), ""


def feedparser_reads(data, http):
    if http:
        d = feedparser.parse(data, response_headers={"content-type": "application/xml; charset=" + http})
    else:
        d = feedparser.parse(data)
    if not d.entries:
        return None, str(d.get("bozo_exception", "no entries"))
    e = d.entries[0]
    return (e.get("title"), e.get("summary")), ""


def main():
    binary, matrix, workdir = sys.argv[1:4]
    rows = read_matrix(matrix)
    os.makedirs(workdir, exist_ok=True)
    score = {"blogsearch": 0, "feedparser": 0}
    determined = {"blogsearch": 0, "feedparser": 0}
    n_determined = 0
    missed = {"blogsearch": [], "feedparser": []}
    for i, r in enumerate(rows):
        data = document(r)
        path = os.path.join(workdir, "%02d.xml" % i)
        with open(path, "wb") as f:
            f.write(data)
        got = {"blogsearch": blogsearch_reads(binary, path, r["http"]),
               "feedparser": feedparser_reads(data, r["http"])}
        n_determined += r["determined"] == "bytes"
        for reader, (fields, why) in got.items():
            ok = fields is not None and fields[0] == r["want"] and fields[1] == r["want"]
            if ok:
                score[reader] += 1
                determined[reader] += r["determined"] == "bytes"
            else:
                missed[reader].append((r, fields, why))
    for reader in ("blogsearch", "feedparser"):
        for r, fields, why in missed[reader]:
            print("%s wrong: %s (%s): got %r %s" % (reader, r["name"], r["determined"],
                                                   fields[0] if fields else None, why))
    m = len(rows)
    print("encoding matrix: blogsearch %d/%d, feedparser %d/%d" % (score["blogsearch"], m, score["feedparser"], m))
    print("rows the bytes determine: blogsearch %d/%d, feedparser %d/%d" %
          (determined["blogsearch"], n_determined, determined["feedparser"], n_determined))
    ok = True
    if m < 60:
        print("FAIL: only %d rows in %s" % (m, matrix))
        ok = False
    if score["blogsearch"] < score["feedparser"]:
        print("FAIL: blogsearch is right less often than feedparser")
        ok = False
    if determined["blogsearch"] < n_determined:
        print("FAIL: blogsearch is wrong on a row whose bytes determine the answer")
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
