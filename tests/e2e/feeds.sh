#!/usr/bin/env bash
# blogsearch-index feeds add/list/remove/import/export against a lighttpd on
# 127.0.0.1: discovery from a page with several alternates (relative hrefs,
# <base href>, one that does not parse, links that are not feeds), the usual
# paths (/feed, /rss.xml...), a page that names no feed and a feed that fails
# to parse; a URL there already written another way; edits that keep a
# commented feeds.toml's comments, order and layout; remove naming the archive
# folder to delete before a rebuild; an OPML import (nested folders ->
# categories, URLs written other ways) and export round trip.
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
trap 'server_stop; rm -rf "$tmp"' EXIT
www="$tmp/www"
mkdir -p "$www/blog/feeds" "$www/other" "$www/nofeed" "$www/plain" "$www/based"
server_start "$tmp/srv" "$www"
export BLOGSEARCH_DB="$tmp/db" BLOGSEARCH_ARCHIVE="$tmp/archive"

. "$SOURCE_DIR/tests/e2e/checks.sh"
reported=0
pass() {
  if [ "$failures" -eq "$reported" ]; then echo "ok: $*"; else echo "not ok: $*"; fi
  reported=$failures
}

# feeds NAME ARGS...: runs `blogsearch-index feeds ARGS`, output in $tmp/NAME.{out,err}, status in $rc.
feeds() {
  local name=$1
  shift
  rc=0
  "$BLOGSEARCH_INDEX" feeds "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
  sed 's/^/  | /' "$tmp/$name.out" "$tmp/$name.err"
}

# toml_feeds FILE: one line per feed, "id|url|title|category|enabled".
toml_feeds() {
  /usr/bin/python3 - "$1" <<'PY'
import sys, tomllib
for f in tomllib.load(open(sys.argv[1], "rb")).get("feed", []):
    print("|".join([f["id"], f["url"], f.get("title", ""), f.get("category", ""), str(f.get("enabled", True))]))
PY
}

# ---- the site ------------------------------------------------------------------
write_feed "$www/blog/feeds/main.xml" mainfeed 4
printf '<html><body>this is not a feed</body></html>\n' >"$www/blog/broken.xml"
cat >"$www/other/feed.json" <<'JSON'
{"version": "https://jsonfeed.org/version/1.1", "title": "Json Notes",
 "items": [{"id": "j1", "url": "https://json.example.org/1", "title": "One", "content_text": "first",
            "date_published": "2026-09-01T10:00:00Z"},
           {"id": "j2", "url": "https://json.example.org/2", "title": "Two", "content_text": "second",
            "date_published": "2026-09-02T10:00:00Z"}]}
JSON
cat >"$www/blog/index.html" <<'HTML'
<!DOCTYPE html>
<html><head><title>A blog</title>
<link rel="stylesheet" href="/style.css">
<link rel="alternate" type="text/html" hreflang="fr" href="/fr/">
<link rel="alternate" type="application/rss+xml" title="Broken" href="broken.xml">
<link rel="ALTERNATE feed" type="application/atom+xml; charset=utf-8" href="feeds/main.xml">
<link rel="alternate" type="application/feed+json" href="../other/feed.json">
</head><body><p>Hello <a href="/rss.xml">rss</a></p></body></html>
HTML
cat >"$www/based/page.html" <<'HTML'
<html><head><base href="/other/"><link rel=alternate type=application/feed+json href=feed.json></head>
<body>based</body></html>
HTML
printf '<html><head><title>No feed here</title></head><body>nothing</body></html>\n' >"$www/nofeed/index.html"
printf '<html><head><title>Plain</title></head><body>plain</body></html>\n' >"$www/plain/index.html"

cfg="$tmp/feeds.toml"
cp "$SOURCE_DIR/tests/e2e/feeds.d/commented.toml" "$cfg"
original=$(cat "$cfg")

# ---- discovery ------------------------------------------------------------------
feeds page add "$BASE/blog/index.html" --config "$cfg"
[ "$rc" -eq 0 ] || fail "add of a page with alternates exited $rc"
grep -q "its feed is $BASE/blog/feeds/main.xml" "$tmp/page.out" ||
  fail "the relative alternate feeds/main.xml was not resolved and chosen (after the broken one)"
