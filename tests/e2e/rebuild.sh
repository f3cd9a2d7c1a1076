#!/usr/bin/env bash
# rebuild: a `kill -9` in the middle of a rebuild leaves the live database
# intact and searchable; the next rebuild completes, removes what the killed
# one left, keeps the fetch state, and readers opening the database while it
# switches only ever see the old or the new index, never an error or a
# half-built one.
set -euo pipefail

tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
reported=0
pass() {  # a section's verdict: "ok" only when none of its checks failed
  if [ "$failures" -eq "$reported" ]; then echo "ok: $*"; else echo "not ok: $*"; fi
  reported=$failures
}

archive="$tmp/archive"
db="$tmp/db"
# 20 feeds x 3 snapshots x 50 items, the window moving by 10: 20 x 70 = 1,400
# distinct posts, several seconds to index.
/usr/bin/python3 "$SOURCE_DIR/tests/e2e/rebuild.d/make_archive.py" "$archive" 20 3 50
"$BLOGSEARCH_INDEX" add --quiet --db "$db" "$archive"

count() { /usr/bin/python3 -c 'import sys, xapian; print(xapian.Database(sys.argv[1]).get_doccount())' "$db"; }
# Documents matching a one-word query, through the QueryParser, as a search would.
search() {
  /usr/bin/python3 - "$db" "$1" <<'PY'
import sys, xapian
db = xapian.Database(sys.argv[1])
qp = xapian.QueryParser()
qp.set_database(db)
enquire = xapian.Enquire(db)
enquire.set_query(qp.parse_query(sys.argv[2]))
print(enquire.get_mset(0, db.get_doccount()).size())
PY
}
generations() { find "$db" -maxdepth 1 -name 'gen-*' | wc -l; }

before=$(count)
[ "$before" -eq 1400 ] || fail "expected 1400 posts before the rebuild, found $before"
[ "$(search rebuildtest)" -eq 1400 ] || fail "search before the rebuild does not find every post"
stub_before=$(cat "$db/XAPIANDB")

# Fetch state is not in the archive; a rebuild must carry it over.
/usr/bin/python3 - "$db" <<'PY'
import json, sys, xapian
db = xapian.WritableDatabase(sys.argv[1])
meta = json.loads(db.get_metadata("feed:feed-03"))
meta["fetch"] = {"url": "https://moved.example.org/feed", "etag": "\"abc\"", "consecutive_failures": 2}
db.set_metadata("feed:feed-03", json.dumps(meta))
db.commit()
PY

# A snapshot that reached the archive but not the database (as after a crash
# between the two): the rebuild picks it up.
/usr/bin/python3 "$SOURCE_DIR/tests/e2e/rebuild.d/make_archive.py" "$tmp/late" 1 1 10 late 20
mkdir -p "$archive/late"
cp "$tmp/late/late-00/"* "$archive/late/"

# ---- kill -9 in the middle ----------------------------------------------------
"$BLOGSEARCH_INDEX" rebuild --quiet --db "$db" --archive "$archive" >"$tmp/killed.out" 2>&1 &
victim=$!
pids+=("$victim")
for _ in $(seq 1 200); do
  [ "$(generations)" -ge 2 ] && break
  sleep 0.05
done
[ "$(generations)" -ge 2 ] || fail "the rebuild did not start a new generation"
sleep 0.2
if kill -0 "$victim" 2>/dev/null; then
  kill -9 "$victim"
  wait "$victim" 2>/dev/null || true
else
  fail "the rebuild finished before it could be killed; the test needs a bigger archive"
fi
[ "$(cat "$db/XAPIANDB")" = "$stub_before" ] || fail "the killed rebuild switched the database"
after_kill=$(count)
[ "$after_kill" -eq "$before" ] || fail "after kill -9 the database holds $after_kill documents, expected $before"
[ "$(search rebuildtest)" -eq "$before" ] || fail "after kill -9 a search does not find every post"
[ "$(search feedword07)" -eq 70 ] || fail "after kill -9 a search for one feed's word does not find its 70 posts"
if command -v xapian-check >/dev/null; then
  # xapian-check reads the stub of shards: every shard of the live generation.
  xapian-check "$db/XAPIANDB" >"$tmp/check.txt" 2>&1 || fail "xapian-check reports damage after kill -9: $(tail -3 "$tmp/check.txt")"
fi
[ "$(generations)" -eq 2 ] || fail "expected the killed rebuild's partial generation beside the live one"
pass "kill -9 during rebuild: live database intact ($after_kill documents) and searchable"

