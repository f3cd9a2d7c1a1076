// Feed parser: tables of {item snippet, field, expected value} per format,
// then hostile and broken inputs.
#include "indexer/feed_parser.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "indexer/date.h"

namespace blogsearch {
namespace {

struct FieldCase {
  const char* body;   // inserted into the format's wrapper
  const char* field;  // see field_of()
  const char* want;   // lists joined with '|', dates in RFC 3339, "" for none
};

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : "|") + s;
  return out;
}

std::string date(const std::optional<Time>& t) { return t ? format_rfc3339(*t) : ""; }

std::string field_of(const ParsedFeed& feed, const std::string& field) {
  if (field == "format") return feed.format;
  if (field == "feed.title") return feed.title;
  if (field == "feed.link") return feed.link;
  if (field == "count") return std::to_string(feed.posts.size());
  if (feed.posts.empty()) return "<no posts>";
  const Post& p = feed.posts[0];
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

void check_table(const char* head, const char* tail, const FieldCase* cases, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const FieldCase& c = cases[i];
    std::string doc = std::string(head) + c.body + tail;
    ParsedFeed feed;
    try {
      feed = parse_feed(doc, "case.xml");
    } catch (const FeedError& e) {
      ADD_FAILURE() << e.what() << "\n in: " << c.body;
      continue;
    }
    EXPECT_EQ(field_of(feed, c.field), c.want) << "field " << c.field << " of: " << c.body;
    EXPECT_TRUE(feed.warnings.empty()) << feed.warnings[0] << "\n in: " << c.body;
  }
}

// ---- RSS 2.0 ---------------------------------------------------------------

const char kRss2Head[] =
    R"(<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"
     xmlns:content="http://purl.org/rss/1.0/modules/content/"
     xmlns:atom="http://www.w3.org/2005/Atom"
     xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
     xmlns:dcterms="http://purl.org/dc/terms/">
<channel><title>Example &amp; Co</title><link>https://example.com/blog/</link>
<atom:link rel="self" href="https://example.com/feed/"/>
)";
const char kRss2Tail[] = "</channel></rss>";

const FieldCase kRss2[] = {
    {"<item><title>x</title></item>", "format", "rss2"},
    {"<item><title>x</title></item>", "feed.title", "Example & Co"},
    {"<item><title>x</title></item>", "feed.link", "https://example.com/blog/"},
    {"<item><title>x</title></item><item><title>y</title></item>", "count", "2"},
    {"<item><title>  Hello\n  world </title></item>", "title", "Hello world"},
    {"<item><title><![CDATA[Tips & tricks]]></title></item>", "title", "Tips & tricks"},
    {"<item><title>AT&amp;amp;T &amp;lt;3</title></item>", "title", "AT&T <3"},
    {"<item><title>&lt;b&gt;Bold&lt;/b&gt; move</title></item>", "title", "Bold move"},
    {"<item><title>a &lt; b &amp; c</title></item>", "title", "a < b & c"},
    {"<item><title>On the &lt;dl&gt;</title></item>", "title", "On the <dl>"},
    {"<item><title><![CDATA[<em>New</em> release]]></title></item>", "title", "New release"},
    {"<item><guid isPermaLink=\"false\"> https://example.com/?p=1 </guid></item>", "id",
     "https://example.com/?p=1"},
    {"<item><guid isPermaLink=\"false\">https://example.com/?p=1</guid></item>", "link", ""},
    {"<item><guid>https://example.com/p/1</guid></item>", "link", "https://example.com/p/1"},
    {"<item><guid>tag:example.com,2026:1</guid></item>", "link", ""},
    {"<item><link> https://example.com/p/2 </link></item>", "link", "https://example.com/p/2"},
    {"<item><link>/p/3</link></item>", "link", "https://example.com/p/3"},
    {"<item><link>p/4</link></item>", "link", "https://example.com/blog/p/4"},
    {"<item xml:base=\"https://other.example/x/\"><link>p/5</link></item>", "link",
     "https://other.example/x/p/5"},
    {"<item><atom:link rel=\"alternate\" href=\"https://example.com/p/6\"/></item>", "link",
     "https://example.com/p/6"},
    {"<item><link>https://example.com/a</link><atom:link href=\"https://example.com/b\"/></item>",
     "link", "https://example.com/a"},
    {"<item><dc:creator>Ann</dc:creator><dc:creator>Bob</dc:creator></item>", "authors", "Ann|Bob"},
    {"<item><author>ann@example.com (Ann Example)</author></item>", "authors", "Ann Example"},
    {"<item><author>Ann Example &lt;ann@example.com&gt;</author></item>", "authors", "Ann Example"},
    {"<item><itunes:author>Cy</itunes:author><dc:creator>Cy</dc:creator></item>", "authors", "Cy"},
    {"<item><category>Blog</category><category><![CDATA[PyTorch]]></category>"
     "<category>Blog</category></item>",
     "categories", "Blog|PyTorch"},
    {"<item><dc:subject>Science</dc:subject><category domain=\"x\">News</category></item>",
     "categories", "Science|News"},
    {"<item><pubDate>Wed, 02 Sep 2026 01:32:28 +0000</pubDate></item>", "published",
     "2026-09-02T01:32:28Z"},
    {"<item><pubDate>not a date</pubDate></item>", "published", ""},
    {"<item><dc:date>2026-09-02T01:32:28Z</dc:date></item>", "published", "2026-09-02T01:32:28Z"},
    {"<item><dc:date>2026-09-02T01:32:28Z</dc:date></item>", "updated", "2026-09-02T01:32:28Z"},
    {"<item><pubDate>Wed, 02 Sep 2026 01:32:28 GMT</pubDate><dcterms:modified>2026-09-03"
     "</dcterms:modified></item>",
     "updated", "2026-09-03T00:00:00Z"},
    {"<item><description>&lt;p&gt;Hi&lt;/p&gt;</description></item>", "summary", "<p>Hi</p>"},
    {"<item><description>&lt;p&gt;Hi&lt;/p&gt;</description></item>", "content", "<p>Hi</p>"},
    {"<item><description>Short</description><content:encoded><![CDATA[<p>Long</p>]]>"
     "</content:encoded></item>",
     "content", "<p>Long</p>"},
    {"<item><description>Short</description><content:encoded><![CDATA[<p>Long</p>]]>"
     "</content:encoded></item>",
     "summary", "Short"},
    {"<item><description>Short</description></item>", "content_is_html", "true"},
    {"<item><description><p>naked <b>markup</b></p></description></item>", "content",
     "<p>naked <b>markup</b></p>"},
};

