// Tests of the CGI's post page (post=ID: format_post.cc, post_page.cc) and
// of what links to it (the results' "archived copy", Atom entries), over
// databases the real indexer builds: from data/ (9000004 edited once,
// 9000001 dropped out) and from feeds written here (many versions, a huge
// text, text full of characters that escaping makes longer).
#include <gtest/gtest.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "indexer/date.h"
#include "indexer/schema.h"
#include "indexer/snapshot.h"
#include "indexer/writer.h"
#include "query/searcher.h"
#include "query/text_diff.h"
#include "web/cgi_app.h"
#include "web/escape.h"
#include "web/format_web.h"

namespace blogsearch::web {
namespace {

namespace fs = std::filesystem;

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = 0; (at = text.find(what, at)) != std::string::npos; at += what.size()) ++n;
  return n;
}

// The part of `html` from `start` to `end` (both searched; "" when missing).
std::string between(const std::string& html, const std::string& start, const std::string& end) {
  const std::size_t a = html.find(start);
  if (a == std::string::npos) return "";
  const std::size_t b = html.find(end, a + start.size());
  return html.substr(a, b == std::string::npos ? std::string::npos : b - a);
}

class PostPageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("post_page_test." + std::to_string(::getpid()) + "." +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    db_ = (dir_ / "db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  void ingest(const std::vector<std::string>& paths) {
    std::vector<std::string> errors;
    auto snapshots = collect_snapshots(paths, "", errors);
    ASSERT_TRUE(errors.empty()) << errors.front();
    Writer writer(db_);
    writer.ingest(snapshots);
  }
  void ingest_data() { ingest({std::string(BLOGSEARCH_SOURCE_DIR) + "/data/"}); }

  // Writes feeds/FEED/<UTC>.xml, `hours` after 2026-09-02T00:00Z.
  std::string snapshot(const std::string& feed, int hours, const std::string& body) {
    std::string t = format_rfc3339(*parse_date("2026-09-02T00:00:00Z") + hours * 3600);
    t.erase(std::remove(t.begin() + 10, t.end(), ':'), t.end());
    const fs::path d = dir_ / "feeds" / feed;
    fs::create_directories(d);
    const fs::path p = d / (t + ".xml");
    std::ofstream(p) << body;
    return p.string();
  }
  static std::string rss(const std::string& guid, const std::string& title, const std::string& html) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\" "
           "xmlns:content=\"http://purl.org/rss/1.0/modules/content/\"><channel><title>Big Blog</title>"
           "<link>https://big.example.org/</link><item><guid isPermaLink=\"false\">" +
           guid + "</guid><title>" + title +
           "</title><pubDate>Tue, 01 Sep 2026 10:00:00 +0000</pubDate><link>https://big.example.org/" + guid +
           "</link><content:encoded><![CDATA[" + html + "]]></content:encoded></item></channel></rss>\n";
  }

  Response get(const std::string& query_string) {
    CgiEnvironment e;
    e.request_method = "GET";
    e.query_string = query_string;
    e.script_name = "/search";
    e.http_host = "127.0.0.1:8080";
    e.database = db_;
    CgiAppOptions o;
    o.log = [this](const std::string& m) { logged_ += m + "\n"; };
    o.retries = 1;
    o.retry_pause_ms = 1;
    CgiApp app(o);
    return app.handle(e);
  }

  // The id of the post the search `q` finds first.
  std::string id_of(const std::string& q) {
    Searcher s(db_);
    SearchRequest r;
    r.query.text = q;
    r.limit = 1;
    const SearchResult found = s.search(r);
    return found.hits.empty() ? "" : found.hits[0].post->id;
  }
  PostRecord record_of(const std::string& id) {
    Searcher s(db_);
    PostPageRequest r;
    r.post = id;
    r.related = 0;
    auto page = s.post_page(r);
    return page ? page->post : PostRecord{};
  }

  fs::path dir_;
  std::string db_;
  std::string logged_;
};

