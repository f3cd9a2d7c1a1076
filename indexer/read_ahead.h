// read_ahead.h: reading, hashing and parsing snapshots on worker threads
// while the ones before them are merged (feed_batch.h) and indexed.
//
// Snapshots are independent until they are merged, so they are parsed on
// one thread per core (OrderedPool) and handed back in the order given, and
// each item's HTML is stripped here too (make_content, the costly part of
// indexing), once per feed and distinct item in a run. The Xapian database
// is not touched here: which snapshots are already ingested is handed over
// as a set of keys (schema::snapshot_key) at the start.
//
// Nothing here throws except std::bad_alloc, std::system_error (thread
// creation) and what ReadLimits::before_read throws; a file that cannot be
// read or parsed comes back with its error.
#pragma once

#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "indexer/ordered_pool.h"
#include "indexer/post.h"
#include "indexer/snapshot.h"
#include "record/post_history.h"

namespace blogsearch {

struct ReadSnapshot {
  enum class Status { kParsed, kAlreadyIngested, kUnreadable, kNotAFeed };
  const Snapshot* snapshot = nullptr;
  Status status = Status::kParsed;
  std::string body_hash;  // hex XXH3-64 of the file's bytes
  std::string key;        // schema::snapshot_key of its feed id (maybe ""), time and body
  ParsedFeed feed;        // kParsed only
  std::vector<std::string> item_hashes;  // item_hash() of each of feed.posts
  // make_content() of each of feed.posts, for those with `stripped` set: the
  // first snapshot in the list to hold an item (feed id and item hash) has
  // it; the later ones may not.
  std::vector<VersionContent> contents;
  std::vector<bool> stripped;
  std::string error;      // kUnreadable / kNotAFeed: one line naming the file
};

// Lowers the calling thread's priority (nice 10): the threads that work
// ahead of the writer's give way to it on a busy core. Once per thread;
// never fails (where it cannot, the thread keeps its priority).
void yield_to_writer();

// Hex XXH3-64 of a snapshot body: the key of "snapshot:" metadata.
std::string snapshot_hash(const std::string& body);

// Hex XXH3-64 over an item as the feed sent it (HTML and all): equal
// hashes, equal make_content().
std::string item_hash(const Post& p);

// Files larger than `max_bytes` come back unreadable; each snapshot is
// parsed with parse_options_for(snapshot, parse); `budget` bounds the bytes
// of files read ahead.
struct ReadLimits {
  std::size_t max_bytes = kDefaultMaxSnapshotBytes;
  ParseOptions parse;
  std::size_t budget = std::size_t{16} << 20;
  // IngestOptions::before_read: called before a snapshot's file is read;
  // what it throws is not a snapshot's error but next()'s.
  std::function<void(std::size_t index)> before_read;
};

class ReadAhead {
 public:
  // `snapshots` must outlive this object. Snapshots whose key is in
  // `ingested` (only known for those with a feed id), or that repeat one
  // earlier in the list, are not parsed.
  // Snapshots are read ahead of the caller up to `budget` bytes of files
  // (and at most 4096 of them): far enough to parse a long history while
  // the writer indexes the feeds before it, bounded in memory.
  using Limits = ReadLimits;
  ReadAhead(const std::vector<Snapshot>& snapshots, std::unordered_set<std::string> ingested,
            Limits limits = {});
  ~ReadAhead() = default;  // stops the workers and waits for them
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  // The next snapshot, in the order given; false after the last one.
  bool next(ReadSnapshot& out);

 private:
  ReadSnapshot read(std::size_t index);

  const std::vector<Snapshot>& snapshots_;
  const std::unordered_set<std::string> ingested_;  // read-only while workers run
  const Limits limits_;
  std::unordered_set<std::string> seen_;            // caller's thread only
  std::mutex first_mutex_;
  std::unordered_map<std::string, std::size_t> first_index_;  // key -> lowest index read
  std::unordered_map<std::string, std::size_t> claims_;       // feed id + item hash -> lowest index stripping it
  OrderedPool<ReadSnapshot> pool_;  // last: its workers use the members above
};

}  // namespace blogsearch
