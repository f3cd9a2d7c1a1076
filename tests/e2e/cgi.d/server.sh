# Shell helpers shared by the CGI end-to-end tests (sourced, not run).
# start_server needs SOURCE_DIR and BLOGSEARCH_CGI.

# skip_unless BIN... [-- TOOL...]: exits 77 (the test is skipped, the
# reason printed) when a binary is not built or a tool is not installed.
skip_unless() {
  local item tools=0
  for item in "$@"; do
    if [ "$item" = -- ]; then tools=1; continue; fi
    if [ "$tools" = 0 ]; then
      [ -x "$item" ] || { echo "SKIP: $item is not built"; exit 77; }
    else
      command -v "$item" >/dev/null || { echo "SKIP: $item is not installed (run tools/setup)"; exit 77; }
    fi
  done
}

# A free TCP port on 127.0.0.1 (the kernel picks it; the small race with
# another process taking it before lighttpd does is reported as a failure
# to start).
free_port() {
  /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_server cgi|fastcgi DB LOG [TOOLS/SERVE OPTIONS...]: runs tools/serve
# in the background and waits (at most 10 s) until it answers. Sets
# server_pid and base_url.
start_server() {
  local mode=$1 db=$2 log=$3 port extra=()
  shift 3
  port=$(free_port)
  [ "$mode" = fastcgi ] && extra=(--fastcgi --procs 2)
  extra+=("$@")
  "$SOURCE_DIR/tools/serve" --port "$port" --db "$db" --cgi "$BLOGSEARCH_CGI" "${extra[@]}" >"$log" 2>&1 &
  server_pid=$!
  base_url="http://127.0.0.1:$port/search"
  local i
  for i in $(seq 100); do
    if curl -fsS -o /dev/null "$base_url?format=opensearch" 2>/dev/null; then return 0; fi
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "FAIL: tools/serve ($mode) did not answer on port $port:"
  cat "$log"
  return 1
}

stop_server() {
  if [ -n "${server_pid:-}" ]; then
    kill "$server_pid" 2>/dev/null
    wait "$server_pid" 2>/dev/null
    server_pid=""
  fi
}
