#!/usr/bin/env bash
# remote_shards: the three shards of a database made with --shards 3, each
# served by xapian-tcpsrv on 127.0.0.1 (through its SHARD-N stub) and
# searched through a stub of `remote :HOST:PORT` lines, answer as the
# database opened locally does (results, feed titles, facets, "did you
# mean"), and as one database of one shard, from the CLI and the CGI; a shard that
# stops answering fails the search with a message naming the remote shards
# (CLI exit 4, CGI 503), never with partial results, and so does a stub
# that lists only some shards of a database; a read replica kept by
# xapian-replicate follows a commit and a rebuild's generation switch, its
# spelling data too (docs/multi-host.md).
set -euo pipefail

for tool in xapian-tcpsrv xapian-replicate xapian-replicate-server; do
  command -v "$tool" >/dev/null || { echo "skipped: $tool is not installed (run tools/setup)"; exit 77; }
done

tmp=$(mktemp -d)
# The scratch databases of this test share one archive on purpose (a
# database refuses the default archive beside it once another one uses it).
export BLOGSEARCH_ARCHIVE="$tmp/archive"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -CONT "$p" 2>/dev/null || true; kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
reported=0
pass() {
  if [ "$failures" -eq "$reported" ]; then echo "ok: $*"; else echo "not ok: $*"; fi
  reported=$failures
}

# Free ports, as the kernel hands them out (then released for the servers).
read -r -a ports < <(/usr/bin/python3 -c '
import socket
socks = [socket.socket() for _ in range(6)]
for s in socks: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))')

# Changesets let a replica follow a commit without copying the whole database.
export XAPIAN_MAX_CHANGESETS=10

# data/ in a database of three shards (its snapshots copied into an archive
# of their own, to rebuild from), and in one of one shard for reference.
mkdir -p "$tmp/archive"
cp -r "$SOURCE_DIR"/data/*/ "$tmp/archive/"
"$BLOGSEARCH_INDEX" add --quiet --shards 3 --db "$tmp/db" "$tmp/archive"
"$BLOGSEARCH_INDEX" add --quiet --shards 1 --db "$tmp/single" "$SOURCE_DIR/data"
[ "$(grep -c "^auto gen-.*/shard-[0-2]\$" "$tmp/db/XAPIANDB")" -eq 3 ] || fail "--shards 3 made: $(cat "$tmp/db/XAPIANDB")"
for i in 0 1 2; do
  n=$(/usr/bin/python3 -c 'import sys, xapian; print(xapian.Database(sys.argv[1]).get_doccount())' "$tmp/db/SHARD-$i")
  [ "$n" -gt 0 ] || fail "shard $i holds no posts"
done

serve() {  # serve PORT DB: a xapian-tcpsrv in the background, ready when this returns
  # Its own session: on SIGTERM xapian-tcpsrv signals its whole process group.
  # (It reports each connection a search closes on stderr: kept in a log.)
  setsid xapian-tcpsrv --interface 127.0.0.1 --port "$1" --quiet "$2" >>"$tmp/tcpsrv.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do
    /usr/bin/python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1).close()' "$1" \
      2>/dev/null && return 0
    sleep 0.1
  done
  fail "xapian-tcpsrv on port $1 did not start"
}
for i in 0 1 2; do serve "${ports[$i]}" "$tmp/db/SHARD-$i"; done
tcpsrv_pids=("${pids[@]}")

# The database itself, and its three shards through a remote stub whose
# spelling data is the database's SPELLINGDB (one for all its shards).
local_db="$tmp/db"
mkdir -p "$tmp/remote"
{ echo '# three shards'; printf 'remote :127.0.0.1:%s\n' "${ports[0]}" "${ports[1]}" "${ports[2]}"; } >"$tmp/remote/XAPIANDB"
printf 'auto %s/db/SPELLINGDB\n' "$tmp" >"$tmp/remote/spelling"
[ "$(grep -c '^remote ' "$tmp/remote/XAPIANDB")" -eq 3 ] || fail "the remote stub lists $(cat "$tmp/remote/XAPIANDB")"

