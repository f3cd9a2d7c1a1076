// feed_batch.h: one feed's run of snapshots, merged in memory before the
// database is consulted.
//
// Private to the writer (writer.cc). A BatchReader reads and parses the
// snapshots (ReadAhead) and merges them, on threads of its own, into one
// FeedBatch per feed: for each post, every appearance (time, snapshot,
// content hash) and the item as it last appeared. Nothing here needs the
// database, so the next feeds are read and merged while the writer's
// thread indexes the one before: a feed's merged history is small however
// many snapshots it took, so the writer can fall behind without the parsed
// snapshots piling up in memory. The writer replays the appearances onto
// what the database holds (writer.cc).
//
// Each batch's snapshots come in the order given, and a batch never goes
// back in time: a snapshot older than the one before it starts a new batch
// of the same feed, so that only a post's last appearance can hold its
// newest content.
//
// Bad snapshots are reported through IngestOptions::on_message, and
// progress through on_progress, from the reader's thread (nothing else
// calls them during a run). next() rethrows what that thread threw
// (std::bad_alloc, std::system_error).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "indexer/post.h"
#include "indexer/read_ahead.h"
#include "indexer/snapshot.h"
#include "indexer/writer.h"

namespace blogsearch {

// A post's identity: its id, else its link, else a hash of feed, title and
// date.
std::string post_key(const Post& p, const std::string& feed_id);

// One appearance of a post.
struct Appearance {
  Time observed = 0;
  const Snapshot* snapshot = nullptr;
  std::uint32_t version = 0;  // index into PostHistory::hashes
};

struct PostHistory {
  std::string key;
  std::vector<std::string> hashes;   // its distinct content hashes, first seen first
  std::vector<Appearance> seen;      // every appearance, in snapshot order
  Post last;                         // the item as it last appeared
};

struct FeedBatch {
  std::string feed_id;
  std::vector<PostHistory> posts;           // in order of first appearance
  std::unordered_set<std::string> in_newest;  // keys in the newest snapshot
  Time newest_snapshot = 0;
  bool have_newest = false;
  std::vector<std::string> snapshot_hashes;  // bodies applied ("snapshot:" metadata)
  // The last non-empty value the snapshots gave (feeds.toml's title first).
  std::string title, link, url;
};

class BatchReader {
 public:
  // `snapshots` and `options` must outlive this object. Bodies whose hash
  // is in `ingested` are skipped as already ingested. `summary` gets the
  // reading counts (snapshots read and skipped, items seen, warnings,
  // errors); it is written by the reader's thread until next() has
  // returned false or the object is destroyed.
  BatchReader(const std::vector<Snapshot>& snapshots, std::unordered_set<std::string> ingested,
              const IngestOptions& options, IngestSummary& summary);
  ~BatchReader();  // stops the reader and waits for it
  BatchReader(const BatchReader&) = delete;
  BatchReader& operator=(const BatchReader&) = delete;

  // The next feed's batch, in snapshot order; false after the last one.
  bool next(FeedBatch& out);

 private:
  void run();
  void add(FeedBatch& batch, ReadSnapshot& read);
  bool push(FeedBatch&& batch);  // false when stopping

  const std::vector<Snapshot>& snapshots_;
  std::unordered_set<std::string> ingested_;
  const IngestOptions& options_;
  IngestSummary& summary_;
  std::unordered_map<std::string, std::size_t> index_;  // key -> position in the batch being built
  Time last_observed_ = 0;                               // of the batch being built

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<FeedBatch> ready_;  // at most kReady batches wait for the writer
  bool done_ = false, stop_ = false;
  std::exception_ptr error_;
  std::thread thread_;  // last: it uses the members above
};

}  // namespace blogsearch
