// archive.h: keeping fetched snapshots on disk.
//
// ARCHIVE/<feed>/<UTC>.xml holds the body exactly as served (after content
// decoding) and <UTC>.headers.json what is known of the fetch, in the shape
// snapshot.h reads back (fetchedAt, observed_at, finalUrl, status, etag,
// lastModified, date, contentType, contentLength).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "indexer/fetch.h"
#include "indexer/snapshot.h"

namespace blogsearch {

struct ArchivedFile {
  std::string path;      // the .xml
  bool existed = false;  // the same body was already archived under this time
};

// Writes both files (each to a temporary name, then renamed, so a crash never
// leaves half a snapshot) and returns the path of the .xml. `extra` (a JSON
// object) is merged into the headers file, to say where a snapshot came from.
// When the file for this time, or the feed's newest archived file, already
// holds the same body nothing is written, so archiving the same thing twice
// (a re-run of import-git, a fetch run killed before it indexed) is a no-op.
// Temporary files left by a killed run are removed.
// Throws std::runtime_error naming the path when the disk refuses.
ArchivedFile archive_snapshot(const std::string& archive_dir, const FetchResponse& response,
                              const nlohmann::json& extra = nlohmann::json::object());

// What a fetch (or a committed version) tells of its snapshot: feed id,
// observed time, status, ETag, Last-Modified, final URL and Content-Type,
// as headers.json records them; no path yet. Never throws (but bad_alloc).
Snapshot snapshot_of(const FetchResponse& response);

// --archive, else $BLOGSEARCH_ARCHIVE, else $XDG_DATA_HOME/blogsearch/archive
// (~/.local/share/blogsearch/archive).
std::string resolve_archive_path(const std::string& from_option);

}  // namespace blogsearch