# JSON answers without the time taken.
answer() {  # answer DB ARGS... > JSON
  local db=$1; shift
  local rc=0
  "$BLOGSEARCH" --db "$db" --format json "$@" >"$tmp/answer.json" 2>"$tmp/answer.err" || rc=$?
  [ "$rc" -le 1 ] || { fail "blogsearch --db $db $* exited $rc: $(cat "$tmp/answer.err")"; echo '{}'; return; }
  # Without facets the total is an estimate (not every match is counted),
  # which depends on how the shards are read; with facets it is counted.
  /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d.pop("elapsed_ms", None)
if not d.get("facets"): d["total"] = "not counted"
print(json.dumps(d, sort_keys=True))' \
    "$tmp/answer.json"
}
# What must not depend on how the posts are spread over databases: the ids
# found (as a set: equal weights may tie in another order), the total, the
# facets and the suggestion. A label written in two ways ("Debugging",
# "debugging") is shown as the first post by document id wrote it, and the
# ids differ between one database and several (docs/multi-host.md): labels
# are compared without case.
essence() {
  /usr/bin/python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
facets = {name: [dict(v, label=v["label"].lower()) for v in values] for name, values in d.get("facets", {}).items()}
print(json.dumps({"ids": sorted(h["id"] for h in d.get("results", [])),
                  "total": d.get("total"), "facets": facets, "suggestion": d.get("suggestion")},
                 sort_keys=True))'
}

queries=(
  "pytorch"
  "the"
  '"deep learning"'
  "model feed:tensor-notes"
  "kernel OR compiler"
  "category:release"
  "date:2026-09..2026-10 training"
  "http://www.pytorch.org/blog/inside-flexattention-writing-custom-attention-variants"
)
for q in "${queries[@]}"; do
  for opts in "--facets category,author,feed,month --limit 20" "--sort date --limit 5" "--sort date --reverse --limit 5 --offset 2"; do
    # shellcheck disable=SC2086
    local_json=$(answer "$local_db" $opts -- "$q")
    # shellcheck disable=SC2086
    remote_json=$(answer "$tmp/remote" $opts -- "$q")
    # shellcheck disable=SC2086
    single_json=$(answer "$tmp/single" $opts -- "$q")
    [ "$local_json" = "$remote_json" ] || fail "'$q' $opts: remote shards answer otherwise than the same shards opened locally:
$(diff <(/usr/bin/python3 -m json.tool <<<"$local_json") <(/usr/bin/python3 -m json.tool <<<"$remote_json") | head -8)"
    if [ "$opts" = "--facets category,author,feed,month --limit 20" ]; then
      [ "$(essence <<<"$remote_json")" = "$(essence <<<"$single_json")" ] ||
        fail "'$q': remote shards find other posts or facets than one database of the same posts:
  remote: $(essence <<<"$remote_json")
  single: $(essence <<<"$single_json")"
    fi
  done
done
# A pasted link finds its post over remote shards too (through its
# host's posts: the link as written differs from the stored one).
json=$(answer "$tmp/remote" -- "http://www.pytorch.org/blog/inside-flexattention-writing-custom-attention-variants")
/usr/bin/python3 -c 'import json, sys; d = json.loads(sys.argv[1]); assert [h["link"] for h in d["results"]] == ["https://pytorch.org/blog/inside-flexattention-writing-custom-attention-variants/"], d["results"]' "$json" ||
  fail "a pasted link over remote shards did not find its one post"
# The checks above must have had something to compare.
json=$(answer "$tmp/remote" --facets feed,category -- the)
/usr/bin/python3 - "$json" <<'PY' || fail "the remote answer for 'the' lacks hits, feed titles or categories"
import json, sys
d = json.loads(sys.argv[1])
hits = d["results"]
facets = d["facets"]
assert len(hits) > 0
# Feed titles come from each shard's metadata (a combined database reads
# only the first shard's): all three feeds are named, not just listed by id.
labels = {v["value"]: v["label"] for v in facets["feed"]}
assert len(labels) >= 2, labels
assert all(labels[k] != k for k in labels), labels
assert len(facets["category"]) > 0
PY
pass "three remote shards answer as the same shards opened locally, and as one database of the same posts"