grep -q "the page names 3 feeds: $BASE/blog/broken.xml $BASE/blog/feeds/main.xml $BASE/other/feed.json" "$tmp/page.out" ||
  fail "the page's three feed links (and no stylesheet or text/html link) are not listed, resolved"
grep -q "added feed mainfeed to $cfg: \"mainfeed\", 4 items (rss2), $BASE/blog/feeds/main.xml" "$tmp/page.out" ||
  fail "add does not report the id, title and number of items"
grep -q "^mainfeed|$BASE/blog/feeds/main.xml|mainfeed||True$" <(toml_feeds "$cfg") || fail "the feed is not in feeds.toml"

feeds based add "$BASE/based/page.html" --config "$cfg" --id json-notes --category "Tech/JSON"
[ "$rc" -eq 0 ] && grep -q "added feed json-notes .*\"Json Notes\", 2 items (json.*), $BASE/other/feed.json" "$tmp/based.out" ||
  fail "<base href> did not resolve the JSON Feed alternate, or --id was not used"
grep -q "^json-notes|$BASE/other/feed.json|Json Notes|Tech/JSON|True$" <(toml_feeds "$cfg") || fail "--category is not kept"

before=$(cat "$cfg")
feeds nofeed add "$BASE/nofeed/index.html" --config "$cfg"
[ "$rc" -eq 2 ] || fail "a page naming no feed exited $rc, expected 2"
grep -q "index.html: not a feed (root element <html>), and as a page it names no feed .*tried: $BASE/feed: HTTP 404; $BASE/rss.xml: HTTP 404" "$tmp/nofeed.err" ||
  fail "a page with no feed does not say so and what was tried"
[ "$(cat "$cfg")" = "$before" ] || fail "a failed add changed feeds.toml"

feeds broken add "$BASE/blog/broken.xml" --config "$cfg"
[ "$rc" -eq 2 ] && grep -q "broken.xml: not a feed (root element <html>), and as a page" "$tmp/broken.err" || fail "a feed that fails to parse was not refused (exit $rc)"
[ "$(cat "$cfg")" = "$before" ] || fail "a refused feed changed feeds.toml"

printf '<html><head><link rel="alternate" type="application/rss+xml" href="broken.xml"></head></html>\n' >"$www/blog/only-broken.html"
feeds onlybroken add "$BASE/blog/only-broken.html" --config "$cfg"
[ "$rc" -eq 2 ] && grep -q "and the one feed the page names does not parse; tried: $BASE/blog/broken.xml: not a feed (root element <html>); $BASE/feed: HTTP 404" "$tmp/onlybroken.err" ||
  fail "a page whose only alternate does not parse is not reported with what each candidate answered"
[ "$(cat "$cfg")" = "$before" ] || fail "a failed add changed feeds.toml"

feeds missing add "$BASE/blog/none.xml" --config "$cfg"
[ "$rc" -eq 2 ] && grep -q "none.xml: .*404" "$tmp/missing.err" || fail "a 404 was not reported (exit $rc)"

write_feed "$www/rss.xml" rootfeed 2
feeds usual add "$BASE/plain/index.html" --config "$cfg"
[ "$rc" -eq 0 ] && grep -q "its feed is $BASE/rss.xml" "$tmp/usual.out" || fail "the usual path /rss.xml was not found (after /feed)"

feeds dup add "$BASE/blog/feeds/main.xml" --config "$cfg"
[ "$rc" -eq 2 ] && grep -q "is there already, as feed 'mainfeed'$" "$tmp/dup.err" || fail "a second add of the same feed was not refused"
# The same URL written another way is the same feed (the posts would
# otherwise be indexed under two feeds); the error names how the file has it.
before=$(cat "$cfg")
# https is http (this server has no TLS: the URL is refused before a fetch).
for variant in "$BASE/blog/feeds/main.xml#x" "HTTP://${BASE#http://}/blog/feeds/main.xml" "$BASE/blog/feeds/main.xml?" \
  "$BASE/blog/feeds/%6dain.xml" "$BASE/blog/feeds/../feeds/main.xml" "https://${BASE#http://}/blog/feeds/main.xml"; do
  feeds dupvariant add "$variant" --config "$cfg"
  [ "$rc" -eq 2 ] && grep -qF "$variant is there already, as feed 'mainfeed' ($BASE/blog/feeds/main.xml)" "$tmp/dupvariant.err" ||
    fail "$variant was not refused as feed mainfeed's URL written another way"
