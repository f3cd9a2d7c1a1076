#!/usr/bin/env bash
# Issue 15, "versions you can read", on the command line: `blogsearch show
# POST` lists the versions (number, first and last seen, what changed, "no
# text sent"), `show POST --version N` prints one, `blogsearch diff POST
# [A [B]]` diffs two word by word (colour on a terminal, [-removed-]{+added+}
# when piped, --format json), POST is an id or a link as people type it, and
# an unknown post, a version out of range and a post with one version get
# one-line errors. Also point 10: the snapshot paths show prints name files
# that exist from any directory, whatever directory `add` ran in.
#
# Env: BLOGSEARCH_INDEX, BLOGSEARCH, SOURCE_DIR. Exit 0 pass, 1 fail.
set -uo pipefail
: "${BLOGSEARCH_INDEX:?}" "${BLOGSEARCH:?}"
unset BLOGSEARCH_ARCHIVE BLOGSEARCH_CONFIG
export XDG_CONFIG_HOME=$(mktemp -d)  # no user config.toml

tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$XDG_CONFIG_HOME"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
run() {  # WANT_RC ARGS...: blogsearch ARGS > out, 2> err
  local want=$1; shift
  "$BLOGSEARCH" "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  [ "$got" -eq "$want" ] || fail "blogsearch $* exited $got, expected $want: $(head -c 300 "$tmp/err")"
}
contains() { grep -qF -- "$2" "$1" || fail "$1 lacks '$2': $(head -c 400 "$1")"; }
lacks() { if grep -qF -- "$2" "$1"; then fail "$1 has '$2'"; fi; }
one_line() { [ "$(wc -l <"$1")" -eq 1 ] || fail "$1 is not one line: $(cat "$1")"; }

# One feed, four snapshots: the post "edited" is written, edited (title and
# a sentence), left without a description (the feed stopped sending text),
# then given one again; "steady" never changes.
feed=$tmp/in/history-feed
mkdir -p "$feed"
snapshot() {  # TIME TITLE DESCRIPTION
  cat >"$feed/$1.xml" <<EOF
<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0"><channel><title>History feed</title><link>https://history.example/</link>
<item><title>$2</title><link>https://history.example/posts/edited</link><guid>edited-post</guid>
<pubDate>Mon, 01 Jun 2026 10:00:00 +0000</pubDate>$3</item>
<item><title>Steady post</title><link>https://history.example/posts/steady</link><guid>steady-post</guid>
<pubDate>Mon, 01 Jun 2026 09:00:00 +0000</pubDate><description>Nothing here ever changes.</description></item>
</channel></rss>
EOF
}
snapshot 2026-06-01T100000Z "Quokkas at dawn" "<description>The quokka naps in the shade. Visitors feed it leaves.</description>"
snapshot 2026-06-02T100000Z "Quokkas at dusk" "<description>The quokka naps in the shade. Visitors must not feed it.</description>"
snapshot 2026-06-03T100000Z "Quokkas at dusk" ""
snapshot 2026-06-04T100000Z "Quokkas at dusk" "<description>The quokka naps in the shade. Visitors must not feed it. Ever.</description>"

# `add` from the feed's own folder with a relative path (point 10).
db=$tmp/work/db
(cd "$feed" && "$BLOGSEARCH_INDEX" add --quiet --db "$db" .) || fail "add failed"
export BLOGSEARCH_DB=$db
cd /

# ---- show: the versions ----
run 0 show edited-post
contains "$tmp/out" "Versions (4):"
grep -Eq '^  1  2026-06-01T10:00:00Z – 2026-06-01T10:00:00Z  first version$' "$tmp/out" || fail "version 1's line: $(cat "$tmp/out")"
grep -Eq '^  2  2026-06-02T10:00:00Z – 2026-06-02T10:00:00Z  title, text' "$tmp/out" || fail "version 2's line"
grep -Eq '^  3  2026-06-03T10:00:00Z – 2026-06-03T10:00:00Z  .*no text sent$' "$tmp/out" || fail "version 3's line (no text sent)"
grep -Eq '^  4  2026-06-04T10:00:00Z – 2026-06-04T10:00:00Z  text' "$tmp/out" || fail "version 4's line"
run 0 show steady-post
contains "$tmp/out" "Versions (1):"
# --all lists every version (here all four are listed anyway: at most 20 are).
run 0 show edited-post --all
contains "$tmp/out" "Versions (4):"
grep -Eq '^  1  2026-06-01T10:00:00Z' "$tmp/out" || fail "show --all: version 1's line"
lacks "$tmp/out" "not listed"
# Point 10: every snapshot path named exists, from another directory than add's.
run 0 show --format json edited-post
/usr/bin/python3 - "$tmp/out" <<'PY' || fail "show --format json: history and snapshot paths"
import json, os, sys
j = json.load(open(sys.argv[1]))
h = j["history"]
assert [v["number"] for v in h] == [1, 2, 3, 4], h
assert [v["no_text"] for v in h] == [False, False, True, False], h
assert h[1]["changed"][:2] == ["title", "text"], h[1]
paths = [j["snapshot"]] + [v["snapshot"] for v in h]
for p in paths:
    assert os.path.isabs(p) and os.path.isfile(p), p
PY

# The same with a relative --db and --archive, run from another directory.
(cd "$tmp" && "$BLOGSEARCH_INDEX" add --quiet --db rel/db --archive rel/archive in/history-feed) || fail "relative add failed"
run 0 show --db "$tmp/rel/db" --format json edited-post
/usr/bin/python3 - "$tmp/out" "$tmp/rel/archive" <<'PY' || fail "relative --db/--archive: snapshot paths"
import json, os, sys
j = json.load(open(sys.argv[1]))
for p in [j["snapshot"]] + [v["snapshot"] for v in j["history"]]:
    assert os.path.isabs(p) and os.path.isfile(p) and p.startswith(sys.argv[2] + "/"), p
