// db_layout.h: how a database directory is laid out on disk, so that a
// rebuild can replace the whole index atomically.
//
//   DB/XAPIANDB        Xapian stub file: "auto gen-<stamp>" (the live one)
//   DB/SPELLINGDB      Xapian stub file: "auto gen-<stamp>/spelling"
//   DB/gen-<stamp>/    one glass database per generation
//   DB/gen-<stamp>/spelling/  its spelling data (schema::spelling_db_path)
//
// Xapian opens DB through the stub for reading and writing, so every tool
// just uses DB. SPELLINGDB is for replication only (docs/multi-host.md):
// xapian-replicate-server serves DB and DB/SPELLINGDB under names that stay
// the same across rebuilds. A rebuild fills a new generation and then renames a new stub
// over the old one: a reader sees either the old index or the new one.
// Functions throw std::runtime_error naming the path when the disk refuses.
#pragma once

#include <string>

namespace blogsearch {

// True when `path` holds a XAPIANDB stub.
bool has_generations(const std::string& path);

// Creates DB with one empty generation if `path` is missing or an empty
// directory; in a DB written before SPELLINGDB existed, writes it; does
// nothing otherwise.
void create_database_layout(const std::string& path);

// Creates an empty glass database DB/gen-<stamp> and returns its path.
std::string new_generation(const std::string& path);

// Makes `generation` (a directory inside DB) the live one, atomically
// (SPELLINGDB is switched just before XAPIANDB).
void switch_generation(const std::string& path, const std::string& generation);

// Removes every generation but the live one (left by a crashed rebuild).
// Call only while holding the write lock.
void remove_stale_generations(const std::string& path);

}  // namespace blogsearch