done
[ "$(cat "$cfg")" = "$before" ] || fail "an add of a URL there already written another way changed feeds.toml"
# A feed there already whose server is down is told without a fetch.
printf '[[feed]]\nid = "gone"\nurl = "http://127.0.0.1:9/gone.xml"\n' >"$tmp/gone.toml"
feeds gone add "http://127.0.0.1:9/gone.xml" --config "$tmp/gone.toml"
[ "$rc" -eq 2 ] && grep -q "is there already, as feed 'gone'$" "$tmp/gone.err" ||
  fail "a URL there already was fetched before it was refused: $(cat "$tmp/gone.err")"
feeds badid add "$BASE/blog/feeds/main.xml" --config "$cfg" --id "Not A Slug"
[ "$rc" -eq 2 ] && grep -q "must be a slug" "$tmp/badid.err" || fail "an invalid --id was not refused"
feeds direct add "$BASE/other/feed.json" --config "$tmp/new/dir/feeds.toml"
[ "$rc" -eq 0 ] && grep -q '^json-notes|' <(toml_feeds "$tmp/new/dir/feeds.toml") ||
  fail "add of a feed URL into a new file (and folder) failed"
case "$(cat "$cfg")" in
  "$original"*) ;;
  *) fail "add changed what was in feeds.toml before (it should only append)" ;;
esac
pass "discovery: alternates in order, relative hrefs and <base>, JSON Feed, the usual paths, no feed, not a feed"

# ---- list ----------------------------------------------------------------------
"$BLOGSEARCH_INDEX" fetch --config "$cfg" --feed mainfeed --feed rootfeed --feed json-notes >/dev/null 2>&1 ||
  fail "fetch of the added feeds failed"
feeds list list --config "$cfg"
[ "$rc" -eq 0 ] || fail "list exited $rc"
head -1 "$tmp/list.out" | grep -q '^ID  *TITLE  *URL  *LAST FETCH  *STATE$' || fail "list has no header"
grep -Eq "^mainfeed +mainfeed +$BASE/blog/feeds/main.xml +20[0-9-]+T[0-9:]+Z +ok \(HTTP 200\)$" "$tmp/list.out" ||
  fail "a fetched feed does not show its last fetch and state"
grep -Eq '^maybe +- +https://maybe.example.org/feed.xml +never +disabled$' "$tmp/list.out" || fail "a disabled feed is not listed as such"
grep -Eq '^pytorch +PyTorch Blog +https://pytorch.org/blog/feed/ +never +enabled$' "$tmp/list.out" || fail "a feed never fetched is not listed as such"
[ "$(wc -l <"$tmp/list.out")" -eq 7 ] || fail "list does not show one line per feed"
pass "list: id, title, URL, last fetch and state"

# ---- remove says how to drop the posts, and that is the way ----------------------
docs_with() {  # TERM: documents in the database that hold it
  /usr/bin/python3 -c 'import sys, xapian; print(xapian.Database(sys.argv[1]).get_termfreq(sys.argv[2]))' "$BLOGSEARCH_DB" "$1"
}
[ "$(docs_with XFEEDmainfeed)" -eq 4 ] || fail "the fetched feed's 4 posts are not in the database"
feeds removefetched remove mainfeed --config "$cfg"
[ "$rc" -eq 0 ] || fail "remove of a fetched feed exited $rc"
grep -qx "blogsearch-index: removed feed mainfeed from $cfg (its posts stay searchable; to drop them, delete $tmp/archive/mainfeed/ and run rebuild)" \
  "$tmp/removefetched.out" || fail "remove does not name the feed's archive folder to delete before a rebuild"
"$BLOGSEARCH_INDEX" rebuild >/dev/null 2>&1 || fail "rebuild after remove failed"
[ "$(docs_with XFEEDmainfeed)" -eq 4 ] || fail "a rebuild with the feed's archive folder there did not keep its posts"
rm -r "$tmp/archive/mainfeed/"
"$BLOGSEARCH_INDEX" rebuild >/dev/null 2>&1 || fail "rebuild after deleting the feed's archive folder failed"
[ "$(docs_with XFEEDmainfeed)" -eq 0 ] || fail "deleting the folder remove names, then rebuild, did not drop the feed's posts"
[ "$(docs_with XFEEDrootfeed)" -eq 2 ] || fail "the rebuild dropped another feed's posts"
pass "remove names the archive folder whose deletion, then a rebuild, drops the posts"

