#!/usr/bin/env bash
# Hostile feeds through `blogsearch-index add` (the parser's own unit tests
# in tests/feed_parser_test.cc cover entity blowups, nesting, NUL bytes and
# truncation at the parse level; this checks the whole path into the index):
#   - external entities, parameter entities and XInclude pointing at a local
#     file and at a URL served on 127.0.0.1: nothing of the file reaches the
#     index or `parse` output, and no request reaches the server;
#   - 100,000 items in one feed: the first 10,000 (--max-items) indexed with
#     a warning, in memory that does not grow with the rest; with
#     --max-items 100000 all of them, in bounded time;
#   - a file over --max-body (32 MiB): one error naming it, nothing lost;
#   - one 100 MB text node (--max-body raised): indexed (truncated, with a
#     warning) with peak RSS bounded (/usr/bin/time -f %M);
#   - NUL bytes, invalid UTF-8 in element names and in CDATA, and one
#     document mixing UTF-8 and Windows-1252: warnings, no errors, and the
#     words are searchable as proper UTF-8;
# and throughout, the posts indexed before (data/) are all still there.
set -euo pipefail
state=(/usr/bin/python3 "$SOURCE_DIR/tests/e2e/db_state.py")
tmp=$(mktemp -d)
server=""
cleanup() { [ -z "$server" ] || kill "$server" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
[ -x /usr/bin/time ] || { echo "SKIP: /usr/bin/time not installed (package time; run tools/setup)"; exit 77; }
# Sanitizer builds use two to three times the memory and time.
slow=1
# (Read whole before grep: `grep -q` stops early, and with pipefail the
# writer's SIGPIPE would turn a match into a miss.)
linked="$(ldd "$BLOGSEARCH_INDEX" 2>/dev/null || true) $(nm "$BLOGSEARCH_INDEX" 2>/dev/null || true)"
if grep -q 'libasan\|libclang_rt.asan\|__asan_init' <<<"$linked"; then
  slow=3
  # ASan keeps up to 256 MB of freed memory in quarantine by default, which
  # peak RSS counts although the program gave it back: keep it small here.
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16"
  echo "sanitizer build: time and memory bounds x$slow"
fi

db="$tmp/db"
"$BLOGSEARCH_INDEX" add --quiet --db "$db" "$SOURCE_DIR/data" > /dev/null
"${state[@]}" ids "$db" > "$tmp/base.ids"
echo "base: $(wc -l < "$tmp/base.ids") posts from data/"

still_there() {
  "${state[@]}" ids "$db" > "$tmp/now.ids"
  local lost
  lost=$(comm -23 "$tmp/base.ids" "$tmp/now.ids" | wc -l)
  [ "$lost" -eq 0 ] || fail "$1: $lost posts indexed before are gone"
}
# $1 = label, rest = add arguments; stderr in $tmp/err, RSS (KiB) in $tmp/rss.
add() {
  local label=$1; shift
  local status=0
  /usr/bin/time -f %M -o "$tmp/rss" "$BLOGSEARCH_INDEX" add --db "$db" "$@" > "$tmp/out" 2> "$tmp/err" || status=$?
  grep -qi 'AddressSanitizer\|runtime error\|terminate called' "$tmp/err" && { cat "$tmp/err"; fail "$label: crashed"; }
  [ "$status" -eq 0 ] || { cat "$tmp/err"; fail "$label: add exited $status"; }
  grep -q ' 0 errors' "$tmp/out" || { cat "$tmp/out" "$tmp/err"; fail "$label: errors reported"; }
  still_there "$label"
}
search_count() { "$BLOGSEARCH" --db "$db" --count "$@" 2>/dev/null || true; }

# --- external entities: a local file and a URL --------------------------------
marker=zqxleakmarker
printf '%s\n' "$marker secret line" > "$tmp/secret.txt"
printf '<!ENTITY leak "%s-from-dtd">\n' "$marker" > "$tmp/evil.dtd"
cat > "$tmp/server.py" <<'PY'
import http.server, sys
log = open(sys.argv[1], "a", buffering=1)
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        log.write(self.path + "\n")
        body = open(sys.argv[2], "rb").read()
        self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a): pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()
