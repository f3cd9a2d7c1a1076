#!/usr/bin/env bash
# End-to-end test of blogsearch.cgi: run directly as CGI (statuses, HEAD,
# 405, 503 without leaking paths, parameters never choose the database),
# then behind lighttpd (tools/serve) as CGI and as FastCGI, driven with curl
# and small python checkers in cgi.d/: headers and content types, every
# format valid (HTML parses cleanly, JSON is the CLI's model, Atom and
# OpenSearch are well-formed), paging, facet and histogram links, 40+ XSS
# and injection payloads in every parameter, and rebuilds of the database
# while a load of requests runs (0 failures), plus FastCGI picking up a
# rebuild and a commit without restarting.
#
# Env: BLOGSEARCH_INDEX, BLOGSEARCH, BLOGSEARCH_CGI (binaries), SOURCE_DIR.
# Exit: 0 pass, 77 skipped (reason printed), anything else fail.
set -u

: "${SOURCE_DIR:?SOURCE_DIR must name the repository root}"
: "${BLOGSEARCH_INDEX:?}" "${BLOGSEARCH:?}" "${BLOGSEARCH_CGI:?}"
here=$SOURCE_DIR/tests/e2e/cgi.d
py=/usr/bin/python3
. "$here/server.sh"
skip_unless "$BLOGSEARCH_INDEX" "$BLOGSEARCH" "$BLOGSEARCH_CGI" -- lighttpd curl xmllint

work=$(mktemp -d)
server_pid=""
trap 'stop_server; rm -rf "$work"' EXIT
db=$work/db
. "$SOURCE_DIR/tests/e2e/checks.sh"

"$BLOGSEARCH_INDEX" add --db "$db" "$SOURCE_DIR/data" >"$work/add.log" 2>&1 || {
  echo "FAIL: blogsearch-index add data/"; cat "$work/add.log"; exit 1; }

# ---- 1. the CGI run directly, with a CGI environment ------------------------
cgi() {  # cgi DB METHOD QUERY_STRING > response
  env -i PATH=/usr/bin:/bin BLOGSEARCH_DB="$1" REQUEST_METHOD="$2" QUERY_STRING="$3" \
    GATEWAY_INTERFACE=CGI/1.1 SERVER_NAME=localhost SERVER_PORT=80 SCRIPT_NAME=/cgi-bin/blogsearch.cgi \
    "$BLOGSEARCH_CGI" </dev/null
}
body_of() { sed '1,/^\r$/d' "$1"; }

cgi "$db" GET 'q=compile' >"$work/d1"
head -1 "$work/d1" | grep -q $'^Status: 200 OK\r$' || fail "direct GET: $(head -1 "$work/d1")"
grep -q $'^Content-Type: text/html; charset=utf-8\r$' "$work/d1" || fail "direct GET: no HTML content type"
body_of "$work/d1" >"$work/d1.html"
$py "$here/pagecheck.py" html "$work/d1.html" || fail "direct GET: page does not check"
grep -q '<mark>' "$work/d1.html" || fail "direct GET: no highlighted match"

cgi "$db" HEAD 'q=compile' >"$work/d2"
[ -z "$(body_of "$work/d2")" ] && grep -q '^Status: 200' "$work/d2" || fail "direct HEAD: body sent or not 200"

cgi "$db" POST 'q=compile' >"$work/d3"
grep -q '^Status: 405' "$work/d3" && grep -q $'^Allow: GET, HEAD\r$' "$work/d3" || fail "direct POST: not 405 with Allow"

cgi "$work/secret-missing-db" GET 'q=compile' >"$work/d4" 2>"$work/d4.err"
grep -q '^Status: 503' "$work/d4" || fail "missing database: $(head -1 "$work/d4")"
grep -q 'secret-missing-db' "$work/d4" && fail "missing database: the page names the path"
grep -q 'secret-missing-db' "$work/d4.err" || fail "missing database: the error log does not name the path"

