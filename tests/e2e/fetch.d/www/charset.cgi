# Serves state/charset.xml with the Content-Type charset named in
# state/charset.name: the feed's own bytes declare nothing.
echo "charset.cgi" >>"$FIXTURE_STATE/requests.log"
printf 'Status: 200\r\nContent-Type: application/rss+xml; charset=%s\r\n\r\n' "$(cat "$FIXTURE_STATE/charset.name")"
cat "$FIXTURE_STATE/charset.xml"
