#!/usr/bin/env bash
# The blogsearch command line over an index of data/ built by blogsearch-index:
# exit codes, messages, text/JSON/ids output, paging, filters, facets, show,
# colour handling, and searches while another process commits.
set -uo pipefail
data="$SOURCE_DIR/data"
if [ ! -d "$data" ] || [ -z "$(ls "$data"/*/*.xml 2>/dev/null)" ]; then
  echo "SKIP: no sample snapshots in $data"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/db"
"$BLOGSEARCH_INDEX" add --quiet --db "$db" "$data" >/dev/null || { echo "FAIL: indexing data/"; exit 1; }

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# expect_rc CODE ARGS...: runs blogsearch, keeps stdout/stderr in $tmp/out, $tmp/err.
expect_rc() {
  local want=$1; shift
  "$BLOGSEARCH" "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  [ "$got" -eq "$want" ] || fail "blogsearch $* exited $got, expected $want: $(head -c 300 "$tmp/err")"
}
contains() { grep -qF -- "$2" "$1" || fail "$1 lacks '$2': $(head -c 300 "$1")"; }
lacks() { if grep -qF -- "$2" "$1"; then fail "$1 has '$2'"; fi; }
export BLOGSEARCH_DB="$db"

# ---- exit codes and messages ----
expect_rc 0 kernel
contains "$tmp/out" "results ("
expect_rc 1 zzqxnotaword
contains "$tmp/out" "No results"
expect_rc 2 'kernel AND'
contains "$tmp/err" "column 8"
contains "$tmp/err" "'AND' needs a word"
# Pasted text that only parses as plain words is searched so (Xapian's
# parser throws first: the static binary's first exception, common/static_unwind.cc).
expect_rc 0 'kernel...compiler'
contains "$tmp/out" "results ("
contains "$tmp/err" "could not be read as written"
# A word that starts with one "-" is the query, not an option: alone, every
# post but those with the word; among options and other words, in its place.
all=$("$BLOGSEARCH" --count -- '-zzqxnotaword')
without=$("$BLOGSEARCH" --count -kernel)
with=$("$BLOGSEARCH" --count kernel)
[ "$without" -gt 0 ] && [ $((without + with)) -eq "$all" ] \
  || fail "-kernel counts $without, kernel $with, all posts $all"
expect_rc 0 --limit 3 training -kernel --format ids
[ "$(wc -l <"$tmp/out")" -ge 1 ] || fail "training -kernel found nothing"
[ "$(cat "$tmp/out")" = "$("$BLOGSEARCH" --limit 3 --format ids -- training -kernel)" ] \
  || fail "training -kernel differs from -- training -kernel"
expect_rc 2 --limt 3 kernel          # an unknown long option is still an error
contains "$tmp/err" "blogsearch: unknown option --limt (see blogsearch --help)"
expect_rc 2 kernel --bogus=3
contains "$tmp/err" "blogsearch: unknown option --bogus (see blogsearch --help)"
expect_rc 2 "$(printf 'w%d ' $(seq 101))"
contains "$tmp/err" "the query has 101 words; at most 100 are allowed"
expect_rc 2 'kernel date:2026-13..'
contains "$tmp/err" "2026-13"
expect_rc 2 --wildcard-limit 2 'k*'
contains "$tmp/err" "'k*' matches more than 2 words"
expect_rc 2 --limit 1001 kernel
contains "$tmp/err" "--limit"
expect_rc 2 --time-limit 600001 kernel
contains "$tmp/err" "--time-limit"
expect_rc 0 --time-limit 0 --format json --facets category kernel
contains "$tmp/out" '"partial":false'
[ "$(cat "$tmp/out" | sed 's/"elapsed_ms":[0-9.e+-]*//')" = \
  "$("$BLOGSEARCH" --format json --facets category kernel | sed 's/"elapsed_ms":[0-9.e+-]*//')" ] \
  || fail "--time-limit 0 changes a search that fits in the default limit"
expect_rc 2 --sort sideways kernel
expect_rc 2 --since lastweek kernel
contains "$tmp/err" "--since: 'lastweek'"
expect_rc 2 --page 2 --offset 3 kernel
expect_rc 2 --reverse kernel
expect_rc 2 --facets colour kernel
expect_rc 2
contains "$tmp/err" "empty query"
expect_rc 4 --db "$tmp/missing" kernel
contains "$tmp/err" "$tmp/missing"
contains "$tmp/err" "blogsearch-index add --db $tmp/missing data/"
BLOGSEARCH_DB="$tmp/missing-env" "$BLOGSEARCH" kernel >/dev/null 2>"$tmp/err"
[ $? -eq 4 ] && grep -qF "$tmp/missing-env" "$tmp/err" || fail "\$BLOGSEARCH_DB is not used"
expect_rc 0 --help
contains "$tmp/out" "--facets"

