// database_watcher.h: the open Searcher of a long-running CGI process, and
// whether the database on disk is still the one it reads.
//
// A glass database rewrites its version file "iamglass" (a new inode) at
// every commit; behind a XAPIANDB stub (a rebuilt database) the live
// generation is named in the stub, which a rebuild replaces by a rename;
// of a sharded generation, the version file of shard 0, which its writer
// commits last at every commit.
// DiskState captures both, at the cost of two stat calls per request (the
// stub is read again only when it changed). DatabaseWatcher opens a
// Searcher and opens it again whenever the DiskState of its path changed.
//
// state() never throws (but bad_alloc); searcher() throws what the Searcher
// constructor throws (DatabaseUnavailable).
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <ctime>
#include <memory>
#include <string>

#include "query/searcher.h"

namespace blogsearch::web {

// Identity of the database on disk: changes with every commit and switch.
struct DiskState {
  bool valid = false;  // false when there is no readable version file
  std::string generation;
  ino_t version_inode = 0;
  std::time_t version_mtime = 0;
  long version_mtime_ns = 0;
  off_t version_size = 0;
  bool operator==(const DiskState& o) const;
  bool operator!=(const DiskState& o) const { return !(*this == o); }
};

class DatabaseWatcher {
 public:
  // `searcher_cache_bytes`: SearcherOptions::cache_bytes of the Searchers.
  explicit DatabaseWatcher(std::size_t searcher_cache_bytes = 0);
  ~DatabaseWatcher();
  DatabaseWatcher(const DatabaseWatcher&) = delete;
  DatabaseWatcher& operator=(const DatabaseWatcher&) = delete;

  // What is on disk at `path` now.
  DiskState state(const std::string& path);

  // A Searcher of `path` as it is on disk now: the one kept when neither
  // the path nor its DiskState changed, else a newly opened one.
  Searcher& searcher(const std::string& path);

  // Drops the Searcher (after a failed search: the next one opens afresh).
  void forget();

 private:
  std::size_t searcher_cache_bytes_;
  std::unique_ptr<Searcher> searcher_;
  std::string searcher_path_;
  DiskState searcher_state_;
  // The XAPIANDB stub as last read, and the generation it named.
  struct StubSeen {
    std::string path;
    ino_t inode = 0;
    std::time_t mtime = 0;
    long mtime_ns = 0;
    off_t size = -1;
    std::string generation;
  } stub_seen_;
};

}  // namespace blogsearch::web
