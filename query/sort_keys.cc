#include "query/sort_keys.h"

#include "indexer/schema.h"
#include "query/value_streams.h"

namespace blogsearch {

PublishedKeys::PublishedKeys(const std::vector<Xapian::Database>& shards) {
  const Xapian::docid last = last_docid(shards);
  offsets_.assign(last + 2, 0);
  Xapian::docid next = 1;  // docids without a value get an empty key
  for_each_value(shards, schema::kSlotPublished, last, [&](Xapian::docid did, const std::string& key) {
    for (; next <= did; ++next) offsets_[next] = static_cast<std::uint32_t>(bytes_.size());
    bytes_.insert(bytes_.end(), key.begin(), key.end());
  });
  for (; next < offsets_.size(); ++next) offsets_[next] = static_cast<std::uint32_t>(bytes_.size());
  bytes_.shrink_to_fit();  // kept until the database changes: not the slack of its growth
}

std::string PublishedKeys::operator()(const Xapian::Document& doc) const {
  const Xapian::docid did = doc.get_docid();
  if (did == 0 || did + 1 >= offsets_.size()) return {};
  return std::string(bytes_.data() + offsets_[did], offsets_[did + 1] - offsets_[did]);
}

}  // namespace blogsearch
