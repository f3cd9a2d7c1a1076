#!/usr/bin/env bash
# Golden end-to-end test (in the spirit of Omega's omindexcheck): index the
# bundled sample snapshots in data/ into a fresh database, then check the
# terms, the absence of script/style text and the document fields against
# indexer/schema.h (tests/e2e/golden_check.py). Indexing the same data again
# must leave every document unchanged.
#
# Env: BLOGSEARCH_INDEX (binary), SOURCE_DIR (repository root).
# Exit: 0 pass, 77 skipped (reason printed), anything else fail.
set -u

: "${BLOGSEARCH_INDEX:?BLOGSEARCH_INDEX must name the blogsearch-index binary}"
: "${SOURCE_DIR:?SOURCE_DIR must name the repository root}"

if [ ! -x "$BLOGSEARCH_INDEX" ]; then
  echo "SKIP: $BLOGSEARCH_INDEX is not built"
  exit 77
fi
if ! /usr/bin/python3 -c 'import xapian' 2>/dev/null; then
  echo "SKIP: /usr/bin/python3 lacks the xapian module (apt-get install python3-xapian)"
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
db="$work/db"

run_add() {
  "$BLOGSEARCH_INDEX" add --db "$db" "$SOURCE_DIR/data" >"$work/add.out" 2>"$work/add.err"
  local rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAIL: blogsearch-index add exited $rc ($1)"
    cat "$work/add.out" "$work/add.err"
    exit 1
  fi
  # Sample data is clean: any warning or error is a regression.
  if grep -Eiq '(warning|error):[[:space:]]*[^0-9[:space:]]' "$work/add.out" "$work/add.err"; then
    echo "FAIL: blogsearch-index add reported problems on data/ ($1):"
    cat "$work/add.err"
    exit 1
  fi
}

run_add "first run"
echo "first run: $(cat "$work/add.out" "$work/add.err" | grep . | tail -n 1)"

checker="$SOURCE_DIR/tests/e2e/golden_check.py"
/usr/bin/python3 "$checker" "$db" "$work/dump1" || exit 1

# Re-ingesting the same snapshots is a no-op.
run_add "second run"
/usr/bin/python3 "$checker" "$db" "$work/dump2" >/dev/null || {
  echo "FAIL: checks fail after indexing data/ a second time"
  exit 1
}
if ! cmp -s "$work/dump1" "$work/dump2"; then
  echo "FAIL: indexing data/ a second time changed documents:"
  diff "$work/dump1" "$work/dump2" | head -n 20
  exit 1
fi
echo "second run: $(cat "$work/add.out" "$work/add.err" | grep . | tail -n 1)"
echo "second run: identical documents"
echo "PASS: golden"
