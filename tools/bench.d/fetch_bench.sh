#!/usr/bin/env bash
# Fetch benchmark against a local lighttpd (127.0.0.1, so every feed is on
# one host and the per-host limit of 2 parallel requests applies):
#   1. 200 feeds where nothing changed: every answer is a 304 (goal < 2 s);
#   2. 200 feeds where everything changed, served from real snapshots
#      (../shared/corpus/blog-history.tar.xz and pytorch-blog/): fetch time
#      against ingest time.
#   tools/bench.d/fetch_bench.sh [BUILD_DIR]     (default: build)
# Prints one "fetch_bench:" line per measurement.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
bin="$build/blogsearch-index"
[ -x "$bin" ] || { echo "fetch_bench: build $bin first (cmake --build build --target blogsearch-index)" >&2; exit 2; }
shared="$root/../shared/corpus"
export SOURCE_DIR=$root
# shellcheck source=../../tests/e2e/fetch.d/server.sh
source "$root/tests/e2e/fetch.d/server.sh"
# shellcheck source=../../tests/e2e/fetch.d/feeds.sh
source "$root/tests/e2e/fetch.d/feeds.sh"

tmp=$(mktemp -d)
trap 'server_stop; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/www/static"
server_start "$tmp/srv" "$tmp/www"

now() { date +%s.%N; }
secs() { /usr/bin/python3 -c "import sys; print('%.2f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$1" "$2"; }
# run NAME ARGS...: fetch, output in $tmp/NAME.out, wall time in $wall.
run() {
  local name=$1 t0
  shift
  t0=$(now)
  "$bin" fetch "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || true
  wall=$(secs "$t0" "$(now)")
}
# "N feeds checked in F s: ...; ... in I s" -> "F I"
fetch_ingest() { sed -n 's/.* checked in \([0-9.]*\) s: .* in \([0-9.]*\) s$/\1 \2/p' "$1"; }

# ---- 1. nothing changed ---------------------------------------------------------
: >"$tmp/small.toml"
for i in $(seq -w 1 200); do
  write_feed "$tmp/www/static/feed-$i.xml" "bench$i" 10
  printf '[[feed]]\nid = "feed-%s"\nurl = "%s/static/feed-%s.xml"\n' "$i" "$BASE" "$i" >>"$tmp/small.toml"
done
run small_first --config "$tmp/small.toml" --db "$tmp/small-db" --archive "$tmp/small-archive"
read -r f i <<<"$(fetch_ingest "$tmp/small_first.out")"
echo "fetch_bench: 200 small feeds, first run (all new, 2,000 posts): ${wall} s wall, fetch $f s, ingest $i s"
run small_304 --config "$tmp/small.toml" --db "$tmp/small-db" --archive "$tmp/small-archive"
grep -q '0 new, 200 not modified' "$tmp/small_304.out" || { echo "fetch_bench: expected 200 x 304:"; cat "$tmp/small_304.out"; exit 1; }
read -r f i <<<"$(fetch_ingest "$tmp/small_304.out")"
echo "fetch_bench: 200 feeds, nothing changed (all 304): ${wall} s wall, fetch $f s (goal < 2 s)"

# ---- 2. everything changed, real snapshots --------------------------------------
if [ ! -f "$shared/blog-history.tar.xz" ]; then
  echo "fetch_bench: skipping the real-snapshot run: $shared/blog-history.tar.xz not found"
  exit 0
fi
tar -xJf "$shared/blog-history.tar.xz" -C "$tmp"
# 400 distinct snapshots spread evenly over the corpus (name order), plus the
# PyTorch blog's three: feed k serves one in the first run and the next in the
# second.
find "$tmp/blog-history" -name '*.xml' | sort >"$tmp/all.txt"
/usr/bin/python3 - "$tmp/all.txt" >"$tmp/picked.txt" <<'PY'
import sys
files = open(sys.argv[1]).read().split()
step = len(files) / 398.0
for k in range(398):
    print(files[int(k * step)])
PY
pt=$(find "$shared/pytorch-blog" -name '*.xml' | sort)
{ echo "$pt" | sed -n 1p; cat "$tmp/picked.txt"; echo "$pt" | sed -n 2p; } >"$tmp/order.txt"
mapfile -t files <"$tmp/order.txt"
n=$(( ${#files[@]} / 2 ))
: >"$tmp/real.toml"
serve() {  # ROUND: feed k serves files[2k + ROUND]
  local k
  for k in $(seq 0 $((n - 1))); do
    cp "${files[$((2 * k + $1))]}" "$tmp/www/static/real-$k.xml"
  done
}
for k in $(seq 0 $((n - 1))); do
  printf '[[feed]]\nid = "real-%03d"\nurl = "%s/static/real-%s.xml"\n' "$k" "$BASE" "$k" >>"$tmp/real.toml"
done
serve 0
bytes=$(cat "$tmp"/www/static/real-*.xml | wc -c)
run real_first --config "$tmp/real.toml" --db "$tmp/real-db" --archive "$tmp/real-archive"
read -r f i <<<"$(fetch_ingest "$tmp/real_first.out")"
echo "fetch_bench: $n real feeds, first run ($((bytes / 1000000)) MB): ${wall} s wall, fetch $f s, ingest $i s"
sed 's/^/  /' "$tmp/real_first.out"
serve 1
sleep 1  # a new second, so Last-Modified moves on even where a file is the same size
run real_changed --config "$tmp/real.toml" --db "$tmp/real-db" --archive "$tmp/real-archive"
read -r f i <<<"$(fetch_ingest "$tmp/real_changed.out")"
echo "fetch_bench: $n real feeds, all changed: ${wall} s wall, fetch $f s, ingest $i s"
sed 's/^/  /' "$tmp/real_changed.out"
