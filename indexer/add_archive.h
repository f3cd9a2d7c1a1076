// add_archive.h: `add` puts what it ingests into the snapshot archive (copied, or hard-linked with --link).
//
// `rebuild` re-creates the database from the archive alone, so a snapshot
// that reached the database by `add` must be in the archive too, or a
// rebuild would drop its posts. copy_into_archive() writes each snapshot
// (its body, and its headers.json when it has one) into
// ARCHIVE/<feed id>/<observed time>.xml by the archive's rules
// (archive.h: atomic, and nothing written twice; with `link` the body is
// hard-linked from the file given when both are on one file system, so a
// file rewritten in place later would change the archived snapshot too:
// only for files nothing rewrites), and returns the snapshots
// with their paths in the archive, for the writer to record. A snapshot
// already in the archive, in its feed's folder, is left where it is. Feeds
// are archived side by side on a few threads, each feed's snapshots in
// their order by one of them.
//
// A snapshot whose folder names no feed gets the id the writer would give it
// (the feed's host, else "unknown"), so the archive's folder and the
// database agree. A file that cannot be read or is over max_body is left
// out of the archive and passed on as it is: the ingest reports it. Throws
// std::runtime_error naming the path when the archive cannot be written.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "indexer/snapshot.h"

namespace blogsearch {

struct ArchiveCopy {
  std::vector<Snapshot> snapshots;  // same order, paths in the archive
  // Archived path -> the path given, for messages: a warning names the
  // file the user gave, not its copy.
  std::unordered_map<std::string, std::string> given;
  long copied = 0;                  // written now
  long already = 0;                 // in the archive already (same body)
  long left_out = 0;                // unreadable or too large
  std::vector<std::string> written;  // the archived paths written now
};

// Takes out of the archive what copy_into_archive() wrote now for the
// snapshots the ingest could not take (IngestSummary::not_ingested: not a
// feed, unreadable), so that the archive holds what `add` ingested and
// `rebuild` does not meet the same error again. Returns how many were
// removed; a file that cannot be removed stays (it only costs a rebuild
// the same error).
long remove_not_ingested(ArchiveCopy& copy, const std::vector<std::string>& not_ingested);

// `message` with each archived path in it replaced by the path given.
std::string with_given_paths(const ArchiveCopy& copy, const std::string& archive_dir, std::string message);

ArchiveCopy copy_into_archive(const std::string& archive_dir, std::vector<Snapshot> snapshots,
                              std::size_t max_body, const ParseOptions& parse = {}, bool link = false);

}  // namespace blogsearch