// The page finds a post by its link as people type it, like `blogsearch
// show`: the other scheme, "www.", a trailing slash, a fragment.
TEST_F(PostPageTest, FindsThePostByItsLinkAsTyped) {
  ingest({snapshot("big", 0, rss("p-1", "Typed links", "<p>Some text about links.</p>"))});
  const PostRecord post = record_of("p-1");
  ASSERT_EQ(post.link, "https://big.example.org/p-1");
  for (const std::string typed : {"https://big.example.org/p-1", "http://big.example.org/p-1",
                                   "https://www.big.example.org/p-1/", "https://BIG.example.org/p-1#comments"}) {
    const Response r = get("post=" + url_component(typed));
    EXPECT_EQ(r.status, 200) << typed;
    EXPECT_NE(r.body.find("<h1>Typed links</h1>"), std::string::npos) << typed;
  }
  EXPECT_EQ(get("post=" + url_component("https://big.example.org/p-2")).status, 404);
  EXPECT_EQ(get("post=" + url_component("https://other.example.org/p-1")).status, 404);
}

TEST_F(PostPageTest, ShowsFactsTextVersionsAndRelatedPosts) {
  ingest_data();
  const std::string id = id_of("checkpointing");
  ASSERT_FALSE(id.empty());
  const PostRecord post = record_of(id);
  ASSERT_EQ(post.versions, 2);
  const Response r = get("post=" + url_component(id));
  ASSERT_EQ(r.status, 200) << r.body;
  const std::string& html = r.body;
  EXPECT_NE(html.find("<h1>" + escape_markup(post.title) + "</h1>"), std::string::npos);
  EXPECT_NE(html.find("<title>" + escape_markup(post.title).substr(0, 20)), std::string::npos);
  EXPECT_NE(html.find("Yes: the feed still carries it"), std::string::npos);
  for (const auto& a : post.authors) EXPECT_NE(html.find(escape_markup(a)), std::string::npos) << a;
  EXPECT_NE(html.find("href=\"?feed=pytorch\""), std::string::npos);
  EXPECT_NE(html.find("<dt>First seen</dt><dd><time datetime=\"" + post.first_seen + "\">"), std::string::npos);
  EXPECT_NE(html.find("<dt>Last seen</dt><dd><time datetime=\"" + post.last_seen + "\">"), std::string::npos);
  // The stored text, whole (it is short), without marks: no search led here.
  const std::string text = between(html, "<p class=\"body\">", "</p>");
  EXPECT_NE(text.find(escape_markup(post.text.substr(0, 60))), std::string::npos) << text;
  EXPECT_EQ(html.find("<mark>"), std::string::npos);
  // The timeline, newest first: each version's text, the newest's changes.
  const std::string timeline = between(html, "<section class=\"versions\"", "</section>");
  EXPECT_NE(timeline.find("2 versions"), std::string::npos);
  const std::string p = "?post=" + url_component(id);
  EXPECT_NE(timeline.find("href=\"" + p + "&amp;version=1\">Version 1</a>"), std::string::npos) << timeline;
  EXPECT_NE(timeline.find("href=\"" + p + "&amp;version=2\">Version 2</a>"), std::string::npos);
  EXPECT_NE(timeline.find("href=\"" + p + "&amp;diff=1-2\">changes from version 1</a>"), std::string::npos);
  EXPECT_LT(timeline.find("Version 2"), timeline.find("Version 1"));
  EXPECT_NE(timeline.find("changed: title"), std::string::npos) << timeline;
  // Related posts: links to other posts' pages, never to this one.
  const std::string related = between(html, "<aside aria-label=\"Related posts\">", "</aside>");
  ASSERT_FALSE(related.empty());
  const std::size_t links = count_of(related, "href=\"?post=");
  EXPECT_GE(links, 1u) << related;
  EXPECT_LE(links, 5u);
  EXPECT_EQ(related.find("href=\"" + p + "\""), std::string::npos);
  // Same look as the search page: its style sheet and its form.
  EXPECT_NE(html.find("<link rel=\"stylesheet\" href=\"?format=css&amp;v=" + style_version() + "\">"),
            std::string::npos);
  EXPECT_NE(html.find("<form class=\"search\" role=\"search\""), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
}

TEST_F(PostPageTest, RelatedPostsAreTheFeedbackQuerysBestOthers) {
  ingest_data();
  const std::string id = id_of("checkpointing");
  Searcher s(db_);
  PostPageRequest r;
  r.post = id;
  const auto page = s.post_page(r);
  ASSERT_TRUE(page);
  ASSERT_FALSE(page->related_terms.empty());
  EXPECT_LE(page->related_terms.size(), 20u);
  for (const auto& t : page->related_terms) {
    EXPECT_GE(t.size(), 3u);
    EXPECT_FALSE(t[0] >= 'A' && t[0] <= 'Z') << t << ": prefixed terms are not body words";
  }
  ASSERT_FALSE(page->related.empty());
  EXPECT_LE(page->related.size(), 5u);
  for (const Hit& h : page->related) EXPECT_NE(h.post->id, id);
  // Ranked: weights do not increase down the list.
  for (std::size_t i = 1; i < page->related.size(); ++i)
    EXPECT_GE(page->related[i - 1].weight, page->related[i].weight);
  // A post's own words find it too (it is excluded, not missing).
  SearchRequest q;
  q.query.text = page->related_terms[0];
  EXPECT_GT(s.search(q).total.estimated, 0u);
}

TEST_F(PostPageTest, AnEarlierVersionShowsItsTitleAndText) {
  ingest_data();
  const std::string id = id_of("checkpointing");
  Searcher s(db_);
  PostPageRequest r;
  r.post = id;
  const auto page = s.post_page(r);
  ASSERT_TRUE(page);
  ASSERT_EQ(page->history.versions.size(), 2u);
  const VersionContent& first = page->history.content_of(page->history.versions[0]);
  ASSERT_NE(first.title, page->post.title);
  const Response resp = get("post=" + url_component(id) + "&version=1");
  ASSERT_EQ(resp.status, 200) << resp.body;
  EXPECT_NE(resp.body.find("<h1>" + escape_markup(first.title) + "</h1>"), std::string::npos);
  EXPECT_NE(resp.body.find("Version 1 of 2, first seen " + format_time(page->history.versions[0].first_seen)),
            std::string::npos);
  EXPECT_NE(resp.body.find("This is an earlier version."), std::string::npos);
  EXPECT_NE(resp.body.find(escape_markup(first.text.substr(0, 60))), std::string::npos);
  EXPECT_NE(resp.body.find("<li aria-current=\"page\"><a href=\"?post=" + url_component(id) + "&amp;version=1\""),
            std::string::npos);
  // The newest version is the current text: no "earlier version" note.
  const Response newest = get("post=" + url_component(id) + "&version=2");
  ASSERT_EQ(newest.status, 200);
  EXPECT_EQ(newest.body.find("This is an earlier version."), std::string::npos);
  EXPECT_NE(newest.body.find("<h1>" + escape_markup(page->post.title) + "</h1>"), std::string::npos);
}

// diff=A-B: the changes between two versions, word by word, <del> and <ins>.
TEST_F(PostPageTest, DiffMarksWhatChanged) {
  ingest_data();
  const std::string id = id_of("checkpointing");
  Searcher s(db_);
  PostPageRequest r;
  r.post = id;
  const auto page = s.post_page(r);
  ASSERT_TRUE(page);
  const VersionContent& a = page->history.content_of(page->history.versions[0]);
  const VersionContent& b = page->history.content_of(page->history.versions[1]);
  const TextDiff want = diff_words(a.text, b.text);
  ASSERT_TRUE(want.changed());
  const Response resp = get("post=" + url_component(id) + "&diff=1-2");
  ASSERT_EQ(resp.status, 200) << resp.body;
  const std::string section = between(resp.body, "<section class=\"diff\"", "</section>");
  ASSERT_FALSE(section.empty());
  EXPECT_NE(section.find("Changes from version 1 to version 2"), std::string::npos);
  // The title, which changed, word by word.
  const std::string title = between(section, "<dt>Title</dt><dd>", "</dd>");
  EXPECT_NE(title.find("<del>"), std::string::npos) << title;
  EXPECT_NE(title.find("<ins>"), std::string::npos) << title;
  // The text: every added and removed part of the word diff, marked.
  const std::string body = between(section, "<p class=\"body\">", "</p>");
  std::size_t ins = 0, del = 0;
  for (const DiffPart& part : want.parts) {
    if (part.op == DiffPart::Op::kAdded) {
      ++ins;
      EXPECT_NE(body.find("<ins>" + escape_markup(part.text) + "</ins>"), std::string::npos) << part.text;
    } else if (part.op == DiffPart::Op::kRemoved) {
      ++del;
      EXPECT_NE(body.find("<del>" + escape_markup(part.text) + "</del>"), std::string::npos) << part.text;
    }
  }
  EXPECT_EQ(count_of(body, "<ins>"), ins);
  EXPECT_EQ(count_of(body, "<del>"), del);
  EXPECT_NE(section.find(std::to_string(want.words_added) + (want.words_added == 1 ? " word added" : " words added")),
            std::string::npos);
  // Leaving out what was removed gives the newer text, leaving out what
  // was added the older.
  auto words_of = [](std::string html, const char* drop) {
    html = std::regex_replace(html, std::regex(std::string("<") + drop + ">[^<]*</" + drop + ">"), " ");
    html = std::regex_replace(html, std::regex("<[^>]*>"), " ");
    html = std::regex_replace(html, std::regex("\\s+"), " ");
    return html;
  };
  auto plain = [](const std::string& text) {
    return std::regex_replace(escape_markup(text), std::regex("\\s+"), " ");
  };
  auto trim = [](std::string t) {
    t.erase(0, t.find_first_not_of(' '));
    t.erase(t.find_last_not_of(' ') + 1);
    return t;
  };
  EXPECT_EQ(trim(words_of(body, "del")), trim(plain(b.text)));
  EXPECT_EQ(trim(words_of(body, "ins")), trim(plain(a.text)));
  // The reverse diff swaps them; the timeline marks the newer version shown.
  const Response back = get("post=" + url_component(id) + "&diff=2-1");
  ASSERT_EQ(back.status, 200);
  EXPECT_EQ(count_of(between(back.body, "<p class=\"body\">", "</p>"), "<ins>"), del);
  EXPECT_NE(resp.body.find("<li aria-current=\"page\"><a href=\"?post=" + url_component(id) + "&amp;version=2\""),
            std::string::npos);
}

TEST_F(PostPageTest, DiffOfLongTextsIsBounded) {
  // Two versions of 300,000 words that differ all through: the diff is
  // bounded in work (text_diff.h) and the page in bytes.
  std::string a, b;
  for (int i = 0; i < 300000; ++i) {
    a += "w" + std::to_string(i * 7 % 1000) + " ";
    b += "w" + std::to_string(i * 11 % 1000) + "&amp; ";
  }
  ingest({snapshot("long", 0, rss("long", "Long", a)), snapshot("long", 1, rss("long", "Long", b))});
  ASSERT_EQ(record_of("long").versions, 2);
  const auto start = std::chrono::steady_clock::now();
  const Response r = get("post=long&diff=1-2");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(r.status, 200);
  EXPECT_LE(r.body.size(), kPageBudget);
  EXPECT_NE(r.body.find("bytes of each text were compared"), std::string::npos);
  EXPECT_NE(r.body.find("The changes are cut here"), std::string::npos);
  EXPECT_LT(seconds, 5.0);
  EXPECT_NE(r.body.find("</html>\n"), std::string::npos);
}

TEST_F(PostPageTest, APostThatLeftTheFeedSaysSo) {
  ingest_data();
  const std::string id = id_of("\"Regional Compilation\"");
  ASSERT_FALSE(id.empty());
  ASSERT_FALSE(record_of(id).in_feed);
  const Response r = get("post=" + url_component(id));
  ASSERT_EQ(r.status, 200);
  EXPECT_NE(r.body.find("No: the feed no longer carries it"), std::string::npos);
  EXPECT_NE(r.body.find(">1 version</h2>"), std::string::npos);
}

// A post that two feeds carry names each feed by its title, not its id.
TEST_F(PostPageTest, EveryFeedOfThePostIsNamedByItsTitle) {
  const std::string body = rss("p1", "Shared post", "<p>Carried by two feeds.</p>");
  std::string mirror = body;
  mirror.replace(mirror.find("Big Blog"), 8, "Mirror Blog");
  ingest({snapshot("big", 0, body), snapshot("mirror", 1, mirror)});
  const std::string id = id_of("carried");
  ASSERT_FALSE(id.empty());
  const Response r = get("post=" + url_component(id));
  ASSERT_EQ(r.status, 200);
  const std::string facts = between(r.body, "<dt>Feeds</dt>", "</dd>");
  EXPECT_NE(facts.find(">Big Blog</a>"), std::string::npos) << facts;
  EXPECT_NE(facts.find(">Mirror Blog</a>"), std::string::npos) << facts;
}

TEST_F(PostPageTest, UnknownPostIs404AndBadVersionsAre400) {
  ingest_data();
  const std::string id = id_of("checkpointing");
  const std::string p = "post=" + url_component(id);
  struct Case {
    std::string query;
    int status;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"post=no-such-post", 404, "No archived post has this id or link."},
      {"post=https%3A%2F%2Fpytorch.org%2Fblog%2Fnothing-here%2F", 404, "No archived post has this id or link."},
      {p + "&version=3", 400, "This post has 2 versions (1 to 2); there is no version 3."},
      {p + "&version=x", 400, "Cannot show this post: version must be a whole number from 1."},
      {p + "&version=0", 400, "Cannot show this post: version must be a whole number from 1."},
      // A version it does not have is named (it said "diff takes two different ones").
      {p + "&diff=1-3", 400, "This post has 2 versions (1 to 2); there is no version 3."},
      {p + "&diff=4-1", 400, "This post has 2 versions (1 to 2); there is no version 4."},
      {p + "&diff=1-1", 400, "This post has 2 versions: diff takes two different ones, as in diff=1-2."},
      {p + "&diff=2-2", 400, "This post has 2 versions: diff takes two different ones, as in diff=1-2."},
      {p + "&diff=2", 400, "Cannot show this post: diff must be two version numbers, as in diff=1-2."},
      {p + "&version=1&diff=1-2", 400, "Ask for one version or for one diff, not both."},
      {"version=1", 400, "version and diff belong to a post&#39;s page: add post=ID."},
      {p + "&format=atom", 400, "A post&#39;s page is HTML only: leave out format."},
  };
  for (const Case& c : cases) {
    const Response r = get(c.query);
    EXPECT_EQ(r.status, c.status) << c.query;
    EXPECT_NE(r.body.find("<p role=\"alert\">" + c.message + "</p>"), std::string::npos) << c.query << "\n" << r.body;
    // One message: no text, no timeline.
    EXPECT_EQ(r.body.find("class=\"versions\""), std::string::npos) << c.query;
  }
  EXPECT_NE(get("post=no-such-post").body.find("<h1>No such post</h1>"), std::string::npos);
  // Asked as JSON, the error is the JSON API's.
  const Response json = get(p + "&format=json");
  EXPECT_EQ(json.status, 400);
  EXPECT_EQ(json.body, "{\"error\":\"A post's page is HTML only: leave out format.\",\"status\":400}\n");
  EXPECT_TRUE(logged_.empty()) << logged_;
}

