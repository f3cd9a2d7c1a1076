#!/usr/bin/env bash
# The Debian package: tools/package builds it and lintian reports no errors;
# `apt install ./blogsearch_*.deb` installs it with its dependencies,
# creates the blogsearch user and /var/lib/blogsearch, leaves the timer
# disabled; the packaged programs index data/ (as that user) and search it,
# the CGI answers; `apt remove` keeps the configuration and the state,
# `apt purge` removes both and leaves no file of the package.
# Runs as root where dpkg-buildpackage and apt are available, on a machine
# where no blogsearch package is installed, and when BLOGSEARCH_PACKAGE_TEST=1
# (.ci/run sets it): it builds the package from scratch (minutes) and
# installs it system-wide, which a developer's `tools/test` should not do
# unasked. Skips, saying why, otherwise. BLOGSEARCH_PACKAGE_DIR=DIR uses the
# package that `tools/package --out DIR` built instead of building one.
set -uo pipefail

: "${SOURCE_DIR:?SOURCE_DIR must name the repository root}"
skip() { echo "SKIP: $*"; exit 77; }
for tool in dpkg-buildpackage dh lintian apt-get; do
  command -v "$tool" >/dev/null || skip "$tool is not installed (tools/setup installs dpkg-dev, debhelper, lintian)"
done
[ "$(id -u)" -eq 0 ] || skip "installing the package needs root"
[ "${BLOGSEARCH_PACKAGE_TEST:-0}" = 1 ] ||
  skip "builds and installs a system package: set BLOGSEARCH_PACKAGE_TEST=1 to run it (.ci/run does)"
[ "${BLOGSEARCH_SANITIZE:-OFF}" = ON ] && skip "the package is built without sanitizers; tools/test (not --sanitize) runs this"

# One package test at a time on this machine (several checkouts may run
# their suites at once), and never over an install the test did not make.
exec 9>/var/lock/blogsearch-package-test.lock
flock -w 1800 9 || skip "another package test held the lock for 30 minutes"
dpkg-query -W -f='${Status}' blogsearch 2>/dev/null | grep -q 'installed' &&
  skip "a blogsearch package is installed here already; this test would replace it"
[ -e /var/lib/blogsearch ] || [ -e /etc/blogsearch ] &&
  skip "/var/lib/blogsearch or /etc/blogsearch exists (not from this test); purge would remove it"

