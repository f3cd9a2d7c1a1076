// shards.cc: reading stubs ourselves, so that each shard is a Database of
// its own (Xapian gives no access to the parts of a combined one).
#include "query/shards.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "indexer/schema.h"

namespace blogsearch {
namespace fs = std::filesystem;

namespace {

// A stub may list stubs; a loop of them must end.
constexpr int kMaxDepth = 8;

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

bool is_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

void add_shard(ShardSet& set, const Xapian::Database& db, const std::string& name) {
  set.shards.push_back(db);
  set.names.push_back(name);
}

void add_remote(ShardSet& set, const std::string& where, const std::string& address, const ShardOptions& options) {
  // Xapian's stub syntax for TCP is ":HOST:PORT" (without the colon it runs
  // a program, which a search must never do).
  if (address.empty() || address[0] != ':')
    throw ShardError(where + ": only 'remote :HOST:PORT' shards are supported, not 'remote " + address + "'");
  const std::size_t colon = address.rfind(':');
  std::string host = address.substr(1, colon - 1);
  const std::string port_text = address.substr(colon + 1);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  unsigned long port = 0;
  bool digits = !port_text.empty() && port_text.size() <= 5;
  for (char c : port_text) digits = digits && c >= '0' && c <= '9';
  if (digits) port = std::stoul(port_text);
  if (colon == 0 || host.empty() || !digits || port == 0 || port > 65535)
    throw ShardError(where + ": 'remote " + address + "' is not ':HOST:PORT' with a port from 1 to 65535");
  const std::string name = host + ":" + port_text;
  try {
    add_shard(set, Xapian::Remote::open(host, static_cast<unsigned>(port), options.remote_timeout_ms,
                                        options.remote_connect_timeout_ms),
              name);
  } catch (const Xapian::Error& e) {
    throw ShardUnreachable("cannot reach the shard at " + name + " (" + where + "): " + e.get_msg() +
                           " (is its xapian-tcpsrv running and reachable?)");
  }
  set.remote = true;
  set.remote_names.push_back(name);
}

// The shards of one blogsearch database from `first` on, opened again until
// they are at one writer commit (schema::kMetaCommit): a writer commits
// them one after another, within milliseconds. Bounded: a database left
// between two commits by a killed writer is searched as it is.
void agree_on_commit(ShardSet& set, std::size_t first) {
  constexpr int kAttempts = 200;
  constexpr auto kPause = std::chrono::milliseconds(10);
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    bool agree = true;
    const std::string number = set.shards[first].get_metadata(schema::kMetaCommit);
    for (std::size_t i = first + 1; i < set.shards.size() && agree; ++i)
      agree = set.shards[i].get_metadata(schema::kMetaCommit) == number;
    if (agree) return;
    std::this_thread::sleep_for(kPause);
    for (std::size_t i = first; i < set.shards.size(); ++i) set.shards[i].reopen();
  }
}

void open_into(ShardSet& set, const std::string& path, int depth, const ShardOptions& options) {
  if (depth > kMaxDepth)
    throw ShardError("stubs nested more than " + std::to_string(kMaxDepth) + " deep at " + path);
  std::string stub;
  if (is_file(path)) stub = path;
  else if (is_file(path + "/" + schema::kStubFile)) stub = path + "/" + schema::kStubFile;

  if (stub.empty()) {  // a database itself
    add_shard(set, Xapian::Database(path), path);
    if (const std::string spelling = path + "/spelling"; exists(spelling)) set.spelling_paths.push_back(spelling);
    return;
  }
  std::ifstream in(stub);
  if (!in) throw ShardError("cannot read the stub " + stub);
  const fs::path folder = fs::path(stub).parent_path();
  const std::size_t before = set.shards.size();
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    const std::size_t space = line.find_first_of(" \t");
    const std::string type = line.substr(0, space);
    const std::string rest = space == std::string::npos ? "" : trim(line.substr(space));
    const std::string where = stub + " line " + std::to_string(number);
    if (type == "auto" || type == "glass") {
      if (rest.empty()) throw ShardError(where + ": '" + type + "' without a path");
      fs::path p(rest);
      if (p.is_relative()) p = folder / p;
      try {
        open_into(set, p.string(), depth + 1, options);
      } catch (const Xapian::DatabaseOpeningError& e) {
        throw ShardError("cannot open the shard " + p.string() + " (" + where + "): " + e.get_msg());
      }
    } else if (type == "remote") {
      add_remote(set, where, rest, options);
    } else {
      throw ShardError(where + ": '" + type + "' shards are not supported (use 'auto PATH' or 'remote :HOST:PORT')");
    }
  }
  if (set.shards.size() == before) throw ShardError("the stub " + stub + " lists no shards");
  if (stub == path) return;
  const std::string generation = schema::live_generation(path);
  if (!generation.empty()) agree_on_commit(set, before);
  // A folder holding a stub of several shards, or of remote ones, may hold
  // their spelling data beside it (a blogsearch database's own stub names
  // one generation, whose spelling was found above).
  if (generation.empty()) {
    if (const std::string spelling = path + "/spelling"; exists(spelling)) set.spelling_paths.push_back(spelling);
    return;
  }
  // A blogsearch database: its shards share the generation's spelling data
  // (the layout from before shards found it in its one database above).
  const std::string spelling = schema::spelling_db_path(path, generation);
  if (exists(spelling) &&
      std::find(set.spelling_paths.begin(), set.spelling_paths.end(), spelling) == set.spelling_paths.end() &&
      std::find(set.spelling_paths.begin(), set.spelling_paths.end(),
                fs::path(spelling).lexically_normal().string()) == set.spelling_paths.end())
    set.spelling_paths.push_back(spelling);
}