TEST_F(PostPageTest, FoundByItsLinkToo) {
  ingest_data();
  const PostRecord post = record_of(id_of("checkpointing"));
  ASSERT_FALSE(post.link.empty());
  ASSERT_NE(post.link, post.id);
  const Response r = get("post=" + url_component(post.link));
  ASSERT_EQ(r.status, 200);
  EXPECT_NE(r.body.find("<h1>" + escape_markup(post.title) + "</h1>"), std::string::npos);
}

// An id longer than post= takes: the post's links name it by its link.
TEST_F(PostPageTest, APostWithAnIdTooLongForPostIsLinkedByItsLink) {
  const std::string id(3000, 'i');
  std::string body = rss(id, "Long id", "zebra words");
  const std::string link = "https://big.example.org/" + id;
  body.replace(body.find(link), link.size(), "https://big.example.org/long-id");
  ingest({snapshot("big", 0, body)});
  ASSERT_EQ(record_of(id).link, "https://big.example.org/long-id");
  const Response results = get("q=zebra");
  const std::string want = "?post=https%3A%2F%2Fbig.example.org%2Flong-id&amp;q=zebra";
  ASSERT_NE(results.body.find("<a href=\"" + want + "\">archived copy</a>"), std::string::npos) << results.body;
  const Response page = get("post=https%3A%2F%2Fbig.example.org%2Flong-id");
  EXPECT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("<h1>Long id</h1>"), std::string::npos);
  EXPECT_EQ(get("post=" + id).status, 400);
}

