// writer.cc: snapshots -> Xapian documents.
//
// A run is processed feed by feed. Every snapshot is read, hashed, parsed
// and merged into its feed's batch on other threads (feed_batch.h), the
// next feeds while this thread writes the one before. Each post's
// appearances are then replayed onto what the database holds of it, and
// each changed post is written once, in its newest version, its text and
// terms made by worker threads (post_terms.h) while this thread adds the
// documents. That keeps a backfill of thousands of snapshots close to the
// cost of parsing them.
#include "indexer/writer.h"

#include <sys/statvfs.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <unordered_map>
#include <unordered_set>

#include "indexer/date.h"
#include "indexer/db_layout.h"
#include "indexer/feed_batch.h"
#include "indexer/ordered_pool.h"
#include "indexer/post_terms.h"
#include "indexer/schema.h"
#include "indexer/spelling_writer.h"

namespace blogsearch {
namespace fs = std::filesystem;
using nlohmann::json;

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

// A summary is for display beside a result; a description holding the
// whole post would otherwise be stored twice.
constexpr std::size_t kMaxSummaryBytes = 600;

std::string shorten(const std::string& text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
  std::size_t space = text.rfind(' ', cut);
  if (space != std::string::npos && space > max_bytes / 2) cut = space;
  return text.substr(0, cut) + "\u2026";
}

json time_json(std::optional<Time> t) { return t ? json(format_rfc3339(*t)) : json(nullptr); }

// The strings of a JSON array (none for anything else).
std::vector<std::string> strings_of(const json& array) {
  std::vector<std::string> out;
  if (array.is_array())
    for (const auto& v : array)
      if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

std::optional<Time> json_time(const json& data, const char* key) {
  auto it = data.find(key);
  if (it == data.end() || !it->is_string()) return std::nullopt;
  return parse_date(it->get<std::string>());
}

// What the run knows of one post: its stored data (if any) merged with
// every version seen in this batch.
struct PostState {
  Xapian::docid docid = 0;  // 0 = not in the database yet
  json data;                // the post record being built (schema::kSlotRecord)
  std::string hash;         // current version
  Time first_seen = 0, last_seen = 0;
  Time version_first_seen = 0;  // when the current version first appeared
  std::string snapshot;         // file holding the current version
  std::optional<Post> newest;   // set when the content must be (re)indexed
  bool dirty = false;           // data or values must be written
};

struct FeedInfo {
  std::string id, title, url, link;
  Time latest_observed = 0;  // newest snapshot ever applied for this feed
  std::string last_ingest;
};

}  // namespace

struct Writer::Impl {
  std::string path;
  Xapian::WritableDatabase db;
  bool wrote_lock_info = false;
  bool other_schema = false;  // opened with AnySchema and not of ours

  // Current batch (one feed).
  std::string feed_id;
  FeedInfo feed;
  std::unordered_map<std::string, PostState> posts;
  std::vector<std::string> order;              // posts' keys, in the order written
  std::unordered_set<std::string> in_newest;   // keys in the newest snapshot
  Time newest_snapshot = 0;                    // observed time of that snapshot
  bool have_newest = false;
  std::vector<std::string> snapshot_hashes;
  std::unique_ptr<SpellingWriter> spelling;  // "did you mean" data, on its own thread
  bool in_transaction = false;
  std::chrono::steady_clock::time_point transaction_start;
  static constexpr std::chrono::seconds kCommitInterval{2};

  IngestSummary* summary = nullptr;
  const IngestOptions* options = nullptr;

  FeedInfo load_feed(const std::string& id) {
    FeedInfo f;
    f.id = id;
    std::string raw = db.get_metadata(schema::kMetaFeedPrefix + id);
    json j = json::parse(raw, nullptr, false);
    if (j.is_object()) {
      f.title = j.value("title", "");
      f.url = j.value("url", "");
      f.link = j.value("link", "");
      f.latest_observed = j.value("latest_observed", Time{0});
      f.last_ingest = j.value("last_ingest", "");
    }
    return f;
  }

  void store_feed(const FeedInfo& f) {
    std::string key = schema::kMetaFeedPrefix + f.id;
    json j = json::parse(db.get_metadata(key), nullptr, false);
    if (!j.is_object()) j = json::object();  // keep keys other commands store
    j["id"] = f.id;
    j["title"] = f.title;
    j["url"] = f.url;
    j["link"] = f.link;
    j["latest_observed"] = f.latest_observed;
    j["last_ingest"] = f.last_ingest;
    db.set_metadata(key, j.dump());
  }

