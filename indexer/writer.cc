// writer.cc: snapshots -> Xapian documents.
//
// A run is processed feed by feed. Every snapshot is read, hashed, parsed,
// stripped and merged into its feed's batch on other threads
// (feed_batch.h), the next feeds while this thread writes the one before.
// For each post of a batch this thread reads what its shard holds of it
// (once every shard has written the batch before); worker threads merge
// that with the batch's appearances, replay them (replay.h) and build the
// document (document_builder.h); this thread hands each document to its
// shard's thread (shard_thread.h), which adds or replaces it while the
// other shards write theirs. Each post is written once per batch, so a
// backfill of thousands of snapshots stays close to the cost of parsing
// them.
//
// The metadata (feeds, snapshots ingested, schema version) lives in shard 0
// and is kept in memory until a commit: every shard commits its documents
// first, then shard 0 gets the metadata and commits again. A kill between
// the two leaves documents whose snapshots are not marked ingested; the
// next run ingests those snapshots again, and since replay counts an
// appearance once, it ends where an uninterrupted run would.
#include "indexer/writer.h"

#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "indexer/copy_count.h"
#include "indexer/date.h"
#include "indexer/db_layout.h"
#include "indexer/document_builder.h"
#include "indexer/feed_batch.h"
#include "indexer/ordered_pool.h"
#include "indexer/replay.h"
#include "indexer/schema.h"
#include "indexer/shard_thread.h"
#include "indexer/spelling_writer.h"
#include "record/feed_meta.h"
#include "record/post_record.h"

namespace blogsearch {
namespace fs = std::filesystem;

namespace {

constexpr const char* kLockInfoFile = "blogsearch-writer";

// Why the database directory (and the generation its stub names) cannot be
// written, or "" when nothing stands in the way.
std::string why_not_writable(const std::string& path) {
  std::error_code ec;
  std::vector<fs::path> dirs{fs::path(path)};
  for (const auto& entry : fs::directory_iterator(path, ec)) {
    if (entry.is_directory(ec) && entry.path().filename().string().rfind("gen-", 0) == 0) dirs.push_back(entry.path());
  }
  for (const auto& dir : dirs) {
    struct statvfs fsinfo {};
    if (::statvfs(dir.c_str(), &fsinfo) == 0 && (fsinfo.f_flag & ST_RDONLY))
      return dir.string() + " is on a read-only file system";
    if (::access(dir.c_str(), W_OK) != 0)
      return "no permission to write " + dir.string() + " (" + std::strerror(errno) + ")";
  }
  return {};
}

// What the database holds of one post, read on the writer's thread and
// handed to a worker.
struct Stored {
  Xapian::docid docid = 0;  // 0 = not in the database yet
  std::string history;      // document data
  std::string text;         // kSlotText as stored (the history may point at it)
  std::string record;       // kSlotRecord
  std::string hash;         // kSlotContentHash: the current version's
  std::string duplicate_key;  // kSlotDuplicateKey
};

// A post to (re)write: its stored state and, unless it is only checked for
// having left a feed, its appearances in this batch.
struct Job {
  std::string key;
  Stored stored;
  const BatchPost* batch = nullptr;
};

// What a worker made of a Job.
struct Made {
  enum class Change { kAdded, kUpdated, kUnchanged };
  Change change = Change::kUnchanged;
  bool write = false;  // anything differs from what is stored
  Xapian::Document doc;
  // Versions whose first snapshot is neither in this batch nor recorded:
  // its file is looked up on the writer's thread (snapshot metadata).
  std::vector<std::size_t> unknown_snapshots;
  PostHistory history;  // kept only when unknown_snapshots is not empty
  DocumentInput input;  // the same
};

}  // namespace

struct Writer::Impl {
  std::string path;
  Layout layout;
  std::vector<std::unique_ptr<ShardThread>> shards;
  bool wrote_lock_info = false;
  bool other_schema = false;  // opened with AnySchema and not of ours

