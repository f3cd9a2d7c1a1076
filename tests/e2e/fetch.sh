#!/usr/bin/env bash
# fetch against a real lighttpd on 127.0.0.1 (started and stopped here, CGI
# scripts from tests/e2e/fetch.d/www for the dynamic cases): conditional GET
# with ETag and with Last-Modified, a changed feed archived and indexed once,
# a 200 with an identical body, 301 vs 302, 404, 500, a timeout, a truncated
# body, gzip, a body over the cap, an HTML page, 429 with Retry-After, one
# failing feed among good ones (retries counted in the error), a server
# that is down, bad configs, and lock contention; summary lines for 1 feed.
set -euo pipefail

for tool in lighttpd curl; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIP: $tool is not installed (tools/setup installs it)"
    exit 77
  fi
done

fixtures="$SOURCE_DIR/tests/e2e/fetch.d"
# shellcheck source=fetch.d/server.sh
source "$fixtures/server.sh"
# shellcheck source=fetch.d/feeds.sh
source "$fixtures/feeds.sh"

tmp=$(mktemp -d)
bg_pid=""
tls_pid=""
cleanup() {
  [ -z "$bg_pid" ] || kill -CONT "$bg_pid" 2>/dev/null || true
  [ -z "$bg_pid" ] || kill "$bg_pid" 2>/dev/null || true
  [ -z "$tls_pid" ] || kill "$tls_pid" 2>/dev/null || true
  server_stop
  rm -rf "$tmp"
}
trap cleanup EXIT

cp -r "$fixtures/www" "$tmp/www"
mkdir -p "$tmp/www/static"
server_start "$tmp/srv" "$tmp/www"
state="$tmp/srv/state"
export BLOGSEARCH_DB="$tmp/db" BLOGSEARCH_ARCHIVE="$tmp/archive"

. "$SOURCE_DIR/tests/e2e/checks.sh"
reported=0
pass() {  # a section's verdict: "ok" only when none of its checks failed
  if [ "$failures" -eq "$reported" ]; then echo "ok: $*"; else echo "not ok: $*"; fi
  reported=$failures
}

# fetch_run NAME ARGS...: runs fetch, keeping stdout/stderr in $tmp/NAME.{out,err}
# and the exit status in $rc.
fetch_run() {
  local name=$1
  shift
  rc=0
  "$BLOGSEARCH_INDEX" fetch "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
  sed 's/^/  | /' "$tmp/$name.out" "$tmp/$name.err"
}

# config FILE ID=URL...: a feeds.toml.
config() {
  local file=$1 pair
  shift
  : >"$file"
  for pair in "$@"; do
    printf '[[feed]]\nid = "%s"\nurl = "%s"\n\n' "${pair%%=*}" "${pair#*=}" >>"$file"
  done
}

archived() { find "$BLOGSEARCH_ARCHIVE/$1" -name '*.xml' 2>/dev/null | wc -l; }

# Documents that hold TERM (feed terms are XFEED<id>, words are lowercase).
docs_with() {
  /usr/bin/python3 -c 'import sys, xapian; print(xapian.Database(sys.argv[1]).get_termfreq(sys.argv[2]))' \
    "$BLOGSEARCH_DB" "$1"
}

# Fetch state of a feed as stored in the metadata: fetch_state ID KEY.
fetch_state() {
  /usr/bin/python3 -c '
import json, sys, xapian
meta = json.loads(xapian.Database(sys.argv[1]).get_metadata("feed:" + sys.argv[2]) or "{}")
print(meta.get("fetch", {}).get(sys.argv[3]))' "$BLOGSEARCH_DB" "$1" "$2"
}

requests() { grep -c "^$1" "$state/requests.log" || true; }

# ---- 200 then 304, by ETag and by Last-Modified -----------------------------
write_feed "$state/etag.xml" alpha 3 aardvark
write_feed "$state/lastmod.xml" beta 2 bumblebee
touch -d '2026-09-01 12:00:00 UTC' "$state/lastmod.xml"
config "$tmp/cond.toml" "alpha=$BASE/etag.cgi" "beta=$BASE/lastmod.cgi"

fetch_run first --config "$tmp/cond.toml"
[ "$rc" -eq 0 ] || fail "first fetch exited $rc"
grep -q '2 new, 0 not modified' "$tmp/first.out" || fail "first fetch did not report 2 new snapshots"
[ "$(archived alpha)" -eq 1 ] && [ "$(archived beta)" -eq 1 ] || fail "first fetch did not archive one snapshot per feed"
headers=$(find "$BLOGSEARCH_ARCHIVE/alpha" -name '*.headers.json')
/usr/bin/python3 - "$headers" "$BASE/etag.cgi" <<'PY' || fail "archived headers.json lacks the fetch facts"
import json, sys
h = json.load(open(sys.argv[1]))
assert h["status"] == 200, h
assert h["finalUrl"] == sys.argv[2], h
assert h["etag"].startswith('"'), h
assert h["contentType"] == "application/rss+xml", h
assert h["fetchedAt"].endswith("Z") and h["observed_at"] == h["fetchedAt"], h
for key in ("lastModified", "date", "contentLength"):
    assert key in h, key
