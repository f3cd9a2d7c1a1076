// Tests of indexer/copy_count.h: the count of copies kept write by write
// equals a count made again from every key, through many merges.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "indexer/copy_count.h"

namespace blogsearch {
namespace {

// Posts with a key less distinct keys, counted from scratch.
std::uint64_t recount(const std::map<std::uint64_t, long>& posts) {
  std::uint64_t copies = 0;
  for (const auto& [key, n] : posts) copies += n > 1 ? n - 1 : 0;
  return copies;
}

TEST(CopyCount, CountsAKeyBeyondItsFirstPost) {
  CopyCount c;
  c.reset({7, 3, 7, 7, 9});
  EXPECT_EQ(c.copies(), 2u);
  c.add(3);
  EXPECT_EQ(c.copies(), 3u);
  c.add(11);
  EXPECT_EQ(c.copies(), 3u);
  c.remove(7);
  c.remove(7);
  EXPECT_EQ(c.copies(), 1u);
  c.remove(7);  // its last post: no copy left of 7
  EXPECT_EQ(c.copies(), 1u);
  c.remove(7);  // no post has it any more: ignored
  c.remove(42);
  EXPECT_EQ(c.copies(), 1u);
  c.reset({});
  EXPECT_EQ(c.copies(), 0u);
}

// Random adds and rewrites over a few thousand keys, enough for the
// changes to be merged into the sorted keys many times.
TEST(CopyCount, EqualsARecountThroughManyMerges) {
  std::mt19937_64 random(17);
  std::map<std::uint64_t, long> posts;
  std::vector<std::uint64_t> start;
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t key = random() % 15000;
    start.push_back(key);
    ++posts[key];
  }
  CopyCount c;
  c.reset(start);
  ASSERT_EQ(c.copies(), recount(posts));
  for (int i = 0; i < 200000; ++i) {
    const std::uint64_t key = random() % 60000;
    if (random() % 4 == 0) {  // a rewrite that changes a post's key
      const std::uint64_t old_key = random() % 60000;
      if (posts[old_key] > 0) {
        c.remove(old_key);
        --posts[old_key];
      }
    }
    c.add(key);
    ++posts[key];
    if (i % 9973 == 0) {
      ASSERT_EQ(c.copies(), recount(posts)) << i;
    }
  }
  EXPECT_EQ(c.copies(), recount(posts));
}

}  // namespace
}  // namespace blogsearch