TEST_F(PostPageTest, TheSearchsWordsAreMarked) {
  ingest_data();
  const std::string id = id_of("checkpointing");
  const Response r = get("post=" + url_component(id) + "&q=checkpoint");
  ASSERT_EQ(r.status, 200);
  const std::string text = between(r.body, "<p class=\"body\">", "</p>");
  // Stems match: "checkpoint" marks "checkpointing" and "checkpoints".
  std::regex marked("<mark>([^<]*)</mark>");
  std::size_t marks = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), marked); it != std::sregex_iterator(); ++it, ++marks) {
    std::string word = (*it)[1];
    std::transform(word.begin(), word.end(), word.begin(), ::tolower);
    EXPECT_EQ(word.rfind("checkpoint", 0), 0u) << word;
  }
  EXPECT_GE(marks, 2u) << text;
  // The way back to the search, and its words kept in the versions' links.
  EXPECT_NE(r.body.find("<a href=\"?q=checkpoint\">← Results for “checkpoint”</a>"), std::string::npos);
  EXPECT_NE(r.body.find("href=\"?q=checkpoint&amp;post=" + url_component(id) + "&amp;version=1\""), std::string::npos);
  // A query that does not parse marks nothing and fails nothing.
  const Response bad = get("post=" + url_component(id) + "&q=checkpoint+AND+(");
  EXPECT_EQ(bad.status, 200);
  EXPECT_EQ(bad.body.find("<mark>"), std::string::npos);
}