PY
[ "$(docs_with aardvark)" -eq 3 ] && [ "$(docs_with bumblebee)" -eq 2 ] || fail "first fetch did not index the posts"
grep -q 'ua=blogsearch/[0-9.]* (+http' "$state/requests.log" || fail "User-Agent does not name blogsearch, its version and home page"
grep -q 'ae=.*gzip' "$state/requests.log" || fail "Accept-Encoding does not offer gzip"

fetch_run second --config "$tmp/cond.toml"
[ "$rc" -eq 0 ] || fail "second fetch exited $rc"
grep -q '0 new, 2 not modified' "$tmp/second.out" || fail "second fetch was not 2 x 304"
etag=$(fetch_state alpha etag)
grep -qF "etag.cgi inm=$etag " "$state/requests.log" || fail "second request did not send If-None-Match: $etag"
grep -q 'lastmod.cgi inm= ims=Tue, 01 Sep 2026 12:00:00 GMT' "$state/requests.log" ||
  fail "second request did not send If-Modified-Since"
[ "$(archived alpha)" -eq 1 ] && [ "$(archived beta)" -eq 1 ] || fail "a 304 archived something"
[ "$(fetch_state alpha last_status)" = 304 ] || fail "last_status is not 304 after a 304"
pass "200 then 304 by ETag and by Last-Modified"

# ---- a changed feed is archived and indexed once ----------------------------
write_feed "$state/etag.xml" alpha 4 aardvark
fetch_run changed --config "$tmp/cond.toml"
grep -q '1 new, 1 not modified' "$tmp/changed.out" || fail "a changed feed was not fetched as new"
grep -q '; 1 post added' "$tmp/changed.out" || fail "the changed feed's new post was not added (as '1 post added')"
fetch_run changed_again --config "$tmp/cond.toml"
grep -q '0 new, 2 not modified' "$tmp/changed_again.out" || fail "the changed feed was fetched again"
[ "$(archived alpha)" -eq 2 ] || fail "expected 2 archived snapshots of alpha, found $(archived alpha)"
[ "$(docs_with aardvark)" -eq 4 ] || fail "expected 4 alpha posts, found $(docs_with aardvark)"
[ "$(docs_with XFEEDalpha)" -eq 4 ] || fail "alpha posts indexed more than once"

# Same body, new Last-Modified: a 200 that changes nothing.
touch -d '2026-09-02 12:00:00 UTC' "$state/lastmod.xml"
fetch_run same_body --config "$tmp/cond.toml" --feed beta
grep -q '0 new, 0 not modified, 1 unchanged' "$tmp/same_body.out" || fail "a 200 with an identical body was not 'unchanged'"
grep -q ': 1 feed checked in [0-9.]* s: ' "$tmp/same_body.out" || fail "the summary of one feed does not say '1 feed checked'"
[ "$(archived beta)" -eq 1 ] || fail "an identical body was archived again"
pass "changed feed archived and indexed once; identical body not archived"

# ---- redirects: 301 updates the stored URL, 302 does not --------------------
write_feed "$tmp/www/static/moved.xml" moved 2 migration
config "$tmp/moved.toml" "perm=$BASE/moved.cgi" "temp=$BASE/moved.cgi?temporary"
fetch_run moved --config "$tmp/moved.toml"
[ "$rc" -eq 0 ] || fail "redirected fetch exited $rc"
[ "$(fetch_state perm url)" = "$BASE/static/moved.xml" ] || fail "301 did not update the stored url: $(fetch_state perm url)"
[ "$(fetch_state perm final_url)" = "$BASE/static/moved.xml" ] || fail "final url of the 301 feed not recorded"
[ "$(fetch_state temp url)" = "$BASE/moved.cgi?temporary" ] || fail "302 changed the stored url: $(fetch_state temp url)"
[ "$(fetch_state temp final_url)" = "$BASE/static/moved.xml" ] || fail "final url of the 302 feed not recorded"
before=$(requests 'moved.cgi $')
fetch_run moved_again --config "$tmp/moved.toml"
[ "$(requests 'moved.cgi $')" -eq "$before" ] || fail "after a 301 the old url was requested again"
[ "$(requests 'moved.cgi temporary')" -eq 2 ] || fail "after a 302 the original url was not requested again"
"$BLOGSEARCH_INDEX" stats >"$tmp/stats.txt"
grep -q "fetch url    $BASE/static/moved.xml" "$tmp/stats.txt" || fail "stats does not show the moved url"
pass "301 updates the stored url, 302 keeps it"

