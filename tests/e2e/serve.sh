#!/usr/bin/env bash
# End-to-end test of tools/serve's own behaviour (the pages it serves are
# cgi.sh's subject): a port something already listens on is refused in one
# line before anything is said to have started; a server that starts says
# so only once its port answers, and answers a search; --print-config
# builds nothing and prints a configuration whose folder it leaves alone.
#
# Env: BLOGSEARCH_INDEX, BLOGSEARCH_CGI (binaries), SOURCE_DIR.
# Exit: 0 pass, 77 skipped (reason printed), anything else fail.
set -u

: "${SOURCE_DIR:?SOURCE_DIR must name the repository root}"
: "${BLOGSEARCH_INDEX:?}" "${BLOGSEARCH_CGI:?}"
py=/usr/bin/python3
. "$SOURCE_DIR/tests/e2e/cgi.d/server.sh"
skip_unless "$BLOGSEARCH_INDEX" "$BLOGSEARCH_CGI" -- lighttpd curl

work=$(mktemp -d)
server_pid="" holder=""
trap 'stop_server; [ -n "$holder" ] && kill "$holder" 2>/dev/null; rm -rf "$work"' EXIT
db=$work/db
. "$SOURCE_DIR/tests/e2e/checks.sh"

"$BLOGSEARCH_INDEX" add --db "$db" "$SOURCE_DIR/data" >"$work/add.log" 2>&1 || {
  echo "FAIL: add"; cat "$work/add.log"; exit 1; }

# A port held by another listener.
port=$(free_port)
$py -c 'import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(8); time.sleep(60)' "$port" &
holder=$!
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
timeout 20 "$SOURCE_DIR/tools/serve" --port "$port" --db "$db" --cgi "$BLOGSEARCH_CGI" >"$work/busy.out" 2>"$work/busy.err"
rc=$?
if [ "$rc" != 2 ]; then fail "busy port: exit $rc, expected 2"; fi
if [ "$(wc -l <"$work/busy.err")" != 1 ] || ! grep -q "port $port on 127.0.0.1 is in use" "$work/busy.err"; then
  fail "busy port: expected one line naming the port, got:"; cat "$work/busy.err"
fi
if [ -s "$work/busy.out" ]; then fail "busy port: said something on stdout:"; cat "$work/busy.out"; fi
kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null; holder=""
[ "$failures" = 0 ] && ok "a busy port is refused in one line, nothing said to have started"

# A server that starts: its line comes once the port answers.
before=$failures
start_server cgi "$db" "$work/serve.log" || exit 1
# The line follows tools/serve's own check of the port, which may come a
# little after ours.
for _ in $(seq 50); do grep -q "^tools/serve: $base_url (CGI) over " "$work/serve.log" && break; sleep 0.1; done
grep -q "^tools/serve: $base_url (CGI) over " "$work/serve.log" || { fail "no started line:"; cat "$work/serve.log"; }
curl -fsS "$base_url?q=kernels&format=json" | $py -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)["total"]["estimated"] > 0 else 1)' ||
  fail "a search through tools/serve found nothing"
stop_server
[ "$failures" = "$before" ] && ok "a server says it started once it answers, and answers"

# --print-config: no build (a source tree without build/ stays so), and
# the folder it names is the one it tells you to make.
before=$failures
mkdir -p "$work/src/tools" "$work/tmp"
cp "$SOURCE_DIR/tools/serve" "$work/src/tools/serve"
TMPDIR=$work/tmp "$work/src/tools/serve" --db "$db" --print-config >"$work/conf" 2>"$work/conf.err" ||
  { fail "--print-config failed:"; cat "$work/conf.err"; }
[ -e "$work/src/build" ] && fail "--print-config built the programs"
grep -q "^# Before: mkdir -p $work/tmp/blogsearch-serve/htdocs" "$work/conf" || { fail "--print-config: no setup line:"; head -3 "$work/conf"; }
grep -q "server.document-root = \"$work/tmp/blogsearch-serve/htdocs\"" "$work/conf" || fail "--print-config: document root is not the folder named"
grep -q "$work/src/build/blogsearch.cgi" "$work/conf" || fail "--print-config: does not name the CGI it would build"
[ -e "$work/tmp/blogsearch-serve" ] && fail "--print-config made its run folder"
mkdir -p "$work/tmp/blogsearch-serve/htdocs"
lighttpd -tt -f "$work/conf" >"$work/tt.log" 2>&1 || { fail "lighttpd rejects the printed configuration:"; cat "$work/tt.log"; }
[ "$failures" = "$before" ] && ok "--print-config: nothing built, a configuration lighttpd accepts once its folder is made"

if [ "$failures" -gt 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "all tools/serve checks passed"