PY
: > "$tmp/requests"
/usr/bin/python3 "$tmp/server.py" "$tmp/requests" "$tmp/evil.dtd" > "$tmp/port" &
server=$!
for _ in $(seq 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
port=$(cat "$tmp/port")
[ -n "$port" ] || fail "the local HTTP server did not start"
url="http://127.0.0.1:$port"
mkdir -p "$tmp/xxe"
n=0
for decl in "<!ENTITY x SYSTEM \"file://$tmp/secret.txt\">" \
            "<!ENTITY x SYSTEM \"$tmp/secret.txt\">" \
            "<!ENTITY x SYSTEM \"$url/entity\">" \
            "<!ENTITY % p SYSTEM \"file://$tmp/evil.dtd\"> %p; <!ENTITY x \"&leak;\">" \
            "<!ENTITY % p SYSTEM \"$url/param.dtd\"> %p; <!ENTITY x \"&leak;\">"; do
  n=$((n + 1))
  cat > "$tmp/xxe/xxe$n.xml" <<XML
<?xml version="1.0"?>
<!DOCTYPE rss [ $decl ]>
<rss version="2.0"><channel><title>xxe $n &x;</title><link>http://xxe.example/</link>
<item><guid>xxe-$n</guid><title>external entity $n &x;</title><description>before &x; after xxeprobe$n</description></item>
</channel></rss>
XML
done
cat > "$tmp/xxe/xxe-doctype-system.xml" <<XML
<?xml version="1.0"?>
<!DOCTYPE rss SYSTEM "$url/external-subset.dtd">
<rss version="2.0"><channel><title>dtd</title><item><guid>xxe-dtd</guid><title>&leak; xxeprobedtd</title></item></channel></rss>
XML
cat > "$tmp/xxe/xinclude.xml" <<XML
<?xml version="1.0"?>
<rss version="2.0" xmlns:xi="http://www.w3.org/2001/XInclude"><channel><title>xi</title>
<item><guid>xxe-xi</guid><title>xinclude xxeprobexi</title><description><xi:include href="file://$tmp/secret.txt" parse="text"/><xi:include href="$url/xi" parse="text"/></description></item>
</channel></rss>
XML
for f in "$tmp"/xxe/*.xml; do
  "$BLOGSEARCH_INDEX" parse "$f" > "$tmp/parse.out" 2>&1 || true
  ! grep -q "$marker" "$tmp/parse.out" || fail "parse $(basename "$f"): the local file's content leaked: $(grep -o ".\{0,40\}$marker.\{0,20\}" "$tmp/parse.out" | head -1)"
done
add "external entities" --feed xxe "$tmp/xxe"
if ! "${state[@]}" grep "$db" "$marker" > "$tmp/leaks"; then cat "$tmp/leaks"; fail "external entity content reached the index"; fi
[ ! -s "$tmp/requests" ] || fail "the parser fetched URLs: $(tr '\n' ' ' < "$tmp/requests")"
found=$(search_count xxeprobe1 OR xxeprobe2 OR xxeprobe3 OR xxeprobe4 OR xxeprobe5 OR xxeprobedtd OR xxeprobexi)
[ "${found:-0}" -eq 7 ] || fail "the posts around the external entities were not all indexed (found ${found:-0} of 7)"
echo "external entities (file, URL, parameter, DOCTYPE SYSTEM, XInclude): nothing leaked, no request made, 7 posts indexed"

# --- 100,000 items ------------------------------------------------------------
mkdir -p "$tmp/many"
/usr/bin/python3 - "$tmp/many/many.xml" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write('<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0"><channel><title>many</title><link>http://many.example/</link>\n')
    for i in range(100000):
        f.write(f'<item><guid>many-{i}</guid><title>item {i} manyitems</title><link>http://many.example/{i}</link>'
                f'<pubDate>Tue, 01 Sep 2026 08:00:00 GMT</pubDate><description>&lt;p&gt;body {i} word{i % 1000}&lt;/p&gt;</description></item>\n')
    f.write('</channel></rss>\n')
PY
add "100,000 items, default bound" --feed many "$tmp/many"
grep -q 'many.xml: 100,000 items; only the first 10,000 read' "$tmp/err" ||
  { cat "$tmp/err"; fail "100,000 items: no warning naming the file and the bound"; }
count=$(search_count manyitems)
[ "${count:-0}" -eq 10000 ] || fail "100,000 items, default bound: ${count:-0} indexed, expected 10000"
rss=$(( $(cat "$tmp/rss") / 1024 ))
limit=$(( 200 * slow ))
[ "$rss" -le "$limit" ] || fail "100,000 items, default bound: peak RSS ${rss} MiB > ${limit} MiB"
echo "100,000 items: the first 10,000 indexed with a warning, peak RSS ${rss} MiB (bound ${limit})"
echo '<!-- the same feed again, as another snapshot -->' >> "$tmp/many/many.xml"
start=$(date +%s)
add "100,000 items" --feed many --max-items 100000 "$tmp/many"
secs=$(( $(date +%s) - start ))
count=$(search_count manyitems)
[ "${count:-0}" -eq 100000 ] || fail "100,000 items, --max-items 100000: ${count:-0} indexed"
[ "$secs" -le $(( 120 * slow )) ] || fail "100,000 items took ${secs}s"
# The writer holds one feed's posts in memory until it commits them (about
# 480 MiB for these 100,000 items, 22 MB of XML); the bound catches a blowup
# beyond that linear cost.
rss=$(( $(cat "$tmp/rss") / 1024 ))
limit=$(( 768 * slow ))
[ "$rss" -le "$limit" ] || fail "100,000 items: peak RSS ${rss} MiB > ${limit} MiB"
echo "100,000 items: all indexed in ${secs}s, peak RSS ${rss} MiB (bound ${limit})"

# --- one 100 MB text node -------------------------------------------------------
# Over --max-body: skipped with one error line naming the file (exit 3:
# the rest of the run was indexed), nothing read into memory.
mkdir -p "$tmp/big"
head -c $((40 << 20)) /dev/zero | tr '\0' ' ' > "$tmp/big/big.xml"
printf '<rss version="2.0"><channel><title>small</title><item><guid>small-1</guid><title>besidebig</title></item></channel></rss>' > "$tmp/big/small.xml"
status=0
/usr/bin/time -f %M -o "$tmp/rss" "$BLOGSEARCH_INDEX" add --quiet --db "$db" --feed big "$tmp/big" > "$tmp/out" 2> "$tmp/err" || status=$?
[ "$status" -eq 3 ] || { cat "$tmp/err"; fail "a file over --max-body: add exited $status, expected 3"; }
grep -q 'big.xml: larger than the snapshot limit of 33554432 bytes' "$tmp/err" ||
  { cat "$tmp/err"; fail "a file over --max-body: no error naming it"; }
rss=$(( $(tail -1 "$tmp/rss") / 1024 ))  # GNU time puts "Command exited with ..." first
[ "$rss" -le $(( 40 * slow )) ] || fail "a file over --max-body was read into memory (peak RSS ${rss} MiB)"
still_there "a file over --max-body"
[ "$(search_count besidebig)" = 1 ] || fail "the feed beside the file over --max-body was not indexed"
echo "a 40 MiB file over --max-body: one error naming it, peak RSS ${rss} MiB"
rm -rf "$tmp/big"

mkdir -p "$tmp/huge"
{
  printf '<rss version="2.0"><channel><title>huge</title><item><guid>huge-1</guid><title>hugenode</title><description>'
  head -c $((100 << 20)) /dev/zero | tr '\0' 'a'
  printf '</description></item><item><guid>huge-2</guid><title>afterhuge</title></item></channel></rss>'
} > "$tmp/huge/huge.xml"
start=$(date +%s)
add "100 MB text node" --feed huge --max-body $((200 << 20)) "$tmp/huge"
secs=$(( $(date +%s) - start ))
rss=$(( $(cat "$tmp/rss") / 1024 ))
grep -q 'truncated' "$tmp/err" || { cat "$tmp/err"; fail "100 MB text node: no truncation warning"; }
[ "$(search_count hugenode OR afterhuge)" = 2 ] || fail "100 MB text node: the two posts were not both indexed"
limit=$(( 600 * slow ))
[ "$rss" -le "$limit" ] || fail "100 MB text node: peak RSS ${rss} MiB > ${limit} MiB"
[ "$secs" -le $(( 60 * slow )) ] || fail "100 MB text node took ${secs}s"
echo "100 MB text node: indexed with a truncation warning in ${secs}s, peak RSS ${rss} MiB (bound ${limit})"
rm -rf "$tmp/huge" "$tmp/many"

# --- NUL bytes, invalid UTF-8 in names and CDATA, mixed encodings --------------
mkdir -p "$tmp/bytes"
printf '<rss version="2.0"><channel><title>nul</title><item><guid>nul-1</guid><title>nul\0probe</title><description>before\0\0after nulbody</description></item></channel></rss>' > "$tmp/bytes/nul.xml"
# A bad byte inside a name is read as Windows-1252 (a valid name); a
# sequence that decodes to a character no name may hold is malformed XML:
# libxml2 recovers what comes before it, with a warning naming file and line.
printf '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>names</title><item><guid>names-1</guid><title>nameprobe</title><ti\xfftle>x</ti\xfftle></item><item><guid>names-2</guid><title>nameprobetwo</title></item></channel></rss>' > "$tmp/bytes/names.xml"
printf '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>names</title><item><guid>names-3</guid><title>brokennameprobe</title><\xc3\x28bad attr\xff="1">y</\xc3\x28bad></item></channel></rss>' > "$tmp/bytes/names-broken.xml"
printf '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>cdata</title><item><guid>cdata-1</guid><title>cdataprobe</title><description><![CDATA[<p>bad \xff\xfe bytes \xc3\x28 and \xed\xa0\x80 surrogate</p>]]></description></item></channel></rss>' > "$tmp/bytes/cdata.xml"
printf '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>mixed</title><item><guid>mixed-1</guid><title>mixedprobe na\xc3\xafve</title><description>caf\xe9 \x93quoted\x94 and \xe2\x82\xac euro</description></item></channel></rss>' > "$tmp/bytes/mixed.xml"
add "hostile bytes" --feed bytes "$tmp/bytes"
grep -q 'names-broken.xml:1: malformed XML' "$tmp/err" || { cat "$tmp/err"; fail "hostile bytes: no warning naming names-broken.xml and its line"; }
for q in nulprobe nulbody nameprobe nameprobetwo brokennameprobe cdataprobe mixedprobe; do
  [ "$(search_count "$q")" = 1 ] || fail "hostile bytes: '$q' not found once"
done
# Both encodings of the mixed document end up as UTF-8 words.
[ "$(search_count 'naïve')" = 1 ] || fail "mixed encodings: the UTF-8 word naïve is not searchable"
[ "$(search_count 'café')" = 1 ] || fail "mixed encodings: the Windows-1252 word café is not searchable"
/usr/bin/python3 - "$db" <<'PY' || fail "hostile bytes: a term or document is not valid UTF-8, or holds a NUL"
import sys, xapian
db = xapian.Database(sys.argv[1])
for t in db.allterms():
    t.term.decode("utf-8")
    assert b"\0" not in t.term, t.term
for item in db.postlist(""):
    data = db.get_document(item.docid).get_value(7)  # kSlotRecord, the post record
    data.decode("utf-8")
    assert b"\\u0000" not in data, data[:80]
PY
echo "NUL bytes, bad UTF-8 in names and CDATA, mixed encodings: indexed as valid UTF-8, searchable"
still_there "end"
echo "PASS: hostile feeds indexed safely; all $(wc -l < "$tmp/base.ids") earlier posts still there"
