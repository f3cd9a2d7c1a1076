// snapshot.h: finding snapshot files and what is known of their fetch.
//
// A snapshot is a feed body (FILE.xml) plus, when present, FILE.headers.json
// beside it (fetchedAt/observed_at, finalUrl, status, etag, lastModified).
// Its observed time comes from the headers, else from a UTC timestamp in the
// file name (2026-09-02T013228Z, 20250902T085253Z), else from the mtime.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "indexer/feed_parser.h"
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
  std::string content_type;  // the HTTP Content-Type recorded, "" = unknown
  // The URL fetched (headers.json "url"), else the feed's url in
  // feeds.toml; finalUrl, when known, is the document's own URL instead.
  std::string url;
  // A FILE.headers.json was found beside it (and read into the fields
  // above): `add` looks for it again only then.
  bool has_headers = false;
};

// The charset parameter of a Content-Type ("text/xml; charset=gb2312" ->
// "gb2312"), "" when there is none. Never throws (except std::bad_alloc).
std::string charset_of(const std::string& content_type);

// What the parser is told of a snapshot (feed_parser.h): the document's own
// URL (finalUrl, else the URL fetched, else feeds.toml's), the HTTP charset
// and the observed time, on top of `options`.
ParseOptions parse_options_for(const Snapshot& snap, ParseOptions options = {});

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
// runs of characters become '-'. "" when nothing usable is left. A slug
// longer than schema::kMaxFeedIdBytes keeps its start and ends in a hash of
// the whole, so two long names stay two feeds.
std::string feed_slug(const std::string& name);

// Why `id` cannot be a feed id ("" when it can): not a slug, or too long.
std::string feed_id_problem(const std::string& id);

// The largest snapshot body read or fetched unless --max-body says otherwise.
constexpr std::size_t kDefaultMaxSnapshotBytes = std::size_t{32} << 20;

// Reads a whole file of at most max_bytes. Throws std::runtime_error naming
// the path when it cannot be read or is larger (nothing larger is held in
// memory).
std::string read_file(const std::string& path, std::size_t max_bytes = kDefaultMaxSnapshotBytes);

}  // namespace blogsearch
