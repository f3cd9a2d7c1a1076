#!/usr/bin/env bash
# The encoding matrix (tests/e2e/encoding.d/matrix.tsv: declared label x
# actual bytes x BOM x HTTP charset) read by `blogsearch-index parse` and by
# python3-feedparser, the reference. Prints both scores; fails unless
# blogsearch is right at least as often as feedparser and right on every row
# whose bytes alone determine the text.
set -u

: "${BLOGSEARCH_INDEX:?set BLOGSEARCH_INDEX to the blogsearch-index binary}"
: "${SOURCE_DIR:?set SOURCE_DIR to the source tree}"
python=/usr/bin/python3
here="$SOURCE_DIR/tests/e2e/encoding.d"

if ! "$python" -c 'import feedparser' 2>/dev/null; then
  echo "SKIP: $python has no feedparser module (Debian package python3-feedparser)"
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" "$here/matrix_compare.py" "$BLOGSEARCH_INDEX" "$here/matrix.tsv" "$work"
