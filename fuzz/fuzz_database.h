// fuzz_database.h: what the query and CGI fuzz targets share: a small real
// database built once from data/ (or $BLOGSEARCH_FUZZ_DATA) in a temporary
// directory that is removed at exit, and the split of an input into lines.
//
// build_fuzz_database exits the process with a message when it cannot build
// the database (a fuzz run without it would test nothing).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "indexer/snapshot.h"
#include "indexer/writer.h"

namespace blogsearch::fuzz {

inline std::string& fuzz_dir() {
  static std::string dir;
  return dir;
}

inline void (*&fuzz_release())() {
  static void (*release)() = nullptr;
  return release;
}

// Returns DIR/db. `release` runs at exit before DIR is removed, so the
// target can close its database handles first.
inline std::string build_fuzz_database(const char* target, void (*release)()) {
  const char* env = std::getenv("BLOGSEARCH_FUZZ_DATA");
  std::string data = env ? env : BLOGSEARCH_SOURCE_DIR "/data";
  std::string tmpl = std::string("/tmp/blogsearch-") + target + ".XXXXXX";
  if (!mkdtemp(tmpl.data())) {
    std::cerr << target << ": cannot create a temporary directory\n";
    std::exit(1);
  }
  fuzz_dir() = tmpl;
  fuzz_release() = release;
  std::atexit([] {
    if (fuzz_release()) fuzz_release()();
    std::error_code ec;
    std::filesystem::remove_all(fuzz_dir(), ec);
  });
  std::vector<std::string> errors;
  auto snapshots = collect_snapshots({data}, "", errors);
  if (snapshots.empty()) {
    std::cerr << target << ": no snapshots in " << data << " (set BLOGSEARCH_FUZZ_DATA)\n";
    std::exit(1);
  }
  Writer(fuzz_dir() + "/db").ingest(snapshots);
  return fuzz_dir() + "/db";
}

inline std::vector<std::string> split_lines(std::string_view s) {
  std::vector<std::string> lines;
  while (true) {
    std::size_t nl = s.find('\n');
    lines.emplace_back(s.substr(0, nl));
    if (nl == std::string_view::npos) break;
    s.remove_prefix(nl + 1);
  }
  return lines;
}

}  // namespace blogsearch::fuzz
