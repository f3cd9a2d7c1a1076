// ingest_options.h: what an ingest is told and what it reports.
//
// Given to Writer::ingest (writer.h) and passed on by update, rebuild and
// import-git. Plain data: nothing here throws.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "indexer/feed_parser.h"
#include "indexer/snapshot.h"

namespace blogsearch {

// 8 MiB. Measured (`rebuild`, peak RSS) on a generated 3,000-version
// history of one feed: 347 MB in one batch, 293 MB cut at 32 MiB,
// 169-185 MB at 8 (two runs) and 147 MB at 4, whose run took longer. Of blog-history's feeds
// one is cut: 942 snapshots holding 11 MiB.
inline constexpr std::size_t kDefaultBatchBytes = std::size_t{8} << 20;

struct IngestSummary {
  long snapshots_read = 0;
  long snapshots_skipped = 0;  // that snapshot (feed, time and body) was ingested before
  long items_seen = 0;
  long posts_added = 0;
  long posts_updated = 0;    // a new current version
  long posts_unchanged = 0;  // seen again with the same content (or only older content)
  long warnings = 0;
  long errors = 0;
  long batches = 0;  // the writer's batches (feed_batch.h): one per feed unless cut
  double seconds = 0;
  // The snapshots (paths as given) that could not be read or are not a
  // feed: nothing of them is in the database.
  std::vector<std::string> not_ingested;
};

struct IngestOptions {
  // Called with one-line messages ("warning: FILE: ...", "error: ...").
  std::function<void(const std::string&)> on_message;
  // Called after each snapshot is read and merged with (done, total), for a
  // progress line. This and on_message are called from the ingest's reading
  // thread (feed_batch.h), never at the same time, and not after ingest()
  // has returned or thrown.
  std::function<void(long, long)> on_progress;
  // Called after each document is written inside a feed's transaction, on
  // the caller's thread.
  // Anything it throws aborts that transaction like a crash would (tests use
  // this to check that a failed batch leaves the previous state).
  std::function<void()> on_document_written;
  // Called on a reading thread before the file of snapshot `index` (its
  // place in the vector given to Writer::ingest) is read: `add` waits there
  // until the snapshot is in the archive (add_archive.h). What it throws
  // ends the ingest: the open transaction is rolled back and ingest()
  // throws it.
  std::function<void(std::size_t index)> before_read;
  // Larger snapshot files are skipped with an error naming them (--max-body).
  std::size_t max_snapshot_bytes = kDefaultMaxSnapshotBytes;
  // The parser's bounds (max_items, max_text_bytes); each snapshot's URL,
  // charset and time are added to them (parse_options_for, snapshot.h).
  ParseOptions parse;
  // A run of one feed's snapshots is merged in memory as one batch until
  // the distinct contents it holds reach this many bytes; the feed's next
  // snapshots make another batch (feed_batch.h), so that memory does not
  // grow with a feed's history.
  std::size_t batch_bytes = kDefaultBatchBytes;
};

}  // namespace blogsearch