  PostState* find_or_load(const std::string& key) {
    if (auto it = posts.find(key); it != posts.end()) return &it->second;
    std::string term = schema::id_term(key);
    Xapian::PostingIterator pit = db.postlist_begin(term);
    if (pit == db.postlist_end(term)) return nullptr;
    PostState st;
    st.docid = *pit;
    st.data = json::parse(db.get_document(st.docid).get_value(schema::kSlotRecord), nullptr, false);
    if (!st.data.is_object()) st.data = json::object();
    st.hash = st.data.value("content_hash", "");
    st.first_seen = json_time(st.data, "first_seen").value_or(0);
    st.last_seen = json_time(st.data, "last_seen").value_or(0);
    st.version_first_seen = st.last_seen;
    if (auto& h = st.data["history"]; h.is_array() && !h.empty())
      st.version_first_seen = json_time(h.back(), "last_seen").value_or(st.first_seen);
    else
      st.version_first_seen = st.first_seen;
    st.snapshot = st.data.value("snapshot", "");
    return &posts.emplace(key, std::move(st)).first->second;
  }

  // Moves the post's state to one more appearance. True when that
  // appearance starts a new version.
  static bool apply_appearance(PostState& st, const std::string& hash, Time t, const std::string& file) {
    bool new_version = false;
    if (t >= st.last_seen) {
      if (hash != st.hash) {
        json& history = st.data["history"];
        if (!history.is_array()) history = json::array();
        if (!st.hash.empty())
          history.push_back({{"content_hash", st.hash},
                             {"first_seen", format_rfc3339(st.version_first_seen)},
                             {"last_seen", format_rfc3339(st.last_seen)},
                             {"snapshot", st.snapshot}});
        st.data["versions"] = st.data.value("versions", 1) + 1;
        st.hash = hash;
        st.version_first_seen = t;
        st.snapshot = file;
        new_version = true;
      }
      if (t != st.last_seen) st.dirty = true;
      st.last_seen = t;
    } else if (t < st.first_seen) {
      // An older snapshot arriving late: it can only extend the history
      // backwards, never replace newer content.
      st.first_seen = t;
      st.dirty = true;
    }
    return new_version;
  }

  // Replays the post's appearances in this batch onto what the database
  // holds of it. A batch never goes back in time (feed_batch.h), so a new
  // version's content is always the post's last appearance.
  void apply_history(PostHistory& h) {
    PostState* st = find_or_load(h.key);
    std::size_t i = 0;
    bool new_content = false;
    if (!st) {
      const Appearance& first = h.seen[0];
      PostState fresh;
      fresh.hash = h.hashes[first.version];
      fresh.first_seen = fresh.last_seen = fresh.version_first_seen = first.observed;
      fresh.snapshot = first.snapshot->path;
      fresh.data = json::object();
      fresh.data["versions"] = 1;
      fresh.data["history"] = json::array();
      fresh.data["id"] = h.key;
      fresh.dirty = true;
      st = &posts.emplace(h.key, std::move(fresh)).first->second;
      new_content = true;
      i = 1;
    }
    for (; i < h.seen.size(); ++i) {
      const Appearance& a = h.seen[i];
      if (apply_appearance(*st, h.hashes[a.version], a.observed, a.snapshot->path)) new_content = true;
    }
    if (new_content) st->newest = std::move(h.last);
    order.push_back(h.key);
  }

