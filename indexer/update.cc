// update.cc: fetch -> archive -> ingest, and the fetch state per feed.
#include "indexer/update.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <ctime>

#include "indexer/archive.h"
#include "indexer/date.h"
#include "indexer/feed_parser.h"
#include "indexer/schema.h"
#include "indexer/snapshot.h"
#include "record/feed_meta.h"

namespace blogsearch {

namespace {

FeedMeta load_feed_meta(const Xapian::Database& db, const std::string& id) {
  return decode_feed_meta(db.get_metadata(schema::kMetaFeedPrefix + id), id);
}

std::string body_hash(const std::string& body) { return schema::hex64(XXH3_64bits(body.data(), body.size())); }

// The snapshot a fetched body makes, with what feeds.toml adds to it.
Snapshot snapshot_of(const FetchResponse& r, const FeedConfig& feed, const std::string& url) {
  Snapshot snap = snapshot_of(r);
  snap.feed_id = feed.id;
  snap.feed_title = feed.title;
  snap.url = url;
  return snap;
}

struct BodyCheck {
  std::string error;       // "" when the body is a whole feed
  bool cut_short = false;  // its document ends before its root closes
};

// Checked before archiving so that an HTML error page or a body cut short
// never enters the archive.
BodyCheck check_body(const FetchResponse& r, const Snapshot& snap, const IngestOptions& ingest) {
  try {
    ParsedFeed feed = parse_feed(r.body, r.final_url, parse_options_for(snap, ingest.parse));
    if (!feed.complete && feed.items_skipped == 0) {
      return {"truncated body (" + std::to_string(r.body.size()) +
                  " bytes): the document ends before its root element closes",
              true};
    }
    return {};
  } catch (const FeedError& e) {
    // The parser's message names the URL and says what the body is
    // ("not a feed (root element <html>)", "not XML (...)").
    return {e.what()};
  }
}

}  // namespace

UpdateSummary update_feeds(const std::string& db_path, const std::vector<FeedConfig>& feeds,
                           const UpdateOptions& options, const std::function<std::unique_ptr<Writer>()>& open_writer) {
  UpdateSummary summary;
  // Downloading takes no lock: what the database knows (ETags, moved URLs,
  // the newest body of each feed) is read from a reader, and a stalled server
  // keeps no `add` waiting. The lock is taken below, only to index.
  Xapian::Database reader;
  try {
    reader = Xapian::Database(db_path);
  } catch (const Xapian::Error&) {
    // A first fetch: nothing known yet. A path that is no database fails
    // when the writer opens it.
  }
  std::vector<FetchRequest> requests;
  std::vector<FetchState> states;
  // The newest body each feed gave: the same again is "unchanged".
  std::vector<std::string> latest_body;
  std::vector<std::int64_t> latest_observed;
  for (const auto& f : feeds) {
    FeedMeta meta;
    try {
      meta = load_feed_meta(reader, f.id);
    } catch (const Xapian::Error&) {
    }
    FetchState state = meta.fetch.value_or(FetchState());
    // A permanent redirect moved the feed; follow it until the config changes.
    std::string url = f.url;
    if (state.config_url == f.url && !state.url.empty()) url = state.url;
    else state = FetchState();
    state.config_url = f.url;
    state.url = url;
    requests.push_back({f.id, url, state.etag, state.last_modified});
    states.push_back(std::move(state));
    latest_body.push_back(meta.latest_body);
    latest_observed.push_back(meta.latest_observed);
  }

  auto t0 = std::chrono::steady_clock::now();
  std::vector<FetchResponse> responses = fetch_all(requests, options.fetch);
  // Each new body is parsed once here; one cut short in transfer (a closed
  // connection, a short body under a longer Content-Length) is fetched
  // again like a timeout would be, and fails the feed if it stays short.
  std::vector<BodyCheck> checks(feeds.size());
  std::vector<std::size_t> to_check(feeds.size());
  for (std::size_t i = 0; i < feeds.size(); ++i) to_check[i] = i;
  for (int attempt = 0;; ++attempt) {
    std::vector<std::size_t> cut;
    for (std::size_t i : to_check) {
      const FetchResponse& r = responses[i];
      checks[i] = BodyCheck();
      if (!r.error.empty() || r.status != 200) continue;
      if (body_hash(r.body) == latest_body[i]) continue;
      checks[i] = check_body(r, snapshot_of(r, feeds[i], requests[i].url), options.ingest);
      if (checks[i].cut_short) cut.push_back(i);
    }
    if (cut.empty() || attempt >= options.fetch.max_retries) {
      if (attempt > 0)
        for (std::size_t i : cut) checks[i].error += " (" + std::to_string(attempt + 1) + " attempts)";
      break;
    }
    std::vector<FetchRequest> again;
    for (std::size_t i : cut) again.push_back(requests[i]);
    std::vector<FetchResponse> more = fetch_all(again, options.fetch);
    for (std::size_t k = 0; k < cut.size(); ++k) responses[cut[k]] = std::move(more[k]);
    to_check = cut;
  }
  summary.fetch_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  reader.close();

  std::unique_ptr<Writer> writer = open_writer();
  Xapian::WritableDatabase& db = writer->database();
  std::vector<Snapshot> snapshots;
  for (std::size_t i = 0; i < feeds.size(); ++i) {
    const FetchResponse& r = responses[i];
    FetchState& state = states[i];
    FeedOutcome out;
    out.id = feeds[i].id;
    out.status = r.status;
    out.error = r.error;
    // Under the write lock: what a killed run was writing is stale now, and
    // what one archived and did not index is listed.
    std::vector<std::string> left = tidy_feed_folder(options.archive_dir, feeds[i].id, latest_observed[i]);
    state.last_attempt = format_rfc3339(r.fetched_at ? r.fetched_at : std::time(nullptr));
    state.last_status = r.status;
    state.final_url = r.final_url;
    if (r.error.empty() && r.status == 200) {
      if (body_hash(r.body) == latest_body[i]) {
        out.result = "unchanged";
      } else if (!checks[i].error.empty()) {
        out.error = checks[i].error;
      } else {
        try {
          Snapshot snap = snapshot_of(r, feeds[i], requests[i].url);
          ArchivedFile file = archive_snapshot(options.archive_dir, r, nlohmann::json::object(),
                                               SameAsNewest::kThatSnapshot);
          snap.path = file.path;
          if (file.existed) {
            // Archived by a run that did not get to index it: that file's
            // fetch is when this body was first seen.
            std::vector<std::string> ignored;
            std::vector<Snapshot> earlier = collect_snapshots({file.path}, feeds[i].id, ignored);
            if (earlier.size() == 1) snap.observed = earlier[0].observed;
          }
          snapshots.push_back(std::move(snap));
          out.result = "new";
          out.snapshot = snapshots.back().path;
        } catch (const std::runtime_error& e) {
          out.error = e.what();
        }
      }
    } else if (r.error.empty() && r.status == 304) {
      out.result = "not modified";
    }
    if (out.error.empty()) {
      state.last_success = state.last_attempt;
      state.last_error.clear();
      state.consecutive_failures = 0;
      if (!r.etag.empty() || r.status == 200) state.etag = r.etag;
      if (!r.last_modified.empty() || r.status == 200) state.last_modified = r.last_modified;
      if (r.permanent_redirect) state.url = r.final_url;
    } else {
      out.result = "failed";
      state.last_error = out.error;
      state.consecutive_failures++;
    }
    // Snapshots a run killed after archiving them and before indexing
    // them left (the feed may have changed since): indexed now, as
    // `rebuild` would index them. The same body fetched again is that
    // file (ArchivedFile::existed), indexed once.
    if (out.result == "new") left.erase(std::remove(left.begin(), left.end(), snapshots.back().path), left.end());
    if (!left.empty()) {
      std::vector<std::string> unreadable;
      for (Snapshot& s : collect_snapshots(left, feeds[i].id, unreadable))
        if (s.observed > latest_observed[i]) snapshots.push_back(std::move(s));
    }
    if (out.result == "new") summary.new_snapshots++;
    else if (out.result == "unchanged") summary.unchanged++;
    else if (out.result == "not modified") summary.not_modified++;
    else summary.failed++;
    summary.feeds.push_back(std::move(out));
  }

  t0 = std::chrono::steady_clock::now();
  summary.ingest = writer->ingest(snapshots, options.ingest);
  summary.ingest_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  try {
    for (std::size_t i = 0; i < feeds.size(); ++i) {
      FeedMeta meta = load_feed_meta(db, feeds[i].id);
      meta.id = feeds[i].id;
      if (!feeds[i].title.empty()) meta.title = feeds[i].title;
      if (meta.url.empty()) meta.url = states[i].url;
      meta.fetch = states[i];
      db.set_metadata(schema::kMetaFeedPrefix + feeds[i].id, encode_feed_meta(meta));
    }
    db.commit();
  } catch (const Xapian::Error& e) {
    throw DatabaseError("recording fetch state failed: " + e.get_description());
  }
  return summary;
}

}  // namespace blogsearch