TEST(FeedParser, Rss2Fields) { check_table(kRss2Head, kRss2Tail, kRss2, sizeof kRss2 / sizeof kRss2[0]); }

TEST(FeedParser, Rss091HtmlEntitiesFromItsDtd) {
  // RSS 0.91 declares HTML's entities in a DTD that is never fetched; the
  // names are decoded anyway.
  std::string doc =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE rss PUBLIC \"-//Netscape Communications//DTD RSS 0.91//EN\" "
      "\"http://my.netscape.com/publish/formats/rss-0.91.dtd\">\n"
      "<rss version=\"0.91\"><channel><title>T</title><item><title>caf&eacute;&nbsp;1</title>"
      "</item></channel></rss>";
  ParsedFeed feed = parse_feed(doc, "rss091.xml");
  ASSERT_EQ(feed.posts.size(), 1u);
  EXPECT_EQ(feed.posts[0].title, "caf\xC3\xA9 1");
}

// ---- RSS 1.0 (RDF) -----------------------------------------------------------

const char kRss1Head[] =
    R"(<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
         xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
         xmlns:content="http://purl.org/rss/1.0/modules/content/">
<channel rdf:about="https://example.org/index.rdf"><title>RDF site</title>
<link>https://example.org/</link></channel>
)";
const char kRss1Tail[] = "</rdf:RDF>";

const FieldCase kRss1[] = {
    {"<item rdf:about=\"https://example.org/1\"><title>One</title></item>", "format", "rss1"},
    {"<item rdf:about=\"https://example.org/1\"><title>One</title></item>", "feed.title", "RDF site"},
    {"<item rdf:about=\"https://example.org/1\"><title>One</title></item>", "feed.link",
     "https://example.org/"},
    {"<item rdf:about=\"https://example.org/1\"><title>One</title></item>", "id", "https://example.org/1"},
    {"<item rdf:about=\"https://example.org/1\"><title>One</title></item>", "title", "One"},
    {"<item rdf:about=\"x\"><link>https://example.org/1.html</link></item>", "link",
     "https://example.org/1.html"},
    {"<item rdf:about=\"x\"><dc:creator>Dee</dc:creator></item>", "authors", "Dee"},
    {"<item rdf:about=\"x\"><dc:subject>Maths</dc:subject></item>", "categories", "Maths"},
    {"<item rdf:about=\"x\"><dc:date>2026-09-02T03:32:28+02:00</dc:date></item>", "published",
     "2026-09-02T01:32:28Z"},
    {"<item rdf:about=\"x\"><description>Plain &amp;amp; simple</description></item>", "summary",
     "Plain &amp; simple"},
    {"<item rdf:about=\"x\"><content:encoded>&lt;p&gt;Body&lt;/p&gt;</content:encoded></item>",
     "content", "<p>Body</p>"},
    {"<item rdf:about=\"a\"/><item rdf:about=\"b\"/><item rdf:about=\"c\"/>", "count", "3"},
};

