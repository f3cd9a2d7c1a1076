# Check counting shared by the end-to-end tests (sourced, not run): fail
# prints a failure and counts it in $failures, ok prints a check that
# passed; each test ends by exiting 1 when $failures is not 0.
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }
