#!/usr/bin/env bash
# Behaviour fixed for issue 18: the feed id of `add PATH` does not depend on
# how PATH was typed; --quiet prints warnings and errors only; a corrupt
# database is called damaged, with `rebuild` as the way back, by both
# programs, and rebuild does bring it back; an unknown --feed (category,
# author) says so with the closest ids, on stderr, in JSON and on the page;
# the feed facet shows titles with their ids; config.toml gives db, sort,
# limit, colour and facets, the command line wins, stats says where each
# setting came from, and an unknown key names file, line and key.
set -euo pipefail

tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data"
unset BLOGSEARCH_DB BLOGSEARCH_ARCHIVE BLOGSEARCH_CONFIG
# The scratch databases of this test share one archive on purpose (a
# database refuses the default archive beside it once another one uses it).
export BLOGSEARCH_ARCHIVE="$tmp/archive"
mkdir -p "$HOME"
# shellcheck source=fetch.d/feeds.sh
source "$SOURCE_DIR/tests/e2e/fetch.d/feeds.sh"

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
reported=0
pass() {
  if [ "$failures" -eq "$reported" ]; then echo "ok: $*"; else echo "not ok: $*"; fi
  reported=$failures
}
feed_terms() {  # DB: the XFEED terms, one a line
  /usr/bin/python3 -c '
import sys, xapian
for t in xapian.Database(sys.argv[1]).allterms("XFEED"): print(t.term.decode()[5:])' "$1"
}

# ---- the feed id does not depend on how the path was typed -----------------------
mkdir -p "$tmp/blog"
write_feed "$tmp/blog/2026-08-01T000000Z.xml" stable 2
write_feed "$tmp/blog/2026-08-02T000000Z.xml" stable 3
write_feed "$tmp/blog/2026-08-03T000000Z.xml" stable 4
(cd "$tmp/blog" && "$BLOGSEARCH_INDEX" add --db "$tmp/ids.db" 2026-08-01T000000Z.xml >/dev/null 2>&1)
(cd "$tmp" && "$BLOGSEARCH_INDEX" add --db "$tmp/ids.db" blog/2026-08-02T000000Z.xml >/dev/null 2>&1)
(cd "$tmp/blog" && "$BLOGSEARCH_INDEX" add --db "$tmp/ids.db" ./2026-08-03T000000Z.xml ../blog/2026-08-01T000000Z.xml >/dev/null 2>&1)
[ "$(feed_terms "$tmp/ids.db")" = blog ] || fail "one blog became feeds: $(feed_terms "$tmp/ids.db" | tr '\n' ' ')"
pass "add PATH: the same feed id from the folder however the path is typed"

# ---- --quiet -----------------------------------------------------------------------
for run in changed unchanged; do
  rc=0
  "$BLOGSEARCH_INDEX" add --quiet --db "$tmp/q.db" "$SOURCE_DIR/data" >"$tmp/q.out" 2>"$tmp/q.err" || rc=$?
  [ "$rc" -eq 0 ] && [ ! -s "$tmp/q.out" ] && [ ! -s "$tmp/q.err" ] || fail "add --quiet ($run) printed or failed (exit $rc)"
done
"$BLOGSEARCH_INDEX" add --db "$tmp/q.db" "$SOURCE_DIR/data" | grep -q 'snapshots read' || fail "add without --quiet prints no summary"
mkdir -p "$tmp/qfeed"
printf '<rss version="2.0"><channel><title>x</title><item><title>a</title><link>https://x.example.org/a</link>' >"$tmp/qfeed/2026-09-01T000000Z.xml"
printf '<pubDate>not a date</pubDate></item></channel></rss>\n' >>"$tmp/qfeed/2026-09-01T000000Z.xml"
printf 'not xml at all <<<' >"$tmp/qfeed/2026-09-02T000000Z.xml"
rc=0
"$BLOGSEARCH_INDEX" add --quiet --db "$tmp/q.db" "$tmp/qfeed" >"$tmp/q.out" 2>"$tmp/q.err" || rc=$?
[ ! -s "$tmp/q.out" ] && grep -q 'error' "$tmp/q.err" && [ "$rc" -eq 3 ] ||
  fail "add --quiet does not report the bad file on stderr with exit 3 and nothing else (exit $rc)"
