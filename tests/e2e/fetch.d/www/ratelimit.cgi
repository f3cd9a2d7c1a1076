# The first request gets 429 with Retry-After: 1, the next ones the feed.
n=$(cat "$FIXTURE_STATE/ratelimit.count" 2>/dev/null || echo 0)
echo $((n + 1)) >"$FIXTURE_STATE/ratelimit.count"
echo "ratelimit.cgi $(date +%s.%N)" >>"$FIXTURE_STATE/requests.log"
if [ "$n" -eq 0 ]; then
  printf 'Status: 429\r\nRetry-After: 1\r\nContent-Type: text/plain\r\n\r\nslow down\n'
  exit 0
fi
printf 'Status: 200\r\nContent-Type: application/rss+xml\r\n\r\n'
cat "$FIXTURE_STATE/ratelimit.xml"