TEST_F(PostPageTest, ResultsAndAtomEntriesLinkToIt) {
  ingest_data();
  const std::string id = id_of("checkpointing");
  const Response results = get("q=checkpointing");
  ASSERT_EQ(results.status, 200);
  EXPECT_NE(results.body.find("<a href=\"?post=" + url_component(id) + "&amp;q=checkpointing\">archived copy</a>"),
            std::string::npos);
  // Every result has one.
  EXPECT_EQ(count_of(results.body, ">archived copy</a>"), count_of(results.body, "<li class=\"hit\">"));
  const Response start = get("");
  EXPECT_EQ(count_of(start.body, ">archived copy</a>"), count_of(start.body, "<li class=\"hit\">"));
  EXPECT_GT(count_of(start.body, ">archived copy</a>"), 0u);

  const Response atom = get("q=checkpointing&format=atom");
  ASSERT_EQ(atom.status, 200);
  EXPECT_NE(atom.body.find("<link rel=\"related\" type=\"text/html\" title=\"archived copy\" "
                           "href=\"http://127.0.0.1:8080/search?post=" + url_component(id) + "\"/>"),
            std::string::npos)
      << atom.body;
}

// Atom's <updated> is when the post last changed (its newest version was
// first seen), <published> its publication date.
TEST_F(PostPageTest, AtomUpdatedIsTheLastChange) {
  ingest_data();
  const Response atom = get("format=atom&n=100");
  ASSERT_EQ(atom.status, 200);
  std::unique_ptr<xmlDoc, void (*)(xmlDocPtr)> doc(
      xmlReadMemory(atom.body.data(), static_cast<int>(atom.body.size()), "a.xml", nullptr,
                    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING),
      xmlFreeDoc);
  ASSERT_TRUE(doc);
  Searcher s(db_);
  std::size_t entries = 0, edited = 0;
  std::string newest;
  for (xmlNode* e = xmlDocGetRootElement(doc.get())->children; e; e = e->next) {
    if (e->type != XML_ELEMENT_NODE || std::string(reinterpret_cast<const char*>(e->name)) != "entry") continue;
    std::string updated, published, archived;
    for (xmlNode* f = e->children; f; f = f->next) {
      if (f->type != XML_ELEMENT_NODE) continue;
      const std::string name = reinterpret_cast<const char*>(f->name);
      auto text = [&] {
        std::unique_ptr<xmlChar, void (*)(void*)> t(xmlNodeGetContent(f), xmlFree);
        return std::string(reinterpret_cast<const char*>(t.get()));
      };
      if (name == "updated") updated = text();
      if (name == "published") published = text();
      if (name == "link") {
        std::unique_ptr<xmlChar, void (*)(void*)> rel(xmlGetProp(f, BAD_CAST "rel"), xmlFree);
        std::unique_ptr<xmlChar, void (*)(void*)> href(xmlGetProp(f, BAD_CAST "href"), xmlFree);
        if (rel && std::string(reinterpret_cast<const char*>(rel.get())) == "related")
          archived = reinterpret_cast<const char*>(href.get());
      }
    }
    const std::string prefix = "http://127.0.0.1:8080/search?post=";
    ASSERT_EQ(archived.rfind(prefix, 0), 0u) << archived;
    // The id back from the link (url_component encodes; ids here are plain or URLs).
    std::string id;
    for (std::size_t i = prefix.size(); i < archived.size(); ++i) {
      if (archived[i] == '%' && i + 2 < archived.size()) {
        id += static_cast<char>(std::stoi(archived.substr(i + 1, 2), nullptr, 16));
        i += 2;
      } else {
        id += archived[i] == '+' ? ' ' : archived[i];
      }
    }
    PostPageRequest r;
    r.post = id;
    r.related = 0;
    const auto page = s.post_page(r);
    ASSERT_TRUE(page) << id;
    ASSERT_FALSE(page->history.versions.empty());
    EXPECT_EQ(updated, format_time(page->history.versions.back().first_seen)) << id;
    EXPECT_EQ(updated, page->post.last_change);
    EXPECT_EQ(published, page->post.published) << id;
    if (page->history.versions.size() > 1) {
      ++edited;
      EXPECT_NE(updated, page->post.first_seen);
    }
    newest = std::max(newest, updated);
    ++entries;
  }
  EXPECT_EQ(entries, 14u);
  EXPECT_GE(edited, 1u);
  // The feed's own updated is its newest entry's.
  EXPECT_NE(atom.body.find("<updated>" + newest + "</updated>\n<author><name>"), std::string::npos);
}

