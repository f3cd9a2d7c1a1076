# Holds the request for 0.6 s, logging when it started and ended, then
# serves state/hold-<QUERY_STRING>.xml: the log shows how many requests ran
# at once, per host.
echo "hold.cgi start ${HTTP_HOST%%:*} $(date +%s.%N)" >>"$FIXTURE_STATE/requests.log"
sleep 0.6
echo "hold.cgi end ${HTTP_HOST%%:*} $(date +%s.%N)" >>"$FIXTURE_STATE/requests.log"
printf 'Status: 200\r\nContent-Type: application/rss+xml\r\n\r\n'
cat "$FIXTURE_STATE/hold-$QUERY_STRING.xml"
