#!/usr/bin/env bash
# import-git over a small git-scraping repository built here: every committed
# version of the feed file becomes a snapshot observed at its commit time,
# with the headers.json committed beside it when there is one; a commit that
# does not touch the file adds nothing, a non-feed version is skipped with a
# message, a deleted-then-restored file continues. Re-running is a no-op, a
# rebuild from the archive gives the same index, bare repositories work, and
# bad arguments exit 2.
set -euo pipefail

if ! command -v git >/dev/null; then
  echo "SKIP: git is not installed (tools/setup installs it)"
  exit 77
fi
# shellcheck source=fetch.d/feeds.sh
source "$SOURCE_DIR/tests/e2e/fetch.d/feeds.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export BLOGSEARCH_DB="$tmp/db" BLOGSEARCH_ARCHIVE="$tmp/archive"
export GIT_CONFIG_NOSYSTEM=1 HOME="$tmp/home"
mkdir -p "$HOME"

. "$SOURCE_DIR/tests/e2e/checks.sh"
reported=0
pass() {  # a section's verdict: "ok" only when none of its checks failed
  if [ "$failures" -eq "$reported" ]; then echo "ok: $*"; else echo "not ok: $*"; fi
  reported=$failures
}

repo="$tmp/scraper"
git init -q -b main "$repo"
git -C "$repo" config user.name "Scraper Bot"
git -C "$repo" config user.email "bot@example.org"
mkdir -p "$repo/raw/test-feed"
commit() {  # WHEN MESSAGE: commit everything at WHEN (author and committer date)
  git -C "$repo" add -A
  GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" git -C "$repo" commit -q -m "$2"
  git -C "$repo" rev-parse HEAD
}
feed="$repo/raw/test-feed/response.xml"
headers="$repo/raw/test-feed/headers.json"

# Items: write_feed numbers them 1..N; windows are cut with sed below.
items() {  # FIRST LAST [EDITED]: a feed with posts FIRST..LAST of "history"
  mkdir -p "$(dirname "$feed")"
  write_feed "$tmp/all.xml" history "$2" "${3:-}"
  {
    grep -v '<item>\|</channel>' "$tmp/all.xml"
    grep '<item>' "$tmp/all.xml" | sed -n "$1,$2p"
    echo '</channel></rss>'
  } >"$feed"
}

items 1 3 original
cat >"$headers" <<'EOF'
{"observed_at": "2026-09-01T09:59:58.120Z", "status": 200, "final_url": "https://history.example.org/feed",
 "etag": "\"e1\"", "last_modified": "Mon, 31 Aug 2026 20:00:00 GMT"}
EOF
c1=$(commit 2026-09-01T10:00:00Z "history: changed")

echo "scraper notes" >"$repo/README"
commit 2026-09-02T10:00:00Z "notes" >/dev/null

items 1 4 edited  # post 2 and 3 edited, post 4 new
cat >"$headers" <<'EOF'
{"fetchedAt": "2026-09-03T09:59:59Z", "status": 200, "finalUrl": "https://history.example.org/feed",
 "etag": "\"e2\"", "lastModified": "Wed, 02 Sep 2026 20:00:00 GMT"}
EOF
commit 2026-09-03T10:00:00Z "history: changed" >/dev/null

git -C "$repo" rm -q "$headers"
items 3 5 edited
commit 2026-09-04T10:00:00Z "history: changed, no headers" >/dev/null

printf '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>\n' >"$feed"
c5=$(commit 2026-09-05T10:00:00Z "history: error page")

git -C "$repo" rm -q "$feed"
commit 2026-09-06T10:00:00Z "history: gone" >/dev/null

items 4 6 edited
commit 2026-09-07T10:00:00Z "history: back" >/dev/null

# ---- import -----------------------------------------------------------------
rc=0
"$BLOGSEARCH_INDEX" import-git "$repo" --path raw/test-feed/response.xml >"$tmp/first.out" 2>"$tmp/first.err" || rc=$?
sed 's/^/  | /' "$tmp/first.out" "$tmp/first.err"
# A version that is not a feed is history, not a failure: exit 0.
[ "$rc" -eq 0 ] || fail "import with one non-feed version exited $rc, expected 0"
grep -q ': 5 versions of raw/test-feed/response.xml .* as feed test-feed: 4 archived, 0 already .*, 2 with headers.json, 1 not a feed, 0 unreadable' \
  "$tmp/first.out" || fail "import summary does not count 5 versions, 4 archived, 2 with headers, 1 not a feed"
