#!/usr/bin/env bash
# Issue 15, point 13: fetch runs that are killed must not leave snapshots
# that every rerun archives again, and the *.tmp files that a killed write
# or a full disk leaves in the archive are removed by the next run, also in
# the folder of a feed that did not change.
#   1. A run that archived but did not index (a database that has never seen
#      the archive's files, fetching the same bodies): nothing is archived
#      again, everything is indexed.
#   2. *.tmp files in every feed's folder, the feeds unchanged: removed.
#   3. fetch killed with SIGKILL at random times, 5 times, then run to the
#      end: one archived file per feed (the bodies never changed), no *.tmp,
#      every post indexed, and the next run finds nothing new.
#   4. A run that archived a changed body but did not index it, and the
#      feed changed again before the next fetch: that fetch indexes both,
#      and the post has the versions `rebuild` finds in the archive.
# Against a real lighttpd on 127.0.0.1 (tests/e2e/fetch.d/server.sh).
#
# Env: BLOGSEARCH_INDEX, BLOGSEARCH, SOURCE_DIR; FETCH_KILL_SEED (default random,
# printed). Exit 0 pass, 1 fail, 77 skip.
set -uo pipefail
: "${BLOGSEARCH_INDEX:?}" "${BLOGSEARCH:?}" "${SOURCE_DIR:?}"
for tool in lighttpd curl; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed (tools/setup installs it)"; exit 77; }
done
unset BLOGSEARCH_CONFIG
fixtures="$SOURCE_DIR/tests/e2e/fetch.d"
# shellcheck source=fetch.d/server.sh
source "$fixtures/server.sh"
# shellcheck source=fetch.d/feeds.sh
source "$fixtures/feeds.sh"

tmp=$(mktemp -d)
pid=""
cleanup() {
  [ -z "$pid" ] || kill -KILL "$pid" 2>/dev/null || true
  server_stop
  rm -rf "$tmp"
}
trap cleanup EXIT
. "$SOURCE_DIR/tests/e2e/checks.sh"
seed=${FETCH_KILL_SEED:-$RANDOM}
RANDOM=$seed
echo "kill times seeded with FETCH_KILL_SEED=$seed"

feeds=30
mkdir -p "$tmp/www/static"
server_start "$tmp/srv" "$tmp/www" || exit 1
: >"$tmp/feeds.toml"
for i in $(seq 1 "$feeds"); do
  write_feed "$tmp/www/static/f$i.xml" "f$i" 5 kangaroo
  printf '[[feed]]\nid = "f%d"\nurl = "%s/static/f%d.xml"\n\n' "$i" "$BASE" "$i" >>"$tmp/feeds.toml"
done

fetch() {  # DB ARCHIVE: one fetch run to its end
  "$BLOGSEARCH_INDEX" fetch --config "$tmp/feeds.toml" --db "$1" --archive "$2" >"$tmp/fetch.out" 2>&1
}
count() { find "$1" -name "$2" 2>/dev/null | wc -l; }
posts() { /usr/bin/python3 -c 'import sys, xapian; print(xapian.Database(sys.argv[1]).get_doccount())' "$1"; }

# ---- 1. archived by a run that did not index ----
start=$(date +%s%N)
fetch "$tmp/a/db" "$tmp/a/archive" || { cat "$tmp/fetch.out"; fail "the first fetch failed"; }
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$(count "$tmp/a/archive" '*.xml')" -eq "$feeds" ] || fail "the first fetch archived $(count "$tmp/a/archive" '*.xml') files for $feeds feeds"
fetch "$tmp/a/db2" "$tmp/a/archive" || { cat "$tmp/fetch.out"; fail "fetch into a database that never indexed the archive failed"; }
[ "$(count "$tmp/a/archive" '*.xml')" -eq "$feeds" ] ||
  fail "bodies the archive held already were archived again: $(count "$tmp/a/archive" '*.xml') files for $feeds feeds"
[ "$(posts "$tmp/a/db2")" -eq $((feeds * 5)) ] || fail "the archived but unindexed bodies were not indexed: $(posts "$tmp/a/db2") posts"

# ---- 2. *.tmp left in the folders of feeds that did not change ----
for i in $(seq 1 "$feeds"); do
  : >"$tmp/a/archive/f$i/2026-01-01T000000Z.xml.tmp"
  echo '{' >"$tmp/a/archive/f$i/2026-01-01T000000Z.headers.json.tmp"
done
fetch "$tmp/a/db" "$tmp/a/archive" || { cat "$tmp/fetch.out"; fail "fetch with *.tmp files in the archive failed"; }
grep -q "0 new" "$tmp/fetch.out" || fail "the unchanged feeds were not unchanged: $(cat "$tmp/fetch.out")"
[ "$(count "$tmp/a/archive" '*.tmp')" -eq 0 ] ||
  fail "$(count "$tmp/a/archive" '*.tmp') *.tmp files were left in the folders of unchanged feeds"