# The database comes from the environment only: parameters naming one are ignored.
cgi "$db" GET "q=compile&BLOGSEARCH_DB=$work/secret-missing-db&DB=/etc&db=/" >"$work/d5"
grep -q '^Status: 200' "$work/d5" || fail "database parameters were not ignored"

cgi "$db" GET 'q=pytorch+AND' >"$work/d6"
grep -q '^Status: 400' "$work/d6" && grep -q '<form' "$work/d6" && grep -q 'needs a word or phrase' "$work/d6" ||
  fail "syntax error: not a 400 page with the message and the form"

# A NUL or bytes that are not UTF-8 are a 400 with the reason (a NUL used
# to end the value: q=%00kernel showed the start page).
for spec in 'q=%00kernel|q holds a control character' 'post=%00|post holds a control character' \
            'q=%C3%28|q is not valid UTF-8 text'; do
  IFS='|' read -r qs why <<<"$spec"
  cgi "$db" GET "$qs" >"$work/d9"
  grep -q '^Status: 400' "$work/d9" && grep -q "$why" "$work/d9" || fail "direct $qs: $(head -1 "$work/d9")"
done
# A version the post does not have is named, in a diff too.
cgi "$db" GET 'post=https%3A%2F%2Fpytorch.org%2F%3Fp%3D9000004&diff=1-3' >"$work/d10"
grep -q '^Status: 400' "$work/d10" && grep -q 'there is no version 3' "$work/d10" ||
  fail "direct diff=1-3: $(grep -o 'role="alert">[^<]*' "$work/d10")"

env -i "$BLOGSEARCH_CGI" >"$work/d7" 2>&1 </dev/null
[ $? -eq 2 ] && grep -q 'web server' "$work/d7" || fail "run outside a server: no usage message"

# Started as FastCGI (a listening socket on stdin) with an unusable setting:
# a one-line error and exit 2 before serving anything.
for setting in BLOGSEARCH_CGI_CACHE=many BLOGSEARCH_CGI_DOC_CACHE_MB=-1 BLOGSEARCH_CGI_DOC_CACHE_MB=99999999; do
  $py - "$BLOGSEARCH_CGI" "$work/fcgi-setting.sock" "$setting" >"$work/d8" 2>&1 <<'PY' ||
import socket, subprocess, sys
cgi, path, setting = sys.argv[1:4]
listener = socket.socket(socket.AF_UNIX)
listener.bind(path)
listener.listen()
name, value = setting.split("=", 1)
run = subprocess.run([cgi], stdin=listener.fileno(), env={name: value}, capture_output=True, text=True, timeout=10)
print(run.stderr, end="")
sys.exit(0 if run.returncode == 2 and run.stderr.count("\n") == 1 and name in run.stderr else 1)
PY
    fail "FastCGI with $setting: $(cat "$work/d8")"
  rm -f "$work/fcgi-setting.sock"
done
[ "$failures" = 0 ] && ok "direct CGI: 200, HEAD, 405, 503 without path, db not from request, 400, control characters, usage"

