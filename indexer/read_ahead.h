// read_ahead.h: reading, hashing and parsing snapshots on a second thread
// while the writer indexes the ones before them.
//
// Parsing (libxml2) and indexing (Xapian) each take about half of a
// backfill; overlapping them on two cores nearly halves its wall time. The
// Xapian database is touched only by the caller's thread: which bodies are
// already ingested is handed over as a set of hashes at the start.
//
// Nothing here throws except std::bad_alloc and std::system_error (thread
// creation); a file that cannot be read or parsed comes back with its error.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "indexer/post.h"
#include "indexer/snapshot.h"

namespace blogsearch {

struct ReadSnapshot {
  enum class Status { kParsed, kAlreadyIngested, kUnreadable, kNotAFeed };
  const Snapshot* snapshot = nullptr;
  Status status = Status::kParsed;
  std::string body_hash;  // hex XXH3-64 of the file's bytes
  ParsedFeed feed;        // kParsed only
  std::string error;      // kUnreadable / kNotAFeed: one line naming the file
};

// Hex XXH3-64 of a snapshot body: the key of "snapshot:" metadata.
std::string snapshot_hash(const std::string& body);

class ReadAhead {
 public:
  // `snapshots` must outlive this object. Bodies whose hash is in
  // `ingested`, or repeats a body seen earlier in the list, are not parsed.
  ReadAhead(const std::vector<Snapshot>& snapshots, std::unordered_set<std::string> ingested,
            std::size_t depth = 8);
  ~ReadAhead();  // stops the thread and waits for it
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  // The next snapshot, in the order given; false after the last one.
  bool next(ReadSnapshot& out);

 private:
  void run();

  const std::vector<Snapshot>& snapshots_;
  std::unordered_set<std::string> seen_;  // worker thread only
  const std::size_t depth_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<ReadSnapshot> ready_;
  std::size_t handed_out_ = 0;
  bool stop_ = false;
  std::thread worker_;
};

}  // namespace blogsearch
