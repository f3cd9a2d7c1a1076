// JSON Feed 1.0 / 1.1: the spec-shaped documents in tests/feeds/json/, a
// table of {item, field, expected value}, URL resolution, then hostile and
// broken input. Everything goes through parse_feed, which must tell JSON
// from XML by content.
#include "indexer/json_feed.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <string>
#include <vector>

#include "indexer/date.h"
#include "indexer/feed_parser.h"
#include "indexer/snapshot.h"
#include "tests/utf8_check.h"

namespace blogsearch {
namespace {

using test_util::valid_utf8;

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : "|") + s;
  return out;
}

std::string date(const std::optional<Time>& t) { return t ? format_rfc3339(*t) : ""; }

std::string field_of(const Post& p, const std::string& field) {
  if (field == "id") return p.id;
  if (field == "link") return p.link;
  if (field == "title") return p.title;
  if (field == "authors") return join(p.authors);
  if (field == "categories") return join(p.categories);
  if (field == "published") return date(p.published);
  if (field == "updated") return date(p.updated);
  if (field == "summary") return p.summary;
  if (field == "content") return p.content;
  if (field == "summary_is_html") return p.summary_is_html ? "true" : "false";
  if (field == "content_is_html") return p.content_is_html ? "true" : "false";
  return "<unknown field " + field + ">";
}

