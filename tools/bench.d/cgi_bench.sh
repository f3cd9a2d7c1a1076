#!/usr/bin/env bash
# Web benchmark (issue 5): wrk against one lighttpd on 127.0.0.1 serving,
# side by side, blogsearch.cgi as CGI, blogsearch.cgi as FastCGI, and
# Omega's CGI (xapian-omega) over an omindex database of the same posts,
# all over the blog-history corpus; the same queries, a bounded duration
# each. Prints requests per second and the ratios to Omega's CGI
# (goals: CGI >= 2x, FastCGI >= 20x).
#   tools/bench.d/cgi_bench.sh [--duration SECONDS] [--connections N]
#                              [--build DIR] [--markdown FILE] [--snapshots DIR]
#   --duration S     wrk run per target and query (default 10)
#   --connections N  concurrent connections (default 4; wrk uses 2 threads)
#   --build DIR      where to make the Release build (default build-bench/)
#   --markdown FILE  also write the table there
#   --snapshots DIR  the blog-history snapshots, already extracted (tools/bench)
# Needs ../shared/corpus/blog-history.tar.xz beside the source tree (else
# says so and exits 77), lighttpd, wrk and xapian-omega (tools/setup).
set -euo pipefail
cd "$(dirname "$0")/../.."
src=$PWD
python=/usr/bin/python3
duration=10 connections=4 build=$src/build-bench markdown="" snapshots=""
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration=${2:?}; shift ;;
    --connections) connections=${2:?}; shift ;;
    --build) build=${2:?}; shift ;;
    --markdown) markdown=${2:?}; shift ;;
    --snapshots) snapshots=${2:?}; shift ;;
    -h|--help) sed -n '2,17s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "cgi_bench: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

corpus=$src/../shared/corpus/blog-history.tar.xz
[ -n "$snapshots" ] || [ -f "$corpus" ] || { echo "cgi_bench: skipped: $corpus not found"; exit 77; }
omega_cgi=/usr/lib/cgi-bin/omega/omega
omega_templates=/var/lib/xapian-omega/templates
for tool in lighttpd wrk omindex "$omega_cgi" "$python"; do
  command -v "$tool" >/dev/null || { echo "cgi_bench: $tool missing: run tools/setup" >&2; exit 2; }
done

echo "== Release build in $build"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DBLOGSEARCH_TESTS=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target blogsearch-index blogsearch.cgi >/dev/null

work=$(mktemp -d "${TMPDIR:-/tmp}/blogsearch-cgi-bench.XXXXXX")
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

if [ -z "$snapshots" ]; then
  echo "== extracting $(basename "$corpus")"
  tar -xJf "$corpus" -C "$work"
  snapshots=$work/blog-history
fi
echo "== indexing $snapshots"
"$build/blogsearch-index" add -q --db "$work/db" "$snapshots" >"$work/add.log" 2>&1 ||
  { cat "$work/add.log"; exit 1; }
tail -1 "$work/add.log"

# Omega's copy of the same posts, made as tools/bench's search benchmark does.
echo "== omindex of the same posts"
"$python" "$src/tools/bench.d/posts_export.py" --db "$work/db" --html "$work/html" --sqlite "$work/posts.sqlite"
mkdir -p "$work/omega/db" "$work/omega/log" "$work/omega/cdb"
omindex --db "$work/omega/db/posts" --url /posts/ "$work/html" >/dev/null
cat >"$work/omega.conf" <<CONF
database_dir $work/omega/db
template_dir $omega_templates
log_dir $work/omega/log
cdb_dir $work/omega/cdb
CONF

