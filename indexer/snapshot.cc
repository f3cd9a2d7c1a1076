// snapshot.cc: turning command-line paths into ordered snapshots.
#include "indexer/snapshot.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cctype>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>
#include <unordered_map>
#include <unordered_set>

#include "common/ends_with.h"
#include "indexer/date.h"
#include "indexer/schema.h"

namespace blogsearch {
namespace fs = std::filesystem;

namespace {

bool is_snapshot_name(const std::string& name) {
  if (name.empty() || name[0] == '.') return false;
  // A JSON Feed body is a snapshot; what an archiver records beside a body
  // (FILE.headers.json, or headers.json in a scraped feed's history) is not.
  if (name == "headers.json" || ends_with(name, ".headers.json")) return false;
  if (ends_with(name, ".md") || ends_with(name, ".toml")) return false;
  return true;
}

// "2026-09-02T013228Z" or "20250902T085253Z" (the two archivers' styles):
// the first 14 digits of the name are YYYYMMDDHHMMSS.
std::optional<Time> time_from_name(const std::string& stem) {
  std::string digits;
  for (char c : stem) {
    if (std::isdigit(static_cast<unsigned char>(c))) digits += c;
    else if (c != '-' && c != 'T' && c != ':' && c != '_') break;
    if (digits.size() == 14) break;
  }
  if (digits.size() != 14) return std::nullopt;
  std::string iso = digits.substr(0, 4) + "-" + digits.substr(4, 2) + "-" + digits.substr(6, 2) + "T" +
                    digits.substr(8, 2) + ":" + digits.substr(10, 2) + ":" + digits.substr(12, 2) + "Z";
  return parse_date(iso);
}

std::string json_string(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Fills what the archiver recorded; a missing or malformed headers file
// only means less is known, so it is not an error. True when the file
// could be opened.
bool read_headers(const fs::path& headers, Snapshot& snap) {
  std::ifstream in(headers);
  if (!in) return false;
  nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return true;
  for (const char* key : {"observed_at", "fetchedAt", "fetched_at"}) {
    if (auto t = parse_date(json_string(j, key))) {
      snap.observed = *t;
      break;
    }
  }
  if (auto it = j.find("status"); it != j.end() && it->is_number_integer()) snap.status = it->get<int>();
  snap.etag = json_string(j, "etag");
  snap.last_modified = json_string(j, "lastModified");
  snap.final_url = json_string(j, "finalUrl");
  for (const char* key : {"contentType", "content_type", "content-type"}) {
    if (snap.content_type.empty()) snap.content_type = json_string(j, key);
  }
  for (const char* key : {"url", "requestUrl", "request_url"}) {
    if (snap.url.empty()) snap.url = json_string(j, key);
  }
  return true;
}

// `headers_listed`: false when the folder's listing shows no headers file
// for `file` (nothing to open); true when it shows one or was not listed.
Snapshot make_snapshot(const fs::path& file, const std::string& feed_override, bool headers_listed = true) {
  Snapshot snap;
  // Absolute: the path is stored with each version, to be read from anywhere.
  std::error_code abs_error;
  fs::path absolute = fs::absolute(file, abs_error).lexically_normal();
  snap.path = abs_error ? file.string() : absolute.string();
  // The folder is named from the absolute path, so that "cd blog && add
  // x.xml", "add ./x.xml" and "add blog/x.xml" give one feed, not two.
  const fs::path folder = (abs_error ? file : absolute).parent_path().filename();
  snap.feed_id = feed_override.empty() ? feed_slug(folder.string()) : feed_override;
  std::error_code size_error;
  snap.bytes = fs::file_size(file, size_error);
  if (size_error) snap.bytes = 0;
  if (headers_listed) {
    fs::path headers = file;
    headers.replace_extension(".headers.json");
    snap.has_headers = read_headers(headers, snap);
  }
  if (snap.observed == 0) {
    if (auto t = time_from_name(file.stem().string())) {
      snap.observed = *t;
    } else {
      // The file's time in whole seconds, as stat(2) gives it (converting
      // filesystem's clock through two now()s made it a second early).
      struct stat st;
      if (::stat(file.c_str(), &st) == 0) snap.observed = st.st_mtim.tv_sec;
    }
  }
  return snap;
}

}  // namespace

std::string charset_of(const std::string& content_type) {
  // Parameters after the media type: "; charset=UTF-8", perhaps quoted.
  std::size_t at = content_type.find(';');
  while (at != std::string::npos) {
    std::size_t next = content_type.find(';', at + 1);
    std::string param = content_type.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1);
    std::size_t eq = param.find('=');
    if (eq != std::string::npos) {
      std::string key = param.substr(0, eq), value = param.substr(eq + 1);
      auto trim = [](std::string& v) {
        while (!v.empty() && std::isspace(static_cast<unsigned char>(v.front()))) v.erase(v.begin());
        while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.pop_back();
      };
      trim(key);
      trim(value);
      for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'')) value = value.substr(1, value.size() - 2);
      if (key == "charset") return value;
    }
    at = next;
  }
  return {};
}

ParseOptions parse_options_for(const Snapshot& snap, ParseOptions options) {
  options.base_url = !snap.final_url.empty() ? snap.final_url : snap.url;
  options.http_charset = charset_of(snap.content_type);
  options.observed = snap.observed;
  return options;
}

