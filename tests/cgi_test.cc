// Tests of the web side of query/: escaping, request decoding, the HTML,
// Atom and OpenSearch formatters, and CgiApp over a database that the real
// indexer builds from data/ (statuses, headers, JSON model, reopening after
// a commit and after a rebuild).
#include <gtest/gtest.h>

#include <ctime>
#include <libxml/parser.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <thread>

#include "indexer/rebuild.h"
#include "indexer/schema.h"
#include "indexer/snapshot.h"
#include "indexer/writer.h"
#include "query/revision_tables.h"
#include "web/cgi_app.h"
#include "web/cgi_request.h"
#include "web/database_watcher.h"
#include "web/escape.h"
#include "query/format.h"
#include "web/format_web.h"
#include "web/output_caps.h"
#include "web/page_out.h"

namespace blogsearch::web {
namespace {

namespace fs = std::filesystem;

// ---- escape.h -------------------------------------------------------------

TEST(Escape, HtmlTextEscapesMarkupAndQuotes) {
  EXPECT_EQ(escape_markup("<script>alert(\"x\" & 'y')</script>"),
            "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;");
  EXPECT_EQ(escape_markup("\"><svg onload=alert(1)>"), "&quot;&gt;&lt;svg onload=alert(1)&gt;");
  EXPECT_EQ(escape_markup("Jürgen Weiß – 東京"), "Jürgen Weiß – 東京");
}

TEST(Escape, InvalidUtf8BecomesReplacementCharacter) {
  const std::string fffd = "\xEF\xBF\xBD";
  EXPECT_EQ(valid_text("a\xC0\xBC" "b"), "a" + fffd + fffd + "b");  // overlong '<'
  EXPECT_EQ(valid_text("\xE0\x80\xBC"), fffd + fffd + fffd);           // overlong, 3 bytes
  EXPECT_EQ(valid_text("\xED\xA0\x80"), fffd + fffd + fffd);           // UTF-16 surrogate
  EXPECT_EQ(valid_text("\xF4\x90\x80\x80"), fffd + fffd + fffd + fffd);  // above U+10FFFF
  EXPECT_EQ(valid_text("x\xC3"), "x" + fffd);                          // cut sequence
  EXPECT_EQ(valid_text("\x80"), fffd);                                  // lone continuation
  EXPECT_EQ(escape_markup("\xC0\xBCscript\xC0\xBE"), fffd + fffd + "script" + fffd + fffd);
}

TEST(Escape, ControlCharactersDropped) {
  EXPECT_EQ(valid_text(std::string("a\0b", 3)), "ab");
  EXPECT_EQ(valid_text("a\x1b[31mb\x7f\xC2\x85" "c"), "a[31mbc");
  EXPECT_EQ(valid_text("tab\tnew\nline\r"), "tab\tnew\nline\r");
  EXPECT_EQ(escape_markup("\xEF\xBF\xBF" "ok\x01"), "ok");
}

TEST(Escape, UrlComponentEncodesAllButUnreserved) {
  EXPECT_EQ(url_component("a b&c=d?e#f/g%h<i>\"j'"), "a+b%26c%3Dd%3Fe%23f%2Fg%25h%3Ci%3E%22j%27");
  EXPECT_EQ(url_component("AZaz09-._~"), "AZaz09-._~");
  EXPECT_EQ(url_component("é"), "%C3%A9");
  EXPECT_EQ(url_component("javascript:alert(1)"), "javascript%3Aalert%281%29");
}

TEST(Escape, SafeHttpUrlKeepsOnlyHttpLinks) {
  EXPECT_EQ(safe_http_url("https://example.org/a?b=c&d"), "https://example.org/a?b=c&d");
  EXPECT_EQ(safe_http_url("HTTP://EXAMPLE.ORG/"), "HTTP://EXAMPLE.ORG/");
  EXPECT_EQ(safe_http_url("javascript:alert(1)"), "");
  EXPECT_EQ(safe_http_url("JaVaScRiPt:alert(1)"), "");
  EXPECT_EQ(safe_http_url(" http://example.org/"), "");
  EXPECT_EQ(safe_http_url("data:text/html,<script>"), "");
  EXPECT_EQ(safe_http_url("http://example.org/\njavascript:"), "");
  EXPECT_EQ(safe_http_url("//evil.example/"), "");
  EXPECT_EQ(safe_http_url("http://"), "");
}

TEST(Escape, PageOutWritesWhatAppendingWould) {
  std::string page = "head:", want = "head:";
  {
    PageOut out(page);
    for (int i = 0; i < 3000; ++i) {  // far past the room it makes at first
      const std::string text = "<b>" + std::to_string(i) + " & \xC0\xBC</b>";
      out << "piece " << i << ' ' << Escaped{text} << std::string("\n");
      want += "piece " + std::to_string(i) + " " + escape_markup(text) + "\n";
    }
  }
  EXPECT_GT(want.size(), 4 * PageOut::kPageBytes);
  EXPECT_EQ(page, want);
}

// ---- cgi_request.h --------------------------------------------------------

TEST(CgiRequest, DecodesEveryParameter) {
  DecodedRequest d = decode_query_string(
      "q=torch.compile+%22cold+start%22&page=3&n=20&sort=date&since=2026-01&until=30d"
      "&category=Performance&category=torch.compile&author=Ana%20S%C3%A1nchez&feed=pytorch"
      "&format=json&DB=/etc&unknown=1");
  ASSERT_EQ(d.error, "");
  EXPECT_TRUE(d.notices.empty());
  const WebQuery& w = d.query;
  EXPECT_EQ(w.q, "torch.compile \"cold start\"");
  EXPECT_EQ(w.page, 3u);
  EXPECT_EQ(w.n, 20u);
  EXPECT_EQ(w.sort, "date");
  EXPECT_EQ(w.since, "2026-01");
  EXPECT_EQ(w.until, "30d");
  EXPECT_EQ(w.categories, (std::vector<std::string>{"Performance", "torch.compile"}));
  EXPECT_EQ(w.authors, (std::vector<std::string>{"Ana Sánchez"}));
  EXPECT_EQ(w.feeds, (std::vector<std::string>{"pytorch"}));
  EXPECT_EQ(w.format, OutputFormat::kJson);
}

TEST(CgiRequest, FirstOfARepeatedSingleParameterWins) {
  DecodedRequest d = decode_query_string("q=first&q=second&sort=date&sort=bogus");
  EXPECT_EQ(d.error, "");
  EXPECT_EQ(d.query.q, "first");
  EXPECT_EQ(d.query.sort, "date");
}

TEST(CgiRequest, NumbersAreClampedWithNotice) {
  for (const char* qs : {"n=1000", "n=0", "page=0"}) {
    DecodedRequest d = decode_query_string(qs);
    EXPECT_EQ(d.error, "") << qs;
    EXPECT_EQ(d.notices.size(), 1u) << qs;
  }
  EXPECT_EQ(decode_query_string("n=1000").query.n, 100u);
  EXPECT_EQ(decode_query_string("n=0").query.n, 1u);
  EXPECT_EQ(decode_query_string("page=0").query.page, 1u);
  EXPECT_TRUE(decode_query_string("n=100&page=1000").notices.empty());
  DecodedRequest far = decode_query_string("page=99999999999999999999");
  EXPECT_EQ(far.error, "");
  EXPECT_EQ(far.query.page, RequestLimits{}.max_page);
  EXPECT_EQ(far.notices.size(), 1u);
}

TEST(CgiRequest, UnusableValuesAreErrors) {
  EXPECT_NE(decode_query_string("page=abc").error, "");
  EXPECT_NE(decode_query_string("page=-1").error, "");
  EXPECT_NE(decode_query_string("n=1e3").error, "");
  EXPECT_NE(decode_query_string("sort=newest").error, "");
  EXPECT_NE(decode_query_string("format=xml").error, "");
  EXPECT_EQ(decode_query_string("sort=&format=&page=&n=").error, "");
}

TEST(CgiRequest, LongQueryIsCutAtACharacterBoundary) {
  std::string q = std::string(999, 'a') + "%C3%A9%C3%A9";  // 999 bytes, then two 2-byte é
  DecodedRequest d = decode_query_string("q=" + q);
  EXPECT_EQ(d.query.q, std::string(999, 'a'));
  ASSERT_EQ(d.notices.size(), 1u);
  EXPECT_NE(d.notices[0].find("cut"), std::string::npos);
  std::string big(10240, 'x');
  EXPECT_EQ(decode_query_string("q=" + big).query.q.size(), RequestLimits{}.max_query_bytes);
}

TEST(CgiRequest, RepeatedFiltersAreBounded) {
  std::string qs;
  for (int i = 0; i < 50; ++i) qs += "category=c" + std::to_string(i) + "&";
  DecodedRequest d = decode_query_string(qs);
  EXPECT_EQ(d.query.categories.size(), RequestLimits{}.max_values);
  EXPECT_EQ(d.notices.size(), 1u);
}

// A NUL, another control character or bytes that are not UTF-8 cannot be
// what someone searched for: an error naming the parameter (a NUL used to
// end the value unseen, q=%00kernel searching nothing; bad bytes became
// U+FFFD).
TEST(CgiRequest, ControlCharactersAndInvalidUtf8AreErrors) {
  EXPECT_EQ(decode_query_string("q=%00kernel").error, "q holds a control character");
  EXPECT_EQ(decode_query_string("q=a%00%3Cscript%3E").error, "q holds a control character");
  EXPECT_EQ(decode_query_string("post=%00").error, "post holds a control character");
  EXPECT_EQ(decode_query_string("category=x%00y").error, "category holds a control character");
  EXPECT_EQ(decode_query_string("q=%1B%5B31m").error, "q holds a control character");
  EXPECT_EQ(decode_query_string("q=%C2%85").error, "q holds a control character");  // U+0085, C1
  EXPECT_EQ(decode_query_string("q=%C3%28").error, "q is not valid UTF-8 text");
  EXPECT_EQ(decode_query_string("q=%C0%BCscript").error, "q is not valid UTF-8 text");
  EXPECT_EQ(decode_query_string("q=%EF%BF%BF").error, "q holds a noncharacter (U+FFFE or U+FFFF)");
  // A "%00" key is no parameter's name, nor are unknown parameters read.
  EXPECT_EQ(decode_query_string("q%00x=1&q=kernel").query.q, "kernel");
  EXPECT_EQ(decode_query_string("utm=%00%C3%28&q=kernel").error, "");
  // Tab and line breaks are spaces; "%2500" is "%00" written out; a stray % is kept.
  EXPECT_EQ(decode_query_string("q=a%09b%0Ac%0Dd").query.q, "a\tb\nc\rd");
  EXPECT_EQ(decode_query_string("q=%2500").query.q, "%00");
  EXPECT_EQ(decode_query_string("q=%zz%").query.q, "%zz%");
  EXPECT_EQ(decode_query_string("q=J%C3%BCrgen+%E6%9D%B1%E4%BA%AC").query.q, "Jürgen 東京");
}

// A query with every parameter away from its default, values that need
// escaping included.
WebQuery every_parameter() {
  WebQuery w;
  w.q = "a&b=c \"d\" é+";
  w.page = 2;
  w.n = 50;
  w.sort = "recent";
  w.since = "2026-01";
  w.until = "2026-03";
  w.categories = {"C++", "x&y"};
  w.authors = {"Ana Sánchez"};
  w.feeds = {"pytorch"};
  w.format = OutputFormat::kAtom;
  return w;
}

TEST(CgiRequest, QueryStringRoundTrips) {
  const WebQuery w = every_parameter();
  DecodedRequest d = decode_query_string(to_query_string(w));
  EXPECT_EQ(d.error, "");
  EXPECT_EQ(d.query.q, w.q);
  EXPECT_EQ(d.query.page, w.page);
  EXPECT_EQ(d.query.n, w.n);
  EXPECT_EQ(d.query.sort, w.sort);
  EXPECT_EQ(d.query.since, w.since);
  EXPECT_EQ(d.query.until, w.until);
  EXPECT_EQ(d.query.categories, w.categories);
  EXPECT_EQ(d.query.authors, w.authors);
  EXPECT_EQ(d.query.feeds, w.feeds);
  EXPECT_EQ(d.query.format, w.format);
  EXPECT_EQ(to_query_string(WebQuery{}), "");  // defaults are left out
}

// What Refinements must give, written the plain way: `w` with `value`
// added to the filter of `facet` (a month sets since and until), page 1.
WebQuery refined(const WebQuery& w, FacetKind facet, const std::string& value) {
  WebQuery r = w;
  r.page = 1;
  if (auto* values = r.filter(facet)) {
    if (std::find(values->begin(), values->end(), value) == values->end()) values->push_back(value);
  } else {
    r.since = r.until = value;
  }
  return r;
}

TEST(CgiRequest, RefinementsAreTheRefinedQueryStrings) {
  const WebQuery full = every_parameter();
  WebQuery words_only;
  words_only.q = "kernel";
  for (const WebQuery& w : {full, words_only, WebQuery{}}) {
    for (const char* separator : {"&", "&amp;"}) {
      const Refinements links(w, separator);
      for (const FacetInfo& facet_row : kFacetTable)
        for (const std::string value : {"C++", "x&y", "Ana Sánchez", "pytorch", "new value", "2026-09"}) {
          const FacetKind facet = facet_row.kind;
          const WebQuery r = refined(w, facet, value);
          std::string got = "x";  // appended to what is there
          links.append_query_string(got, facet, value);
          EXPECT_EQ(got, "x" + to_query_string(r, separator)) << facet_row.name << " " << value;
          EXPECT_EQ(r.page, 1u);
        }
    }
  }
  // Adding a value the filter has already leaves it as it is.
  EXPECT_EQ(refined(full, FacetKind::kCategory, "C++").categories, full.categories);
  EXPECT_EQ(refined(full, FacetKind::kFeed, "other").feeds, (std::vector<std::string>{"pytorch", "other"}));
  EXPECT_EQ(refined(full, FacetKind::kMonth, "2026-09").since, "2026-09");
}

TEST(CgiRequest, SearchRequestPagesAndFilters) {
  WebQuery w = decode_query_string("q=x&page=3&n=20&since=2026-09&until=2026-09&sort=date").query;
  SearchRequest r = to_search_request(w, 0);
  EXPECT_EQ(r.offset, 40u);
  EXPECT_EQ(r.limit, 20u);
  EXPECT_EQ(r.sort, SortOrder::kDate);
  ASSERT_TRUE(r.query.filters.since && r.query.filters.until);
  EXPECT_EQ(*r.query.filters.since, *parse_date("2026-09-01", false));
  EXPECT_EQ(*r.query.filters.until, *parse_date("2026-09-30", true));
  EXPECT_THROW(to_search_request(decode_query_string("q=x&since=yesterday").query, 0), QueryError);
}

TEST(CgiRequest, EmptyQueryAsksForEveryPostNewestFirst) {
  SearchRequest r = to_search_request(WebQuery{}, 0);
  EXPECT_TRUE(r.query.text.empty());
  EXPECT_TRUE(r.query.filters.since.has_value());
  EXPECT_EQ(r.sort, SortOrder::kDate);
  EXPECT_TRUE(decode_query_string("q=+++").query.is_empty());
  EXPECT_FALSE(decode_query_string("feed=x").query.is_empty());
}

TEST(CgiRequest, Methods) {
  EXPECT_EQ(parse_method("GET"), Method::kGet);
  EXPECT_EQ(parse_method("HEAD"), Method::kHead);
  EXPECT_EQ(parse_method("POST"), Method::kOther);
  EXPECT_EQ(parse_method("get"), Method::kOther);
}

// ---- formatters -------------------------------------------------------------

const char* const kEvil = "<script>alert(1)</script>\"'><svg onload=alert(2)>";

SearchResult hostile_result() {
  SearchResult r;
  r.query = kEvil;
  r.total = {95, 95, 95};
  r.offset = 20;
  r.limit = 10;
  r.suggestion = "torch <b>compile</b>";
  Hit hit;
  hit.rank = 21;
  PostRecord post;
  post.id = "javascript:alert(3)";
  post.link = "javascript:alert(4)";
  post.title = std::string("Title ") + kEvil;
  post.authors = {"Eve <img src=x onerror=alert(5)>"};
  post.categories = {"C&C \"quoted\"", "torch.compile"};
  post.feed_id = "evil\"feed";
  post.feed_title = "<i>Feed</i>";
  post.published = "2026-09-02T06:15:44Z";
  hit.post = std::make_shared<PostRecord>(post);
  hit.snippet = {{"before <b>bold</b> ", false}, {"compile", true}, {" after", false}};
  r.hits.push_back(hit);
  Hit good = hit;
  good.rank = 22;
  PostRecord good_post = post;
  good_post.id = "https://example.org/p/2";
  good_post.link = "https://example.org/p/2?a=1&b=2";
  good_post.title = "Good post";
  good_post.published = "2026-10-03T00:00:00Z";
  good.post = std::make_shared<PostRecord>(good_post);
  r.hits.push_back(good);
  r.facets = {{FacetKind::kCategory, {{"torch.compile", "torch.compile", 3}, {"c&c", "C&C <x>", 1}}},
              {FacetKind::kAuthor, {{"eve", "Eve", 1}}},
              {FacetKind::kFeed, {{"pytorch", "PyTorch Blog", 2}}},
              {FacetKind::kMonth, {{"2026-10", "2026-10", 1}, {"2026-08", "2026-08", 4}}}};
  return r;
}

PageContext hostile_context() {
  PageContext c;
  c.query = decode_query_string("q=" + url_component(kEvil) + "&page=3&category=" + url_component(kEvil)).query;
  c.notices = {std::string("note ") + kEvil};
  c.self_url = "http://search.example/cgi-bin/blogsearch.cgi";
  return c;
}

// Every '<' in the page starts a tag this formatter writes.
void expect_only_own_markup(const std::string& html) {
  static const std::regex kTag("<(/?)([a-zA-Z0-9!?]+)");
  static const std::set<std::string> kAllowed = {
      "!DOCTYPE", "html", "head", "meta", "title", "link", "style", "body", "a", "header", "div", "form",
      "label", "input", "button", "details", "summary", "select", "option", "ul", "li", "span", "main",
      "h1", "h2", "p", "ol", "article", "time", "mark", "nav", "aside", "section", "svg", "line", "rect",
      "footer", "dl", "dt", "dd", "pre"};
  for (std::sregex_iterator it(html.begin(), html.end(), kTag), end; it != end; ++it)
    EXPECT_TRUE(kAllowed.count((*it)[2].str())) << "unexpected tag <" << (*it)[2] << " in the page";
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<svg onload"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_EQ(html.find("href=\"javascript"), std::string::npos);
}