# ---- failures among good feeds ----------------------------------------------
write_feed "$state/good.xml" good 2 goodness
write_feed "$state/slow.xml" slowpoke 2 sloth
write_feed "$tmp/www/static/good.xml" good 2 goodness
cap=$((200 * 1024))
write_feed "$tmp/www/static/big.xml" big 400 "$(printf 'padding%.0s ' $(seq 1 40))"
[ "$(stat -c %s "$tmp/www/static/big.xml")" -gt "$cap" ] || fail "big.xml is not big enough for the test"
# Compressed it is tiny; decoded it is over the cap, which counts.
write_feed "$state/gzip.xml" zipped 3 zebra
config "$tmp/mixed.toml" \
  "good=$BASE/static/good.xml" \
  "zipped=$BASE/gzip.cgi" \
  "missing=$BASE/static/missing.xml" \
  "broken=$BASE/status.cgi?500" \
  "slow=$BASE/slow.cgi?6" \
  "truncated=$BASE/truncated.cgi" \
  "big=$BASE/static/big.xml" \
  "page=$BASE/page.html"
start=$(date +%s.%N)
fetch_run mixed --config "$tmp/mixed.toml" --timeout 2 --retries 1 --max-body $((200 * 1024))
elapsed=$(/usr/bin/python3 -c "import sys; print(round($(date +%s.%N) - $start, 1))")
echo "  mixed run took $elapsed s"
[ "$rc" -eq 3 ] || fail "a run with failing feeds exited $rc, expected 3"
grep -q '8 feeds checked .*: 2 new, 0 not modified, 0 unchanged, 6 failed' "$tmp/mixed.out" ||
  fail "summary line does not count 2 new and 6 failed"
expect_error() {  # ID REGEX
  grep -Eq "feed $1 failed: .*$2" "$tmp/mixed.err" || fail "feed $1: no error matching '$2'"
  [ ! -d "$BLOGSEARCH_ARCHIVE/$1" ] || fail "feed $1 failed but something was archived"
  [ "$(fetch_state "$1" consecutive_failures)" = 1 ] || fail "feed $1: consecutive_failures is not 1"
}
expect_error missing 'HTTP 404'
expect_error broken 'HTTP 500'
expect_error slow '[Tt]imeout|timed out'
expect_error truncated 'transfer closed|[Pp]artial'
expect_error big 'larger than 204800 bytes'
expect_error page "$BASE/page.html: not a feed \\(root element <html>\\)$"
grep -q 'not a feed.*not a feed' "$tmp/mixed.err" && fail "a page that is not a feed is called so twice"
# The retries (--retries 1) are said, with the last attempt's error; what
# is not retried (a 404) says nothing of attempts.
expect_error broken 'HTTP 500 \(2 attempts\)$'
expect_error slow '\(2 attempts\)$'
grep -q 'feed missing failed: HTTP 404$' "$tmp/mixed.err" || fail "a 404, not retried, names attempts"
[ "$(requests 'status.cgi 500')" -eq 2 ] || fail "the 500 was not retried once (--retries 1)"
[ "$(requests 'slow.cgi')" -eq 2 ] || fail "the timeout was not retried once (--retries 1)"
[ "$(requests 'truncated.cgi')" -eq 2 ] || fail "the truncated transfer was not retried once (--retries 1)"
[ "$(docs_with goodness)" -eq 2 ] || fail "the good feed was not indexed beside the failing ones"
[ "$(docs_with zebra)" -eq 3 ] || fail "the gzip feed was not decoded and indexed"
[ "$(docs_with XFEEDpage)" -eq 0 ] || fail "the HTML page was indexed"
/usr/bin/python3 -c 'import sys; sys.exit(0 if open(sys.argv[1], "rb").read().startswith(b"<?xml") else 1)' \
  "$(find "$BLOGSEARCH_ARCHIVE/zipped" -name '*.xml')" || fail "the gzip feed was archived compressed"