  std::unique_ptr<SpellingWriter> spelling;  // "did you mean" data, on its own thread
  std::vector<Stemmers> stemmers;  // one per worker of the pool, kept from batch to batch
  bool in_transaction = false;
  bool wrote_documents = false;  // in the open transaction: its commit stores the copies' count
  // The copies (schema::kMetaCopies), read at this run's first write and
  // kept up to date by each write since; read again after a roll-back.
  CopyCount copy_count;
  bool copy_count_read = false;
  std::chrono::steady_clock::time_point transaction_start;
  static constexpr std::chrono::seconds kCommitInterval{2};

  // Every feed met in this run, as stored plus this run's changes. The
  // workers read `newest` and `feeds` while a batch is written; they change
  // only between batches.
  std::map<std::string, FeedMeta> feeds;
  std::map<std::string, Time> newest;  // feed id -> newest complete snapshot
  // Metadata of the open transaction, stored in shard 0 at its commit:
  // snapshot keys -> archive files, and the feeds changed.
  std::map<std::string, std::string> pending_snapshots;
  std::map<std::string, FeedMeta> pending_feeds;
  unsigned long long commit_number = 0;  // the last one (schema::kMetaCommit)
  // New documents get interleaved ids (schema.h: next_interleaved_docid):
  // true for a database created empty or already interleaved; false for
  // a sharded one written before, which keeps adding documents as Xapian
  // numbers them until a rebuild.
  bool interleaved = false;

  unsigned shard_count() const { return static_cast<unsigned>(shards.size()); }
  unsigned shard_index(const std::string& key) const { return schema::shard_of(key, shard_count()); }
  ShardThread& shard_for(const std::string& key) { return *shards[shard_index(key)]; }
  // Shard 0's database, which holds the metadata: only while the shards
  // are idle (after drain()).
  Xapian::WritableDatabase& meta() { return shards[0]->database(); }

  // Waits until every shard has run what it was given; then rethrows the
  // first failure of any.
  void drain() {
    std::exception_ptr first;
    for (auto& s : shards) {
      try {
        s->wait();
      } catch (...) {
        if (!first) first = std::current_exception();
      }
    }
    if (first) std::rethrow_exception(first);
  }

  IngestSummary* summary = nullptr;
  const IngestOptions* options = nullptr;

  FeedMeta& feed_meta(const std::string& id) {
    auto it = feeds.find(id);
    if (it != feeds.end()) return it->second;
    FeedMeta f = decode_feed_meta(meta().get_metadata(schema::kMetaFeedPrefix + id), id);
    if (f.newest_complete) newest[id] = *f.newest_complete;
    return feeds.emplace(id, std::move(f)).first->second;
  }

  // Writes the metadata of the open transaction to shard 0 (idle).
  void store_metadata() {
    Xapian::WritableDatabase& db = meta();
    for (const auto& [key, file] : pending_snapshots) db.set_metadata(key, file);
    for (const auto& [id, f] : pending_feeds) {
      // Keys other commands store (fetch state) are kept: read them again.
      FeedMeta now = decode_feed_meta(db.get_metadata(schema::kMetaFeedPrefix + id), id);
      FeedMeta out = f;
      out.fetch = now.fetch;
      out.other = now.other;
      db.set_metadata(schema::kMetaFeedPrefix + id, encode_feed_meta(out));
    }
    db.set_metadata(schema::kMetaSchemaVersion, std::to_string(schema::kSchemaVersion));
    pending_snapshots.clear();
    pending_feeds.clear();
  }

  // What the post's shard holds of it (the shards idle).
  Stored load(const std::string& key) {
    Stored s;
    Xapian::WritableDatabase& db = shard_for(key).database();
    const std::string term = schema::id_term(key);
    Xapian::PostingIterator pit = db.postlist_begin(term);
    if (pit == db.postlist_end(term)) return s;
    s.docid = *pit;
    Xapian::Document doc = db.get_document(s.docid);
    s.history = doc.get_data();
    s.text = doc.get_value(schema::kSlotText);
    s.record = doc.get_value(schema::kSlotRecord);
    s.hash = doc.get_value(schema::kSlotContentHash);
    s.duplicate_key = doc.get_value(schema::kSlotDuplicateKey);
    return s;
  }