// ---- output caps: a page is at most kPageBudget whatever the data ---------

// The biggest answer data and a request can make: 100 results whose every
// string is huge and made of characters that escape to six bytes, a
// thousand categories each, facets of long values, and the longest query
// and filters a request may carry, of characters that percent-encode to
// three bytes each.
SearchResult huge_result() {
  const std::string big(1 << 20, '"');
  SearchResult r;
  r.query = big;
  r.total = {100000, 100000, 100000};
  for (unsigned i = 0; i < 100; ++i) {
    auto p = std::make_shared<PostRecord>();
    p->id = "id" + std::to_string(i);
    p->title = big;
    p->link = "https://example.org/" + big;
    p->summary = big;
    p->feed_id = big;
    p->feed_title = big;
    for (int k = 0; k < 1000; ++k) {
      p->categories.push_back(std::to_string(k) + big.substr(0, 300));
      p->authors.push_back(std::to_string(k) + big.substr(0, 300));
    }
    p->published = "2026-10-01T00:00:00Z";
    Hit h;
    h.rank = i + 1;
    h.post = p;
    const std::string part = big.substr(0, 64 << 10);
    h.snippet = {{part, false}, {part, true}, {part, false}};
    r.hits.push_back(h);
  }
  for (const FacetInfo& f : kFacetTable) {
    Facet facet{f.kind, {}};
    for (int k = 0; k < 24; ++k) {
      const std::string v = f.kind == FacetKind::kMonth ? "2026-" + std::string(k % 12 < 9 ? "0" : "") +
                                                              std::to_string(k % 12 + 1)
                                                        : std::to_string(k) + std::string(900, '"');
      facet.values.push_back({v, v + big.substr(0, 5000), 1000u + k});
    }
    r.facets.push_back(facet);
  }
  return r;
}