PY

# ---- show --version N ----
run 0 show edited-post --version 1
contains "$tmp/out" "Quokkas at dawn"
contains "$tmp/out" "Visitors feed it leaves."
contains "$tmp/out" "first seen:   2026-06-01T10:00:00Z"
contains "$tmp/out" "published:    2026-06-01T10:00:00Z"
lacks "$tmp/out" "must not"
run 0 show edited-post --version 3
contains "$tmp/out" "(no text sent in this version)"
run 0 show edited-post --version 2 --format json
/usr/bin/python3 - "$tmp/out" <<'PY' || fail "show --version --format json"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["number"] == 2 and j["versions"] == 4 and j["title"] == "Quokkas at dusk", j
assert j["text"] == "The quokka naps in the shade. Visitors must not feed it.", j["text"]
assert j["first_seen"] == "2026-06-02T10:00:00Z" and j["id"] == "edited-post", j
PY
run 2 show edited-post --version 5
one_line "$tmp/err"
contains "$tmp/err" "post has 4 versions (1 to 4); there is no version 5"
run 2 show edited-post --version 0

# ---- diff ----
run 0 diff edited-post 1 2
lacks "$tmp/out" $'\x1b'
contains "$tmp/out" "changed: title, text"
contains "$tmp/out" "title: Quokkas at [-dawn-]{+dusk+}"
contains "$tmp/out" "Visitors {+must not+} feed [-it leaves.-]{+it.+}"
run 0 diff edited-post 1 2 --context 1   # unchanged words far from a change are left out
contains "$tmp/out" "… Visitors {+must not+} feed [-it leaves.-]{+it.+}"
lacks "$tmp/out" "quokka naps"
run 0 diff edited-post 2       # version 2 against the one before it
cp "$tmp/out" "$tmp/out.2"
run 0 diff edited-post 1 2
cmp -s "$tmp/out" "$tmp/out.2" || fail "diff POST 2 is not diff POST 1 2"
run 0 diff edited-post         # the last two: 3 (no text) and 4
contains "$tmp/out" "Versions 3 and 4"
contains "$tmp/out" "no text sent in version 3"
run 0 diff edited-post 2 4
contains "$tmp/out" "feed it. {+Ever.+}"
run 0 diff --color always edited-post 1 2
contains "$tmp/out" $'\x1b[31mdawn\x1b[0m\x1b[32mdusk\x1b[0m'
if command -v script >/dev/null; then
  script -qec "\"$BLOGSEARCH\" diff edited-post 1 2" /dev/null >"$tmp/tty" 2>&1
  grep -qF $'\x1b[31m' "$tmp/tty" || fail "diff on a terminal is not in colour: $(head -c 300 "$tmp/tty")"
  NO_COLOR=1 script -qec "\"$BLOGSEARCH\" diff edited-post 1 2" /dev/null >"$tmp/tty" 2>&1
  if grep -qF $'\x1b[' "$tmp/tty"; then fail "NO_COLOR did not turn colour off"; fi
fi
run 0 diff --format json edited-post 1 2
/usr/bin/python3 - "$tmp/out" <<'PY' || fail "diff --format json"
import json, sys
j = json.load(open(sys.argv[1]))
assert (j["from"], j["to"], j["id"]) == (1, 2, "edited-post"), j
ops = [(p["op"], p["text"].strip()) for p in j["title"]["parts"]]
assert ops == [("same", "Quokkas at"), ("removed", "dawn"), ("added", "dusk")], ops
older = "".join(p["text"] for p in j["text"]["parts"] if p["op"] != "added")
newer = "".join(p["text"] for p in j["text"]["parts"] if p["op"] != "removed")
assert older.strip() == "The quokka naps in the shade. Visitors feed it leaves.", older
assert newer.strip() == "The quokka naps in the shade. Visitors must not feed it.", newer
assert j["text"]["words_removed"] == 2 and j["text"]["words_added"] == 3, j["text"]
PY
run 0 diff --format json edited-post 3 4
/usr/bin/python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["text"] is None and j["from_no_text"] and not j["to_no_text"], j' "$tmp/out" ||
  fail "diff --format json with a no-text version"

# POST as a link, as people type it (point 11).
run 0 diff "http://www.history.example/posts/edited/#comments" 1 2
contains "$tmp/out" "{+dusk+}"

# ---- errors: one line each ----
run 1 diff no-such-post
one_line "$tmp/err"
contains "$tmp/err" "blogsearch diff: no post with id or link 'no-such-post'"
run 1 show https://history.example/posts/none
one_line "$tmp/err"
contains "$tmp/err" "blogsearch show: no post with id or link"
run 2 diff edited-post 9
one_line "$tmp/err"
contains "$tmp/err" "there is no version 9"
run 2 diff edited-post 1
one_line "$tmp/err"
contains "$tmp/err" "version 1 is the first"
run 2 diff edited-post 2 2   # as the page's diff=2-2
one_line "$tmp/err"
contains "$tmp/err" "two different versions"
run 1 diff steady-post
one_line "$tmp/err"
contains "$tmp/err" "only one version"
run 2 diff edited-post 1 2 3
one_line "$tmp/err"
run 2 diff edited-post --color sometimes
run 1 -- diff   # with -- it is a search for the word "diff"
contains "$tmp/out" "No results"

[ "$failures" -eq 0 ] && echo "history_cli e2e: passed" || echo "history_cli e2e: $failures failed"
[ "$failures" -eq 0 ]
