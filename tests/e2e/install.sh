#!/usr/bin/env bash
# `cmake --install` into a temporary prefix (and with DESTDIR): every file in
# its place, the units and snippets filled in with that prefix's paths, the
# installed programs index and search data/, the CGI answers behind lighttpd
# through the installed snippet, the man pages pass `mandoc -T lint` and
# render with man, and every command and option of each program's --help is
# in its man page and its completions (help_coverage.py).
# Needs BUILD_DIR (the build to install), CMAKE, SOURCE_DIR.
set -uo pipefail

: "${SOURCE_DIR:?SOURCE_DIR must name the repository root}" "${BUILD_DIR:?}" "${CMAKE:?}"
[ -x "$BUILD_DIR/blogsearch" ] || { echo "SKIP: $BUILD_DIR is not built"; exit 77; }
for tool in mandoc man lighttpd curl; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed (run tools/setup)"; exit 77; }
done

tmp=$(mktemp -d)
server_pid=""
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# ---- 1. cmake --install --prefix P ------------------------------------------
P=$tmp/prefix
"$CMAKE" --install "$BUILD_DIR" --prefix "$P" >"$tmp/install.log" 2>&1 || {
  echo "FAIL: cmake --install failed:"; cat "$tmp/install.log"; exit 1; }
expected=(
  bin/blogsearch bin/blogsearch-index lib/cgi-bin/blogsearch.cgi
  share/man/man1/blogsearch.1 share/man/man1/blogsearch-index.1 share/man/man8/blogsearch.cgi.8
  share/bash-completion/completions/blogsearch share/bash-completion/completions/blogsearch-index
  share/zsh/site-functions/_blogsearch share/zsh/site-functions/_blogsearch-index
  share/fish/vendor_completions.d/blogsearch.fish share/fish/vendor_completions.d/blogsearch-index.fish
  lib/systemd/system/blogsearch-fetch.service lib/systemd/system/blogsearch-fetch.timer
  share/doc/blogsearch/examples/feeds.toml share/doc/blogsearch/examples/blogsearch.cron
  share/doc/blogsearch/examples/lighttpd.conf share/doc/blogsearch/examples/apache.conf
  share/doc/blogsearch/examples/nginx.conf
)
missing=0
for f in "${expected[@]}"; do
  [ -f "$P/$f" ] || { fail "not installed: $f"; missing=1; }
done
for f in bin/blogsearch bin/blogsearch-index lib/cgi-bin/blogsearch.cgi; do
  [ -x "$P/$f" ] || fail "not executable: $f"
done
extra=$(cd "$P" && find . -type f | sed 's|^\./||' | sort | comm -23 - <(printf '%s\n' "${expected[@]}" | sort))
[ -z "$extra" ] || fail "installed but not expected (add to this list and to the docs): $extra"
[ "$missing" = 0 ] && pass "cmake --install --prefix: ${#expected[@]} files in place"
[ "$missing" = 0 ] || { echo "FAIL: $failures check(s) failed"; exit 1; }

# The same with DESTDIR, for a /usr prefix: configuration goes to /etc.
DESTDIR=$tmp/dest "$CMAKE" --install "$BUILD_DIR" --prefix /usr >"$tmp/install2.log" 2>&1 || fail "DESTDIR install failed"
grep -q "^ExecStart=/usr/bin/blogsearch-index fetch --config /etc/blogsearch/feeds.toml " \
  "$tmp/dest/usr/lib/systemd/system/blogsearch-fetch.service" 2>/dev/null &&
  grep -q '"/usr/lib/cgi-bin/blogsearch.cgi"' "$tmp/dest/usr/share/doc/blogsearch/examples/lighttpd.conf" ||
  fail "DESTDIR=… --prefix /usr: the unit or the lighttpd snippet lacks /usr/bin, /etc, /usr/lib/cgi-bin"