grep -q 'gzip.cgi ae=.*gzip' "$state/requests.log" || fail "gzip feed: Accept-Encoding without gzip"
"$BLOGSEARCH_INDEX" stats >"$tmp/stats.txt"
grep -A8 '^  broken' "$tmp/stats.txt" >"$tmp/broken.txt"
grep -q 'last fetch   .*HTTP 500: HTTP 500' "$tmp/broken.txt" || fail "stats does not show the 500"
grep -q 'last success never' "$tmp/broken.txt" || fail "stats does not show 'last success never'"
# A second failure in a row is counted; a good feed stays at 0.
fetch_run mixed_again --config "$tmp/mixed.toml" --feed broken --feed good --retries 0
[ "$rc" -eq 3 ] || fail "second run with a failing feed exited $rc, expected 3"
[ "$(fetch_state broken consecutive_failures)" = 2 ] || fail "consecutive_failures did not grow to 2"
[ "$(fetch_state good consecutive_failures)" = 0 ] || fail "a good feed has failures"
"$BLOGSEARCH_INDEX" stats >"$tmp/stats.txt"
grep -A8 '^  broken' "$tmp/stats.txt" >"$tmp/broken.txt"
grep -q 'failures     2 in a row' "$tmp/broken.txt" || fail "stats does not show 2 failures in a row"
# Without the cap the big feed is fine: it was the cap that stopped it.
fetch_run big --config "$tmp/mixed.toml" --feed big
[ "$rc" -eq 0 ] && [ "$(docs_with XFEEDbig)" -eq 400 ] || fail "big feed not indexed under the default cap"
pass "404, 500, timeout, truncated, over the cap, HTML page recorded as failures; good and gzip feeds indexed; exit 3"

# ---- refused, unknown host, untrusted certificate --------------------------------
closed=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
net=("refused=http://127.0.0.1:$closed/feed.xml" "nxdomain=http://feed.blogsearch-test.invalid/feed.xml")
if command -v openssl >/dev/null; then
  openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -days 2 \
    -keyout "$tmp/key.pem" -out "$tmp/cert.pem" >/dev/null 2>&1
  /usr/bin/python3 "$fixtures/tls_server.py" "$tmp/cert.pem" "$tmp/key.pem" "$tmp/www/static" "$tmp/tls.port" \
    2>"$tmp/tls.log" &
  tls_pid=$!
  for _ in $(seq 1 50); do [ -s "$tmp/tls.port" ] && break; sleep 0.1; done
  net+=("selfsigned=https://127.0.0.1:$(cat "$tmp/tls.port")/good.xml")
fi
config "$tmp/net.toml" "${net[@]}" "good=$BASE/static/good.xml"
fetch_run net --config "$tmp/net.toml" --retries 0 --timeout 5 --connect-timeout 5
[ "$rc" -eq 3 ] || fail "network failures exited $rc, expected 3"
grep -Eq 'feed refused failed: .*(onnect|refused)' "$tmp/net.err" || fail "refused connection not reported"
grep -q 'attempts' "$tmp/net.err" && fail "a failure with --retries 0 names attempts"
grep -Eq 'feed nxdomain failed: .*(resolve|host)' "$tmp/net.err" || fail "unknown host not reported"
if [ -n "$tls_pid" ]; then
  grep -Eq 'feed selfsigned failed: .*(SSL|certificate)' "$tmp/net.err" || fail "a self-signed certificate was accepted"
  [ ! -d "$BLOGSEARCH_ARCHIVE/selfsigned" ] || fail "a feed behind an untrusted certificate was archived"
  kill "$tls_pid" 2>/dev/null || true
  tls_pid=""
fi
"$BLOGSEARCH_INDEX" stats >"$tmp/stats.txt"
grep -A8 '^  refused' "$tmp/stats.txt" >"$tmp/refused.txt"
grep -q 'last fetch   .*, no response: .*onnect' "$tmp/refused.txt" || fail "stats does not show the refused connection"
grep -q 'feed good: not modified' "$tmp/net.err" || fail "the good feed beside the network failures was not fetched"
# A server that is down: the retries' backoff (1 s, then 2 s) is why the
# fetch takes 3 s, and the error line says there were 3 attempts.
config "$tmp/down.toml" "down=http://127.0.0.1:$closed/feed.xml"
fetch_run down --config "$tmp/down.toml"
[ "$rc" -eq 3 ] || fail "a server that is down exited $rc, expected 3"
grep -Eq 'feed down failed: .*onnect.* \(3 attempts\)$' "$tmp/down.err" || fail "the refused feed's error does not say 3 attempts"
grep -q ': 1 feed checked in [0-9.]* s: 0 new, 0 not modified, 0 unchanged, 1 failed; 0 posts added' "$tmp/down.out" ||
  fail "the summary of one failed feed is not '1 feed checked ...: ... 1 failed; 0 posts added'"
pass "refused connection, unknown host and untrusted certificate recorded as failures; retries counted"

# ---- parallel, at most 2 at once per host, no stall between requests -----------
pairs=()
for i in 1 2 3 4; do
  write_feed "$state/hold-a$i.xml" "hold-a$i" 1
  write_feed "$state/hold-b$i.xml" "hold-b$i" 1
  pairs+=("hold-a$i=$BASE/hold.cgi?a$i" "hold-b$i=http://localhost:$PORT/hold.cgi?b$i")
