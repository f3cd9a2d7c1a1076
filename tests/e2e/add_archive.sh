#!/usr/bin/env bash
# Issue 15, point 9: `add` copies what it ingests into the snapshot archive
# (beside the database unless --archive or $BLOGSEARCH_ARCHIVE say
# otherwise), so `rebuild` -- which reads only the archive -- gives back the
# same database instead of dropping every post that came in through `add`.
# Checks: snapshots with and without headers.json, a folder whose name is no
# feed id, a second add and an add of the archive itself write nothing, and
# rebuild's documents equal add's (db_state.py dump: records, terms, values),
# and files that are not feeds are not kept in the archive, nor a feed
# folder made for them alone; a body that returns after a snapshot added
# later in between is kept each time.
#
# Env: BLOGSEARCH_INDEX, SOURCE_DIR. Exit 0 pass, 1 fail.
set -uo pipefail
: "${SOURCE_DIR:?}" "${BLOGSEARCH_INDEX:?}"
unset BLOGSEARCH_ARCHIVE BLOGSEARCH_DB

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
state() { /usr/bin/python3 "$SOURCE_DIR/tests/e2e/db_state.py" "$@"; }

# pytorch with its headers.json, kernel-digest without, tensor-notes in a
# folder whose name makes no feed id (its posts get the feed's host).
mkdir -p "$tmp/in/pytorch" "$tmp/in/kernel-digest" "$tmp/in/日本語"
cp "$SOURCE_DIR"/data/pytorch/* "$tmp/in/pytorch/"
cp "$SOURCE_DIR"/data/kernel-digest/*.xml "$tmp/in/kernel-digest/"
cp "$SOURCE_DIR"/data/tensor-notes/*.xml "$tmp/in/日本語/"

"$BLOGSEARCH_INDEX" add --db "$tmp/work/db" "$tmp/in" >"$tmp/add.out" 2>&1 || { cat "$tmp/add.out"; fail "add failed"; }
grep -q "7 snapshots copied into $tmp/work/archive, 0 there already" "$tmp/add.out" ||
  { cat "$tmp/add.out"; fail "add did not say it copied 7 snapshots into the archive beside the database"; }
archive=$tmp/work/archive
[ "$(find "$archive/pytorch" -name '*.xml' | wc -l)" -eq 3 ] || fail "pytorch's 3 snapshots are not in the archive"
[ "$(find "$archive/pytorch" -name '*.headers.json' | wc -l)" -eq 3 ] || fail "pytorch's headers.json were not archived"
[ "$(find "$archive/kernel-digest" -name '*.headers.json' | wc -l)" -eq 0 ] ||
  fail "headers.json written for snapshots that had none"
/usr/bin/python3 - "$archive/pytorch" "$tmp/in/pytorch" <<'PY' || fail "archived headers.json lost what the original said"
import glob, json, os, sys
for path in glob.glob(os.path.join(sys.argv[1], "*.headers.json")):
    got = json.load(open(path))
    original = json.load(open(os.path.join(sys.argv[2], os.path.basename(path))))
    for key in ("finalUrl", "etag", "lastModified", "status", "date"):
        assert got.get(key) == original.get(key), (path, key, got.get(key), original.get(key))
    assert got["added_from"].startswith(sys.argv[2]), got["added_from"]
PY
host_feed=$(state feeds "$tmp/work/db" | awk '{print $1}' | grep -v -e '^pytorch$' -e '^kernel-digest$')
[ -n "$host_feed" ] && [ -d "$archive/$host_feed" ] ||
  fail "the snapshots of a folder without a feed id are not archived under the feed id the database gave them ($host_feed)"

# Stored snapshot paths name the archived copies, which stay when the
# originals go.
state grep "$tmp/work/db" "$tmp/in/" >/dev/null || fail "the database names the added files, not their archived copies"

state dump "$tmp/work/db" >"$tmp/added.dump"
state feeds "$tmp/work/db" >"$tmp/added.feeds"

"$BLOGSEARCH_INDEX" add --db "$tmp/work/db" "$tmp/in" >"$tmp/again.out" 2>&1 || fail "second add failed"
grep -q "0 snapshots copied into $archive, 7 there already" "$tmp/again.out" || { cat "$tmp/again.out"; fail "a second add archived again"; }
"$BLOGSEARCH_INDEX" add --db "$tmp/work/db" "$archive" >"$tmp/self.out" 2>&1 || fail "add of the archive failed"
grep -q "0 snapshots copied" "$tmp/self.out" || { cat "$tmp/self.out"; fail "adding the archive itself copied files"; }
[ "$(find "$archive" -type f -not -name '.*' | wc -l)" -eq 10 ] ||
  fail "the archive holds $(find "$archive" -type f -not -name '.*' | wc -l) files, not 10"

rm -rf "$tmp/in"
"$BLOGSEARCH_INDEX" rebuild --db "$tmp/work/db" >"$tmp/rebuild.out" 2>&1 || { cat "$tmp/rebuild.out"; fail "rebuild failed"; }
state dump "$tmp/work/db" >"$tmp/rebuilt.dump"
state feeds "$tmp/work/db" >"$tmp/rebuilt.feeds"
[ -s "$tmp/added.dump" ] || fail "nothing was indexed"
cmp -s "$tmp/added.dump" "$tmp/rebuilt.dump" ||
  { diff "$tmp/added.dump" "$tmp/rebuilt.dump" | head -5; fail "rebuild from the archive gave other documents than add"; }
cmp -s "$tmp/added.feeds" "$tmp/rebuilt.feeds" || fail "rebuild gave other feeds than add"

# --archive puts the copies elsewhere.
"$BLOGSEARCH_INDEX" add --db "$tmp/other/db" --archive "$tmp/elsewhere" "$SOURCE_DIR/data/pytorch" >"$tmp/other.out" 2>&1 ||
  fail "add --archive failed"
[ "$(find "$tmp/elsewhere/pytorch" -name '*.xml' | wc -l)" -eq 3 ] && [ ! -e "$tmp/other/archive" ] ||
  fail "--archive was not where add copied to"

# Two databases in one folder would share the archive beside them, and a
# rebuild of one would take in the other's snapshots: the first claims it
# (ARCHIVE/.database), the second is refused until it names an archive.
[ "$(cat "$archive/.database")" = "$tmp/work/db" ] || fail "the archive does not name its database: $(cat "$archive/.database")"
rc=0
"$BLOGSEARCH_INDEX" add --db "$tmp/work/db2" "$SOURCE_DIR/data/pytorch" >"$tmp/claim.out" 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "the archive $archive beside this database belongs to the database $tmp/work/db; give $tmp/work/db2 its own with --archive DIR" "$tmp/claim.out" ||
  { cat "$tmp/claim.out"; fail "a second database beside the first took its archive (exit $rc)"; }
[ ! -e "$tmp/work/db2" ] || fail "the refused add created a database"
"$BLOGSEARCH_INDEX" add --db "$tmp/work/db2" --archive "$tmp/work/archive2" "$SOURCE_DIR/data/pytorch" >/dev/null 2>&1 ||
  fail "add with an archive of its own failed"
# An archive named on purpose is used as given: nothing is written into it
# for the claim (rebuild only reads it; it may be read-only, or data/).
[ ! -e "$tmp/work/archive2/.database" ] || fail "an archive named with --archive was claimed"
"$BLOGSEARCH_INDEX" rebuild --quiet --db "$tmp/work/db2" --archive "$SOURCE_DIR/data" >/dev/null 2>&1 ||
  fail "rebuild from data/ named with --archive failed"
[ ! -e "$SOURCE_DIR/data/.database" ] || fail "rebuild --archive data/ wrote a claim into data/"
rc=0
"$BLOGSEARCH_INDEX" rebuild --db "$tmp/work/db2" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "rebuild of the second database from the first one's archive exited $rc, not 2"
"$BLOGSEARCH_INDEX" rebuild --db "$tmp/work/db" >/dev/null 2>&1 || fail "the first database lost its archive"
# A database that moved keeps its archive: the claim of a database that is
# gone passes on.
mv "$tmp/work/db" "$tmp/work/moved"
"$BLOGSEARCH_INDEX" rebuild --quiet --db "$tmp/work/moved" >/dev/null 2>&1 || fail "rebuild after a move failed"
[ "$(cat "$archive/.database")" = "$tmp/work/moved" ] || fail "the claim did not pass to the moved database"
mv "$tmp/work/moved" "$tmp/work/db"
"$BLOGSEARCH_INDEX" rebuild --quiet --db "$tmp/work/db" >/dev/null 2>&1 || fail "rebuild after moving back failed"

# A file that is not a feed (an error page) or cannot be parsed is reported
# and not kept in the archive: rebuild would otherwise meet it on every run.
mkdir -p "$tmp/mixed/pytorch"
cp "$SOURCE_DIR"/data/pytorch/*.xml "$tmp/mixed/pytorch/"
printf '<html><body>Just a moment...</body></html>\n' >"$tmp/mixed/pytorch/2026-10-09T000000Z.xml"
printf 'not xml at all <<<' >"$tmp/mixed/pytorch/2026-10-10T000000Z.xml"
rc=0
"$BLOGSEARCH_INDEX" add --db "$tmp/mixed-db/db" "$tmp/mixed" >"$tmp/mixed.out" 2>&1 || rc=$?
[ "$rc" -eq 3 ] || { cat "$tmp/mixed.out"; fail "add of 3 feeds and 2 non-feeds exited $rc, not 3"; }
grep -q "3 snapshots copied into $tmp/mixed-db/archive" "$tmp/mixed.out" ||
  { cat "$tmp/mixed.out"; fail "add did not say it kept 3 snapshots in the archive"; }
[ "$(find "$tmp/mixed-db/archive" -type f -not -name '.*' | wc -l)" -eq 3 ] ||
  fail "the archive holds $(find "$tmp/mixed-db/archive" -type f -not -name '.*' | wc -l) files, not the 3 feeds"
grep -q "2026-10-09T000000Z.xml" "$tmp/mixed.out" && grep -q "$tmp/mixed/pytorch/2026-10-10T000000Z.xml" "$tmp/mixed.out" ||
  { cat "$tmp/mixed.out"; fail "add did not name both bad files as given"; }
rc=0
"$BLOGSEARCH_INDEX" rebuild --db "$tmp/mixed-db/db" >"$tmp/mixed-rebuild.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || { cat "$tmp/mixed-rebuild.out"; fail "rebuild after an add with bad files exited $rc"; }

# A failed add takes out of the archive the feed folder it made for the bad
# file, left empty (it would stay as a feed of nothing), and no other
# folder: not one that was there before, not one that holds a good file.
# One file is "1 snapshot" and "1 error".
mkdir -p "$tmp/site"
printf '<html><body>a page</body></html>\n' >"$tmp/site/page.html"
printf 'not xml at all <<<' >"$tmp/bad.xml"
empty_add() {  # NAME ARGS...: an add into mixed-db expected to fail whole (exit 2)
  local name=$1
  shift
  rc=0
  "$BLOGSEARCH_INDEX" add --db "$tmp/mixed-db/db" "$@" >"$tmp/$name.out" 2>&1 || rc=$?
  [ "$rc" -eq 2 ] || { cat "$tmp/$name.out"; fail "$name: an add of one bad file exited $rc, not 2"; }
}
empty_add page "$tmp/site/page.html"
[ ! -e "$tmp/mixed-db/archive/site" ] || fail "a failed add of site/page.html left the folder archive/site"
grep -q ": 0 snapshots copied into " "$tmp/page.out" &&
  grep -q ": 1 snapshot read, 0 skipped as already ingested, 0 items seen, 0 posts added, .*, 1 error, " "$tmp/page.out" ||
  { cat "$tmp/page.out"; fail "the summary of one bad file does not say '1 snapshot read', '1 error'"; }
empty_add named --feed newuser3 "$tmp/bad.xml"
[ ! -e "$tmp/mixed-db/archive/newuser3" ] || fail "a failed add --feed newuser3 left the folder archive/newuser3"
empty_add existing --feed pytorch "$tmp/bad.xml"
[ "$(find "$tmp/mixed-db/archive/pytorch" -name '*.xml' | wc -l)" -eq 3 ] || fail "a failed add into an existing feed's folder changed it"
rc=0
"$BLOGSEARCH_INDEX" add --db "$tmp/mixed-db/db" --feed fresh "$SOURCE_DIR/data/kernel-digest/$(ls "$SOURCE_DIR/data/kernel-digest" | grep -m1 '\.xml$')" \
  "$tmp/bad.xml" >"$tmp/fresh.out" 2>&1 || rc=$?
[ "$rc" -eq 3 ] || { cat "$tmp/fresh.out"; fail "an add of a good and a bad file exited $rc, not 3"; }
[ "$(find "$tmp/mixed-db/archive/fresh" -name '*.xml' | wc -l)" -eq 1 ] || fail "the folder a partly failed add made lost its good file"
grep -q "1 snapshot copied into" "$tmp/fresh.out" || { cat "$tmp/fresh.out"; fail "add of one good file does not say '1 snapshot copied'"; }

# A body the snapshot before had, then a snapshot in between added by a
# later run: the first run archives both of the same body (each has its own
# time), and rebuild gives back the three versions add made.
mkdir -p "$tmp/rev/myblog"
revision() {  # FILE TITLE WORDS
  printf '<?xml version="1.0"?><rss version="2.0"><channel><title>My Blog</title><link>https://my.example/</link><item><title>%s</title><link>https://my.example/p1</link><guid>p1</guid><description>%s</description></item></channel></rss>\n' "$2" "$3" >"$1"
}
revision "$tmp/rev/myblog/2026-09-01T100000Z.xml" Hello "words about kangaroos"
revision "$tmp/rev/myblog/2026-09-02T100000Z.xml" "Hello again" "words about wombats"
revision "$tmp/rev/myblog/2026-09-03T100000Z.xml" Hello "words about kangaroos"
"$BLOGSEARCH_INDEX" add --db "$tmp/rev/db" "$tmp/rev/myblog/2026-09-01T100000Z.xml" \
  "$tmp/rev/myblog/2026-09-03T100000Z.xml" >"$tmp/rev.out" 2>&1 || { cat "$tmp/rev.out"; fail "add of a body twice failed"; }
grep -q "2 snapshots copied" "$tmp/rev.out" || { cat "$tmp/rev.out"; fail "the same body at two times was not archived twice"; }
"$BLOGSEARCH_INDEX" add --db "$tmp/rev/db" "$tmp/rev/myblog/2026-09-02T100000Z.xml" >"$tmp/rev.out" 2>&1 ||
  { cat "$tmp/rev.out"; fail "add of the snapshot in between failed"; }
state dump "$tmp/rev/db" >"$tmp/rev.added"
"$BLOGSEARCH_INDEX" rebuild --db "$tmp/rev/db" >"$tmp/rev.out" 2>&1 || { cat "$tmp/rev.out"; fail "rebuild of the revert failed"; }
state dump "$tmp/rev/db" >"$tmp/rev.rebuilt"
cmp -s "$tmp/rev.added" "$tmp/rev.rebuilt" ||
  { diff "$tmp/rev.added" "$tmp/rev.rebuilt" | head -20; fail "rebuild lost a return to an earlier body that add had"; }

[ "$failures" -eq 0 ] && echo "add_archive e2e: passed" || echo "add_archive e2e: $failures failed"
[ "$failures" -eq 0 ]