  // `terms` is index_post() of st.newest (made on a worker thread).
  Xapian::Document build_document(const std::string& key, PostState& st, PostTerms&& terms) {
    const Post& p = *st.newest;
    Xapian::Document doc = std::move(terms.doc);

    doc.add_boolean_term(schema::id_term(key));
    const std::string& summary_text = terms.summary_text;

    json& d = st.data;
    d["id"] = key;
    d["link"] = p.link;
    d["title"] = p.title;
    d["authors"] = p.authors;
    d["categories"] = p.categories;
    // A date more than a day after the post was first seen is not true
    // (9999-12-31 would rank first by recency for ever): the first-seen time
    // stands in for it. Settled here, against a time that is the same for
    // every snapshot, and not in the parser (feed_parser.cc warns): the
    // content hash, and so the versions, see the date as the feed wrote it.
    constexpr Time kSlack = 24 * 60 * 60;
    auto believable = [&](std::optional<Time> t) {
      return t && *t > st.first_seen + kSlack ? std::optional<Time>(st.first_seen) : t;
    };
    const std::optional<Time> published = believable(p.published), updated = believable(p.updated);
    d["published"] = time_json(published);
    d["updated"] = time_json(updated);
    d["summary"] = shorten(summary_text, kMaxSummaryBytes);
    Time date = published.value_or(updated.value_or(st.first_seen));
    std::string ymd = format_rfc3339(date).substr(0, 10);  // YYYY-MM-DD
    std::string compact = ymd.substr(0, 4) + ymd.substr(5, 2) + ymd.substr(8, 2);
    doc.add_boolean_term(schema::kDay + compact);
    doc.add_boolean_term(schema::kMonth + compact.substr(0, 6));
    doc.add_boolean_term(schema::kYear + compact.substr(0, 4));
    doc.add_value(schema::kSlotPublished, Xapian::sortable_serialise(static_cast<double>(date)));
    if (updated) doc.add_value(schema::kSlotUpdated, Xapian::sortable_serialise(static_cast<double>(*updated)));
    return doc;
  }

  // Values, feed terms and data that change without a new version; the
  // facet value last, from the terms the document now has.
  void refresh_metadata(Xapian::Document& doc, PostState& st) {
    json& d = st.data;
    d["content_hash"] = st.hash;
    d["snapshot"] = st.snapshot;
    d["first_seen"] = format_rfc3339(st.first_seen);
    d["last_seen"] = format_rfc3339(st.last_seen);
    json& feeds = d["feeds"];
    if (!feeds.is_array()) feeds = json::array();
    if (std::find(feeds.begin(), feeds.end(), feed.id) == feeds.end()) feeds.push_back(feed.id);
    for (const auto& f : feeds) doc.add_boolean_term(schema::exact_term(schema::kFeed, f.get<std::string>()));
    set_in_feed_term(doc, d["in_feed"].get<bool>());
    doc.add_value(schema::kSlotFirstSeen, Xapian::sortable_serialise(static_cast<double>(st.first_seen)));
    doc.add_value(schema::kSlotLastSeen, Xapian::sortable_serialise(static_cast<double>(st.last_seen)));
    doc.add_value(schema::kSlotContentHash, st.hash);
    doc.add_value(schema::kSlotFacets, schema::facet_value(doc, strings_of(d.value("authors", json())),
                                                           strings_of(d.value("categories", json()))));
    doc.add_value(schema::kSlotRecord, d.dump(-1, ' ', false, json::error_handler_t::replace));
  }

  static void set_in_feed_term(Xapian::Document& doc, bool in_feed) {
    const std::string yes = std::string(schema::kInFeed) + "yes", no = std::string(schema::kInFeed) + "no";
    for (const auto& t : {yes, no}) {
      try {
        doc.remove_term(t);
      } catch (const Xapian::InvalidArgumentError&) {
        // The term was not there; nothing to remove.
      }
    }
    doc.add_boolean_term(in_feed ? yes : no);
  }

