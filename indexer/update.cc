// update.cc: fetch -> archive -> ingest, and the fetch state per feed.
#include "indexer/update.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <ctime>

#include "indexer/archive.h"
#include "indexer/date.h"
#include "indexer/feed_parser.h"
#include "indexer/schema.h"

namespace blogsearch {
using nlohmann::json;

namespace {

json load_feed_meta(Xapian::WritableDatabase& db, const std::string& id) {
  json j = json::parse(db.get_metadata(schema::kMetaFeedPrefix + id), nullptr, false);
  return j.is_object() ? j : json::object();
}

std::string body_hash(const std::string& body) { return schema::hex64(XXH3_64bits(body.data(), body.size())); }

}  // namespace

UpdateSummary update_feeds(Writer& writer, const std::vector<FeedConfig>& feeds, const UpdateOptions& options) {
  UpdateSummary summary;
  Xapian::WritableDatabase& db = writer.database();

  std::vector<FetchRequest> requests;
  std::vector<json> states;
  for (const auto& f : feeds) {
    json meta = load_feed_meta(db, f.id);
    json state = meta.value("fetch", json::object());
    // A permanent redirect moved the feed; follow it until the config changes.
    std::string url = f.url;
    if (state.value("config_url", "") == f.url && !state.value("url", "").empty()) url = state["url"];
    else state = json::object();
    state["config_url"] = f.url;
    state["url"] = url;
    requests.push_back({f.id, url, state.value("etag", ""), state.value("last_modified", "")});
    states.push_back(std::move(state));
  }

  auto t0 = std::chrono::steady_clock::now();
  std::vector<FetchResponse> responses = fetch_all(requests, options.fetch);
  summary.fetch_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::vector<Snapshot> snapshots;
  for (std::size_t i = 0; i < feeds.size(); ++i) {
    const FetchResponse& r = responses[i];
    json& state = states[i];
    FeedOutcome out;
    out.id = feeds[i].id;
    out.status = r.status;
    out.error = r.error;
    state["last_attempt"] = format_rfc3339(r.fetched_at ? r.fetched_at : std::time(nullptr));
    state["last_status"] = r.status;
    state["final_url"] = r.final_url;
    if (r.error.empty() && r.status == 200) {
      if (!db.get_metadata(schema::kMetaSnapshotPrefix + body_hash(r.body)).empty()) {
        out.result = "unchanged";
      } else {
        try {
          // Checked before archiving so that an HTML error page or a
          // truncated body never enters the archive.
          parse_feed(r.body, r.final_url);
          Snapshot snap;
          snap.path = archive_snapshot(options.archive_dir, r).path;
          snap.feed_id = feeds[i].id;
          snap.feed_title = feeds[i].title;
          snap.observed = r.fetched_at;
          snap.status = r.status;
          snap.etag = r.etag;
          snap.last_modified = r.last_modified;
          snap.final_url = r.final_url;
          snapshots.push_back(std::move(snap));
          out.result = "new";
          out.snapshot = snapshots.back().path;
        } catch (const FeedError& e) {
          out.error = std::string("not a feed: ") + e.what();
        } catch (const std::runtime_error& e) {
          out.error = e.what();
        }
      }
    } else if (r.error.empty() && r.status == 304) {
      out.result = "not modified";
    }
    if (out.error.empty()) {
      state["last_success"] = state["last_attempt"];
      state["last_error"] = nullptr;
      state["consecutive_failures"] = 0;
      if (!r.etag.empty() || r.status == 200) state["etag"] = r.etag;
      if (!r.last_modified.empty() || r.status == 200) state["last_modified"] = r.last_modified;
      if (r.permanent_redirect) state["url"] = r.final_url;
    } else {
      out.result = "failed";
      state["last_error"] = out.error;
      state["consecutive_failures"] = state.value("consecutive_failures", 0) + 1;
    }
    if (out.result == "new") summary.new_snapshots++;
    else if (out.result == "unchanged") summary.unchanged++;
    else if (out.result == "not modified") summary.not_modified++;
    else summary.failed++;
    summary.feeds.push_back(std::move(out));
  }

  t0 = std::chrono::steady_clock::now();
  summary.ingest = writer.ingest(snapshots, options.ingest);
  summary.ingest_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  try {
    for (std::size_t i = 0; i < feeds.size(); ++i) {
      json meta = load_feed_meta(db, feeds[i].id);
      meta["id"] = feeds[i].id;
      if (!feeds[i].title.empty()) meta["title"] = feeds[i].title;
      if (!meta.contains("url") || meta["url"] == "") meta["url"] = states[i]["url"];
      meta["fetch"] = states[i];
      db.set_metadata(schema::kMetaFeedPrefix + feeds[i].id, meta.dump());
    }
    db.commit();
  } catch (const Xapian::Error& e) {
    throw DatabaseError("recording fetch state failed: " + e.get_description());
  }
  return summary;
}

}  // namespace blogsearch