grep -q "not a feed, skipped: .*@${c5:0:12}:raw/test-feed/response.xml" "$tmp/first.err" ||
  fail "the error-page version is not named in a message"
(cd "$BLOGSEARCH_ARCHIVE/test-feed" && ls *.xml) >"$tmp/files.txt"
printf '%s\n' 2026-09-01T100000Z.xml 2026-09-03T100000Z.xml 2026-09-04T100000Z.xml 2026-09-07T100000Z.xml |
  diff - "$tmp/files.txt" || fail "archived files are not one per feed version, named by commit time"

/usr/bin/python3 - "$BLOGSEARCH_ARCHIVE/test-feed" "$c1" <<'PY' || fail "archived headers do not carry the committed headers and the commit"
import json, sys
d, c1 = sys.argv[1], sys.argv[2]
h = json.load(open(d + "/2026-09-01T100000Z.headers.json"))
assert h["observed_at"] == "2026-09-01T10:00:00Z", h       # the commit time
assert h["etag"] == '"e1"' and h["lastModified"] == "Mon, 31 Aug 2026 20:00:00 GMT", h
assert h["finalUrl"] == "https://history.example.org/feed", h
assert h["gitCommit"] == c1 and h["gitPath"] == "raw/test-feed/response.xml", h
assert h["recorded"]["observed_at"] == "2026-09-01T09:59:58.120Z", h
h3 = json.load(open(d + "/2026-09-03T100000Z.headers.json"))
assert h3["etag"] == '"e2"' and h3["finalUrl"] == "https://history.example.org/feed", h3
h4 = json.load(open(d + "/2026-09-04T100000Z.headers.json"))
assert "recorded" not in h4 and h4["etag"] is None, h4
PY

check_db() {  # LABEL: the index built from the four versions
  /usr/bin/python3 - "$BLOGSEARCH_DB" <<'PY' || fail "$1: the index does not hold the history as committed"
import json, os, sys, xapian
sys.path.insert(0, os.path.join(os.environ["SOURCE_DIR"], "tests", "e2e"))
from golden_check import stored_text  # record/stored_text.h, as the golden test reads it
db = xapian.Database(sys.argv[1])
docs = {}
for item in db.postlist("XFEEDtest-feed"):
    doc = db.get_document(item.docid)
    d = json.loads(doc.get_value(7))  # kSlotRecord
    t = doc.get_value(5)  # indexer/schema.h: kSlotText (record/stored_text.h)
    d["text"] = stored_text(t).decode()
    docs[d["id"]] = d
assert sorted(docs) == ["urn:history:%d" % i for i in range(1, 7)], sorted(docs)
p1, p2, p4, p6 = (docs["urn:history:%d" % i] for i in (1, 2, 4, 6))
assert p1["first_seen"] == "2026-09-01T10:00:00Z" and p1["last_seen"] == "2026-09-03T10:00:00Z", p1
assert p1["in_feed"] is False and p1["versions"] == 2, p1   # edited on 09-03
assert p2["versions"] == 2 and "edited" in p2["summary"] + p2["text"], p2
assert p4["first_seen"] == "2026-09-03T10:00:00Z" and p4["last_seen"] == "2026-09-07T10:00:00Z", p4
assert p4["in_feed"] is True and p4["versions"] == 1, p4
assert p6["first_seen"] == "2026-09-07T10:00:00Z" and p6["in_feed"] is True, p6
PY
}
check_db "import"
pass "5 versions in commit order: 4 archived at commit times with their headers, 1 non-feed skipped, 6 posts"

