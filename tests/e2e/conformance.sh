#!/usr/bin/env bash
# Conformance of `blogsearch-index parse` with python3-feedparser, the
# reference implementation: (1) feedparser's own test feeds, field by field,
# at least 98% of applicable cases agreeing (exceptions and their reasons are
# listed in conformance_compare.py); (2) the real PyTorch blog snapshots, every
# post's title, link, id, authors, categories and published date exactly.
set -u

: "${BLOGSEARCH_INDEX:?set BLOGSEARCH_INDEX to the blogsearch-index binary}"
: "${SOURCE_DIR:?set SOURCE_DIR to the source tree}"
corpus="$SOURCE_DIR/../shared/corpus"
python=/usr/bin/python3
compare="$SOURCE_DIR/tests/e2e/conformance_compare.py"

if [ ! -d "$corpus/feedparser-tests" ] || [ ! -d "$corpus/pytorch-blog" ]; then
  echo "SKIP: $corpus (feedparser-tests, pytorch-blog) not found beside the source tree"
  exit 77
fi
if ! "$python" -c 'import feedparser' 2>/dev/null; then
  echo "SKIP: $python has no feedparser module (Debian package python3-feedparser)"
  exit 77
fi

rc=0
"$python" "$compare" suite "$BLOGSEARCH_INDEX" "$corpus/feedparser-tests" 98 || rc=1
"$python" "$compare" posts "$BLOGSEARCH_INDEX" "$corpus"/pytorch-blog/*.xml || rc=1
exit $rc
