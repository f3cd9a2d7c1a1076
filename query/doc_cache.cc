#include "query/doc_cache.h"

#include "indexer/schema.h"
#include "record/stored_text.h"

namespace blogsearch {

std::size_t DocCache::weight(const Entry& e) {
  const PostRecord& r = e.record;
  std::size_t n = sizeof(Entry) + e.text.size() + r.id.size() + r.link.size() + r.title.size() +
                  r.summary.size() + r.feed_title.size() + r.feed_url.size();
  for (const auto& s : r.authors) n += s.size() + sizeof(s);
  for (const auto& s : r.categories) n += s.size() + sizeof(s);
  for (const auto& s : r.feeds) n += s.size() + sizeof(s);
  return n + 64;  // the list node and the index entry
}

std::shared_ptr<const DocCache::Entry> DocCache::get(const Xapian::Database& db, Xapian::docid did, FeedNames& names) {
  if (auto found = index_.find(did); found != index_.end()) {
    lru_.splice(lru_.begin(), lru_, found->second);
    return found->second->second;
  }
  const Xapian::Document doc = db.get_document(did, Xapian::DOC_ASSUME_VALID);
  auto entry = std::make_shared<Entry>();
  entry->record = read_post_record(doc, false);
  entry->record.docid = did;  // the document's own is its id in its shard
  names.apply(entry->record);
  entry->text = decode_stored_text(doc.get_value(schema::kSlotText));
  const std::size_t w = weight(*entry);
  if (w > max_bytes_) return entry;  // never kept: bigger than the whole budget
  while (bytes_ + w > max_bytes_ && !lru_.empty()) {
    bytes_ -= weight(*lru_.back().second);
    index_.erase(lru_.back().first);
    lru_.pop_back();
  }
  lru_.emplace_front(did, entry);
  index_[did] = lru_.begin();
  bytes_ += w;
  return entry;
}

}  // namespace blogsearch