# ---- a re-run changes nothing -------------------------------------------------
rc=0
"$BLOGSEARCH_INDEX" import-git "$repo" --path raw/test-feed/response.xml >"$tmp/second.out" 2>/dev/null || rc=$?
sed 's/^/  | /' "$tmp/second.out"
[ "$rc" -eq 0 ] || fail "re-run exited $rc, expected 0 (the error page is counted, not a failure)"
grep -q '1 not a feed, 0 unreadable' "$tmp/second.out" || fail "re-run does not count the error page"
grep -q '0 archived, 4 already in' "$tmp/second.out" || fail "re-run archived versions again"
grep -q '4 skipped as already ingested' "$tmp/second.out" || fail "re-run ingested snapshots again"
[ "$(find "$BLOGSEARCH_ARCHIVE" -name '*.xml' | wc -l)" -eq 4 ] || fail "re-run added archive files"
pass "re-running import-git is a no-op"

# ---- rebuild from the archive gives the same index ---------------------------
"$BLOGSEARCH_INDEX" rebuild --quiet >"$tmp/rebuild.out" 2>&1 || fail "rebuild after import-git failed: $(cat "$tmp/rebuild.out")"
check_db "rebuild"
pass "rebuild from the archive reproduces the imported history"

# ---- chunks: the database of one run -------------------------------------------
# import-git ingests the versions in chunks of --chunk (import_git.h) so that
# memory does not grow with the history; the writer's replay is a function
# of the set of snapshots, so every chunking gives the posts of one run.
# All share one archive: the snapshots' paths agree.
posts_json() {  # DB: every post's show --format json, one line each, by id
  /usr/bin/python3 - "$1" "$BLOGSEARCH" <<'PY'
import json, subprocess, sys, xapian
path, cli = sys.argv[1:3]
db = xapian.Database(path)
for i in sorted(t.term.decode()[1:] for t in db.allterms("Q")):
    shown = json.loads(subprocess.run([cli, "show", "--db", path, "--format", "json", i],
                                      check=True, capture_output=True, text=True).stdout)
    shown.pop("docid")  # the order documents were added in
    print(json.dumps(shown, sort_keys=True))
PY
}
"$BLOGSEARCH_INDEX" import-git "$repo" --path raw/test-feed/response.xml --quiet --db "$tmp/one" 2>/dev/null ||
  fail "one-run import exited $?"
posts_json "$tmp/one" >"$tmp/one.json"
[ "$(wc -l <"$tmp/one.json")" -eq 6 ] || fail "the one-run import does not hold 6 posts"
for chunk in 1 2 3; do
  rc=0
  "$BLOGSEARCH_INDEX" import-git "$repo" --path raw/test-feed/response.xml --chunk "$chunk" \
    --db "$tmp/chunk$chunk" >"$tmp/chunk$chunk.out" 2>/dev/null || rc=$?
  [ "$rc" -eq 0 ] || fail "--chunk $chunk exited $rc"
  grep -q '4 snapshots read, 0 skipped as already ingested' "$tmp/chunk$chunk.out" ||
    fail "--chunk $chunk: the summary does not add up the chunks: $(cat "$tmp/chunk$chunk.out")"
  posts_json "$tmp/chunk$chunk" | diff "$tmp/one.json" - >"$tmp/chunk.diff" ||
    fail "--chunk $chunk gives other posts than one run: $(head -c 600 "$tmp/chunk.diff")"
done
/usr/bin/python3 - "$tmp/one.json" <<'PY' || fail "the compared posts do not span edits and drop-outs"
import json, sys
posts = [json.loads(l) for l in open(sys.argv[1])]
assert any(len(p["history"]) >= 2 for p in posts) and any(not p["in_feed"] for p in posts), posts
PY
bad_chunk=0
"$BLOGSEARCH_INDEX" import-git "$repo" --path raw/test-feed/response.xml --chunk 0 --db "$tmp/chunk0" \
  >/dev/null 2>"$tmp/chunk0.err" || bad_chunk=$?
[ "$bad_chunk" -eq 2 ] || fail "--chunk 0 exited $bad_chunk, expected 2"
pass "imports in chunks of 1, 2 and 3 versions give the posts of one run (show --format json)"

# ---- --shards: a new database of K shards, ids interleaved (schema.md) -------
rc=0
"$BLOGSEARCH_INDEX" import-git "$repo" --path raw/test-feed/response.xml --quiet --shards 3 --db "$tmp/three" \
  2>/dev/null || rc=$?
