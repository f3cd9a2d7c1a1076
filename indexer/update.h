// update.h: the scheduled job: fetch every configured feed, archive what is
// new, index it, and record per-feed fetch state in the database metadata.
//
// One bad feed never stops the others: its error is recorded in its state and
// in the outcome. Throws DatabaseError (writer.h) only when the database
// itself fails.
#pragma once

#include <functional>
#include <memory>
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

// `feeds` are the enabled feeds to poll. The downloads run without the
// database's write lock (what is known of each feed is read from the
// database at `db_path` when it exists); `open_writer` is called after them
// to take it, and whatever it throws (DatabaseLocked) is passed on, with
// nothing archived or written.
UpdateSummary update_feeds(const std::string& db_path, const std::vector<FeedConfig>& feeds,
                           const UpdateOptions& options, const std::function<std::unique_ptr<Writer>()>& open_writer);

}  // namespace blogsearch
