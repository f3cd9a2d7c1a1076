// update.h: the scheduled job: fetch every configured feed, archive what is
// new, index it, and record per-feed fetch state in the database metadata.
//
// One bad feed never stops the others: its error is recorded in its state and
// in the outcome. Throws DatabaseError (writer.h) only when the database
// itself fails.
#pragma once

#include <string>
#include <vector>

#include "indexer/feeds_config.h"
#include "indexer/fetch.h"
#include "indexer/writer.h"

namespace blogsearch {

struct UpdateOptions {
  std::string archive_dir;
  FetchOptions fetch;
  IngestOptions ingest;
};

struct FeedOutcome {
  std::string id;
  std::string result;  // "new", "unchanged", "not modified", "failed"
  int status = 0;
  std::string error;
  std::string snapshot;  // archived file, for "new"
};

struct UpdateSummary {
  std::vector<FeedOutcome> feeds;
  long new_snapshots = 0, not_modified = 0, unchanged = 0, failed = 0;
  IngestSummary ingest;
  double fetch_seconds = 0, ingest_seconds = 0;
};

// `feeds` are the enabled feeds to poll.
UpdateSummary update_feeds(Writer& writer, const std::vector<FeedConfig>& feeds, const UpdateOptions& options);

}  // namespace blogsearch