# ---- 2. behind lighttpd ------------------------------------------------------
check_http() {  # check_http MODE
  local mode=$1 h
  # The post page of data/'s edited post (pytorch 9000004, two versions).
  local post="post=https%3A%2F%2Fpytorch.org%2F%3Fp%3D9000004"
  # Headers and content types of every format.
  for spec in "q=compile|200|text/html; charset=utf-8" \
              "q=compile&format=json|200|application/json" \
              "q=compile&format=atom|200|application/atom+xml; charset=utf-8" \
              "format=opensearch|200|application/opensearchdescription+xml; charset=utf-8" \
              "format=css|200|text/css; charset=utf-8" \
              "|200|text/html; charset=utf-8" \
              "q=pytorch+AND|400|text/html; charset=utf-8" \
              "q=compile&sort=sideways|400|text/html; charset=utf-8" \
              "$post&q=checkpoint|200|text/html; charset=utf-8" \
              "$post&version=1|200|text/html; charset=utf-8" \
              "$post&diff=1-2|200|text/html; charset=utf-8" \
              "post=no-such-post|404|text/html; charset=utf-8" \
              "$post&version=9|400|text/html; charset=utf-8" \
              "$post&diff=1-9|400|text/html; charset=utf-8"; do
    IFS='|' read -r qs want_status want_type <<<"$spec"
    h=$work/$mode.h
    curl -sS -D "$h" -o "$work/$mode.body" "$base_url?$qs" || { fail "$mode: curl $qs"; continue; }
    grep -q "^HTTP/1.1 $want_status " "$h" || fail "$mode $qs: $(head -1 "$h")"
    grep -qi "^Content-Type: $want_type"$'\r$' "$h" || fail "$mode $qs: $(grep -i '^Content-Type' "$h")"
    grep -qi "^Content-Security-Policy: default-src 'none'; style-src 'self';" "$h" || fail "$mode $qs: CSP"
    grep -qi $'^X-Content-Type-Options: nosniff\r$' "$h" || fail "$mode $qs: nosniff"
    grep -qi '^Referrer-Policy: no-referrer' "$h" || fail "$mode $qs: Referrer-Policy"
    case "$want_type" in
      text/html*) $py "$here/pagecheck.py" html "$work/$mode.body" || fail "$mode $qs: HTML" ;;
      application/json) $py -c 'import json,sys; json.load(open(sys.argv[1]))' "$work/$mode.body" || fail "$mode $qs: JSON" ;;
      text/css*)
        grep -q '^:root{' "$work/$mode.body" || fail "$mode $qs: not the style sheet"
        # Without its hash (v) the sheet is kept as long as a page, not for good.
        grep -qi $'^Cache-Control: max-age=60\r$' "$h" || fail "$mode $qs: $(grep -i '^Cache-Control' "$h")" ;;
      *) xmllint --noout --nonet "$work/$mode.body" || fail "$mode $qs: XML not well-formed" ;;
    esac
  done
  [ "$(curl -sS -o /dev/null -w '%{http_code}' -X POST -d q=compile "$base_url")" = 405 ] || fail "$mode: POST not 405"
  [ "$(curl -sS -o /dev/null -w '%{http_code}' -X DELETE "$base_url")" = 405 ] || fail "$mode: DELETE not 405"
  curl -sS -I "$base_url?q=compile" >"$h"
  grep -q '^HTTP/1.1 200' "$h" || fail "$mode: HEAD not 200"

  # The style sheet is a request of its own, linked with its hash: no <style> in pages.
  curl -sS "$base_url?q=compile" >"$work/$mode.page"
  css=$(grep -o '<link rel="stylesheet" href="[^"]*"' "$work/$mode.page" | sed 's/.*href="//; s/"$//; s/&amp;/\&/g')
  { [ -n "$css" ] && ! grep -q '<style' "$work/$mode.page"; } || fail "$mode: the page does not link its style sheet"
  curl -sS -D "$h" "$base_url$css" | grep -q '^footer.site{' || fail "$mode: the linked style sheet '$css'"
  grep -qi $'^Cache-Control: public, max-age=31536000, immutable\r$' "$h" || fail "$mode $css: not kept long"
  curl -sS -D "$h" -o /dev/null "$base_url?format=css&v=abc"
  grep -qi $'^Cache-Control: max-age=60\r$' "$h" || fail "$mode: a wrong hash is kept: $(grep -i '^Cache-Control' "$h")"

  # JSON is the CLI's model: the same object but for the time taken and
  # the snapshots' paths on the server, which the web leaves out.
  curl -sS "$base_url?q=compile&n=5&format=json&history=1" >"$work/$mode.cgi.json"
  "$BLOGSEARCH" --db "$db" --format json --limit 5 --facets category,author,feed,month --facet-limit 24 --history \
    compile >"$work/$mode.cli.json"
  $py - "$work/$mode.cgi.json" "$work/$mode.cli.json" <<'PY' || fail "$mode: JSON differs from the CLI's"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    d.pop("elapsed_ms")
if "/archive/" in json.dumps(a) or any("snapshot" in r for r in a["results"]) or \
        any("snapshot" in v for r in a["results"] for v in r["history"]):
    print("the web's JSON shows a snapshot path")
    sys.exit(1)