std::string feed_slug(const std::string& name) {
  std::string out;
  bool dash = false;
  for (unsigned char c : name) {
    if (std::isalnum(c) || c == '.' || c == '_' || c == '-') {
      if (dash && !out.empty()) out += '-';
      dash = false;
      out += static_cast<char>(std::tolower(c));
    } else {
      dash = true;
    }
  }
  // "." and ".." are folder names, not feeds.
  if (out == "." || out == "..") return "";
  if (out.size() > schema::kMaxFeedIdBytes) {
    std::string hash = schema::hex64(XXH3_64bits(out.data(), out.size()));
    out = out.substr(0, schema::kMaxFeedIdBytes - hash.size() - 1) + "-" + hash;
  }
  return out;
}

std::string feed_id_problem(const std::string& id) {
  if (id.size() > schema::kMaxFeedIdBytes) {
    return "id '" + id.substr(0, 20) + "...' is " + std::to_string(id.size()) + " bytes, longer than the " +
           std::to_string(schema::kMaxFeedIdBytes) + " a feed id may have";
  }
  if (id.empty() || feed_slug(id) != id) return "id '" + id + "' must be a slug of a-z, 0-9, '.', '_' and '-'";
  return {};
}

// read(2) straight into a string sized from fstat: going through an
// ostringstream copied each body three more times (its buffer growing, then
// str()), a few percent of a backfill.
std::string read_file(const std::string& path, std::size_t max_bytes) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  std::size_t size = ::fstat(fd, &st) == 0 && st.st_size > 0 ? static_cast<std::size_t>(st.st_size) : 0;
  auto too_large = [&] {
    ::close(fd);
    return std::runtime_error(path + ": larger than the snapshot limit of " + std::to_string(max_bytes) +
                              " bytes (--max-body); skipped");
  };
  if (size > max_bytes) throw too_large();
  std::string out(size + 1, '\0');  // one byte more: EOF shows without a second buffer
  std::size_t used = 0;
  // A regular file that fills less than what was asked is at its end: no
  // second read(2) to see it return 0.
  const bool regular = S_ISREG(st.st_mode);
  for (;;) {
    // A file that grows while it is read (or a pipe) is bounded too.
    if (used > max_bytes) throw too_large();
    if (used == out.size()) out.resize(std::min(out.size() * 2, max_bytes + 1));
    const std::size_t asked = out.size() - used;
    ssize_t n = ::read(fd, &out[used], asked);
    if (n > 0) {
      used += static_cast<std::size_t>(n);
      if (regular && static_cast<std::size_t>(n) < asked) break;
    } else if (n == 0 || errno == EISDIR) {
      break;  // a directory reads as empty, as it did through std::ifstream
    } else if (errno != EINTR) {
      ::close(fd);
      throw std::runtime_error(path + ": read error");
    }
  }
  ::close(fd);
  if (used > max_bytes) throw std::runtime_error(path + ": larger than the snapshot limit of " +
                                                 std::to_string(max_bytes) + " bytes (--max-body); skipped");
  out.resize(used);
  return out;
}

std::vector<Snapshot> collect_snapshots(const std::vector<std::string>& paths,
                                        const std::string& feed_override,
                                        std::vector<std::string>& errors) {
  std::vector<Snapshot> out;
  for (const auto& arg : paths) {
    std::error_code ec;
    fs::file_status st = fs::status(arg, ec);
    if (ec || !fs::exists(st)) {
      errors.push_back(arg + ": no such file or directory");
      continue;
    }
    if (fs::is_directory(st)) {
      fs::recursive_directory_iterator it(arg, fs::directory_options::skip_permission_denied, ec), end;
      if (ec) {
        errors.push_back(arg + ": cannot read directory: " + ec.message());
        continue;
      }
      // The listing says which bodies have a headers file: the others are
      // not looked for one (a failed open per snapshot of a backfill).
      std::vector<fs::path> bodies;
      std::unordered_set<std::string> headers;
      for (; it != end; it.increment(ec)) {
        if (ec) {
          errors.push_back(arg + ": " + ec.message());
          break;
        }
        const std::string name = it->path().filename().string();
        if (it->is_directory() && !name.empty() && name[0] == '.') {
          it.disable_recursion_pending();
          continue;
        }
        if (ends_with(name, ".headers.json")) headers.insert(it->path().string());
        if (it->is_regular_file() && is_snapshot_name(name)) bodies.push_back(it->path());
      }
      for (const fs::path& body : bodies) {
        fs::path beside = body;
        beside.replace_extension(".headers.json");
        out.push_back(make_snapshot(body, feed_override, headers.count(beside.string()) > 0));
      }
    } else {
      out.push_back(make_snapshot(arg, feed_override));
    }
  }
  // Feeds with fewer snapshots first: their posts are written while the
  // long histories (parsing all of them, few new documents) are still being
  // read ahead. Written last, the writer would wait for those histories
  // first and then have nothing left to overlap its own work with.
  std::unordered_map<std::string, std::size_t> per_feed;
  for (const auto& s : out) per_feed[s.feed_id]++;
  std::stable_sort(out.begin(), out.end(), [&](const Snapshot& a, const Snapshot& b) {
    if (a.feed_id != b.feed_id) {
      std::size_t na = per_feed[a.feed_id], nb = per_feed[b.feed_id];
      return na != nb ? na < nb : a.feed_id < b.feed_id;
    }
    if (a.observed != b.observed) return a.observed < b.observed;
    return a.path < b.path;
  });
  return out;
}

}  // namespace blogsearch
