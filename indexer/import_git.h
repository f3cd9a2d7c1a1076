// import_git.h: backfilling the archive from a git-scraping repository.
//
// Some people archive a feed by committing it to git on a schedule ("git
// scraping"): every commit that touched the file is one fetch. This module
// turns each committed version of that file into a snapshot observed at the
// commit time, in commit order, with the `headers.json` committed beside the
// file (same folder, same commit) when there is one, and writes it into the
// archive like `fetch` would, so a later `rebuild` sees it too.
//
// git runs as a subprocess (`git log`, `git cat-file --batch-check` for the
// sizes, then `git cat-file --batch` for at most kGitReadBytes of versions
// at a time); nothing is changed in the repository. The archived versions
// are handed to on_chunk in chunks of at most `chunk_versions` versions and
// kChunkBytes of bodies, in commit order, as soon as each chunk is
// archived: the caller ingests each (the database is a function of the set
// of snapshots, writer.h, so chunking does not change it) and memory does
// not grow with the length of the history. import_git_history throws ImportError with a
// one-line message when git cannot run, REPO is not a repository or PATH was
// never committed; a version that is not a feed (an HTML error page, an
// empty file) is reported through on_message, counted in not_feeds and
// skipped; one that could not be read (not a file, over --max-body) is
// counted in unreadable. Archive write failures throw
// std::runtime_error naming the path.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "indexer/snapshot.h"

namespace blogsearch {

class ImportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Versions handed to on_chunk at once, by default (--chunk).
constexpr std::size_t kDefaultImportChunk = 500;
// A chunk ends before its bodies pass this many bytes (and holds at least
// one version).
constexpr std::size_t kChunkBytes = std::size_t{128} << 20;
// The versions read from one `git cat-file --batch` (at least one).
constexpr std::size_t kGitReadBytes = std::size_t{16} << 20;

struct ImportGitOptions {
  std::string repo;         // work tree or bare repository
  std::string path;         // the feed file, relative to the repository root
  std::string feed_id;      // "" = the name of the folder holding `path`
  std::string archive_dir;  // where the versions are written
  std::string git = "git";  // the program to run
  std::size_t max_body_bytes = kDefaultMaxSnapshotBytes;  // larger versions are skipped
  std::function<void(const std::string&)> on_message;  // one-line warnings
  std::size_t chunk_versions = kDefaultImportChunk;    // at least 1
  // Called with each chunk of archived versions, and the number of
  // versions in the history (for a progress line); what it throws ends the
  // import and is thrown on.
  std::function<void(std::vector<Snapshot>&&, long versions)> on_chunk;
};

struct ImportGitResult {
  std::string feed_id;
  long snapshots = 0;               // versions handed to on_chunk
  long chunks = 0;                  // calls of on_chunk
  long versions = 0;                // commits that changed `path`
  long archived = 0;                // written to the archive now
  long already_archived = 0;        // found there from an earlier import
  long with_headers = 0;            // had a headers.json beside them
  long not_feeds = 0;               // empty, or not a feed (an error page): skipped
  long unreadable = 0;              // not a file, or over max_body_bytes: skipped
};

ImportGitResult import_git_history(const ImportGitOptions& options);

}  // namespace blogsearch
