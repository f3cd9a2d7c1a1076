// add_archive.cc: snapshots given to `add`, written into the archive.
#include "indexer/add_archive.h"

#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "indexer/archive.h"
#include "indexer/feed_parser.h"
#include "indexer/read_ahead.h"
#include "indexer/url.h"

namespace blogsearch {
namespace fs = std::filesystem;

namespace {

// The headers.json beside `path` as it is; null when there is none
// (collect_snapshots saw none: Snapshot::has_headers).
nlohmann::json headers_beside(const Snapshot& snap) {
  if (!snap.has_headers) return nullptr;
  fs::path headers = snap.path;
  headers.replace_extension(".headers.json");
  std::ifstream in(headers);
  if (!in) return nullptr;
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  return j.is_object() ? j : nlohmann::json::object();
}

// The size of `path` when it is a regular file we may read, of at most
// `max_body` bytes; else nullopt (read_file then says what is wrong).
std::optional<std::uintmax_t> readable_regular_size(const std::string& path, std::size_t max_body) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || ::access(path.c_str(), R_OK) != 0)
    return std::nullopt;
  if (st.st_size < 0 || static_cast<std::uintmax_t>(st.st_size) > max_body) return std::nullopt;
  return static_cast<std::uintmax_t>(st.st_size);
}

// Whether a snapshot's file is in the archive's folder for its feed
// already. The folders are resolved once each, not every file's path: a
// backfill has thousands of files in a few folders, and resolving a path
// costs a readlink(2) per component. (A file that is itself a symbolic
// link into the archive is found by Archive::place instead, as holding
// the same body.)
class InArchive {
 public:
  explicit InArchive(const std::string& archive_dir) {
    std::error_code ec;
    archive_ = fs::weakly_canonical(archive_dir, ec);
    usable_ = !ec;
  }
  bool operator()(const std::string& path, const std::string& feed_id) {
    if (!usable_) return false;
    const std::string parent = fs::path(path).parent_path().string();
    auto it = folders_.find(parent);
    if (it == folders_.end()) {
      std::error_code ec;
      fs::path resolved = fs::weakly_canonical(parent, ec);
      it = folders_.emplace(parent, ec ? std::string() : resolved.string()).first;
    }
    return !it->second.empty() && it->second == (archive_ / feed_id).string();
  }

 private:
  fs::path archive_;
  bool usable_ = false;
  std::unordered_map<std::string, std::string> folders_;  // folder -> resolved, "" if it cannot be
};

// Archives one snapshot of a known feed and points it at its archived file.
void archive_one(Archive& archive, InArchive& in_archive, Snapshot& snap, std::size_t max_body, bool link,
                 ArchiveCopy& out) {
  if (in_archive(snap.path, snap.feed_id)) {
    out.already++;
    return;
  }
  // With `link` a regular file is linked, not read (Archive::link);
  // anything else is read first.
  const std::optional<std::uintmax_t> size = link ? readable_regular_size(snap.path, max_body) : std::nullopt;
  FetchResponse r;
  if (!size) try {
      r.body = read_file(snap.path, max_body);
    } catch (const std::exception&) {
      out.left_out++;
      return;
    }
  r.feed_id = snap.feed_id;
  r.status = snap.status;
  r.final_url = snap.final_url;
  r.etag = snap.etag;
  r.last_modified = snap.last_modified;
  r.content_type = snap.content_type;
  r.fetched_at = snap.observed;
  // What the file's own headers say stays (the URL fetched, the Date
  // header...); the time is the one it was read with, whatever gave it.
  // Without headers nothing is known but the time, which the archived
  // file's name holds: one file written, not two (a backfill of
  // thousands of files spends its time creating them).
  nlohmann::json extra = headers_beside(snap);
  const bool with_headers = !extra.is_null();
  if (with_headers) {
    extra.erase("fetched_at");
    extra.erase("fetchedAt");
    extra.erase("observed_at");
    extra["added_from"] = snap.path;
  }
  if (!with_headers) extra = nlohmann::json::object();
  std::optional<ArchivedFile> linked;
  if (size) {
    linked = archive.link(r, snap.path, *size, extra, with_headers);
    if (!linked) try {
        r.body = read_file(snap.path, max_body);
      } catch (const std::exception&) {
        out.left_out++;
        return;
      }
  }
  const ArchivedFile file = linked ? *linked : archive.put(r, extra, with_headers);
  (file.existed ? out.already : out.copied)++;
  if (!file.existed) out.written.push_back(file.path);
  out.given.add(file.path, snap.path);
  snap.path = file.path;
}

}  // namespace

