# Serves state/cut.xml whole, or, when state/cut.mode says "cut", only its
# first 60% with no Content-Length (the feed's generator died half-way, so
# the transfer itself ends cleanly and only the document shows the loss).
echo "cut.cgi" >>"$FIXTURE_STATE/requests.log"
f="$FIXTURE_STATE/cut.xml"
printf 'Status: 200\r\nContent-Type: application/rss+xml\r\n\r\n'
if [ "$(cat "$FIXTURE_STATE/cut.mode" 2>/dev/null)" = cut ]; then
  head -c $(( $(stat -c %s "$f") * 6 / 10 )) "$f"
else
  cat "$f"
fi
