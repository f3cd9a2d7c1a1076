#!/usr/bin/env bash
# Output that cannot be written is an error: every program and command that
# writes to stdout, pointed at /dev/full (every write fails with ENOSPC),
# exits non-zero with one line on stderr, and never 0 over a cut document.
set -uo pipefail
data="$SOURCE_DIR/data"
if [ ! -d "$data" ] || [ -z "$(ls "$data"/*/*.xml 2>/dev/null)" ]; then
  echo "SKIP: no sample snapshots in $data"
  exit 77
fi
if ! { : > /dev/full; } 2>/dev/null || { printf x > /dev/full; } 2>/dev/null; then
  echo "SKIP: /dev/full is missing or does not fail writes here"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The scratch databases of this test share one archive on purpose (a
# database refuses the default archive beside it once another one uses it).
export BLOGSEARCH_ARCHIVE="$tmp/archive"
db="$tmp/db"
"$BLOGSEARCH_INDEX" add --quiet --db "$db" "$data" >/dev/null || { echo "FAIL: indexing data/"; exit 1; }
export BLOGSEARCH_DB="$db"

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# full NAME PROGRAM ARGS...: PROGRAM ARGS > /dev/full must exit non-zero
# with exactly one line on stderr, naming standard output.
full() {
  local name=$1; shift
  "$@" >/dev/full 2>"$tmp/err"
  local rc=$?
  local lines
  lines=$(wc -l < "$tmp/err")
  if [ "$rc" -eq 0 ]; then fail "$name > /dev/full exited 0"; return; fi
  [ "$lines" -eq 1 ] || fail "$name > /dev/full: $lines lines on stderr: $(head -c 300 "$tmp/err")"
  grep -q '^[a-z.-]*: cannot write to standard output' "$tmp/err" ||
    fail "$name > /dev/full: $(head -c 300 "$tmp/err")"
  echo "$name > /dev/full: exit $rc, $(cat "$tmp/err")"
}

id=$("$BLOGSEARCH" --format ids --limit 1 kernel)
[ -n "$id" ] || fail "no post to show"
# A result list bigger than any stdio buffer, and a small one.
full "blogsearch (text)" "$BLOGSEARCH" --limit 1000 --sort date --since 1990
full "blogsearch (small)" "$BLOGSEARCH" --limit 1 kernel
full "blogsearch --format json" "$BLOGSEARCH" --format json --limit 1000 --with-text --sort date --since 1990
full "blogsearch --format ids" "$BLOGSEARCH" --format ids kernel
full "blogsearch --count" "$BLOGSEARCH" --count kernel
full "blogsearch --help" "$BLOGSEARCH" --help
full "blogsearch show" "$BLOGSEARCH" show "$id"
full "blogsearch show --format json" "$BLOGSEARCH" show --format json "$id"
full "blogsearch-index stats" "$BLOGSEARCH_INDEX" stats --db "$db"
full "blogsearch-index parse" "$BLOGSEARCH_INDEX" parse "$data"/pytorch/*.xml
full "blogsearch-index --help" "$BLOGSEARCH_INDEX" --help
# add reports on stdout: the database is written all the same.
full "blogsearch-index add" "$BLOGSEARCH_INDEX" add --db "$tmp/db2" "$data"
n=$("$BLOGSEARCH" --db "$tmp/db2" --count --since 1990)
[ "${n:-0}" -gt 0 ] || fail "add > /dev/full did not index (count ${n:-none})"
full "blogsearch.cgi (CGI)" env REQUEST_METHOD=GET QUERY_STRING='q=kernel&n=100' GATEWAY_INTERFACE=CGI/1.1 \
  BLOGSEARCH_DB="$db" "$BLOGSEARCH_CGI"
full "blogsearch.cgi (CGI, JSON)" env REQUEST_METHOD=GET QUERY_STRING='q=kernel&format=json' \
  GATEWAY_INTERFACE=CGI/1.1 BLOGSEARCH_DB="$db" "$BLOGSEARCH_CGI"

# The same commands with a working stdout still exit as before.
"$BLOGSEARCH" kernel >/dev/null || fail "blogsearch kernel > /dev/null failed"
"$BLOGSEARCH_INDEX" stats --db "$db" >/dev/null || fail "stats > /dev/null failed"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "PASS: write errors"