TEST(FeedParser, Rss1Fields) { check_table(kRss1Head, kRss1Tail, kRss1, sizeof kRss1 / sizeof kRss1[0]); }

// ---- Atom 1.0 ----------------------------------------------------------------

const char kAtomHead[] =
    R"(<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://atom.example/blog/">
<title type="html">Atom &lt;em&gt;feed&lt;/em&gt;</title>
<link rel="self" href="https://atom.example/feed.xml"/>
<link rel="alternate" type="text/html" href="https://atom.example/"/>
<author><name>Feed Author</name></author>
<id>urn:uuid:feed</id><updated>2026-09-02T00:00:00Z</updated>
)";
const char kAtomTail[] = "</feed>";

const FieldCase kAtom[] = {
    {"<entry><title>x</title></entry>", "format", "atom10"},
    {"<entry><title>x</title></entry>", "feed.title", "Atom feed"},
    {"<entry><title>x</title></entry>", "feed.link", "https://atom.example/"},
    {"<entry><id> tag:atom.example,2026:1 </id></entry>", "id", "tag:atom.example,2026:1"},
    {"<entry><id>tag:atom.example,2026:1</id></entry>", "link", ""},
    {"<entry><id>https://atom.example/p/9</id></entry>", "link", "https://atom.example/p/9"},
    {"<entry><link rel=\"edit\" href=\"https://atom.example/e\"/>"
     "<link rel=\"enclosure\" href=\"https://atom.example/a.mp3\"/>"
     "<link rel=\"alternate\" type=\"text/html\" href=\"https://atom.example/p/1\"/></entry>",
     "link", "https://atom.example/p/1"},
    {"<entry><link href=\"https://atom.example/p/2\"/></entry>", "link", "https://atom.example/p/2"},
    {"<entry><link rel=\"alternate\" type=\"application/pdf\" href=\"/p.pdf\"/>"
     "<link rel=\"alternate\" type=\"text/html\" href=\"/p.html\"/></entry>",
     "link", "https://atom.example/p.html"},
    {"<entry><link href=\"p/3\"/></entry>", "link", "https://atom.example/blog/p/3"},
    {"<entry xml:base=\"/other/\"><link href=\"p/4\"/></entry>", "link",
     "https://atom.example/other/p/4"},
    {"<entry><title>Plain &amp; &lt;simple&gt;</title></entry>", "title", "Plain & <simple>"},
    {"<entry><title type=\"text\">a &lt;b&gt; c</title></entry>", "title", "a <b> c"},
    {"<entry><title type=\"html\">a &lt;b&gt;bold&lt;/b&gt; &amp;amp; c</title></entry>", "title",
     "a bold & c"},
    {"<entry><title type=\"xhtml\"><div xmlns=\"http://www.w3.org/1999/xhtml\">x <b>y</b></div>"
     "</title></entry>",
     "title", "x y"},
    {"<entry><author><name>Ann</name><email>ann@x</email></author><author><name>Bob</name>"
     "</author></entry>",
     "authors", "Ann|Bob"},
    {"<entry><title>x</title></entry>", "authors", "Feed Author"},
    {"<entry><category term=\"tech\" label=\"Technology\"/><category label=\"Only label\"/></entry>",
     "categories", "tech|Only label"},
    {"<entry><published>2026-09-01T10:00:00-02:00</published><updated>2026-09-02T01:32:28Z"
     "</updated></entry>",
     "published", "2026-09-01T12:00:00Z"},
    {"<entry><published>2026-09-01T10:00:00Z</published><updated>2026-09-02T01:32:28.5Z"
     "</updated></entry>",
     "updated", "2026-09-02T01:32:28Z"},
    {"<entry><updated>2026-09-02T01:32:28Z</updated></entry>", "published", ""},
    {"<entry><summary>Just text &amp; more</summary></entry>", "summary", "Just text & more"},
    {"<entry><summary>Just text</summary></entry>", "summary_is_html", "false"},
    {"<entry><summary type=\"html\">&lt;p&gt;x&lt;/p&gt;</summary></entry>", "summary_is_html", "true"},
    {"<entry><summary>S</summary></entry>", "content", "S"},
    {"<entry><summary>S</summary></entry>", "content_is_html", "false"},
    {"<entry><content type=\"html\">&lt;p&gt;Hi &amp;amp; bye&lt;/p&gt;</content></entry>", "content",
     "<p>Hi &amp; bye</p>"},
    {"<entry><content type=\"text\">1 &lt; 2</content></entry>", "content", "1 < 2"},
    {"<entry><content type=\"text\">1 &lt; 2</content></entry>", "content_is_html", "false"},
    {"<entry><content type=\"xhtml\"><div xmlns=\"http://www.w3.org/1999/xhtml\"><p>One</p>"
     "<p>Two &amp; <em>three</em></p></div></content></entry>",
     "content", "<p>One</p><p>Two &amp; <em>three</em></p>"},
    {"<entry><content type=\"xhtml\"><div xmlns=\"http://www.w3.org/1999/xhtml\"><p>x</p></div>"
     "</content></entry>",
     "content_is_html", "true"},
    {"<entry><content type=\"html\"><div xmlns=\"http://www.w3.org/1999/xhtml\">"
     "Typepad &lt;b&gt;style&lt;/b&gt;</div></content></entry>",
     "content", "Typepad <b>style</b>"},
    {"<entry><summary>S</summary><content src=\"https://atom.example/c\"/></entry>", "content", "S"},
    {"<entry><summary>S</summary><content type=\"application/octet-stream\">AAAA</content></entry>",
     "content", "S"},
    {"<entry><title>a</title></entry><entry><title>b</title></entry>", "count", "2"},
};

