// sort_keys.h: the published time of every post of one database revision,
// in memory, as the sort key of a search (a Xapian::KeyMaker).
//
// Results sort by relevance with ties newest first, or by date. To compare
// two matches Xapian reads their schema::kSlotPublished values, one value
// look-up per match: a tenth of a FastCGI page's instructions. A
// long-running searcher reads the slot once per revision into a
// PublishedKeys and sorts by it instead: the same keys (the stored values),
// so the same order. Xapian shows a KeyMaker the document's id in its
// shard, so the keys are by that id, which must be distinct across the
// shards (shards.h: ShardSet::distinct_docids).
//
// The constructor throws Xapian errors; the rest throws nothing but
// std::bad_alloc.
#pragma once

#include <xapian.h>

#include <cstdint>
#include <string>
#include <vector>

namespace blogsearch {

class PublishedKeys : public Xapian::KeyMaker {
 public:
  // From the shards of one revision, whose ids are distinct.
  explicit PublishedKeys(const std::vector<Xapian::Database>& shards);

  // The document's kSlotPublished value; "" when it has none or is not of
  // this revision (as Xapian's own look-up gives for a missing value).
  std::string operator()(const Xapian::Document& doc) const override;

 private:
  std::vector<char> bytes_;
  std::vector<std::uint32_t> offsets_;  // by docid: where its key starts in bytes_
};

}  // namespace blogsearch