# ---- remove keeps everything else as written ------------------------------------------
cp "$SOURCE_DIR/tests/e2e/feeds.d/commented.toml" "$tmp/edit.toml"
feeds remove remove maybe --config "$tmp/edit.toml"
[ "$rc" -eq 0 ] || fail "remove exited $rc"
grep -qx "blogsearch-index: removed feed maybe from $tmp/edit.toml (any posts it has stay searchable; to drop them, delete its folder maybe/ from the archive and run rebuild)" \
  "$tmp/remove.out" || fail "remove of a feed with no archive folder does not say how its posts go"
# Lines 10-16: the feed's own comment, its table and the comment inside it.
diff <(sed '10,16d' "$SOURCE_DIR/tests/e2e/feeds.d/commented.toml") "$tmp/edit.toml" ||
  fail "remove changed more than the feed's own lines"
feeds remove_last remove the-go-blog --config "$tmp/edit.toml"
# Its comment above it goes too, and the blank line that separated them.
diff <(sed '9,$d' "$SOURCE_DIR/tests/e2e/feeds.d/commented.toml") "$tmp/edit.toml" ||
  fail "removing the last feed left its lines or took others"
feeds remove_none remove nosuch --config "$tmp/edit.toml"
[ "$rc" -eq 2 ] && grep -q "no feed with id 'nosuch'" "$tmp/remove_none.err" || fail "removing an unknown id was not an error"
chmod 600 "$tmp/edit.toml"
feeds remove_mode remove pytorch --config "$tmp/edit.toml"
[ "$(stat -c %a "$tmp/edit.toml")" = 600 ] || fail "remove changed the file's permissions"
grep -q "Keep this comment" "$tmp/edit.toml" || fail "removing the first feed took the file's own comment"
[ -z "$(toml_feeds "$tmp/edit.toml")" ] || fail "feeds are left after removing all"
pass "remove: only the feed's lines go; comments, layout and permissions stay"

# ---- import and export --------------------------------------------------------------
cp "$SOURCE_DIR/tests/e2e/feeds.d/commented.toml" "$tmp/import.toml"
feeds import import "$SOURCE_DIR/tests/e2e/feeds.d/nested.opml" --config "$tmp/import.toml"
[ "$rc" -eq 3 ] || fail "an import with one non-http entry exited $rc, expected 3"
grep -q "5 feeds in .*nested.opml: 3 added to .*, 1 there already, 1 skipped" "$tmp/import.out" || fail "import does not count its entries"
grep -q "Not http.*ftp://files.example.org/feed.xml' is not an http(s) URL" "$tmp/import.err" || fail "the non-http entry is not named"
toml_feeds "$tmp/import.toml" >"$tmp/import.feeds"
diff - "$tmp/import.feeds" <<EOF2 || fail "imported feeds, their ids and categories are not as expected"
pytorch|https://pytorch.org/blog/feed/|PyTorch Blog||True
maybe|https://maybe.example.org/feed.xml|||False
the-go-blog|https://go.dev/blog/feed.atom|||True
loose-free|https://loose.example.org/rss|Loose & Free||True
kernel-digest|https://kernel.example.org/feed.atom|Kernel Digest|Tech|True
tensor-notes|https://tensor.example.org/index.xml|Tensor Notes|Tech/Machine learning|True
EOF2
case "$(cat "$tmp/import.toml")" in
  "$original"*) ;;
  *) fail "import changed what was in feeds.toml before" ;;