# One remote shard alone (a database of one shard, as tools/serve-shards
# serves it): its facets too, from the CLI and the page.
serve "${ports[5]}" "$tmp/single/SHARD-0"
mkdir -p "$tmp/one"
printf 'remote :127.0.0.1:%s\n' "${ports[5]}" >"$tmp/one/XAPIANDB"
for q in the pytorch '"deep learning"'; do
  one_json=$(answer "$tmp/one" --facets category,author,feed,month --limit 20 -- "$q")
  single_json=$(answer "$tmp/single" --facets category,author,feed,month --limit 20 -- "$q")
  [ "$(essence <<<"$one_json")" = "$(essence <<<"$single_json")" ] ||
    fail "'$q': one remote shard finds other posts or facets than the database opened locally:
  remote: $(essence <<<"$one_json")
  local:  $(essence <<<"$single_json")"
done
env -i PATH=/usr/bin:/bin BLOGSEARCH_DB="$tmp/one" REQUEST_METHOD=GET QUERY_STRING="q=the" "$BLOGSEARCH_CGI" >"$tmp/cgi.one"
head -1 "$tmp/cgi.one" | grep -q '^Status: 200' || fail "the page over one remote shard: $(head -1 "$tmp/cgi.one")"
grep -q 'id="h-category"' "$tmp/cgi.one" || fail "the page over one remote shard shows no facets"
pass "one remote shard alone answers with facets, as the database opened locally"

# tools/serve-shards, as docs/multi-host.md tries it on one machine: a
# server per SHARD-N of the database, and the front it writes.
base=$(/usr/bin/python3 -c '
import random, socket
for _ in range(200):
    base = random.randrange(20000, 60000)
    socks = []
    try:
        for p in range(base, base + 3):
            s = socket.socket(); s.bind(("127.0.0.1", p)); socks.append(s)
        print(base); break
    except OSError:
        pass
    finally:
        for s in socks: s.close()')
setsid "$SOURCE_DIR/tools/serve-shards" --port "$base" --stub "$tmp/tried" \
  "$tmp/db/SHARD-0" "$tmp/db/SHARD-1" "$tmp/db/SHARD-2" >"$tmp/serve-shards.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do grep -q 'stub in' "$tmp/serve-shards.log" && break; sleep 0.1; done
[ "$(grep -c '^remote ' "$tmp/tried/XAPIANDB" 2>/dev/null)" = 3 ] ||
  fail "tools/serve-shards of three SHARD-N wrote no front of three: $(cat "$tmp/serve-shards.log")"
[ "$(cat "$tmp/tried/spelling" 2>/dev/null)" = "auto $tmp/db/SPELLINGDB" ] ||
  fail "tools/serve-shards: the front's spelling stub is not the database's SPELLINGDB once"
[ "$(answer "$tmp/tried" --facets category,feed -- pytorch)" = "$(answer "$local_db" --facets category,feed -- pytorch)" ] ||
  fail "the front of tools/serve-shards answers otherwise than the database"
kill -- -"${pids[-1]}" 2>/dev/null || kill "${pids[-1]}" 2>/dev/null || true
pass "tools/serve-shards serves a database shard by shard (DB/SHARD-N), with one spelling stub"

# A stub that lists two of the three shards (as a front left behind by a
# rebuild with more shards) is refused, never searched as if whole.
mkdir -p "$tmp/partial"
printf 'remote :127.0.0.1:%s\n' "${ports[0]}" "${ports[1]}" >"$tmp/partial/XAPIANDB"
rc=0
"$BLOGSEARCH" --db "$tmp/partial" the >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" -eq 4 ] && grep -q 'but not its shard 2 (numbered from 0)' "$tmp/err" ||
  fail "a stub missing shard 2: exit $rc, $(cat "$tmp/err")"
env -i PATH=/usr/bin:/bin BLOGSEARCH_DB="$tmp/partial" REQUEST_METHOD=GET QUERY_STRING="q=the" "$BLOGSEARCH_CGI" >"$tmp/cgi.partial"
head -1 "$tmp/cgi.partial" | grep -q '^Status: 503' || fail "the page over a stub missing a shard: $(head -1 "$tmp/cgi.partial")"
pass "a stub that lists only some shards of a database is refused"

# "Did you mean": a misspelt word with a known correction; the correction
# must come through the remote stub's spelling stub, and agree with local.
for typo in pytroch kernal compiller; do
  s_single=$(answer "$tmp/single" -- "$typo" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin).get("suggestion"))')
  s_remote=$(answer "$tmp/remote" -- "$typo" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin).get("suggestion"))')
  [ "$s_remote" = "$s_single" ] || fail "'$typo': remote suggests '$s_remote', one database '$s_single'"
  [ "$typo" != pytroch ] || [ "$s_remote" = pytorch ] || fail "'pytroch': remote suggests '$s_remote', not 'pytorch'"