PageContext huge_context() {
  std::string qs = "n=100&q=";
  for (int i = 0; i < 333; ++i) qs += url_component("\"\xC3\xA9");  // 3 bytes, 9 encoded
  for (const char* name : {"category", "author", "feed"})
    for (int i = 0; i < 20; ++i) qs += std::string("&") + name + "=" + url_component("\"" + std::to_string(i));
  PageContext c;
  const DecodedRequest d = decode_query_string(qs);
  c.query = d.query;
  c.notices = d.notices;
  c.self_url = "http://search.example/cgi-bin/blogsearch.cgi";
  return c;
}

TEST(OutputCaps, EveryPageStaysWithinItsBudget) {
  SearchResult r = huge_result();
  const std::string shared_title = r.hits[0].post->title;
  const std::shared_ptr<const PostRecord> original = r.hits[0].post;
  cap_result(r);
  EXPECT_EQ(original->title, shared_title);  // what a cache shares is not changed
  EXPECT_LE(r.hits[0].post->title.size(), OutputCaps{}.title_bytes + 3);
  EXPECT_EQ(r.hits[0].post->link, "");  // too long to be a link
  const PageContext c = huge_context();
  EXPECT_GE(to_query_string(c.query).size(), 3000u);  // links that repeat the query are long
  std::string html;
  write_html_results(html, r, c);
  EXPECT_LE(html.size(), kPageBudget);
  EXPECT_GT(html.size(), kPageBudget / 2);  // the budget is used, not a blank page
  EXPECT_NE(html.find("results fit on this page"), std::string::npos);
  EXPECT_NE(html.find("</html>"), std::string::npos);  // the page is whole
  expect_only_own_markup(html);
  std::string start;
  write_html_start(start, r, c);
  EXPECT_LE(start.size(), kPageBudget);
  EXPECT_NE(start.find("</html>"), std::string::npos);
  std::string atom;
  write_atom(atom, r, c);
  EXPECT_LE(atom.size(), 2u << 20);
  const std::string json = dump_json(result_to_json(r, JsonOptions{}), false);
  EXPECT_LE(json.size(), 2u << 20);
  // An ordinary page is not cut.
  std::string small;
  write_html_results(small, hostile_result(), hostile_context());
  EXPECT_EQ(small.find("fit on this page"), std::string::npos);
}

TEST(CgiRequest, FilterValuesAreBoundedInAll) {
  std::string qs;
  for (int i = 0; i < 10; ++i) qs += "author=" + std::string(300, 'a' + i) + "&";
  const DecodedRequest d = decode_query_string(qs);
  EXPECT_EQ(d.query.authors.size(), 3u);  // 900 bytes; a fourth would pass 1,000
  EXPECT_EQ(d.notices.size(), 1u);
}

TEST(FormatHtml, EscapesEverythingFromFeedsAndRequest) {
  std::string out;
  write_html_results(out, hostile_result(), hostile_context());
  const std::string html = out;
  expect_only_own_markup(html);
  EXPECT_NE(html.find("Title &lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&gt;&lt;svg"), std::string::npos);
  // The javascript: link is shown as plain text, the good one is a link.
  EXPECT_NE(html.find("<h2>Title &lt;script&gt;"), std::string::npos);
  EXPECT_NE(html.find("<a href=\"https://example.org/p/2?a=1&amp;b=2\">Good post</a>"), std::string::npos);
}

TEST(FormatHtml, CountsOverAThousandHaveSeparators) {
  SearchResult r = hostile_result();
  r.total = {1234567, 1234567, 1234567};
  r.facets = {{FacetKind::kCategory, {{"python", "Python", 12345}}},
              {FacetKind::kMonth, {{"2026-10", "2026-10", 1000}, {"2026-09", "2026-09", 999}, {"20x6-10", "20x6-10", 5}}}};
  PageContext c;
  c.query = decode_query_string("q=compile").query;
  std::string html;
  write_html_results(html, r, c);
  EXPECT_NE(html.find("Results 21–22 of 1,234,567 ("), std::string::npos);
  EXPECT_NE(html.find("aria-label=\"12,345 posts\">12,345</span>"), std::string::npos);
  EXPECT_NE(html.find("<title>2026-10: 1,000 posts</title>"), std::string::npos);
  EXPECT_NE(html.find("<title>2026-09: 999 posts</title>"), std::string::npos);
  // A value that is not a month gets no bar.
  EXPECT_EQ(html.find("<title>20x6"), std::string::npos);
}

TEST(FormatHtml, MarksMatchesAndLinksEverything) {
  std::string out;
  PageContext c;
  c.query = decode_query_string("q=compile&page=3").query;
  write_html_results(out, hostile_result(), c);
  const std::string html = out;
  EXPECT_NE(html.find("before &lt;b&gt;bold&lt;/b&gt; <mark>compile</mark> after"), std::string::npos);
  EXPECT_NE(html.find("<title>“compile” – Blog search</title>"), std::string::npos);
  EXPECT_NE(html.find("<html lang=\"en\">"), std::string::npos);
  EXPECT_NE(html.find("Results 21–22 of 95"), std::string::npos);
  // Paging: 95 results, 10 a page, on page 3.
  EXPECT_NE(html.find("href=\"?q=compile&amp;page=2\" rel=\"prev\""), std::string::npos);
  EXPECT_NE(html.find("href=\"?q=compile&amp;page=4\" rel=\"next\""), std::string::npos);
  EXPECT_NE(html.find("href=\"?q=compile&amp;page=3\" aria-current=\"page\""), std::string::npos);
  EXPECT_NE(html.find("href=\"?q=compile&amp;page=10\""), std::string::npos) << "no link past the last page";
  EXPECT_EQ(html.find("page=11"), std::string::npos);
  // Facets refine the search and go back to page 1.
  EXPECT_NE(html.find("href=\"?q=compile&amp;category=torch.compile\""), std::string::npos);
  EXPECT_NE(html.find("href=\"?q=compile&amp;category=c%26c\""), std::string::npos);
  EXPECT_NE(html.find("href=\"?q=compile&amp;author=eve\""), std::string::npos);
  EXPECT_NE(html.find("href=\"?q=compile&amp;feed=pytorch\""), std::string::npos);
  EXPECT_NE(html.find("href=\"?q=compile&amp;since=2026-08&amp;until=2026-08\""), std::string::npos);
  // Did you mean, as a link.
  EXPECT_NE(html.find("Did you mean <a href=\"?q=torch+%3Cb%3Ecompile%3C%2Fb%3E\">torch &lt;b&gt;compile&lt;/b&gt;</a>"),
            std::string::npos);
  // Landmarks and the histogram: a year of months, bars for the two with posts.
  for (const char* landmark : {"<header", "<main", "<aside", "<nav", "<footer", "role=\"search\"", "<label for=\"q\""})
    EXPECT_NE(html.find(landmark), std::string::npos) << landmark;
  EXPECT_NE(html.find("<svg class=\"hist\""), std::string::npos);
  std::size_t bars = 0;
  for (std::size_t at = 0; (at = html.find("<rect", at)) != std::string::npos; ++at) ++bars;
  EXPECT_EQ(bars, 2u);
  EXPECT_NE(html.find("2026-08: 4 posts"), std::string::npos);
  EXPECT_NE(html.find("rel=\"search\" type=\"application/opensearchdescription+xml\""), std::string::npos);
}