// Whatever the post, the page stays within kPageBudget: hundreds of
// versions, a text of megabytes made of characters escaping makes six
// times longer.
TEST_F(PostPageTest, PageIsBoundedWhateverThePost) {
  std::vector<std::string> paths;
  for (int i = 0; i < 600; ++i) paths.push_back(snapshot("big", i, rss("many", "Many versions", "edit number " + std::to_string(i) + " of the text")));
  paths.push_back(snapshot("big", 600, rss("many", "Many versions", std::string(2 << 20, '"'))));
  ingest(paths);
  const PostRecord post = record_of("many");
  ASSERT_EQ(post.versions, 601);
  const Response r = get("post=many&q=%22");
  ASSERT_EQ(r.status, 200);
  EXPECT_LE(r.body.size(), kPageBudget);
  EXPECT_GT(r.body.size(), kPageBudget / 2) << "the text is shown as far as the budget goes";
  EXPECT_NE(r.body.find("The text is cut here:"), std::string::npos);
  EXPECT_NE(r.body.find("oldest versions are not listed"), std::string::npos);
  EXPECT_NE(r.body.find("Version 601</a>"), std::string::npos);
  EXPECT_NE(r.body.find("</html>\n"), std::string::npos);
  // An old version, and the page of every version in between, stay bounded too.
  for (const char* v : {"1", "300", "600"}) {
    const Response old = get(std::string("post=many&version=") + v);
    ASSERT_EQ(old.status, 200) << v;
    EXPECT_LE(old.body.size(), kPageBudget);
    EXPECT_NE(old.body.find("edit number " + std::to_string(std::stoi(v) - 1) + " of the text"), std::string::npos);
  }
}