done
# Without the spelling stub, remote shards have no spelling data at all.
mv "$tmp/remote/spelling" "$tmp/spelling.off"
s=$(answer "$tmp/remote" -- pytroch | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin).get("suggestion"))')
[ "$s" = None ] || fail "without spelling data the remote stub still suggests '$s'"
mv "$tmp/spelling.off" "$tmp/remote/spelling"
pass "did you mean over remote shards comes from their spelling stub"

# The CGI: the same page from the remote stub as from the local one.
cgi() {  # cgi DB QUERY_STRING > response
  env -i PATH=/usr/bin:/bin BLOGSEARCH_DB="$1" REQUEST_METHOD=GET QUERY_STRING="$2" "$BLOGSEARCH_CGI"
}
for qs in "q=pytorch" "q=pytroch" "q=the&format=json" "q=model&category=release"; do
  cgi "$local_db" "$qs" | sed -E 's/[0-9]+(\.[0-9]+)? ?ms//g; /elapsed_ms/d; /^Content-Length:/d' >"$tmp/cgi.local"
  cgi "$tmp/remote" "$qs" | sed -E 's/[0-9]+(\.[0-9]+)? ?ms//g; /elapsed_ms/d; /^Content-Length:/d' >"$tmp/cgi.remote"
  head -1 "$tmp/cgi.remote" | grep -q '^Status: 200' || fail "CGI '$qs' over remote shards: $(head -1 "$tmp/cgi.remote")"
  cmp -s "$tmp/cgi.local" "$tmp/cgi.remote" ||
    fail "CGI '$qs': the page over remote shards differs: $(diff "$tmp/cgi.local" "$tmp/cgi.remote" | head -5)"
done
# Into a file, then grep: under pipefail, grep -q leaving at the first
# match would kill the CGI with SIGPIPE while it still writes the page.
cgi "$tmp/remote" "q=pytroch" >"$tmp/cgi.spelling"
grep -q 'Did you mean <a [^>]*>pytorch</a>' "$tmp/cgi.spelling" ||
  fail "the CGI over remote shards offers no correction for 'pytroch'"
pass "the CGI over remote shards shows the same pages"

# --sort recent needs blogsearch's own posting source, which xapian-tcpsrv
# cannot run: refused with a usage error, not a Xapian message.
rc=0
"$BLOGSEARCH" --db "$tmp/remote" --sort recent pytorch >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'not available over remote shards' "$tmp/err" ||
  fail "--sort recent over remote shards: exit $rc, $(cat "$tmp/err")"
# The page shows the best matches instead, and says so.
cgi "$tmp/remote" "q=pytorch&sort=recent" >"$tmp/cgi.recent"
head -1 "$tmp/cgi.recent" | grep -q '^Status: 200' || fail "the page with sort=recent over remote shards: $(head -1 "$tmp/cgi.recent")"
grep -q 'Recent first is not available on this site' "$tmp/cgi.recent" || fail "the page with sort=recent does not say it is not available"
grep -q '<option value="relevance" selected>' "$tmp/cgi.recent" || fail "the page with sort=recent does not show the order it used"
grep -q -- '--sort\|xapian-tcpsrv' "$tmp/cgi.recent" && fail "the page with sort=recent shows the CLI's wording"
pass "--sort recent over remote shards is refused clearly; the page falls back to the best matches"

