#include "query/sort_keys.h"

#include "indexer/schema.h"

namespace blogsearch {

PublishedKeys::PublishedKeys(const Xapian::Database& db) {
  offsets_.assign(db.get_lastdocid() + 2, 0);
  Xapian::docid next = 1;  // docids without a value get an empty key
  for (auto v = db.valuestream_begin(schema::kSlotPublished); v != db.valuestream_end(schema::kSlotPublished);
       ++v) {
    const Xapian::docid did = v.get_docid();
    if (did >= offsets_.size() - 1) break;  // not in the revision we sized for
    for (; next <= did; ++next) offsets_[next] = static_cast<std::uint32_t>(bytes_.size());
    const std::string key = *v;
    bytes_.insert(bytes_.end(), key.begin(), key.end());
  }
  for (; next < offsets_.size(); ++next) offsets_[next] = static_cast<std::uint32_t>(bytes_.size());
  bytes_.shrink_to_fit();  // kept until the database changes: not the slack of its growth
}

std::string PublishedKeys::operator()(const Xapian::Document& doc) const {
  const Xapian::docid did = doc.get_docid();
  if (did == 0 || did + 1 >= offsets_.size()) return {};
  return std::string(bytes_.data() + offsets_[did], offsets_[did + 1] - offsets_[did]);
}

}  // namespace blogsearch
