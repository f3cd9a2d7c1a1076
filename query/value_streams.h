// value_streams.h: one value slot of several shards read as one stream in
// the order of the ids documents have in their shards, for the tables a
// long-running searcher keeps (facets.h: FacetTable, sort_keys.h).
//
// The shards' ids must be distinct (shards.h: ShardSet::distinct_docids):
// one shard, or interleaved ones. Throws what Xapian throws.
#pragma once

#include <xapian.h>

#include <algorithm>
#include <string>
#include <vector>

namespace blogsearch {

// The highest document id of any of `parts`.
inline Xapian::docid last_docid(const std::vector<Xapian::Database>& parts) {
  Xapian::docid last = 0;
  for (const auto& part : parts) last = std::max(last, part.get_lastdocid());
  return last;
}

// Calls fn(docid, value) for every document of `parts` with a value in
// `slot` and an id up to `limit`, in increasing id order (a merge of the
// shards' value streams: K is small).
template <typename Fn>
void for_each_value(const std::vector<Xapian::Database>& parts, Xapian::valueno slot, Xapian::docid limit, Fn fn) {
  std::vector<Xapian::ValueIterator> at, end;
  for (const auto& part : parts) {
    at.push_back(part.valuestream_begin(slot));
    end.push_back(part.valuestream_end(slot));
  }
  for (;;) {
    std::size_t best = at.size();
    Xapian::docid best_id = 0;
    for (std::size_t i = 0; i < at.size(); ++i) {
      if (at[i] == end[i]) continue;
      const Xapian::docid did = at[i].get_docid();
      if (did > limit) {  // not in the revision the caller sized for
        at[i] = end[i];
        continue;
      }
      if (best == at.size() || did < best_id) best = i, best_id = did;
    }
    if (best == at.size()) return;
    fn(best_id, *at[best]);
    ++at[best];
  }
}

}  // namespace blogsearch
