// archive.cc: atomic writes of snapshot files.
#include "indexer/archive.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <stdexcept>

#include <fcntl.h>
#include <unistd.h>

#include "common/ends_with.h"
#include "indexer/date.h"
#include "indexer/db_layout.h"

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

// Makes `path` a hard link to `source` when it can, and when `source` still
// holds `size` bytes (the body read from it). False when not: another file
// system (EXDEV), no links there, or not allowed (protected_hardlinks).
bool link_same_size(const std::string& source, const fs::path& path, std::size_t size) {
  // A symbolic link given is followed: the archive holds the file itself.
  if (::linkat(AT_FDCWD, source.c_str(), AT_FDCWD, path.c_str(), AT_SYMLINK_FOLLOW) != 0) return false;
  std::error_code ec;
  if (fs::file_size(path, ec) == size && !ec) return true;
  fs::remove(path, ec);  // changed since it was read: write what was read
  return false;
}

// Temporary files of a process killed while writing: their names say which.
bool is_temporary(const std::string& name) {
  return ends_with(name, ".tmp");
}

void remove_stale_temporaries(const fs::path& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (is_temporary(it->path().filename().string())) {
      std::error_code ignored;
      fs::remove(it->path(), ignored);
    }
  }
}

// The names of the files in dir, and the newest snapshot body among them
// (by name: names are UTC times), or "".
fs::path list_folder(const fs::path& dir, std::unordered_set<std::string>& names) {
  fs::path newest;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    names.insert(name);
    if (!ends_with(name, ".xml")) continue;
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

Archive::Archive(std::string archive_dir, SameAsNewest same) : dir_(std::move(archive_dir)), same_(same) {}
Archive::~Archive() = default;

Archive::Folder& Archive::folder(const std::string& feed_id) {
  auto it = folders_.find(feed_id);
  if (it != folders_.end()) return it->second;
  std::error_code ec;
  // Absolute: the path is stored with each version, to be read from anywhere.
  fs::path dir = (fs::absolute(dir_, ec) / feed_id).lexically_normal();
  if (ec) dir = fs::path(dir_) / feed_id;
  const bool created = fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error(dir.string() + ": cannot create: " + ec.message());
  if (created) created_.push_back(dir.string());
  remove_stale_temporaries(dir);
  Folder f;
  f.dir = dir.string();
  f.newest = list_folder(dir, f.names).string();
  return folders_.emplace(feed_id, std::move(f)).first->second;
}

std::optional<ArchivedFile> Archive::place(const FetchResponse& r, std::uintmax_t size,
                                           const std::function<bool(const fs::path&)>& holds_body, fs::path& body,
                                           fs::path& headers) {
  Folder& f = folder(r.feed_id);
  const fs::path dir = f.dir;
  const std::string stem = file_stamp(r.fetched_at);
  // A file this run wrote is known by its size: one of another size is not
  // read or even looked at (a backfill writes thousands into one folder).
  auto holds_this = [&](const fs::path& p) {
    auto known = f.sizes.find(p.filename().string());
    if (known != f.sizes.end() && known->second != size) return false;
    return holds_body(p);
  };
  // A fetch after one killed before it indexed gets the same body again:
  // the file already there is the snapshot (SameAsNewest). Only a file from
  // before this fetch: an older snapshot added after a newer one with the
  // same body is a snapshot of its own (its time counts).
  if (const fs::path newest = f.newest; same_ == SameAsNewest::kThatSnapshot && !newest.empty() &&
      newest.filename().string().compare(0, stem.size(), stem) <= 0 && holds_this(newest)) {
    return ArchivedFile{newest.string(), true};
  }
  // The folder's listing and what was written since tell which names are
  // taken (the writer's lock keeps other writers out meanwhile).
  std::string name = stem + ".xml";
  for (int n = 1; f.names.count(name); ++n) {
    if (holds_this(dir / name)) return ArchivedFile{(dir / name).string(), true};
    name = stem + "-" + std::to_string(n) + ".xml";
  }
  body = dir / name;
  headers = body;
  headers.replace_extension(".headers.json");
  return std::nullopt;
}

std::string Archive::headers_of(const FetchResponse& r, std::uintmax_t size, const nlohmann::json& extra) {
  auto opt = [](const std::string& s) { return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s); };
  nlohmann::json h = {{"fetchedAt", format_rfc3339(r.fetched_at)},
                      {"observed_at", format_rfc3339(r.fetched_at)},
                      {"finalUrl", r.final_url},
                      {"status", r.status},
                      {"etag", opt(r.etag)},
                      {"lastModified", opt(r.last_modified)},
                      {"date", opt(r.date)},
                      {"contentType", opt(r.content_type)},
                      {"contentLength", std::to_string(size)}};
  if (extra.is_object()) h.update(extra);
  return h.dump(2) + "\n";
}