  // The archive file of a feed's snapshot at `t`, from its metadata key
  // (the shards idle).
  std::string snapshot_file(const std::string& feed, Time t) {
    const std::string prefix = schema::snapshot_key_prefix(feed, t);
    if (auto p = pending_snapshots.lower_bound(prefix);
        p != pending_snapshots.end() && p->first.compare(0, prefix.size(), prefix) == 0)
      return p->second;
    Xapian::WritableDatabase& db = meta();
    auto it = db.metadata_keys_begin(prefix);
    return it == db.metadata_keys_end(prefix) ? std::string() : db.get_metadata(*it);
  }

  // Runs on a worker: merges, replays and builds one post's document.
  Made make(const Job& job, const std::string& feed_id, Xapian::TermGenerator& tg, Stemmers& stems,
            SpellingCounts& words) const {
    Made out;
    PostHistory history;
    if (job.stored.docid != 0) history = decode_post_history(job.stored.history, job.stored.text);
    // Snapshot files known without the database: this batch's, and the
    // stored versions' first ones.
    std::map<std::pair<std::string, Time>, std::string> files;
    for (const Version& v : history.versions)
      if (!v.snapshot.empty()) files.emplace(std::make_pair(v.feed, v.first_seen), v.snapshot);
    if (job.batch) {
      std::unordered_map<std::string, std::uint32_t> index;
      for (std::uint32_t i = 0; i < history.contents.size(); ++i) index.emplace(content_hash(history.contents[i]), i);
      std::vector<std::uint32_t> to_stored;
      for (const VersionContent& c : job.batch->contents) {
        auto [it, fresh] = index.emplace(content_hash(c), static_cast<std::uint32_t>(history.contents.size()));
        if (fresh) history.contents.push_back(c);
        to_stored.push_back(it->second);
      }
      FeedAppearances* mine = nullptr;
      for (auto& a : history.appearances)
        if (a.feed == feed_id) mine = &a;
      if (!mine) {
        history.appearances.push_back({feed_id, {}, {}});
        mine = &history.appearances.back();
      }
      for (const Appearance& a : job.batch->seen) {
        mine->times.push_back(a.observed);
        mine->contents.push_back(to_stored[a.content]);
        files[std::make_pair(feed_id, a.observed)] = a.snapshot->path;
      }
    }
    bool unknown = false;
    ReplayResult r = replay(std::move(history), newest, [&](const std::string& feed, Time t) {
      auto it = files.find(std::make_pair(feed, t));
      if (it != files.end()) return it->second;
      unknown = true;
      return std::string();
    });
    if (r.history.versions.empty()) return out;  // no appearance at all: nothing to write

    const VersionContent& current = r.history.contents[r.current];
    PostRecord rec;
    rec.id = job.key;
    rec.link = current.link;
    rec.title = current.title;
    rec.authors = current.authors;
    rec.categories = current.categories;
    rec.feed_id = r.feed;
    if (auto f = feeds.find(r.feed); f != feeds.end()) {
      rec.feed_title = f->second.title;
      rec.feed_url = f->second.url;
    }
    rec.feeds = r.feeds;
    if (r.published) rec.published = format_rfc3339(*r.published);
    if (r.updated) rec.updated = format_rfc3339(*r.updated);
    rec.first_seen = format_rfc3339(r.first_seen);
    rec.last_seen = format_rfc3339(r.last_seen);
    rec.last_change = format_rfc3339(r.history.last_change);
    rec.versions = static_cast<long>(r.history.versions.size());
    rec.in_feed = r.in_feed;
    rec.no_text = r.no_text;
    rec.summary = current.summary;
    rec.content_hash = content_hash(current);
    rec.snapshot = r.history.versions.back().snapshot;

    DocumentInput in;
    in.id = job.key;
    in.text = r.text;
    in.published = r.published;
    in.updated = r.updated;
    in.first_seen = r.first_seen;
    in.last_seen = r.last_seen;
    in.feeds = r.feeds;
    in.feed_title = rec.feed_title;
    in.in_feed = r.in_feed;
    in.content_hash = rec.content_hash;
    in.record = encode_post_record(rec);
    in.history = encode_post_history(r.history, r.text);

    out.change = job.stored.docid == 0              ? Made::Change::kAdded
                 : job.stored.hash != in.content_hash ? Made::Change::kUpdated
                                                      : Made::Change::kUnchanged;
    out.write = unknown || job.stored.docid == 0 || in.history != job.stored.history || in.record != job.stored.record;
    if (!out.write) return out;
    // Spelling data counts a post's words when its text changes, not each
    // time it is seen again.
    SpellingCounts ignored;
    in.content = &current;
    out.doc = build_document(in, tg, stems, out.change == Made::Change::kUnchanged ? ignored : words);
    if (unknown) {
      for (std::size_t i = 0; i < r.history.versions.size(); ++i)
        if (r.history.versions[i].snapshot.empty()) out.unknown_snapshots.push_back(i);
      out.history = std::move(r.history);
      out.input = std::move(in);
      out.input.content = nullptr;
    }
    return out;
  }