# A shard that stops answering (SIGSTOP: connections are accepted by the
# kernel, never answered): the search fails after the time limit, naming the
# remote shards; CLI exit 4, CGI 503. Never results from two shards of three.
kill -STOP "${tcpsrv_pids[1]}"
start=$(date +%s)
rc=0
"$BLOGSEARCH" --db "$tmp/remote" pytorch >"$tmp/out" 2>"$tmp/err" || rc=$?
took=$(( $(date +%s) - start ))
[ "$rc" -eq 4 ] || fail "a stopped shard: exit $rc (expected 4): $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "a stopped shard: partial results printed: $(head -3 "$tmp/out")"
grep -q "127.0.0.1:${ports[1]}" "$tmp/err" || fail "a stopped shard: the message does not name it: $(cat "$tmp/err")"
[ "$took" -le 15 ] || fail "a stopped shard: the search took ${took}s (limit 5 s per message)"
start=$(date +%s)
cgi "$tmp/remote" "q=pytorch" >"$tmp/page"
took=$(( $(date +%s) - start ))
head -1 "$tmp/page" | grep -q '^Status: 503' || fail "a stopped shard: the CGI answers $(head -1 "$tmp/page")"
# One attempt, as the CLI: opening the stub again would wait as long again.
[ "$took" -le 15 ] || fail "a stopped shard: the CGI answered after ${took}s (limit 5 s per message)"
kill -CONT "${tcpsrv_pids[1]}"
# A shard that is gone (connection refused) fails at once, named.
kill "${tcpsrv_pids[2]}"
wait "${tcpsrv_pids[2]}" 2>/dev/null || true
rc=0
"$BLOGSEARCH" --db "$tmp/remote" pytorch >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 4 ] && grep -q "127.0.0.1:${ports[2]}" "$tmp/err" ||
  fail "a shard that is gone: exit $rc, $(cat "$tmp/err")"
cgi "$tmp/remote" "q=pytorch" >"$tmp/page"
head -1 "$tmp/page" | grep -q '^Status: 503' || fail "a shard that is gone: the CGI answers $(head -1 "$tmp/page")"
cgi "$tmp/remote" "q=pytorch&format=json" >"$tmp/page.json"
head -1 "$tmp/page.json" | grep -q '^Status: 503' && grep -q '^Retry-After: 30' "$tmp/page.json" ||
  fail "a shard that is gone: the JSON answer lacks 503 or Retry-After: $(head -3 "$tmp/page.json")"
serve "${ports[2]}" "$tmp/db/SHARD-2"
tcpsrv_pids[2]=${pids[-1]}
[ "$(answer "$tmp/remote" --facets feed -- pytorch)" = "$(answer "$local_db" --facets feed -- pytorch)" ] ||
  fail "after the shards came back the answers differ"
pass "a shard that stops answering or is gone fails the search, named (exit 4, CGI 503); no partial results"

