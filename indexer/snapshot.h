// snapshot.h: finding snapshot files and what is known of their fetch.
//
// A snapshot is a feed body (FILE.xml) plus, when present, FILE.headers.json
// beside it (fetchedAt/observed_at, finalUrl, status, etag, lastModified).
// Its observed time comes from the headers, else from a UTC timestamp in the
// file name (2026-09-02T013228Z, 20250902T085253Z), else from the mtime.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "indexer/post.h"

namespace blogsearch {

struct Snapshot {
  std::string path;      // the feed body file
  std::string feed_id;   // from --feed or the folder name; "" = use link host
  std::string feed_title;  // from feeds.toml; "" = the feed's own title
  Time observed = 0;     // unix seconds
  std::uintmax_t bytes = 0;  // file size when collected (0 = unknown)
  int status = 0;        // HTTP status when known, else 0
  std::string etag, last_modified, final_url;
};

// Expands files and directories (walked recursively, skipping
// *.headers.json and hidden files) into snapshots, grouped by feed (feeds
// with fewer snapshots first, then by id), each feed's in observed time then
// path order. `feed_override` (from --feed) wins over folder
// names. A path that does not exist or cannot be read adds a one-line message
// to `errors` and is skipped. Never throws (except std::bad_alloc).
std::vector<Snapshot> collect_snapshots(const std::vector<std::string>& paths,
                                        const std::string& feed_override,
                                        std::vector<std::string>& errors);

// A folder name or host turned into a feed id: lowercase [a-z0-9._-], other
// runs of characters become '-'. "" when nothing usable is left.
std::string feed_slug(const std::string& name);

// Reads a whole file. Throws std::runtime_error naming the path on failure.
std::string read_file(const std::string& path);

}  // namespace blogsearch
