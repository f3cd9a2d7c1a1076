// Reading a stored post record (schema::kSlotRecord) back into a PostRecord: every field of the
// layout in indexer/schema.h, and data of another shape read safely.
#include <gtest/gtest.h>

#include <string>

#include "query/result.h"

namespace blogsearch {
namespace {

TEST(PostRecord, ReadsEveryField) {
  const std::string data =
      R"({"authors":["Ada","Grace \"G\" H"],"categories":["Compilers"],"content_hash":"00ff",)"
      R"("feed":{"id":"pytorch","title":"PyTorch Blog","url":"https://pytorch.org/feed"},)"
      R"("feeds":["pytorch","mirror"],"first_seen":"2026-09-01T10:00:00Z",)"
      R"("history":[{"content_hash":"aa","first_seen":"2026-09-01T10:00:00Z",)"
      R"("last_seen":"2026-09-02T10:00:00Z","snapshot":"pytorch/a.xml"}],)"
      R"("id":"urn:1","in_feed":true,"last_seen":"2026-09-03T10:00:00Z","link":"https://x/1",)"
      R"("published":"2026-08-31T09:00:00Z","snapshot":"pytorch/b.xml","summary":"Sum \u00e9 \u2026",)"
      R"("title":"T\u00fctle","updated":null,"versions":2,"extra":{"nested":[1,{"a":[]}]}})";
  PostRecord p = parse_post_record(data, 7);
  EXPECT_EQ(p.docid, 7u);
  EXPECT_EQ(p.id, "urn:1");
  EXPECT_EQ(p.link, "https://x/1");
  EXPECT_EQ(p.title, "Tütle");
  EXPECT_EQ(p.authors, (std::vector<std::string>{"Ada", "Grace \"G\" H"}));
  EXPECT_EQ(p.categories, (std::vector<std::string>{"Compilers"}));
  EXPECT_EQ(p.feed_id, "pytorch");
  EXPECT_EQ(p.feed_title, "PyTorch Blog");
  EXPECT_EQ(p.feed_url, "https://pytorch.org/feed");
  EXPECT_EQ(p.feeds, (std::vector<std::string>{"pytorch", "mirror"}));
  EXPECT_EQ(p.published, "2026-08-31T09:00:00Z");
  EXPECT_EQ(p.updated, "");
  EXPECT_EQ(p.first_seen, "2026-09-01T10:00:00Z");
  EXPECT_EQ(p.last_seen, "2026-09-03T10:00:00Z");
  EXPECT_EQ(p.versions, 2);
  EXPECT_TRUE(p.in_feed);
  EXPECT_EQ(p.summary, "Sum é …");
  EXPECT_EQ(p.content_hash, "00ff");
  EXPECT_EQ(p.snapshot, "pytorch/b.xml");
  ASSERT_EQ(p.history.size(), 1u);
  EXPECT_EQ(p.history[0].content_hash, "aa");
  EXPECT_EQ(p.history[0].last_seen, "2026-09-02T10:00:00Z");
  EXPECT_EQ(p.history[0].snapshot, "pytorch/a.xml");
  EXPECT_TRUE(p.text.empty());  // the text is in a value slot, not the data
}

TEST(PostRecord, WrongTypesAreSkipped) {
  PostRecord p = parse_post_record(
      R"({"id":1,"title":"ok","authors":"Ada","categories":[1,"C",null],"versions":"2",)"
      R"("in_feed":"yes","feed":"old-feed-id","history":["x",{"content_hash":5}]})",
      1);
  EXPECT_EQ(p.id, "");
  EXPECT_EQ(p.title, "ok");
  EXPECT_TRUE(p.authors.empty());
  EXPECT_EQ(p.categories, (std::vector<std::string>{"C"}));
  EXPECT_EQ(p.versions, 0);
  EXPECT_FALSE(p.in_feed);
  EXPECT_EQ(p.feed_id, "old-feed-id");  // the first layout stored just the id
  ASSERT_EQ(p.history.size(), 1u);
  EXPECT_EQ(p.history[0].content_hash, "");
}

TEST(PostRecord, BadDataGivesAnEmptyRecord) {
  for (const std::string& data : {std::string(""), std::string("not json"), std::string("{\"id\":\"x\""),
                                  std::string("[\"id\"]"), std::string("{\"id\":\"x\"} trailing"),
                                  std::string(100000, '[') + std::string(100000, ']'),
                                  "{\"a\":" + std::string(50000, '{')}) {
    PostRecord p = parse_post_record(data, 3);
    EXPECT_EQ(p.docid, 3u);
    EXPECT_EQ(p.id, "") << data.substr(0, 20);
    EXPECT_EQ(p.title, "");
  }
}

}  // namespace
}  // namespace blogsearch