# ---- text output: plain when piped, bold on a terminal unless NO_COLOR ----
expect_rc 0 kernel
lacks "$tmp/out" $'\x1b'
expect_rc 0 --color always kernel
contains "$tmp/out" $'\x1b[1m'
if command -v script >/dev/null; then
  script -qec "\"$BLOGSEARCH\" kernel" /dev/null >"$tmp/tty" 2>&1
  contains "$tmp/tty" $'\x1b[1m'
  NO_COLOR=1 script -qec "\"$BLOGSEARCH\" kernel" /dev/null >"$tmp/tty" 2>&1
  lacks "$tmp/tty" $'\x1b['
fi

# ---- JSON against the documented shape ----
expect_rc 0 --format json --facets category,author,feed,month --limit 3 kernel
/usr/bin/python3 - "$tmp/out" <<'PY' || fail "JSON shape"
import json, sys
j = json.load(open(sys.argv[1]))
types = {"query": str, "parsed_query": str, "sort": str, "reverse": bool, "total": dict,
         "offset": int, "limit": int, "results": list, "facets": dict, "elapsed_ms": (int, float)}
for k, t in types.items():
    assert isinstance(j[k], t), (k, j.get(k))
assert j["suggestion"] is None or isinstance(j["suggestion"], str)
t = j["total"]
assert t["lower_bound"] <= t["estimated"] <= t["upper_bound"] and isinstance(t["exact"], bool)
assert len(j["results"]) == 3 and j["limit"] == 3 and j["offset"] == 0
post = {"docid": int, "id": str, "link": str, "title": str, "authors": list, "categories": list,
        "feed": dict, "feeds": list, "versions": int, "in_feed": bool, "summary": str,
        "content_hash": str, "snapshot": str, "no_text": bool, "rank": int, "percent": int,
        "weight": float, "snippet": str, "snippet_parts": list}
for i, r in enumerate(j["results"]):
    for k, ty in post.items():
        assert isinstance(r[k], ty), (k, r.get(k))
    for k in ("published", "updated", "first_seen", "last_seen"):
        assert r[k] is None or isinstance(r[k], str), k
    assert r["rank"] == i + 1
    assert "".join(p["text"] for p in r["snippet_parts"]) == r["snippet"]
    assert any(p["match"] for p in r["snippet_parts"]), r["snippet_parts"]
    assert "text" not in r
    assert "history" not in r  # issue 15 point 12: only with --history
assert set(j["facets"]) == {"category", "author", "feed", "month"}
for values in j["facets"].values():
    for v in values:
        assert isinstance(v["value"], str) and isinstance(v["label"], str) and v["count"] >= 1
PY

# ---- ids, count, paging ----
expect_rc 0 --format ids --limit 1000 kernel
sort "$tmp/out" >"$tmp/all_ids"
n_ids=$(wc -l <"$tmp/all_ids")
expect_rc 0 --count kernel
[ "$(cat "$tmp/out")" -eq "$n_ids" ] || fail "--count $(cat "$tmp/out") != $n_ids ids"
[ "$n_ids" -ge 4 ] || fail "expected at least 4 posts about kernels in data/, got $n_ids"
expect_rc 0 --format ids --sort date --limit 2 --page 1 kernel; cp "$tmp/out" "$tmp/p1"
expect_rc 0 --format ids --sort date --limit 2 --page 2 kernel; cp "$tmp/out" "$tmp/p2"
expect_rc 0 --format ids --sort date --limit 2 --offset 2 kernel
cmp -s "$tmp/out" "$tmp/p2" || fail "--page 2 differs from --offset 2"
[ "$(cat "$tmp/p1" "$tmp/p2" | sort -u | wc -l)" -eq 4 ] || fail "pages overlap"
expect_rc 1 --format ids --offset 1000 kernel
expect_rc 0 --format ids --sort date --limit 1000 kernel; cp "$tmp/out" "$tmp/newest"
expect_rc 0 --format ids --sort date --reverse --limit 1000 kernel
[ "$(tac "$tmp/out")" = "$(cat "$tmp/newest")" ] || fail "--reverse is not the date order reversed"

# ---- filters, prefixes, dates ----
expect_rc 0 --format json --limit 1000 --category TORCH.COMPILE --since 1970
/usr/bin/python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"]
assert r and all("torch.compile" in [c.lower() for c in p["categories"]] for p in r), r' "$tmp/out" \
  || fail "--category filter"
# A filter option takes one value: the word after it is the query, not a
# second category.
expect_rc 0 --count --category blog memory; with_word=$(cat "$tmp/out")
expect_rc 0 --count --category blog; all_blog=$(cat "$tmp/out")
[ "$with_word" -lt "$all_blog" ] || fail "--category blog memory ($with_word) should narrow --category blog ($all_blog)"
expect_rc 0 --format json --limit 1000 'category:"cuda graphs"'
contains "$tmp/out" '"CUDA graphs"'
expect_rc 0 --format json --limit 1000 --author 'JÜRGEN WEISS' --author 'jürgen weiß' --since 1970
contains "$tmp/out" 'Jürgen Weiß'
expect_rc 0 --format json --limit 1000 --since 2026-09-14 --until 2026-09-14
/usr/bin/python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"]
assert r and all(p["published"].startswith("2026-09-14") for p in r), [p["published"] for p in r]' "$tmp/out" \
  || fail "--since/--until one day"