  // Posts of `feed` shown in the feed that this batch does not hold: when
  // the feed's newest snapshot moves on, each may have left it (the shards
  // idle). The two terms' posting lists are walked side by side, not asked
  // of an Enquire: Xapian 1.4.22's matcher, with BoolWeight and as many
  // results asked for as a term has postings, throws "Unexpected end of
  // posting list" when the ids are not contiguous, as in every shard
  // (docs/design.md).
  std::vector<std::string> maybe_dropped(const std::string& feed, const FeedBatch& batch) {
    std::unordered_set<std::string> in_batch;
    for (const auto& p : batch.posts) in_batch.insert(p.key);
    std::vector<std::string> keys;
    const std::string feed_term = schema::exact_term(schema::kFeed, feed);
    const std::string yes = std::string(schema::kInFeed) + "yes";
    for (auto& shard : shards) {
      Xapian::WritableDatabase& db = shard->database();
      auto f = db.postlist_begin(feed_term), y = db.postlist_begin(yes);
      const auto f_end = db.postlist_end(feed_term), y_end = db.postlist_end(yes);
      while (f != f_end && y != y_end) {
        if (*f < *y) {
          f.skip_to(*y);
        } else if (*y < *f) {
          y.skip_to(*f);
        } else {
          std::string key = parse_post_record(db.get_document(*f).get_value(schema::kSlotRecord), *f).id;
          if (!key.empty() && !in_batch.count(key)) keys.push_back(std::move(key));
          ++f;
        }
      }
    }
    return keys;
  }

  // Hands a document to its post's shard; `old_key` is the kSlotDuplicateKey
  // value of the document it replaces.
  void post_write(const std::string& key, Xapian::docid docid, Xapian::Document doc, const std::string& old_key) {
    if (!copy_count_read) read_copy_count();
    if (docid != 0)
      if (auto k = schema::duplicate_key_hash(old_key)) copy_count.remove(*k);
    if (auto k = schema::duplicate_key_hash(doc.get_value(schema::kSlotDuplicateKey))) copy_count.add(*k);
    // One handle of the document crosses to the shard's thread (Xapian's
    // reference counts are not atomic).
    auto owned = std::make_shared<Xapian::Document>(std::move(doc));
    wrote_documents = true;
    const unsigned shard = shard_index(key), k = shard_count();
    shards[shard]->post([docid, owned, shard, k, fresh_ids = interleaved](Xapian::WritableDatabase& db) {
      if (docid != 0) db.replace_document(docid, *owned);  // an update keeps its id
      else if (fresh_ids) db.replace_document(schema::next_interleaved_docid(db.get_lastdocid(), shard, k), *owned);
      else db.add_document(*owned);
    });
  }