TEST(FormatHtml, ErrorPageShowsMessageFormAndPosition) {
  std::string out;
  PageContext c;
  c.query = decode_query_string("q=pytorch+AND").query;
  write_html_error(out, {400, "'AND' needs a word or phrase on both sides", "pytorch AND", 9, 3}, c);
  const std::string html = out;
  EXPECT_NE(html.find("<form"), std::string::npos);
  EXPECT_NE(html.find("value=\"pytorch AND\""), std::string::npos);
  EXPECT_NE(html.find("&#39;AND&#39; needs a word"), std::string::npos);
  EXPECT_NE(html.find("<pre>pytorch <mark>AND</mark></pre>"), std::string::npos);
  expect_only_own_markup(html);
}

// Parses XML with libxml2 (no network, no entities): nullptr when not well-formed.
std::unique_ptr<xmlDoc, void (*)(xmlDocPtr)> parse_xml(const std::string& text) {
  return {xmlReadMemory(text.data(), static_cast<int>(text.size()), "t.xml", nullptr,
                        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING),
          xmlFreeDoc};
}

TEST(FormatAtom, WellFormedAndEscaped) {
  std::string out;
  write_atom(out, hostile_result(), hostile_context());
  const std::string atom = out;
  ASSERT_TRUE(parse_xml(atom)) << atom;
  EXPECT_EQ(atom.find("<script"), std::string::npos);
  EXPECT_NE(atom.find("<feed xmlns=\"http://www.w3.org/2005/Atom\""), std::string::npos);
  // javascript: ids and links are not used as such.
  EXPECT_EQ(atom.find("<id>javascript"), std::string::npos);
  EXPECT_EQ(atom.find("href=\"javascript"), std::string::npos);
  EXPECT_NE(atom.find("<id>urn:blogsearch:post:"), std::string::npos);
  EXPECT_NE(atom.find("<id>https://example.org/p/2</id>"), std::string::npos);
  EXPECT_NE(atom.find("href=\"https://example.org/p/2?a=1&amp;b=2\""), std::string::npos);
  EXPECT_NE(atom.find("<updated>2026-10-03T00:00:00Z</updated>\n<author><name>Blog search"), std::string::npos)
      << "the feed's updated is its newest entry's";
  EXPECT_NE(atom.find("<link rel=\"self\" type=\"application/atom+xml\" href=\"http://search.example/cgi-bin/"
                      "blogsearch.cgi?q="),
            std::string::npos);
}

TEST(FormatOpenSearch, WellFormedWithTemplates) {
  std::string out;
  PageContext c;
  c.self_url = "https://search.example/s";
  write_opensearch(out, c);
  const std::string xml = out;
  ASSERT_TRUE(parse_xml(xml)) << xml;
  EXPECT_NE(xml.find("template=\"https://search.example/s?q={searchTerms}&amp;page={startPage?}\""),
            std::string::npos);
  EXPECT_NE(xml.find("type=\"application/atom+xml\""), std::string::npos);
  EXPECT_NE(xml.find("<ShortName>Blog search</ShortName>"), std::string::npos);
}

// ---- facet counts (facets.cc reads schema::kSlotFacets of every match; the
// counts must agree with a plain count however many documents match) ------

// A database of the current schema version in a directory of its own,
// removed when the test ends, however it ends.
struct ScratchDatabase {
  explicit ScratchDatabase(const std::string& name)
      : dir(fs::temp_directory_path() / (name + "." + std::to_string(::getpid()))) {
    fs::remove_all(dir);
  }
  ~ScratchDatabase() { fs::remove_all(dir); }
  Xapian::WritableDatabase create() const {
    Xapian::WritableDatabase db(dir.string(), Xapian::DB_CREATE);
    db.set_metadata(schema::kMetaSchemaVersion, std::to_string(schema::kSchemaVersion));
    return db;
  }
  const fs::path dir;
};

TEST(FacetCounts, SameWhetherFewOrManyDocumentsMatch) {
  const ScratchDatabase scratch("cgi_test_facets");
  const fs::path& dir = scratch.dir;
  constexpr int kPosts = 130;
  {
    Xapian::WritableDatabase db = scratch.create();
    for (int i = 0; i < kPosts; ++i) {
      Xapian::Document doc;
      // Words as the writer stores them: plain and stemmed ("Z").
      for (const std::string& w : {std::string("common"), "word" + std::to_string(i),
                                   std::string(i % 2 == 0 ? "even" : "odd")}) {
        doc.add_term(w);
        doc.add_term("Z" + w);
      }
      doc.add_boolean_term(schema::exact_term(schema::kCategory, "cat" + std::to_string(i % 7)));
      doc.add_boolean_term(schema::exact_term(schema::kCategory, "all"));
      doc.add_boolean_term(schema::exact_term(schema::kAuthorExact, "author" + std::to_string(i % 3)));
      doc.add_boolean_term(schema::exact_term(schema::kFeed, "feed" + std::to_string(i % 2)));
      // The M term and the published value hold the same date, as the
      // writer makes them.
      std::tm day{};
      day.tm_year = 2026 - 1900;
      day.tm_mon = i % 12;
      day.tm_mday = 1 + i % 28;
      day.tm_hour = i % 24;
      doc.add_boolean_term(std::string(schema::kMonth) + "2026" + (i % 12 < 9 ? "0" : "") + std::to_string(i % 12 + 1));
      doc.add_value(schema::kSlotPublished, Xapian::sortable_serialise(static_cast<double>(timegm(&day))));
      // Even posts write their categories "Cat<n>", odd ones "CAT<n>".
      doc.add_value(schema::kSlotFacets,
                    schema::facet_value(doc, {"Author" + std::to_string(i % 3)},
                                        {(i % 2 == 0 ? "Cat" : "CAT") + std::to_string(i % 7), "All"}));
      doc.add_value(schema::kSlotRecord, "{\"id\":\"p" + std::to_string(i) + "\"}");
      db.add_document(doc);
    }
    db.commit();
  }
  Searcher searcher(dir.string());
  // A long-running searcher counts from its FacetTable instead: the same.
  SearcherOptions options;
  options.cache_bytes = 1 << 20;
  Searcher cached(dir.string(), options);
  // What each facet should say for the documents whose number passes `in`.
  auto expected = [](const std::function<bool(int)>& in) {
    std::map<std::string, std::map<std::string, Xapian::doccount>> want;
    for (int i = 0; i < kPosts; ++i) {
      if (!in(i)) continue;
      ++want["category"]["cat" + std::to_string(i % 7)];
      ++want["category"]["all"];
      ++want["author"]["author" + std::to_string(i % 3)];
      ++want["feed"]["feed" + std::to_string(i % 2)];
      ++want["month"][std::string("2026-") + (i % 12 < 9 ? "0" : "") + std::to_string(i % 12 + 1)];
    }
    return want;
  };
  const std::pair<std::string, std::function<bool(int)>> cases[] = {
      {"word5", [](int i) { return i == 5; }},
      {"even", [](int i) { return i % 2 == 0; }},
      {"odd", [](int i) { return i % 2 == 1; }},
      {"common", [](int) { return true; }},
  };
  for (const auto& [query, in] : cases) {
    SearchRequest r;
    r.query.text = query;
    r.query.spelling = false;
    r.facets = {FacetKind::kCategory, FacetKind::kAuthor, FacetKind::kFeed, FacetKind::kMonth};
    r.facet_limit = 100;
    r.snippets = false;
    for (Searcher* s : {&searcher, &cached, &cached}) {
      const std::string which = s == &searcher ? " (from the database)" : " (from the FacetTable)";
      SearchResult result = s->search(r);
      std::map<std::string, std::map<std::string, Xapian::doccount>> got;
      for (const auto& f : result.facets)
        for (const auto& v : f.values) got[std::string(facet_name(f.kind))][v.value] = v.count;
      EXPECT_EQ(got, expected(in)) << query << which;
      // Labels are as most of the matching posts wrote them, ties going
      // to the first in byte order ("CAT3" before "Cat3").
      for (const auto& v : result.facets[0].values) {
        std::map<std::string, int> spellings;
        for (int i = 0; i < kPosts; ++i)
          if (in(i) && v.value == "all") ++spellings["All"];
          else if (in(i) && v.value == "cat" + std::to_string(i % 7))
            ++spellings[(i % 2 == 0 ? "Cat" : "CAT") + std::to_string(i % 7)];
        std::string want;
        int most = 0;
        for (const auto& [spelling, n] : spellings)
          if (n > most) {
            most = n;
            want = spelling;
          }
        EXPECT_EQ(v.label, want) << query << which;
      }
    }
  }
}