TEST(FeedParser, Atom10Fields) { check_table(kAtomHead, kAtomTail, kAtom, sizeof kAtom / sizeof kAtom[0]); }

// ---- Atom 0.3 ----------------------------------------------------------------

const char kAtom03Head[] =
    R"(<?xml version="1.0"?>
<feed version="0.3" xmlns="http://purl.org/atom/ns#">
<title mode="escaped" type="text/html">Old &lt;b&gt;Atom&lt;/b&gt;</title>
<link rel="alternate" type="text/html" href="https://old.example/"/>
)";

const FieldCase kAtom03[] = {
    {"<entry><title>x</title></entry>", "format", "atom03"},
    {"<entry><title>x</title></entry>", "feed.title", "Old Atom"},
    {"<entry><title>x</title></entry>", "feed.link", "https://old.example/"},
    {"<entry><id>tag:old.example,2004:1</id></entry>", "id", "tag:old.example,2004:1"},
    {"<entry><link rel=\"alternate\" type=\"text/html\" href=\"https://old.example/1\"/></entry>", "link",
     "https://old.example/1"},
    {"<entry><issued>2004-01-01T10:00:00Z</issued><modified>2004-01-02T10:00:00Z</modified></entry>",
     "published", "2004-01-01T10:00:00Z"},
    {"<entry><issued>2004-01-01T10:00:00Z</issued><modified>2004-01-02T10:00:00Z</modified></entry>",
     "updated", "2004-01-02T10:00:00Z"},
    {"<entry><created>2004-01-01T09:00:00Z</created></entry>", "published", "2004-01-01T09:00:00Z"},
    {"<entry><author><name>Old Timer</name></author></entry>", "authors", "Old Timer"},
    {"<entry><content type=\"text/html\" mode=\"escaped\">&lt;p&gt;Hi&lt;/p&gt;</content></entry>",
     "content", "<p>Hi</p>"},
    {"<entry><content type=\"application/xhtml+xml\" mode=\"xml\"><div "
     "xmlns=\"http://www.w3.org/1999/xhtml\"><p>Hi</p></div></content></entry>",
     "content", "<p>Hi</p>"},
    {"<entry><summary type=\"text/plain\">Sum</summary></entry>", "summary_is_html", "false"},
};

TEST(FeedParser, Atom03Fields) {
  check_table(kAtom03Head, kAtomTail, kAtom03, sizeof kAtom03 / sizeof kAtom03[0]);
}

// ---- broken and hostile input --------------------------------------------------

std::string all_text(const ParsedFeed& feed) {
  std::string s = feed.title + feed.link;
  for (const auto& p : feed.posts) {
    s += p.id + p.link + p.title + p.summary + p.content + join(p.authors) + join(p.categories);
  }
  return s;
}

std::size_t largest_field(const ParsedFeed& feed) {
  std::size_t n = feed.title.size();
  for (const auto& p : feed.posts) {
    n = std::max({n, p.title.size(), p.summary.size(), p.content.size()});
  }
  return n;
}

bool has_warning(const ParsedFeed& feed, const std::string& part) {
  for (const auto& w : feed.warnings) {
    if (w.find(part) != std::string::npos) return true;
  }
  return false;
}