  // Reads every post's duplicate key into copy_count, each shard's on its
  // own thread, with what was written to them so far.
  void read_copy_count() {
    std::vector<std::vector<std::uint64_t>> hashes(shard_count());
    for (unsigned n = 0; n < shard_count(); ++n)
      shards[n]->post([&keys = hashes[n]](Xapian::WritableDatabase& db) {
        keys.reserve(db.get_value_freq(schema::kSlotDuplicateKey));
        for (auto v = db.valuestream_begin(schema::kSlotDuplicateKey); v != db.valuestream_end(schema::kSlotDuplicateKey);
             ++v)
          if (auto k = schema::duplicate_key_hash(*v)) keys.push_back(*k);
      });
    drain();
    std::vector<std::uint64_t> keys;
    for (auto& shard : hashes) keys.insert(keys.end(), shard.begin(), shard.end());
    copy_count.reset(std::move(keys));
    copy_count_read = true;
  }

  // Writes one feed's batch.
  void write_batch(FeedBatch& batch) {
    // This thread reads the shards below: what they were given is written
    // first (a post of this batch may have been in the one before).
    drain();
    summary->batches++;
    FeedMeta& feed = feed_meta(batch.feed_id);
    // Title, link and URL come from the feed's newest snapshot: a batch of
    // older ones (a backfill) leaves them.
    const bool holds_newest =
        !batch.snapshots.empty() && (feed.latest_body.empty() || batch.newest >= feed.latest_observed);
    if (holds_newest && !batch.title.empty()) feed.title = batch.title;
    if (holds_newest && !batch.link.empty()) feed.link = batch.link;
    if (holds_newest && !batch.url.empty()) feed.url = batch.url;
    if (holds_newest) {
      feed.latest_observed = batch.newest;
      feed.latest_body = batch.newest_body;
    }
    const bool moved_on = batch.have_complete && (!feed.newest_complete || batch.newest_complete > *feed.newest_complete);
    if (moved_on) {
      feed.newest_complete = batch.newest_complete;
      newest[batch.feed_id] = batch.newest_complete;
    }
    // The feeds of the batch's posts are needed for their titles and newest
    // snapshots: read them before the workers start.
    std::vector<Job> jobs;
    for (const auto& p : batch.posts) jobs.push_back({p.key, load(p.key), &p});
    if (moved_on)
      for (auto& key : maybe_dropped(batch.feed_id, batch)) jobs.push_back({key, load(key), nullptr});
    for (const auto& job : jobs)
      if (job.stored.docid != 0)
        for (const auto& f : parse_post_record(job.stored.record, job.stored.docid).feeds) feed_meta(f);

    std::vector<Xapian::TermGenerator> generators;
    for (std::size_t i = 0; i < pool_threads(); ++i) generators.push_back(make_term_generator());
    std::vector<SpellingCounts> words(generators.size());
    stemmers.resize(generators.size());
    const std::string feed_id = batch.feed_id;
    OrderedPool<Made> pool(jobs.size(), generators.size(), 32, [&](std::size_t i, std::size_t worker) {
      return make(jobs[i], feed_id, generators[worker], stemmers[worker], words[worker]);
    });
    // Documents that need snapshot files looked up in the metadata wait
    // until the shards are idle again.
    std::vector<std::pair<std::size_t, Made>> later;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      Made made;
      pool.next(made);
      if (jobs[i].batch) {
        if (made.change == Made::Change::kAdded) summary->posts_added++;
        else if (made.change == Made::Change::kUpdated) summary->posts_updated++;
        else summary->posts_unchanged++;
      }
      if (!made.write) continue;
      if (!made.unknown_snapshots.empty()) {
        later.emplace_back(i, std::move(made));
        continue;
      }
      post_write(jobs[i].key, jobs[i].stored.docid, std::move(made.doc), jobs[i].stored.duplicate_key);
      if (options->on_document_written) options->on_document_written();
    }
    if (!later.empty()) drain();
    for (auto& [i, made] : later) {
      {
        for (std::size_t v : made.unknown_snapshots) {
          Version& version = made.history.versions[v];
          version.snapshot = snapshot_file(version.feed, version.first_seen);
        }
        made.doc.set_data(encode_post_history(made.history, made.input.text));
        if (made.unknown_snapshots.back() + 1 == made.history.versions.size()) {
          PostRecord rec = parse_post_record(made.input.record, 0);
          rec.snapshot = made.history.versions.back().snapshot;
          made.doc.add_value(schema::kSlotRecord, encode_post_record(rec));
        }
      }
      post_write(jobs[i].key, jobs[i].stored.docid, std::move(made.doc), jobs[i].stored.duplicate_key);
      if (options->on_document_written) options->on_document_written();
    }
    // Every job has been handed out, so the workers are done with `words`.
    for (auto& counts : words) spelling->add(std::move(counts));
    for (const auto& s : batch.snapshots) pending_snapshots[s.key] = s.path;
    feed.last_ingest = format_rfc3339(std::time(nullptr));
    pending_feeds[feed.id] = feed;
  }

