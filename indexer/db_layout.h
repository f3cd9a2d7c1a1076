// db_layout.h: how a database directory is laid out on disk: K shards that
// a rebuild replaces all together, atomically.
//
//   DB/XAPIANDB        Xapian stub listing the live generation's shards, in
//                      order: "auto gen-<stamp>/shard-0" ... "shard-<K-1>"
//   DB/SHARD-<n>       Xapian stub naming one shard: "auto gen-<stamp>/shard-<n>"
//   DB/SPELLINGDB      Xapian stub: "auto gen-<stamp>/spelling"
//   DB/gen-<stamp>/shard-<n>/  one glass database per shard
//   DB/gen-<stamp>/spelling/   the spelling data (schema::spelling_db_path),
//                              one database for all shards
//
// A post lives in shard schema::shard_of(id, K); K is fixed when the
// database is created (`--shards`, default one per core, at most 8) and changed only
// by `rebuild --shards K`. Shard 0 also holds the database's metadata
// (schema version, feeds, snapshots ingested), committed after every other
// shard (writer.h).
//
// Xapian opens DB through XAPIANDB as one database for reading, so every
// reader just uses DB. SHARD-<n> and SPELLINGDB are for xapian-tcpsrv and
// replication (docs/multi-host.md): names that stay the same across
// rebuilds. A rebuild fills a new generation and then renames new stubs
// over the old ones, XAPIANDB last: a reader sees either the old index or
// the new one.
//
// The layout before shards (up to 0.x: DB/XAPIANDB "auto gen-<stamp>", the
// generation one glass database holding its spelling in gen-*/spelling) is
// read by read_layout() as kind kSingle, so that rebuild can upgrade it;
// the writer refuses to write it otherwise.
//
// Functions throw std::runtime_error naming the path when the disk refuses
// or a stub is not one of these.
#pragma once

#include <string>
#include <vector>

namespace blogsearch {

struct Layout {
  enum class Kind {
    kNone,        // nothing there yet (or an empty directory)
    kSharded,     // DB/XAPIANDB listing gen-*/shard-N
    kGeneration,  // a generation directory itself (gen-*/shard-N inside)
    kSingle,      // the layout before shards: DB/XAPIANDB naming one gen-* database
    kPlain,       // a glass database (or anything else) without a stub
  };
  Kind kind = Kind::kNone;
  std::string generation;           // "gen-<stamp>" (kSharded, kSingle)
  std::vector<std::string> shards;  // paths of the shard databases, shard 0 first
  std::string spelling;             // path of the spelling database
};

// What is at `path`. Throws std::runtime_error for a stub that lists
// anything but one blogsearch generation.
Layout read_layout(const std::string& path);

// The number of shards a new database gets when none is asked for: one
// per core (std::thread::hardware_concurrency), at least 1 and at most
// kMaxDefaultShards. They are written side by side; their document ids
// are interleaved (schema.h), so a FastCGI process keeps its facet table
// and sort keys over them as over one.
unsigned default_shard_count();

// The most shards a database gets by default: past a few, each shard's
// fixed cost per search (a posting list each, per term) outweighs the
// cores it could write with.
inline constexpr unsigned kMaxDefaultShards = 8;

// The largest number of shards accepted (--shards).
inline constexpr unsigned kMaxShards = 64;

// True when `path` holds a XAPIANDB stub.
bool has_generations(const std::string& path);

// Creates DB with one empty generation of `shards` shards (0: the default)
// if `path` is missing, an empty directory, or what a creation killed
// before its XAPIANDB stub left (removed first); in a DB written before
// SPELLINGDB or SHARD-<n> existed, writes them; does nothing for a glass
// database or a generation directory. Creation holds a flock on DB, so
// two writers creating it at once make one database. Throws for a
// directory holding anything else.
void create_database_layout(const std::string& path, unsigned shards = 0);

// Creates DB/gen-<stamp> holding `shards` empty glass databases and returns
// its path.
std::string new_generation(const std::string& path, unsigned shards);

// Makes `generation` (a directory inside DB, from new_generation) the live
// one, atomically: SHARD-<n> and SPELLINGDB are switched first, XAPIANDB
// last; SHARD-<n> stubs beyond the new shard count are removed.
void switch_generation(const std::string& path, const std::string& generation);

// Removes every generation but the live one (left by a crashed rebuild).
// Call only while holding the write lock.
void remove_stale_generations(const std::string& path);

}  // namespace blogsearch