done
config "$tmp/hold.toml" "${pairs[@]}"
fetch_run hold --config "$tmp/hold.toml"
[ "$rc" -eq 0 ] && grep -q '8 new' "$tmp/hold.out" || fail "parallel fetch of 8 feeds on 2 hosts failed"
/usr/bin/python3 - "$state/requests.log" <<'PY' || fail "requests did not run in parallel within the per-host limit"
import sys
events = []
for line in open(sys.argv[1]):
    f = line.split()
    if f[0] == "hold.cgi":
        events.append((float(f[3]), 1 if f[1] == "start" else -1, f[2]))
events.sort(key=lambda e: (e[0], e[1]))   # an end before a start at the same instant
running, peak, peak_host = {}, 0, {}
for t, d, host in events:
    running[host] = running.get(host, 0) + d
    peak_host[host] = max(peak_host.get(host, 0), running[host])
    peak = max(peak, sum(running.values()))
print("  peak at once: %d, per host: %s" % (peak, peak_host))
assert len(events) == 16, events
assert all(v == 2 for v in peak_host.values()), peak_host   # limit reached, never passed
assert peak >= 3, peak                                        # hosts in parallel
PY
many=()
for i in $(seq 1 30); do
  write_feed "$tmp/www/static/many-$i.xml" "many-$i" 1
  many+=("many-$i=$BASE/static/many-$i.xml")
done
config "$tmp/many.toml" "${many[@]}"
fetch_run many_first --config "$tmp/many.toml"
start=$(date +%s.%N)
fetch_run many_304 --config "$tmp/many.toml"
took=$(/usr/bin/python3 -c "print(round($(date +%s.%N) - $start, 2))")
grep -q '0 new, 30 not modified' "$tmp/many_304.out" || fail "30 unchanged static feeds were not 30 x 304"
/usr/bin/python3 -c "import sys; sys.exit(0 if $took < 3 else 1)" || fail "30 x 304 on one host took $took s: requests wait for each other"
pass "8 feeds on 2 hosts: 2 at once per host, hosts in parallel; 30 x 304 in $took s"

# ---- 429 with Retry-After -----------------------------------------------------
write_feed "$state/ratelimit.xml" limited 2 patience
config "$tmp/limit.toml" "limited=$BASE/ratelimit.cgi"
fetch_run limited --config "$tmp/limit.toml" --retries 1
[ "$rc" -eq 0 ] || fail "429 then 200 exited $rc"
[ "$(docs_with patience)" -eq 2 ] || fail "the rate-limited feed was not indexed after its retry"
/usr/bin/python3 - "$state/requests.log" <<'PY' || fail "the retry after 429 did not wait for Retry-After: 1"
import sys
times = [float(l.split()[1]) for l in open(sys.argv[1]) if l.startswith("ratelimit.cgi")]
assert len(times) == 2, times
assert times[1] - times[0] >= 0.95, times
PY
pass "429 with Retry-After waited for and retried"

# ---- bad configs: exit 2, file:line and key -----------------------------------
bad_config() {  # NAME EXPECTED-REGEX, config on stdin
  cat >"$tmp/$1.toml"
  fetch_run "bad_$1" --config "$tmp/$1.toml"
  [ "$rc" -eq 2 ] || fail "config $1: exit $rc, expected 2"
  grep -Eq "$2" "$tmp/bad_$1.err" || fail "config $1: message does not match '$2'"
  [ "$(wc -l <"$tmp/bad_$1.err")" -eq 1 ] || fail "config $1: message is not one line"
}
bad_config scheme "$tmp/scheme.toml:7: feed 'ftp': url must be" <<EOF
[[feed]]
id = "fine"
url = "$BASE/static/good.xml"

[[feed]]
id = "ftp"
url = "ftp://example.org/feed.xml"
EOF
bad_config syntax "$tmp/syntax.toml:3:" <<'EOF'
[[feed]]
id = "fine"
url = "http://example.org/feed.xml
EOF
bad_config noid "$tmp/noid.toml:1: .*'id'" <<'EOF'
[[feed]]
url = "http://example.org/feed.xml"
EOF
bad_config type "$tmp/type.toml:4: .*'enabled'" <<'EOF'
[[feed]]
id = "x"
url = "http://example.org/feed.xml"
enabled = "yes"
EOF
bad_config dup "$tmp/dup.toml:5: id 'x' appears twice" <<'EOF'
[[feed]]
id = "x"
url = "http://example.org/a.xml"
[[feed]]
id = "x"
url = "http://example.org/b.xml"
EOF
bad_config misspelt "$tmp/misspelt.toml:4: unknown key 'enabeld' in \\[\\[feed\\]\\]" <<'EOF'
[[feed]]
id = "x"
url = "http://example.org/a.xml"
enabeld = false
EOF
bad_config longid "$tmp/longid.toml:2: id '.*' is 300 bytes, longer than the 100" <<EOF
[[feed]]
id = "$(printf 'a%.0s' $(seq 300))"
url = "http://example.org/a.xml"
EOF
rc=0
"$BLOGSEARCH_INDEX" add --feed "$(printf 'b%.0s' $(seq 300))" "$SOURCE_DIR/data" >/dev/null 2>"$tmp/longfeed.err" || rc=$?
[ "$rc" -eq 2 ] && grep -q -- '--feed: id .* longer than the 100' "$tmp/longfeed.err" ||
  fail "add --feed with a 300-byte id: exit $rc, $(cat "$tmp/longfeed.err")"
