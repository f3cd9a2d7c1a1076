#!/usr/bin/env bash
# Crash safety: `blogsearch-index add` and `rebuild` killed with SIGKILL at
# random points while ingesting ../shared/corpus/blog-history. After every
# kill: xapian-check passes on the live generation, the database opens, no
# post committed before the kill is gone (the id set only grows). Rerunning
# completes to the same documents, data, terms and values as one
# uninterrupted run.
#   CRASH_KILLS   kills per command (default 8 for add, half that for rebuild)
#   CRASH_SEED    seed for the kill times (default: random, printed)
set -euo pipefail
shared="$SOURCE_DIR/../shared/corpus"
if [ ! -f "$shared/blog-history.tar.xz" ]; then
  echo "SKIP: $shared/blog-history.tar.xz not found (../shared is only present in CI and dev sessions)"
  exit 77
fi
command -v xapian-check >/dev/null || { echo "SKIP: xapian-check not installed (xapian-tools; run tools/setup)"; exit 77; }
state=(/usr/bin/python3 "$SOURCE_DIR/tests/e2e/db_state.py")
kills=${CRASH_KILLS:-8}
seed=${CRASH_SEED:-$$}
RANDOM=$seed
echo "kill times seeded with CRASH_SEED=$seed"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The scratch databases of this test share one archive on purpose (a
# database refuses the default archive beside it once another one uses it).
export BLOGSEARCH_ARCHIVE="$tmp/archive"
tar -xJf "$shared/blog-history.tar.xz" -C "$tmp"
corpus="$tmp/blog-history"

# Reference: one uninterrupted run, timed to spread the kills over it.
start=$(date +%s%N)
"$BLOGSEARCH_INDEX" add --quiet --db "$tmp/ref" "$corpus" > "$tmp/ref.out"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
"${state[@]}" dump "$tmp/ref" > "$tmp/ref.dump"
echo "uninterrupted add: ${ms} ms, $(wc -l < "$tmp/ref.dump") documents"

fail() { echo "FAIL: $*"; exit 1; }

# Checks DB after a kill: xapian-check on the live generation, the CLI and
# python can open it, and every id in $tmp/before is still there.
check_after_kill() {
  local db=$1 what=$2 gen
  [ -e "$db/XAPIANDB" ] || return 0  # killed before the layout existed
  gen=$("${state[@]}" live "$db")
  xapian-check "$gen" > "$tmp/check.out" 2>&1 || { cat "$tmp/check.out"; fail "$what: xapian-check failed on $gen"; }
  "${state[@]}" ids "$db" > "$tmp/after" || fail "$what: the database does not open"
  local lost
  lost=$(comm -23 "$tmp/before" "$tmp/after" | wc -l)
  [ "$lost" -eq 0 ] || fail "$what: $lost committed posts lost, e.g. $(comm -23 "$tmp/before" "$tmp/after" | head -1)"
  "$BLOGSEARCH" --db "$db" --count kubernetes > /dev/null 2>"$tmp/search.err" || [ $? -eq 1 ] ||
    { cat "$tmp/search.err"; fail "$what: blogsearch cannot search the database"; }
  cp "$tmp/after" "$tmp/before"
}

# Runs CMD in the background and kills it after a random delay in
# [50 ms, the uninterrupted time]. Returns 0 when it was killed, 1 when it
# finished first (its exit status must then be 0).
run_and_kill() {
  local delay=$(( 50 + (RANDOM * 32768 + RANDOM) % (ms > 50 ? ms : 51) ))
  "$@" > "$tmp/run.out" 2>&1 &
  local pid=$!
  sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
  if kill -KILL "$pid" 2>/dev/null; then
    wait "$pid" 2>/dev/null || true
    echo "  killed after ${delay} ms"
    return 0
  fi
  wait "$pid" || { cat "$tmp/run.out"; fail "$* exited with $? before the kill"; }
  echo "  finished before the kill at ${delay} ms"
  return 1
}

survived=0
rounds=0
db="$tmp/db-1"
: > "$tmp/before"
echo "add: $kills kills"
for ((i = 1; i <= kills; i++)); do
  if run_and_kill "$BLOGSEARCH_INDEX" add --quiet --db "$db" "$corpus"; then
    survived=$((survived + 1))
    check_after_kill "$db" "add kill $i"
    echo "  $(wc -l < "$tmp/after") documents"
  else
    # This run completed what the killed ones left: it must have reached the
    # uninterrupted state. Start again from nothing so later kills still
    # land in the middle of an ingest.
    "${state[@]}" dump "$db" > "$tmp/db.dump"
    diff "$tmp/ref.dump" "$tmp/db.dump" > "$tmp/diff" || { head -5 "$tmp/diff"; fail "add completed after kills differs from an uninterrupted add"; }
    rounds=$((rounds + 1))
    echo "  equals the uninterrupted run; starting again with an empty database"
    rm -rf "$db"
    db="$tmp/db-$((rounds + 1))"
    : > "$tmp/before"
    # A kill that did not happen does not count (bounded, should the
    # machine be much faster than the timed reference run).
    [ "$rounds" -gt "$kills" ] || i=$((i - 1))
  fi
done
"$BLOGSEARCH_INDEX" add --quiet --db "$db" "$corpus" > "$tmp/final.out" || { cat "$tmp/final.out"; fail "add after the kills failed"; }
cat "$tmp/final.out"
"${state[@]}" dump "$db" > "$tmp/db.dump"
diff "$tmp/ref.dump" "$tmp/db.dump" > "$tmp/diff" || { head -5 "$tmp/diff"; fail "add after kills differs from an uninterrupted add ($(grep -c '^[<>]' "$tmp/diff") lines)"; }
echo "add: $survived kills survived; $((rounds + 1)) ingests from an empty database, each completed to the uninterrupted state"

# rebuild replays the archive that add copied blog-history into (beside the
# database, as ARCHIVE/<feed>/<UTC>.xml) into a new generation; a kill must
# leave the live one exactly as it was, and a rebuild that finishes gives
# the same posts.
rkills=$(( (kills + 1) / 2 ))
echo "rebuild: up to $rkills kills"
"${state[@]}" dump "$db" > "$tmp/live.dump"
for ((i = 1; i <= rkills; i++)); do
  if run_and_kill "$BLOGSEARCH_INDEX" rebuild --quiet --db "$db"; then
    survived=$((survived + 1))
  fi
  check_after_kill "$db" "rebuild kill $i"
  "${state[@]}" dump "$db" > "$tmp/now.dump"
  diff -q "$tmp/live.dump" "$tmp/now.dump" > /dev/null || fail "rebuild kill $i: the live database changed"
done
"$BLOGSEARCH_INDEX" rebuild --quiet --db "$db" > "$tmp/final.out" || { cat "$tmp/final.out"; fail "rebuild after the kills failed"; }
gens=$(find "$db" -maxdepth 1 -name 'gen-*' | wc -l)
[ "$gens" -eq 1 ] || fail "rebuild after the kills left $gens generations (stale ones not removed)"
xapian-check "$("${state[@]}" live "$db")" > /dev/null || fail "xapian-check after the final rebuild"
"${state[@]}" dump "$db" > "$tmp/db.dump"
diff "$tmp/ref.dump" "$tmp/db.dump" > "$tmp/diff" || { head -5 "$tmp/diff"; fail "rebuild after kills differs from an uninterrupted add ($(grep -c '^[<>]' "$tmp/diff") lines)"; }
echo "PASS: $survived kills survived (add and rebuild); xapian-check clean after each; final state equals the uninterrupted run"
