# Writes small RSS 2.0 feeds for the e2e tests; sourced by them.
#
#   write_feed FILE NAME COUNT [WORD]
#
# COUNT items "NAME post 1..COUNT" with guids urn:NAME:1..COUNT; WORD, when
# given, appears in every item's text so a test can search for it.
write_feed() {
  local file=$1 name=$2 count=$3 word=${4:-}
  {
    printf '<?xml version="1.0" encoding="UTF-8"?>\n'
    printf '<rss version="2.0"><channel>\n<title>%s</title>\n<link>https://%s.example.org/</link>\n' "$name" "$name"
    printf '<description>Test feed %s</description>\n' "$name"
    local i
    for i in $(seq 1 "$count"); do
      printf '<item><title>%s post %d</title><link>https://%s.example.org/%d</link>' "$name" "$i" "$name" "$i"
      printf '<guid isPermaLink="false">urn:%s:%d</guid>' "$name" "$i"
      printf '<pubDate>Tue, %02d Sep 2026 10:00:00 +0000</pubDate>' $(( (i % 28) + 1 ))
      printf '<description>Post %d of %s about feeds and indexes. %s</description></item>\n' "$i" "$name" "$word"
    done
    printf '</channel></rss>\n'
  } >"$file"
}
