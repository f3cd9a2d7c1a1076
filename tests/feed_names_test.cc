// Tests of the feed title and URL a result shows (query/feed_names.h): a
// feed that renamed itself shows its new title on every post, the posts
// that left it as well as the current ones, in search results, `show`'s
// look-up and the post page.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <xapian.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "indexer/schema.h"
#include "indexer/snapshot.h"
#include "indexer/writer.h"
#include "query/searcher.h"

namespace fs = std::filesystem;

namespace blogsearch {
namespace {

std::string feed(const std::string& title, const std::vector<std::string>& guids) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel><title>" + title +
                    "</title><link>https://renamed.example.org/</link>\n";
  for (const auto& g : guids)
    out += "<item><guid isPermaLink=\"false\">" + g + "</guid><title>Post " + g +
           "</title><pubDate>Tue, 01 Sep 2026 10:00:00 +0000</pubDate><description>Words of " + g +
           " about zebrafish.</description></item>\n";
  return out + "</channel></rss>\n";
}

class FeedNamesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("blogsearch-feednames-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "feeds" / "renamed");
    db_ = (root_ / "db").string();
  }
  void TearDown() override { fs::remove_all(root_); }

  // The snapshot fetched from `url` at `time` (its headers.json says both).
  void ingest(const std::string& time, const std::string& url, const std::string& body) {
    std::string stamp = time;
    stamp.erase(std::remove(stamp.begin() + 10, stamp.end(), ':'), stamp.end());
    const fs::path p = root_ / "feeds" / "renamed" / (stamp + ".xml");
    std::ofstream(p) << body;
    std::ofstream(root_ / "feeds" / "renamed" / (stamp + ".headers.json"))
        << nlohmann::json{{"fetchedAt", time}, {"finalUrl", url}, {"status", 200}}.dump();
    std::vector<std::string> errors;
    std::vector<Snapshot> snaps = collect_snapshots({p.string()}, "", errors);
    ASSERT_TRUE(errors.empty()) << errors.front();
    Writer(db_).ingest(snaps);
  }
  // The feed title in a post's stored record.
  std::string stored_title(const std::string& id) {
    Xapian::Database db(db_);
    auto it = db.postlist_begin(schema::id_term(id));
    if (it == db.postlist_end(schema::id_term(id))) return "(no post)";
    return nlohmann::json::parse(db.get_document(*it).get_value(schema::kSlotRecord))["feed"]["title"];
  }

  fs::path root_;
  std::string db_;
};

TEST_F(FeedNamesTest, APostThatLeftTheFeedShowsItsNewTitle) {
  // Post "gone" is in the first snapshot only (the second one's run writes
  // it as out of the feed); the feed then renames itself and moves its URL.
  ingest("2026-09-02T01:00:00Z", "https://old.example.org/feed.xml", feed("Old Name", {"kept", "gone"}));
  ingest("2026-09-02T02:00:00Z", "https://old.example.org/feed.xml", feed("Old Name", {"kept"}));
  ingest("2026-09-02T03:00:00Z", "https://new.example.org/feed.xml", feed("New Name", {"kept"}));
  // What the writer stored: the left-over post keeps the name of its last run.
  ASSERT_EQ(stored_title("kept"), "New Name");
  ASSERT_EQ(stored_title("gone"), "Old Name");

  for (std::size_t cache : {std::size_t{0}, std::size_t{1} << 20}) {
    SearcherOptions options;
    options.cache_bytes = cache;  // with and without the long-running searcher's cache
    Searcher searcher(db_, options);
    SearchRequest request;
    request.query.text = "zebrafish";
    const SearchResult result = searcher.search(request);
    ASSERT_EQ(result.hits.size(), 2u);
    for (const Hit& hit : result.hits) {
      EXPECT_EQ(hit.post->feed_title, "New Name") << hit.post->id << " cache " << cache;
      EXPECT_EQ(hit.post->feed_url, "https://new.example.org/feed.xml") << hit.post->id;
    }
    const std::optional<PostRecord> gone = searcher.find_post("gone");
    ASSERT_TRUE(gone);
    EXPECT_FALSE(gone->in_feed);
    EXPECT_EQ(gone->feed_title, "New Name");
    EXPECT_EQ(gone->feed_url, "https://new.example.org/feed.xml");
    PostPageRequest page_request;
    page_request.post = "gone";
    const std::optional<PostPage> page = searcher.post_page(page_request);
    ASSERT_TRUE(page);
    EXPECT_EQ(page->post.feed_title, "New Name");
    for (const Hit& related : page->related) EXPECT_EQ(related.post->feed_title, "New Name");
  }
}

}  // namespace
}  // namespace blogsearch
