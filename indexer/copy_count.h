// copy_count.h: how many posts are copies of another (schema::kMetaCopies),
// kept up to date write by write.
//
// A post is a copy when another post has its duplicate key (schema.h,
// kSlotDuplicateKey): the count is the number of posts with a key less the
// number of distinct keys. The writer reads every post's key once per run,
// at its first write, then tells the count of each key a write adds or
// replaces, so that every commit stores an exact count without reading
// every post again (a full count takes about 15 ms per 100,000 posts, and
// was made at every commit).
//
// The keys are kept sorted in one array (8 bytes a post), with the changes
// since its last merge in a small table; the array is merged again when the
// table holds more than a sixteenth of its size, so a run of many new posts
// costs O(n log n) in all. Nothing here throws but std::bad_alloc.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace blogsearch {

class CopyCount {
 public:
  // Starts over from every post's key (any order, repeats kept).
  void reset(std::vector<std::uint64_t> keys);
  // A post with `key` was written (added, or its new key on a rewrite).
  void add(std::uint64_t key);
  // A post's `key` went (its old key on a rewrite). A key that no post has
  // is ignored.
  void remove(std::uint64_t key);
  // Posts with a key, less the distinct keys.
  std::uint64_t copies() const { return copies_; }

 private:
  std::uint64_t posts_with(std::uint64_t key) const;
  void merge();

  std::vector<std::uint64_t> sorted_;
  std::unordered_map<std::uint64_t, long> changes_;  // key -> posts added less removed since the merge
  std::uint64_t copies_ = 0;
};

}  // namespace blogsearch
