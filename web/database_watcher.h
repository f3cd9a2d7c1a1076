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
// A stub that lists several databases (shards) is followed through: the
// version file of each local one is stat'ed. One that cannot be stat'ed (a
// `remote` line: a shard served by xapian-tcpsrv) makes the state change
// every `stub_recheck` instead (default kStubRecheck), and after forget()
// (a failed request): the Searcher, and the answers cached for the state,
// are then at most that old, instead of the shards being opened again for
// every request.
//
// state() never throws (but bad_alloc); searcher() throws what the Searcher
// constructor throws (DatabaseUnavailable).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <ctime>
#include <optional>
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

// How long a Searcher over shards that cannot be stat'ed is kept.
inline constexpr std::chrono::milliseconds kStubRecheck{5000};

class DatabaseWatcher {
 public:
  // `searcher_cache_bytes`: SearcherOptions::cache_bytes of the Searchers;
  // `tables`: their SearcherOptions::tables (shared with other watchers);
  // `helpers`: their SearcherOptions::helpers.
  explicit DatabaseWatcher(std::size_t searcher_cache_bytes = 0,
                           std::chrono::milliseconds stub_recheck = kStubRecheck,
                           std::shared_ptr<RevisionTables> tables = nullptr, HelperHooks helpers = {});
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

  // How many Searchers it has opened.
  long opens() const { return opens_; }

 private:
  void drop();  // the Searcher, without starting a new period
  // The state of the databases a stub lists, one after the other.
  std::string shards_state(const std::string& dir, const std::string& stub_text);

  std::size_t searcher_cache_bytes_;
  std::chrono::milliseconds stub_recheck_;
  std::shared_ptr<RevisionTables> tables_;
  HelperHooks helpers_;
  long opens_ = 0;
  // For shards that cannot be stat'ed: the period the state is in.
  long epoch_ = 0;
  std::optional<std::chrono::steady_clock::time_point> epoch_start_;
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
    std::string text;  // the stub, when it names no single generation
  } stub_seen_;
};

}  // namespace blogsearch::web
