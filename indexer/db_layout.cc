// db_layout.cc: generations behind a stub file.
#include "indexer/db_layout.h"

#include <unistd.h>
#include <xapian.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "indexer/schema.h"

namespace blogsearch {
namespace fs = std::filesystem;

namespace {

constexpr const char* kStub = schema::kStubFile;
constexpr const char* kGenPrefix = "gen-";

}  // namespace

bool has_generations(const std::string& path) { return fs::is_regular_file(fs::path(path) / kStub); }

namespace {

// Writes `text` to DIR/`name` by a rename, so that a reader sees the old
// stub or the new one.
void write_stub(const fs::path& dir, const char* name, const std::string& text) {
  fs::path stub = dir / name, tmp = stub;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << text << '\n';
    out.flush();
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  std::error_code ec;
  fs::rename(tmp, stub, ec);
  if (ec) throw std::runtime_error("cannot switch " + stub.string() + ": " + ec.message());
}

}  // namespace

void create_database_layout(const std::string& path) {
  std::error_code ec;
  if (has_generations(path) && !fs::exists(fs::path(path) / schema::kSpellingStubFile, ec)) {
    const std::string live = schema::live_generation(path);
    // Best effort: a database on a read-only disk is refused by the writer
    // with its own message, and only replication needs this stub.
    try {
      if (!live.empty()) write_stub(path, schema::kSpellingStubFile, "auto " + live + "/spelling");
    } catch (const std::runtime_error&) {
    }
    return;
  }
  if (fs::exists(path, ec) && !(fs::is_directory(path, ec) && fs::is_empty(path, ec))) return;
  fs::create_directories(path, ec);
  if (ec) throw std::runtime_error("cannot create database directory " + path + ": " + ec.message());
  switch_generation(path, new_generation(path));
}

std::string new_generation(const std::string& path) {
  auto now = std::chrono::system_clock::now().time_since_epoch();
  std::string name = kGenPrefix + std::to_string(std::chrono::duration_cast<std::chrono::microseconds>(now).count()) +
                     "-" + std::to_string(getpid());
  std::string gen = (fs::path(path) / name).string();
  try {
    Xapian::WritableDatabase(gen, Xapian::DB_CREATE).close();
  } catch (const Xapian::Error& e) {
    throw std::runtime_error("cannot create database " + gen + ": " + e.get_description());
  }
  return gen;
}

void switch_generation(const std::string& path, const std::string& generation) {
  const std::string name = fs::path(generation).filename().string();
  write_stub(path, schema::kSpellingStubFile, "auto " + name + "/spelling");
  write_stub(path, kStub, "auto " + name);
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
