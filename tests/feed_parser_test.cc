// Feed parser: tables of {item snippet, field, expected value} per format,
// then hostile and broken inputs.
#include "indexer/feed_parser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "indexer/date.h"
#include "indexer/document_builder.h"
#include "indexer/schema.h"

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
  if (field == "category_terms") return join(p.category_terms);
  if (field == "published") return date(p.published);
  if (field == "updated") return date(p.updated);
  if (field == "summary") return p.summary;
  if (field == "content") return p.content;
  if (field == "summary_is_html") return p.summary_is_html ? "true" : "false";
  if (field == "content_is_html") return p.content_is_html ? "true" : "false";
  return "<unknown field " + field + ">";
}

void check_table(const char* head, const char* tail, const FieldCase* cases, std::size_t n,
                 const ParseOptions& options = {}) {
  for (std::size_t i = 0; i < n; ++i) {
    const FieldCase& c = cases[i];
    std::string doc = std::string(head) + c.body + tail;
    ParsedFeed feed;
    try {
      feed = parse_feed(doc, "case.xml", options);
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
     "categories", "Technology|Only label"},
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

// The count of the errors after the first is grammatical for one.
TEST(FeedParser, OneMoreErrorIsSaidInTheSingular) {
  ParsedFeed feed =
      parse_feed("<rss><channel><item><title>a & b</title><description>c & d</description></item></channel></rss>",
                 "two.xml");
  ASSERT_EQ(feed.warnings.size(), 1u);
  EXPECT_NE(feed.warnings[0].find("(and 1 more error)"), std::string::npos) << feed.warnings[0];
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
      {"{\"json\": true}", "not a feed"},
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


// ---- links (issue 14, section 5) ----------------------------------------------

// The document's URL (headers.json's finalUrl) is the base; xml:base in
// scope comes first and is itself resolved against it.
const FieldCase kDocumentBase[] = {
    {"<item><link>/blog/article.html</link></item>", "link", "http://example.org/blog/article.html"},
    {"<item><link>article.html</link></item>", "link", "http://example.org/feeds/article.html"},
    {"<item><link>../up.html</link></item>", "link", "http://example.org/up.html"},
    {"<item><link>?page=2</link></item>", "link", "http://example.org/feeds/rss.xml?page=2"},
    {"<item><link>#part</link></item>", "link", "http://example.org/feeds/rss.xml#part"},
    {"<item><link>//cdn.example/x</link></item>", "link", "http://cdn.example/x"},
    {"<item><atom:link href=\"rel/x\"/></item>", "link", "http://example.org/feeds/rel/x"},
    {"<item xml:base=\"https://other.example/x/\"><link>p/5</link></item>", "link",
     "https://other.example/x/p/5"},
    // A relative xml:base is resolved against the document, not the channel link.
    {"<item xml:base=\"/sub/\"><link>p</link></item>", "link", "http://example.org/sub/p"},
    {"<item xml:base=\"a/\"><title xml:base=\"b/\">t</title><link xml:base=\"c/\">p</link></item>", "link",
     "http://example.org/feeds/a/c/p"},
    // Non-ASCII and spaces are percent-encoded as browsers do.
    {"<item><link>/blog/\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E/</link></item>", "link",
     "http://example.org/blog/%E6%97%A5%E6%9C%AC%E8%AA%9E/"},
    {"<item><link>my post.html</link></item>", "link", "http://example.org/feeds/my%20post.html"},
    {"<item xml:base=\"/caf\xC3\xA9 bar/\"><link>x</link></item>", "link",
     "http://example.org/caf%C3%A9%20bar/x"},
    {"<item><link>https://example.com/my post/\xC3\xBC</link></item>", "link",
     "https://example.com/my%20post/%C3%BC"},
    // Valid absolute links stay byte for byte: ids fall back to links.
    {"<item><link>https://Example.COM/A%7e/b?x=1&amp;y=%41#F</link></item>", "link",
     "https://Example.COM/A%7e/b?x=1&y=%41#F"},
    {"<item><link>http://example.com</link></item>", "link", "http://example.com"},
    {"<item><link>https://example.com/./a/../b</link></item>", "link", "https://example.com/./a/../b"},
    {"<item><link>HTTP://example.com:80/x</link></item>", "link", "HTTP://example.com:80/x"},
    // Ids are never resolved or encoded.
    {"<item><guid>/p/1</guid></item>", "id", "/p/1"},
    {"<item><guid isPermaLink=\"false\">my id \xC3\xA9</guid></item>", "id", "my id \xC3\xA9"},
    {"<item><title>x</title></item>", "feed.link", "https://example.com/blog/"},
};

TEST(FeedParser, LinksResolvedAgainstTheDocumentUrl) {
  ParseOptions options;
  options.base_url = "http://example.org/feeds/rss.xml";
  check_table(kRss2Head, kRss2Tail, kDocumentBase, sizeof kDocumentBase / sizeof kDocumentBase[0], options);
}

// Without the document's URL the channel link is the base, as before.
const FieldCase kChannelBase[] = {
    {"<item><link>my post.html</link></item>", "link", "https://example.com/blog/my%20post.html"},
    {"<item><link>/t\xC3\xA4g/</link></item>", "link", "https://example.com/t%C3%A4g/"},
    {"<item xml:base=\"/sub/\"><link>p</link></item>", "link", "https://example.com/sub/p"},
};

TEST(FeedParser, LinksResolvedAgainstTheChannelLinkWithoutDocumentUrl) {
  check_table(kRss2Head, kRss2Tail, kChannelBase, sizeof kChannelBase / sizeof kChannelBase[0]);
}

const char kRelativeChannelHead[] =
    "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>T</title><link>/</link>";

const FieldCase kRelativeChannel[] = {
    {"<item><link>/p/1</link></item>", "feed.link", "https://host.example/"},
    {"<item><link>p/1</link></item>", "link", "https://host.example/feed/p/1"},
};

TEST(FeedParser, RelativeChannelLinkResolvedAgainstTheDocumentUrl) {
  ParseOptions options;
  options.base_url = "https://host.example/feed/";
  check_table(kRelativeChannelHead, kRss2Tail, kRelativeChannel,
              sizeof kRelativeChannel / sizeof kRelativeChannel[0], options);
  // Unknown document URL: a relative channel link stays as it is.
  ParsedFeed feed = parse_feed(std::string(kRelativeChannelHead) + "<item><link>/p/1</link></item>" + kRss2Tail,
                               "rel.xml");
  EXPECT_EQ(feed.link, "/");
  ASSERT_EQ(feed.posts.size(), 1u);
  EXPECT_EQ(feed.posts[0].link, "/p/1");
}

// Issue 15: an item without a guid whose link is relative gets an id that
// does not depend on the URL the feed was fetched from.
TEST(FeedParser, RelativeLinkWithoutIdGivesTheSameIdFromEveryFeedUrl) {
  const std::string body =
      "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>T</title><link>https://blog.example/</link>"
      "<item><title>a</title><link>posts/hello.html</link></item>"
      "<item><title>b</title><link>https://blog.example/abs.html</link></item>"
      "<item><title>c</title><guid isPermaLink=\"false\">g1</guid><link>posts/c.html</link></item>"
      "<item xml:base=\"/2026/\"><title>d</title><link>d.html</link></item></channel></rss>";
  std::vector<std::string> ids;
  for (const char* url : {"https://blog.example/feed/rss.xml", "https://blog.example/atom.xml",
                          "https://feeds.other.example/blog", ""}) {
    ParseOptions options;
    options.base_url = url;
    ParsedFeed feed = parse_feed(body, "rel.xml", options);
    ASSERT_EQ(feed.posts.size(), 4u);
    EXPECT_EQ(feed.posts[0].id_link, "https://blog.example/posts/hello.html") << url;
    EXPECT_EQ(feed.posts[1].id_link, "") << url;  // absolute: the link itself is the identity
    EXPECT_EQ(feed.posts[2].id_link, "") << url;  // has an id
    EXPECT_EQ(feed.posts[3].id_link, "https://blog.example/2026/d.html") << url;
  }
  ParseOptions options;
  options.base_url = "https://blog.example/feed/rss.xml";
  ParsedFeed feed = parse_feed(body, "rel.xml", options);
  EXPECT_EQ(feed.posts[0].link, "https://blog.example/feed/posts/hello.html");  // shown as RFC 3986 resolves it
}

TEST(FeedParser, AtomRelativeXmlBaseOnTheFeedUsesTheDocumentUrl) {
  std::string doc =
      "<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:base=\"blog/\"><title>t</title>"
      "<link href=\"./\"/><entry><id>e</id><link href=\"2026/p.html\"/></entry></feed>";
  ParseOptions options;
  options.base_url = "https://atom.example/feeds/all.xml";
  ParsedFeed feed = parse_feed(doc, "atom.xml", options);
  EXPECT_EQ(feed.link, "https://atom.example/feeds/blog/");
  ASSERT_EQ(feed.posts.size(), 1u);
  EXPECT_EQ(feed.posts[0].link, "https://atom.example/feeds/blog/2026/p.html");
  EXPECT_EQ(feed.posts[0].id, "e");
}

// ---- more fields (issue 14, section 7) ------------------------------------------

const char kExtHead[] =
    R"(<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"
     xmlns:media="http://search.yahoo.com/mrss/"
     xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
     xmlns:feedburner="http://rssnamespace.org/feedburner/ext/1.0">
<channel><title>Ext</title><link>https://example.com/</link>
)";

const FieldCase kExtFields[] = {
    // YouTube: the text is only in media:group.
    {"<item><title>v</title><media:group><media:title>Video</media:title>"
     "<media:description>Watch this\nnow</media:description></media:group></item>",
     "content", "Watch this\nnow"},
    {"<item><title>v</title><media:group><media:description>Watch</media:description></media:group></item>",
     "content_is_html", "false"},
    {"<item><title>v</title><media:group><media:description>Watch</media:description></media:group></item>",
     "summary", "Watch"},
    {"<item><media:description type=\"html\">&lt;p&gt;M&lt;/p&gt;</media:description></item>",
     "content_is_html", "true"},
    {"<item><description>D</description><media:group><media:description>M</media:description>"
     "</media:group></item>",
     "content", "D"},
    // Podcasts: itunes:summary.
    {"<item><itunes:summary>Episode notes</itunes:summary></item>", "summary", "Episode notes"},
    {"<item><itunes:summary>Episode notes</itunes:summary></item>", "content_is_html", "false"},
    {"<item><itunes:summary><![CDATA[<p>Notes</p>]]></itunes:summary></item>", "content", "<p>Notes</p>"},
    {"<item><itunes:summary><![CDATA[<p>Notes</p>]]></itunes:summary></item>", "content_is_html", "true"},
    {"<item><itunes:summary>I</itunes:summary><media:description>M</media:description></item>", "summary",
     "I"},
    {"<item><description>D</description><itunes:summary>I</itunes:summary></item>", "summary", "D"},
    // media:title is the title only when there is no other.
    {"<item><media:title>MT</media:title></item>", "title", "MT"},
    {"<item><media:group><media:title> Grouped\n title </media:title></media:group></item>", "title",
     "Grouped title"},
    {"<item><title>T</title><media:title>MT</media:title></item>", "title", "T"},
    {"<item><media:content url=\"https://v.example/a.mp4\"><media:title>In content</media:title>"
     "</media:content></item>",
     "title", "In content"},
    // media:category.
    {"<item><category>Blog</category><media:category scheme=\"x\">music/pop</media:category></item>",
     "categories", "Blog|music/pop"},
    {"<item><media:category label=\"Pop music\">music/pop</media:category></item>", "categories",
     "Pop music"},
    // FeedBurner's origLink is the post's own address.
    {"<item><link>http://feeds.feedburner.com/~r/x/~3/abc/</link>"
     "<feedburner:origLink>https://example.com/real-post/</feedburner:origLink></item>",
     "link", "https://example.com/real-post/"},
    {"<item><feedburner:origLink>/relative/</feedburner:origLink></item>", "link",
     "https://example.com/relative/"},
    // An unnamespaced <body> is the content.
    {"<item><description>Short</description><body><p>Full <b>text</b></p></body></item>", "content",
     "<p>Full <b>text</b></p>"},
    {"<item><description>Short</description><body><p>Full</p></body></item>", "summary", "Short"},
    {"<item><body>&lt;p&gt;Escaped&lt;/p&gt;</body></item>", "content", "<p>Escaped</p>"},
};

TEST(FeedParser, MediaItunesFeedburnerAndBody) {
  check_table(kExtHead, kRss2Tail, kExtFields, sizeof kExtFields / sizeof kExtFields[0]);
}

// YouTube's feeds are Atom with the text in media:group.
const FieldCase kYouTube[] = {
    {"<entry><title>Clip</title><media:group xmlns:media=\"http://search.yahoo.com/mrss/\">"
     "<media:title>Clip</media:title><media:description>Line one\nhttps://example.com/</media:description>"
     "</media:group></entry>",
     "content", "Line one\nhttps://example.com/"},
    {"<entry><title>Clip</title><media:group xmlns:media=\"http://search.yahoo.com/mrss/\">"
     "<media:description>D</media:description></media:group></entry>",
     "summary_is_html", "false"},
    {"<entry><summary>S</summary><media:group xmlns:media=\"http://search.yahoo.com/mrss/\">"
     "<media:description>D</media:description></media:group></entry>",
     "content", "S"},
};

TEST(FeedParser, YouTubeAtomMediaGroup) {
  check_table(kAtomHead, kAtomTail, kYouTube, sizeof kYouTube / sizeof kYouTube[0]);
}

// Atom 0.3 content in mode="base64".
const FieldCase kAtom03Base64[] = {
    {"<entry><content type=\"text/html\" mode=\"base64\">PHA+SGk8L3A+</content></entry>", "content",
     "<p>Hi</p>"},
    {"<entry><content type=\"text/html\" mode=\"base64\">PHA+SGk8L3A+</content></entry>", "content_is_html",
     "true"},
    {"<entry><content type=\"text/plain\" mode=\"base64\">\n  SGVsbG8g\n  d29ybGQ=\n</content></entry>",
     "content", "Hello world"},
    {"<entry><content type=\"text/plain\" mode=\"base64\">SGVsbG8gd29ybGQ=</content></entry>",
     "content_is_html", "false"},
    {"<entry><content mode=\"base64\">Y2Fmw6k</content></entry>", "content", "caf\xC3\xA9"},
    {"<entry><summary>S</summary><content type=\"image/png\" mode=\"base64\">iVBORw0KGgo=</content></entry>",
     "content", "S"},
};

TEST(FeedParser, Atom03Base64Content) {
  check_table(kAtom03Head, kAtomTail, kAtom03Base64, sizeof kAtom03Base64 / sizeof kAtom03Base64[0]);
}

TEST(FeedParser, Atom03Base64NotTextIgnoredWithWarning) {
  for (const char* bad : {"//4=", "not base64!", "SGk=SGk="}) {
    std::string doc = std::string(kAtom03Head) + "<entry><summary>S</summary><content type=\"text/html\" "
                      "mode=\"base64\">" + bad + "</content></entry>" + kAtomTail;
    ParsedFeed feed = parse_feed(doc, "b64.xml");
    ASSERT_EQ(feed.posts.size(), 1u) << bad;
    EXPECT_EQ(feed.posts[0].content, "S") << bad;
    EXPECT_TRUE(has_warning(feed, "b64.xml: item 1: base64 content that is not UTF-8 text ignored"))
        << bad << ::testing::PrintToString(feed.warnings);
  }
}

// ---- authors (issue 14, section 7) ------------------------------------------------

const FieldCase kAuthors[] = {
    // Markup in author elements, raw or escaped, and a leading "by".
    {"<item><author>by <a href=\"/author/foo\">Foo Bar</a></author></item>", "authors", "Foo Bar"},
    {"<item><author>by &lt;a href=\"/author/foo\"&gt;Foo Bar&lt;/a&gt;</author></item>", "authors",
     "Foo Bar"},
    {"<item><dc:creator>&lt;a href=\"https://x.example/u/ann\"&gt;Ann Lee&lt;/a&gt;</dc:creator></item>",
     "authors", "Ann Lee"},
    {"<item><dc:creator><![CDATA[<span class=\"n\">Ann</span>]]></dc:creator></item>", "authors", "Ann"},
    {"<item><dc:creator>By Ann Lee</dc:creator></item>", "authors", "Ann Lee"},
    {"<item><dc:creator>by: Ann Lee</dc:creator></item>", "authors", "Ann Lee"},
    {"<item><dc:creator>Byron Smith</dc:creator></item>", "authors", "Byron Smith"},
    {"<item><dc:creator>By</dc:creator></item>", "authors", "By"},
    {"<item><dc:creator>Tom &amp; Jerry</dc:creator></item>", "authors", "Tom & Jerry"},
    // Bylines joining several people.
    {"<item><dc:creator>Ann, Bob and Cy</dc:creator></item>", "authors", "Ann|Bob|Cy"},
    {"<item><dc:creator>Ann Lee, Bob Ray, and Cy Young</dc:creator></item>", "authors",
     "Ann Lee|Bob Ray|Cy Young"},
    {"<item><dc:creator>Ann Lee (IBM), Bob Ray (Meta) &amp; Cy Young</dc:creator></item>", "authors",
     "Ann Lee (IBM)|Bob Ray (Meta)|Cy Young"},
    {"<item><dc:creator>Ann Lee &amp; Bob Ray</dc:creator></item>", "authors", "Ann Lee|Bob Ray"},
    {"<item><dc:creator>Ann Lee and Bob Ray</dc:creator></item>", "authors", "Ann Lee|Bob Ray"},
    {"<item><dc:creator>Smith, John; Doe, Jane</dc:creator></item>", "authors", "Smith, John|Doe, Jane"},
    {"<item><author>by Ann Lee and Bob Ray</author></item>", "authors", "Ann Lee|Bob Ray"},
    {"<item><dc:creator>Ann Lee and Bob Ray</dc:creator><dc:creator>Bob Ray</dc:creator></item>", "authors",
     "Ann Lee|Bob Ray"},
    // ...and the ones that are not lists.
    {"<item><dc:creator>Smith, John</dc:creator></item>", "authors", "Smith, John"},
    {"<item><dc:creator>Ann Lee, Red Hat</dc:creator></item>", "authors", "Ann Lee, Red Hat"},
    {"<item><dc:creator>Ann, Bob, Cy</dc:creator></item>", "authors", "Ann, Bob, Cy"},
    {"<item><dc:creator>Ann Lee (IBM), Bob Ray (Meta)</dc:creator></item>", "authors",
     "Ann Lee (IBM), Bob Ray (Meta)"},
    {"<item><dc:creator>Smith, John Paul</dc:creator></item>", "authors", "Smith, John Paul"},
    {"<item><dc:creator>Procter &amp; Gamble</dc:creator></item>", "authors", "Procter & Gamble"},
    {"<item><dc:creator>Ann and Bob</dc:creator></item>", "authors", "Ann and Bob"},
    {"<item><dc:creator>John Smith, Jr.</dc:creator></item>", "authors", "John Smith, Jr."},
    {"<item><dc:creator>Martin King, Jr. and Coretta King</dc:creator></item>", "authors",
     "Martin King, Jr. and Coretta King"},
    {"<item><dc:creator>Smith, John and Doe, Jane</dc:creator></item>", "authors",
     "Smith, John and Doe, Jane"},
    {"<item><dc:creator>Ann Lee, , Bob Ray</dc:creator></item>", "authors", "Ann Lee, , Bob Ray"},
    {"<item><dc:creator>Ann Lee, , and Bob Ray</dc:creator></item>", "authors", "Ann Lee, , and Bob Ray"},
    {"<item><dc:creator>Ann Lee, Cy Xu,Di Yo, and Bob Ray</dc:creator></item>", "authors",
     "Ann Lee, Cy Xu,Di Yo, and Bob Ray"},
    {"<item><author>ann@example.com (Ann Lee and Bob Ray)</author></item>", "authors", "Ann Lee|Bob Ray"},
};

TEST(FeedParser, AuthorMarkupAndBylines) {
  check_table(kRss2Head, kRss2Tail, kAuthors, sizeof kAuthors / sizeof kAuthors[0]);
}

const FieldCase kAtomAuthors[] = {
    {"<entry><author><name>Ann Lee and Bob Ray</name></author></entry>", "authors", "Ann Lee|Bob Ray"},
    {"<entry><author><name>&lt;b&gt;Ann&lt;/b&gt;</name><uri>https://a.example/</uri></author></entry>",
     "authors", "Ann"},
    {"<entry><author><email>ann@a.example</email></author></entry>", "authors", "ann@a.example"},
    {"<entry><author><uri>https://a.example/</uri></author></entry>", "authors", "Feed Author"},
    {"<entry><author><url>https://a.example/</url></author></entry>", "authors", "Feed Author"},
};

TEST(FeedParser, AtomAuthorNames) {
  check_table(kAtomHead, kAtomTail, kAtomAuthors, sizeof kAtomAuthors / sizeof kAtomAuthors[0]);
}

// Atom categories are shown by label and matched by term as well.
const FieldCase kCategoryLabels[] = {
    {"<entry><category term=\"tech\" label=\"Technology\"/></entry>", "categories", "Technology"},
    {"<entry><category term=\"tech\" label=\"Technology\"/></entry>", "category_terms", "tech"},
    {"<entry><category term=\"tech\" label=\"Tech\"/></entry>", "category_terms", ""},
    {"<entry><category term=\"tech\"/></entry>", "categories", "tech"},
    {"<entry><category term=\"tech\"/></entry>", "category_terms", ""},
    {"<entry><category term=\"a\" label=\"A one\"/><category term=\"b\" label=\"B two\"/>"
     "<category term=\"a\" label=\"A one\"/></entry>",
     "category_terms", "a|b"},
    {"<entry><category term=\" machine\n learning \" label=\" Machine   Learning\"/></entry>", "categories",
     "Machine Learning"},
    {"<entry><category term=\" machine\n learning \" label=\" Machine   Learning\"/></entry>",
     "category_terms", ""},
};

TEST(FeedParser, AtomCategoryLabels) {
  check_table(kAtomHead, kAtomTail, kCategoryLabels, sizeof kCategoryLabels / sizeof kCategoryLabels[0]);
}

// The label is shown and is a facet; the term only filters.
TEST(FeedParser, CategoryTermsIndexedButNotAFacet) {
  std::string doc = std::string(kAtomHead) +
                    "<entry><id>e</id><category term=\"ml\" label=\"Machine Learning\"/>"
                    "<category term=\"news\"/></entry>" + kAtomTail;
  ParsedFeed feed = parse_feed(doc, "cats.xml");
  ASSERT_EQ(feed.posts.size(), 1u);
  const Post& p = feed.posts[0];
  Xapian::TermGenerator tg = make_term_generator();
  Stemmers stemmers;
  SpellingCounts spelling;
  const VersionContent content = make_content(p);
  DocumentInput in;
  in.id = p.id;
  in.content = &content;
  Xapian::Document doc_made = build_document(in, tg, stemmers, spelling);
  auto has_term = [&](const std::string& t) {
    Xapian::TermIterator it = doc_made.termlist_begin();
    it.skip_to(t);
    return it != doc_made.termlist_end() && *it == t;
  };
  EXPECT_TRUE(has_term("Kmachine learning"));
  EXPECT_TRUE(has_term("Kml"));
  EXPECT_TRUE(has_term("Knews"));
  std::string facets = doc_made.get_value(schema::kSlotFacets);
  EXPECT_NE(facets.find("Kmachine learning"), std::string::npos);
  EXPECT_NE(facets.find("Knews"), std::string::npos);
  EXPECT_EQ(facets.find("Kml"), std::string::npos);
}

// ---- future dates (issue 14, section 6) ---------------------------------------------

// The parser keeps the date as written and warns; the writer dates the post
// by its first-seen time (WriterTest.FutureDateIsTheFirstSeenTimeAndNoVersion).
TEST(FeedParser, FutureDatesAreReported) {
  const Time observed = *parse_date("2026-09-02T00:00:00Z");
  std::string doc = std::string(kRss2Head) +
                    "<item><guid>far</guid><pubDate>Fri, 31 Dec 9999 00:00:00 GMT</pubDate></item>"
                    "<item><guid>soon</guid><pubDate>Wed, 02 Sep 2026 23:00:00 GMT</pubDate></item>"
                    "<item><guid>past</guid><pubDate>Tue, 01 Sep 2026 00:00:00 GMT</pubDate>"
                    "<dc:date>2027-01-01T00:00:00Z</dc:date></item>" +
                    kRss2Tail;
  ParseOptions options;
  options.observed = observed;
  ParsedFeed feed = parse_feed(doc, "future.xml", options);
  ASSERT_EQ(feed.posts.size(), 3u);
  EXPECT_EQ(date(feed.posts[0].published), "9999-12-31T00:00:00Z");
  EXPECT_EQ(date(feed.posts[1].published), "2026-09-02T23:00:00Z");
  EXPECT_EQ(date(feed.posts[2].published), "2026-09-01T00:00:00Z");
  EXPECT_EQ(date(feed.posts[2].updated), "2027-01-01T00:00:00Z");
  ASSERT_EQ(feed.warnings.size(), 2u) << ::testing::PrintToString(feed.warnings);
  EXPECT_EQ(feed.warnings[0],
            "future.xml: item 1 (far): published date 9999-12-31T00:00:00Z is after the snapshot was "
            "observed (2026-09-02T00:00:00Z); dated when first seen instead");
  EXPECT_TRUE(has_warning(feed, "future.xml: item 3 (past): updated date 2027-01-01T00:00:00Z"));

  // Without an observed time nothing can be judged.
  ParsedFeed unknown = parse_feed(doc, "future.xml");
  EXPECT_EQ(date(unknown.posts[0].published), "9999-12-31T00:00:00Z");
  EXPECT_TRUE(unknown.warnings.empty());
}

TEST(FeedParser, FutureDatesInJsonFeedReportedToo) {
  std::string doc =
      R"({"version": "https://jsonfeed.org/version/1.1", "title": "J", "items": [)"
      R"({"id": "j1", "content_text": "x", "date_published": "9999-12-31T00:00:00Z",)"
      R"( "date_modified": "2026-09-01T00:00:00Z"}]})";
  ParseOptions options;
  options.observed = *parse_date("2026-09-02T00:00:00Z");
  ParsedFeed feed = parse_feed(doc, "future.json", options);
  ASSERT_EQ(feed.posts.size(), 1u);
  EXPECT_EQ(date(feed.posts[0].published), "9999-12-31T00:00:00Z");
  EXPECT_EQ(date(feed.posts[0].updated), "2026-09-01T00:00:00Z");
  EXPECT_TRUE(has_warning(feed, "future.json: item 1 (j1): published date 9999-12-31T00:00:00Z is after"))
      << ::testing::PrintToString(feed.warnings);
}

TEST(FeedParser, ManyFutureDatesGiveFewWarnings) {
  std::string doc = kRss2Head;
  for (int i = 0; i < 50; ++i) {
    doc += "<item><guid>g" + std::to_string(i) + "</guid><pubDate>Fri, 31 Dec 9999 00:00:00 GMT</pubDate></item>";
  }
  doc += kRss2Tail;
  ParseOptions options;
  options.observed = *parse_date("2026-09-02T00:00:00Z");
  ParsedFeed feed = parse_feed(doc, "future.xml", options);
  ASSERT_EQ(feed.posts.size(), 50u);
  ASSERT_EQ(feed.warnings.size(), 11u);
  EXPECT_EQ(feed.warnings.back(), "future.xml: 40 more future dates; dated when first seen instead");
}

// ---- bounds (issue 14, section 8) ----------------------------------------------------

TEST(FeedParser, HundredThousandCategoriesBounded) {
  std::string distinct = std::string(kRss2Head) + "<item><title>t</title>";
  std::string same = distinct;
  for (int i = 0; i < 100000; ++i) {
    distinct += "<category>c" + std::to_string(i) + "</category>";
    same += "<category>Same</category><dc:creator>Ann</dc:creator>";
  }
  distinct += "</item>" + std::string(kRss2Tail);
  same += "</item>" + std::string(kRss2Tail);

  ParsedFeed feed = parse_feed(distinct, "cats.xml");
  ASSERT_EQ(feed.posts.size(), 1u);
  ASSERT_EQ(feed.posts[0].categories.size(), 256u);
  EXPECT_EQ(feed.posts[0].categories[0], "c0");
  EXPECT_EQ(feed.posts[0].categories[255], "c255");
  EXPECT_EQ(feed.warnings, std::vector<std::string>{
                               "cats.xml: item 1: more than 256 authors or categories; the rest ignored"});

  ParsedFeed repeated = parse_feed(same, "same.xml");
  ASSERT_EQ(repeated.posts.size(), 1u);
  EXPECT_EQ(join(repeated.posts[0].categories), "Same");
  EXPECT_EQ(join(repeated.posts[0].authors), "Ann");
  EXPECT_TRUE(repeated.warnings.empty());
}

// Items past the cap are not read, whether parse_feed cuts the bytes
// before parsing (items of some size) or the walk stops counting them.
TEST(FeedParser, ItemsPastMaxItemsSkippedWithOneWarning) {
  auto count_of = [](const ParsedFeed& feed, const std::string& part) {
    return std::count_if(feed.warnings.begin(), feed.warnings.end(),
                         [&](const std::string& w) { return w.find(part) != std::string::npos; });
  };
  std::string doc = kRss2Head;
  for (int i = 0; i < 25; ++i) doc += "<item><title>t" + std::to_string(i) + "</title></item>";
  doc += kRss2Tail;
  ParseOptions options;
  options.max_items = 10;
  ParsedFeed feed = parse_feed(doc, "many.xml", options);
  ASSERT_EQ(feed.posts.size(), 10u);
  EXPECT_EQ(feed.posts[9].title, "t9");
  EXPECT_EQ(count_of(feed, "many.xml: 25 items; only the first 10 read (--max-items)"), 1);
  EXPECT_EQ(count_of(feed, "items; only"), 1);
  EXPECT_FALSE(feed.complete);
  EXPECT_EQ(feed.items_skipped, 15u);

  // Tiny items under the default cap, with the counts grouped.
  std::string big = kRss2Head;
  for (int i = 0; i < 12345; ++i) big += "<item/>";
  big += kRss2Tail;
  ParsedFeed capped = parse_feed(big, "big.xml");
  EXPECT_EQ(capped.posts.size(), 10000u);
  EXPECT_EQ(capped.warnings,
            std::vector<std::string>{"big.xml: 12,345 items; only the first 10,000 read (--max-items)"});
  EXPECT_FALSE(capped.complete);
  EXPECT_EQ(capped.items_skipped, 2345u);

  // RSS 1.0.
  std::string rdf = kRss1Head;
  for (int i = 0; i < 7; ++i) rdf += "<item rdf:about=\"i" + std::to_string(i) + "\"/>";
  rdf += kRss1Tail;
  options.max_items = 5;
  ParsedFeed rss1 = parse_feed(rdf, "rdf.xml", options);
  ASSERT_EQ(rss1.posts.size(), 5u);
  EXPECT_EQ(rss1.posts[4].id, "i4");
  EXPECT_EQ(count_of(rss1, "rdf.xml: 7 items; only the first 5 read (--max-items)"), 1);
}

}  // namespace
}  // namespace blogsearch