[ -x "$tmp/dest/usr/bin/blogsearch" ] && pass "DESTDIR install with --prefix /usr: /usr/bin, /etc/blogsearch, /usr/lib/cgi-bin"

# ---- 2. the filled-in units, cron line and snippets -----------------------
unit=$P/lib/systemd/system/blogsearch-fetch.service
ex=$P/share/doc/blogsearch/examples
grep -n '@[A-Z_]*@' "$unit" "$P/lib/systemd/system/blogsearch-fetch.timer" "$ex"/* && fail "a placeholder is left"
grep -qx "ExecStart=$P/bin/blogsearch-index fetch --config $P/etc/blogsearch/feeds.toml --quiet --wait 900" "$unit" ||
  fail "ExecStart does not use the prefix's paths: $(grep ExecStart "$unit")"
grep -qx 'Environment=BLOGSEARCH_DB=/var/lib/blogsearch/db' "$unit" || fail "the unit's database is not in its StateDirectory"
grep -qx 'SystemCallFilter=@system-service' "$unit" || fail "configure_file ate the unit's @system-service"
grep -q "$P/bin/blogsearch-index fetch --config $P/etc/blogsearch/feeds.toml" "$ex/blogsearch.cron" || fail "cron line paths"
for f in lighttpd.conf apache.conf nginx.conf; do
  grep -q "$P/lib/cgi-bin/blogsearch.cgi" "$ex/$f" || fail "$f does not name the installed CGI"
done
if command -v systemd-analyze >/dev/null; then
  # verify checks the syntax and that ExecStart's program exists.
  MANPATH=$P/share/man systemd-analyze verify "$unit" "$P/lib/systemd/system/blogsearch-fetch.timer" >"$tmp/verify.log" 2>&1 ||
    fail "systemd-analyze verify: $(cat "$tmp/verify.log")"
else
  echo "SKIP (part): no systemd-analyze: the units are not verified"
fi
grep -q '^\[Install\]' "$unit" && fail "the service has an [Install] section (only the timer is enabled)"
grep -qx 'WantedBy=timers.target' "$P/lib/systemd/system/blogsearch-fetch.timer" || fail "the timer is not WantedBy=timers.target"
pass "the units, the cron line and the web server snippets name the prefix's paths"

# ---- 3. the installed programs on data/ ------------------------------------
db=$tmp/db
env -i PATH=/usr/bin:/bin HOME="$tmp" "$P/bin/blogsearch-index" add --db "$db" "$SOURCE_DIR/data" >"$tmp/add.out" 2>&1 ||
  fail "installed blogsearch-index add data/: $(cat "$tmp/add.out")"
out=$(env -i PATH=/usr/bin:/bin HOME="$tmp" "$P/bin/blogsearch" --db "$db" --format ids 'title:helion')
[ "$out" = "https://pytorch.org/?p=9000002" ] || fail "installed blogsearch title:helion gave '$out'"
stats=$("$P/bin/blogsearch-index" stats --db "$db" 2>&1)
grep -q 'pytorch' <<<"$stats" || fail "installed blogsearch-index stats: $stats"
cp "$ex/feeds.toml" "$tmp/feeds.toml"
"$P/bin/blogsearch-index" fetch --config "$tmp/feeds.toml" --feed no-such-feed --db "$db" --archive "$tmp/archive" \
  >"$tmp/fetch.out" 2>&1
# Loaded and checked (an unknown key or a bad value names its line), then
# refused for naming no feed of it: no network needed.
grep -q "feed 'no-such-feed' is not in $tmp/feeds.toml" "$tmp/fetch.out" ||
  fail "the example feeds.toml does not load cleanly: $(cat "$tmp/fetch.out")"
pass "the installed blogsearch-index and blogsearch index and search data/; the example feeds.toml loads"

# The installed CGI behind lighttpd, configured by the installed snippet
# (its database path pointed at this test's).
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$tmp/htdocs"
cat >"$tmp/lighttpd.conf" <<CONF
server.bind = "127.0.0.1"
server.port = $port
server.document-root = "$tmp/htdocs"
server.errorlog = "$tmp/lighttpd.err"
include "$tmp/snippet.conf"
CONF
sed "s|/var/lib/blogsearch/db|$db|" "$ex/lighttpd.conf" >"$tmp/snippet.conf"
if lighttpd -tt -f "$tmp/lighttpd.conf" >"$tmp/lighttpd.check" 2>&1; then
  lighttpd -D -f "$tmp/lighttpd.conf" >"$tmp/lighttpd.out" 2>&1 &
  server_pid=$!
  page=""
  for _ in $(seq 50); do
    page=$(curl -fsS "http://127.0.0.1:$port/search?q=helion&format=json" 2>/dev/null) && break
    sleep 0.1
  done
  grep -q '"https://pytorch.org/?p=9000002"' <<<"$page" &&
    pass "lighttpd with the installed snippet serves the installed CGI at /search" ||
    fail "lighttpd + installed snippet: /search?q=helion gave '${page:0:200}' $(cat "$tmp/lighttpd.err" 2>/dev/null)"
  kill "$server_pid"; wait "$server_pid" 2>/dev/null; server_pid=""
else
  fail "lighttpd rejects the installed snippet: $(cat "$tmp/lighttpd.check")"
fi

# ---- 4. man pages ------------------------------------------------------------
for page in "$P"/share/man/man1/*.1 "$P"/share/man/man8/*.8; do
  lint=$(mandoc -T lint -W warning "$page" 2>&1) || fail "mandoc -T lint $(basename "$page"): $lint"
  rendered=$(MANWIDTH=80 man -l "$page" 2>"$tmp/man.err" | col -b)
  grep -q '^NAME' <<<"$rendered" && grep -q '^SYNOPSIS' <<<"$rendered" && grep -q '^EXIT STATUS' <<<"$rendered" ||
    fail "man -l $(basename "$page") does not render NAME, SYNOPSIS, EXIT STATUS"
  [ -s "$tmp/man.err" ] && fail "man -l $(basename "$page") warns: $(cat "$tmp/man.err")"
done
(export MANPATH=$P/share/man; man -w blogsearch.cgi >/dev/null && man -w blogsearch-index >/dev/null) ||
  fail "man -w does not find the pages under the prefix's share/man"
pass "man pages: mandoc -T lint clean, rendered by man, found in the prefix's MANPATH"

# ---- 5. commands and options of --help in man pages and completions --------
comp=$P/share
for prog in blogsearch blogsearch-index; do
  section=1
  /usr/bin/python3 "$SOURCE_DIR/tests/e2e/help_coverage.py" "$P/bin/$prog" "$P/share/man/man$section/$prog.$section" \
    "$comp/bash-completion/completions/$prog" "$comp/zsh/site-functions/_$prog" \
    "$comp/fish/vendor_completions.d/$prog.fish" >"$tmp/coverage.out" 2>&1 &&
    pass "$(tail -1 "$tmp/coverage.out")" ||
    fail "$prog --help vs man page and completions:
$(cat "$tmp/coverage.out")"
done
if command -v zsh >/dev/null; then
  for f in "$comp"/zsh/site-functions/_*; do
    zsh -n "$f" || fail "zsh -n $f"
  done
  # compinit registers the installed functions for the commands.
  out=$(HOME=$tmp zsh -fc "fpath=($comp/zsh/site-functions \$fpath); autoload -Uz compinit; compinit -u -d $tmp/zcomp;
    print -r -- \$_comps[blogsearch] \$_comps[blogsearch-index]")
  [ "$out" = "_blogsearch _blogsearch-index" ] || fail "zsh compinit does not register the completions: '$out'"
else
  echo "SKIP (part): zsh is not installed: its completions are only checked as text"
fi

if [ "$failures" -ne 0 ]; then
  echo "FAIL: $failures check(s) failed"
  exit 1
fi
echo "PASS: install"
