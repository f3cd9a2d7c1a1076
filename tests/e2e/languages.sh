#!/usr/bin/env bash
# Languages, diacritics, author and feed-title words (issue 16, points 5 and
# 9) through both programs: tests/feeds/languages holds a German RSS feed
# that declares its language, an English Atom feed with a German entry
# (xml:lang) and accented names, a German feed that declares nothing, and an
# English feed named after its author.
set -uo pipefail
feeds="$SOURCE_DIR/tests/feeds/languages"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/db"
"$BLOGSEARCH_INDEX" add --quiet --db "$db" "$feeds" >/dev/null || { echo "FAIL: indexing $feeds"; exit 1; }

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# count QUERY: the number of posts the query finds.
count() { "$BLOGSEARCH" --db "$db" --format ids --limit 100 -- "$1" 2>/dev/null | grep -c .; }
expect() {
  local got
  got=$(count "$1")
  [ "$got" -eq "$2" ] || fail "'$1' found $got posts, expected $2"
}

# German posts stemmed as German: the issue's examples.
expect 'Umfrage' 2
expect 'Umfragen' 2
expect 'Wahl' 2
expect 'Wahlen' 2
expect 'Haus' 1
expect 'Säge' 1          # the feed declares nothing: detected
# Diacritics folded on both sides.
expect 'jurgen' 2
expect 'author:jurgen' 2
expect 'Jürgen' 2
expect 'naive' 2
expect 'naïve' 2
expect '"jurgen muller"' 2
# Authors and feed titles as words.
expect 'hoffmann' 2
expect 'mitchell hashimoto' 1
expect 'lang:de' 4
expect 'lang:en' 3

# The post that writes the word with its diacritic comes first.
first=$("$BLOGSEARCH" --db "$db" --format json --limit 1 -- 'naïve' | python3 -c 'import json,sys; print(json.load(sys.stdin)["results"][0]["title"])')
[ "$first" = "A naïve approach to caching" ] || fail "'naïve' ranks '$first' first"

# Snippets mark what was found: folded and German-stemmed words.
marks() {
  "$BLOGSEARCH" --db "$db" --format json --limit 10 -- "$1" |
    python3 -c 'import json,sys; print(" ".join(sorted({p["text"] for r in json.load(sys.stdin)["results"] for p in r.get("snippet_parts", []) if p["match"]})))'
}
[ "$(marks naive)" = "naive naïve" ] || fail "snippets for 'naive' mark '$(marks naive)'"
[ "$(marks Umfrage)" = "Umfrage Umfragen" ] || fail "snippets for 'Umfrage' mark '$(marks Umfrage)'"
[ "$(marks haus)" = "Häusern" ] || fail "snippets for 'haus' mark '$(marks haus)'"

# The web page too.
if [ -n "${BLOGSEARCH_CGI:-}" ] && [ -x "$BLOGSEARCH_CGI" ]; then
  page=$(BLOGSEARCH_DB="$db" REQUEST_METHOD=GET QUERY_STRING='q=author%3Ajurgen' "$BLOGSEARCH_CGI")
  grep -qF 'Die Wahlen in Hessen' <<<"$page" || fail "the page for author:jurgen lacks the post"
fi

if [ "$failures" -gt 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "languages: all checks passed"
