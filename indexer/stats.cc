// stats.cc: summarising a database from its metadata and boolean terms.
#include "indexer/stats.h"

#include <nlohmann/json.hpp>

#include <filesystem>

#include "indexer/date.h"
#include "indexer/schema.h"
#include "indexer/writer.h"

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
  try {
    Xapian::Database db(path);
    stats.documents = static_cast<long>(db.get_doccount());
    stats.schema_version = std::atoi(db.get_metadata(schema::kMetaSchemaVersion).c_str());
    const std::string prefix = schema::kMetaFeedPrefix;
    const std::string in_feed = std::string(schema::kInFeed) + "yes";
    for (auto it = db.metadata_keys_begin(prefix); it != db.metadata_keys_end(prefix); ++it) {
      nlohmann::json j = nlohmann::json::parse(db.get_metadata(*it), nullptr, false);
      if (!j.is_object()) continue;
      FeedStats f;
      f.id = j.value("id", (*it).substr(prefix.size()));
      f.title = j.value("title", "");
      f.url = j.value("url", "");
      f.last_ingest = j.value("last_ingest", "");
      if (auto st = j.find("fetch"); st != j.end() && st->is_object()) {
        f.fetched = true;
        auto text = [&](const char* key) {
          auto v = st->find(key);
          return v != st->end() && v->is_string() ? v->get<std::string>() : std::string();
        };
        f.fetch_url = text("url");
        f.final_url = text("final_url");
        f.last_attempt = text("last_attempt");
        f.last_success = text("last_success");
        f.last_error = text("last_error");
        f.last_status = st->value("last_status", 0);
        f.consecutive_failures = st->value("consecutive_failures", 0L);
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
    throw DatabaseDamaged(schema::damaged_database_message(path, e.get_msg()));
  } catch (const Xapian::Error& e) {
    throw DatabaseError("cannot read database " + path + ": " + e.get_description() +
                        " (create it with: blogsearch-index add --db " + path + " FILES)");
  }
  if (with_ranges) stats.size_bytes = directory_size(path);
  return stats;
}

}  // namespace blogsearch