# ---- the next rebuild completes while readers keep opening the database --------
/usr/bin/python3 - "$db" "$tmp/stop" >"$tmp/reader.txt" 2>&1 <<'PY' &
import os, sys, xapian
seen, errors = {}, 0
while not os.path.exists(sys.argv[2]):
    try:
        n = xapian.Database(sys.argv[1]).get_doccount()
        seen[n] = seen.get(n, 0) + 1
    except xapian.Error as e:
        errors += 1
        print("error:", e)
print("counts", " ".join("%d:%d" % kv for kv in sorted(seen.items())))
print("errors", errors)
PY
reader=$!
pids+=("$reader")
rc=0
"$BLOGSEARCH_INDEX" rebuild --db "$db" --archive "$archive" >"$tmp/rebuild.out" 2>&1 || rc=$?
sleep 0.3
touch "$tmp/stop"
wait "$reader" || true
sed 's/^/  | /' "$tmp/rebuild.out" "$tmp/reader.txt"
[ "$rc" -eq 0 ] || fail "the rebuild after the kill exited $rc"
grep -q '0 errors' "$tmp/rebuild.out" || fail "the rebuild reported errors"
final=$(count)
[ "$final" -eq $((before + 10)) ] || fail "after the rebuild: $final documents, expected $((before + 10)) (the late snapshot's 10 posts)"
[ "$(search rebuildtest)" -eq "$final" ] || fail "after the rebuild a search does not find every post"
[ "$(generations)" -eq 1 ] || fail "the rebuild left $(generations) generations, expected only the live one"
[ "$(cat "$db/XAPIANDB")" != "$stub_before" ] || fail "the rebuild did not switch the stub"
[ ! -e "$db/XAPIANDB.tmp" ] || fail "a temporary stub was left"
grep -q '^errors 0$' "$tmp/reader.txt" || fail "a reader got an error while the rebuild switched"
grep -Eq "^counts ($before:[0-9]+ )?$final:[0-9]+$|^counts $before:[0-9]+$" "$tmp/reader.txt" ||
  fail "a reader saw a count other than $before or $final: $(grep counts "$tmp/reader.txt")"
/usr/bin/python3 - "$db" <<'PY' || fail "the rebuild lost the fetch state"
import json, sys, xapian
meta = json.loads(xapian.Database(sys.argv[1]).get_metadata("feed:feed-03"))
assert meta["fetch"]["url"] == "https://moved.example.org/feed", meta
assert meta["fetch"]["consecutive_failures"] == 2, meta
PY
"$BLOGSEARCH_INDEX" stats --db "$db" >"$tmp/stats.txt"
grep -q "^documents  $final$" "$tmp/stats.txt" || fail "stats disagrees after the rebuild"
pass "next rebuild completed: $final documents, one generation, fetch state kept, readers saw only $before or $final"

# ---- an empty archive never replaces the index ----------------------------------
mkdir -p "$tmp/empty-archive"
rc=0
"$BLOGSEARCH_INDEX" rebuild --db "$db" --archive "$tmp/empty-archive" >"$tmp/empty.out" 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q 'no snapshots in' "$tmp/empty.out" || fail "rebuild from an empty archive did not refuse (exit $rc)"
[ "$(count)" -eq "$final" ] || fail "rebuild from an empty archive changed the database"
pass "rebuild from an empty archive refuses and leaves the database"

# ---- rebuild refuses a database it cannot switch --------------------------------
mkdir -p "$tmp/plain"
/usr/bin/python3 -c 'import sys, xapian; xapian.WritableDatabase(sys.argv[1], xapian.DB_CREATE).close()' "$tmp/plain/db"
rc=0
"$BLOGSEARCH_INDEX" rebuild --db "$tmp/plain/db" --archive "$archive" >"$tmp/plain.out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] && grep -q 'cannot be switched atomically' "$tmp/plain.out" || fail "rebuild of a plain glass database did not refuse clearly"
[ "$(/usr/bin/python3 -c 'import sys, xapian; print(xapian.Database(sys.argv[1]).get_doccount())' "$tmp/plain/db")" -eq 0 ] ||
  fail "the refused rebuild changed the plain database"
pass "rebuild of a database without generations refuses with a clear message"

if [ "$failures" -ne 0 ]; then
  echo "FAIL: $failures check(s) failed"
  exit 1
fi
echo "PASS: rebuild survives kill -9 and switches atomically"
