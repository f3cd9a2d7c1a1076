# Serves state/etag.xml with an ETag and no Last-Modified; answers 304 when
# If-None-Match matches. Logs what the client sent to state/requests.log.
f="$FIXTURE_STATE/etag.xml"
tag="\"$(md5sum <"$f" | cut -c1-16)\""
echo "etag.cgi inm=${HTTP_IF_NONE_MATCH:-} ims=${HTTP_IF_MODIFIED_SINCE:-} ae=${HTTP_ACCEPT_ENCODING:-} ua=${HTTP_USER_AGENT:-}" >>"$FIXTURE_STATE/requests.log"
if [ "${HTTP_IF_NONE_MATCH:-}" = "$tag" ]; then
  printf 'Status: 304\r\nETag: %s\r\n\r\n' "$tag"
  exit 0
fi
printf 'Status: 200\r\nContent-Type: application/rss+xml\r\nETag: %s\r\n\r\n' "$tag"
cat "$f"
