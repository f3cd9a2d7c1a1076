#!/usr/bin/env bash
# The broken-feed suite (tests/feeds/broken, truth in expected.json) read by
# `blogsearch-index parse` and by python3-feedparser, the reference: prints
# both scores and the per-feed table, and fails unless blogsearch reads every
# feed right and more of them than feedparser.
set -u

: "${BLOGSEARCH_INDEX:?set BLOGSEARCH_INDEX to the blogsearch-index binary}"
: "${SOURCE_DIR:?set SOURCE_DIR to the source tree}"
python=/usr/bin/python3

if ! "$python" -c 'import feedparser' 2>/dev/null; then
  echo "SKIP: $python has no feedparser module (Debian package python3-feedparser)"
  exit 77
fi
exec "$python" "$SOURCE_DIR/tests/e2e/recovery.d/compare.py" "$BLOGSEARCH_INDEX" "$SOURCE_DIR/tests/feeds/broken"
