// archive.h: keeping fetched snapshots on disk.
//
// ARCHIVE/<feed>/<UTC>.xml holds the body exactly as served (after content
// decoding) and <UTC>.headers.json what is known of the fetch, in the shape
// snapshot.h reads back (fetchedAt, observed_at, finalUrl, status, etag,
// lastModified, date, contentType, contentLength).
#pragma once

#include <string>

#include "indexer/fetch.h"

namespace blogsearch {

// Writes both files (each to a temporary name, then renamed, so a crash never
// leaves half a snapshot) and returns the path of the .xml. Throws
// std::runtime_error naming the path when the disk refuses.
std::string archive_snapshot(const std::string& archive_dir, const FetchResponse& response);

// --archive, else $BLOGSEARCH_ARCHIVE, else $XDG_DATA_HOME/blogsearch/archive
// (~/.local/share/blogsearch/archive).
std::string resolve_archive_path(const std::string& from_option);

}  // namespace blogsearch