mkdir -p "$tmp/snapshots/feed"
cp "$SOURCE_DIR/data/pytorch/"*.xml "$tmp/snapshots/feed/"
rc=0
"$BLOGSEARCH_INDEX" add --quiet --db "$tmp/r.db" "$tmp/snapshots" >/dev/null
"$BLOGSEARCH_INDEX" rebuild --quiet --db "$tmp/r.db" --archive "$tmp/snapshots" >"$tmp/q.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] && [ ! -s "$tmp/q.out" ] || fail "rebuild --quiet printed or failed (exit $rc)"
pass "--quiet: warnings and errors only, whether or not anything changed"

# ---- a damaged database -------------------------------------------------------------
"$BLOGSEARCH_INDEX" add --db "$tmp/bad.db" --quiet "$tmp/snapshots" >/dev/null
gen=$(awk 'NR == 1 {print $2}' "$tmp/bad.db/XAPIANDB")  # shard 0 of the live generation
size=$(stat -c %s "$tmp/bad.db/$gen/postlist.glass")
head -c "$size" /dev/urandom >"$tmp/bad.db/$gen/postlist.glass"
rc=0
"$BLOGSEARCH" --db "$tmp/bad.db" pytorch >/dev/null 2>"$tmp/damaged.err" || rc=$?
[ "$rc" -eq 4 ] && grep -q "the database at $tmp/bad.db is damaged (.*); rebuild it from the snapshot archive: blogsearch-index rebuild --db $tmp/bad.db" "$tmp/damaged.err" &&
  ! grep -q 'create it with' "$tmp/damaged.err" || fail "blogsearch on a damaged database: exit $rc, $(cat "$tmp/damaged.err")"
for cmd in "add $tmp/snapshots" "stats"; do
  rc=0
  # shellcheck disable=SC2086
  "$BLOGSEARCH_INDEX" $cmd --db "$tmp/bad.db" >/dev/null 2>"$tmp/damaged.err" || rc=$?
  [ "$rc" -eq 4 ] && grep -q "is damaged (.*); rebuild it from the snapshot archive: blogsearch-index rebuild" "$tmp/damaged.err" &&
    ! grep -q 'run again\|create it with' "$tmp/damaged.err" || fail "blogsearch-index ${cmd%% *} on a damaged database: exit $rc, $(cat "$tmp/damaged.err")"
done
rc=0
"$BLOGSEARCH_INDEX" rebuild --quiet --db "$tmp/bad.db" --archive "$tmp/snapshots" 2>"$tmp/rebuild.err" || rc=$?
[ "$rc" -eq 0 ] || fail "rebuild of a damaged database failed (exit $rc): $(cat "$tmp/rebuild.err")"
[ "$("$BLOGSEARCH" --db "$tmp/bad.db" --count pytorch)" -eq "$("$BLOGSEARCH" --db "$tmp/r.db" --count pytorch)" ] ||
  fail "the rebuilt database does not answer as one built from the same archive"
pass "a damaged database is called damaged by both programs, and rebuild brings it back"

# ---- a missing database: one line naming it and the command that makes it ----------
for prog in "$BLOGSEARCH pytorch" "$BLOGSEARCH_INDEX stats"; do
  rc=0
  # shellcheck disable=SC2086
  $prog --db "$tmp/none.db" >/dev/null 2>"$tmp/none.err" || rc=$?
  [ "$rc" -eq 4 ] && [ "$(wc -l <"$tmp/none.err")" -eq 1 ] &&
    grep -q "no database at $tmp/none.db; create it with: blogsearch-index add --db $tmp/none.db" "$tmp/none.err" ||
    fail "${prog##*/} on a missing database: exit $rc, $(cat "$tmp/none.err")"
done
pass "a missing database is named in one line with the command that creates it"

# ---- unknown filter values; feed facets with ids -------------------------------------
db="$tmp/data.db"
"$BLOGSEARCH_INDEX" add --quiet --db "$db" "$SOURCE_DIR/data" >/dev/null
rc=0
"$BLOGSEARCH" --db "$db" --feed pytorc pytorch >"$tmp/u.out" 2>"$tmp/u.err" || rc=$?
[ "$rc" -eq 1 ] && grep -q "^blogsearch: no feed 'pytorc' in the database (closest: pytorch)$" "$tmp/u.err" ||
  fail "an unknown --feed is not named with the closest id (exit $rc): $(cat "$tmp/u.err")"