# A misspelt command is named, with the real ones.
rc=0
"$BLOGSEARCH_INDEX" frobnicate >/dev/null 2>"$tmp/frob.err" || rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/frob.err")" -eq 1 ] &&
  grep -q "unknown command 'frobnicate' (commands: parse, add, fetch, rebuild, import-git, stats" "$tmp/frob.err" ||
  fail "an unknown command: exit $rc, $(cat "$tmp/frob.err")"
fetch_run bad_missing --config "$tmp/does-not-exist.toml"
[ "$rc" -eq 2 ] && grep -q 'does-not-exist.toml' "$tmp/bad_missing.err" || fail "a missing config is not exit 2 naming it"
pass "bad configs exit 2 naming file:line and key"

# ---- fetch downloads without the lock ------------------------------------------
# A feed that takes 3 s to answer: meanwhile `add` gets the lock at once.
config "$tmp/slow.toml" "slowpoke=$BASE/slow.cgi?3"
write_feed "$tmp/www/static/other.xml" other 2 otherness
config "$tmp/other.toml" "other=$BASE/static/other.xml"
: >"$state/requests.log"
"$BLOGSEARCH_INDEX" fetch --config "$tmp/slow.toml" --timeout 20 >"$tmp/holder.out" 2>&1 &
bg_pid=$!
for _ in $(seq 1 100); do
  grep -q '^slow.cgi' "$state/requests.log" && break
  sleep 0.05
done
start=$(date +%s.%N)
rc=0
"$BLOGSEARCH_INDEX" add "$SOURCE_DIR/data/pytorch" >"$tmp/add_during.out" 2>&1 || rc=$?
took=$(/usr/bin/python3 -c "print($(date +%s.%N) - $start)")
[ "$rc" -eq 0 ] || fail "add while a fetch was downloading exited $rc: $(cat "$tmp/add_during.out")"
kill -0 "$bg_pid" 2>/dev/null || fail "the fetch finished before add ran (the test proves nothing)"
/usr/bin/python3 -c "import sys; sys.exit(0 if $took < 2.5 else 1)" || fail "add waited ${took} s for a downloading fetch"
[ ! -e "$BLOGSEARCH_DB/blogsearch-writer" ] || fail "a downloading fetch holds the writer lock"
wait "$bg_pid" || fail "the fetch failed: $(cat "$tmp/holder.out")"
bg_pid=""
grep -q '1 new' "$tmp/holder.out" && [ "$(docs_with XFEEDslowpoke)" -eq 2 ] || fail "the slow fetch did not index its feed afterwards"
pass "fetch downloads without the writer lock and takes it only to index"

# ---- lock contention ----------------------------------------------------------
# A rebuild holds the lock throughout (and 1.5 s after switching); stopped
# with SIGSTOP once it has the lock, it holds it for as long as the test needs.
"$BLOGSEARCH_INDEX" rebuild >"$tmp/holder.out" 2>&1 &
bg_pid=$!
for _ in $(seq 1 400); do
  [ -s "$BLOGSEARCH_DB/blogsearch-writer" ] && break
  sleep 0.01
done
kill -STOP "$bg_pid"
[ -s "$BLOGSEARCH_DB/blogsearch-writer" ] || fail "the rebuild did not record itself as the lock holder"
start=$(date +%s.%N)
fetch_run locked --config "$tmp/other.toml"
took=$(/usr/bin/python3 -c "print($(date +%s.%N) - $start)")
[ "$rc" -eq 4 ] || fail "a second writer exited $rc, expected 4"
grep -q "locked by another writer (pid $bg_pid," "$tmp/locked.err" || fail "the lock message does not name the holder (pid $bg_pid)"
/usr/bin/python3 -c "import sys; sys.exit(0 if $took < 1.5 else 1)" || fail "the second writer did not exit at once ($took s)"
rc=0
"$BLOGSEARCH_INDEX" add "$SOURCE_DIR/data/pytorch" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 4 ] || fail "add while locked exited $rc, expected 4"
rc=0
"$BLOGSEARCH_INDEX" rebuild >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 4 ] || fail "rebuild while locked exited $rc, expected 4"
rc=0
"$BLOGSEARCH_INDEX" fetch --config "$tmp/other.toml" --wait 30 >"$tmp/waited.out" 2>&1 &
waiter=$!
sleep 1
kill -0 "$waiter" 2>/dev/null || fail "fetch --wait did not wait for the holder: $(cat "$tmp/waited.out")"
kill -CONT "$bg_pid"
wait "$waiter" || fail "fetch --wait failed: $(cat "$tmp/waited.out")"
wait "$bg_pid" || fail "the lock holder failed: $(cat "$tmp/holder.out")"
bg_pid=""
[ "$(docs_with otherness)" -eq 2 ] || fail "fetch --wait did not index its feed"
pass "a second writer exits 4 at once naming the holder; --wait waits"

