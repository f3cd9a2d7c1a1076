# A feed that moved: 301 (permanent) or, with ?temporary, 302 to static/moved.xml.
echo "moved.cgi ${QUERY_STRING:-}" >>"$FIXTURE_STATE/requests.log"
if [ "${QUERY_STRING:-}" = temporary ]; then
  printf 'Status: 302\r\nLocation: /static/moved.xml\r\n\r\n'
else
  printf 'Status: 301\r\nLocation: /static/moved.xml\r\n\r\n'
fi