"$BLOGSEARCH" --db "$db" --feed Tensor_Notes --feed pytorch --format json pytorch 2>/dev/null >"$tmp/u.json" || true
/usr/bin/python3 - "$tmp/u.json" <<'PY' || fail "the JSON output does not list the unknown filter value and suggestions"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["unknown_filters"] == [{"field": "feed", "value": "Tensor_Notes", "suggestions": ["tensor-notes"]}], j["unknown_filters"]
assert j["results"], "the known feed still matched"
PY
# The same value typed as a field of the query.
rc=0
"$BLOGSEARCH" --db "$db" 'feed:pytorc pytorch' >"$tmp/q.out" 2>"$tmp/q.err" || rc=$?
[ "$rc" -eq 1 ] && grep -q "^blogsearch: no feed 'pytorc' in the database (closest: pytorch)$" "$tmp/q.err" ||
  fail "an unknown feed: in the query is not named with the closest id (exit $rc): $(cat "$tmp/q.err")"
"$BLOGSEARCH" --db "$db" --format json 'category:Debuging OR category:blog' 2>/dev/null >"$tmp/qc.json" || true
/usr/bin/python3 - "$tmp/qc.json" <<'PY' || fail "the JSON does not list an unknown category: of the query"
import json, sys
j = json.load(open(sys.argv[1]))
assert [(u["field"], u["value"]) for u in j["unknown_filters"]] == [("category", "debuging")], j["unknown_filters"]
assert "debugging" in j["unknown_filters"][0]["suggestions"], j["unknown_filters"]
assert j["results"], "the known category still matched"
PY
"$BLOGSEARCH" --db "$db" 'feed:pytorch category:blog pytorch' 2>"$tmp/qk.err" >/dev/null
[ ! -s "$tmp/qk.err" ] || fail "known feed: and category: in the query gave a note: $(cat "$tmp/qk.err")"
rc=0
"$BLOGSEARCH" --db "$db" --author 'jurgen weiss' >/dev/null 2>"$tmp/a.err" || rc=$?
[ "$rc" -eq 1 ] && grep -q "^blogsearch: no author 'jurgen weiss' in the database (closest: jürgen weiß)$" "$tmp/a.err" ||
  fail "an --author typed without its diacritics is not pointed to the one with them: $(cat "$tmp/a.err")"
rc=0
"$BLOGSEARCH" --db "$db" --category 'no such label at all' >/dev/null 2>"$tmp/c.err" || rc=$?
[ "$rc" -eq 1 ] && grep -q "^blogsearch: no category 'no such label at all' in the database$" "$tmp/c.err" ||
  fail "an unknown --category is not named: $(cat "$tmp/c.err")"
"$BLOGSEARCH" --db "$db" --feed pytorch pytorch 2>"$tmp/k.err" >/dev/null
[ ! -s "$tmp/k.err" ] || fail "a known --feed gave a note: $(cat "$tmp/k.err")"
env -i PATH=/usr/bin:/bin BLOGSEARCH_DB="$db" REQUEST_METHOD=GET QUERY_STRING="q=pytorch&feed=pytorc" \
  GATEWAY_INTERFACE=CGI/1.1 SERVER_NAME=localhost SERVER_PORT=80 SCRIPT_NAME=/cgi-bin/blogsearch.cgi \
  "$BLOGSEARCH_CGI" </dev/null >"$tmp/page.html"
grep -q "<p class=\"notice\" role=\"status\">No feed &#39;pytorc&#39; in the database (closest: pytorch).</p>\|<p class=\"notice\" role=\"status\">No feed &apos;pytorc&apos; in the database (closest: pytorch).</p>\|No feed 'pytorc' in the database (closest: pytorch)." "$tmp/page.html" ||
  fail "the page does not note the unknown feed: $(grep -o 'notice[^<]*' "$tmp/page.html" | head -3)"
"$BLOGSEARCH" --db "$db" --facets feed --limit 1 pytorch >"$tmp/f.out" || true
grep -Eq '^ +[0-9]+  Blog – PyTorch \(pytorch\)$' "$tmp/f.out" || fail "the feed facet does not show the title with its id: $(cat "$tmp/f.out")"
grep -q '<span class="fid">(pytorch)</span>' <(env -i PATH=/usr/bin:/bin BLOGSEARCH_DB="$db" REQUEST_METHOD=GET QUERY_STRING="q=pytorch" \
  GATEWAY_INTERFACE=CGI/1.1 SERVER_NAME=localhost SERVER_PORT=80 SCRIPT_NAME=/cgi-bin/blogsearch.cgi "$BLOGSEARCH_CGI" </dev/null) ||
  fail "the page's feed facet does not show the id"
pass "unknown filter values, as options or feed: and category: in the query, named with the closest ids (stderr, JSON, page); feed facets show title and id"

