// feeds.toml reading: valid files and one-line errors naming file and line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "indexer/feeds_config.h"
#include "indexer/feeds_edit.h"
#include "indexer/url.h"

namespace fs = std::filesystem;
using namespace blogsearch;

namespace {

std::string write_config(const std::string& name, const std::string& text) {
  fs::path p = fs::temp_directory_path() / ("blogsearch-config-" + std::to_string(::getpid()) + "-" + name + ".toml");
  std::ofstream(p) << text;
  return p.string();
}

TEST(FeedsConfig, ReadsFeedsWithDefaults) {
  std::string path = write_config("ok",
                                  "# comment\n[[feed]]\nid = \"pytorch\"\nurl = \"https://pytorch.org/blog/feed/\"\n"
                                  "title = \"PyTorch Blog\"\n\n[[feed]]\nid = \"go\"\nurl = \"http://go.dev/blog/feed.atom\"\n"
                                  "enabled = false\n");
  auto feeds = load_feeds_config(path);
  ASSERT_EQ(feeds.size(), 2u);
  EXPECT_EQ(feeds[0].id, "pytorch");
  EXPECT_EQ(feeds[0].title, "PyTorch Blog");
  EXPECT_TRUE(feeds[0].enabled);
  EXPECT_EQ(feeds[1].url, "http://go.dev/blog/feed.atom");
  EXPECT_FALSE(feeds[1].enabled);
  fs::remove(path);
}

TEST(FeedsConfig, TheBundledConfigIsValid) {
  auto feeds = load_feeds_config(std::string(BLOGSEARCH_SOURCE_DIR) + "/data/feeds.toml");
  ASSERT_FALSE(feeds.empty());
  EXPECT_EQ(feeds[0].id, "pytorch");
  EXPECT_EQ(feeds[0].url, "https://pytorch.org/blog/feed/");
}

struct BadCase {
  const char* name;
  const char* text;
  const char* expect;  // part of the message, after "FILE:LINE: "
  int line;
};

TEST(FeedsConfig, ErrorsNameFileLineAndKey) {
  const BadCase cases[] = {
      {"syntax", "[[feed]]\nid = \"a\"\nurl = \n", "", 3},
      {"no-url", "[[feed]]\nid = \"a\"\n", "without 'url'", 1},
      {"no-id", "\n[[feed]]\nurl = \"https://x.org/\"\n", "without 'id'", 2},
      {"bad-url", "[[feed]]\nid = \"a\"\nurl = \"file:///etc/passwd\"\n", "url must be an http(s) URL", 3},
      {"bad-id", "[[feed]]\nid = \"Not A Slug\"\nurl = \"https://x.org/\"\n", "must be a slug", 2},
      {"dup", "[[feed]]\nid = \"a\"\nurl = \"https://x.org/\"\n[[feed]]\nid = \"a\"\nurl = \"https://y.org/\"\n",
       "appears twice", 5},
      {"misspelt-key", "[[feed]]\nid = \"a\"\nurl = \"https://x.org/\"\nenabeld = false\n",
       "unknown key 'enabeld' in [[feed]]", 4},
      {"misspelt-title", "[[feed]]\nid = \"a\"\n\ntitel = \"T\"\nurl = \"https://x.org/\"\n",
       "unknown key 'titel'", 4},
      {"unknown-top-level", "\nfeeds = 1\n", "unknown key 'feeds'", 2},
      {"long-id", "[[feed]]\nurl = \"https://x.org/\"\nid = \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"\n",
       "longer than the 100 a feed id may have", 3},
      {"type", "[[feed]]\nid = \"a\"\nurl = 42\n", "'url' must be a string", 3},
      {"enabled", "[[feed]]\nid = \"a\"\nurl = \"https://x.org/\"\nenabled = \"no\"\n", "'enabled' must be true or false", 4},
      {"table", "feed = 3\n", "must be written [[feed]]", 1},
  };
  for (const auto& c : cases) {
    std::string path = write_config(c.name, c.text);
    try {
      load_feeds_config(path);
      ADD_FAILURE() << c.name << ": no error";
    } catch (const ConfigError& e) {
      std::string msg = e.what();
      EXPECT_EQ(msg.rfind(path + ":" + std::to_string(c.line) + ": ", 0), 0u) << c.name << ": " << msg;
      EXPECT_NE(msg.find(c.expect), std::string::npos) << c.name << ": " << msg;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << c.name;
    }
    fs::remove(path);
  }
}

TEST(FeedsConfig, MissingFileIsAConfigError) {
  EXPECT_THROW(load_feeds_config("/nonexistent/feeds.toml"), ConfigError);
}

}  // namespace

