#include "web/database_watcher.h"

#include <sys/stat.h>

#include "indexer/schema.h"

namespace blogsearch::web {

bool DiskState::operator==(const DiskState& o) const {
  return valid == o.valid && generation == o.generation && version_inode == o.version_inode &&
         version_mtime == o.version_mtime && version_mtime_ns == o.version_mtime_ns &&
         version_size == o.version_size;
}

DatabaseWatcher::DatabaseWatcher(std::size_t searcher_cache_bytes) : searcher_cache_bytes_(searcher_cache_bytes) {}
DatabaseWatcher::~DatabaseWatcher() = default;

DiskState DatabaseWatcher::state(const std::string& path) {
  DiskState s;
  std::string dir = path;
  struct stat st {};
  const std::string stub = path + "/" + schema::kStubFile;
  if (::stat(stub.c_str(), &st) == 0) {
    StubSeen seen{path, st.st_ino, st.st_mtim.tv_sec, st.st_mtim.tv_nsec, st.st_size, ""};
    if (!(seen.path == stub_seen_.path && seen.inode == stub_seen_.inode && seen.mtime == stub_seen_.mtime &&
          seen.mtime_ns == stub_seen_.mtime_ns && seen.size == stub_seen_.size)) {
      seen.generation = schema::live_generation(path);
      stub_seen_ = seen;
    }
    s.generation = stub_seen_.generation;
    if (!s.generation.empty()) dir = path + "/" + s.generation;
  }
  // A sharded generation (indexer/db_layout.h): shard 0 is committed last
  // at every commit of its writer, so its version file says when any shard
  // changed.
  if (::stat((dir + "/iamglass").c_str(), &st) != 0 &&
      ::stat((dir + "/" + schema::kShardDirPrefix + "0/iamglass").c_str(), &st) != 0)
    return s;
  s.valid = true;
  s.version_inode = st.st_ino;
  s.version_mtime = st.st_mtim.tv_sec;
  s.version_mtime_ns = st.st_mtim.tv_nsec;
  s.version_size = st.st_size;
  return s;
}

Searcher& DatabaseWatcher::searcher(const std::string& path) {
  DiskState now = state(path);
  if (searcher_ && (path != searcher_path_ || !now.valid || now != searcher_state_)) forget();
  if (!searcher_) {
    SearcherOptions options;
    options.cache_bytes = searcher_cache_bytes_;
    searcher_ = std::make_unique<Searcher>(path, options);
    searcher_path_ = path;
    searcher_state_ = now;
  }
  return *searcher_;
}

void DatabaseWatcher::forget() {
  searcher_.reset();
  searcher_path_.clear();
  searcher_state_ = DiskState{};
}

}  // namespace blogsearch::web
