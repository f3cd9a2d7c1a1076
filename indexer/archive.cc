// archive.cc: atomic writes of snapshot files.
#include "indexer/archive.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "indexer/date.h"

namespace blogsearch {
namespace fs = std::filesystem;

namespace {

// A failed write (a full disk) removes its temporary file: nothing else
// would, and each run would leave another.
void write_atomically(const fs::path& path, const std::string& bytes) {
  fs::path tmp = path;
  tmp += ".tmp";
  std::error_code ec;
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      int err = errno;
      out.close();
      fs::remove(tmp, ec);
      throw std::runtime_error(tmp.string() + ": cannot write: " + std::strerror(err));
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw std::runtime_error(path.string() + ": cannot rename into place: " + ec.message());
  }
}

// Temporary files of a process killed while writing: their names say which.
void remove_stale_temporaries(const fs::path& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".tmp") == 0) {
      std::error_code ignored;
      fs::remove(it->path(), ignored);
    }
  }
}

// The newest snapshot body in dir (by name: names are UTC times), or "".
fs::path newest_body(const fs::path& dir) {
  fs::path newest;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() < 5 || name.compare(name.size() - 4, 4, ".xml") != 0) continue;
    if (newest.empty() || name > newest.filename().string()) newest = it->path();
  }
  return newest;
}

// "2026-09-02T013228Z", the archiver's file-name form of a time.
std::string file_stamp(Time t) {
  std::string iso = format_rfc3339(t);  // 2026-09-02T01:32:28Z
  std::string out;
  for (std::size_t i = 0; i < iso.size(); ++i)
    if (!(iso[i] == ':' && i > 10)) out += iso[i];
  return out;
}

// True when `path` is a regular file holding exactly `bytes`.
bool holds(const fs::path& path, const std::string& bytes) {
  std::error_code ec;
  if (fs::file_size(path, ec) != bytes.size() || ec) return false;
  std::ifstream in(path, std::ios::binary);
  std::string have(bytes.size(), '\0');
  in.read(have.data(), static_cast<std::streamsize>(have.size()));
  return in && have == bytes;
}

}  // namespace

ArchivedFile archive_snapshot(const std::string& archive_dir, const FetchResponse& r, const nlohmann::json& extra) {
  std::error_code ec;
  // Absolute: the path is stored with each version, to be read from anywhere.
  fs::path dir = (fs::absolute(archive_dir, ec) / r.feed_id).lexically_normal();
  if (ec) dir = fs::path(archive_dir) / r.feed_id;
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error(dir.string() + ": cannot create: " + ec.message());
  remove_stale_temporaries(dir);
  // A run killed after archiving but before indexing fetches the same body
  // again: the file already there is the snapshot, not a second one.
  if (fs::path newest = newest_body(dir); !newest.empty() && holds(newest, r.body)) {
    return {newest.string(), true};
  }
  std::string stem = file_stamp(r.fetched_at);
  fs::path body = dir / (stem + ".xml");
  for (int n = 1; fs::exists(body); ++n) {
    if (holds(body, r.body)) return {body.string(), true};
    body = dir / (stem + "-" + std::to_string(n) + ".xml");
  }
  fs::path headers = body;
  headers.replace_extension(".headers.json");
  auto opt = [](const std::string& s) { return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s); };
  nlohmann::json h = {{"fetchedAt", format_rfc3339(r.fetched_at)},
                      {"observed_at", format_rfc3339(r.fetched_at)},
                      {"finalUrl", r.final_url},
                      {"status", r.status},
                      {"etag", opt(r.etag)},
                      {"lastModified", opt(r.last_modified)},
                      {"date", opt(r.date)},
                      {"contentType", opt(r.content_type)},
                      {"contentLength", std::to_string(r.body.size())}};
  if (extra.is_object()) h.update(extra);
  // The headers first: a body without them would still be read, with less known.
  write_atomically(headers, h.dump(2) + "\n");
  write_atomically(body, r.body);
  return {body.string(), false};
}

Snapshot snapshot_of(const FetchResponse& r) {
  Snapshot snap;
  snap.feed_id = r.feed_id;
  snap.observed = r.fetched_at;
  snap.status = r.status;
  snap.etag = r.etag;
  snap.last_modified = r.last_modified;
  snap.final_url = r.final_url;
  snap.content_type = r.content_type;
  return snap;
}

std::string resolve_archive_path(const std::string& from_option) {
  if (!from_option.empty()) return from_option;
  if (const char* env = std::getenv("BLOGSEARCH_ARCHIVE"); env && *env) return env;
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) return std::string(xdg) + "/blogsearch/archive";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.local/share/blogsearch/archive";
}

}  // namespace blogsearch
