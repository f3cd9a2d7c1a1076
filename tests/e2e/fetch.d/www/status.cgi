# Answers with the HTTP status given as the query string (e.g. status.cgi?500).
echo "status.cgi ${QUERY_STRING:-}" >>"$FIXTURE_STATE/requests.log"
printf 'Status: %s\r\nContent-Type: text/plain\r\n\r\nstatus %s\n' "${QUERY_STRING:-500}" "${QUERY_STRING:-500}"
