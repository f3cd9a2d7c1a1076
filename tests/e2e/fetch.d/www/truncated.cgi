# Promises more bytes than it sends, then ends the connection (Connection: close
# makes lighttpd close it at once instead of at the keep-alive timeout).
echo "truncated.cgi" >>"$FIXTURE_STATE/requests.log"
f="$FIXTURE_STATE/good.xml"
size=$(stat -c %s "$f")
printf 'Status: 200\r\nContent-Type: application/rss+xml\r\nContent-Length: %d\r\nConnection: close\r\n\r\n' $((size * 2))
head -c $((size / 2)) "$f"