// feeds_edit.h: edits by [[feed]] spans, the rest of the text kept as is.
TEST(FeedsEdit, AppendAndRemoveKeepTheRestByteForByte) {
  const std::string text =
      "# the file's comment\n\n[[feed]]\nid = \"a\"   # kept\nurl = 'https://a.example.org/'\n\n"
      "# about b\n[[feed]]\nid = \"b\"\nurl = \"https://b.example.org/\"\n# enabled = false\n\n"
      "# about c\n[[feed]]\nid = \"c\"\nurl = \"https://c.example.org/\"\n";
  std::string path = write_config("edit", text);
  FeedsFile file(path);
  ASSERT_EQ(file.feeds().size(), 3u);
  EXPECT_EQ(file.feeds()[1].line, 8);
  FeedConfig d;
  d.id = "d";
  d.url = "https://d.example.org/";
  d.title = "Quote \" and back\\slash";
  d.category = "Tech/ML";
  file.append(d);
  EXPECT_EQ(file.text().substr(0, text.size()), text);
  EXPECT_EQ(file.find("d")->title, d.title);
  EXPECT_EQ(file.find("d")->category, "Tech/ML");
  file.remove("b");
  const std::string kept =
      "# the file's comment\n\n[[feed]]\nid = \"a\"   # kept\nurl = 'https://a.example.org/'\n\n# about c\n[[feed]]\n";
  EXPECT_EQ(file.text().substr(0, kept.size()), kept) << file.text();
  EXPECT_NE(file.text().find("\n[[feed]]\nid = \"d\"\nurl = \"https://d.example.org/\"\ntitle = \"Quote \\\" and "
                             "back\\\\slash\"\ncategory = \"Tech/ML\"\n"),
            std::string::npos)
      << file.text();
  file.save();
  FeedsFile again(path);
  EXPECT_EQ(again.text(), file.text());
  ASSERT_EQ(again.feeds().size(), 3u);
  EXPECT_THROW(again.remove("b"), ConfigError);
  EXPECT_THROW(again.append(d), ConfigError);  // id and url there already
  fs::remove(path);
}

// A URL written another way is the same feed: `feeds add` and `feeds
// import` refuse it (the same posts would be indexed under two feeds).
TEST(FeedsEdit, AUrlWrittenAnotherWayIsThereAlready) {
  struct Case {
    const char* url;
    const char* key;
  };
  const Case same[] = {
      {"http://127.0.0.1:18181/feed.xml", "http://127.0.0.1:18181/feed.xml"},
      {"http://127.0.0.1:18181/feed.xml#x", "http://127.0.0.1:18181/feed.xml"},
      {"HTTP://127.0.0.1:18181/feed.xml", "http://127.0.0.1:18181/feed.xml"},
      {"http://127.0.0.1:18181/feed.xml?", "http://127.0.0.1:18181/feed.xml"},
      {"http://127.0.0.1:18181/a/../feed.xml", "http://127.0.0.1:18181/feed.xml"},
      {"http://127.0.0.1:18181/%66eed.xml", "http://127.0.0.1:18181/feed.xml"},
      {"https://Blog.Example.ORG:443/Feed/?q=%3a#top", "https://blog.example.org/Feed/?q=%3A"},
      {"http://blog.example.org:80", "http://blog.example.org/"},
      {"https://blog.example.org/a%7ez/", "https://blog.example.org/a~z/"},
  };
  for (const auto& c : same) EXPECT_EQ(url_key(c.url), c.key) << c.url;
  // What makes another URL stays: scheme, port, path case, query, an
  // escaped reserved character.
  for (const char* other : {"https://127.0.0.1:18181/feed.xml", "http://127.0.0.1:18182/feed.xml",
                            "http://127.0.0.1:18181/Feed.xml", "http://127.0.0.1:18181/feed.xml?a",
                            "http://127.0.0.1:18181/feed.xml/", "http://127.0.0.1:18181/a%2Ffeed.xml"})
    EXPECT_NE(url_key(other), url_key("http://127.0.0.1:18181/feed.xml")) << other;
  EXPECT_NE(url_key("http://127.0.0.1:18181/a%2Ffeed.xml"), url_key("http://127.0.0.1:18181/a/feed.xml"));
  EXPECT_EQ(url_key("not a url"), "not a url");

  std::string path = write_config("variants", "[[feed]]\nid = \"a\"\nurl = \"http://127.0.0.1:18181/feed.xml\"\n");
  FeedsFile file(path);
  for (const auto& c : same) {
    const FeedConfig* found = file.find_url(c.url);
    if (std::string(c.key).rfind("http://127.0.0.1:18181/", 0) != 0) {
      EXPECT_EQ(found, nullptr) << c.url;
      continue;
    }
    ASSERT_NE(found, nullptr) << c.url;
    EXPECT_EQ(found->id, "a");
    FeedConfig again;
    again.id = "b";
    again.url = c.url;
    try {
      file.append(again);
      ADD_FAILURE() << c.url << " was appended";
    } catch (const ConfigError& e) {
      const std::string expect = path + ":1: " + c.url + " is there already, as feed 'a'" +
                                 (c.url == found->url ? "" : " (" + found->url + ")");
      EXPECT_EQ(e.what(), expect);
    }
  }
  // A feed over https is the one over http, and back; another port is not.
  ASSERT_NE(file.find_url("https://127.0.0.1:18181/feed.xml"), nullptr);
  EXPECT_EQ(file.find_url("HTTPS://127.0.0.1:18181/feed.xml#x")->id, "a");
  EXPECT_EQ(file.find_url("https://127.0.0.1:18182/feed.xml"), nullptr);
  EXPECT_EQ(file.find_url("ftp://127.0.0.1:18181/feed.xml"), nullptr);
  FeedsFile secure(write_config("variants-https", "[[feed]]\nid = \"s\"\nurl = \"https://blog.example.org/feed\"\n"));
  ASSERT_NE(secure.find_url("http://blog.example.org/feed"), nullptr);
  EXPECT_EQ(secure.find_url("http://blog.example.org:443/feed"), nullptr);
  fs::remove(path);
  fs::remove(secure.path());
}

TEST(FeedsEdit, NewIdsAreSlugsOfTitleElseHost) {
  EXPECT_EQ(new_feed_id("PyTorch Blog", "https://pytorch.org/blog/feed/", {}), "pytorch-blog");
  EXPECT_EQ(new_feed_id("", "https://www.example.org/feed", {}), "example.org");
  EXPECT_EQ(new_feed_id("Blog", "https://x.org/", {"blog", "blog-2"}), "blog-3");
  EXPECT_EQ(new_feed_id("!!!", "not a url", {}), "feed");
}
