// feed_names.h: the title and URL a result shows for its feed, read from
// the feed metadata (record/feed_meta.h) when the result is shown.
//
// A post record keeps the feed title and URL of the run that last wrote
// it; a post that left every feed is not written again, so after the feed
// renamed itself its record still names the old title. The feed metadata
// holds the newest snapshot's title and URL: FeedNames puts them into each
// record read, so current and left-over posts of a feed show the same.
//
// One FeedNames per opened database revision: it keeps what it read, and
// the owner (Searcher) makes a new one when it opens the database again.
// A combined database reads metadata from its first shard only, so each
// shard is asked in turn. apply() throws what reading metadata throws
// (Xapian errors) and std::bad_alloc; the record is unchanged then.
#pragma once

#include <xapian.h>

#include <map>
#include <string>
#include <vector>

#include "record/post_record.h"

namespace blogsearch {

class FeedNames {
 public:
  explicit FeedNames(std::vector<Xapian::Database> shards) : shards_(std::move(shards)) {}

  // Sets post.feed_title and post.feed_url from the metadata of
  // post.feed_id; a field the metadata leaves empty (or a feed without
  // metadata) keeps the record's.
  void apply(PostRecord& post);

  // The title the metadata gives feed `feed_id`, "" when none (or the id
  // is longer than any the writer makes).
  std::string title_of(const std::string& feed_id);

 private:
  struct Names {
    std::string title, url;
  };
  const Names& names_of(const std::string& feed_id);

  std::vector<Xapian::Database> shards_;
  std::map<std::string, Names> known_;
};

}  // namespace blogsearch
