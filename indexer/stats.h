// stats.h: what a database holds, for `blogsearch-index stats`.
#pragma once

#include <string>
#include <vector>

#include "indexer/post.h"

namespace blogsearch {

struct FeedStats {
  std::string id, title, url;
  long posts = 0;
  long in_feed = 0;
  std::string oldest, newest;  // RFC 3339 of published dates, "" if none
  std::string last_ingest;     // RFC 3339, "" if never
  // What `fetch` last recorded; fetched = false when it never ran for this feed.
  bool fetched = false;
  std::string fetch_url, final_url, last_attempt, last_success, last_error;
  int last_status = 0;
  long consecutive_failures = 0;
};

struct ShardStats {
  std::string path;
  long documents = 0;
};

struct DatabaseStats {
  std::string path;
  long documents = 0;  // over all shards
  long copies = 0;     // posts that are copies of another (schema::kMetaCopies), shown once by searches
  // The shards (db_layout.h), shard 0 first; one for the layout from before
  // shards and for a database that is not blogsearch's.
  std::vector<ShardStats> shards;
  std::string layout;  // "sharded" (", ids from before..." when not interleaved), "single" (before shards), "plain"
  long long size_bytes = 0;
  int schema_version = 0;
  std::vector<FeedStats> feeds;
};

// Opens `path` read-only (all shards together: counts are summed, metadata
// is shard 0's). Throws DatabaseError (writer.h) when it cannot.
// Without `with_ranges` only the metadata and post counts are read (no
// in-feed counts, date ranges or size, which read every post).
DatabaseStats read_stats(const std::string& path, bool with_ranges = true);

}  // namespace blogsearch
