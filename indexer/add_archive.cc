// add_archive.cc: snapshots given to `add`, written into the archive.
#include "indexer/add_archive.h"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "indexer/archive.h"
#include "indexer/feed_parser.h"
#include "indexer/ordered_pool.h"
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

}  // namespace

namespace {

// What one thread archived: counts, and the paths it wrote and was given.
struct Part {
  long copied = 0, already = 0, left_out = 0;
  std::vector<std::string> written;
  std::vector<std::pair<std::string, std::string>> given;  // archived path, path given
};

// Archives one snapshot of a known feed and points it at its archived file.
void archive_one(Archive& archive, InArchive& in_archive, Snapshot& snap, std::size_t max_body, bool link,
                 Part& out) {
  if (in_archive(snap.path, snap.feed_id)) {
    out.already++;
    return;
  }
  // With `link` a regular file is linked, not read (Archive::link);
  // anything else is read first, as the writer will.
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
  out.given.emplace_back(file.path, snap.path);
  snap.path = file.path;
}

}  // namespace

ArchiveCopy copy_into_archive(const std::string& archive_dir, std::vector<Snapshot> snapshots, std::size_t max_body,
                              const ParseOptions& parse, bool link) {
  ArchiveCopy out;
  // A snapshot whose folder names no feed gets the id the writer would
  // give it (feed_batch.cc), from its own content.
  std::vector<bool> unreadable(snapshots.size(), false);
  for (std::size_t i = 0; i < snapshots.size(); ++i) {
    Snapshot& snap = snapshots[i];
    if (!snap.feed_id.empty()) continue;
    try {
      const std::string body = read_file(snap.path, max_body);
      try {
        snap.feed_id = feed_slug(url_host(parse_feed(body, snap.path, parse_options_for(snap, parse)).link));
      } catch (const std::exception&) {
      }
    } catch (const std::exception&) {
      unreadable[i] = true;
      out.left_out++;
    }
    if (snap.feed_id.empty()) snap.feed_id = "unknown";
  }
  // Each feed's folder is written by one thread, in the snapshots' order;
  // the feeds are shared out among a few threads, so that the disk's work
  // of a backfill (creating thousands of files) runs on every core.
  std::map<std::string, std::vector<std::size_t>> by_feed;
  for (std::size_t i = 0; i < snapshots.size(); ++i)
    if (!unreadable[i]) by_feed[snapshots[i].feed_id].push_back(i);
  std::vector<const std::vector<std::size_t>*> feeds;
  for (const auto& [id, indexes] : by_feed) feeds.push_back(&indexes);
  std::stable_sort(feeds.begin(), feeds.end(), [](auto* a, auto* b) { return a->size() > b->size(); });
  const std::size_t threads = std::max<std::size_t>(1, std::min(pool_threads(), feeds.size()));
  std::vector<std::vector<const std::vector<std::size_t>*>> shares(threads);
  std::vector<std::size_t> load(threads, 0);
  for (auto* feed : feeds) {  // the largest feeds first, each to the least loaded thread
    const std::size_t t = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    shares[t].push_back(feed);
    load[t] += feed->size();
  }
  std::error_code ec;
  fs::create_directories(archive_dir, ec);  // before the threads make their folders in it
  std::vector<Part> parts(threads);
  std::vector<std::exception_ptr> errors(threads);
  auto work = [&](std::size_t t) {
    try {
      Archive archive(archive_dir);
      InArchive in_archive(archive_dir);
      for (auto* feed : shares[t])
        for (std::size_t i : *feed) archive_one(archive, in_archive, snapshots[i], max_body, link, parts[t]);
    } catch (...) {
      errors[t] = std::current_exception();
    }
  };
  std::vector<std::thread> running;
  for (std::size_t t = 1; t < threads; ++t) {
    try {
      running.emplace_back(work, t);
    } catch (const std::system_error&) {
      work(t);  // no thread to be had: this one does it
    }
  }
  work(0);
  for (auto& th : running) th.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  for (Part& p : parts) {
    out.copied += p.copied;
    out.already += p.already;
    out.left_out += p.left_out;
    out.written.insert(out.written.end(), p.written.begin(), p.written.end());
    for (auto& [archived, given] : p.given) out.given.emplace(std::move(archived), std::move(given));
  }
  out.snapshots = std::move(snapshots);
  return out;
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
  return removed;
}

std::string with_given_paths(const ArchiveCopy& copy, const std::string& archive_dir, std::string message) {
  if (copy.given.empty()) return message;
  std::error_code ec;
  const std::string prefix = (fs::absolute(archive_dir, ec).lexically_normal()).string();
  // Messages name a file as "PATH: ..." (or end with it).
  for (std::size_t at = message.find(prefix); at != std::string::npos; at = message.find(prefix, at + 1)) {
    std::size_t end = message.find(".xml", at);
    for (std::size_t e = at; (e = message.find(": ", e)) != std::string::npos; ++e) {
      auto it = copy.given.find(message.substr(at, e - at));
      if (it != copy.given.end()) {
        message.replace(at, e - at, it->second);
        end = std::string::npos;
        break;
      }
    }
    if (end != std::string::npos) {
      auto it = copy.given.find(message.substr(at, end + 4 - at));
      if (it != copy.given.end()) message.replace(at, end + 4 - at, it->second);
    }
  }
  return message;
}

}  // namespace blogsearch
