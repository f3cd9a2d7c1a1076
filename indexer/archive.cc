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

void write_atomically(const fs::path& path, const std::string& bytes) {
  fs::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) throw std::runtime_error(tmp.string() + ": cannot write: " + std::strerror(errno));
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) throw std::runtime_error(path.string() + ": cannot rename into place: " + ec.message());
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
  fs::path dir = fs::path(archive_dir) / r.feed_id;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error(dir.string() + ": cannot create: " + ec.message());
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

std::string resolve_archive_path(const std::string& from_option) {
  if (!from_option.empty()) return from_option;
  if (const char* env = std::getenv("BLOGSEARCH_ARCHIVE"); env && *env) return env;
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) return std::string(xdg) + "/blogsearch/archive";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.local/share/blogsearch/archive";
}

}  // namespace blogsearch