TEST(FacetCounts, ThousandsOfDistinctValuesFromTheTable) {
  const ScratchDatabase scratch("cgi_test_many_facets");
  const fs::path& dir = scratch.dir;
  constexpr int kPosts = 2500;
  {
    Xapian::WritableDatabase db = scratch.create();
    for (int i = 0; i < kPosts; ++i) {
      Xapian::Document doc;
      doc.add_term("common");
      doc.add_term("Zcommon");
      // Short and long category names, each post its own.
      const std::string category = (i % 2 ? "c" : "a rather long category name ") + std::to_string(i);
      doc.add_boolean_term(schema::exact_term(schema::kCategory, category));
      doc.add_value(schema::kSlotFacets, schema::facet_value(doc, {}, {category}));
      doc.add_value(schema::kSlotRecord, "{\"id\":\"p" + std::to_string(i) + "\"}");
      db.add_document(doc);
    }
    db.commit();
  }
  SearcherOptions options;
  options.cache_bytes = 1 << 20;
  Searcher plain(dir.string()), cached(dir.string(), options);
  SearchRequest r;
  r.query.text = "common";
  r.query.spelling = false;
  r.facets = {FacetKind::kCategory};
  r.facet_limit = kPosts;
  r.snippets = false;
  const SearchResult want = plain.search(r), got = cached.search(r);
  ASSERT_EQ(want.facets.size(), 1u);
  EXPECT_EQ(want.facets[0].values.size(), static_cast<std::size_t>(kPosts));
  ASSERT_EQ(got.facets[0].values.size(), want.facets[0].values.size());
  for (std::size_t i = 0; i < want.facets[0].values.size(); ++i) {
    EXPECT_EQ(got.facets[0].values[i].value, want.facets[0].values[i].value);
    EXPECT_EQ(got.facets[0].values[i].label, want.facets[0].values[i].label);
    EXPECT_EQ(got.facets[0].values[i].count, 1u);
  }
}

// Past the limit, equal counts go to the first value in byte order, and
// months are the newest: the same from the value streams and the table.
TEST(FacetCounts, EqualCountsUnderALimitInByteOrder) {
  const ScratchDatabase scratch("cgi_test_facet_ties");
  {
    Xapian::WritableDatabase db = scratch.create();
    // Categories d, b, c, a: 3 posts each, and e: 4; months 2026-01..2026-06.
    const std::vector<std::string> categories = {"d", "b", "c", "a", "e", "d", "b", "c", "a", "e",
                                                 "d", "b", "c", "a", "e", "e"};
    for (std::size_t i = 0; i < categories.size(); ++i) {
      Xapian::Document doc;
      doc.add_term("common");
      doc.add_term("Zcommon");
      doc.add_boolean_term(schema::exact_term(schema::kCategory, categories[i]));
      doc.add_boolean_term(std::string(schema::kMonth) + "20260" + std::to_string(1 + i % 6));
      doc.add_value(schema::kSlotFacets, schema::facet_value(doc, {}, {categories[i]}));
      doc.add_value(schema::kSlotRecord, "{\"id\":\"p" + std::to_string(i) + "\"}");
      db.add_document(doc);
    }
    db.commit();
  }
  SearcherOptions options;
  options.cache_bytes = 1 << 20;
  Searcher plain(scratch.dir.string()), cached(scratch.dir.string(), options);
  SearchRequest r;
  r.query.text = "common";
  r.query.spelling = false;
  r.facets = {FacetKind::kCategory, FacetKind::kMonth};
  r.facet_limit = 3;
  r.snippets = false;
  for (Searcher* s : {&plain, &cached}) {
    const SearchResult got = s->search(r);
    ASSERT_EQ(got.facets.size(), 2u);
    std::vector<std::string> categories, months;
    for (const auto& v : got.facets[0].values) categories.push_back(v.value + "=" + std::to_string(v.count));
    for (const auto& v : got.facets[1].values) months.push_back(v.value);
    EXPECT_EQ(categories, (std::vector<std::string>{"e=4", "a=3", "b=3"})) << (s == &plain ? "streams" : "table");
    EXPECT_EQ(months, (std::vector<std::string>{"2026-06", "2026-05", "2026-04"})) << (s == &plain ? "streams" : "table");
  }
}

// ---- CgiApp over a real database ---------------------------------------------

class CgiAppTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("cgi_test." + std::to_string(::getpid()) + "." +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    db_ = (dir_ / "db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  void ingest(const std::vector<std::string>& paths) {
    std::vector<std::string> errors;
    auto snapshots = collect_snapshots(paths, "", errors);
    ASSERT_TRUE(errors.empty());
    Writer writer(db_);
    writer.ingest(snapshots);
  }
  static std::string data(const std::string& sub) { return std::string(BLOGSEARCH_SOURCE_DIR) + "/data/" + sub; }

  CgiEnvironment env(const std::string& query_string, const std::string& method = "GET") const {
    CgiEnvironment e;
    e.request_method = method;
    e.query_string = query_string;
    e.script_name = "/search";
    e.http_host = "127.0.0.1:8080";
    e.database = db_;
    return e;
  }
  static std::string header(const Response& r, const std::string& name) {
    for (const auto& [n, v] : r.headers)
      if (n == name) return v;
    return "";
  }

  CgiAppOptions quiet() {
    CgiAppOptions o;
    o.log = [this](const std::string& m) { logged_ += m + "\n"; };
    o.retries = 2;
    o.retry_pause_ms = 1;
    return o;
  }

  fs::path dir_;
  std::string db_;
  std::string logged_;
};

// The answer cache is bounded by bytes as well as by entries.
TEST(ResponseCacheBound, DropsOldestPastItsBytes) {
  DiskState state;
  state.valid = true;
  state.version_inode = 7;
  ResponseCache cache(1000, 60, 64 << 10);  // 64 KiB: answers of 4 KiB at most
  Response r;
  r.headers = {{"Content-Type", "text/html"}};
  r.body.assign(3000, 'x');
  EXPECT_FALSE(cache.find("q=0", state));
  for (int i = 0; i < 100; ++i) cache.put("q=" + std::to_string(i), r, state);
  EXPECT_LE(cache.bytes(), std::size_t{64} << 10);
  EXPECT_GT(cache.size(), 10u);
  EXPECT_LT(cache.size(), 22u);  // 64 KiB of 3 KB answers, not 100 of them
  EXPECT_TRUE(cache.find("q=99", state));  // the newest are kept
  EXPECT_FALSE(cache.find("q=0", state));
  Response big = r;
  big.body.assign(5000, 'y');  // over a sixteenth: not kept
  cache.put("q=big", big, state);
  EXPECT_FALSE(cache.find("q=big", state));
}

// Searchers share one cache: an answer made from a revision that another
// request has since seen replaced is not kept for the new one.
TEST(ResponseCacheShared, KeepsNoAnswerOfAnOlderState) {
  DiskState old_state, new_state;
  old_state.valid = new_state.valid = true;
  old_state.version_inode = 7;
  new_state.version_inode = 8;
  ResponseCache cache(16, 60);
  Response r;
  r.body = "old";
  EXPECT_FALSE(cache.find("q=a", old_state));  // request A: a miss, searches revision 7
  EXPECT_FALSE(cache.find("q=b", new_state));  // request B sees revision 8: the cache is emptied
  cache.put("q=a", r, old_state);              // A's answer comes back late
  EXPECT_FALSE(cache.find("q=a", new_state));
  r.body = "new";
  cache.put("q=a", r, new_state);
  auto hit = cache.find("q=a", new_state);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->body, "new");
}

