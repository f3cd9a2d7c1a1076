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
};

struct DatabaseStats {
  std::string path;
  long documents = 0;
  long long size_bytes = 0;
  int schema_version = 0;
  std::vector<FeedStats> feeds;
};

// Opens `path` read-only. Throws DatabaseError (writer.h) when it cannot.
DatabaseStats read_stats(const std::string& path);

}  // namespace blogsearch
