// doc_cache.h: the posts a long-running searcher has read, kept in memory.
//
// A search page shows ten posts, and for each reads two values from the
// database (the JSON record and the plain text, schema.h), each a B-tree
// look-up and a pread of every block the value spans, then parses the
// record. In a FastCGI process that was a third of a page's time, for posts
// that the next searches show again. A DocCache keeps the parsed records
// and texts of the posts read, by docid, the least recently used dropped
// first once they take more than their budget in bytes.
//
// Entries are only valid for the revision of the database they were read
// from: the owner (Searcher) drops the cache whenever it opens the
// database again. This is what Solr calls its document cache; it keeps no
// answers, so every search still runs and ranks.
//
// get() throws what reading a document throws (Xapian errors) and
// std::bad_alloc; the cache is unchanged then.
#pragma once

#include <xapian.h>

#include <cstddef>
#include <list>
#include <memory>
#include <string>
#include <unordered_map>

#include "query/feed_names.h"
#include "query/result.h"

namespace blogsearch {

class DocCache {
 public:
  struct Entry {
    PostRecord record;  // record.text left empty
    std::string text;   // the plain text (schema::kSlotText)
  };

  explicit DocCache(std::size_t max_bytes) : max_bytes_(max_bytes) {}

  // The post with this docid, read from `db` when it is not kept yet, its
  // feed's title and URL from `names`.
  std::shared_ptr<const Entry> get(const Xapian::Database& db, Xapian::docid did, FeedNames& names);

  std::size_t bytes() const { return bytes_; }
  std::size_t size() const { return index_.size(); }

 private:
  using Slot = std::pair<Xapian::docid, std::shared_ptr<const Entry>>;
  static std::size_t weight(const Entry& e);

  std::size_t max_bytes_;
  std::size_t bytes_ = 0;
  std::list<Slot> lru_;  // most recently used first
  std::unordered_map<Xapian::docid, std::list<Slot>::iterator> index_;
};

}  // namespace blogsearch
