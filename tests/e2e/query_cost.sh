#!/usr/bin/env bash
# Cost: over the blog-history index, no request of at most 2 KB costs more
# than 100 ms of CPU or 50 MB of memory, and no page is over 200 KB. Each
# request is one CGI process (start, open, search, render, exit), measured
# by GNU time; the requests are the worst we found (tools/bench.d/
# worst_queries.py): hundreds of wildcards, hundreds of words, long OR
# lists, deep phrases and NEAR chains, nested parentheses, the last page,
# sixty filters, 100 results as HTML, JSON and Atom, post pages and diffs.
set -uo pipefail
shared="$SOURCE_DIR/../shared/corpus"
if [ ! -f "$shared/blog-history.tar.xz" ]; then
  echo "SKIP: $shared/blog-history.tar.xz not found (../shared is only present in CI and dev sessions)"
  exit 77
fi
[ -x /usr/bin/time ] || { echo "SKIP: GNU time (/usr/bin/time) is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xJf "$shared/blog-history.tar.xz" -C "$tmp"
"$BLOGSEARCH_INDEX" add --quiet --db "$tmp/db" "$tmp/blog-history" >/dev/null || { echo "FAIL: indexing"; exit 1; }

# The least CPU (ms) and the peak RSS (KB) of three runs of the CGI with
# QUERY_STRING $1, output in $tmp/out: other work on the machine only adds.
measure() {
  best_cpu=999999 worst_rss=0 wall=0
  for run in 1 2 3; do
    /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" env -i REQUEST_METHOD=GET GATEWAY_INTERFACE=CGI/1.1 \
      QUERY_STRING="$1" BLOGSEARCH_DB="$tmp/db" "$BLOGSEARCH_CGI" > "$tmp/out" 2>"$tmp/err"
    read -r e u s m < <(tail -1 "$tmp/time")
    cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%d", (u + s) * 1000 }')
    [ "$cpu" -lt "$best_cpu" ] && { best_cpu=$cpu; wall=$(awk -v e="$e" 'BEGIN { printf "%d", e * 1000 }'); }
    [ "$m" -gt "$worst_rss" ] && worst_rss=$m
  done
}

# Sanitizer builds are several times slower and bigger, and pay a fixed
# cost to start and stop whatever the request (shadow memory, relocations,
# the leak check at exit: 100-140 ms here, more on a slower machine): their
# bound is that cost, measured on a request for an unknown post, plus four
# times the normal one. grep reads all of nm's output (no -q): with
# pipefail, nm killed by SIGPIPE when grep -q stopped early made the test
# take a sanitizer build for a normal one.
cpu_ms_max=100 rss_kb_max=$((50 * 1024)) page_max=$((200 * 1024))
if nm "$BLOGSEARCH_CGI" 2>/dev/null | grep __asan_init >/dev/null || ldd "$BLOGSEARCH_CGI" 2>/dev/null | grep libasan >/dev/null; then
  measure "post=no-such-post"
  echo "sanitizer build: $best_cpu ms of CPU to answer a request for an unknown post"
  cpu_ms_max=$((best_cpu + 4 * 100)) rss_kb_max=$((4 * 50 * 1024))
fi

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
/usr/bin/python3 "$SOURCE_DIR/tools/bench.d/worst_queries.py" > "$tmp/cases.tsv" || { echo "FAIL: worst_queries.py"; exit 1; }
printf '%-32s %8s %8s %8s %9s  %s\n' request "cpu ms" "wall ms" "MB" "bytes" status
while IFS=$'\t' read -r name query; do
  [ "${#query}" -le 2048 ] || { fail "$name: the request is ${#query} bytes"; continue; }
  measure "$query"
  bytes=$(stat -c %s "$tmp/out")
  status=$(head -1 "$tmp/out" | tr -d '\r')
  printf '%-32s %8d %8d %8.1f %9d  %s\n' "$name" "$best_cpu" "$wall" "$(awk -v m="$worst_rss" 'BEGIN { print m / 1024 }')" \
    "$bytes" "$status"
  case "$status" in "Status: 200 OK"|"Status: 400 Bad Request"|"Status: 404 Not Found") ;; *) fail "$name: $status $(head -c 200 "$tmp/err")" ;; esac
  [ "$best_cpu" -le "$cpu_ms_max" ] || fail "$name: ${best_cpu} ms of CPU (bound $cpu_ms_max)"
  [ "$worst_rss" -le "$rss_kb_max" ] || fail "$name: ${worst_rss} KB peak RSS (bound $rss_kb_max)"
  if grep -q 'Content-Type: text/html' "$tmp/out"; then
    [ "$bytes" -le "$page_max" ] || fail "$name: a page of $bytes bytes"
  fi
done < "$tmp/cases.tsv"
[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "PASS: every request within ${cpu_ms_max} ms CPU, $((rss_kb_max / 1024)) MB, pages within 200 KB"