# ---- a body cut short is not a snapshot; relative links; the HTTP charset -------
# The feed's generator dies half-way: the transfer ends cleanly, only the
# document is cut. The fetch fails (and is retried), nothing is archived, and
# no post is concluded to have left the feed. Its links are relative: only
# the document's URL (finalUrl) resolves them.
{
  printf '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>Cut</title>\n'
  for i in 1 2 3 4 5 6; do
    printf '<item><title>Cut post %d</title><link>/blog/cut-%d.html</link><guid isPermaLink="false">urn:cut:%d</guid>' "$i" "$i" "$i"
    printf '<description>Post %d about scissors and paper, long enough to be cut somewhere in the middle.</description></item>\n' "$i"
  done
  printf '</channel></rss>\n'
} >"$state/cut.xml"
config "$tmp/cut.toml" "cut=$BASE/cut.cgi"
fetch_run cut-whole --config "$tmp/cut.toml" --retries 1
[ "$rc" -eq 0 ] && [ "$(docs_with XFEEDcut)" -eq 6 ] || fail "the whole feed was not indexed (exit $rc)"
[ "$(docs_with XINFEEDyes)" -ge 6 ] || fail "the whole feed's posts are not in the feed"
"$BLOGSEARCH" --db "$BLOGSEARCH_DB" --format json 'feed:cut scissors' >"$tmp/cut.json" || fail "search for the cut feed failed"
/usr/bin/python3 - "$tmp/cut.json" "$BASE" <<'PY' || fail "relative links were not resolved against the feed's URL"
import json, sys
links = sorted(r["link"] for r in json.load(open(sys.argv[1]))["results"])
want = sorted(f"{sys.argv[2]}/blog/cut-{i}.html" for i in range(1, 7))
assert links == want, (links, want)
PY
echo cut >"$state/cut.mode"
before=$(requests 'cut.cgi')
fetch_run cut-short --config "$tmp/cut.toml" --retries 1
[ "$rc" -eq 3 ] || fail "a cut-short body exited $rc, expected 3"
grep -q 'feed cut failed: truncated body .* (2 attempts)$' "$tmp/cut-short.err" ||
  fail "the cut-short body was not reported as truncated after 2 attempts"
[ $(( $(requests 'cut.cgi') - before )) -eq 2 ] || fail "the cut-short body was not fetched again once (--retries 1)"
[ "$(archived cut)" -eq 1 ] || fail "the cut-short body was archived"
[ "$(fetch_state cut consecutive_failures)" = 1 ] || fail "the cut-short fetch was not recorded as a failure"
/usr/bin/python3 - "$BLOGSEARCH_DB" <<'PY' || fail "a cut-short body changed what is in the feed"
import json, sys, xapian
db = xapian.Database(sys.argv[1])
for t in db.postlist("XFEEDcut"):
    rec = json.loads(db.get_document(t.docid).get_value(7))
    assert rec["in_feed"] is True, rec["id"]
PY
# The same body given to add: a warning, its complete items indexed, and
# still nothing concluded from what it lacks.
mkdir -p "$tmp/cutadd/cut"
curl -s "$BASE/cut.cgi" >"$tmp/cutadd/cut/2030-01-01T000000Z.xml"
rc=0
"$BLOGSEARCH_INDEX" add "$tmp/cutadd/cut" >"$tmp/cutadd.out" 2>"$tmp/cutadd.err" || rc=$?
grep -q 'truncated' "$tmp/cutadd.err" || fail "add did not warn about the cut-short body: $(cat "$tmp/cutadd.err")"
[ "$rc" -eq 0 ] || fail "add of a cut-short body exited $rc"
/usr/bin/python3 - "$BLOGSEARCH_DB" <<'PY' || fail "add of a cut-short body marked posts as gone or kept the cut item"
import json, sys, xapian
db = xapian.Database(sys.argv[1])
titles = []
for t in db.postlist("XFEEDcut"):
    rec = json.loads(db.get_document(t.docid).get_value(7))
    assert rec["in_feed"] is True, rec["id"]
    titles.append(rec["title"])
