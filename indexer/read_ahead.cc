// read_ahead.cc: a bounded producer/consumer queue of parsed snapshots.
#include "indexer/read_ahead.h"

#include "indexer/feed_parser.h"
#include "indexer/schema.h"

namespace blogsearch {

std::string snapshot_hash(const std::string& body) {
  return schema::hex64(XXH3_64bits(body.data(), body.size()));
}

ReadAhead::ReadAhead(const std::vector<Snapshot>& snapshots, std::unordered_set<std::string> ingested,
                     std::size_t depth)
    : snapshots_(snapshots), seen_(std::move(ingested)), depth_(depth == 0 ? 1 : depth) {
  worker_ = std::thread([this] { run(); });
}

ReadAhead::~ReadAhead() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  worker_.join();
}

void ReadAhead::run() {
  for (const Snapshot& snap : snapshots_) {
    ReadSnapshot r;
    r.snapshot = &snap;
    try {
      std::string body = read_file(snap.path);
      r.body_hash = snapshot_hash(body);
      if (!seen_.insert(r.body_hash).second) {
        r.status = ReadSnapshot::Status::kAlreadyIngested;
      } else {
        try {
          r.feed = parse_feed(body, snap.path);
        } catch (const FeedError& e) {
          r.status = ReadSnapshot::Status::kNotAFeed;
          r.error = e.what();
        }
      }
    } catch (const std::exception& e) {  // unreadable file (or out of memory)
      r.status = ReadSnapshot::Status::kUnreadable;
      r.error = e.what();
    }
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return stop_ || ready_.size() < depth_; });
    if (stop_) return;
    ready_.push_back(std::move(r));
    lock.unlock();
    changed_.notify_all();
  }
}

bool ReadAhead::next(ReadSnapshot& out) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (handed_out_ == snapshots_.size()) return false;
  changed_.wait(lock, [this] { return !ready_.empty(); });
  out = std::move(ready_.front());
  ready_.pop_front();
  ++handed_out_;
  lock.unlock();
  changed_.notify_all();
  return true;
}

}  // namespace blogsearch
