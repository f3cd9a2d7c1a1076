// read_ahead.cc: parsing snapshots in parallel, applying them in order.
#include "indexer/read_ahead.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <new>

#include "indexer/document_builder.h"
#include "indexer/feed_parser.h"
#include "indexer/schema.h"

namespace blogsearch {

std::string item_hash(const Post& p) {
  XXH3_state_t* st = XXH3_createState();
  XXH3_64bits_reset(st);
  auto add = [&](std::string_view s) {
    XXH3_64bits_update(st, s.data(), s.size());
    XXH3_64bits_update(st, "\0", 1);
  };
  add(p.title);
  add(p.link);
  for (const auto& a : p.authors) add(a);
  add("\x01");
  for (const auto& c : p.categories) add(c);
  add("\x01");
  for (const auto& c : p.category_terms) add(c);
  add("\x01");
  add(p.published ? std::to_string(*p.published) : "");
  add(p.updated ? std::to_string(*p.updated) : "");
  add(p.summary);
  add(p.summary_is_html ? "h" : "t");
  add(p.content);
  add(p.content_is_html ? "h" : "t");
  std::string out = schema::hex64(XXH3_64bits_digest(st));
  XXH3_freeState(st);
  return out;
}

std::string snapshot_hash(const std::string& body) {
  return schema::hex64(XXH3_64bits(body.data(), body.size()));
}

ReadAhead::ReadAhead(const std::vector<Snapshot>& snapshots, std::unordered_set<std::string> ingested,
                     Limits limits)
    : snapshots_(snapshots),
      ingested_(std::move(ingested)),
      limits_(std::move(limits)),
      seen_(ingested_),
      pool_(
          snapshots.size(), pool_threads(), 4096, [this](std::size_t i, std::size_t) { return read(i); },
          [this](std::size_t i) { return static_cast<std::size_t>(snapshots_[i].bytes); }, limits_.budget) {}

// The writer's thread is the ingest's critical path (the database is
// written by it alone): on a busy core the readers, which only work ahead
// of it, give way. Linux applies a nice value to one thread; elsewhere this
// may lower the whole process, which only makes it a politer batch job.
void yield_to_writer() {
  static thread_local bool lowered = false;
  if (lowered) return;
  lowered = true;
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
}

// Runs on a worker. Whether a body repeats one seen before is settled in
// next(), in list order; here it only saves parsing a body that is surely a
// repeat (already ingested, or read at a lower index).
ReadSnapshot ReadAhead::read(std::size_t index) {
  yield_to_writer();
  if (limits_.before_read) limits_.before_read(index);
  const Snapshot& snap = snapshots_[index];
  ReadSnapshot r;
  r.snapshot = &snap;
  try {
    std::string body = read_file(snap.path, limits_.max_bytes);
    r.body_hash = snapshot_hash(body);
    r.key = schema::snapshot_key(snap.feed_id, snap.observed, r.body_hash);
    // Without a feed id the key is settled after parsing (feed_batch.cc).
    bool repeat = !snap.feed_id.empty() && ingested_.count(r.key) > 0;
    if (!repeat) {
      std::lock_guard<std::mutex> lock(first_mutex_);
      auto [it, inserted] = first_index_.emplace(r.key, index);
      if (!inserted) {
        repeat = it->second < index;
        it->second = std::min(it->second, index);
      }
    }
    if (!repeat) {
      try {
        r.feed = parse_feed(body, snap.path, parse_options_for(snap, limits_.parse));
        const std::size_t n = r.feed.posts.size();
        r.item_hashes.reserve(n);
        r.contents.resize(n);
        r.stripped.assign(n, false);
        for (std::size_t i = 0; i < n; ++i) {
          r.item_hashes.push_back(item_hash(r.feed.posts[i]));
          bool strip = true;
          {
            std::lock_guard<std::mutex> lock(first_mutex_);
            auto [it, inserted] = claims_.emplace(snap.feed_id + '\n' + r.item_hashes[i], index);
            if (!inserted) {
              strip = index <= it->second;
              it->second = std::min(it->second, index);
            }
          }
          if (strip) {
            r.contents[i] = make_content(r.feed.posts[i]);
            r.stripped[i] = true;
          }
        }
      } catch (const FeedError& e) {
        r.status = ReadSnapshot::Status::kNotAFeed;
        r.error = e.what();
      }
    }
  } catch (const std::bad_alloc&) {
    r.status = ReadSnapshot::Status::kUnreadable;
    r.feed = ParsedFeed();
    r.error = snap.path + ": out of memory while reading it (lower --max-body or --max-items); skipped";
  } catch (const std::exception& e) {  // unreadable file
    r.status = ReadSnapshot::Status::kUnreadable;
    r.error = e.what();
  }
  return r;
}

bool ReadAhead::next(ReadSnapshot& out) {
  if (!pool_.next(out)) return false;
  // The first of equal bodies in list order is the one applied, whichever
  // worker got to it first.
  if (out.status != ReadSnapshot::Status::kUnreadable && !seen_.insert(out.key).second) {
    out.status = ReadSnapshot::Status::kAlreadyIngested;
    out.feed = ParsedFeed();
    out.item_hashes.clear();
    out.contents.clear();
    out.stripped.clear();
    out.error.clear();
  }
  return true;
}

}  // namespace blogsearch