expect_rc 0 --format ids --limit 1000 'date:2026-09..2026-09'; sort "$tmp/out" >"$tmp/sept_q"
expect_rc 0 --format ids --limit 1000 --since 2026-09 --until 2026-09; sort "$tmp/out" >"$tmp/sept_o"
cmp -s "$tmp/sept_q" "$tmp/sept_o" || fail "date:2026-09..2026-09 differs from --since/--until 2026-09"
expect_rc 2 --since 30d --until 1y kernel
contains "$tmp/err" "later than --until"
expect_rc 1 --since 2031 kernel
expect_rc 0 --format ids --limit 1000 'site:pytorch.org'
[ -s "$tmp/out" ] || fail "site:pytorch.org found nothing"
expect_rc 0 --format ids --limit 1000 'feed:Kernel-Digest'
[ "$(wc -l <"$tmp/out")" -ge 1 ] || fail "feed: prefix"
lacks "$tmp/out" "pytorch.org"

# ---- sorting, spelling ----
expect_rc 0 --format ids --sort recent --limit 1000 kernel; sort "$tmp/out" >"$tmp/recent_ids"
cmp -s "$tmp/recent_ids" "$tmp/all_ids" || fail "--sort recent changes the match set"
expect_rc 1 'kernal fusoin'
contains "$tmp/out" "Did you mean: kernel fusion"
expect_rc 1 --format json kernal
/usr/bin/python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert j["suggestion"] == "kernel" and j["total"]["estimated"] == 0, j["suggestion"]' "$tmp/out" \
  || fail "JSON suggestion for kernal"
expect_rc 0 --format json kernel
grep -q '"suggestion":null' "$tmp/out" || fail "a correct word got a suggestion"

# ---- --history: each result's versions, only when asked (issue 15, point 12) ----
expect_rc 0 --format json --history --limit 100 kernel
/usr/bin/python3 - "$tmp/out" <<'PY' || fail "JSON --history"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["results"]
for r in j["results"]:
    h = r["history"]
    assert len(h) == r["versions"], (len(h), r["versions"])
    assert [v["number"] for v in h] == list(range(1, len(h) + 1))
    assert all(v["first_seen"] <= v["last_seen"] for v in h), h
    assert h[-1]["first_seen"] == r["last_change"], (h[-1], r["last_change"])
    assert "title" not in h[0] and "text" not in h[0]  # the versions' contents are in show --version
PY

# ---- show ----
first_id=$(head -1 "$tmp/all_ids")
expect_rc 0 show "$first_id"
contains "$tmp/out" "first seen:"
contains "$tmp/out" "in feed:"
expect_rc 0 show --format json "$first_id"
link=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["link"])' "$tmp/out")
expect_rc 0 show "$link"
contains "$tmp/out" "$first_id"
expect_rc 1 show "https://nowhere.example/none"
expect_rc 0 -- show   # with -- it is a search for the word "show"

# ---- searches while another process commits ----
feed="$tmp/churn/churn"
mkdir -p "$feed"
(
  for round in $(seq 1 15); do
    {
      echo '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>Churn</title><link>https://churn.example/</link>'
      for i in $(seq 1 40); do
        echo "<item><title>Kernel churn $round $i</title><link>https://churn.example/$round/$i</link>"
        echo "<pubDate>Mon, 0$((round % 9 + 1)) Jun 2026 10:00:00 +0000</pubDate>"
        echo "<description>kernel fusion round $round item $i $(printf 'filler%.0s ' $(seq 1 50))</description></item>"
      done
      echo '</channel></rss>'
    } >"$feed/2026-06-$(printf %02d "$round")T000000Z.xml"
    "$BLOGSEARCH_INDEX" add --quiet --db "$db" "$feed/2026-06-$(printf %02d "$round")T000000Z.xml" >/dev/null 2>&1
  done
) &
writer=$!
searches=0
while kill -0 "$writer" 2>/dev/null; do
  "$BLOGSEARCH" --limit 50 --facets month kernel >/dev/null 2>"$tmp/err"
  rc=$?
  [ "$rc" -eq 0 ] || fail "search during commits exited $rc: $(cat "$tmp/err")"
  searches=$((searches + 1))
done
wait "$writer"
echo "searches while committing: $searches"
expect_rc 0 --count 'churn'
[ "$(cat "$tmp/out")" -ge 40 ] || fail "churn posts not indexed ($(cat "$tmp/out"))"

if [ "$failures" -gt 0 ]; then
  echo "FAIL: $failures checks failed"
  exit 1
fi
echo "PASS: cli_search"