void Archive::placed(const FetchResponse& r, const fs::path& body, std::uintmax_t size) {
  Folder& f = folder(r.feed_id);
  const std::string name = body.filename().string();
  f.names.insert(name);
  f.sizes[name] = size;
  if (f.newest.empty() || body.filename().string() > fs::path(f.newest).filename().string()) f.newest = body.string();
}

ArchivedFile Archive::put(const FetchResponse& r, const nlohmann::json& extra, bool with_headers) {
  fs::path body, headers;
  if (auto found = place(r, r.body.size(), [&](const fs::path& p) { return holds(p, r.body); }, body, headers))
    return *found;
  // The headers first: a body without them would still be read, with less known.
  if (with_headers) write_atomically(headers, headers_of(r, r.body.size(), extra));
  write_atomically(body, r.body);
  placed(r, body, r.body.size());
  return {body.string(), false};
}

std::optional<ArchivedFile> Archive::link(const FetchResponse& r, const std::string& source, std::uintmax_t size,
                                          const nlohmann::json& extra, bool with_headers) {
  fs::path body, headers;
  auto holds_source = [&](const fs::path& p) {
    std::error_code ec;
    if (fs::file_size(p, ec) != size || ec) return false;
    if (fs::equivalent(p, source, ec)) return true;
    try {
      return holds(p, read_file(source, size));
    } catch (const std::exception&) {
      return false;
    }
  };
  if (auto found = place(r, size, holds_source, body, headers)) return found;
  if (with_headers) write_atomically(headers, headers_of(r, size, extra));
  if (!link_same_size(source, body, size)) return std::nullopt;  // the headers are written again by put()
  placed(r, body, size);
  return ArchivedFile{body.string(), false};
}

std::vector<std::string> tidy_feed_folder(const std::string& archive_dir, const std::string& feed_id,
                                          std::int64_t after) {
  // From the second before `after`: a margin, as names are times cut to
  // the second; the caller keeps only the snapshots observed after it.
  const std::string from = file_stamp(after - 1);
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(fs::path(archive_dir) / feed_id, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (is_temporary(name)) {
      std::error_code ignored;
      fs::remove(it->path(), ignored);
    } else if (ends_with(name, ".xml") && name.compare(0, from.size(), from) >= 0) {
      out.push_back(it->path().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

ArchivedFile archive_snapshot(const std::string& archive_dir, const FetchResponse& r, const nlohmann::json& extra,
                              SameAsNewest same) {
  return Archive(archive_dir, same).put(r, extra);
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

namespace {

constexpr const char* kClaimFile = ".database";

// The database directory as an absolute path ("dir/" names dir).
fs::path absolute_database(const std::string& db_path) {
  std::error_code ec;
  fs::path db = fs::absolute(db_path, ec).lexically_normal();
  if (ec) db = db_path;
  if (!db.has_filename()) db = db.parent_path();
  return db;
}

// The database named in ARCHIVE/.database: "" when there is none.
std::string read_claim(const fs::path& archive) {
  std::ifstream in(archive / kClaimFile, std::ios::binary);
  std::string line;
  if (!in || !std::getline(in, line)) return "";
  return line;
}

}  // namespace

std::string resolve_archive_path(const std::string& from_option, const std::string& db_path) {
  if (!from_option.empty()) return from_option;
  if (const char* env = std::getenv("BLOGSEARCH_ARCHIVE"); env && *env) return env;
  return (absolute_database(db_path).parent_path() / "archive").string();
}

std::string archive_for_database(const std::string& from_option, const std::string& db_path, bool create) {
  const std::string path = resolve_archive_path(from_option, db_path);
  const char* env = std::getenv("BLOGSEARCH_ARCHIVE");
  const bool chosen = !from_option.empty() || (env && *env);
  const fs::path archive(path);
  const std::string db = absolute_database(db_path).string();
  std::error_code ec;
  if (create) fs::create_directories(archive, ec);
  if (!fs::is_directory(archive, ec)) return path;  // nothing to claim (rebuild says so)

  if (chosen) return path;  // named on purpose: used as given, never written to here
  const std::string owner = read_claim(archive);
  if (owner == db) return path;
  if (!owner.empty() && has_generations(owner))
    throw ArchiveClaimError("the archive " + path + " beside this database belongs to the database " + owner +
                            "; give " + db + " its own with --archive DIR (or pass --archive " + path +
                            " to share that one)");
  // Unclaimed, or claimed by a database that is gone: this one's now. A
  // claim that cannot be written (a read-only archive that rebuild only
  // reads) is no error: the commands that write there say so themselves.
  try {
    write_atomically(archive / kClaimFile, db + "\n");
  } catch (const std::runtime_error&) {
  }
  return path;
}

}  // namespace blogsearch
