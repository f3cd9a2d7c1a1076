// bounds_test.cc: what parse_feed reads of a feed with more items than its
// bound: the first max_items, the rest counted, the snapshot not complete.
#include <gtest/gtest.h>

#include <string>

#include "indexer/feed_parser.h"

namespace blogsearch {
namespace {

std::string feed_of(std::size_t items, const char* item_tag) {
  std::string atom = std::string(item_tag) == "entry" ? " xmlns=\"http://www.w3.org/2005/Atom\"" : "";
  std::string doc = atom.empty() ? "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>t</title>"
                                 : "<?xml version=\"1.0\"?><feed" + atom + "><title>t</title>";
  for (std::size_t i = 0; i < items; ++i) {
    doc += std::string("<") + item_tag + "><title>p" + std::to_string(i) + "</title><id>urn:" + std::to_string(i) +
           "</id></" + item_tag + ">\n";
  }
  doc += atom.empty() ? "</channel></rss>" : "</feed>";
  return doc;
}

TEST(FeedBounds, ItemsPastTheBoundAreCountedNotRead) {
  for (const char* tag : {"item", "entry"}) {
    ParseOptions options;
    options.max_items = 100;
    ParsedFeed feed = parse_feed(feed_of(20000, tag), "many.xml", options);
    ASSERT_EQ(feed.posts.size(), 100u) << tag;
    EXPECT_EQ(feed.posts.front().title, "p0") << tag;
    EXPECT_EQ(feed.posts.back().title, "p99") << tag;
    EXPECT_EQ(feed.items_skipped, 19900u) << tag;
    EXPECT_FALSE(feed.complete) << tag;
    bool warned = false;
    for (const auto& w : feed.warnings) warned = warned || w.find("only the first 100 read") != std::string::npos;
    EXPECT_TRUE(warned) << tag;
  }
}

TEST(FeedBounds, AFeedWithinTheBoundIsWholeAndComplete) {
  ParseOptions options;
  options.max_items = 100;
  for (std::size_t n : {std::size_t{100}, std::size_t{99}}) {
    ParsedFeed feed = parse_feed(feed_of(n, "item"), "few.xml", options);
    EXPECT_EQ(feed.posts.size(), n);
    EXPECT_EQ(feed.items_skipped, 0u);
    EXPECT_TRUE(feed.complete);
  }
}

}  // namespace
}  // namespace blogsearch
