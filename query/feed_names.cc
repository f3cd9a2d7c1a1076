// feed_names.cc: a result's feed title and URL from the feed metadata
// (feed_names.h).
#include "query/feed_names.h"

#include "indexer/schema.h"
#include "record/feed_meta.h"

namespace blogsearch {

// A search shows at most a few hundred feeds; an id of a damaged record
// is not worth keeping beyond that.
constexpr std::size_t kMaxKnown = 4096;

const FeedNames::Names& FeedNames::names_of(const std::string& feed_id) {
  if (auto found = known_.find(feed_id); found != known_.end()) return found->second;
  std::string data;
  for (const auto& shard : shards_)
    if (data = shard.get_metadata(schema::kMetaFeedPrefix + feed_id); !data.empty()) break;
  Names names;
  if (!data.empty()) {
    FeedMeta meta = decode_feed_meta(data, feed_id);
    names.title = std::move(meta.title);
    names.url = std::move(meta.url);
  }
  if (known_.size() >= kMaxKnown) known_.clear();
  return known_.emplace(feed_id, std::move(names)).first->second;
}

std::string FeedNames::title_of(const std::string& feed_id) {
  if (feed_id.empty() || feed_id.size() > schema::kMaxFeedIdBytes) return "";
  return names_of(feed_id).title;
}

void FeedNames::apply(PostRecord& post) {
  // Longer is no id the writer made (schema::kMaxFeedIdBytes): no key to read.
  if (post.feed_id.empty() || post.feed_id.size() > schema::kMaxFeedIdBytes) return;
  const Names& names = names_of(post.feed_id);
  if (!names.title.empty()) post.feed_title = names.title;
  if (!names.url.empty()) post.feed_url = names.url;
}

}  // namespace blogsearch