// Every field of a post at its largest, made of bytes that escaping and
// URL encoding make longest: ids of 1,400 bytes (links to the post page
// and to related posts repeat them, 4,200 bytes encoded), ten authors and
// ten categories of 1,000 bytes, a 1,000-byte title, 300 versions, a query
// of 1,000 bytes. The page still stays within kPageBudget.
TEST_F(PostPageTest, PageIsBoundedWhateverItsFields) {
  std::string e;
  for (int i = 0; i < 700; ++i) e += "\xC3\xA9";  // é
  auto item = [&](int n, int version) {
    std::string out = "<item><guid isPermaLink=\"false\">" + e + std::to_string(n) + "</guid><title>";
    for (int i = 0; i < 999; ++i) out += "&amp;";
    out += "x</title><pubDate>Tue, 01 Sep 2026 10:00:00 +0000</pubDate>";
    for (int a = 0; a < 10; ++a) {
      out += "<dc:creator>" + std::to_string(a);
      for (int i = 0; i < 250; ++i) out += "&lt;";
      out += "</dc:creator><category>" + std::to_string(a) + std::string(999, '"') + "</category>";
    }
    // Posts 0 to 2 share words the others lack: each other's related posts.
    out += std::string("<content:encoded><![CDATA[") + (n < 3 ? "zebra giraffe okapi" : "yak llama alpaca") + " " +
           std::to_string(n) +
           " edit " + std::to_string(version) + "]]></content:encoded></item>";
    return out;
  };
  std::vector<std::string> paths;
  for (int v = 0; v < 300; ++v) {
    std::string body =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\" "
        "xmlns:content=\"http://purl.org/rss/1.0/modules/content/\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\">"
        "<channel><title>Wide Blog</title><link>https://wide.example.org/</link>";
    for (int n = 0; n < 6; ++n) body += item(n, n == 0 ? v : 0);
    paths.push_back(snapshot("wide", v, body + "</channel></rss>\n"));
  }
  ingest(paths);
  const std::string id = e + "0";
  const PostRecord post = record_of(id);
  ASSERT_EQ(post.versions, 300);
  ASSERT_EQ(post.authors.size(), 10u);
  std::string q;
  for (int i = 0; i < 500; ++i) q += "%C3%A9";
  for (const std::string& extra : {std::string(), std::string("&version=1"), std::string("&diff=1-300")}) {
    const Response r = get("post=" + url_component(id) + "&q=" + q + extra);
    ASSERT_EQ(r.status, 200) << extra << r.body.substr(0, 3000);
    EXPECT_LE(r.body.size(), kPageBudget) << extra;
    EXPECT_GT(r.body.size(), kPageBudget / 2) << extra << ": the fields are as long as they can be";
    EXPECT_NE(r.body.find("</html>\n"), std::string::npos) << extra;
    EXPECT_NE(r.body.find("Version 300</a>"), std::string::npos) << extra;
    EXPECT_NE(r.body.find("oldest versions are not listed"), std::string::npos) << extra;
    EXPECT_NE(between(r.body, "<aside aria-label=\"Related posts\">", "</aside>").find("href=\"?post="),
              std::string::npos)
        << extra;
  }
}

}  // namespace
}  // namespace blogsearch::web