[ "$rc" -eq 0 ] || fail "import-git --shards 3 exited $rc"
[ "$(grep -c '^auto gen-.*/shard-[0-2]$' "$tmp/three/XAPIANDB")" -eq 3 ] ||
  fail "import-git --shards 3 made: $(cat "$tmp/three/XAPIANDB")"
posts_json "$tmp/three" | diff "$tmp/one.json" - >"$tmp/three.diff" ||
  fail "--shards 3 gives other posts than one shard: $(head -c 600 "$tmp/three.diff")"
/usr/bin/python3 - "$tmp/three" <<'PY' || fail "a document id of a shard breaks (d-1) % K == s"
import os, sys, xapian
db = sys.argv[1]
shards = [l.split()[1] for l in open(os.path.join(db, "XAPIANDB")) if l.startswith("auto ")]
k = len(shards)
for s, path in enumerate(shards):
    shard = xapian.Database(os.path.join(db, path))
    assert shard.get_metadata("docids").decode() == "interleaved %d/%d" % (s, k), shard.get_metadata("docids")
    for p in shard.postlist(""):
        assert (p.docid - 1) % k == s, (s, p.docid)
PY
rc=0
"$BLOGSEARCH_INDEX" import-git "$repo" --path raw/test-feed/response.xml --quiet --shards 2 --db "$tmp/three" \
  2>"$tmp/three.err" || rc=$?
[ "$rc" -eq 4 ] && grep -q "has 3 shards, not 2" "$tmp/three.err" ||
  fail "import-git --shards 2 into a 3-shard database: exit $rc, $(cat "$tmp/three.err")"
pass "import-git --shards 3: three shards, the posts of one, ids interleaved; another K is refused"

# ---- bare repository, --feed ---------------------------------------------------
git clone -q --bare "$repo" "$tmp/bare.git"
rc=0
"$BLOGSEARCH_INDEX" import-git "$tmp/bare.git" --path ./raw/test-feed/response.xml --feed renamed \
  --db "$tmp/db2" --archive "$tmp/archive2" >"$tmp/bare.out" 2>/dev/null || rc=$?
[ "$rc" -eq 0 ] && grep -q 'as feed renamed: 4 archived' "$tmp/bare.out" || fail "import from a bare clone with --feed failed"
[ "$(find "$tmp/archive2/renamed" -name '*.xml' | wc -l)" -eq 4 ] || fail "--feed did not name the archive folder"
[ "$(/usr/bin/python3 -c 'import sys, xapian; print(xapian.Database(sys.argv[1]).get_termfreq("XFEEDrenamed"))' "$tmp/db2")" -eq 6 ] ||
  fail "--feed did not name the feed in the index"
pass "bare repository and --feed"

# ---- unreadable versions fail; many error pages are counted, a few named -------------
rc=0
"$BLOGSEARCH_INDEX" import-git "$repo" --path raw/test-feed/response.xml --max-body 1200 \
  --db "$tmp/db4" --archive "$tmp/archive4" >"$tmp/big.out" 2>"$tmp/big.err" || rc=$?
sed 's/^/  | /' "$tmp/big.out" "$tmp/big.err"
unreadable=$(sed -n 's/.*, \([0-9]*\) unreadable$/\1/p' "$tmp/big.out")
[ "$rc" -eq 3 ] && [ "${unreadable:-0}" -gt 0 ] || fail "versions over --max-body (unreadable) did not exit 3 (exit $rc)"
grep -q 'bytes (--max-body), skipped' "$tmp/big.err" || fail "an unreadable version is not named"

pages="$tmp/pages"
git init -q -b main "$pages"
mkdir -p "$pages/raw/cf"
write_feed "$pages/raw/cf/feed.xml" cf 2
git -C "$pages" add -A
git -C "$pages" -c user.name=bot -c user.email=bot@example.org commit -q -m feed
for i in $(seq 1 13); do
  printf '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>challenge %d</body></html>\n' "$i" \
    >"$pages/raw/cf/feed.xml"
  git -C "$pages" add -A
  GIT_COMMITTER_DATE="2026-09-10T$(printf %02d "$i"):00:00Z" \
    git -C "$pages" -c user.name=bot -c user.email=bot@example.org commit -q -m "page $i"