void assign_feed_ids(std::vector<Snapshot>& snapshots, std::size_t max_body, const ParseOptions& parse) {
  for (Snapshot& snap : snapshots) {
    if (!snap.feed_id.empty()) continue;
    // What the writer does with such a snapshot (feed_batch.cc).
    try {
      const std::string body = read_file(snap.path, max_body);
      snap.feed_id = feed_slug(url_host(parse_feed(body, snap.path, parse_options_for(snap, parse)).link));
    } catch (const std::exception&) {
    }
    if (snap.feed_id.empty()) snap.feed_id = "unknown";
  }
}

void copy_into_archive(const std::string& archive_dir, std::vector<Snapshot>& snapshots, std::size_t max_body,
                       ArchiveCopy& out, bool link, const std::function<bool(std::size_t)>& on_archived) {
  Archive archive(archive_dir);
  InArchive in_archive(archive_dir);
  for (std::size_t i = 0; i < snapshots.size(); ++i) {
    archive_one(archive, in_archive, snapshots[i], max_body, link, out);
    if (archive.created_folders().size() != out.created_folders.size())
      out.created_folders = archive.created_folders();
    if (on_archived && !on_archived(i)) return;
  }
}

long remove_not_ingested(ArchiveCopy& copy, const std::vector<std::string>& not_ingested) {
  const std::unordered_set<std::string> failed(not_ingested.begin(), not_ingested.end());
  long removed = 0;
  for (const std::string& path : copy.written) {
    if (!failed.count(path)) continue;
    std::error_code ec;
    fs::path headers = path;
    headers.replace_extension(".headers.json");
    fs::remove(headers, ec);
    if (fs::remove(path, ec)) {
      removed++;
      copy.copied--;
    }
  }
  // A folder made for files that all failed would stay as an empty feed.
  for (const std::string& folder : copy.created_folders) {
    std::error_code ec;
    if (fs::is_empty(folder, ec) && !ec) fs::remove(folder, ec);
  }
  return removed;
}

void GivenPaths::add(const std::string& archived, const std::string& given) {
  std::lock_guard<std::mutex> lock(mutex_);
  given_.emplace(archived, given);
}

std::string GivenPaths::rewrite(const std::string& archive_dir, std::string message) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (given_.empty()) return message;
  std::error_code ec;
  const std::string prefix = (fs::absolute(archive_dir, ec).lexically_normal()).string();
  // Messages name a file as "PATH: ..." (or end with it).
  for (std::size_t at = message.find(prefix); at != std::string::npos; at = message.find(prefix, at + 1)) {
    std::size_t end = message.find(".xml", at);
    for (std::size_t e = at; (e = message.find(": ", e)) != std::string::npos; ++e) {
      auto it = given_.find(message.substr(at, e - at));
      if (it != given_.end()) {
        message.replace(at, e - at, it->second);
        end = std::string::npos;
        break;
      }
    }
    if (end != std::string::npos) {
      auto it = given_.find(message.substr(at, end + 4 - at));
      if (it != given_.end()) message.replace(at, end + 4 - at, it->second);
    }
  }
  return message;
}

void ArchiveGate::settled(std::size_t index) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    settled_[index] = true;
  }
  changed_.notify_all();
}

void ArchiveGate::fail(std::exception_ptr error) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    error_ = error;
  }
  changed_.notify_all();
}

void ArchiveGate::wait(std::size_t index) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return settled_[index] || error_ || stop_; });
  if (!settled_[index] && error_) std::rethrow_exception(error_);
}

void ArchiveGate::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
}

bool ArchiveGate::stopped() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stop_;
}

BackgroundArchive::BackgroundArchive(const std::string& archive_dir, std::vector<Snapshot>& snapshots,
                                     std::size_t max_body, bool link)
    : gate_(snapshots.size()) {
  thread_ = std::thread([this, archive_dir, &snapshots, max_body, link] {
    yield_to_writer();  // like the readers: the writer's thread comes first
    try {
      copy_into_archive(archive_dir, snapshots, max_body, copy_, link, [this](std::size_t i) {
        gate_.settled(i);
        return !gate_.stopped();
      });
    } catch (const std::exception& e) {
      gate_.fail(std::make_exception_ptr(ArchiveError(e.what())));
    }
  });
}

BackgroundArchive::~BackgroundArchive() { finish(); }

ArchiveCopy& BackgroundArchive::finish() {
  gate_.stop();
  if (thread_.joinable()) thread_.join();
  return copy_;
}

}  // namespace blogsearch