  // Drops what this run changed since its last commit, in memory and in the
  // shards (after a failed write, or when the reading stopped).
  void roll_back() {
    feeds.clear();
    newest.clear();
    pending_snapshots.clear();
    pending_feeds.clear();
    try {
      spelling->cancel();
    } catch (const DatabaseError&) {
      // Reported below if it was the cause; the documents' error wins.
    }
    try {
      drain();
    } catch (...) {
      // The first failure is the one being reported.
    }
    wrote_documents = false;
    copy_count_read = false;  // it counted what is dropped now
    if (in_transaction) {
      in_transaction = false;
      // A commit that failed part way (disk full) has already ended the
      // transaction; cancel_transaction then throws InvalidOperationError,
      // which used to replace the real error ("No space left on device")
      // in the message the user sees.
      for (auto& s : shards) {
        try {
          s->database().cancel_transaction();
        } catch (const Xapian::Error&) {
        }
      }
    }
  }

  // Writes a batch. Batches share one transaction until it is
  // kCommitInterval old (or the run ends): one commit costs a handful of
  // fdatasync calls, which dominated runs over many small feeds, while a
  // crash still loses at most a few seconds of work and never a committed
  // state.
  void flush_batch(FeedBatch* batch, bool end_of_run) {
    try {
      if (batch && !batch->feed_id.empty() && !(batch->posts.empty() && batch->snapshots.empty())) {
        if (!in_transaction) {
          for (auto& s : shards) s->post([](Xapian::WritableDatabase& db) { db.begin_transaction(); });
          in_transaction = true;
          transaction_start = std::chrono::steady_clock::now();
        }
        write_batch(*batch);
      }
      if (in_transaction &&
          (end_of_run || std::chrono::steady_clock::now() - transaction_start >= kCommitInterval)) {
        spelling->commit();
        // Every shard's documents, side by side; then the metadata saying
        // which snapshots they hold.
        const std::string number = std::to_string(++commit_number);
        // Stored at every commit that writes posts, the last one of a run
        // or not: a search between two commits of a long run sees the
        // copies it brought collapsed too.
        const std::string copies = wrote_documents ? std::to_string(copy_count.copies()) : "";
        wrote_documents = false;
        for (unsigned n = 0; n < shard_count(); ++n)
          shards[n]->post([number, docids = interleaved ? schema::interleaved_docids_value(n, shard_count()) : "",
                           copies = n == 0 ? copies : ""](Xapian::WritableDatabase& db) {
            db.set_metadata(schema::kMetaCommit, number);
            if (!docids.empty()) db.set_metadata(schema::kMetaDocids, docids);
            if (!copies.empty()) db.set_metadata(schema::kMetaCopies, copies);
            db.commit_transaction();
          }, true);
        drain();
        in_transaction = false;
        store_metadata();
        meta().commit();
        spelling->wait();
      }
    } catch (...) {
      roll_back();
      throw;
    }
  }
};