for r in b["results"]:
    r.pop("snapshot")
    for v in r["history"]:
        v.pop("snapshot")
if a != b:
    print("keys differing:", [k for k in a if a.get(k) != b.get(k)])
    sys.exit(1)
PY

  # Atom: newest first, entries with ids, titles, updated times and archived copies.
  curl -sS "$base_url?q=torch&format=atom" >"$work/$mode.atom"
  $py - "$work/$mode.atom" <<'PY' || fail "$mode: Atom feed content"
import sys, xml.etree.ElementTree as ET
ns = {"a": "http://www.w3.org/2005/Atom"}
feed = ET.parse(sys.argv[1]).getroot()
entries = feed.findall("a:entry", ns)
assert entries, "no entries"
for e in entries:
    for field in ("a:id", "a:title", "a:updated"):
        assert e.find(field, ns) is not None and e.find(field, ns).text, field + " missing"
dates = [e.find("a:published", ns).text for e in entries if e.find("a:published", ns) is not None]
assert dates == sorted(dates, reverse=True), "not newest first: %s" % dates
assert feed.find("a:link[@rel='self']", ns).get("href").startswith("http://127.0.0.1:")
# Each entry links its archived copy, the post page, which answers.
import urllib.request
for e in entries:
    link = e.find("a:link[@rel='related']", ns)
    assert link is not None, "no archived copy link"
    with urllib.request.urlopen(link.get("href"), timeout=10) as r:
        assert r.status == 200 and "– archived copy –" in r.read().decode(), link.get("href")
PY

  # Paging: 8 pytorch posts, 2 a page; follow next, then prev.
  curl -sS "$base_url?feed=pytorch&n=2" >"$work/$mode.p1"
  grep -q 'Results 1–2 of 8' "$work/$mode.p1" || fail "$mode: page 1 count"
  local next prev
  next=$($py "$here/pagecheck.py" link "$work/$mode.p1" next) || fail "$mode: no next link"
  curl -sS "$base_url$next" >"$work/$mode.p2"
  grep -q 'Results 3–4 of 8' "$work/$mode.p2" || fail "$mode: next link ($next) is not page 2"
  prev=$($py "$here/pagecheck.py" link "$work/$mode.p2" prev) || fail "$mode: no prev link"
  curl -sS "$base_url$prev" >"$work/$mode.p3"
  grep -q 'Results 1–2 of 8' "$work/$mode.p3" || fail "$mode: prev link ($prev) is not page 1"

  # Facets refine: every result of a category link carries that category;
  # a histogram bar narrows to its month.
  curl -sS "$base_url?q=torch" >"$work/$mode.f"
  local facet bar
  facet=$($py "$here/pagecheck.py" link "$work/$mode.f" facet:category) || fail "$mode: no category facet link"
  curl -sS "$base_url$facet&format=json" >"$work/$mode.fj"
  $py - "$work/$mode.fj" "$facet" <<'PY' || fail "$mode: category facet link $facet does not refine"
import json, sys, urllib.parse
data = json.load(open(sys.argv[1]))
cat = urllib.parse.parse_qs(sys.argv[2].lstrip("?"))["category"][-1]
assert data["results"], "no results"
for r in data["results"]:
    assert cat in [c.lower() for c in r["categories"]], (cat, r["categories"])
assert data["total"]["estimated"] < 14
PY
  bar=$($py "$here/pagecheck.py" link "$work/$mode.f" bar) || fail "$mode: no histogram bar link"
  curl -sS "$base_url$bar&format=json" >"$work/$mode.bj"
  $py - "$work/$mode.bj" "$bar" <<'PY' || fail "$mode: histogram link $bar does not narrow to its month"
import json, sys, urllib.parse
data = json.load(open(sys.argv[1]))
month = urllib.parse.parse_qs(sys.argv[2].lstrip("?"))["since"][0]
assert data["results"], "no results"
for r in data["results"]:
    assert (r["published"] or r["first_seen"]).startswith(month), (month, r["published"])