done
rc=0
"$BLOGSEARCH_INDEX" import-git "$pages" --path raw/cf/feed.xml --db "$tmp/db5" --archive "$tmp/archive5" \
  >"$tmp/pages.out" 2>"$tmp/pages.err" || rc=$?
[ "$rc" -eq 0 ] || fail "a history of challenge pages and one feed exited $rc, expected 0"
grep -q '14 versions .* 1 archived, .* 13 not feeds, 0 unreadable' "$tmp/pages.out" || fail "the challenge pages are not counted"
[ "$(grep -c 'not a feed, skipped' "$tmp/pages.err")" -eq 10 ] && grep -q 'warning: 3 more versions of raw/cf/feed.xml are not feeds' "$tmp/pages.err" ||
  fail "the first ten error pages are not named and the rest counted: $(cat "$tmp/pages.err")"
rc=0
"$BLOGSEARCH_INDEX" import-git "$pages" --path raw/cf/feed.xml --db "$tmp/db5" --archive "$tmp/archive5" --quiet \
  >"$tmp/pages2.out" 2>/dev/null || rc=$?
[ "$rc" -eq 0 ] && [ ! -s "$tmp/pages2.out" ] || fail "a quiet re-run exited $rc or printed a summary"
pass "exit 3 only for versions that could not be read; error pages counted, ten named"

