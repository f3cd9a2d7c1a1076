# Serves state/gzip.xml compressed, with Content-Encoding: gzip.
echo "gzip.cgi ae=${HTTP_ACCEPT_ENCODING:-}" >>"$FIXTURE_STATE/requests.log"
printf 'Status: 200\r\nContent-Type: application/rss+xml\r\nContent-Encoding: gzip\r\n\r\n'
gzip -c <"$FIXTURE_STATE/gzip.xml"
