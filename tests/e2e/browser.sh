#!/usr/bin/env bash
# Headless Chromium (Debian's chromium) on the search page served by
# lighttpd as CGI over an index of data/: opens the page, types a search and
# presses Enter, follows a page link and a facet link, opens a post page from
# a result and the diff of its two versions, checks narrow screens,
# dark mode and visible focus, fails on any console error, and saves
# screenshots at 1280 px and 375 px into browser-artifacts/ of the directory
# it runs in (the build directory under CTest), or $ARTIFACTS_DIR.
# The driver is tests/e2e/cgi.d/browser.py (DevTools protocol).
#
# Env: BLOGSEARCH_INDEX, BLOGSEARCH_CGI (binaries), SOURCE_DIR.
# Exit: 0 pass, 77 skipped (reason printed), anything else fail.
set -u

: "${SOURCE_DIR:?SOURCE_DIR must name the repository root}"
: "${BLOGSEARCH_INDEX:?}" "${BLOGSEARCH_CGI:?}"
here=$SOURCE_DIR/tests/e2e/cgi.d
. "$here/server.sh"
skip_unless "$BLOGSEARCH_INDEX" "$BLOGSEARCH_CGI" -- lighttpd curl
chromium=""
for c in chromium chromium-browser; do
  command -v "$c" >/dev/null && { chromium=$(command -v "$c"); break; }
done
[ -n "$chromium" ] || { echo "SKIP: no chromium found (apt-get install chromium, or run tools/setup)"; exit 77; }
/usr/bin/python3 -c 'import websocket' 2>/dev/null ||
  { echo "SKIP: /usr/bin/python3 lacks the websocket module (apt-get install python3-websocket)"; exit 77; }

work=$(mktemp -d)
server_pid=""
trap 'stop_server; rm -rf "$work"' EXIT
artifacts=${ARTIFACTS_DIR:-$PWD/browser-artifacts}
rm -rf "$artifacts"

"$BLOGSEARCH_INDEX" add --db "$work/db" "$SOURCE_DIR/data" >"$work/add.log" 2>&1 || {
  echo "FAIL: blogsearch-index add data/"; cat "$work/add.log"; exit 1; }
start_server cgi "$work/db" "$work/serve.log" || exit 1
/usr/bin/python3 "$here/browser.py" "$chromium" "$base_url" "$artifacts"
rc=$?
[ $rc -eq 0 ] && echo "browser e2e: passed" || echo "browser e2e: failed"
exit $rc