PY

  # Did you mean: when the model has a suggestion, the page links it.
  curl -sS "$base_url?q=compilaton&format=json" >"$work/$mode.sj"
  if $py -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["suggestion"] else 1)' "$work/$mode.sj"; then
    curl -sS "$base_url?q=compilaton" >"$work/$mode.s"
    $py "$here/pagecheck.py" link "$work/$mode.s" suggest >/dev/null || fail "$mode: suggestion not linked"
  else
    fail "$mode: no spelling suggestion for 'compilaton'"
  fi
}

# rebuild_under_load MODE: three rebuilds while requests run; none may fail.
rebuild_under_load() {
  local mode=$1 i
  local stop=$work/$mode.stop
  $py "$here/load.py" "$base_url" --stop-file "$stop" --threads 3 --max-seconds 180 >"$work/$mode.load" 2>&1 &
  local load_pid=$!
  sleep 1
  for i in 1 2 3; do
    "$BLOGSEARCH_INDEX" rebuild -q --db "$db" --archive "$SOURCE_DIR/data" >"$work/rebuild.log" 2>&1 ||
      { fail "$mode: rebuild $i failed"; cat "$work/rebuild.log"; }
    sleep 0.5
  done
  touch "$stop"
  wait "$load_pid" || { fail "$mode: requests failed during rebuilds"; cat "$work/$mode.load"; }
  cat "$work/$mode.load"
  [ "$(ls -d "$db"/gen-* | wc -l)" = 1 ] || fail "$mode: old generations left behind"
}

start_server cgi "$db" "$work/serve-cgi.log" || exit 1
before=$failures
check_http cgi
[ "$failures" = "$before" ] && ok "lighttpd CGI: statuses, headers, formats, JSON = CLI model, Atom, paging, facets, suggestion, post pages"
$py "$here/hostile.py" "$base_url" || fail "hostile input (through lighttpd)"
$py "$here/hostile.py" --direct "$BLOGSEARCH_CGI" "$db" || fail "hostile input (CGI run directly)"
rebuild_under_load cgi
stop_server

# FastCGI without its answer cache first, so that every request of the
# load searches while the rebuilds switch generations; then with it. A
# request waits for its process as long as it takes (--wait 10000): under
# the sanitizers opening the new generation can take more than the default
# 200 ms, and the busy answer it would get instead is cgi_busy.sh's subject.
start_server fastcgi "$db" "$work/serve-fcgi0.log" --cache 0 --wait 10000 || exit 1
rebuild_under_load fastcgi-uncached
stop_server
start_server fastcgi "$db" "$work/serve-fcgi.log" --wait 10000 || exit 1
before=$failures
check_http fastcgi
[ "$failures" = "$before" ] && ok "lighttpd FastCGI: the same checks"
rebuild_under_load fastcgi

# FastCGI keeps its database (and cached answers): a rebuild to fewer posts
# and then a commit of more must both show without a restart.
count() { curl -sS "$base_url?format=json" | $py -c 'import json,sys; print(json.load(sys.stdin)["total"]["estimated"])'; }
[ "$(count)" = 14 ] || fail "fastcgi: expected 14 posts"
mkdir -p "$work/subset"
cp -r "$SOURCE_DIR/data/pytorch" "$work/subset/"
"$BLOGSEARCH_INDEX" rebuild -q --db "$db" --archive "$work/subset" >/dev/null 2>&1 || fail "rebuild from subset"
[ "$(count)" = 8 ] || fail "fastcgi: after a rebuild to the pytorch feed, $(count) posts instead of 8"
"$BLOGSEARCH_INDEX" add --db "$db" "$SOURCE_DIR/data" >/dev/null 2>&1 || fail "add data/"
[ "$(count)" = 14 ] || fail "fastcgi: after adding data/ again, $(count) posts instead of 14"
stop_server

if [ "$failures" -ne 0 ]; then
  echo "cgi e2e: $failures failures"
  exit 1
fi
echo "cgi e2e: all checks passed"
