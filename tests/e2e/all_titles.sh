#!/usr/bin/env bash
# Every title of blog-history as the query (issue 16): its post, or a post
# with the same title, must rank first for at least 99.5% of them, one-word
# titles included. Titles that differ only in case, punctuation, emoji or
# spacing ("Scroll-driven animations 💎" and "Scroll-Driven Animations", the
# same article in a blog and its newsletter) are the same title: no query
# can tell them apart. The strict figure (this very post first) is printed
# too. Posts are listed through blogsearch itself (JSON output), from year 1.
set -euo pipefail
shared="$SOURCE_DIR/../shared/corpus"
if [ ! -f "$shared/blog-history.tar.xz" ]; then
  echo "SKIP: $shared/blog-history.tar.xz not found (../shared is only present in CI and dev sessions)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xJf "$shared/blog-history.tar.xz" -C "$tmp"
"$BLOGSEARCH_INDEX" add --quiet --db "$tmp/db" "$tmp/blog-history" >/dev/null

/usr/bin/python3 - "$BLOGSEARCH" "$tmp/db" <<'PY'
import json, subprocess, sys, unicodedata

# Titles that differ only in case, punctuation, emoji or spacing are the
# same title ("Scroll-driven animations 💎", "Scroll-Driven Animations").
def same_title(a, b):
    def words(t):
        out, word = [], ""
        for ch in t.lower():
            if unicodedata.category(ch)[0] in "LNM" or ch == "_":
                word += ch
            elif word:
                out.append(word); word = ""
        return out + ([word] if word else [])
    return words(a) == words(b)

blogsearch, db = sys.argv[1], sys.argv[2]
goal = 0.005

def run(*args):
    p = subprocess.run([blogsearch, "--db", db, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr

posts, page = [], 1
# Years before 1970 (a build that cannot read them lists from 1970).
since = "0001" if run("--count", "--since", "0001", "--")[0] in (0, 1) else "1970"
while True:
    rc, out, err = run("--since", since, "--sort", "date", "--reverse", "--format", "json",
                       "--limit", "1000", "--page", str(page), "--")
    if rc not in (0, 1):
        sys.exit(f"FAIL: listing posts failed ({rc}): {err.strip()}")
    results = json.loads(out)["results"]
    if not results:
        break
    posts += results
    page += 1
titled = [p for p in posts if p["title"].strip()]
print(f"posts in the index: {len(posts)}, with a title: {len(titled)}")
ok = strict = 0
misses = []
for p in titled:
    rc, out, err = run("--format", "json", "--limit", "1", "--", p["title"])
    first = json.loads(out)["results"][:1] if rc in (0, 1) and out.strip() else []
    if first and first[0]["id"] == p["id"]:
        strict += 1
    if first and (first[0]["id"] == p["id"] or same_title(first[0]["title"], p["title"])):
        ok += 1
    else:
        misses.append((p["title"], err.strip().splitlines()[0] if err.strip() else
                       (first[0]["title"] if first else "no results")))
n = len(titled)
rate = len(misses) / n
print(f"titles whose post (or a post of the same title) ranks first: {ok}/{n}; "
      f"misses {len(misses)} = {rate:.2%} (strictly this post: {strict}/{n})")
for t, why in misses[:40]:
    print(f"  miss: {t!r} -> {why!r}")
passed = n >= 1000 and rate <= goal
print("PASS" if passed else f"FAIL: more than {goal:.1%} of the titles missed, or fewer than 1,000 titles")
sys.exit(0 if passed else 1)
PY