  // Writes every dirty post of the batch and marks posts that left the feed.
  void write_batch() {
    // Only a snapshot at least as new as any applied before says what the
    // feed carries now.
    const bool authoritative = have_newest && newest_snapshot >= feed.latest_observed;
    // Stripping HTML and generating terms (most of the cost of a new
    // version) run on worker threads, in the order the loop below adds the
    // documents, while this thread writes the ones before.
    std::vector<const Post*> to_index;
    for (const auto& key : order) {
      const PostState& st = posts.at(key);
      if (st.newest) to_index.push_back(&*st.newest);
    }
    std::vector<Xapian::TermGenerator> generators;
    for (std::size_t i = 0; i < pool_threads(); ++i) generators.push_back(make_term_generator());
    std::vector<SpellingCounts> words(generators.size());
    OrderedPool<PostTerms> indexer(to_index.size(), generators.size(), 32, [&](std::size_t i, std::size_t worker) {
      return index_post(*to_index[i], generators[worker], words[worker]);
    });
    for (const auto& key : order) {
      PostState& st = posts.at(key);
      if (st.docid == 0) summary->posts_added++;
      else if (st.newest) summary->posts_updated++;
      else summary->posts_unchanged++;
      if (!st.dirty && !st.newest) continue;
      json& d = st.data;
      const bool ours = d.value("feed", json::object()).value("id", feed.id) == feed.id;
      if (authoritative && ours) {
        d["in_feed"] = in_newest.count(key) > 0;
        d["feed"] = {{"id", feed.id}, {"title", feed.title}, {"url", feed.url}};
      } else if (!d.contains("in_feed")) {
        d["in_feed"] = false;
      }
      if (authoritative && !ours && in_newest.count(key)) {
        d["feed"] = {{"id", feed.id}, {"title", feed.title}, {"url", feed.url}};
        d["in_feed"] = true;
      }
      if (!d.contains("feed")) d["feed"] = {{"id", feed.id}, {"title", feed.title}, {"url", feed.url}};
      Xapian::Document doc;
      if (st.newest) {
        PostTerms terms;
        indexer.next(terms);
        doc = build_document(key, st, std::move(terms));
      } else {
        doc = db.get_document(st.docid);
      }
      refresh_metadata(doc, st);
      if (st.docid != 0) db.replace_document(st.docid, doc);
      else st.docid = db.add_document(doc);
      if (options->on_document_written) options->on_document_written();
    }
    // Every job has been handed out, so the workers are done with `words`.
    for (auto& counts : words) spelling->add(std::move(counts));
    if (have_newest && newest_snapshot >= feed.latest_observed) mark_dropped();
  }

  // Posts of this feed that the newest snapshot no longer carries.
  void mark_dropped() {
    Xapian::Query q(Xapian::Query::OP_FILTER, Xapian::Query(schema::exact_term(schema::kFeed, feed.id)),
                    Xapian::Query(std::string(schema::kInFeed) + "yes"));
    Xapian::Enquire enquire(db);
    enquire.set_query(q);
    enquire.set_weighting_scheme(Xapian::BoolWeight());
    Xapian::MSet mset = enquire.get_mset(0, db.get_doccount());
    // The batch's own posts are settled already: skip them unread.
    std::unordered_set<Xapian::docid> in_batch;
    for (const auto& [key, st] : posts) in_batch.insert(st.docid);
    for (auto it = mset.begin(); it != mset.end(); ++it) {
      if (in_batch.count(*it)) continue;
      Xapian::Document doc = it.get_document();
      json d = json::parse(doc.get_value(schema::kSlotRecord), nullptr, false);
      if (!d.is_object()) continue;
      std::string key = d.value("id", "");
      if (in_newest.count(key) || posts.count(key)) continue;
      if (d.value("feed", json::object()).value("id", "") != feed.id) continue;
      d["in_feed"] = false;
      set_in_feed_term(doc, false);
      doc.add_value(schema::kSlotRecord, d.dump(-1, ' ', false, json::error_handler_t::replace));
      db.replace_document(*it, doc);
    }
  }

  // Takes a feed's merged snapshots (feed_batch.h) as the current batch.
  void start_batch(FeedBatch& batch) {
    feed_id = batch.feed_id;
    feed = load_feed(feed_id);
    if (!batch.title.empty()) feed.title = batch.title;
    if (!batch.link.empty()) feed.link = batch.link;
    if (!batch.url.empty()) feed.url = batch.url;
    posts.clear();
    order.clear();
    in_newest = std::move(batch.in_newest);
    have_newest = batch.have_newest;
    newest_snapshot = batch.newest_snapshot;
    snapshot_hashes = std::move(batch.snapshot_hashes);
    for (auto& h : batch.posts) apply_history(h);
  }

