// feed_batch.h: one feed's run of snapshots, merged in memory before the
// database is consulted.
//
// Private to the writer (writer.cc). A BatchReader reads and parses the
// snapshots (ReadAhead, which also strips their items' HTML) and merges
// them, on threads of its own, into one FeedBatch per run of consecutive
// snapshots of one feed (cut into several when it would hold more than
// IngestOptions::batch_bytes): for each post, every appearance (time,
// snapshot, which of its distinct contents) and those contents. Nothing here needs
// the database, so the next feeds are read and merged while the writer's
// thread indexes the one before. The writer merges each post's appearances
// with the ones the database holds and replays them all (replay.h): the
// order of snapshots within and across batches does not matter.
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
#include "indexer/ingest_options.h"
#include "record/post_history.h"

namespace blogsearch {

// A post's identity: its id, else its link (Post::id_link when the feed
// wrote it relative), else a hash of feed, title and date.
std::string post_key(const Post& p, const std::string& feed_id);

// One appearance of a post.
struct Appearance {
  Time observed = 0;
  const Snapshot* snapshot = nullptr;
  std::uint32_t content = 0;  // index into BatchPost::contents
};

struct BatchPost {
  std::string key;
  std::vector<VersionContent> contents;  // its distinct contents in the batch
  std::vector<Appearance> seen;          // every appearance, in snapshot order
  std::unordered_map<std::string, std::uint32_t> index;  // content_hash() -> index in contents
};

// A snapshot applied: its metadata key (schema::snapshot_key) and file.
struct AppliedSnapshot {
  std::string key, path;
};

struct FeedBatch {
  std::string feed_id;
  std::vector<BatchPost> posts;  // in order of first appearance
  // The newest complete snapshot (feed_parser.h: ParsedFeed::complete): what
  // the feed carried then is what it carries now, if it is the newest ever.
  Time newest_complete = 0;
  bool have_complete = false;
  Time newest = 0;              // the newest snapshot, complete or not
  std::string newest_body;      // its body hash
  std::vector<AppliedSnapshot> snapshots;
  // The newest snapshot's values, where not empty (feeds.toml's title first).
  std::string title, link, url;
};

class BatchReader {
 public:
  // `snapshots` and `options` must outlive this object. Snapshots whose
  // key (schema::snapshot_key) is in `ingested` are skipped as already
  // ingested. `summary` gets the
  // reading counts (snapshots read and skipped, items seen, warnings,
  // errors); it is written by the reader's thread until next() has
  // returned false or the object is destroyed.
  BatchReader(const std::vector<Snapshot>& snapshots, std::unordered_set<std::string> ingested,
              const IngestOptions& options, IngestSummary& summary);
  ~BatchReader();  // stops the reader and waits for it
  BatchReader(const BatchReader&) = delete;
  BatchReader& operator=(const BatchReader&) = delete;

  // The next batch; false after the last one.
  bool next(FeedBatch& out);

 private:
  void run();
  void add(FeedBatch& batch, ReadSnapshot& read);
  bool push(FeedBatch&& batch);  // false when stopping

  const std::vector<Snapshot>& snapshots_;
  const std::unordered_set<std::string> ingested_;
  std::unordered_set<std::string> applied_;  // keys settled after parsing, in this run
  const IngestOptions& options_;
  IngestSummary& summary_;
  std::unordered_map<std::string, std::size_t> index_;  // post key -> position in the batch being built
  // Item hash -> content and its content_hash(), of the batch being built.
  struct KnownContent {
    VersionContent content;
    std::string hash;
  };
  std::unordered_map<std::string, KnownContent> contents_;
  // About how many bytes the batch being built and contents_ hold; past
  // IngestOptions::batch_bytes the feed's next snapshot starts a new batch.
  std::size_t held_ = 0;

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<FeedBatch> ready_;  // at most kReady batches wait for the writer
  bool done_ = false, stop_ = false;
  std::exception_ptr error_;
  std::thread thread_;  // last: it uses the members above
};

}  // namespace blogsearch