// Every shard of each database the set holds is listed: a front stub left
// listing two remote shards after a rebuild made three would otherwise
// search two thirds of the posts and say nothing. Shards marked "shard n of
// K" must come in whole sets (each n of 0..K-1 as often as the others:
// two databases of K shards listed together are whole). Throws ShardError.
void check_whole_databases(const ShardSet& set) {
  std::map<unsigned, std::vector<unsigned>> seen;  // K -> how often each n is listed
  for (const auto& shard : set.shards) {
    unsigned n = 0, k = 0;
    if (!schema::read_interleaved_docids_value(shard.get_metadata(schema::kMetaDocids), n, k) || k < 2) continue;
    std::vector<unsigned>& counts = seen[k];
    counts.resize(k);
    ++counts[n];
  }
  for (const auto& [k, counts] : seen) {
    const auto [least, most] = std::minmax_element(counts.begin(), counts.end());
    if (*least == *most) continue;
    std::string missing;
    for (unsigned n = 0; n < k; ++n)
      if (counts[n] < *most) missing += (missing.empty() ? "" : ", ") + std::to_string(n);
    throw ShardError("it lists shards of a database of " + std::to_string(k) + " but not its shard " + missing +
                     " (numbered from 0), whose posts a search would miss; list every shard (a rebuild with "
                     "another --shards changes them: docs/multi-host.md)");
  }
}

}  // namespace

ShardSet open_shards(const std::string& path, const ShardOptions& options) {
  ShardSet set;
  open_into(set, path, 0, options);
  check_whole_databases(set);
  for (const auto& shard : set.shards) set.all.add_database(shard);
  const unsigned k = static_cast<unsigned>(set.shards.size());
  set.distinct_docids = !set.remote;
  for (unsigned n = 0; n < k && set.distinct_docids && k > 1; ++n)
    set.distinct_docids = schema::ids_interleaved(set.shards[n], n, k);
  return set;
}

std::string shard_metadata(const ShardSet& set, const std::string& key) {
  for (const auto& shard : set.shards) {
    std::string value = shard.get_metadata(key);
    if (!value.empty()) return value;
  }
  return {};
}

std::string remote_shard_names(const ShardSet& set) {
  std::string out;
  for (const auto& name : set.remote_names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

}  // namespace blogsearch