  // Writes the current feed's batch. Batches share one transaction until it
  // is kCommitInterval old (or the run ends): one commit costs a handful of
  // fdatasync calls, which dominated runs over many small feeds, while a
  // crash still loses at most a few seconds of work and never a committed
  // state.
  void flush_batch(bool end_of_run) {
    try {
      if (!feed_id.empty() && !(posts.empty() && snapshot_hashes.empty())) {
        if (!in_transaction) {
          db.begin_transaction();
          in_transaction = true;
          transaction_start = std::chrono::steady_clock::now();
        }
        write_batch();
        std::string now = format_rfc3339(std::time(nullptr));
        for (const auto& h : snapshot_hashes) db.set_metadata(schema::kMetaSnapshotPrefix + h, now);
        feed.last_ingest = now;
        if (have_newest && newest_snapshot > feed.latest_observed) feed.latest_observed = newest_snapshot;
        store_feed(feed);
        db.set_metadata(schema::kMetaSchemaVersion, std::to_string(schema::kSchemaVersion));
      }
      feed_id.clear();
      if (in_transaction &&
          (end_of_run || std::chrono::steady_clock::now() - transaction_start >= kCommitInterval)) {
        in_transaction = false;
        spelling->commit();
        db.commit_transaction();
        spelling->wait();
      }
    } catch (...) {
      feed_id.clear();
      try {
        spelling->cancel();
      } catch (const DatabaseError&) {
        // Reported below if it was the cause; the documents' error wins.
      }
      if (in_transaction) {
        in_transaction = false;
        // A commit that failed part way (disk full) has already ended the
        // transaction; cancel_transaction then throws InvalidOperationError,
        // which used to replace the real error ("No space left on device")
        // in the message the user sees.
        try {
          db.cancel_transaction();
        } catch (const Xapian::InvalidOperationError&) {
        }
      }
      throw;
    }
  }

};

Writer::Writer(const std::string& path) : impl_(std::make_unique<Impl>()) { open(path, false); }

Writer::Writer(const std::string& path, AnySchema) : impl_(std::make_unique<Impl>()) { open(path, true); }

void Writer::open(const std::string& path, bool any_schema) {
  impl_->path = path;
  try {
    create_database_layout(path);
    impl_->db = Xapian::WritableDatabase(path, Xapian::DB_CREATE_OR_OPEN);
  } catch (const std::runtime_error& e) {
    throw DatabaseError(e.what());
  } catch (const Xapian::DatabaseLockError&) {
    // Xapian reports a lock it could not even try to take (a read-only file
    // system, no permission) as a lock error too: say what is wrong.
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
    throw DatabaseDamaged(schema::damaged_database_message(path, e.get_msg()));
  } catch (const Xapian::Error& e) {
    throw DatabaseError("cannot open database " + path + ": " + e.get_description() +
                        " (--db must be a blogsearch database directory, or a new path to create one)");
  }
  impl_->spelling = std::make_unique<SpellingWriter>(schema::spelling_db_path(path));
  std::string version = impl_->db.get_metadata(schema::kMetaSchemaVersion);
  impl_->other_schema = !version.empty() && version != std::to_string(schema::kSchemaVersion);
  if (impl_->other_schema && !any_schema)
    throw DatabaseError("database " + path + " has schema version " + version + ", this blogsearch writes " +
                        std::to_string(schema::kSchemaVersion) +
                        "; rebuild it from the snapshot archive (blogsearch-index rebuild) or add the "
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

Xapian::WritableDatabase& Writer::database() { return impl_->db; }

IngestSummary Writer::ingest(const std::vector<Snapshot>& snapshots, const IngestOptions& options) {
  if (impl_->other_schema)
    throw DatabaseError("database " + impl_->path + " is of another schema version: it can only be rebuilt");
  auto start = std::chrono::steady_clock::now();
  IngestSummary summary, reading;
  Impl& w = *impl_;
  w.summary = &summary;
  w.options = &options;
  w.feed_id.clear();
  try {
    std::unordered_set<std::string> ingested;
    const std::string prefix = schema::kMetaSnapshotPrefix;
    for (auto it = w.db.metadata_keys_begin(prefix); it != w.db.metadata_keys_end(prefix); ++it)
      ingested.insert((*it).substr(prefix.size()));
    {
      // The next feeds are read and merged while this thread writes.
      BatchReader reader(snapshots, std::move(ingested), options, reading);
      FeedBatch batch;
      while (reader.next(batch)) {
        w.start_batch(batch);
        w.flush_batch(false);
      }
    }
    w.flush_batch(true);
  } catch (const Xapian::DatabaseCorruptError& e) {
    summary.errors++;
    throw DatabaseDamaged(schema::damaged_database_message(w.path, e.get_msg()));
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
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace blogsearch