port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$work/htdocs"
# Two FastCGI processes per CPU, as tools/serve starts by default. (While
# every answer waited for lighttpd to close the connection, one per CPU left
# a CPU idle a fifth of the time; since requests without a body are closed
# at once, one, two and four per CPU measure the same.)
procs=$(( 2 * $(nproc) ))
cat >"$work/lighttpd.conf" <<CONF
server.bind = "127.0.0.1"
server.port = $port
server.document-root = "$work/htdocs"
server.errorlog = "$work/error.log"
server.modules += ("mod_alias", "mod_cgi", "mod_fastcgi", "mod_setenv")
setenv.set-environment = ("BLOGSEARCH_DB" => "$work/db", "OMEGA_CONFIG_FILE" => "$work/omega.conf")
alias.url = ("/cgi" => "$build/blogsearch.cgi", "/omega" => "$omega_cgi")
cgi.assign = ("" => "")
fastcgi.server = (
  "/fcgi" => ((
    "bin-path" => "$build/blogsearch.cgi",
    "socket" => "$work/fcgi.sock",
    "min-procs" => $procs, "max-procs" => $procs,
    "bin-environment" => ("BLOGSEARCH_DB" => "$work/db"),
    "check-local" => "disable"
  )),
  "/nocache" => ((
    "bin-path" => "$build/blogsearch.cgi",
    "socket" => "$work/fcgi-nocache.sock",
    "min-procs" => $procs, "max-procs" => $procs,
    "bin-environment" => ("BLOGSEARCH_DB" => "$work/db", "BLOGSEARCH_CGI_CACHE" => "0"),
    "check-local" => "disable"
  ))
)
CONF
lighttpd -D -f "$work/lighttpd.conf" &
server=$!
base=http://127.0.0.1:$port
for _ in $(seq 100); do curl -fsS -o /dev/null "$base/fcgi?format=opensearch" 2>/dev/null && break; sleep 0.1; done

# label|blogsearch q|Omega P (same words, AND for both)
queries=("one word|python|python" "two words|datasette+plugin|datasette+plugin" "phrase|%22prompt+injection%22|%22prompt+injection%22")
url_for() {  # url_for TARGET QUERY
  case "$1" in
    omega) echo "$base/omega?DB=posts&DEFAULTOP=and&P=$2" ;;
    *) echo "$base/$1?q=$2" ;;
  esac
}

echo "== checking every target answers"
for target in cgi fcgi nocache omega; do
  for spec in "${queries[@]}"; do
    IFS='|' read -r label q p <<<"$spec"
    [ "$target" = omega ] && q=$p
    code=$(curl -sS -o "$work/check.html" -w '%{http_code}' "$(url_for "$target" "$q")")
    if [ "$code" != 200 ] || [ ! -s "$work/check.html" ]; then
      echo "cgi_bench: $target answers $code to $label"; cat "$work/error.log" >&2; exit 1
    fi
  done
done

declare -A rps
echo "== wrk: $duration s per target and query, $connections connections, 2 threads"
for spec in "${queries[@]}"; do
  IFS='|' read -r label q p <<<"$spec"
  # Interleave targets per query so other load on the machine falls alike.
  for target in omega cgi nocache fcgi; do
    qq=$q; [ "$target" = omega ] && qq=$p
    out=$(wrk -t2 -c"$connections" -d"${duration}s" --timeout 10s "$(url_for "$target" "$qq")")
    r=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
    bad=$(awk '/Non-2xx or 3xx responses:/ {print $NF}' <<<"$out")
    errors=$(awk '/Socket errors:/ {print}' <<<"$out")
    if [ -n "$bad" ] || [ -n "$errors" ]; then
      echo "cgi_bench: $target $label: ${bad:-0} non-2xx responses ${errors}" >&2
    fi
    rps[$target,$label]=$r
    printf '  %-10s %-13s %10s req/s\n' "$label" "$target" "$r"
  done
done

table=$work/table.md
{
  echo "Requests per second through lighttpd on 127.0.0.1 (wrk, 2 threads, $connections connections, ${duration} s each; $(nproc) CPUs):"
  echo
  echo "| query | Omega CGI | blogsearch.cgi CGI | FastCGI, no cache | FastCGI | CGI / Omega | FastCGI no cache / Omega | FastCGI / Omega |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  for spec in "${queries[@]}"; do
    IFS='|' read -r label q p <<<"$spec"
    o=${rps[omega,$label]} c=${rps[cgi,$label]} f=${rps[fcgi,$label]} n=${rps[nocache,$label]}
    awk -v l="$label" -v q="$(printf '%b' "${q//%/\\x}" | tr + ' ')" -v o="$o" -v c="$c" -v f="$f" -v n="$n" \
      'BEGIN { printf "| %s: `%s` | %.0f | %.0f | %.0f | %.0f | %.2fx | %.1fx | %.1fx |\n", l, q, o, c, n, f, c / o, n / o, f / o }'
  done
  echo
  echo "Goals (issue 5): CGI >= 2x Omega's CGI, FastCGI >= 20x Omega's CGI."
  echo "blogsearch pages carry facets over the whole match set and a month histogram; Omega's default 'query' template."
  echo "FastCGI keeps answers until the index changes (BLOGSEARCH_CGI_CACHE); wrk repeats one URL, so that column"
  echo "measures the cache; 'no cache' runs every search."
} >"$table"
echo
cat "$table"
[ -n "$markdown" ] && cp "$table" "$markdown"
exit 0
