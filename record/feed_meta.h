// feed_meta.h: what the database keeps of each feed (metadata key
// schema::kMetaFeedPrefix + id), encoded and decoded side by side in
// feed_meta.cc.
//
// Written by the writer (what the snapshots said), by update (fetch state)
// and by rebuild (carrying fetch state over); read by stats, facets and
// the searcher. Keys this codec does not know are kept as they were.
//
// Layout: one JSON object
//   id, title, url, link          strings
//   last_ingest                   RFC 3339 UTC time of the last run that applied a snapshot
//   latest_observed, latest_body  the newest snapshot applied: observed time
//                                 (unix seconds) and body hash (hex); a
//                                 fetched body equal to it is "unchanged"
//   newest_complete               observed time of the newest complete
//                                 snapshot (unix seconds; absent: none): a
//                                 post is in the feed iff it was in that one
//                                 or a later one
//   fetch {config_url, url, etag, last_modified, last_attempt, last_status,
//          final_url, last_success, last_error (null: none),
//          consecutive_failures}   the fetch state (update.h)
//
// decode_feed_meta() never throws except std::bad_alloc: data of another
// shape gives defaults. encode throws only std::bad_alloc.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace blogsearch {

struct FetchState {
  std::string config_url;  // feeds.toml's url when this state was made
  std::string url;         // the URL to fetch (a permanent redirect's target)
  std::string etag, last_modified;
  std::string last_attempt, last_success;  // RFC 3339 UTC
  int last_status = 0;
  std::string final_url;
  std::string last_error;  // "" = the last attempt succeeded
  long consecutive_failures = 0;
};

struct FeedMeta {
  std::string id, title, url, link;
  std::string last_ingest;
  std::int64_t latest_observed = 0;
  std::string latest_body;
  std::optional<std::int64_t> newest_complete;
  std::optional<FetchState> fetch;
  std::string other;  // keys this codec does not know, as a JSON object ("" = none)
};

std::string encode_feed_meta(const FeedMeta& f);
// `id` is what the key names: used when the data does not say.
FeedMeta decode_feed_meta(std::string_view data, const std::string& id);

}  // namespace blogsearch