# ---- real snapshots, laid out like the seeds' scraper ---------------------------
# raw/<feed>/response.xml + headers.json, one commit per fetch at its time.
pytorch="$SOURCE_DIR/../shared/corpus/pytorch-blog"
if [ -d "$pytorch" ]; then
  real="$tmp/real"
  git init -q -b main "$real"
  mkdir -p "$real/raw/pytorch-blog-feed"
  for body in "$pytorch"/*.xml; do
    cp "$body" "$real/raw/pytorch-blog-feed/response.xml"
    cp "${body%.xml}.headers.json" "$real/raw/pytorch-blog-feed/headers.json"
    when=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["fetchedAt"])' "${body%.xml}.headers.json")
    git -C "$real" add -A
    GIT_AUTHOR_DATE="$when" GIT_COMMITTER_DATE="$when" git -C "$real" -c user.name=bot -c user.email=bot@example.org \
      commit -q -m "pytorch-blog-feed: changed"
  done
  rc=0
  "$BLOGSEARCH_INDEX" import-git "$real" --path raw/pytorch-blog-feed/response.xml --db "$tmp/db3" \
    --archive "$tmp/archive3" >"$tmp/real.out" 2>&1 || rc=$?
  sed 's/^/  | /' "$tmp/real.out"
  [ "$rc" -eq 0 ] && grep -q '3 versions .* 3 archived, .* 3 with headers.json, 0 not feeds, 0 unreadable' "$tmp/real.out" ||
    fail "import of the real PyTorch snapshots failed (exit $rc)"
  /usr/bin/python3 - "$tmp/db3" "$tmp/archive3/pytorch-blog-feed" <<'PY' || fail "the real PyTorch history is not what corpus/README.md states"
import glob, json, sys, xapian
db = xapian.Database(sys.argv[1])
assert db.get_termfreq("XFEEDpytorch-blog-feed") == 30, db.get_termfreq("XFEEDpytorch-blog-feed")
seen = sorted(json.loads(db.get_document(i.docid).get_value(7))["first_seen"] for i in db.postlist(""))
assert seen[0] == "2026-09-02T01:32:28Z", seen[0]   # the first commit's time
heads = [json.load(open(f)) for f in sorted(glob.glob(sys.argv[2] + "/*.headers.json"))]
assert [h["etag"] for h in heads] == [h["recorded"]["etag"] for h in heads], heads
assert all(h["finalUrl"] == "https://pytorch.org/blog/feed/" for h in heads), heads
PY
  pass "real PyTorch snapshots imported from a scraper-style repository: 30 posts"
else
  echo "note: $pytorch not found; the real-snapshot import was not run"
fi

# ---- import-git after fetch: the database of the other order -------------------
# Issue 15's rule: a feed fetched live and then backfilled from its git
# history gives the database that the history and then the fetched snapshot
# give. Both databases share one archive, so the snapshots' paths agree.
if command -v lighttpd >/dev/null && command -v curl >/dev/null; then
  # shellcheck source=fetch.d/server.sh
  source "$SOURCE_DIR/tests/e2e/fetch.d/server.sh"
  trap 'server_stop; rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/www"
  items 5 7 edited  # the live feed now: post 7 new, 4 gone
  cp "$feed" "$tmp/www/feed.xml"
  git -C "$repo" checkout -q -- . 2>/dev/null || true
  server_start "$tmp/srv" "$tmp/www"
  printf '[[feed]]\nid = "test-feed"\nurl = "%s/feed.xml"\n' "$BASE" >"$tmp/order.toml"
  both=$tmp/order-archive
  run() { BLOGSEARCH_ARCHIVE=$both "$BLOGSEARCH_INDEX" "$@" >>"$tmp/order.out" 2>&1 || fail "$*: exit $?"; }
  run fetch --quiet --config "$tmp/order.toml" --db "$tmp/late"
  run import-git "$repo" --path raw/test-feed/response.xml --quiet --db "$tmp/late"
  run import-git "$repo" --path raw/test-feed/response.xml --quiet --db "$tmp/early"
  fetched=$(grep -L gitCommit "$both"/test-feed/*.headers.json | sed 's/\.headers\.json$/.xml/')
  [ "$(echo "$fetched" | wc -l)" -eq 1 ] && [ -f "$fetched" ] || fail "fetch did not archive one snapshot: '$fetched'"
  run add --quiet --db "$tmp/early" "$fetched"
  server_stop
  sed 's/^/  | /' "$tmp/order.out"
  /usr/bin/python3 - "$tmp/late" "$tmp/early" "$BLOGSEARCH" <<'PY' || fail "fetch then import-git differs from import-git then the fetched snapshot"
import json, subprocess, sys, xapian
late, early, cli = sys.argv[1:4]
def posts(path):
    db = xapian.Database(path)
    ids = sorted(t.term.decode()[1:] for t in db.allterms("Q"))
    out = {}
    for i in ids:
        shown = json.loads(subprocess.run([cli, "show", "--db", path, "--format", "json", i],
                                          check=True, capture_output=True, text=True).stdout)
        shown.pop("docid")  # the order documents were added in
        # The feed title and URL too: read from the feed metadata
        # (docs/history.md), the newest snapshot's in both orders.
        out[i] = shown
    return out
a, b = posts(late), posts(early)
assert a.keys() == b.keys(), (sorted(a), sorted(b))
assert len(a) == 7, sorted(a)
for i in a:
    assert a[i] == b[i], (i, json.dumps(a[i])[:400], json.dumps(b[i])[:400])
vers = {i: len(p["history"]) for i, p in a.items()}
assert max(vers.values()) >= 2 and any(not p["in_feed"] for p in a.values()), (vers, {i: p["in_feed"] for i, p in a.items()})
PY
  pass "import-git after fetch: the same posts, versions, seen times, texts, in_feed and feed names as the other order"
else
  echo "note: lighttpd or curl missing; the fetch-then-import-git order was not checked"
fi

# ---- bad arguments --------------------------------------------------------------
bad() {  # NAME REGEX ARGS...
  local name=$1 regex=$2
  shift 2
  rc=0
  "$BLOGSEARCH_INDEX" import-git "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
  [ "$rc" -eq 2 ] || fail "$name: exit $rc, expected 2"
  grep -Eq "$regex" "$tmp/$name.err" || fail "$name: message does not match '$regex': $(cat "$tmp/$name.err")"
  [ "$(wc -l <"$tmp/$name.err")" -eq 1 ] || fail "$name: message is not one line"
}
mkdir -p "$tmp/not-a-repo"
bad norepo "not-a-repo: not a git repository" "$tmp/not-a-repo" --path feed.xml
bad nopath "no commit ever added raw/other/feed.xml" "$repo" --path raw/other/feed.xml
bad absolute "must be a file path relative to the repository root" "$repo" --path /etc/passwd
bad badfeed "cannot use 'Bad Name' as a feed id" "$repo" --path raw/test-feed/response.xml --feed "Bad Name"
pass "bad repository, path or feed id exit 2 with one line"

if [ "$failures" -ne 0 ]; then
  echo "FAIL: $failures check(s) failed"
  exit 1
fi
echo "PASS: import-git"