std::string read_source(const std::string& rel) {
  std::ifstream in(std::string(BLOGSEARCH_SOURCE_DIR) + "/" + rel, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string warnings_of(const ParsedFeed& feed) {
  std::string out;
  for (const auto& w : feed.warnings) out += w + "\n";
  return out;
}

// ---- The spec-shaped documents ---------------------------------------------

struct ItemWant {
  const char* id;
  const char* link;
  const char* title;
  const char* authors;     // joined with '|'
  const char* categories;  // joined with '|'
  const char* published;   // RFC 3339, "" for none
  const char* updated;
  const char* summary;
  const char* content;
  bool content_is_html;
};

void check_items(const ParsedFeed& feed, const ItemWant* want, std::size_t n) {
  ASSERT_EQ(feed.posts.size(), n) << feed.file;
  for (std::size_t i = 0; i < n; ++i) {
    const Post& p = feed.posts[i];
    const ItemWant& w = want[i];
    SCOPED_TRACE(feed.file + " item " + std::to_string(i + 1));
    EXPECT_EQ(p.id, w.id);
    EXPECT_EQ(p.link, w.link);
    EXPECT_EQ(p.title, w.title);
    EXPECT_EQ(join(p.authors), w.authors);
    EXPECT_EQ(join(p.categories), w.categories);
    EXPECT_EQ(date(p.published), w.published);
    EXPECT_EQ(date(p.updated), w.updated);
    EXPECT_EQ(p.summary, w.summary);
    EXPECT_FALSE(p.summary_is_html);
    EXPECT_EQ(p.content, w.content);
    EXPECT_EQ(p.content_is_html, w.content_is_html);
  }
}

TEST(JsonFeed, Version10Example) {
  std::string doc = read_source("tests/feeds/json/spec-1.0.json");
  ASSERT_FALSE(doc.empty());
  ParsedFeed feed = parse_feed(doc, "spec-1.0.json");
  EXPECT_EQ(feed.format, "json10");
  EXPECT_EQ(feed.title, "Lake Notes");
  EXPECT_EQ(feed.link, "https://lake.example.net/");
  EXPECT_TRUE(feed.complete);
  EXPECT_TRUE(feed.warnings.empty()) << warnings_of(feed);
  const ItemWant want[] = {
      {"https://lake.example.net/2024/05/ice-out", "https://lake.example.net/2024/05/ice-out",
       "Ice out on the north shore", "Ada Brook", "ice|spring", "2024-05-07T13:30:00Z",
       "2024-05-08T10:00:00Z", "The ice is gone.",
       "<p>The ice left the <em>north</em> shore on Tuesday.</p>", true},
      {"2", "https://lake.example.net/2024/04/loons", "", "Ben Reed", "", "2024-04-20T18:00:00Z", "", "",
       "Loons are back. Two pairs near the island.", false},
      {"link-post-3", "https://en.wikipedia.org/wiki/Common_loon", "Reading about loons", "Ada Brook", "",
       "2024-04-21T06:00:00Z", "", "", "<p>A good article.</p>", true},
  };
  check_items(feed, want, sizeof want / sizeof want[0]);
}

TEST(JsonFeed, Version11Example) {
  std::string doc = read_source("tests/feeds/json/spec-1.1.json");
  ASSERT_FALSE(doc.empty());
  ParsedFeed feed = parse_feed(doc, "spec-1.1.json");
  EXPECT_EQ(feed.format, "json11");
  EXPECT_EQ(feed.title, "Kiln & Wheel");
  EXPECT_EQ(feed.link, "https://pots.example.com/");
  EXPECT_TRUE(feed.warnings.empty()) << warnings_of(feed);
  const ItemWant want[] = {
      {"tag:pots.example.com,2025:glaze", "https://pots.example.com/2025/glaze-tests", "Glaze tests, round two",
       "Dan Moss|Cora Vale", "glaze|cone 6", "2025-02-14T16:45:00Z", "", "Round two of the glaze tests.",
       "<p>Cone 6 <strong>celadon</strong> came out green.</p>", true},
      // A numeric id is read as its string; no authors: the feed's (one
      // known only by its url).
      {"42", "https://pots.example.com/2025/kiln", "", "Cora Vale|https://pots.example.com/dan", "",
       "2025-02-10T03:00:00Z", "", "", "The kiln reached temperature at 3 am.", false},
  };
  check_items(feed, want, sizeof want / sizeof want[0]);
}

// Detection is by content: a JSON Feed saved under an .xml name (fetch
// archives every body as .xml) still parses, and its relative url resolves
// against the home page.
TEST(JsonFeed, DetectedByContentNotName) {
  std::string doc = read_source("tests/feeds/json/json-named.xml");
  ASSERT_FALSE(doc.empty());
  ParsedFeed feed = parse_feed(doc, "json-named.xml");
  EXPECT_EQ(feed.format, "json11");
  ASSERT_EQ(feed.posts.size(), 1u);
  EXPECT_EQ(feed.posts[0].link, "https://misnamed.example.org/posts/only.html");
  EXPECT_TRUE(looks_like_json_feed("\xEF\xBB\xBF \r\n\t{\"version\":1}"));
  EXPECT_FALSE(looks_like_json_feed("<?xml version=\"1.0\"?><rss/>"));
  EXPECT_FALSE(looks_like_json_feed("   "));
  EXPECT_FALSE(looks_like_json_feed("[{\"version\":\"https://jsonfeed.org/version/1\"}]"));
}

// ---- Field table ------------------------------------------------------------

struct FieldCase {
  const char* item;   // one item object, inserted into kHead ... kTail
  const char* field;  // see field_of()
  const char* want;
};

const char kHead[] =
    R"({"version": "https://jsonfeed.org/version/1.1", "title": "T",
        "home_page_url": "https://example.org/blog/", "items": [)";
const char kTail[] = "]}";

const FieldCase kFields[] = {
    // id: required by the spec, but absent stays "" so the writer's
    // fallback (link, else a hash) applies as for RSS without a guid.
    {R"({"id": "  abc  "})", "id", "abc"},
    {R"({"url": "https://example.org/p"})", "id", ""},
    {R"({"id": 7.5})", "id", "7.5"},
    {R"({"id": -3})", "id", "-3"},
    // link: url, else external_url, else an id that is a web address.
    {R"({"url": "https://example.org/a", "external_url": "https://other.example/b"})", "link",
     "https://example.org/a"},
    {R"({"external_url": "https://other.example/b"})", "link", "https://other.example/b"},
    {R"({"id": "https://example.org/from-id"})", "link", "https://example.org/from-id"},
    {R"({"id": "urn:x:1"})", "link", ""},
    // title: optional (microblogs); white space collapsed; plain text.
    {R"({"content_text": "no title here"})", "title", ""},
    {R"({"title": "  A\n\ttitle  "})", "title", "A title"},
    {R"({"title": "AT&T <b> rules"})", "title", "AT&T <b> rules"},
    // A CMS's HTML title with its entities, as RSS titles are read.
    {R"({"title": "Tom &amp; Jerry&#8217;s <em>day</em>"})", "title", "Tom & Jerry’s day"},
    {R"({"title": "caf\u00e9 \ud83d\ude00"})", "title", "café 😀"},
    // content: content_html (HTML) over content_text (plain) over summary.
    {R"({"content_html": "<p>h</p>", "content_text": "t"})", "content", "<p>h</p>"},
    {R"({"content_html": "<p>h</p>", "content_text": "t"})", "content_is_html", "true"},
    {R"({"content_text": "t"})", "content", "t"},
    {R"({"content_text": "t"})", "content_is_html", "false"},
    {R"({"content_html": "", "content_text": "t"})", "content", "t"},
    {R"({"content_html": " \n ", "content_text": "t"})", "content", "t"},
    {R"({"summary": "s"})", "content", "s"},
    {R"({"summary": "s"})", "content_is_html", "false"},
    {R"({"summary": "s", "content_html": "<p>h</p>"})", "summary", "s"},
    {R"({"summary": "s"})", "summary_is_html", "false"},
    {R"({"content_html": "<p>h</p>"})", "summary", ""},
    // dates: RFC 3339 through parse_date.
    {R"({"date_published": "2010-02-07T14:04:00-05:00"})", "published", "2010-02-07T19:04:00Z"},
    {R"({"date_modified": "2010-02-07T14:04:00.5Z"})", "updated", "2010-02-07T14:04:00Z"},
    {R"({"date_published": "not a date"})", "published", ""},
    {R"({"date_published": ""})", "published", ""},
    // authors: 1.1 `authors` over 1.0 `author`; name, else url; the feed's
    // when the item names none (head has none: see FeedAuthorsFallBack).
    {R"({"authors": [{"name": "A"}, {"name": " B  C "}]})", "authors", "A|B C"},
    {R"({"author": {"name": "Old"}, "authors": [{"name": "New"}]})", "authors", "New"},
    {R"({"author": {"name": "Old"}})", "authors", "Old"},
    {R"({"author": {"url": "https://example.org/me"}})", "authors", "https://example.org/me"},
    {R"({"author": {"avatar": "https://example.org/me.png"}})", "authors", ""},
    {R"({"authors": [{"name": "A"}, {"name": "A"}, {"name": ""}, {"url": " "}]})", "authors", "A"},
    // Names are read as XML author elements are: markup and "by " dropped,
    // a byline joining people split where that is unambiguous.
    {R"({"author": {"name": "by <a href=\"/u/ann\">Ann Lee</a>"}})", "authors", "Ann Lee"},
    {R"({"authors": [{"name": "Ann Lee & Bob Ray"}, {"name": "Bob Ray"}]})", "authors", "Ann Lee|Bob Ray"},
    {R"({"author": {"name": "Smith, John"}})", "authors", "Smith, John"},
    {R"({"authors": []})", "authors", ""},
    // One person where a list belongs, as some feeds write it.
    {R"({"authors": {"name": "Solo"}})", "authors", "Solo"},
    // tags -> categories, in order, duplicates and blanks dropped.
    {R"({"tags": ["b", "a", "b", " ", "a  c"]})", "categories", "b|a|a c"},
    // Things the index has no use for are ignored, whatever their shape.
    {R"({"id": "x", "attachments": [{"url": "https://example.org/a.mp3", "title": "t"}]})", "id", "x"},
    {R"({"_ext": {"title": "not me", "items": [{"id": "no"}]}, "title": "me"})", "title", "me"},
    {R"({"image": "https://example.org/i.png", "banner_image": "b", "language": "en", "title": "i"})", "title",
     "i"},
    {R"({"title": null, "url": null, "id": "n"})", "title", ""},
};

TEST(JsonFeed, ItemFields) {
  for (const FieldCase& c : kFields) {
    std::string doc = std::string(kHead) + c.item + kTail;
    ParsedFeed feed;
    try {
      feed = parse_feed(doc, "case.json");
    } catch (const FeedError& e) {
      ADD_FAILURE() << e.what() << "\n in: " << c.item;
      continue;
    }
    ASSERT_EQ(feed.posts.size(), 1u) << c.item;
    EXPECT_EQ(field_of(feed.posts[0], c.field), c.want) << "field " << c.field << " of: " << c.item;
    EXPECT_TRUE(feed.warnings.empty()) << warnings_of(feed) << " in: " << c.item;
  }
}

TEST(JsonFeed, FeedAuthorsFallBack) {
  struct Case {
    const char* feed_people;
    const char* item_people;
    const char* want;
  } cases[] = {
      {R"("authors": [{"name": "F1"}, {"name": "F2"}])", "", "F1|F2"},
      {R"("author": {"name": "F10"})", "", "F10"},
      {R"("author": {"name": "F10"}, "authors": [{"name": "F11"}])", "", "F11"},
      {R"("authors": [{"name": "F1"}])", R"("author": {"name": "I10"})", "I10"},
      {R"("authors": [{"name": "F1"}])", R"("authors": [{"name": "I11"}])", "I11"},
      {R"("authors": {"name": "F-one"})", "", "F-one"},
      {"", "", ""},
  };
  for (const Case& c : cases) {
    std::string doc = std::string(R"({"version": "https://jsonfeed.org/version/1.1", )") + c.feed_people +
                      (*c.feed_people ? ", " : "") + R"("items": [{"id": "1")" + (*c.item_people ? ", " : "") +
                      c.item_people + "}]}";
    ParsedFeed feed = parse_feed(doc, "authors.json");
    ASSERT_EQ(feed.posts.size(), 1u) << doc;
    EXPECT_EQ(join(feed.posts[0].authors), c.want) << doc;
  }
}

TEST(JsonFeed, VersionGivesFormat) {
  struct Case {
    const char* version;
    const char* format;  // "" = not a feed
    bool warns;
  } cases[] = {
      {"https://jsonfeed.org/version/1", "json10", false},
      {"https://jsonfeed.org/version/1/", "json10", false},
      {"http://jsonfeed.org/version/1", "json10", false},
      {"https://jsonfeed.org/version/1.1", "json11", false},
      {"HTTPS://JSONFeed.org/version/1.1/", "json11", false},
      {"https://jsonfeed.org/version/2", "json11", true},
      {"https://example.org/version/1", "", false},
      {"", "", false},
  };
  for (const Case& c : cases) {
    std::string doc = std::string(R"({"version": ")") + c.version + R"(", "items": []})";
    if (*c.format == '\0') {
      EXPECT_THROW(parse_feed(doc, "v.json"), FeedError) << c.version;
      continue;
    }
    ParsedFeed feed = parse_feed(doc, "v.json");
    EXPECT_EQ(feed.format, c.format) << c.version;
    EXPECT_EQ(!feed.warnings.empty(), c.warns) << c.version << ": " << warnings_of(feed);
  }
  // version may come last, after the items.
  ParsedFeed late = parse_feed(R"({"items": [{"id": "z"}], "version": "https://jsonfeed.org/version/1"})", "late.json");
  EXPECT_EQ(late.format, "json10");
  ASSERT_EQ(late.posts.size(), 1u);
  EXPECT_EQ(late.posts[0].id, "z");
}

// ---- URL resolution -----------------------------------------------------------
//
// Base for items: ParseOptions::base_url (the document's own URL) when
// absolute; else feed_url (the feed's own statement of that URL); else
// home_page_url. home_page_url itself resolves against the first two.

struct UrlCase {
  const char* base_url;  // ParseOptions::base_url
  const char* feed_url;  // "" = absent
  const char* home;      // "" = absent
  const char* url;       // the item's url
  const char* want_link;
  const char* want_home;  // ParsedFeed::link
};

const UrlCase kUrls[] = {
    {"https://a.example/feeds/main.json", "https://b.example/feed.json", "https://c.example/blog/", "post.html",
     "https://a.example/feeds/post.html", "https://c.example/blog/"},
    {"", "https://b.example/f/feed.json", "https://c.example/blog/", "post.html", "https://b.example/f/post.html",
     "https://c.example/blog/"},
    {"", "", "https://c.example/blog/", "post.html", "https://c.example/blog/post.html", "https://c.example/blog/"},
    {"", "", "https://c.example/blog/", "/root.html", "https://c.example/root.html", "https://c.example/blog/"},
    {"https://a.example/x/feed.json", "", "/blog/", "p", "https://a.example/x/p", "https://a.example/blog/"},
    {"", "https://b.example/feed.json", "../home/", "p", "https://b.example/p", "https://b.example/home/"},
    {"", "/feed.json", "/blog/", "/p", "/p", "/blog/"},  // nothing absolute: left relative
    {"not a url", "", "", "p", "p", ""},
    // No home page: the feed's own URL is the site link left.
    {"https://a.example/", "", "", "https://elsewhere.example/p?q=1", "https://elsewhere.example/p?q=1",
     "https://a.example/"},
    {"", "https://b.example/feed.json ", "", "p", "https://b.example/p", "https://b.example/feed.json"},
    {"https://a.example/feed.json", "/f.json", " /home ", "p", "https://a.example/p", "https://a.example/home"},
    {"https://a.example/", "", "", "/blog/\xE6\x97\xA5\xE6\x9C\xAC/my post.html",
     "https://a.example/blog/%E6%97%A5%E6%9C%AC/my%20post.html", "https://a.example/"},
};

TEST(JsonFeed, RelativeUrls) {
  for (const UrlCase& c : kUrls) {
    std::string doc = R"({"version": "https://jsonfeed.org/version/1.1")";
    if (*c.feed_url) doc += std::string(R"(, "feed_url": ")") + c.feed_url + "\"";
    if (*c.home) doc += std::string(R"(, "home_page_url": ")") + c.home + "\"";
    doc += std::string(R"(, "items": [{"id": "1", "url": ")") + c.url + "\"}]}";
    ParseOptions options;
    options.base_url = c.base_url;
    ParsedFeed feed = parse_feed(doc, "urls.json", options);
    ASSERT_EQ(feed.posts.size(), 1u) << doc;
    EXPECT_EQ(feed.posts[0].link, c.want_link) << doc << " base " << c.base_url;
    EXPECT_EQ(feed.link, c.want_home) << doc << " base " << c.base_url;
  }
}

// ---- Dates against the observed time -----------------------------------------
//
// parse_feed settles them for every format (feed_parser.cc settle_dates);
// this checks that JSON Feed dates reach it.

TEST(JsonFeed, UnknownZoneNameReadAsUtcWithOneWarning) {
  std::string doc = std::string(kHead) +
                    R"({"id": "1", "date_published": "Fri, 07 Mar 2025 14:05:00 XYZT"},
                       {"id": "2", "date_published": "Sat, 08 Mar 2025 14:05:00 XYZT"})" +
                    kTail;
  ParsedFeed feed = parse_feed(doc, "zone.json");
  ASSERT_EQ(feed.posts.size(), 2u);
  EXPECT_EQ(date(feed.posts[0].published), "2025-03-07T14:05:00Z");
  EXPECT_EQ(date(feed.posts[1].published), "2025-03-08T14:05:00Z");
  ASSERT_EQ(feed.warnings.size(), 1u) << warnings_of(feed);
  EXPECT_EQ(feed.warnings[0], "zone.json: item 1: unknown time zone in date \"Fri, 07 Mar 2025 14:05:00 XYZT\", read as UTC");
}

TEST(JsonFeed, FutureDateReported) {
  ParseOptions options;
  options.observed = *parse_date("2025-03-07T12:00:00Z");
  std::string doc = std::string(kHead) +
                    R"({"id": "far", "date_published": "9999-12-31T00:00:00Z"},
                       {"id": "hours", "date_published": "2025-03-08T06:00:00Z"},
                       {"id": "days", "date_modified": "2025-03-09T12:00:00Z"})" +
                    kTail;
  ParsedFeed feed = parse_feed(doc, "future.json", options);
  ASSERT_EQ(feed.posts.size(), 3u);
  EXPECT_EQ(date(feed.posts[0].published), "9999-12-31T00:00:00Z");  // kept; the writer settles it
  EXPECT_EQ(date(feed.posts[1].published), "2025-03-08T06:00:00Z");
  EXPECT_EQ(date(feed.posts[2].updated), "2025-03-09T12:00:00Z");
  ASSERT_EQ(feed.warnings.size(), 2u) << warnings_of(feed);
  EXPECT_NE(feed.warnings[0].find("future.json: item 1"), std::string::npos) << feed.warnings[0];
  // Unknown observed time (0): dates are taken as given.
  ParsedFeed unknown = parse_feed(doc, "future.json");
  EXPECT_EQ(date(unknown.posts[0].published), "9999-12-31T00:00:00Z");
  EXPECT_TRUE(unknown.warnings.empty());
}

// ---- Broken and hostile input ---------------------------------------------------

TEST(JsonFeed, NotAFeedIsOneLineNamingTheFile) {
  const char* cases[] = {
      "{}",
      R"({"title": "no version", "items": []})",
      R"({"version": 1.1, "items": []})",
      "{ nope",
  };
  for (const char* doc : cases) {
    try {
      parse_feed(doc, "bad.json");
      ADD_FAILURE() << "no FeedError for: " << doc;
    } catch (const FeedError& e) {
      std::string what = e.what();
      EXPECT_EQ(what.rfind("bad.json: ", 0), 0u) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      EXPECT_LT(what.size(), 300u) << what;
    }
  }
  // Not an object at all: parse_json_feed itself refuses it.
  ParsedFeed feed;
  EXPECT_THROW(parse_json_feed("[{\"version\": \"https://jsonfeed.org/version/1\"}]", "array.json", {}, feed),
               FeedError);
  EXPECT_THROW(parse_json_feed("", "empty.json", {}, feed), FeedError);
  EXPECT_THROW(parse_json_feed("\"https://jsonfeed.org/version/1\"", "string.json", {}, feed), FeedError);
}

TEST(JsonFeed, WrongTypesSkippedWithWarnings) {
  std::string doc = R"({"version": "https://jsonfeed.org/version/1.1", "title": ["T"],
      "home_page_url": 5, "authors": {"name": "not a list"},
      "items": [
        1, "two", null, [3],
        {"id": "ok", "title": 5, "url": {"href": "x"}, "content_html": true,
         "content_text": "kept", "tags": "loose", "authors": [{"name": 1}, "Bob", {"name": "Real"}],
         "date_published": 20250101}
      ]})";
  ParsedFeed feed = parse_feed(doc, "types.json");
  EXPECT_EQ(feed.title, "");
  EXPECT_EQ(feed.link, "");
  ASSERT_EQ(feed.posts.size(), 1u);
  const Post& p = feed.posts[0];
  EXPECT_EQ(p.id, "ok");
  EXPECT_EQ(p.title, "");
  EXPECT_EQ(p.link, "");
  EXPECT_EQ(p.content, "kept");
  EXPECT_FALSE(p.content_is_html);
  EXPECT_EQ(join(p.categories), "");
  EXPECT_EQ(join(p.authors), "Real");
  EXPECT_FALSE(p.published);
  // The first few problems each get a line naming the file and field; the
  // rest are counted in one.
  ASSERT_GE(feed.warnings.size(), 6u) << warnings_of(feed);
  EXPECT_EQ(feed.warnings[0], "types.json: title is an array, not a string; ignored");
  EXPECT_NE(warnings_of(feed).find("types.json: item 1 is a number, not an object; ignored"), std::string::npos)
      << warnings_of(feed);
  EXPECT_NE(warnings_of(feed).find("more field(s) of the wrong type ignored"), std::string::npos)
      << warnings_of(feed);
  for (const auto& w : feed.warnings) EXPECT_EQ(w.find('\n'), std::string::npos) << w;
}

TEST(JsonFeed, ItemsNotAnArray) {
  ParsedFeed feed = parse_feed(R"({"version": "https://jsonfeed.org/version/1", "items": {"id": "1"}})", "o.json");
  EXPECT_TRUE(feed.posts.empty());
  ASSERT_EQ(feed.warnings.size(), 1u);
  EXPECT_EQ(feed.warnings[0], "o.json: items is an object, not an array; ignored");
  ParsedFeed none = parse_feed(R"({"version": "https://jsonfeed.org/version/1"})", "none.json");
  EXPECT_TRUE(none.posts.empty());
  EXPECT_TRUE(none.complete);
}

TEST(JsonFeed, DeepNestingIsSkippedNotFollowed) {
  const std::size_t depth = 100000;
  std::string deep(depth, '[');
  deep += std::string(depth, ']');
  std::string deep_objects;
  for (int i = 0; i < 10000; ++i) deep_objects += "{\"a\":";
  deep_objects += "1" + std::string(10000, '}');
  std::string doc = std::string(kHead) + R"({"id": "1", "_deep": )" + deep + R"(, "title": )" + deep +
                    R"(, "tags": [)" + deep_objects + R"(, "kept"], "content_text": "after"})" + kTail;
  ParsedFeed feed = parse_feed(doc, "deep.json");
  ASSERT_EQ(feed.posts.size(), 1u);
  EXPECT_EQ(feed.posts[0].id, "1");
  EXPECT_EQ(feed.posts[0].title, "");
  EXPECT_EQ(join(feed.posts[0].categories), "kept");
  EXPECT_EQ(feed.posts[0].content, "after");
  EXPECT_TRUE(feed.complete);
  // The title and the tag of the wrong shape are named; _deep is no field.
  EXPECT_EQ(feed.warnings.size(), 2u) << warnings_of(feed);
}

TEST(JsonFeed, HugeStringCappedAtCharacterBoundary) {
  // 100 MB of two-byte characters after one ASCII byte: a cut at an even
  // byte count would split a character.
  std::string big = "x";
  big.reserve(100u << 20);
  while (big.size() < (100u << 20)) big += "\xC3\xA9";
  std::string doc = std::string(kHead) + R"({"id": "big", "title": "small", "content_html": ")" + big + "\"}" + kTail;
  big.clear();
  big.shrink_to_fit();
  ParseOptions options;  // default cap: 8 MiB
  ParsedFeed feed = parse_feed(doc, "big.json", options);
  ASSERT_EQ(feed.posts.size(), 1u);
  const Post& p = feed.posts[0];
  EXPECT_LE(p.content.size(), options.max_text_bytes);
  EXPECT_GT(p.content.size(), options.max_text_bytes - 4);
  EXPECT_TRUE(valid_utf8(p.content));
  EXPECT_EQ(p.title, "small");
  ASSERT_EQ(feed.warnings.size(), 1u) << warnings_of(feed);
  EXPECT_EQ(feed.warnings[0], "big.json: item 1: text longer than 8388608 bytes truncated");
}

TEST(JsonFeed, ItemsPastTheLimitSkippedWithOneWarning) {
  std::string doc = kHead;
  for (int i = 0; i < 50; ++i) doc += std::string(i ? "," : "") + R"({"id": ")" + std::to_string(i) + "\"}";
  doc += kTail;
  ParseOptions options;
  options.max_items = 20;
  ParsedFeed feed = parse_feed(doc, "many.json", options);
  ASSERT_EQ(feed.posts.size(), 20u);
  EXPECT_EQ(feed.posts[19].id, "19");
  ASSERT_EQ(feed.warnings.size(), 1u) << warnings_of(feed);
  EXPECT_EQ(feed.warnings[0], "many.json: 50 items; only the first 20 read (--max-items)");
  EXPECT_EQ(feed.items_skipped, 30u);
  // The items past the bound are unknown, not gone from the feed.
  EXPECT_FALSE(feed.complete);
}

// Lists stop at 256 entries, as for XML feeds, with one warning.
TEST(JsonFeed, ManyTagsAndAuthorsBounded) {
  std::string tags, authors;
  for (int i = 0; i < 100000; ++i) {
    tags += std::string(i ? "," : "") + "\"t" + std::to_string(i % 50000) + "\"";
    authors += std::string(i ? "," : "") + "{\"name\": \"a" + std::to_string(i % 50000) + "\"}";
  }
  std::string doc = std::string(kHead) + R"({"id": "1", "tags": [)" + tags + R"(], "authors": [)" + authors + "]}" +
                    kTail;
  auto start = std::chrono::steady_clock::now();
  ParsedFeed feed = parse_feed(doc, "tags.json");
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(feed.posts.size(), 1u);
  EXPECT_EQ(feed.posts[0].categories.size(), 256u);
  EXPECT_EQ(feed.posts[0].categories[255], "t255");
  EXPECT_EQ(feed.posts[0].authors.size(), 256u);
  ASSERT_EQ(feed.warnings.size(), 1u) << warnings_of(feed);
  EXPECT_EQ(feed.warnings[0], "tags.json: item 1: more than 256 authors or categories; the rest ignored");
  // Comparing each of 200,000 names with every other takes minutes here.
  EXPECT_LT(seconds, 5.0);
}

TEST(JsonFeed, InvalidUtf8ReadAsWindows1252) {
  std::string doc = std::string(kHead) + "{\"id\": \"1\", \"title\": \"Caf\xE9 \x93quoted\x94\", " +
                    "\"content_text\": \"ok \xC3\xA9 \x81\"}" + kTail;
  ParsedFeed feed = parse_feed(doc, "latin.json");
  ASSERT_EQ(feed.posts.size(), 1u);
  EXPECT_EQ(feed.posts[0].title, "Café “quoted”");
  EXPECT_EQ(feed.posts[0].content, "ok é \xEF\xBF\xBD");  // 0x81 is undefined in Windows-1252
  ASSERT_EQ(feed.warnings.size(), 1u) << warnings_of(feed);
  EXPECT_EQ(feed.warnings[0], "latin.json: not valid UTF-8; 4 byte(s) read as Windows-1252");
  // Surrogates and overlong forms are not UTF-8 either.
  ParsedFeed odd = parse_feed(std::string(kHead) + "{\"id\": \"\xED\xA0\x80\xC0\xAF\"}" + kTail, "odd.json");
  ASSERT_EQ(odd.posts.size(), 1u);
  EXPECT_TRUE(valid_utf8(odd.posts[0].id));
  EXPECT_EQ(odd.warnings.size(), 1u) << warnings_of(odd);
}

TEST(JsonFeed, BomSkipped) {
  ParsedFeed feed = parse_feed(std::string("\xEF\xBB\xBF") + kHead + R"({"id": "b"})" + kTail, "bom.json");
  ASSERT_EQ(feed.posts.size(), 1u);
  EXPECT_EQ(feed.posts[0].id, "b");
  EXPECT_TRUE(feed.warnings.empty()) << warnings_of(feed);
}

// A body cut short in transfer keeps its complete items but is not a
// snapshot of the whole feed.
TEST(JsonFeed, TruncatedDocumentIsIncomplete) {
  std::string doc = read_source("tests/feeds/json/spec-1.0.json");
  std::size_t cut = doc.find("Loons are back");
  ASSERT_NE(cut, std::string::npos);
  ParsedFeed feed = parse_feed(doc.substr(0, cut), "cut.json");
  EXPECT_FALSE(feed.complete);
  ASSERT_EQ(feed.posts.size(), 1u);
  EXPECT_EQ(feed.posts[0].id, "https://lake.example.net/2024/05/ice-out");
  ASSERT_EQ(feed.warnings.size(), 1u) << warnings_of(feed);
  EXPECT_EQ(feed.warnings[0].rfind("cut.json: JSON ends early at byte ", 0), 0u) << feed.warnings[0];
  // Cut before any item, or a raw control character (not JSON): a feed,
  // but an incomplete one with nothing in it.
  for (const char* early : {"{\"version\": \"https://jsonfeed.org/version/1\", \"items\": [",
                            "{\"version\": \"https://jsonfeed.org/version/1\", \"title\": \"\x01\"}"}) {
    ParsedFeed empty = parse_feed(early, "early.json");
    EXPECT_FALSE(empty.complete) << early;
    EXPECT_TRUE(empty.posts.empty()) << early;
    EXPECT_EQ(empty.warnings.size(), 1u) << warnings_of(empty);
  }
  // A syntax error mid-document: the same, for the same reason.
  std::string broken = std::string(kHead) + R"({"id": "a"}, {"id": "b",}, {"id": "c"})" + kTail;
  ParsedFeed mid = parse_feed(broken, "mid.json");
  EXPECT_FALSE(mid.complete);
  ASSERT_EQ(mid.posts.size(), 1u);
  EXPECT_EQ(mid.posts[0].id, "a");
  // Text after a complete object loses nothing.
  ParsedFeed trailing = parse_feed(std::string(kHead) + R"({"id": "a"})" + kTail + "\n<br />PHP notice", "t.json");
  EXPECT_TRUE(trailing.complete);
  EXPECT_EQ(trailing.posts.size(), 1u);
  ASSERT_EQ(trailing.warnings.size(), 1u);
  EXPECT_EQ(trailing.warnings[0], "t.json: text after the JSON object ignored");
}

TEST(JsonFeed, LongErrorTokenKeptShort) {
  std::string doc = std::string(kHead) + R"({"id": "a"}, {"id": ")" + std::string(1u << 20, 'z');
  ParsedFeed feed = parse_feed(doc, "long.json");
  EXPECT_FALSE(feed.complete);
  ASSERT_EQ(feed.warnings.size(), 1u);
  EXPECT_LT(feed.warnings[0].size(), 200u);
  try {
    parse_feed("{\"title\": \"" + std::string(1u << 20, 'z'), "long2.json");
    ADD_FAILURE() << "no FeedError";
  } catch (const FeedError& e) {
    EXPECT_LT(std::string(e.what()).size(), 300u);
  }
}

// Every prefix of a real document, and every byte of it replaced by one of
// a few troublesome ones: a FeedError or a feed, never another exception,
// and every string in the result valid UTF-8.
TEST(JsonFeed, EveryCutAndEveryByteChangeIsHandled) {
  std::string doc = read_source("tests/feeds/json/spec-1.1.json");
  ASSERT_FALSE(doc.empty());
  std::size_t parsed = 0, refused = 0;
  auto check = [&](const std::string& variant) {
    try {
      ParsedFeed feed = parse_feed(variant, "variant.json");
      ++parsed;
      for (const Post& p : feed.posts) {
        for (const std::string* s : {&p.id, &p.link, &p.title, &p.content, &p.summary}) {
          ASSERT_TRUE(valid_utf8(*s)) << variant;
        }
      }
    } catch (const FeedError&) {
      ++refused;
    }
  };
  for (std::size_t n = 0; n <= doc.size(); ++n) check(doc.substr(0, n));
  const char replacements[] = {'"', '{', ']', ',', '\\', '\xFF', '\0'};
  for (std::size_t i = 0; i < doc.size(); ++i) {
    for (char r : replacements) {
      std::string variant = doc;
      variant[i] = r;
      check(variant);
    }
  }
  // Both outcomes occur: cuts after the version still read as (incomplete)
  // feeds, cuts before it are refused.
  EXPECT_GT(parsed, doc.size());
  EXPECT_GT(refused, 0u);
}

// ---- Ingest: a JSON Feed body in an archive folder ------------------------------

// A folder of snapshots may hold JSON Feed bodies: they are collected, with
// what their headers file says; the headers files themselves are not.
TEST(JsonFeed, CollectedAsSnapshotsBesideTheirHeaders) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("json_feed_test_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "pots");
  auto write = [](const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; };
  write(dir / "pots" / "2025-02-15T000000Z.json", read_source("tests/feeds/json/spec-1.1.json"));
  write(dir / "pots" / "2025-02-15T000000Z.headers.json",
        R"({"fetchedAt": "2025-02-15T00:00:00Z", "status": 200, "finalUrl": "https://pots.example.com/f/feed.json"})");
  write(dir / "pots" / "headers.json", R"({"fetchedAt": "2025-02-16T00:00:00Z"})");
  std::vector<std::string> errors;
  std::vector<Snapshot> snaps = collect_snapshots({dir.string()}, "", errors);
  fs::path expected = dir / "pots" / "2025-02-15T000000Z.json";
  ASSERT_EQ(snaps.size(), 1u);
  EXPECT_TRUE(errors.empty());
  EXPECT_EQ(snaps[0].path, expected.string());
  EXPECT_EQ(snaps[0].feed_id, "pots");
  EXPECT_EQ(date(snaps[0].observed), "2025-02-15T00:00:00Z");
  EXPECT_EQ(snaps[0].final_url, "https://pots.example.com/f/feed.json");
  // What the snapshot knows reaches the parser: the final URL is the base
  // for relative item urls.
  ParseOptions options = parse_options_for(snaps[0]);
  EXPECT_EQ(options.base_url, "https://pots.example.com/f/feed.json");
  ParsedFeed feed = parse_feed(R"({"version": "https://jsonfeed.org/version/1.1", "home_page_url": "/",
                                   "items": [{"id": "r", "url": "rel"}]})",
                               snaps[0].path, options);
  ASSERT_EQ(feed.posts.size(), 1u);
  EXPECT_EQ(feed.posts[0].link, "https://pots.example.com/f/rel");
  EXPECT_EQ(feed.link, "https://pots.example.com/");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace blogsearch
