// db_layout.cc: generations of shards behind stub files.
#include "indexer/db_layout.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <xapian.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "indexer/schema.h"

namespace blogsearch {
namespace fs = std::filesystem;

namespace {

constexpr const char* kStub = schema::kStubFile;
constexpr const char* kGenPrefix = "gen-";

bool is_glass(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "iamglass", ec);
}

std::string shard_dir(unsigned n) { return schema::kShardDirPrefix + std::to_string(n); }
std::string shard_stub(unsigned n) { return schema::kShardStubPrefix + std::to_string(n); }

// Writes `text` to DIR/`name` by a rename, so that a reader sees the old
// stub or the new one.
void write_stub(const fs::path& dir, const std::string& name, const std::string& text) {
  fs::path stub = dir / name, tmp = stub;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << text;
    out.flush();
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  std::error_code ec;
  fs::rename(tmp, stub, ec);
  if (ec) throw std::runtime_error("cannot switch " + stub.string() + ": " + ec.message());
}

// What creating a database writes before its XAPIANDB stub (and so all a
// creation cut short can leave): gen-<stamp>/, SHARD-<n>, SPELLINGDB and
// the .tmp files of stubs.
bool is_creation_leftover(const std::string& name) {
  auto starts = [&](const std::string& prefix) { return name.rfind(prefix, 0) == 0; };
  return starts(kGenPrefix) || starts(schema::kShardStubPrefix) || starts(schema::kSpellingStubFile) ||
         name == std::string(kStub) + ".tmp";
}

// The shards of a generation directory: shard-0, shard-1, ... as long as
// they exist.
std::vector<std::string> generation_shards(const fs::path& gen) {
  std::vector<std::string> shards;
  std::error_code ec;
  for (unsigned n = 0; fs::is_directory(gen / shard_dir(n), ec); ++n) shards.push_back((gen / shard_dir(n)).string());
  return shards;
}

}  // namespace

unsigned default_shard_count() {
  const unsigned cores = std::thread::hardware_concurrency();  // 0: unknown
  return std::clamp(cores, 1u, kMaxDefaultShards);
}

bool has_generations(const std::string& path) { return fs::is_regular_file(fs::path(path) / kStub); }

Layout read_layout(const std::string& path) {
  Layout l;
  const fs::path dir(path);
  std::error_code ec;
  if (!has_generations(path)) {
    if (!fs::exists(dir, ec) || (fs::is_directory(dir, ec) && fs::is_empty(dir, ec))) return l;
    if (std::vector<std::string> shards = generation_shards(dir); !shards.empty()) {
      l.kind = Layout::Kind::kGeneration;
      l.shards = std::move(shards);
      l.spelling = (dir / "spelling").string();
      return l;
    }
    l.kind = Layout::Kind::kPlain;
    l.shards = {path};
    l.spelling = (dir / "spelling").string();
    return l;
  }
  std::ifstream in(dir / kStub);
  std::vector<std::string> lines;
  for (std::string kind, target; in >> kind >> target;) {
    if (kind != "auto") throw std::runtime_error((dir / kStub).string() + ": not a blogsearch stub ('" + kind + "')");
    lines.push_back(target);
  }
  auto bad = [&] { return std::runtime_error((dir / kStub).string() + " names no blogsearch generation"); };
  if (lines.empty()) throw bad();
  const std::string gen = lines[0].substr(0, lines[0].find('/'));
  if (gen.rfind(kGenPrefix, 0) != 0) throw bad();
  l.generation = gen;
  l.spelling = (dir / gen / "spelling").string();
  if (lines.size() == 1 && lines[0] == gen && is_glass(dir / gen)) {
    l.kind = Layout::Kind::kSingle;
    l.shards = {(dir / gen).string()};
    return l;
  }
  for (std::size_t n = 0; n < lines.size(); ++n)
    if (lines[n] != gen + "/" + shard_dir(static_cast<unsigned>(n))) throw bad();
  l.kind = Layout::Kind::kSharded;
  for (const auto& line : lines) l.shards.push_back((dir / line).string());
  return l;
}