tmp=$(mktemp -d)
cleanup() {
  dpkg-query -W -f='${Status}' blogsearch 2>/dev/null | grep -q 'installed' &&
    DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq blogsearch >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# ---- build and lint ------------------------------------------------------------
start=$SECONDS
if [ -n "${BLOGSEARCH_PACKAGE_DIR:-}" ]; then
  echo "using the package built in $BLOGSEARCH_PACKAGE_DIR"
  mkdir -p "$tmp/out" && cp "$BLOGSEARCH_PACKAGE_DIR"/blogsearch_*.deb "$BLOGSEARCH_PACKAGE_DIR/lintian.log" "$tmp/out/"
else
  "$SOURCE_DIR/tools/package" --out "$tmp/out" >"$tmp/package.log" 2>&1 || {
    echo "FAIL: tools/package:"; cat "$tmp/package.log"; exit 1; }
fi
deb=$(ls "$tmp"/out/blogsearch_*.deb)
[ -f "$deb" ] || { echo "FAIL: tools/package left no blogsearch_*.deb"; exit 1; }
errors=$(grep -c '^E:' "$tmp/out/lintian.log")
[ "$errors" -eq 0 ] && pass "$(basename "$deb") built or taken in $((SECONDS - start)) s; lintian: 0 errors, $(grep -c '^W:' "$tmp/out/lintian.log") warnings" ||
  fail "lintian: $(grep '^E:' "$tmp/out/lintian.log")"
deps=$(dpkg-deb -f "$deb" Depends)
for lib in libxapian libxml2 libcurl adduser; do
  grep -q "$lib" <<<"$deps" || fail "Depends lacks $lib: $deps"
done
contents=$(dpkg-deb -c "$deb" | awk '{print $6}')
for f in ./usr/bin/blogsearch ./usr/bin/blogsearch-index ./usr/lib/cgi-bin/blogsearch.cgi \
    ./usr/share/man/man1/blogsearch.1.gz ./usr/share/man/man8/blogsearch.cgi.8.gz \
    ./lib/systemd/system/blogsearch-fetch.service ./lib/systemd/system/blogsearch-fetch.timer \
    ./etc/blogsearch/feeds.toml ./usr/share/bash-completion/completions/blogsearch-index \
    ./usr/share/zsh/vendor-completions/_blogsearch ./usr/share/fish/vendor_completions.d/blogsearch.fish \
    ./usr/share/doc/blogsearch/examples/lighttpd.conf ./usr/share/doc/blogsearch/copyright; do
  grep -qx "$f" <<<"$contents" || fail "the package lacks $f"
done
pass "the package holds the programs, man pages, units, completions, feeds.toml, examples; Depends: $deps"

# ---- install --------------------------------------------------------------------
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" >"$tmp/apt.log" 2>&1 ||
  { echo "FAIL: apt-get install ./$(basename "$deb"):"; cat "$tmp/apt.log"; exit 1; }
dpkg-query -W -f='${Status}' blogsearch | grep -q 'install ok installed' || fail "not installed after apt-get install"
getent passwd blogsearch >/dev/null && [ "$(getent passwd blogsearch | cut -d: -f7)" = /usr/sbin/nologin ] ||
  fail "no blogsearch system user with no login shell: $(getent passwd blogsearch)"
for d in /var/lib/blogsearch /var/lib/blogsearch/db /var/lib/blogsearch/archive; do
  [ "$(stat -c '%U %a' "$d" 2>/dev/null)" = "blogsearch 755" ] || fail "$d is not blogsearch's, 0755: $(stat -c '%U %a' "$d" 2>&1)"
done
[ -e /etc/systemd/system/timers.target.wants/blogsearch-fetch.timer ] && fail "the timer was enabled"
state=$(systemctl is-enabled blogsearch-fetch.timer 2>/dev/null)
[ "$state" = disabled ] || fail "systemctl is-enabled blogsearch-fetch.timer: '$state'"
grep -qx 'ExecStart=/usr/bin/blogsearch-index fetch --config /etc/blogsearch/feeds.toml --quiet --wait 900' \
  /lib/systemd/system/blogsearch-fetch.service || fail "the packaged unit does not run /usr/bin/blogsearch-index"
pass "apt install: the blogsearch user, /var/lib/blogsearch/{db,archive}, the timer installed $state"

# ---- run ---------------------------------------------------------------------------
# As the service runs: the blogsearch user, its state directory.
mkdir -p "$tmp/data" && cp -r "$SOURCE_DIR/data/." "$tmp/data/" && chmod -R a+rX "$tmp"
as_service() { runuser -u blogsearch -- env BLOGSEARCH_DB=/var/lib/blogsearch/db BLOGSEARCH_ARCHIVE=/var/lib/blogsearch/archive "$@"; }
as_service /usr/bin/blogsearch-index add "$tmp/data" >"$tmp/add.log" 2>&1 || fail "blogsearch-index add as blogsearch: $(cat "$tmp/add.log")"
as_service /usr/bin/blogsearch-index fetch --config /etc/blogsearch/feeds.toml --feed none >"$tmp/fetch.log" 2>&1
grep -q "feed 'none' is not in /etc/blogsearch/feeds.toml" "$tmp/fetch.log" || fail "the packaged feeds.toml: $(cat "$tmp/fetch.log")"
ids=$(runuser -u nobody -- /usr/bin/blogsearch --db /var/lib/blogsearch/db --format ids 'title:helion' 2>&1)
[ "$ids" = "https://pytorch.org/?p=9000002" ] || fail "blogsearch (as another user) title:helion: '$ids'"
page=$(runuser -u nobody -- env -i BLOGSEARCH_DB=/var/lib/blogsearch/db REQUEST_METHOD=GET QUERY_STRING='q=helion&format=json' \
  GATEWAY_INTERFACE=CGI/1.1 SERVER_NAME=localhost SERVER_PORT=80 SCRIPT_NAME=/search /usr/lib/cgi-bin/blogsearch.cgi </dev/null)
grep -q '^Status: 200' <<<"$page" && grep -q '"https://pytorch.org/?p=9000002"' <<<"$page" || fail "the packaged CGI: ${page:0:300}"
man -w blogsearch-index >/dev/null 2>&1 || fail "man -w blogsearch-index finds no page"
pass "the packaged programs index data/ as blogsearch, search it as another user, the CGI answers"

# ---- remove, purge ---------------------------------------------------------------
DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq blogsearch >"$tmp/remove.log" 2>&1 || fail "apt-get remove: $(cat "$tmp/remove.log")"
[ -e /usr/bin/blogsearch ] && fail "apt-get remove left /usr/bin/blogsearch"
[ -f /etc/blogsearch/feeds.toml ] && [ -d /var/lib/blogsearch/db ] || fail "apt-get remove did not keep /etc/blogsearch and /var/lib/blogsearch"
DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq blogsearch >"$tmp/purge.log" 2>&1 || fail "apt-get purge: $(cat "$tmp/purge.log")"
dpkg-query -W -f='${Status}' blogsearch 2>/dev/null | grep -q 'installed' && fail "still installed after purge"
[ -e /etc/blogsearch ] && fail "purge left /etc/blogsearch"
[ -e /var/lib/blogsearch ] && fail "purge left /var/lib/blogsearch"
left=$(grep -v '^\./\(usr\|lib\|etc\)/\?$\|/$' <<<"$contents" | sed 's|^\.||' | while read -r f; do [ -e "$f" ] && echo "$f"; done)
[ -z "$left" ] || fail "purge left files of the package: $left"
pass "apt remove keeps /etc/blogsearch and /var/lib/blogsearch; apt purge removes them and every file"

if [ "$failures" -ne 0 ]; then
  echo "FAIL: $failures check(s) failed"
  exit 1
fi
echo "PASS: package"
