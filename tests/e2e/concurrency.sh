#!/usr/bin/env bash
# Concurrency: searches run without pause while `blogsearch-index add` commits
# feed after feed and then `rebuild` switches generations twice. Every search
# must succeed, and every result must be one the database really had at some
# commit: its total and per-feed facet counts equal one of the states a
# reference database passes through after each `add` (or lie between two
# of them, where that `add` was seen to commit more than once: a run
# commits every 2 s), and one searcher never sees an older state after a
# newer one.
# The CGI binary (blogsearch.cgi, run as a web server would: one process
# per request) is searched too when $BLOGSEARCH_CGI names it.
set -euo pipefail
place=(/usr/bin/python3 "$SOURCE_DIR/tests/e2e/state_place.py")
tmp=$(mktemp -d)
# The scratch databases of this test share one archive on purpose (a
# database refuses the default archive beside it once another one uses it).
export BLOGSEARCH_ARCHIVE="$tmp/archive"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Feeds to ingest one commit at a time: the smaller blog-history feeds when
# present (the two largest would only make the test slower), else data/.
mkdir -p "$tmp/in"
shared="$SOURCE_DIR/../shared/corpus"
if [ -f "$shared/blog-history.tar.xz" ]; then
  tar -xJf "$shared/blog-history.tar.xz" -C "$tmp" --exclude 'blog-history/d-kriesel*' --exclude 'blog-history/simon-willison*'
  mv "$tmp"/blog-history/* "$tmp/in/"
else
  echo "note: $shared/blog-history.tar.xz not found; using data/ only"
  cp -r "$SOURCE_DIR"/data/*/ "$tmp/in/"
fi
mapfile -t feeds < <(cd "$tmp/in" && find . -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort)
echo "${#feeds[@]} feeds, committed one by one, then two rebuilds"

# Every post has a published value (else updated, else first seen), so
# --since 1970 matches the whole database.
search() { "$BLOGSEARCH" --db "$1" --format json --facets feed --facet-limit 1000 --limit 3 --sort date --since 1970; }

# Reference: the states after each commit, in order.
: > "$tmp/states"
for f in "${feeds[@]}"; do
  "$BLOGSEARCH_INDEX" add --quiet --db "$tmp/ref" "$tmp/in/$f" > /dev/null
  # The signature of a result: total and per-feed facet counts, one line.
  search "$tmp/ref" | "${place[@]}" sig >> "$tmp/states"
done
echo "reference: $(wc -l < "$tmp/states") states, final $(tail -1 "$tmp/states" | cut -c1-60)..."

# Start from the first feed so that every search has something to find.
"$BLOGSEARCH_INDEX" add --quiet --db "$tmp/db" "$tmp/in/${feeds[0]}" > /dev/null

# Each searcher keeps its results, one JSON line each, in order; they are
# checked once the writes are done (state_place.py check), when it is
# known which adds committed more than once.
searcher() {  # $1 = name; runs until $tmp/done exists
  local name=$1 out
  while [ ! -e "$tmp/done" ]; do
    if ! out=$(search "$tmp/db" 2> "$tmp/$name.err"); then
      echo "$name search failed: $(head -1 "$tmp/$name.err")" >> "$tmp/failures"; continue
    fi
    tr -d '\n' <<< "$out" >> "$tmp/$name.results"
    echo >> "$tmp/$name.results"
  done
}
: > "$tmp/failures"
searcher cli1 & pids+=($!)
searcher cli2 & pids+=($!)
checks=(cli1 states cli2 states)
if [ -n "${BLOGSEARCH_CGI:-}" ] && [ -x "$BLOGSEARCH_CGI" ]; then
  # The CGI answers with the same JSON; without facets, its total must be
  # the total of one of the states, never going back.
  cut -d' ' -f1,2 "$tmp/states" > "$tmp/totals"
  checks+=(cgi totals)
  ( n=0
    while [ ! -e "$tmp/done" ]; do
      n=$((n + 1))
      out=$(BLOGSEARCH_DB="$tmp/db" REQUEST_METHOD=GET QUERY_STRING="since=1970&format=json&n=1" \
            GATEWAY_INTERFACE=CGI/1.1 SERVER_NAME=localhost SERVER_PORT=80 "$BLOGSEARCH_CGI" 2>"$tmp/cgi.err") ||
        { echo "cgi request $n: exit $? $(head -1 "$tmp/cgi.err")" >> "$tmp/failures"; continue; }
      status=$(head -1 <<< "$out" | tr -d '\r')
      if [ "$status" != "Status: 200 OK" ]; then
        echo "cgi request $n: $status" >> "$tmp/failures"; continue
      fi
      sed '1,/^\r\?$/d' <<< "$out" | tr -d '\n' >> "$tmp/cgi.results"
      echo >> "$tmp/cgi.results"
    done ) & pids+=($!)
else
  echo "note: no CGI binary (BLOGSEARCH_CGI unset); searching with the CLI only"
fi

# Each add is one commit, unless it took longer than the writer's commit
# interval (2 s; a slow or loaded machine): the states such an add passed
# through are noted (the state number it ends in), and only for those may
# a search see a state between two reference states.
commit_of() { /usr/bin/python3 -c 'import sys, xapian; print(int(xapian.Database(sys.argv[1]).get_metadata("commit") or 0))' "$1"; }
: > "$tmp/multi"
state_number=1
for f in "${feeds[@]:1}"; do
  state_number=$((state_number + 1))
  before=$(commit_of "$tmp/db")
  "$BLOGSEARCH_INDEX" add --quiet --wait 120 --db "$tmp/db" "$tmp/in/$f" > /dev/null || fail "add $f"
  after=$(commit_of "$tmp/db")
  if [ $((after - before)) -gt 1 ]; then echo "$state_number" >> "$tmp/multi"; fi
done
for i in 1 2; do
  "$BLOGSEARCH_INDEX" rebuild --quiet --wait 120 --archive "$tmp/in" --db "$tmp/db" > /dev/null || fail "rebuild $i"
done
# Let the searchers see the final state for a moment.
sleep 1
touch "$tmp/done"
wait "${pids[@]}"
pids=()
[ -s "$tmp/multi" ] && echo "adds committed more than once (a slow machine): states $(tr '\n' ' ' < "$tmp/multi")"
for ((k = 0; k < ${#checks[@]}; k += 2)); do
  name=${checks[k]} against=${checks[k + 1]}
  touch "$tmp/$name.results"
  "${place[@]}" check "$tmp/$against" "$tmp/multi" "$name" < "$tmp/$name.results" >> "$tmp/failures"
done
if [ -s "$tmp/failures" ]; then head -20 "$tmp/failures"; fail "$(wc -l < "$tmp/failures") failed or inconsistent searches"; fi
total=$(cat "$tmp"/*.results | wc -l)
[ "$total" -gt 20 ] || fail "only $total searches ran during the writes"
echo "PASS: $total searches during ${#feeds[@]} commits and 2 rebuilds, 0 failed, each from one committed state"
