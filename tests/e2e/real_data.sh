#!/usr/bin/env bash
# Real data: every snapshot in ../shared/corpus/blog-history, indexed in one
# run, gives exactly the distinct posts that corpus/README.md states (1,619,
# counted by python3-feedparser with identity = id, else link); a second run
# changes nothing.
set -euo pipefail
shared="$SOURCE_DIR/../shared/corpus"
if [ ! -f "$shared/blog-history.tar.xz" ]; then
  echo "SKIP: $shared/blog-history.tar.xz not found (../shared is only present in CI and dev sessions)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xJf "$shared/blog-history.tar.xz" -C "$tmp"

"$BLOGSEARCH_INDEX" add --db "$tmp/db" "$tmp/blog-history" 2>&1 | tee "$tmp/first.txt"
grep -q ' 5058 snapshots read' "$tmp/first.txt" || { echo "FAIL: expected 5058 snapshots read"; exit 1; }
grep -q ' 0 errors' "$tmp/first.txt" || { echo "FAIL: errors while indexing the corpus"; exit 1; }

docs=$(/usr/bin/python3 -c 'import sys, xapian; print(xapian.Database(sys.argv[1]).get_doccount())' "$tmp/db")
echo "documents: $docs (expected 1619)"
[ "$docs" -eq 1619 ] || { echo "FAIL: expected 1619 distinct posts, found $docs"; exit 1; }

/usr/bin/python3 - "$tmp/db" <<'PY'
import json, sys, xapian
db = xapian.Database(sys.argv[1])
bad = []
for item in db.postlist(""):
    d = json.loads(db.get_document(item.docid).get_value(7))  # kSlotRecord
    for key in ("id", "title", "first_seen", "last_seen", "versions", "in_feed", "feed"):
        if key not in d:
            bad.append((d.get("id"), key))
    if d["first_seen"] > d["last_seen"]:
        bad.append((d["id"], "first_seen after last_seen"))
if bad:
    print("FAIL: documents with missing or inconsistent fields:", bad[:5])
    sys.exit(1)
print("every document has id, title, seen times, versions, in_feed, feed")
PY

"$BLOGSEARCH_INDEX" add --db "$tmp/db" "$tmp/blog-history" 2>&1 | tee "$tmp/second.txt"
grep -q '5058 skipped as already ingested' "$tmp/second.txt" || { echo "FAIL: second run re-ingested snapshots"; exit 1; }
echo "PASS: 1619 posts, second run a no-op"
