# Starts and stops a lighttpd on 127.0.0.1 for the e2e tests; sourced by them.
#
#   server_start DIR DOCROOT   config, logs and pid in DIR; sets $PORT and $BASE
#   server_stop                stops it (call from the test's EXIT trap)
#
# The port is asked from the kernel (bind to port 0) and lighttpd retried on
# another one if something took it in between.

server_pid=""

server_start() {
  local dir=$1 docroot=$2 attempt
  mkdir -p "$dir/state"
  for attempt in 1 2 3 4 5; do
    PORT=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    sed -e "s|@DOCROOT@|$docroot|g" -e "s|@PORT@|$PORT|g" -e "s|@DIR@|$dir|g" \
      "$SOURCE_DIR/tests/e2e/fetch.d/lighttpd.conf.in" >"$dir/lighttpd.conf"
    lighttpd -D -f "$dir/lighttpd.conf" >>"$dir/lighttpd.out" 2>&1 &
    server_pid=$!
    local i
    for i in $(seq 1 50); do
      if curl -s -o /dev/null "http://127.0.0.1:$PORT/"; then
        BASE="http://127.0.0.1:$PORT"
        return 0
      fi
      kill -0 "$server_pid" 2>/dev/null || break
      sleep 0.1
    done
    server_stop
  done
  echo "FAIL: lighttpd did not start (see $dir/lighttpd.out)" >&2
  cat "$dir/lighttpd.out" >&2 || true
  return 1
}

server_stop() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
  fi
}