assert sorted(titles) == [f"Cut post {i}" for i in range(1, 7)], titles
PY
# No declaration in the bytes: the HTTP charset decides (GB18030 here).
printf '<?xml version="1.0"?>\n<rss version="2.0"><channel><title>Charset</title><link>https://charset.example.org/</link>\n<item><title>\xd6\xd0\xce\xc4 post</title><guid>urn:charset:1</guid><description>Encoded by the server.</description></item>\n</channel></rss>\n' >"$state/charset.xml"
echo gb2312 >"$state/charset.name"
config "$tmp/charset.toml" "charset=$BASE/charset.cgi"
fetch_run charset --config "$tmp/charset.toml"
"$BLOGSEARCH" --db "$BLOGSEARCH_DB" --format json 'feed:charset' >"$tmp/charset.json" || fail "search for the charset feed failed"
/usr/bin/python3 - "$tmp/charset.json" <<'PY' || fail "the HTTP charset was not used to decode the feed"
import json, sys
titles = [r["title"] for r in json.load(open(sys.argv[1]))["results"]]
assert titles == ["\u4e2d\u6587 post"], titles
PY
pass "a cut-short body fails the fetch and is retried; relative links; the HTTP charset"

# ---- the scheduled commands in tools/systemd run as written --------------------
# The unit's Environment= and ExecStart= and the cron line's command (the
# templates that `cmake --install` fills in), with the installed paths pointed
# at this test's binary, config and state.
units="$SOURCE_DIR/tools/systemd"
write_feed "$tmp/www/static/scheduled.xml" scheduled 2 timely
config "$tmp/scheduled.toml" "scheduled=$BASE/static/scheduled.xml"
relocate() {
  sed -e "s|@BINDIR@/blogsearch-index|$BLOGSEARCH_INDEX|g" -e "s|@SYSCONFDIR@/blogsearch/feeds.toml|$tmp/scheduled.toml|g" \
    -e "s|@STATEDIR@|$tmp/var-lib|g"
}
unit_env=$(sed -n 's/^Environment=//p' "$units/blogsearch-fetch.service.in" | relocate)
unit_cmd=$(sed -n 's/^ExecStart=//p' "$units/blogsearch-fetch.service.in" | relocate)
rc=0
(unset BLOGSEARCH_DB BLOGSEARCH_ARCHIVE; env $unit_env $unit_cmd) >"$tmp/unit.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] && [ ! -s "$tmp/unit.out" ] || fail "the service's command failed (exit $rc) or was not quiet: $(cat "$tmp/unit.out")"
[ "$(find "$tmp/var-lib/archive/scheduled" -name '*.xml' | wc -l)" -eq 1 ] || fail "the service's command did not archive into its state directory"
cron_cmd=$(grep -v '^#' "$units/blogsearch.cron.in" | grep . | cut -d' ' -f7- | relocate)
[ "$(grep -v '^#' "$units/blogsearch.cron.in" | grep -c .)" -eq 1 ] || fail "blogsearch.cron is not one line"
rc=0
(unset BLOGSEARCH_DB BLOGSEARCH_ARCHIVE; sh -c "$cron_cmd") >"$tmp/cron.out" 2>&1 || rc=$?
# Cron mails whatever a job prints: nothing when all went well...
[ "$rc" -eq 0 ] && [ ! -s "$tmp/cron.out" ] || fail "the cron line's command failed (exit $rc) or printed: $(cat "$tmp/cron.out")"
[ "$(BLOGSEARCH_DB="$tmp/var-lib/db" fetch_state scheduled last_status)" = 304 ] || fail "the cron line's fetch did not run"
# ...and the failure, when a feed fails.
printf '[[feed]]\nid = "gone"\nurl = "%s"\n' "$BASE/static/gone.xml" >>"$tmp/scheduled.toml"
rc=0
(unset BLOGSEARCH_DB BLOGSEARCH_ARCHIVE; sh -c "$cron_cmd") >"$tmp/cron.out" 2>&1 || rc=$?
[ "$rc" -eq 3 ] && grep -q '^blogsearch-index: feed gone failed: .*404' "$tmp/cron.out" &&
  [ "$(wc -l <"$tmp/cron.out")" -eq 1 ] || fail "the cron line's command does not print just the failure (exit $rc): $(cat "$tmp/cron.out")"
pass "the systemd unit's and the cron line's commands run as written"

if [ "$failures" -ne 0 ]; then
  echo "FAIL: $failures check(s) failed"
  echo "--- lighttpd error log"; cat "$tmp/srv/error.log"
  exit 1
fi
echo "PASS: fetch against lighttpd"
