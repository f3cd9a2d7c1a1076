// feed_batch.cc: reading, parsing and merging snapshots into per-feed
// batches on a thread of their own.
#include "indexer/feed_batch.h"

#include "indexer/schema.h"
#include "indexer/url.h"

namespace blogsearch {
namespace {

// Batches merged ahead of the writer. Each is small next to the snapshots
// it came from; one waiting is enough to keep the writer busy.
constexpr std::size_t kReady = 1;

}  // namespace

std::string post_key(const Post& p, const std::string& feed_id) {
  if (!p.id.empty()) return p.id;
  if (!p.link.empty()) return p.link;
  std::string basis = feed_id + '\n' + p.title + '\n' + (p.published ? std::to_string(*p.published) : "");
  return "urn:blogsearch:" + schema::hex64(XXH3_64bits(basis.data(), basis.size()));
}

BatchReader::BatchReader(const std::vector<Snapshot>& snapshots, std::unordered_set<std::string> ingested,
                         const IngestOptions& options, IngestSummary& summary)
    : snapshots_(snapshots),
      ingested_(std::move(ingested)),
      options_(options),
      summary_(summary),
      thread_([this] { run(); }) {}

BatchReader::~BatchReader() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

bool BatchReader::next(FeedBatch& out) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return !ready_.empty() || done_; });
  if (ready_.empty()) {
    if (error_) std::rethrow_exception(error_);
    return false;
  }
  out = std::move(ready_.front());
  ready_.pop_front();
  lock.unlock();
  changed_.notify_all();
  return true;
}

bool BatchReader::push(FeedBatch&& batch) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return ready_.size() < kReady || stop_; });
  if (stop_) return false;
  ready_.push_back(std::move(batch));
  lock.unlock();
  changed_.notify_all();
  return true;
}

void BatchReader::run() {
  try {
    ReadAhead::Limits limits;
    limits.max_bytes = options_.max_snapshot_bytes;
    limits.parse = options_.parse;
    ReadAhead reader(snapshots_, std::move(ingested_), std::move(limits));
    ReadSnapshot read;
    FeedBatch batch;
    long done = 0;
    bool more = true;
    while (more && reader.next(read)) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (stop_) break;
      }
      std::string id = read.snapshot->feed_id;
      const bool parsed = read.status == ReadSnapshot::Status::kParsed;
      if (parsed && id.empty()) id = feed_slug(url_host(read.feed.link));
      if (parsed && id.empty()) id = "unknown";
      // A new feed, or an older snapshot than the last: a new batch.
      if (parsed && (id != batch.feed_id || read.snapshot->observed < last_observed_)) {
        if (!batch.feed_id.empty()) more = push(std::move(batch));
        batch = FeedBatch();
        batch.feed_id = id;
        index_.clear();
      }
      add(batch, read);
      if (options_.on_progress) options_.on_progress(++done, static_cast<long>(snapshots_.size()));
    }
    if (more && !batch.feed_id.empty()) push(std::move(batch));
  } catch (...) {
    std::lock_guard<std::mutex> lock(mutex_);
    error_ = std::current_exception();
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  changed_.notify_all();
}

void BatchReader::add(FeedBatch& batch, ReadSnapshot& read) {
  auto message = [&](const std::string& line) {
    if (options_.on_message) options_.on_message(line);
  };
  using Status = ReadSnapshot::Status;
  if (read.status == Status::kUnreadable) {
    summary_.errors++;
    message("error: " + read.error);
    return;
  }
  summary_.snapshots_read++;
  if (read.status == Status::kAlreadyIngested) {
    summary_.snapshots_skipped++;
    return;
  }
  if (read.status == Status::kNotAFeed) {
    summary_.errors++;
    message("error: " + read.error);
    return;
  }
  const Snapshot& snap = *read.snapshot;
  ParsedFeed& parsed = read.feed;
  for (const auto& w : parsed.warnings) message("warning: " + w);
  summary_.warnings += static_cast<long>(parsed.warnings.size());
  summary_.items_seen += static_cast<long>(parsed.posts.size());

  batch.snapshot_hashes.push_back(read.body_hash);
  if (!snap.feed_title.empty()) batch.title = snap.feed_title;
  else if (!parsed.title.empty()) batch.title = parsed.title;
  if (!parsed.link.empty()) batch.link = parsed.link;
  if (!snap.final_url.empty()) batch.url = snap.final_url;
  last_observed_ = snap.observed;

  // A body cut short (feed_parser.h: ParsedFeed::complete) holds only some
  // of the feed's items: what it lacks says nothing about what left the
  // feed, so it adds its items to the newest set without replacing it.
  const bool newest = snap.observed >= batch.newest_snapshot;
  if (newest && parsed.complete) {
    batch.in_newest.clear();
    batch.newest_snapshot = snap.observed;
    batch.have_newest = true;
  }
  for (std::size_t i = 0; i < parsed.posts.size(); ++i) {
    Post& item = parsed.posts[i];
    std::string key = post_key(item, batch.feed_id);
    if (newest) batch.in_newest.insert(key);
    auto [it, added] = index_.emplace(key, batch.posts.size());
    if (added) {
      batch.posts.emplace_back();
      batch.posts.back().key = std::move(key);
    }
    PostHistory& h = batch.posts[it->second];
    std::string& hash = read.content_hashes[i];
    // The item is kept only when its content differs from the appearance
    // before: equal hashes, equal content.
    if (h.hashes.empty() || h.hashes[h.seen.back().version] != hash) {
      std::size_t version = 0;
      while (version < h.hashes.size() && h.hashes[version] != hash) ++version;
      if (version == h.hashes.size()) h.hashes.push_back(std::move(hash));
      h.seen.push_back({snap.observed, &snap, static_cast<std::uint32_t>(version)});
      h.last = std::move(item);
    } else {
      h.seen.push_back({snap.observed, &snap, h.seen.back().version});
    }
  }
}

}  // namespace blogsearch