esac
feeds reimport import "$SOURCE_DIR/tests/e2e/feeds.d/nested.opml" --config "$tmp/import.toml"
grep -q ": 0 added to .*, 4 there already, 1 skipped" "$tmp/reimport.out" || fail "a second import added feeds again"
# URLs there already, or earlier in the same file, written another way.
cat >"$tmp/variants.opml" <<'OPML'
<opml version="2.0"><body>
<outline text="PyTorch, written another way" xmlUrl="HTTPS://PyTorch.org:443/blog/feed/#top"/>
<outline text="Tensor again" xmlUrl="https://tensor.example.org/index.xml?"/>
<outline text="New" xmlUrl="https://new.example.org/a%7ez/feed"/>
<outline text="New again" xmlUrl="https://NEW.example.org/a~z/feed#x"/>
</body></opml>
OPML
cp "$tmp/import.toml" "$tmp/variants.toml"
feeds variants import "$tmp/variants.opml" --config "$tmp/variants.toml"
[ "$rc" -eq 0 ] && grep -q ": 4 feeds in .*variants.opml: 1 added to .*, 3 there already, 0 skipped" "$tmp/variants.out" ||
  fail "an import did not count URLs written another way as there already"
printf '<opml version="2.0"><body><outline text="One" xmlUrl="https://one.example.org/feed"/></body></opml>\n' >"$tmp/one.opml"
feeds one import "$tmp/one.opml" --config "$tmp/variants.toml"
grep -q ": 1 feed in .*one.opml: 1 added to " "$tmp/one.out" || fail "an import of one feed does not say '1 feed'"

feeds export export --config "$tmp/import.toml"
[ "$rc" -eq 0 ] || fail "export exited $rc"
/usr/bin/python3 - "$tmp/export.out" <<'PY' || fail "the export is not OPML 2.0 with categories as nested folders"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "opml" and root.get("version") == "2.0", root.attrib
assert root.find("head/title") is not None and root.find("head/dateCreated") is not None
body = root.find("body")
top = [o.get("text") for o in body.findall("outline")]
assert top == ["PyTorch Blog", "maybe", "the-go-blog", "Loose & Free", "Tech"], top
tech = body.find("outline[@text='Tech']")
assert [o.get("xmlUrl") for o in tech.findall("outline")] == ["https://kernel.example.org/feed.atom", None]
ml = tech.find("outline[@text='Machine learning']")
assert [o.get("xmlUrl") for o in ml.findall("outline")] == ["https://tensor.example.org/index.xml"]
assert all(o.get("type") == "rss" for o in root.iter("outline") if o.get("xmlUrl"))
PY
feeds roundtrip import "$tmp/export.out" --config "$tmp/roundtrip.toml"
[ "$rc" -eq 0 ] || fail "importing the export exited $rc"
# The same URLs, titles (the id where feeds.toml has none) and categories.
/usr/bin/python3 - "$tmp/import.toml" "$tmp/roundtrip.toml" <<'PY' || fail "export then import does not give the same feeds and categories"
import sys, tomllib
a = {f["url"]: (f.get("title") or f["id"], f.get("category", "")) for f in tomllib.load(open(sys.argv[1], "rb"))["feed"]}
b = {f["url"]: (f.get("title", ""), f.get("category", "")) for f in tomllib.load(open(sys.argv[2], "rb"))["feed"]}
assert a == b, (a, b)
PY
printf '<opml version="2.0"><body><outline' >"$tmp/bad.opml"
feeds badopml import "$tmp/bad.opml" --config "$tmp/import.toml"
[ "$rc" -eq 2 ] && grep -q "bad.opml:1: not XML" "$tmp/badopml.err" || fail "a broken OPML file is not exit 2 naming it"
printf '<rss version="2.0"/>' >"$tmp/notopml.xml"
feeds notopml import "$tmp/notopml.xml" --config "$tmp/import.toml"
[ "$rc" -eq 2 ] && grep -q "not OPML" "$tmp/notopml.err" || fail "an XML file that is not OPML is not refused"
pass "import: nested folders become categories, duplicates and bad entries skipped; export round trip"

# ---- usage ---------------------------------------------------------------------------
feeds frob frobnicate
[ "$rc" -eq 2 ] && grep -q "unknown command 'frobnicate' (commands: add, list, remove, import, export" "$tmp/frob.err" ||
  fail "an unknown feeds command is not named with the real ones"
printf '[[feed]]\nid = "x"\nurl = "https://x.example.org/"\nurl = "again"\n' >"$tmp/invalid.toml"
feeds invalid add "$BASE/blog/feeds/main.xml" --config "$tmp/invalid.toml"
[ "$rc" -eq 2 ] && grep -q "invalid.toml:4" "$tmp/invalid.err" || fail "an invalid feeds.toml is not reported with its line"
pass "usage errors"

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "all feeds checks passed"
