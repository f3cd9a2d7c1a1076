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

struct IngestSummary {
  long snapshots_read = 0;
  long snapshots_skipped = 0;  // that snapshot (feed, time and body) was ingested before
  long items_seen = 0;
  long posts_added = 0;
  long posts_updated = 0;    // a new current version
  long posts_unchanged = 0;  // seen again with the same content (or only older content)
  long warnings = 0;
  long errors = 0;
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
  // Larger snapshot files are skipped with an error naming them (--max-body).
  std::size_t max_snapshot_bytes = kDefaultMaxSnapshotBytes;
  // The parser's bounds (max_items, max_text_bytes); each snapshot's URL,
  // charset and time are added to them (parse_options_for, snapshot.h).
  ParseOptions parse;
};

}  // namespace blogsearch