[ "$(count "$tmp/a/archive" '*.xml')" -eq "$feeds" ] || fail "the archive lost or gained files"

# ---- 3. killed at random times ----
db=$tmp/k/db archive=$tmp/k/archive
window=$(( elapsed_ms > 20 ? elapsed_ms : 20 ))
kills=0
for round in 1 2 3 4 5; do
  delay=$(( RANDOM % window + 1 ))
  "$BLOGSEARCH_INDEX" fetch --config "$tmp/feeds.toml" --db "$db" --archive "$archive" >/dev/null 2>&1 &
  pid=$!
  if [ "$round" -eq 1 ]; then
    # The first run is killed as soon as it has archived something: before
    # it indexed it.
    delay=0
    while kill -0 "$pid" 2>/dev/null && [ "$(count "$archive" '*.xml')" -eq 0 ]; do
      sleep 0.002; delay=$((delay + 2))
    done
  else
    sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
  fi
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  status=$?
  pid=""
  if [ "$status" -eq 137 ]; then kills=$((kills + 1)); echo "  killed after ${delay} ms"; else echo "  ended before ${delay} ms ($status)"; fi
done
echo "  $kills of 5 runs killed before they ended (window ${window} ms)"
[ "$kills" -ge 1 ] || fail "no run was killed: the test proves nothing"
after_kills=$(count "$archive" '*.xml')
fetch "$db" "$archive" || { cat "$tmp/fetch.out"; fail "fetch after the kills failed"; }
[ "$(count "$archive" '*.xml')" -eq "$feeds" ] ||
  fail "after $kills kills ($after_kills files then) the archive holds $(count "$archive" '*.xml') files for $feeds unchanged feeds"
[ "$(count "$archive" '*.tmp')" -eq 0 ] || fail "$(count "$archive" '*.tmp') *.tmp files were left after the kills"
[ "$(posts "$db")" -eq $((feeds * 5)) ] || fail "after the kills $(posts "$db") posts are indexed, not $((feeds * 5))"
fetch "$db" "$archive" || fail "the last fetch failed"
grep -q "0 new" "$tmp/fetch.out" || fail "a run after everything was indexed found new snapshots: $(cat "$tmp/fetch.out")"
[ "$(count "$archive" '*.xml')" -eq "$feeds" ] || fail "the last run archived again"

# ---- 4. archived, not indexed, and the feed changed again ----
printf '[[feed]]\nid = "g"\nurl = "%s/static/g.xml"\n' "$BASE" >"$tmp/g.toml"
gfetch() {  # DB: one fetch of feed g into the archive g/archive
  "$BLOGSEARCH_INDEX" fetch --config "$tmp/g.toml" --db "$1" --archive "$tmp/g/archive" >"$tmp/fetch.out" 2>&1 ||
    { cat "$tmp/fetch.out"; fail "fetch of g into $1 failed"; }
}
versions() {  # DB: the versions of g's post
  "$BLOGSEARCH" --db "$1" show 'https://g.example.org/1' --format json |
    /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["versions"])'
}
write_feed "$tmp/www/static/g.xml" g 1 wombat
gfetch "$tmp/g/db"
sleep 1  # each body in a second of its own
write_feed "$tmp/www/static/g.xml" g 1 numbat
# Archived by a fetch that wrote another database: to g/db, what a run
# killed between archiving and indexing leaves.
gfetch "$tmp/g/elsewhere"
sleep 1
write_feed "$tmp/www/static/g.xml" g 1 quokka
gfetch "$tmp/g/db"
[ "$(count "$tmp/g/archive" '*.xml')" -eq 3 ] || fail "feed g: $(count "$tmp/g/archive" '*.xml') archived bodies, not 3"
live=$(versions "$tmp/g/db")
[ "$live" = 3 ] || fail "the body archived by a killed run and not indexed is missing: $live versions, not 3"
"$BLOGSEARCH_INDEX" rebuild --db "$tmp/g/db" --archive "$tmp/g/archive" >"$tmp/rebuild.out" 2>&1 ||
  { cat "$tmp/rebuild.out"; fail "rebuild of g failed"; }
[ "$(versions "$tmp/g/db")" = "$live" ] || fail "rebuild from the archive gives $(versions "$tmp/g/db") versions, the live database $live"

[ "$failures" -eq 0 ] && echo "fetch_kills e2e: passed" || echo "fetch_kills e2e: $failures failed"
[ "$failures" -eq 0 ]