Writer::Writer(const std::string& path, unsigned shards) : impl_(std::make_unique<Impl>()) {
  open(path, false, shards);
}

Writer::Writer(const std::string& path, AnySchema) : impl_(std::make_unique<Impl>()) { open(path, true, 0); }

void Writer::open(const std::string& path, bool any_schema, unsigned shards) {
  impl_->path = path;
  Layout& layout = impl_->layout;
  try {
    create_database_layout(path, shards);
    layout = read_layout(path);
  } catch (const std::runtime_error& e) {
    throw DatabaseError(e.what());
  }
  if (layout.kind == Layout::Kind::kSingle && !any_schema)
    throw DatabaseError("database " + path +
                        " is in the layout from before shards (one database per generation); upgrade it with: "
                        "blogsearch-index rebuild --db " + path);
  const bool sharded = layout.kind == Layout::Kind::kSharded || layout.kind == Layout::Kind::kGeneration;
  if (shards != 0 && sharded && shards != layout.shards.size())
    throw DatabaseError("database " + path + " has " + std::to_string(layout.shards.size()) +
                        (layout.shards.size() == 1 ? " shard" : " shards") + ", not " + std::to_string(shards) +
                        "; change that with: blogsearch-index rebuild --shards " + std::to_string(shards) +
                        " --db " + path);
  if (layout.kind == Layout::Kind::kNone || layout.kind == Layout::Kind::kPlain) layout.shards = {path};
  if (layout.spelling.empty()) layout.spelling = schema::spelling_db_path(path);
  for (const std::string& shard : layout.shards) {
    try {
      impl_->shards.push_back(std::make_unique<ShardThread>(
          Xapian::WritableDatabase(shard, sharded ? Xapian::DB_OPEN : Xapian::DB_CREATE_OR_OPEN)));
    } catch (const Xapian::DatabaseLockError&) {
      // Xapian reports a lock it could not even try to take (a read-only
      // file system, no permission) as a lock error too: say what is wrong.
      if (std::string why = why_not_writable(path); !why.empty()) {
        throw DatabaseError("cannot write database " + path + ": " + why);
      }
      std::string holder;
      std::ifstream info(fs::path(path) / kLockInfoFile);
      std::getline(info, holder);
      throw DatabaseLocked("database " + path + " is locked by another writer" +
                           (holder.empty() ? std::string() : " (" + holder + ")") +
                           "; wait for it to finish and run again");
    } catch (const Xapian::DatabaseCorruptError& e) {
      throw DatabaseDamaged(schema::damaged_database_message(path, e.get_msg()), e.get_msg());
    } catch (const Xapian::Error& e) {
      throw DatabaseError("cannot open database " + path + ": " + e.get_description() +
                          " (--db must be a blogsearch database directory, or a new path to create one)");
    }
  }
  // After a kill between two shards' commits they hold different numbers:
  // the next commit makes them agree again.
  for (auto& s : impl_->shards)
    impl_->commit_number =
        std::max(impl_->commit_number, std::strtoull(s->database().get_metadata(schema::kMetaCommit).c_str(), nullptr, 10));
  {
    // Interleaved ids (schema.h) for a database that has no documents yet
    // or already has them; one shard's ids always are. A mark its ids no
    // longer match (a shard renumbered by xapian-compact) goes at the next
    // commit: the ids then repeat across shards, until a rebuild.
    bool empty = true, marked = true;
    const unsigned k = impl_->shard_count();
    for (unsigned n = 0; n < k; ++n) {
      Xapian::WritableDatabase& db = impl_->shards[n]->database();
      empty = empty && db.get_lastdocid() == 0;
      marked = marked && schema::ids_interleaved(db, n, k);
    }
    impl_->interleaved = empty || marked || k == 1;
    if (!impl_->interleaved)
      for (unsigned n = 0; n < k; ++n) {
        Xapian::WritableDatabase& db = impl_->shards[n]->database();
        if (!db.get_metadata(schema::kMetaDocids).empty()) db.set_metadata(schema::kMetaDocids, "");
      }
  }
  impl_->spelling = std::make_unique<SpellingWriter>(layout.spelling);
  std::string version = impl_->meta().get_metadata(schema::kMetaSchemaVersion);
  impl_->other_schema = !version.empty() && version != std::to_string(schema::kSchemaVersion);
  if (impl_->other_schema && !any_schema)
    throw DatabaseError("database " + path + " has schema version " + version + ", this blogsearch writes " +
                        std::to_string(schema::kSchemaVersion) +
                        "; rebuild it from the snapshot archive (blogsearch-index rebuild --db " + path + ") or add the "
                        "snapshots to a new --db");
  std::ofstream info(fs::path(path) / kLockInfoFile, std::ios::trunc);
  info << "pid " << getpid() << ", since " << format_rfc3339(std::time(nullptr)) << '\n';
  impl_->wrote_lock_info = static_cast<bool>(info);
  // Holding the lock, nothing else can be building a generation.
  if (has_generations(path)) remove_stale_generations(path);
}