# ---- config.toml ------------------------------------------------------------------------
mkdir -p "$XDG_CONFIG_HOME/blogsearch"
conf="$XDG_CONFIG_HOME/blogsearch/config.toml"
cat >"$conf" <<EOF
# my settings
db = "$db"
sort = "date"
limit = 2
color = "never"
facets = ["feed"]
EOF
"$BLOGSEARCH" --format json pytorch >"$tmp/cfg.json" 2>"$tmp/cfg.err" || fail "search with config.toml failed: $(cat "$tmp/cfg.err")"
/usr/bin/python3 - "$tmp/cfg.json" <<'PY' || fail "config.toml's db, sort, limit and facets were not used"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["sort"] == "date" and j["limit"] == 2 and len(j["results"]) == 2, (j["sort"], j["limit"])
assert list(j["facets"]) == ["feed"], j["facets"]
PY
"$BLOGSEARCH" --format json --sort relevance --limit 3 --facets category pytorch >"$tmp/cfg2.json"
/usr/bin/python3 - "$tmp/cfg2.json" <<'PY' || fail "the command line did not win over config.toml"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["sort"] == "relevance" and j["limit"] == 3 and list(j["facets"]) == ["category"], (j["sort"], j["limit"], j["facets"])
PY
# Into a file, then grep (grep -q leaving early would kill it with SIGPIPE).
"$BLOGSEARCH" --color always pytorch >"$tmp/color.out"
grep -q $'\033\[1m' "$tmp/color.out" || fail "--color always did not win over color = never"
if "$BLOGSEARCH" pytorch | grep -q $'\033'; then fail "color = never was not used"; fi
if BLOGSEARCH_DB="$tmp/nowhere" "$BLOGSEARCH" pytorch >/dev/null 2>&1; then fail "\$BLOGSEARCH_DB did not win over config.toml's db"; fi
env -u BLOGSEARCH_ARCHIVE "$BLOGSEARCH_INDEX" stats >"$tmp/stats.out" || fail "stats with config.toml's db failed"
grep -Eq "^  db +$db  \[$conf:2\]$" "$tmp/stats.out" || fail "stats does not say db came from config.toml line 2: $(tail -9 "$tmp/stats.out")"
grep -Eq "^  sort +date  \[$conf:3\]$" "$tmp/stats.out" || fail "stats does not say where sort came from"
grep -Eq "^  archive +${db%/*}/archive  \[default\]$" "$tmp/stats.out" || fail "stats does not show the default archive, beside config.toml's db: $(grep archive "$tmp/stats.out")"
"$BLOGSEARCH_INDEX" stats --db "$tmp/q.db" | grep -Eq "^  db +$tmp/q.db  \[--db\]$" || fail "stats does not say --db won"
BLOGSEARCH_ARCHIVE=/x "$BLOGSEARCH_INDEX" stats | grep -Eq '^  archive +/x  \[\$BLOGSEARCH_ARCHIVE\]$' || fail "stats does not name the environment"
printf 'db = "%s"\nlimt = 5\n' "$db" >"$conf"
for prog in "$BLOGSEARCH" "$BLOGSEARCH_INDEX stats"; do
  rc=0
  # shellcheck disable=SC2086
  $prog >/dev/null 2>"$tmp/bad.err" || rc=$?
  [ "$rc" -eq 2 ] && grep -q "^blogsearch[-a-z]*: $conf:2: unknown key 'limt' (known: db, archive, feeds, wait, sort, limit, color, facets)$" "$tmp/bad.err" ||
    fail "${prog##*/}: an unknown key in config.toml: exit $rc, $(cat "$tmp/bad.err")"
done
printf 'sort = "newest"\n' >"$conf"
rc=0
"$BLOGSEARCH" pytorch >/dev/null 2>"$tmp/bad.err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "$conf:1: 'sort' must be one of relevance|date|recent" "$tmp/bad.err" || fail "a bad sort value is not refused: $(cat "$tmp/bad.err")"
printf 'db = "rel/db"\n' >"$conf"
{ "$BLOGSEARCH_INDEX" stats 2>/dev/null || true; } | grep -Eq "^  db +$XDG_CONFIG_HOME/blogsearch/rel/db  \[" || fail "a relative db is not relative to config.toml's folder"
BLOGSEARCH_CONFIG="$tmp/other.toml" "$BLOGSEARCH_INDEX" stats --db "$db" >/dev/null || fail "\$BLOGSEARCH_CONFIG naming a missing file is not an empty config"
rm "$conf"
pass "config.toml: used by both programs, the command line and environment win, stats names the source, bad keys named"

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "all behaviour checks passed"
