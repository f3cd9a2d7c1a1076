// feed_batch.cc: reading, parsing and merging snapshots into per-feed
// batches on a thread of their own.
#include "indexer/feed_batch.h"

#include "indexer/document_builder.h"
#include "indexer/schema.h"
#include "indexer/url.h"

namespace blogsearch {
namespace {

// Batches merged ahead of the writer. Each is small next to the snapshots
// it came from; one waiting is enough to keep the writer busy.
constexpr std::size_t kReady = 1;

// What a content takes in memory, about: its strings and a little more.
std::size_t content_bytes(const VersionContent& c) {
  std::size_t n = sizeof c + c.title.size() + c.text.size() + c.summary.size() + c.link.size() + c.language.size();
  for (const auto* list : {&c.authors, &c.categories, &c.category_terms})
    for (const std::string& s : *list) n += sizeof s + s.size();
  return n;
}

}  // namespace

std::string post_key(const Post& p, const std::string& feed_id) {
  if (!p.id.empty()) return p.id;
  if (!p.id_link.empty()) return p.id_link;
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
    limits.before_read = options_.before_read;
    ReadAhead reader(snapshots_, ingested_, std::move(limits));
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
      // Another feed, or a batch that holds enough: another batch (the
      // writer merges each with what the ones before it wrote).
      if (parsed && (id != batch.feed_id || held_ >= options_.batch_bytes)) {
        if (!batch.feed_id.empty()) more = push(std::move(batch));
        batch = FeedBatch();
        batch.feed_id = id;
        index_.clear();
        contents_.clear();
        held_ = 0;
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
    if (read.snapshot) summary_.not_ingested.push_back(read.snapshot->path);
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
    if (read.snapshot) summary_.not_ingested.push_back(read.snapshot->path);
    message("error: " + read.error);
    return;
  }
  const Snapshot& snap = *read.snapshot;
  // A snapshot without a feed id gets its key once its feed is known.
  const std::string key = schema::snapshot_key(batch.feed_id, snap.observed, read.body_hash);
  if (snap.feed_id.empty() && (ingested_.count(key) || !applied_.insert(key).second)) {
    summary_.snapshots_skipped++;
    return;
  }
  ParsedFeed& parsed = read.feed;
  for (const auto& w : parsed.warnings) message("warning: " + w);
  summary_.warnings += static_cast<long>(parsed.warnings.size());
  summary_.items_seen += static_cast<long>(parsed.posts.size());

  batch.snapshots.push_back({key, snap.path});
  // The feed's title, link and URL are the newest snapshot's, whatever
  // order the snapshots came in.
  const bool newest = batch.snapshots.size() == 1 || snap.observed >= batch.newest;
  if (newest) {
    if (!snap.feed_title.empty()) batch.title = snap.feed_title;
    else if (!parsed.title.empty()) batch.title = parsed.title;
    if (!parsed.link.empty()) batch.link = parsed.link;
    if (!snap.final_url.empty()) batch.url = snap.final_url;
  }
  if (newest) {
    batch.newest = snap.observed;
    batch.newest_body = read.body_hash;
  }
  // A body cut short (feed_parser.h: ParsedFeed::complete) holds only some
  // of the feed's items: what it lacks says nothing about what left the
  // feed.
  if (parsed.complete && (!batch.have_complete || snap.observed > batch.newest_complete)) {
    batch.newest_complete = snap.observed;
    batch.have_complete = true;
  }
  for (std::size_t i = 0; i < parsed.posts.size(); ++i) {
    Post& item = parsed.posts[i];
    std::string post = post_key(item, batch.feed_id);
    auto [it, added] = index_.emplace(post, batch.posts.size());
    if (added) {
      held_ += sizeof(BatchPost) + 2 * post.size();
      batch.posts.emplace_back();
      batch.posts.back().key = std::move(post);
    }
    BatchPost& p = batch.posts[it->second];
    const std::string& hash = read.item_hashes[i];
    auto known = contents_.find(hash);
    if (known == contents_.end()) {
      // Stripped by the reader unless an earlier batch of this run had it.
      KnownContent k;
      k.content = read.stripped[i] ? std::move(read.contents[i]) : make_content(item);
      k.hash = content_hash(k.content);
      held_ += content_bytes(k.content) + hash.size() + k.hash.size();
      known = contents_.emplace(hash, std::move(k)).first;
    }
    auto [c, fresh] = p.index.emplace(known->second.hash, static_cast<std::uint32_t>(p.contents.size()));
    if (fresh) {
      p.contents.push_back(known->second.content);
      held_ += content_bytes(p.contents.back()) + known->second.hash.size();
    }
    p.seen.push_back({snap.observed, &snap, c->second});
    held_ += sizeof(Appearance);
  }
}

}  // namespace blogsearch
