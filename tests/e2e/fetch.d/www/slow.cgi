# Takes longer than the tests' --timeout before answering.
echo "slow.cgi" >>"$FIXTURE_STATE/requests.log"
sleep "${QUERY_STRING:-5}"
printf 'Status: 200\r\nContent-Type: application/rss+xml\r\n\r\n'
cat "$FIXTURE_STATE/slow.xml"
