#include "web/database_watcher.h"

#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "indexer/schema.h"

namespace blogsearch::web {

bool DiskState::operator==(const DiskState& o) const {
  return valid == o.valid && generation == o.generation && version_inode == o.version_inode &&
         version_mtime == o.version_mtime && version_mtime_ns == o.version_mtime_ns &&
         version_size == o.version_size;
}

DatabaseWatcher::DatabaseWatcher(std::size_t searcher_cache_bytes, std::chrono::milliseconds stub_recheck,
                                 std::shared_ptr<RevisionTables> tables, HelperHooks helpers)
    : searcher_cache_bytes_(searcher_cache_bytes),
      stub_recheck_(stub_recheck),
      tables_(std::move(tables)),
      helpers_(std::move(helpers)) {}

namespace {

// "inode:mtime:ns:size;" of a glass version file, "" when there is none;
// of a sharded generation, shard 0's (committed last, see state()).
std::string version_file_state(const std::string& dir) {
  struct stat st {};
  if (::stat((dir + "/iamglass").c_str(), &st) != 0 &&
      ::stat((dir + "/" + schema::kShardDirPrefix + "0/iamglass").c_str(), &st) != 0)
    return {};
  return std::to_string(st.st_ino) + ":" + std::to_string(st.st_mtim.tv_sec) + ":" +
         std::to_string(st.st_mtim.tv_nsec) + ":" + std::to_string(st.st_size) + ";";
}

}  // namespace

std::string DatabaseWatcher::shards_state(const std::string& dir, const std::string& stub_text) {
  std::string out;
  bool unstatable = false;
  std::istringstream lines(stub_text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string kind, target;
    if (!(words >> kind) || kind[0] == '#') continue;
    if ((kind != "auto" && kind != "glass") || !(words >> target)) {
      unstatable = true;  // remote, or a backend we cannot look into
      continue;
    }
    const std::string shard = target[0] == '/' ? target : dir + "/" + target;
    std::string state = version_file_state(shard);
    // A shard that is a blogsearch database: its live generation.
    if (state.empty()) {
      const std::string generation = schema::live_generation(shard);
      if (!generation.empty()) state = generation + "@" + version_file_state(shard + "/" + generation);
    }
    if (state.empty()) unstatable = true;
    out += state;
  }
  if (unstatable) {
    const auto now = std::chrono::steady_clock::now();
    if (!epoch_start_ || now - *epoch_start_ >= stub_recheck_) {
      ++epoch_;
      epoch_start_ = now;
    }
    out += "epoch " + std::to_string(epoch_);
  }
  return out;
}

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
      if (seen.generation.empty()) {
        std::ifstream in(stub);
        std::ostringstream text;
        text << in.rdbuf();
        seen.text = text.str();
      }
      stub_seen_ = seen;
    }
    s.generation = stub_seen_.generation;
    if (!s.generation.empty()) {
      dir = path + "/" + s.generation;
    } else if (!stub_seen_.text.empty()) {
      // Several databases (or remote ones): their states, one after the other.
      s.generation = "shards " + shards_state(path, stub_seen_.text);
      s.valid = true;
      return s;
    }
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
  if (searcher_ && (path != searcher_path_ || !now.valid || now != searcher_state_)) drop();
  if (!searcher_) {
    SearcherOptions options;
    options.cache_bytes = searcher_cache_bytes_;
    options.tables = tables_;
    options.helpers = helpers_;
    searcher_ = std::make_unique<Searcher>(path, options);
    ++opens_;
    searcher_path_ = path;
    searcher_state_ = now;
  }
  return *searcher_;
}

void DatabaseWatcher::forget() {
  epoch_start_.reset();  // shards that cannot be stat'ed: a new period, opened afresh
  drop();
}

void DatabaseWatcher::drop() {
  searcher_.reset();
  searcher_path_.clear();
  searcher_state_ = DiskState{};
}

}  // namespace blogsearch::web
