# Serves state/lastmod.xml with a Last-Modified (its mtime) and no ETag;
# answers 304 when If-Modified-Since is not older.
f="$FIXTURE_STATE/lastmod.xml"
mtime=$(date -u -r "$f" +%s)
echo "lastmod.cgi inm=${HTTP_IF_NONE_MATCH:-} ims=${HTTP_IF_MODIFIED_SINCE:-}" >>"$FIXTURE_STATE/requests.log"
if [ -n "${HTTP_IF_MODIFIED_SINCE:-}" ]; then
  since=$(date -u -d "$HTTP_IF_MODIFIED_SINCE" +%s 2>/dev/null || echo 0)
  if [ "$since" -ge "$mtime" ]; then
    printf 'Status: 304\r\n\r\n'
    exit 0
  fi
fi
printf 'Status: 200\r\nContent-Type: application/rss+xml\r\nLast-Modified: %s\r\n\r\n' \
  "$(date -u -d "@$mtime" '+%a, %d %b %Y %H:%M:%S GMT')"
cat "$f"
