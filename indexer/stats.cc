// stats.cc: summarising a database from its metadata and boolean terms.
#include "indexer/stats.h"

#include <filesystem>

#include "indexer/database_error.h"
#include "indexer/db_layout.h"
#include "indexer/date.h"
#include "indexer/schema.h"
#include "record/feed_meta.h"

namespace blogsearch {
namespace fs = std::filesystem;

namespace {

long long directory_size(const std::string& path) {
  long long total = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec)) total += static_cast<long long>(it->file_size(ec));
  return total;
}

// Published dates of the feed's posts: the ends of the value range.
void date_range(const Xapian::Database& db, const std::string& feed_term, FeedStats& out) {
  double lo = 0, hi = 0;
  bool any = false;
  for (auto it = db.postlist_begin(feed_term); it != db.postlist_end(feed_term); ++it) {
    std::string v = db.get_document(*it).get_value(schema::kSlotPublished);
    if (v.empty()) continue;
    double t = Xapian::sortable_unserialise(v);
    if (!any || t < lo) lo = t;
    if (!any || t > hi) hi = t;
    any = true;
  }
  if (any) {
    out.oldest = format_rfc3339(static_cast<Time>(lo));
    out.newest = format_rfc3339(static_cast<Time>(hi));
  }
}

}  // namespace

DatabaseStats read_stats(const std::string& path, bool with_ranges) {
  DatabaseStats stats;
  stats.path = path;
  std::error_code missing;
  if (!std::filesystem::exists(path, missing) && !missing)
    throw DatabaseError("no database at " + path + "; create it with: blogsearch-index add --db " + path + " FILES");
  try {
    Layout layout;
    try {
      layout = read_layout(path);
    } catch (const std::runtime_error& e) {
      throw DatabaseError("cannot read database " + path + ": " + e.what());
    }
    stats.layout = layout.kind == Layout::Kind::kSharded ? "sharded"
                   : layout.kind == Layout::Kind::kSingle ? "single (from before shards: rebuild upgrades it)"
                                                          : "plain";
    if (layout.shards.empty()) layout.shards = {path};
    const unsigned k = static_cast<unsigned>(layout.shards.size());
    bool interleaved = true;
    for (unsigned n = 0; n < k; ++n) {
      const Xapian::Database shard(layout.shards[n]);
      stats.shards.push_back({layout.shards[n], static_cast<long>(shard.get_doccount())});
      interleaved = interleaved && schema::ids_interleaved(shard, n, k);
    }
    // Its document ids repeat across shards (schema.md; written before they
    // were interleaved, or a shard renumbered by xapian-compact): searches
    // work, but a FastCGI process keeps no facet table or sort keys.
    if (layout.kind == Layout::Kind::kSharded && k > 1 && !interleaved)
      stats.layout = "sharded, ids not interleaved (blogsearch-index rebuild makes FastCGI pages faster)";
    Xapian::Database db(path);
    stats.documents = static_cast<long>(db.get_doccount());
    stats.schema_version = std::atoi(db.get_metadata(schema::kMetaSchemaVersion).c_str());
    stats.copies = std::atol(db.get_metadata(schema::kMetaCopies).c_str());
    const std::string prefix = schema::kMetaFeedPrefix;
    const std::string in_feed = std::string(schema::kInFeed) + "yes";
    for (auto it = db.metadata_keys_begin(prefix); it != db.metadata_keys_end(prefix); ++it) {
      const FeedMeta meta = decode_feed_meta(db.get_metadata(*it), (*it).substr(prefix.size()));
      FeedStats f;
      f.id = meta.id;
      f.title = meta.title;
      f.url = meta.url;
      f.last_ingest = meta.last_ingest;
      if (meta.fetch) {
        const FetchState& st = *meta.fetch;
        f.fetched = true;
        f.fetch_url = st.url;
        f.final_url = st.final_url;
        f.last_attempt = st.last_attempt;
        f.last_success = st.last_success;
        f.last_error = st.last_error;
        f.last_status = st.last_status;
        f.consecutive_failures = st.consecutive_failures;
      }
      const std::string feed_term = schema::exact_term(schema::kFeed, f.id);
      f.posts = static_cast<long>(db.get_termfreq(feed_term));
      if (with_ranges) {
        Xapian::Enquire enquire(db);
        enquire.set_query(Xapian::Query(Xapian::Query::OP_FILTER, Xapian::Query(feed_term), Xapian::Query(in_feed)));
        f.in_feed = static_cast<long>(enquire.get_mset(0, 0, db.get_doccount()).get_matches_estimated());
        date_range(db, feed_term, f);
      }
      stats.feeds.push_back(std::move(f));
    }
  } catch (const Xapian::DatabaseCorruptError& e) {
    throw DatabaseDamaged(schema::damaged_database_message(path, e.get_msg()), e.get_msg());
  } catch (const Xapian::Error& e) {
    throw DatabaseError("cannot read database " + path + ": " + e.get_description() +
                        " (create it with: blogsearch-index add --db " + path + " FILES)");
  }
  if (with_ranges) stats.size_bytes = directory_size(path);
  return stats;
}

}  // namespace blogsearch