Writer::~Writer() {
  if (impl_->wrote_lock_info) {
    std::error_code ec;
    fs::remove(fs::path(impl_->path) / kLockInfoFile, ec);
  }
}

Xapian::WritableDatabase& Writer::database() { return impl_->meta(); }

unsigned Writer::shard_count() const { return impl_->shard_count(); }

const std::vector<std::string>& Writer::shard_paths() const { return impl_->layout.shards; }

IngestSummary Writer::ingest(const std::vector<Snapshot>& snapshots, const IngestOptions& options) {
  if (impl_->other_schema)
    throw DatabaseError("database " + impl_->path + " is of another schema version: it can only be rebuilt");
  auto start = std::chrono::steady_clock::now();
  IngestSummary summary, reading;
  Impl& w = *impl_;
  w.summary = &summary;
  w.options = &options;
  w.feeds.clear();
  w.newest.clear();
  try {
    std::unordered_set<std::string> ingested;
    const std::string prefix = schema::kMetaSnapshotPrefix;
    for (auto it = w.meta().metadata_keys_begin(prefix); it != w.meta().metadata_keys_end(prefix); ++it)
      ingested.insert(*it);
    {
      // The next feeds are read and merged while this thread writes.
      BatchReader reader(snapshots, std::move(ingested), options, reading);
      FeedBatch batch;
      for (;;) {
        bool more = false;
        try {
          more = reader.next(batch);
        } catch (...) {  // the reading stopped (IngestOptions::before_read threw)
          w.roll_back();
          throw;
        }
        if (!more) break;
        w.flush_batch(&batch, false);
      }
    }
    w.flush_batch(nullptr, true);
  } catch (const Xapian::DatabaseCorruptError& e) {
    summary.errors++;
    throw DatabaseDamaged(schema::damaged_database_message(w.path, e.get_msg()), e.get_msg());
  } catch (const Xapian::Error& e) {
    summary.errors++;
    throw DatabaseError("writing database " + w.path + " failed: " + e.get_description() +
                        " (the changes not yet committed were rolled back; run again to apply them)");
  }
  summary.snapshots_read = reading.snapshots_read;
  summary.snapshots_skipped = reading.snapshots_skipped;
  summary.items_seen = reading.items_seen;
  summary.warnings += reading.warnings;
  summary.errors += reading.errors;
  summary.not_ingested = std::move(reading.not_ingested);
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace blogsearch
