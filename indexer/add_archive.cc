// add_archive.cc: snapshots given to `add`, written into the archive.
#include "indexer/add_archive.h"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <unordered_set>

#include "indexer/archive.h"
#include "indexer/feed_parser.h"
#include "indexer/url.h"

namespace blogsearch {
namespace fs = std::filesystem;

namespace {

// The headers.json beside `path` as it is; null when there is none.
nlohmann::json headers_beside(const std::string& path) {
  fs::path headers = path;
  headers.replace_extension(".headers.json");
  std::ifstream in(headers);
  if (!in) return nullptr;
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  return j.is_object() ? j : nlohmann::json::object();
}

// The size of `path` when it is a regular file we may read, of at most
// `max_body` bytes; else nullopt (read_file then says what is wrong).
std::optional<std::uintmax_t> readable_regular_size(const std::string& path, std::size_t max_body) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  ::close(fd);
  if (!regular || st.st_size < 0 || static_cast<std::uintmax_t>(st.st_size) > max_body) return std::nullopt;
  return static_cast<std::uintmax_t>(st.st_size);
}

// The archive's folder for `feed_id` holds `path` already.
bool in_archive(const fs::path& archive, const std::string& path, const std::string& feed_id) {
  std::error_code ec;
  const fs::path file = fs::weakly_canonical(path, ec);
  if (ec) return false;
  return file.parent_path() == archive / feed_id;
}

}  // namespace

ArchiveCopy copy_into_archive(const std::string& archive_dir, std::vector<Snapshot> snapshots, std::size_t max_body,
                              const ParseOptions& parse, bool link) {
  ArchiveCopy out;
  Archive archive(archive_dir);
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(archive_dir, ec);
  for (Snapshot& snap : snapshots) {
    // With `link` a regular file of a known feed is linked, not read
    // (Archive::link); anything else is read first, as the writer will.
    const std::optional<std::uintmax_t> size =
        !link || snap.feed_id.empty() ? std::nullopt : readable_regular_size(snap.path, max_body);
    std::string body;
    if (!size) try {
        body = read_file(snap.path, max_body);
      } catch (const std::exception&) {
        out.left_out++;
        continue;
      }
    if (snap.feed_id.empty()) {
      // What the writer does with such a snapshot (feed_batch.cc).
      try {
        snap.feed_id = feed_slug(url_host(parse_feed(body, snap.path, parse_options_for(snap, parse)).link));
      } catch (const std::exception&) {
      }
      if (snap.feed_id.empty()) snap.feed_id = "unknown";
    }
    if (!ec && in_archive(canonical, snap.path, snap.feed_id)) {
      out.already++;
      continue;
    }
    FetchResponse r;
    r.feed_id = snap.feed_id;
    r.status = snap.status;
    r.body = std::move(body);
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
    nlohmann::json extra = headers_beside(snap.path);
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
          continue;
        }
    }
    const ArchivedFile file = linked ? *linked : archive.put(r, extra, with_headers);
    (file.existed ? out.already : out.copied)++;
    if (!file.existed) out.written.push_back(file.path);
    out.given.emplace(file.path, snap.path);
    snap.path = file.path;
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