void create_database_layout(const std::string& path, unsigned shards) {
  std::error_code ec;
  if (has_generations(path)) {
    // Best effort: a database on a read-only disk is refused by the writer
    // with its own message, and only replication needs these stubs.
    try {
      const Layout l = read_layout(path);
      if (!fs::exists(fs::path(path) / schema::kSpellingStubFile, ec))
        write_stub(path, schema::kSpellingStubFile, "auto " + l.generation + "/spelling\n");
      if (l.kind == Layout::Kind::kSharded)
        for (unsigned n = 0; n < l.shards.size(); ++n)
          if (!fs::exists(fs::path(path) / shard_stub(n), ec))
            write_stub(path, shard_stub(n), "auto " + l.generation + "/" + shard_dir(n) + "\n");
    } catch (const std::runtime_error&) {
    }
    return;
  }
  const fs::path dir(path);
  // A glass database of its own (the layout before generations), a
  // generation directory (rebuild's writer), or not a directory at all:
  // the writer opens or refuses it.
  if (fs::exists(dir, ec) && (!fs::is_directory(dir, ec) || is_glass(dir) || !generation_shards(dir).empty())) return;
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error("cannot create database directory " + path + ": " + ec.message());
  // Creating is locked, so that of two writers creating DB at once one
  // creates it and the other finds it created. A creation killed before
  // its XAPIANDB stub leaves only what it was writing: that is removed and
  // the database created again.
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0 || ::flock(fd, LOCK_EX) != 0) {
    const std::string why = std::strerror(errno);
    if (fd >= 0) ::close(fd);
    throw std::runtime_error("cannot lock database directory " + path + " to create it: " + why);
  }
  struct CloseOnExit {
    int fd;
    ~CloseOnExit() { ::close(fd); }  // releases the lock
  } close_on_exit{fd};
  if (has_generations(path)) return;
  std::vector<fs::path> leftovers;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (!is_creation_leftover(name))
      throw std::runtime_error(path + " is neither a blogsearch database nor an empty directory (it holds " + name +
                               "); give --db a new path");
    leftovers.push_back(entry.path());
  }
  for (const fs::path& p : leftovers) {
    fs::remove_all(p, ec);
    if (ec) throw std::runtime_error("cannot remove " + p.string() + ", left by a creation that was cut short: " + ec.message());
  }
  switch_generation(path, new_generation(path, shards));
}

std::string new_generation(const std::string& path, unsigned shards) {
  if (shards == 0) shards = default_shard_count();
  auto now = std::chrono::system_clock::now().time_since_epoch();
  std::string name = kGenPrefix + std::to_string(std::chrono::duration_cast<std::chrono::microseconds>(now).count()) +
                     "-" + std::to_string(getpid());
  const fs::path gen = fs::path(path) / name;
  std::error_code ec;
  fs::create_directory(gen, ec);
  if (ec) throw std::runtime_error("cannot create " + gen.string() + ": " + ec.message());
  for (unsigned n = 0; n < shards; ++n) {
    const std::string shard = (gen / shard_dir(n)).string();
    try {
      // Committed once, with the mark its ids will carry: a shard left at
      // revision 0 gets every optional table (spelling, synonyms) created
      // empty when the writer opens it, and each search then opens and
      // reads them for nothing.
      Xapian::WritableDatabase db(shard, Xapian::DB_CREATE);
      db.set_metadata(schema::kMetaDocids, schema::interleaved_docids_value(n, shards));
      db.commit();
      db.close();
    } catch (const Xapian::Error& e) {
      throw std::runtime_error("cannot create database " + shard + ": " + e.get_description());
    }
  }
  return gen.string();
}

void switch_generation(const std::string& path, const std::string& generation) {
  const std::string name = fs::path(generation).filename().string();
  const unsigned shards = static_cast<unsigned>(generation_shards(generation).size());
  if (shards == 0) throw std::runtime_error(generation + " holds no shards");
  std::string list;
  for (unsigned n = 0; n < shards; ++n) {
    write_stub(path, shard_stub(n), "auto " + name + "/" + shard_dir(n) + "\n");
    list += "auto " + name + "/" + shard_dir(n) + "\n";
  }
  write_stub(path, schema::kSpellingStubFile, "auto " + name + "/spelling\n");
  write_stub(path, kStub, list);
  std::error_code ec;
  for (unsigned n = shards; fs::exists(fs::path(path) / shard_stub(n), ec); ++n) fs::remove(fs::path(path) / shard_stub(n), ec);
}

void remove_stale_generations(const std::string& path) {
  const std::string live = schema::live_generation(path);
  if (live.empty()) return;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(path, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(kGenPrefix, 0) == 0 && name != live) fs::remove_all(entry.path(), ec);
  }
}

}  // namespace blogsearch