// Many threads looking up and adding at once keep the cache within its
// bounds and consistent (run under the thread sanitizer by tools/test
// --sanitize).
TEST(ResponseCacheShared, ManyThreadsAtOnce) {
  DiskState state;
  state.valid = true;
  state.version_inode = 1;
  ResponseCache cache(50, 60, 1 << 20);
  cache.find("q=first", state);  // takes the state
  std::vector<std::thread> threads;
  std::atomic<int> hits{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      Response r;
      r.body.assign(100 + t, 'x');
      for (int i = 0; i < 2000; ++i) {
        const std::string key = "q=" + std::to_string(i % 40);  // fewer than it keeps: hits
        if (auto hit = cache.find(key, state)) {
          EXPECT_GE(hit->body.size(), 100u);
          ++hits;
        } else {
          cache.put(key, r, state);
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_LE(cache.size(), 50u);
  EXPECT_GT(hits.load(), 0);
}

// A stub over two local shards: the watcher stats each shard's version
// file, so it keeps its Searcher until one of them commits.
TEST_F(CgiAppTest, WatcherFollowsLocalShardsOfAStub) {
  const std::string front = (dir_ / "front").string();
  {
    std::vector<std::string> errors;
    Writer(front + "-s0").ingest(collect_snapshots({data("pytorch")}, "", errors));
    Writer(front + "-s1").ingest(collect_snapshots({data("kernel-digest")}, "", errors));
    ASSERT_TRUE(errors.empty());
  }
  fs::create_directories(front);
  std::ofstream(front + "/XAPIANDB") << "auto ../front-s0\nauto " << front << "-s1\n";
  DatabaseWatcher watcher(0, std::chrono::hours(1));
  const DiskState before = watcher.state(front);
  EXPECT_TRUE(before.valid);
  for (int i = 0; i < 5; ++i) watcher.searcher(front);
  EXPECT_EQ(watcher.opens(), 1);  // not once per request
  EXPECT_EQ(watcher.state(front), before);
  {
    std::vector<std::string> errors;
    Writer(front + "-s1").ingest(collect_snapshots({data("tensor-notes")}, "", errors));
  }
  EXPECT_NE(watcher.state(front), before);  // a shard committed
  watcher.searcher(front);
  watcher.searcher(front);
  EXPECT_EQ(watcher.opens(), 2);
}

// A shard served by xapian-tcpsrv cannot be stat'ed: the state stays the
// same for the recheck period, and changes after it or after a failure.
TEST_F(CgiAppTest, WatcherRechecksRemoteShardsAfterAPeriod) {
  const std::string front = (dir_ / "front").string();
  fs::create_directories(front);
  std::ofstream(front + "/XAPIANDB") << "# two shards\nremote :127.0.0.1:1\nremote :127.0.0.1:2\n";
  DatabaseWatcher slow(0, std::chrono::hours(1));
  const DiskState first = slow.state(front);
  EXPECT_TRUE(first.valid);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(slow.state(front), first);
  slow.forget();  // a failed request
  EXPECT_NE(slow.state(front), first);

  DatabaseWatcher quick(0, std::chrono::milliseconds(30));
  const DiskState a = quick.state(front);
  EXPECT_EQ(quick.state(front), a);
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  EXPECT_NE(quick.state(front), a);
  // The searcher of an unreachable shard fails as before, and is tried
  // again at the next request.
  EXPECT_THROW(quick.searcher(front), DatabaseUnavailable);
  EXPECT_THROW(quick.searcher(front), DatabaseUnavailable);
}

TEST_F(CgiAppTest, BusyAnswerIs503WithRetryAfter) {
  const Response html = busy_response(env("q=compile"));
  EXPECT_EQ(html.status, 503);
  EXPECT_EQ(header(html, "Retry-After"), "1");
  EXPECT_EQ(header(html, "Cache-Control"), "no-store");
  EXPECT_NE(html.body.find("busy"), std::string::npos);
  const Response json = busy_response(env("q=compile&format=json"));
  EXPECT_EQ(json.status, 503);
  EXPECT_EQ(header(json, "Retry-After"), "1");
  EXPECT_EQ(nlohmann::json::parse(json.body)["status"], 503);
}

TEST_F(CgiAppTest, JsonIsTheCliModel) {
  ingest({data("")});
  CgiApp app(quiet());
  Response r = app.handle(env("q=compile&format=json&n=3"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(header(r, "Content-Type"), "application/json");
  auto got = nlohmann::json::parse(r.body);

  SearchRequest req;
  req.query.text = "compile";
  req.limit = 3;
  req.facets = {FacetKind::kCategory, FacetKind::kAuthor, FacetKind::kFeed, FacetKind::kMonth};
  req.facet_limit = 24;
  Searcher searcher(db_);
  auto want = result_to_json(searcher.search(req), JsonOptions{false, false, false});
  got.erase("elapsed_ms");
  want.erase("elapsed_ms");
  EXPECT_EQ(got, want);
  EXPECT_EQ(got["results"].size(), 3u);
}

// The CgiApps of a FastCGI process (one per searcher) share the answer
// cache and the per-post tables of a revision: made once per revision, not
// once per searcher, and the answers are those of an app on its own.
TEST_F(CgiAppTest, SearchersShareOneRevisionsTables) {
  ingest({data("pytorch")});
  CgiAppOptions o = quiet();
  o.searcher_cache_bytes = 1 << 20;
  o.shared_tables = std::make_shared<RevisionTables>();
  CgiApp a(o), b(o);
  CgiAppOptions alone_options = quiet();
  alone_options.searcher_cache_bytes = 1 << 20;
  CgiApp alone(alone_options);
  auto answer = [&](CgiApp& app, const std::string& qs) {
    Response r = app.handle(env(qs));
    EXPECT_EQ(r.status, 200) << qs << ": " << r.body;
    auto j = nlohmann::json::parse(r.body);
    j.erase("elapsed_ms");
    return j;
  };
  for (const std::string qs : {"q=compile&format=json", "q=torch&sort=date&format=json", "format=json"}) {
    const auto want = answer(alone, qs);
    EXPECT_EQ(answer(a, qs), want) << qs;
    EXPECT_EQ(answer(b, qs), want) << qs;
  }
  EXPECT_EQ(o.shared_tables->made(), 2);  // the sort keys and the facet table, once for both
  ingest({data("kernel-digest")});        // a commit: a new revision
  const auto want = answer(alone, "q=kernel&format=json");
  EXPECT_EQ(answer(a, "q=kernel&format=json"), want);
  EXPECT_EQ(answer(b, "q=kernel&format=json"), want);
  EXPECT_EQ(o.shared_tables->made(), 4);
}

// Four searchers answering at once over one shared cache and one set of
// tables give each request the answer one app alone gives (meant for the
// thread sanitizer too: nothing Xapian keeps is shared between them).
TEST_F(CgiAppTest, SearchersAnswerAtOnce) {
  ingest({data("")});
  const std::vector<std::string> queries = {"q=compile&format=json", "q=torch+OR+kernel&sort=date&format=json",
                                            "format=json", "q=-torch&format=json", "q=comp*&format=json&page=2"};
  std::map<std::string, nlohmann::json> want;
  {
    // A long-running searcher too, with tables of its own: over several
    // shards a searcher without them counts facets through Xapian's
    // ValueCountMatchSpy, whose labels may differ in case (facets.h).
    CgiAppOptions a = quiet();
    a.searcher_cache_bytes = 1 << 20;
    CgiApp alone(a);
    for (const auto& qs : queries) {
      Response r = alone.handle(env(qs));
      ASSERT_EQ(r.status, 200) << qs;
      want[qs] = nlohmann::json::parse(r.body);
      want[qs].erase("elapsed_ms");
    }
  }
  CgiAppOptions o = quiet();
  o.searcher_cache_bytes = 1 << 20;
  o.cache_entries = 3;  // fewer than the queries: answers come and go
  o.shared_cache = std::make_shared<ResponseCache>(o.cache_entries, 60);
  o.shared_tables = std::make_shared<RevisionTables>();
  std::vector<std::unique_ptr<CgiApp>> apps;
  for (int i = 0; i < 4; ++i) apps.push_back(std::make_unique<CgiApp>(o));
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 40; ++i) {
        const std::string& qs = queries[(i + t) % queries.size()];
        Response r = apps[t]->handle(env(qs));
        if (r.status != 200) {
          ++wrong;
          continue;
        }
        auto j = nlohmann::json::parse(r.body);
        j.erase("elapsed_ms");
        if (j != want[qs]) ++wrong;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(o.shared_tables->made(), 2);
}

// Issue 16, point 10: a post from before 1970 gets a month bar, and the
// link the page gives for that month searches it (it answered 400).
TEST_F(CgiAppTest, MonthLinksBefore1970Search) {
  fs::create_directories(dir_ / "in" / "old-news");
  {
    std::ofstream feed(dir_ / "in" / "old-news" / "2026-10-01T000000Z.xml");
    feed << "<rss version=\"2.0\"><channel><title>Old news</title><link>https://old.example.org/</link>"
            "<item><title>Moon landing</title><link>https://old.example.org/moon</link>"
            "<pubDate>Sun, 20 Jul 1969 20:17:40 GMT</pubDate><description>Tranquility base here.</description></item>"
            "<item><title>Moon again</title><link>https://old.example.org/apollo12</link>"
            "<pubDate>Wed, 19 Nov 1969 06:54:35 GMT</pubDate><description>Ocean of storms.</description></item>"
            "</channel></rss>\n";
  }
  ingest({(dir_ / "in").string()});
  CgiApp app(quiet());
  const Response page = app.handle(env("q=moon"));
  ASSERT_EQ(page.status, 200) << page.body;
  const std::string link = "href=\"?q=moon&amp;since=1969-07&amp;until=1969-07\"";
  ASSERT_NE(page.body.find(link), std::string::npos) << "no link for July 1969";
  const Response month = app.handle(env("q=moon&since=1969-07&until=1969-07&format=json"));
  ASSERT_EQ(month.status, 200) << month.body;
  const auto j = nlohmann::json::parse(month.body);
  ASSERT_EQ(j["results"].size(), 1u);
  EXPECT_EQ(j["results"][0]["title"], "Moon landing");
  EXPECT_EQ(app.handle(env("q=moon+date:1969-11")).status, 200);
}

// Issue 15, point 12: results carry no history unless asked (history=1).
TEST_F(CgiAppTest, JsonHasHistoryOnlyWhenAsked) {
  ingest({data("")});
  CgiApp app(quiet());
  const auto plain = nlohmann::json::parse(app.handle(env("format=json&n=100")).body);
  const auto with = nlohmann::json::parse(app.handle(env("format=json&n=100&history=1")).body);
  ASSERT_FALSE(plain["results"].empty());
  ASSERT_EQ(plain["results"].size(), with["results"].size());
  std::size_t versions = 0;
  for (std::size_t i = 0; i < plain["results"].size(); ++i) {
    EXPECT_FALSE(plain["results"][i].contains("history"));
    const auto& history = with["results"][i]["history"];
    ASSERT_TRUE(history.is_array());
    // One entry per version, numbered from 1, oldest first.
    ASSERT_EQ(history.size(), with["results"][i]["versions"].get<std::size_t>());
    for (std::size_t n = 0; n < history.size(); ++n) EXPECT_EQ(history[n]["number"], n + 1);
    versions += history.size();
  }
  EXPECT_GT(versions, with["results"].size());  // data/ has edited posts
  EXPECT_EQ(app.handle(env("format=json&history=yes")).status, 400);
}

// The web's JSON names no file of the server: the CLI's "snapshot" (the
// archived file a post or version was read from) is left out.
TEST_F(CgiAppTest, JsonShowsNoPaths) {
  ingest({data("")});
  CgiApp app(quiet());
  for (const char* qs : {"q=kernels&format=json", "q=kernels&format=json&history=1", "format=json&n=100&history=1"}) {
    const Response r = app.handle(env(qs));
    ASSERT_EQ(r.status, 200) << qs;
    EXPECT_EQ(r.body.find(BLOGSEARCH_SOURCE_DIR), std::string::npos) << qs;  // where data/ was read from
    const auto j = nlohmann::json::parse(r.body);
    ASSERT_FALSE(j["results"].empty()) << qs;
    for (const auto& result : j["results"]) {
      EXPECT_FALSE(result.contains("snapshot")) << qs;
      EXPECT_TRUE(result.contains("content_hash")) << "the rest of the model is kept";
      for (const auto& version : result.value("history", nlohmann::json::array()))
        EXPECT_FALSE(version.contains("snapshot")) << qs;
    }
  }
  // The CLI's model keeps it.
  Searcher searcher(db_);
  SearchRequest req;
  req.query.text = "kernels";
  req.with_history = true;
  const auto cli = result_to_json(searcher.search(req), JsonOptions{false, true});
  ASSERT_FALSE(cli["results"].empty());
  EXPECT_TRUE(cli["results"][0].contains("snapshot"));
  EXPECT_TRUE(cli["results"][0]["history"][0].contains("snapshot"));
}

// Past the last page the page before is as empty: the page says where the
// results end and links that page, not page - 1 (page=3 of one page linked
// page 2; page=999999, clamped to 1000, linked page 999).
TEST_F(CgiAppTest, WordsNoPostHasAllShowPostsWithSomeAndSaySo) {
  ingest({data("pytorch")});
  CgiApp app(quiet());
  const Response page = app.handle(env("q=how+do+i+find+memory+leaks+in+a+teapot"));
  ASSERT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("No post has all the words: these have some of them, the most first."), std::string::npos)
      << page.body;
  EXPECT_NE(page.body.find("Finding Memory Leaks"), std::string::npos);
  const Response json = app.handle(env("q=how+do+i+find+memory+leaks+in+a+teapot&format=json"));
  EXPECT_NE(json.body.find("\"any_word\":true"), std::string::npos);
  const Response all = app.handle(env("q=memory+leaks"));
  EXPECT_EQ(all.body.find("No post has all the words"), std::string::npos);
}

TEST_F(CgiAppTest, PastTheLastPageLinksTheLastPage) {
  ingest({data("pytorch")});  // 8 posts: one page of 10, two of 5
  CgiApp app(quiet());
  const Response three = app.handle(env("feed=pytorch&page=3"));
  ASSERT_EQ(three.status, 200);
  EXPECT_NE(three.body.find("No results on page 3: the last page of results is page 1."), std::string::npos)
      << three.body;
  EXPECT_NE(three.body.find("<a href=\"?feed=pytorch\" rel=\"prev\">← Last page (1)</a>"), std::string::npos);
  EXPECT_EQ(three.body.find("page=2"), std::string::npos);
  const Response far = app.handle(env("feed=pytorch&n=5&page=999999"));
  ASSERT_EQ(far.status, 200);
  EXPECT_NE(far.body.find("Only the first 1000 pages can be shown."), std::string::npos);
  EXPECT_NE(far.body.find("No results on page 1000: the last page of results is page 2."), std::string::npos);
  EXPECT_NE(far.body.find("<a href=\"?feed=pytorch&amp;n=5&amp;page=2\" rel=\"prev\">← Last page (2)</a>"),
            std::string::npos);
  EXPECT_EQ(far.body.find("page=999"), std::string::npos);
  // On the last page itself, as before; a search with no match links nothing.
  const Response last = app.handle(env("feed=pytorch&n=5&page=2"));
  EXPECT_NE(last.body.find("<a href=\"?feed=pytorch&amp;n=5\" rel=\"prev\">← Previous</a>"), std::string::npos);
  const Response none = app.handle(env("q=zzzzqqq&page=3"));
  EXPECT_NE(none.body.find("No posts match."), std::string::npos);
  EXPECT_EQ(none.body.find("rel=\"prev\""), std::string::npos);
}

// A value the decoder refuses (a NUL: q=%00kernel showed the start page)
// is a 400 with its one-line reason, in the format asked.
TEST_F(CgiAppTest, ControlCharactersAre400) {
  ingest({data("")});
  CgiApp app(quiet());
  const Response q = app.handle(env("q=%00kernel"));
  EXPECT_EQ(q.status, 400);
  EXPECT_NE(q.body.find("Cannot search: q holds a control character."), std::string::npos) << q.body;
  const Response post = app.handle(env("post=%00"));
  EXPECT_EQ(post.status, 400);
  EXPECT_NE(post.body.find("Cannot show this post: post holds a control character."), std::string::npos);
  EXPECT_NE(post.body.find("This page cannot be shown"), std::string::npos) << post.body;
  EXPECT_EQ(post.body.find("This search cannot be run"), std::string::npos);
  EXPECT_NE(q.body.find("This search cannot be run"), std::string::npos);
  const Response utf8 = app.handle(env("q=%C3%28"));
  EXPECT_EQ(utf8.status, 400);
  EXPECT_NE(utf8.body.find("Cannot search: q is not valid UTF-8 text."), std::string::npos);
  const Response json = app.handle(env("q=%00kernel&format=json"));
  EXPECT_EQ(json.status, 400);
  EXPECT_EQ(json.body, "{\"error\":\"Cannot search: q holds a control character.\",\"status\":400}\n");
}

TEST_F(CgiAppTest, StatusesAndHeaders) {
  ingest({data("")});
  CgiApp app(quiet());
  for (const char* qs : {"q=compile", "", "q=compile&format=atom", "format=opensearch", "q=(compile"}) {
    Response r = app.handle(env(qs));
    EXPECT_EQ(header(r, "Content-Security-Policy"), kContentSecurityPolicy) << qs;
    EXPECT_EQ(header(r, "X-Content-Type-Options"), "nosniff") << qs;
    EXPECT_EQ(header(r, "Referrer-Policy"), "no-referrer") << qs;
  }
  EXPECT_EQ(app.handle(env("q=compile")).status, 200);
  EXPECT_EQ(header(app.handle(env("q=compile&format=atom")), "Content-Type"), "application/atom+xml; charset=utf-8");
  Response post = app.handle(env("q=compile", "POST"));
  EXPECT_EQ(post.status, 405);
  EXPECT_EQ(header(post, "Allow"), "GET, HEAD");
  Response syntax = app.handle(env("q=pytorch+AND"));
  EXPECT_EQ(syntax.status, 400);
  EXPECT_NE(syntax.body.find("<form"), std::string::npos);
  EXPECT_NE(syntax.body.find("needs a word or phrase"), std::string::npos);
  EXPECT_EQ(app.handle(env("q=x&since=soon")).status, 400);
  EXPECT_EQ(app.handle(env("page=x")).status, 400);
  Response json_error = app.handle(env("q=pytorch+AND&format=json"));
  EXPECT_EQ(json_error.status, 400);
  EXPECT_TRUE(nlohmann::json::parse(json_error.body).contains("error"));
}

TEST_F(CgiAppTest, StyleSheetIsLinkedAndKept) {
  ingest({data("")});
  CgiApp app(quiet());
  // Every page links the sheet with its hash, and carries no inline style
  // (the CSP would block it).
  for (const char* qs : {"q=compile", "", "q=pytorch+AND"}) {
    const std::string body = app.handle(env(qs)).body;
    EXPECT_NE(body.find("<link rel=\"stylesheet\" href=\"?format=css&amp;v=" + style_version() + "\">"),
              std::string::npos)
        << qs;
    EXPECT_EQ(body.find("<style"), std::string::npos) << qs;
    EXPECT_EQ(body.find("style="), std::string::npos) << qs;
  }
  EXPECT_NE(std::string(kContentSecurityPolicy).find("style-src 'self';"), std::string::npos);
  // The sheet itself needs no database, and is kept a year.
  CgiEnvironment e = env("format=css&v=" + style_version());
  e.database.clear();
  Response css = app.handle(e);
  EXPECT_EQ(css.status, 200);
  EXPECT_EQ(header(css, "Content-Type"), "text/css; charset=utf-8");
  EXPECT_EQ(header(css, "Cache-Control"), "public, max-age=31536000, immutable");
  EXPECT_EQ(css.body, std::string(page_style()));
  // Only under its own hash: another v, or none, is kept as long as a page.
  for (const char* qs : {"format=css&v=abc", "format=css", "format=css&v="}) {
    const Response other = app.handle(env(qs));
    EXPECT_EQ(other.status, 200) << qs;
    EXPECT_EQ(header(other, "Cache-Control"), "max-age=60") << qs;
    EXPECT_EQ(other.body, css.body) << qs;
  }
  EXPECT_NE(css.body.find("prefers-color-scheme:dark"), std::string::npos);
  EXPECT_EQ(style_version().size(), 16u);
}

TEST_F(CgiAppTest, HeadHasHeadersButNoBody) {
  ingest({data("")});
  CgiApp app(quiet());
  Response r = app.handle(env("q=compile", "HEAD"));
  std::string head = serialize(r, true), get = serialize(r, false);
  EXPECT_EQ(head.rfind("Status: 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n", 0), 0u);
  EXPECT_EQ(head.substr(head.size() - 4), "\r\n\r\n");
  EXPECT_EQ(get, head + r.body);
  EXPECT_EQ(serialize_headers(r), head);
}

TEST_F(CgiAppTest, MissingDatabaseIs503WithoutPath) {
  CgiApp app(quiet());
  CgiEnvironment e = env("q=compile");
  e.database = (dir_ / "secret-location").string();
  Response r = app.handle(e);
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(header(r, "Retry-After"), "30");
  EXPECT_EQ(r.body.find("secret-location"), std::string::npos);
  EXPECT_NE(logged_.find("secret-location"), std::string::npos) << "the path goes to the log";
  e.database.clear();
  EXPECT_EQ(app.handle(e).status, 503);
}

// Another schema version is answered at once: retrying (here with a pause
// of 20 s) cannot make it readable.
TEST_F(CgiAppTest, OtherSchemaVersionIs503WithoutRetrying) {
  fs::create_directories(dir_);
  {
    Xapian::WritableDatabase db(db_, Xapian::DB_CREATE_OR_OPEN);
    db.set_metadata(schema::kMetaSchemaVersion, "999");
    db.commit();
  }
  CgiAppOptions options = quiet();
  options.retry_pause_ms = 20000;
  CgiApp app(options);
  const auto start = std::chrono::steady_clock::now();
  Response r = app.handle(env("q=compile"));
  EXPECT_EQ(r.status, 503);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(r.body.find(db_), std::string::npos);
  EXPECT_NE(logged_.find("schema version 999"), std::string::npos);
}

TEST_F(CgiAppTest, StartPageShowsWhatIsIndexed) {
  ingest({data("")});
  CgiApp app(quiet());
  Response r = app.handle(env(""));
  ASSERT_EQ(r.status, 200);
  EXPECT_NE(r.body.find("Search 14 posts from 3 feeds"), std::string::npos);
  EXPECT_NE(r.body.find("Newest posts"), std::string::npos);
  EXPECT_NE(r.body.find("href=\"?feed=pytorch\""), std::string::npos);
}

TEST_F(CgiAppTest, SeesCommitsWithoutRestart) {
  ingest({data("pytorch/2026-09-02T061544Z.xml")});
  // As FastCGI runs it: the searcher keeps records, texts and facet terms.
  CgiAppOptions options = quiet();
  options.searcher_cache_bytes = 1 << 20;
  CgiApp app(options);
  auto count = [&] {
    auto j = nlohmann::json::parse(app.handle(env("feed=pytorch&format=json")).body);
    return j["total"]["estimated"].get<int>();
  };
  auto facet_count = [&] {
    auto j = nlohmann::json::parse(app.handle(env("q=pytorch&format=json")).body);
    return j["facets"]["feed"][0]["count"].get<int>();
  };
  auto checkpointing = [&] {
    auto j = nlohmann::json::parse(app.handle(env("q=checkpointing&format=json")).body);
    return j["results"].empty() ? std::string() : j["results"][0]["title"].get<std::string>();
  };
  EXPECT_EQ(count(), 5);
  const int facet_before = facet_count();
  EXPECT_GT(facet_before, 0);
  EXPECT_EQ(checkpointing(), "Distributed Checkpointing in Practice");
  ingest({data("pytorch")});
  EXPECT_EQ(count(), 8);
  EXPECT_GT(facet_count(), facet_before) << "the facet terms are read again after a commit";
  EXPECT_EQ(checkpointing(), "Distributed Checkpointing in Practice: Asynchronous Saves")
      << "a post edited by the commit is read again";
}

TEST_F(CgiAppTest, SurvivesRebuildBetweenRequests) {
  ingest({data("")});
  CgiApp app(quiet());
  ASSERT_EQ(app.handle(env("q=compile")).status, 200);
  std::vector<std::string> errors;
  // The second rebuild holds only the pytorch feed: the app must answer
  // from the new generation, not from the deleted one it had open.
  for (const auto& [archive, posts] : {std::pair{data(""), 14}, std::pair{data("pytorch"), 8}}) {
    rebuild_database(db_, collect_snapshots({archive}, "", errors));
    Response r = app.handle(env("format=json"));
    ASSERT_EQ(r.status, 200) << r.body << logged_;
    EXPECT_EQ(nlohmann::json::parse(r.body)["total"]["estimated"].get<int>(), posts) << archive;
  }
}

TEST_F(CgiAppTest, CacheServesRepeatsUntilTheDatabaseChanges) {
  ingest({data("pytorch/2026-09-02T061544Z.xml")});
  CgiAppOptions options = quiet();
  options.cache_entries = 2;
  CgiApp app(options);
  auto total = [](const Response& r) { return nlohmann::json::parse(r.body)["total"]["estimated"].get<int>(); };
  Response first = app.handle(env("feed=pytorch&format=json"));
  Response again = app.handle(env("feed=pytorch&format=json"));
  EXPECT_EQ(again.body, first.body) << "a repeat is served from the cache (same elapsed_ms)";
  // Another host gets links of its own, so its own entry.
  CgiEnvironment other = env("feed=pytorch&format=json");
  other.http_host = "example.org";
  EXPECT_NE(app.handle(other).body, first.body);
  // A commit empties the cache.
  ingest({data("pytorch")});
  EXPECT_EQ(total(first), 5);
  EXPECT_EQ(total(app.handle(env("feed=pytorch&format=json"))), 8);
  // Errors are not kept, and the oldest entry makes room (LRU of 2).
  EXPECT_EQ(app.handle(env("q=pytorch+AND")).status, 400);
  const Response a = app.handle(env("q=compile&format=json"));
  app.handle(env("q=memory&format=json"));
  app.handle(env("q=helion&format=json"));
  EXPECT_NE(app.handle(env("q=compile&format=json")).body, a.body) << "evicted entries are searched again";
}

}  // namespace
}  // namespace blogsearch::web