double seconds_to_parse(const std::string& doc, ParsedFeed& out, const ParseOptions& options = {}) {
  auto start = std::chrono::steady_clock::now();
  out = parse_feed(doc, "hostile.xml", options);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(FeedParser, ExternalEntityLeaksNothing) {
  std::string path = testing::TempDir() + "blogsearch_xxe_secret.txt";
  {
    std::ofstream secret(path);
    secret << "TOPSECRET-7c1f";
  }
  for (const char* where : {"<title>&xxe;</title>", "<description>&xxe;</description>"}) {
    std::string doc = "<?xml version=\"1.0\"?>\n<!DOCTYPE rss [<!ENTITY xxe SYSTEM \"file://" + path +
                      "\">]>\n<rss><channel><title>t</title><item>" + where +
                      "<guid>g</guid></item></channel></rss>";
    ParsedFeed feed = parse_feed(doc, "xxe.xml");
    ASSERT_EQ(feed.posts.size(), 1u);
    EXPECT_EQ(all_text(feed).find("TOPSECRET"), std::string::npos) << where;
  }
  // A parameter entity pulling in an external DTD is not loaded either.
  std::string doc = "<?xml version=\"1.0\"?>\n<!DOCTYPE rss [<!ENTITY % ext SYSTEM \"file://" + path +
                    "\"> %ext;]>\n<rss><channel><title>t</title></channel></rss>";
  ParsedFeed feed = parse_feed(doc, "xxe2.xml");
  EXPECT_EQ(all_text(feed).find("TOPSECRET"), std::string::npos);
  std::remove(path.c_str());
}

TEST(FeedParser, BillionLaughsStaysSmall) {
  std::string doc = "<?xml version=\"1.0\"?>\n<!DOCTYPE rss [\n<!ENTITY l0 \"lol\">\n";
  for (int i = 1; i <= 9; ++i) {
    std::string refs;
    for (int k = 0; k < 10; ++k) refs += "&l" + std::to_string(i - 1) + ";";
    doc += "<!ENTITY l" + std::to_string(i) + " \"" + refs + "\">\n";
  }
  doc += "]>\n<rss><channel><title>&l9;</title><item><title>&l9;</title><description>&l9;"
         "</description></item></channel></rss>";
  ParsedFeed feed;
  double s = seconds_to_parse(doc, feed);
  EXPECT_LT(s, 2.0);
  EXPECT_LE(largest_field(feed), 1u << 20);
  EXPECT_FALSE(feed.warnings.empty());
}

TEST(FeedParser, QuadraticBlowupBounded) {
  std::string doc = "<?xml version=\"1.0\"?>\n<!DOCTYPE rss [<!ENTITY a \"" + std::string(50000, 'x') +
                    "\">]>\n<rss><channel><item><description>";
  for (int i = 0; i < 50000; ++i) doc += "&a;";
  doc += "</description></item></channel></rss>";
  ParsedFeed feed;
  double s = seconds_to_parse(doc, feed);
  EXPECT_LT(s, 2.0);
  ASSERT_EQ(feed.posts.size(), 1u);
  EXPECT_LE(largest_field(feed), 1u << 20);
  EXPECT_TRUE(has_warning(feed, "entity expansion stopped")) << ::testing::PrintToString(feed.warnings);
}

TEST(FeedParser, HugeTextNodeTruncated) {
  std::string doc = "<rss><channel><item><title>big</title><description>" + std::string(20u << 20, 'a') +
                    "</description></item><item><title>after</title></item></channel></rss>";
  ParseOptions options;
  options.max_text_bytes = 1u << 20;
  ParsedFeed feed;
  double s = seconds_to_parse(doc, feed, options);
  EXPECT_LT(s, 5.0);
  ASSERT_GE(feed.posts.size(), 1u);
  EXPECT_EQ(feed.posts[0].content.size(), 1u << 20);
  EXPECT_EQ(feed.posts[0].summary.size(), 1u << 20);
  EXPECT_TRUE(has_warning(feed, "hostile.xml: item 1: text longer than 1048576 bytes truncated"))
      << ::testing::PrintToString(feed.warnings);
}

TEST(FeedParser, TruncationKeepsUtf8Whole) {
  std::string body;
  for (int i = 0; i < 100; ++i) body += "\xE2\x82\xAC";  // euro signs, 3 bytes each
  std::string doc = "<rss><channel><item><title>" + body + "</title></item></channel></rss>";
  ParseOptions options;
  options.max_text_bytes = 100;  // not a multiple of 3
  ParsedFeed feed = parse_feed(doc, "utf8cut.xml", options);
  ASSERT_EQ(feed.posts.size(), 1u);
  EXPECT_EQ(feed.posts[0].title.size(), 99u);
}

TEST(FeedParser, DeepNestingBounded) {
  std::string doc = "<rss><channel><item><title>deep</title><description>";
  for (int i = 0; i < 10000; ++i) doc += "<a>";
  for (int i = 0; i < 10000; ++i) doc += "</a>";
  doc += "</description></item></channel></rss>";
  ParsedFeed feed;
  double s = seconds_to_parse(doc, feed);
  EXPECT_LT(s, 2.0);
  ASSERT_EQ(feed.posts.size(), 1u);
  EXPECT_EQ(feed.posts[0].title, "deep");
  ASSERT_EQ(feed.warnings.size(), 1u);
  EXPECT_NE(feed.warnings[0].find("hostile.xml:1:"), std::string::npos) << feed.warnings[0];
}

TEST(FeedParser, NulBytesRemoved) {
  const char nul = '\0';
  std::string doc = std::string("<rss><channel><item><title>a") + nul + "b</title><description>c" + nul +
                    nul + "d</description></item></channel></rss>";
  ParsedFeed feed = parse_feed(doc, "nul.xml");
  ASSERT_EQ(feed.posts.size(), 1u);
  EXPECT_EQ(feed.posts[0].title, "ab");
  EXPECT_EQ(feed.posts[0].summary, "cd");
  EXPECT_TRUE(has_warning(feed, "nul.xml: 3 character(s) not allowed in XML removed"));
}

TEST(FeedParser, InvalidUtf8InCdataReadAsWindows1252) {
  std::string doc =
      "<?xml version=\"1.0\" encoding=\"utf-8\"?><rss><channel><item><description><![CDATA["
      "caf\xE9 \x93quoted\x94 and valid \xE2\x82\xAC]]></description></item></channel></rss>";
  ParsedFeed feed = parse_feed(doc, "cdata.xml");
  ASSERT_EQ(feed.posts.size(), 1u);
  EXPECT_EQ(feed.posts[0].summary, "caf\xC3\xA9 \xE2\x80\x9Cquoted\xE2\x80\x9D and valid \xE2\x82\xAC");
  EXPECT_TRUE(has_warning(feed, "cdata.xml: not valid UTF-8; 3 byte(s) read as Windows-1252"));
}

TEST(FeedParser, Windows1252MislabelledAsUtf8) {
  std::string doc =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss><channel><title>Caf\xE9</title><item>"
      "<title>It\x92s \x96 done\x85</title></item></channel></rss>";
  ParsedFeed feed = parse_feed(doc, "cp1252.xml");
  EXPECT_EQ(feed.title, "Caf\xC3\xA9");
  ASSERT_EQ(feed.posts.size(), 1u);
  EXPECT_EQ(feed.posts[0].title, "It\xE2\x80\x99s \xE2\x80\x93 done\xE2\x80\xA6");
  EXPECT_EQ(feed.warnings.size(), 1u);
}

TEST(FeedParser, Latin1DeclaredReadAsWindows1252) {
  std::string doc =
      "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss><channel><item><title>\x93"
      "Caf\xE9\x94</title></item></channel></rss>";
  ParsedFeed feed = parse_feed(doc, "latin1.xml");
  ASSERT_EQ(feed.posts.size(), 1u);
  EXPECT_EQ(feed.posts[0].title, "\xE2\x80\x9C" "Caf\xC3\xA9\xE2\x80\x9D");
  EXPECT_TRUE(feed.warnings.empty());
}

TEST(FeedParser, OtherDeclaredEncodingDecoded) {
  std::string doc =
      "<?xml version=\"1.0\" encoding=\"ISO-8859-15\"?><rss><channel><item><title>\xA4"
      "</title></item></channel></rss>";
  ParsedFeed feed = parse_feed(doc, "latin9.xml");
  ASSERT_EQ(feed.posts.size(), 1u);
  EXPECT_EQ(feed.posts[0].title, "\xE2\x82\xAC");  // 0xA4 is the euro sign in Latin-9
}

std::string utf16le_with_bom(const std::u16string& s) {
  std::string out = "\xFF\xFE";
  for (char16_t c : s) {
    out += static_cast<char>(c & 0xFF);
    out += static_cast<char>(c >> 8);
  }
  return out;
}

TEST(FeedParser, Utf16WithBom) {
  std::string doc = utf16le_with_bom(
      u"<?xml version=\"1.0\" encoding=\"UTF-16\"?><rss><channel><item><title>caf\u00e9 \u20ac"
      u"</title></item></channel></rss>");
  ParsedFeed feed = parse_feed(doc, "utf16.xml");
  ASSERT_EQ(feed.posts.size(), 1u);
  EXPECT_EQ(feed.posts[0].title, "caf\xC3\xA9 \xE2\x82\xAC");
  EXPECT_TRUE(feed.warnings.empty());
}

TEST(FeedParser, Utf8BomAndNoDeclaration) {
  ParsedFeed with_bom =
      parse_feed("\xEF\xBB\xBF<rss><channel><item><title>\xC3\xA9</title></item></channel></rss>", "bom.xml");
  ASSERT_EQ(with_bom.posts.size(), 1u);
  EXPECT_EQ(with_bom.posts[0].title, "\xC3\xA9");
  ParsedFeed bare = parse_feed("<rss><channel><item><title>\xE9t\xE9</title></item></channel></rss>", "bare.xml");
  ASSERT_EQ(bare.posts.size(), 1u);
  EXPECT_EQ(bare.posts[0].title, "\xC3\xA9t\xC3\xA9");
  EXPECT_TRUE(has_warning(bare, "bare.xml: not valid UTF-8"));
}

TEST(FeedParser, MalformedRecoveredWithOneWarningNamingTheLine) {
  std::string doc =
      "<?xml version=\"1.0\"?>\n<rss><channel><title>T</title>\n<item><title>one</title></item>\n"
      "<item><title>two & three</title><description>x <b>y</description></item>\n"
      "<item><title>four</title></item>\n</channel></rss>";
  ParsedFeed feed = parse_feed(doc, "broken.xml");
  ASSERT_GE(feed.posts.size(), 2u);
  EXPECT_EQ(feed.posts[0].title, "one");
  ASSERT_EQ(feed.warnings.size(), 1u);
  EXPECT_EQ(feed.warnings[0].rfind("broken.xml:4: malformed XML, recovered", 0), 0u) << feed.warnings[0];
}

TEST(FeedParser, ThousandsOfErrorsGiveOneWarning) {
  std::string doc = "<rss><channel><item><title>t</title><description>";
  for (int i = 0; i < 5000; ++i) doc += "a & b &c; ";
  doc += "</description></item></channel></rss>";
  ParsedFeed feed = parse_feed(doc, "many.xml");
  ASSERT_EQ(feed.posts.size(), 1u);
  ASSERT_EQ(feed.warnings.size(), 1u);
  EXPECT_NE(feed.warnings[0].find("more errors"), std::string::npos) << feed.warnings[0];
}

TEST(FeedParser, RejectsWhatIsNotAFeed) {
  struct Bad {
    const char* bytes;
    const char* says;
  };
  const Bad cases[] = {
      {"", "bad.xml: empty file"},
      {"  \n\t ", "bad.xml: empty file"},
      {"<html><body><p>Hello</p></body></html>", "not a feed (root element <html>)"},
      {"{\"json\": true}", "not XML"},
      {"<?xml version=\"1.0\"?><opml><body/></opml>", "not a feed (root element <opml>)"},
  };
  for (const auto& c : cases) {
    try {
      parse_feed(c.bytes, "bad.xml");
      ADD_FAILURE() << "accepted: " << c.bytes;
    } catch (const FeedError& e) {
      std::string what = e.what();
      EXPECT_EQ(what.rfind("bad.xml", 0), 0u) << what;
      EXPECT_NE(what.find(c.says), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
}

// CDATA sections are kept out of libxml2's parse and put back in the tree
// (xml_cdata.h); the text must be what was written, whatever sits around or
// inside the section, with line ends normalised as XML does.
TEST(FeedParser, CdataReadAsWritten) {
  const FieldCase cases[] = {
      {"<item><description><![CDATA[a < b && c > d]]></description></item>", "summary", "a < b && c > d"},
      {"<item><description><![CDATA[&amp; &lt;p&gt;]]></description></item>", "summary", "&amp; &lt;p&gt;"},
      {"<item><description>a <![CDATA[<b>]]> c</description></item>", "summary", "a <b> c"},
      {"<item><description><![CDATA[x]]]]><![CDATA[>y]]></description></item>", "summary", "x]]>y"},
      {"<item><description>p]]<![CDATA[>q]]></description></item>", "summary", "p]]>q"},
      {"<item><description><![CDATA[]]></description></item>", "summary", ""},
      {"<item><description><!-- <![CDATA[ --><![CDATA[<i>z</i>]]></description></item>", "summary", "<i>z</i>"},
      {"<item><title a='>'><![CDATA[<em>T</em>]]></title></item>", "title", "T"},
      {"<item><description><![CDATA[a\r\nb\rc\r]]>\r\n</description></item>", "summary", "a\nb\nc\n\n"},
      {"<item><description><![CDATA[1]]><![CDATA[2]]>3<![CDATA[4]]></description></item>", "summary", "1234"},
      // Text that looks like the markers is read as it is.
      {"<item><description>\xEF\xB7\x90" "0\xEF\xB7\x91<![CDATA[<b>]]></description></item>", "summary",
       "\xEF\xB7\x90" "0\xEF\xB7\x91<b>"},
      {"<item><description>&#xFDD0;0&#xFDD1;<![CDATA[<b>]]></description></item>", "summary",
       "\xEF\xB7\x90" "0\xEF\xB7\x91<b>"},
      {"<item><description><![CDATA[<b>]]>&#64976;0&#64977;</description></item>", "summary",
       "<b>\xEF\xB7\x90" "0\xEF\xB7\x91"},
  };
  check_table(kRss2Head, kRss2Tail, cases, sizeof cases / sizeof cases[0]);
}

// Many sections in one document, each back in its own item.
TEST(FeedParser, ManyCdataSectionsEachInItsPlace) {
  std::string doc = kRss2Head;
  for (int i = 0; i < 300; ++i) {
    doc += "<item><title><![CDATA[t" + std::to_string(i) + "]]></title><description><![CDATA[<p>" +
           std::to_string(i * 7) + "</p>]]></description></item>";
  }
  doc += kRss2Tail;
  ParsedFeed feed = parse_feed(doc, "many.xml");
  ASSERT_EQ(feed.posts.size(), 300u);
  for (int i = 0; i < 300; ++i) {
    EXPECT_EQ(feed.posts[i].title, "t" + std::to_string(i));
    EXPECT_EQ(feed.posts[i].summary, "<p>" + std::to_string(i * 7) + "</p>");
  }
  EXPECT_TRUE(feed.warnings.empty());
}

// CDATA sections that together outgrow libxml2's text limit (10 MB) are
// limited as libxml2 limits them, not passed around it.
TEST(FeedParser, CdataSectionsCannotOutgrowTheTextLimit) {
  std::string doc = std::string(kRss2Head) + "<item><title>big</title><description>";
  const std::string section = "<![CDATA[" + std::string(1000000, 'x') + "]]>";
  for (int i = 0; i < 11; ++i) doc += section;
  doc += "</description></item>";
  doc += kRss2Tail;
  ParsedFeed feed = parse_feed(doc, "huge.xml");
  ASSERT_LE(feed.posts.size(), 1u);
  if (!feed.posts.empty()) {
    EXPECT_LE(feed.posts[0].summary.size(), 10000000u);
  }
  EXPECT_TRUE(has_warning(feed, "huge text node"));
}

// A feed in Latin-1 keeps its CDATA sections in libxml2's hands, which
// decode them like the rest of the document.
TEST(FeedParser, CdataInLatin1FeedDecoded) {
  std::string doc =
      "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss><channel><item><title>t</title>"
      "<description><![CDATA[<p>Caf\xE9</p>]]></description></item></channel></rss>";
  ParsedFeed feed = parse_feed(doc, "latin1.xml");
  ASSERT_EQ(feed.posts.size(), 1u);
  EXPECT_EQ(feed.posts[0].summary, "<p>Caf\xC3\xA9</p>");
}

// After an error libxml2 drops entity references such as &lt;, so a document
// with errors must keep the markup of its CDATA sections all the same.
TEST(FeedParser, CdataKeptInMalformedFeed) {
  std::string doc = std::string(kRss2Head) +
                    "<item><title>one</title><description><![CDATA[<p>a & b</p>]]></description></item>"
                    "<item><title>two & three</title><description><![CDATA[<p>c</p>]]></description></item>" +
                    kRss2Tail;
  ParsedFeed feed = parse_feed(doc, "broken.xml");
  ASSERT_EQ(feed.posts.size(), 2u);
  EXPECT_EQ(feed.posts[0].summary, "<p>a & b</p>");
  EXPECT_EQ(feed.posts[1].summary, "<p>c</p>");
  EXPECT_EQ(feed.warnings.size(), 1u);
}

TEST(FeedParser, UndeclaredHtmlEntityRecovered) {
  std::string doc = std::string(kRss2Head) +
                    "<item><title>a&nbsp;b&eacute;</title><description><![CDATA[x&nbsp;y]]>"
                    "</description></item>" +
                    kRss2Tail;
  ParsedFeed feed = parse_feed(doc, "nbsp.xml");
  ASSERT_EQ(feed.posts.size(), 1u);
  EXPECT_EQ(feed.posts[0].title, "a b\xC3\xA9");  // U+00A0 collapsed like any space
  EXPECT_EQ(feed.posts[0].summary, "x&nbsp;y");      // CDATA is left as written
  ASSERT_EQ(feed.warnings.size(), 1u);
  EXPECT_NE(feed.warnings[0].find("nbsp.xml:9: undeclared HTML entities (&nbsp; and others)"),
            std::string::npos)
      << feed.warnings[0];
}

}  // namespace
}  // namespace blogsearch