# Read replicas: xapian-replicate-server on the writer's folder; a replica
# of shard 0 (db/SHARD-0) and of the spelling data, then a tcpsrv on that.
setsid xapian-replicate-server --interface 127.0.0.1 --port "${ports[3]}" "$tmp" >"$tmp/repl-server.log" 2>&1 &
pids+=($!)
sleep 0.5
replicate() {  # one pass of xapian-replicate for shard 0 and the spelling data
  xapian-replicate -h 127.0.0.1 -p "${ports[3]}" -m db/SHARD-0 -o -q -r 0 "$tmp/replica/s0" ||
    fail "xapian-replicate of db/SHARD-0 failed"
  xapian-replicate -h 127.0.0.1 -p "${ports[3]}" -m db/SPELLINGDB -o -q -r 0 "$tmp/replica/spelling" ||
    fail "xapian-replicate of db/SPELLINGDB failed"
}
mkdir -p "$tmp/replica" "$tmp/front"
replicate
serve "${ports[4]}" "$tmp/replica/s0"
printf 'remote :127.0.0.1:%s\n' "${ports[4]}" "${ports[1]}" "${ports[2]}" >"$tmp/front/XAPIANDB"
printf 'auto %s\n' "$tmp/replica/spelling" >"$tmp/front/spelling"
same_as_writer() {  # same_as_writer WHAT: the front (replica of s0) answers as the writer's shards
  for q in pytorch replicatest pytroch "the"; do
    [ "$(answer "$tmp/front" --facets feed,month -- "$q")" = "$(answer "$local_db" --facets feed,month -- "$q")" ] ||
      fail "$1: '$q' through the replica differs from the writer's shards:
$(diff <(answer "$tmp/front" --facets feed,month -- "$q" | /usr/bin/python3 -m json.tool) <(answer "$local_db" --facets feed,month -- "$q" | /usr/bin/python3 -m json.tool) | head -8)"
  done
}
same_as_writer "first copy"
pass "a replica of a shard answers as the shard"

# A commit on the writer: a new snapshot whose one post lives in shard 0 of
# 3 (schema::shard_of("urn:replicatest-1", 3) == 0: were it elsewhere, the
# front would find it before replicating, below).
cat >"$tmp/archive/pytorch/2026-11-01T060000Z.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>PyTorch Blog</title><link>https://pytorch.org/blog/</link>
<item><title>Replication notes</title><link>https://pytorch.org/blog/replicatest/</link>
<guid isPermaLink="false">urn:replicatest-1</guid><pubDate>Sun, 01 Nov 2026 06:00:00 +0000</pubDate>
<description>replicatest: a post added after the first copy of the replica</description></item>
</channel></rss>
XML
"$BLOGSEARCH_INDEX" add --quiet --db "$tmp/db" "$tmp/archive/pytorch"
"$BLOGSEARCH" --db "$local_db" --format ids replicatest >/dev/null || fail "the writer does not find the new post"
rc=0
"$BLOGSEARCH" --db "$tmp/front" --format ids replicatest >/dev/null || rc=$?
[ "$rc" -eq 1 ] || fail "the replica found the new post before replicating (exit $rc)"
replicate
same_as_writer "after a commit"
"$BLOGSEARCH" --db "$tmp/front" --format ids replicatest >/dev/null || fail "the replica lacks the new post after a commit"
pass "the replica follows a commit"

# A rebuild: a new generation behind the writer's stub (a new database, so
# xapian-replicate copies it whole) and a new spelling database.
gen_before=$(cat "$tmp/db/XAPIANDB")
"$BLOGSEARCH_INDEX" rebuild --quiet --db "$tmp/db" --archive "$tmp/archive" >"$tmp/rebuild.log" 2>&1 ||
  fail "rebuild failed: $(tail -3 "$tmp/rebuild.log")"
[ "$(cat "$tmp/db/XAPIANDB")" != "$gen_before" ] || fail "the rebuild did not switch generations"
gen=$(awk 'NR == 1 {print $2}' "$tmp/db/XAPIANDB"); gen=${gen%/shard-0}
grep -qx "auto $gen/spelling" "$tmp/db/SPELLINGDB" && grep -qx "auto $gen/shard-0" "$tmp/db/SHARD-0" ||
  fail "SHARD-0 or SPELLINGDB does not follow the generation switch: $(cat "$tmp/db/SHARD-0" "$tmp/db/SPELLINGDB")"
# The rebuilt shards are served again by their stubs' names.
for i in 1 2; do
  kill "${tcpsrv_pids[$i]}" 2>/dev/null || true
  wait "${tcpsrv_pids[$i]}" 2>/dev/null || true
  serve "${ports[$i]}" "$tmp/db/SHARD-$i"
done
replicate
same_as_writer "after a rebuild"
pass "the replica follows a rebuild's generation switch, spelling data too"

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "all remote shard checks passed"
