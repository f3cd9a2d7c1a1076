// Tests of the search library (query/): query language, filters, dates,
// ranking, paging, facets, snippets, formatters and database handling.
//
// The fixture writes a small database directly with Xapian, laid out as
// indexer/schema.h describes, so every expectation below follows from the
// handful of posts defined here.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <xapian.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <cstdio>
#include <sstream>

#include "indexer/schema.h"
#include "indexer/rebuild.h"
#include "indexer/snapshot.h"
#include "indexer/writer.h"
#include "query/doc_cache.h"
#include "query/facets.h"
#include "query/format.h"
#include "query/query_builder.h"
#include "query/searcher.h"
#include "tests/utf8_check.h"

namespace blogsearch {
namespace {

namespace fs = std::filesystem;

struct TestPost {
  std::string id;
  std::string title;
  std::string text;
  std::vector<std::string> authors;
  std::vector<std::string> categories;
  std::string feed = "pytorch";
  std::string link;  // default: https://pytorch.org/blog/<id>/
  UnixTime published = 0;
};

std::string rfc3339(UnixTime t) {
  std::time_t tt = static_cast<std::time_t>(t);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

UnixTime at(const std::string& date, int h = 0, int m = 0, int s = 0) {
  return *parse_date(date, false) + h * 3600 + m * 60 + s;
}

std::string host_of(const std::string& link) {
  std::string h = link.substr(link.find("://") + 3);
  return h.substr(0, h.find('/'));
}

// Lays a post out as indexer/schema.h says the writer does.
void add_post(Xapian::WritableDatabase& db, const TestPost& p) {
  Xapian::TermGenerator tg;
  tg.set_stemmer(schema::make_stemmer(schema::kStemLanguage));
  tg.set_database(db);
  tg.set_flags(Xapian::TermGenerator::FLAG_SPELLING);
  Xapian::Document doc;
  tg.set_document(doc);
  tg.index_text(p.title, 1, schema::kTitle);
  tg.index_text(p.title, schema::kTitleWeight);
  tg.increase_termpos();
  tg.index_text(p.text);
  for (const auto& a : p.authors) {
    tg.index_text(a, 1, schema::kAuthor);
    doc.add_boolean_term(schema::exact_term(schema::kAuthorExact, a));
  }
  for (const auto& c : p.categories) doc.add_boolean_term(schema::exact_term(schema::kCategory, c));
  const std::string link = p.link.empty() ? "https://pytorch.org/blog/" + p.id + "/" : p.link;
  doc.add_boolean_term(schema::exact_term(schema::kFeed, p.feed));
  doc.add_boolean_term(schema::exact_term(schema::kHost, host_of(link)));
  const std::string day = rfc3339(p.published);
  doc.add_boolean_term(schema::kDay + day.substr(0, 4) + day.substr(5, 2) + day.substr(8, 2));
  doc.add_boolean_term(schema::kMonth + day.substr(0, 4) + day.substr(5, 2));
  doc.add_boolean_term(schema::kYear + day.substr(0, 4));
  doc.add_boolean_term(schema::kInFeed + std::string("yes"));
  doc.add_value(schema::kSlotPublished, Xapian::sortable_serialise(static_cast<double>(p.published)));
  doc.add_value(schema::kSlotText, p.text);
  nlohmann::json data = {
      {"id", p.id},
      {"link", link},
      {"title", p.title},
      {"authors", p.authors},
      {"categories", p.categories},
      {"feed", {{"id", p.feed}, {"title", p.feed + " blog"}, {"url", "https://example.org/feed"}}},
      {"feeds", {p.feed}},
      {"published", day},
      {"updated", nullptr},
      {"first_seen", day},
      {"last_seen", day},
      {"versions", 1},
      {"in_feed", true},
      {"summary", p.text.substr(0, 40)},
      {"content_hash", "0123456789abcdef"},
      {"snapshot", p.feed + "/2026-10-03T000000Z.xml"},
      {"history", nlohmann::json::array()},
  };
  doc.add_value(schema::kSlotRecord, data.dump());
  if (const std::string t = schema::title_term(p.title); !t.empty()) doc.add_term(t);
  const std::string q = schema::id_term(p.id);
  doc.add_boolean_term(q);
  doc.add_value(schema::kSlotFacets, schema::facet_value(doc, p.authors, p.categories));
  db.replace_document(q, doc);
}

std::vector<TestPost> test_posts() {
  return {
      {"compile", "Compiling models with torch.compile",
       "The compiler traces Python code and generates fused kernels. Compilation is fast.",
       {"Alice Example"}, {"PyTorch", "Compiler"}, "pytorch", "", at("2026-09-02", 12)},
      {"conference", "PyTorch Conference 2026 recap",
       "Talks about distributed training, kernels and the community.",
       {"Bob Writer", "Alice Example"}, {"PyTorch Conference", "Community"}, "pytorch", "",
       at("2026-09-30", 23, 59, 59)},
      {"october", "October release notes",
       "New release with better kernels for training. Cats or dogs were not harmed.",
       {"Carol Dev"}, {"Release"}, "pytorch", "", at("2026-10-01")},
      {"kernels-body", "Performance notes",
       "This long post mentions compiling only in the body, and writes about Triton kernels.",
       {"Dan Perf"}, {"Performance"}, "pytorch", "", at("2025-03-15", 8)},
      {"go", "Go generics in practice", "Type parameters make the Go compiler smarter about kernels.",
       {"Erin Gopher"}, {"Language"}, "go", "https://go.dev/blog/generics", at("2025-12-31", 23, 59, 59)},
      {"unicode",
       "Ünïcödé naïve café",
       "Grüße aus Köln: <b>bold</b> & ampersands &amp; entities stay literal. Straße über alles; "
       "日本語のテキスト and emoji 🙂 in the middle of the kernels text.",
       {"Zoë Ünicode"}, {"Ünicode Tests"}, "misc", "https://www.example.org/unicode", at("2026-01-15")},
      {"near", "Adjacent words", "distributed data parallel training at scale with pipelines",
       {"Fay Near"}, {"Training"}, "pytorch", "", at("2026-08-01")},
      // The words of steer-a's title are all in steer-b, more often, and in
      // a shorter text: only their order in the title tells them apart.
      {"steer-a", "Steering committee election results",
       "The count is complete and the new members start next month after a long and careful process.",
       {"Gil Nix"}, {"Governance"}, "nix", "https://nixos.org/a", at("2024-05-01")},
      {"steer-b", "Results of the steering committee election",
       "Election results: steering committee election results.", {"Gil Nix"}, {"Governance"}, "nix",
       "https://nixos.org/b", at("2024-05-02")},
  };
}

class SearcherTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    char tmpl[] = "/tmp/query_test.XXXXXX";
    dir_ = mkdtemp(tmpl);
    db_path_ = dir_ + "/db";
    Xapian::WritableDatabase db(db_path_, Xapian::DB_CREATE_OR_OPEN);
    db.set_metadata(schema::kMetaSchemaVersion, std::to_string(schema::kSchemaVersion));
    db.set_metadata(std::string(schema::kMetaFeedPrefix) + "go", R"({"id":"go","title":"The Go Blog"})");
    for (const auto& p : test_posts()) add_post(db, p);
    db.commit();
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }

  SearchResult run(const std::string& text, SearchRequest request = {}) {
    request.query.text = text;
    Searcher searcher(db_path_);
    return searcher.search(request);
  }

  std::vector<std::string> ids(const std::string& text, SearchRequest request = {}) {
    std::vector<std::string> out;
    for (const auto& hit : run(text, request).hits) out.push_back(hit.post->id);
    return out;
  }

  std::set<std::string> id_set(const std::string& text, SearchRequest request = {}) {
    auto v = ids(text, request);
    return {v.begin(), v.end()};
  }

  static std::string dir_;
  static std::string db_path_;
};
std::string SearcherTest::dir_;
std::string SearcherTest::db_path_;

using Ids = std::set<std::string>;

// ---- dates -------------------------------------------------------------------

TEST(QueryDates, PeriodsStartAndEnd) {
  EXPECT_EQ(*parse_date("2026", false), at("2026-01-01"));
  EXPECT_EQ(*parse_date("2026", true), at("2027-01-01") - 1);
  EXPECT_EQ(*parse_date("2026-09", true), at("2026-10-01") - 1);
  EXPECT_EQ(*parse_date("2026-12", true), at("2027-01-01") - 1);
  EXPECT_EQ(*parse_date("2024-02", true), at("2024-02-29") + 86399);
  EXPECT_EQ(*parse_date("2026-09-02", true), at("2026-09-02") + 86399);
  EXPECT_EQ(*parse_date("2026-09-02", false), 1788307200);
}

TEST(QueryDates, RejectsWhatIsNotACalendarDate) {
  for (const char* bad : {"2026-13", "2026-00", "2026-02-29", "2026-04-31", "2026-9", "26-09-01",
                          "2026/09/01", "", "yesterday", "2026-09-01T10:00", "0000"})
    EXPECT_FALSE(parse_date(bad, false)) << bad;
  EXPECT_TRUE(parse_date("2024-02-29", false));
}

TEST(QueryDates, YearsBefore1970) {
  EXPECT_EQ(*parse_date("1969", false), -365 * 86400);
  EXPECT_EQ(*parse_date("1969-12-31", true), -1);
  EXPECT_EQ(*parse_date("1900-03", false), *parse_date("1900-02", true) + 1);
}

TEST(QueryDates, RelativeAges) {
  const UnixTime now = at("2026-03-31", 10);
  EXPECT_EQ(parse_time_option("--since", "30d", false, now), now - 30 * 86400);
  EXPECT_EQ(parse_time_option("--since", "1y", false, now), at("2025-03-31", 10));
  // One month before 31 March is the last day of February.
  EXPECT_EQ(parse_time_option("--since", "1m", false, now), at("2026-02-28", 10));
  EXPECT_EQ(parse_time_option("--since", "6m", false, now), at("2025-09-30", 10));
  EXPECT_EQ(parse_time_option("--until", "2026-02", true, now), at("2026-03-01") - 1);
  try {
    parse_time_option("--since", "3 weeks", false, now);
    FAIL() << "no error";
  } catch (const QueryError& e) {
    EXPECT_NE(std::string(e.what()).find("--since"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("3 weeks"), std::string::npos);
  }
}

// ---- syntax errors -----------------------------------------------------------

TEST(QuerySyntax, DanglingOperatorsArePointedAt) {
  struct Case {
    const char* query;
    std::size_t column;
  } cases[] = {{"kernels AND", 9}, {"OR kernels", 1}, {"a AND OR b", 3},
               {"(kernels OR) x", 10}, {"kernels NOT", 9}, {"x XOR", 3},
               {"Grüße kernels AND", 15}, {"kernels AND (", 13}};  // columns count characters
  for (const auto& c : cases) {
    Xapian::WritableDatabase db(std::string(), Xapian::DB_BACKEND_INMEMORY);
    QueryOptions o;
    o.text = c.query;
    try {
      build_query(db, o);
      ADD_FAILURE() << c.query << ": no error";
    } catch (const QueryError& e) {
      EXPECT_EQ(e.column(), c.column) << c.query << ": " << e.what();
      EXPECT_EQ(e.query(), c.query);
      EXPECT_NE(std::string(e.what()).find("column"), std::string::npos);
    }
  }
}

TEST(QuerySyntax, EmptyQueryNeedsAFilter) {
  Xapian::WritableDatabase db(std::string(), Xapian::DB_BACKEND_INMEMORY);
  QueryOptions o;
  o.text = "   ";
  EXPECT_THROW(build_query(db, o), QueryError);
  o.filters.categories = {"x"};
  EXPECT_NO_THROW(build_query(db, o));
}

TEST_F(SearcherTest, BadDatesInQueryNameTheValue) {
  try {
    run("kernels date:2026-13..2026-14");
    FAIL() << "no error";
  } catch (const QueryError& e) {
    EXPECT_EQ(e.column(), 14u) << e.what();
    EXPECT_NE(std::string(e.what()).find("2026-13"), std::string::npos);
  }
  try {
    run("date:2026-10..2026-09");
    FAIL() << "no error";
  } catch (const QueryError& e) {
    EXPECT_NE(std::string(e.what()).find("ends before it starts"), std::string::npos);
  }
}

// ---- free text and operators -------------------------------------------------

TEST_F(SearcherTest, StemmingAndDefaultAnd) {
  // "compiler" (in "go") stems like "compiles" and "compiling".
  EXPECT_EQ(id_set("compiles"), (Ids{"compile", "kernels-body", "go"}));
  EXPECT_EQ(id_set("compiling kernels"), (Ids{"compile", "kernels-body", "go"}));
  EXPECT_EQ(id_set("compiling generics"), Ids{"go"});
  // No post has both: the second try takes either, and says so
  // (PlainWordsNoPostHasAllAreSearchedAsAnyWord).
  EXPECT_TRUE(run("compiling community").any_word);
  EXPECT_FALSE(run("compiling generics").any_word);
}

TEST_F(SearcherTest, BooleanOperators) {
  EXPECT_EQ(id_set("generics OR community"), (Ids{"go", "conference"}));
  EXPECT_EQ(id_set("kernels NOT training"), (Ids{"compile", "kernels-body", "go", "unicode"}));
  EXPECT_EQ(id_set("kernels -training -go"), (Ids{"compile", "kernels-body", "unicode"}));
  EXPECT_EQ(id_set("+kernels generics"), (Ids{"go"}));
  EXPECT_EQ(id_set("(generics OR community) kernels"), (Ids{"go", "conference"}));
  EXPECT_EQ(id_set("kernels XOR training"), (Ids{"compile", "kernels-body", "go", "unicode", "near"}));
  // Only upper-case operators: a lowercase "or" is a word to find.
  EXPECT_EQ(id_set("cats or dogs"), Ids{"october"});
  EXPECT_EQ(id_set("NOT kernels"), (Ids{"near", "steer-a", "steer-b"}));
}

TEST_F(SearcherTest, PhrasesAndProximity) {
  EXPECT_EQ(id_set("\"distributed data parallel\""), Ids{"near"});
  EXPECT_EQ(id_set("\"parallel data distributed\""), Ids{});
  EXPECT_EQ(id_set("distributed NEAR/3 pipelines"), Ids{});
  EXPECT_EQ(id_set("distributed NEAR/7 pipelines"), Ids{"near"});
  EXPECT_EQ(id_set("distributed ADJ/3 training"), (Ids{"near", "conference"}));
  EXPECT_EQ(id_set("training ADJ/3 distributed"), Ids{});
}

TEST_F(SearcherTest, TrailingWildcard) {
  EXPECT_EQ(id_set("compil*"), (Ids{"compile", "kernels-body", "go"}));
  SearchRequest r;
  r.query.max_wildcard_expansion = 2;
  try {
    run("kernels c*", r);
    FAIL() << "no error";
  } catch (const QueryError& e) {
    EXPECT_NE(std::string(e.what()).find("'c*' matches more than 2 words"), std::string::npos) << e.what();
    EXPECT_EQ(e.column(), 9u);
  }
  r.query.max_wildcard_expansion = 1000;
  EXPECT_NO_THROW(run("kernels c*", r));
}

// The wildcard bound is for the whole query, not for each wildcard: 333
// copies of "t*" were 230 MB and seconds per request.
TEST_F(SearcherTest, WildcardBoundIsForTheWholeQuery) {
  Xapian::Database db(db_path_);
  auto words = [&db](const std::string& prefix) {
    Xapian::termcount n = 0;
    for (auto t = db.allterms_begin(prefix); t != db.allterms_end(prefix); ++t) ++n;
    return n;
  };
  const Xapian::termcount c = words("c"), d = words("d");
  ASSERT_GT(c, 1u);
  ASSERT_GT(d, 1u);
  SearchRequest r;
  r.query.max_wildcard_expansion = std::max(c, d);
  EXPECT_NO_THROW(run("c*", r));
  EXPECT_NO_THROW(run("d*", r));
  try {
    run("kernels c* OR d*", r);
    FAIL() << "no error";
  } catch (const QueryError& e) {
    EXPECT_NE(std::string(e.what()).find("the 2 wildcards of the query match more than"), std::string::npos)
        << e.what();
    EXPECT_GT(e.column(), 9u);  // at the wildcard where the budget ran out
  }
  // The same wildcard twice counts twice: Xapian expands each.
  r.query.max_wildcard_expansion = c;
  EXPECT_THROW(run("c* c*", r), QueryError);
  r.query.max_wildcard_expansion = c + d;
  EXPECT_NO_THROW(run("kernels c* OR d*", r));
  // title: wildcards count the title's words.
  r.query.max_wildcard_expansion = 1;
  EXPECT_THROW(run("Title:C*", r), QueryError);
}

TEST_F(SearcherTest, QueryLengthAndWordsAreBounded) {
  SearchRequest r;
  r.bounds.max_words = 5;
  EXPECT_NO_THROW(run("kernels compile go training distributed", r));
  try {
    run("kernels compile go training distributed-data", r);
    FAIL() << "no error";
  } catch (const QueryError& e) {
    EXPECT_EQ(std::string(e.what()), "the query has 6 words; at most 5 are allowed");
  }
  r.bounds.max_query_bytes = 10;
  EXPECT_THROW(run("kernels compile", r), QueryError);
  EXPECT_EQ(count_query_words("a.b.c \"d e\" f* (g OR h) J\xC3\xBCrgen"), 9u);
  EXPECT_EQ(count_query_words("  --  "), 0u);
  EXPECT_EQ(count_query_words("a OR b AND NOT c NEAR d or"), 5u);  // operators are upper case
}

TEST(MatchCostBound, CountsThePostingsAMatchReads) {
  Xapian::WritableDatabase db(std::string(), Xapian::DB_BACKEND_INMEMORY);
  for (const char* text : {"apple banana", "apple cherry", "apple", "apricot"}) {
    Xapian::Document doc;
    Xapian::TermGenerator tg;
    tg.set_document(doc);
    tg.index_text(text);
    doc.add_value(0, "v");
    db.add_document(doc);
  }
  using Q = Xapian::Query;
  const std::uint64_t big = 1000;
  EXPECT_EQ(match_cost_bound(db, Q("apple"), big), 3u);
  EXPECT_EQ(match_cost_bound(db, Q(Q::OP_OR, Q("apple"), Q("banana")), big), 4u);
  EXPECT_EQ(match_cost_bound(db, Q(Q::OP_AND_NOT, Q("apple"), Q("cherry")), big), 4u);
  EXPECT_EQ(match_cost_bound(db, Q(Q::OP_PHRASE, Q("apple"), Q("banana")), big), 4 * kPositionsCost);
  EXPECT_EQ(match_cost_bound(db, Q(Q::OP_WILDCARD, "ap"), big), 4u);  // apple 3, apricot 1
  EXPECT_EQ(match_cost_bound(db, Q(Q::OP_VALUE_GE, 0, "a"), big), 4u);  // reads every document's value
  EXPECT_EQ(match_cost_bound(db, Q::MatchAll, big), 4u);
  EXPECT_EQ(match_cost_bound(db, Q::MatchNothing, big), 0u);
  EXPECT_EQ(match_cost_bound(db, Q("missing"), big), 0u);
  // Summing stops once past the cap.
  EXPECT_GT(match_cost_bound(db, Q(Q::OP_OR, Q("apple"), Q::MatchAll), 2), 2u);
  EXPECT_LE(match_cost_bound(db, Q(Q::OP_OR, Q("apple"), Q::MatchAll), 2), 3u);
}

TEST_F(SearcherTest, NotPartialWithinTheTimeLimit) {
  SearchRequest r;
  r.facets = {FacetKind::kCategory};
  EXPECT_FALSE(run("kernels", r).partial);
  r.bounds.time_limit_ms = 0;  // no limit
  EXPECT_FALSE(run("kernels", r).partial);
}

TEST_F(SearcherTest, TitleMatchesOutrankBodyMatches) {
  // "compile" has the word in its title, the others only in their text.
  auto r = ids("compiling");
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0], "compile");
  EXPECT_EQ(ids("kernels release")[0], "october");
}

TEST_F(SearcherTest, TitleWordsInTypedOrderRankFirst) {
  EXPECT_EQ(ids("steering committee election results"),
            (std::vector<std::string>{"steer-a", "steer-b"}));
  // With any syntax the query is no longer a pasted title: plain BM25.
  EXPECT_EQ(ids("+steering committee election results"),
            (std::vector<std::string>{"steer-b", "steer-a"}));
}

TEST_F(SearcherTest, StraySignsAreText) {
  // "->" is punctuation, not "NOT torch".
  EXPECT_EQ(id_set("models -> torch"), Ids{"compile"});
  EXPECT_EQ(id_set("models - torch"), Ids{"compile"});
  EXPECT_EQ(id_set("models -torch"), Ids{});
}

// ---- field prefixes ----------------------------------------------------------

TEST_F(SearcherTest, FreeTextPrefixes) {
  EXPECT_EQ(id_set("title:kernels"), Ids{});
  EXPECT_EQ(id_set("title:compiling"), Ids{"compile"});
  EXPECT_EQ(id_set("Title:compiling"), Ids{"compile"});
  EXPECT_EQ(id_set("author:alice"), (Ids{"compile", "conference"}));
  EXPECT_EQ(id_set("AUTHOR:writer"), Ids{"conference"});
}

TEST_F(SearcherTest, ExactPrefixesAreCaseInsensitive) {
  EXPECT_EQ(id_set("category:pytorch"), Ids{"compile"});
  EXPECT_EQ(id_set("category:PyTorch"), Ids{"compile"});
  EXPECT_EQ(id_set("category:\"PyTorch Conference\""), Ids{"conference"});
  EXPECT_EQ(id_set("category:\"pytorch conference\" talks"), Ids{"conference"});
  EXPECT_EQ(id_set("category:\"ünicode tests\""), Ids{"unicode"});
  EXPECT_EQ(id_set("feed:GO"), Ids{"go"});
  // One field ORs, two fields AND.
  EXPECT_EQ(id_set("category:release category:language"), (Ids{"october", "go"}));
  EXPECT_EQ(id_set("category:release feed:go"), Ids{});
}

TEST_F(SearcherTest, SiteMatchesHostAndSubdomains) {
  EXPECT_EQ(id_set("site:go.dev"), Ids{"go"});
  EXPECT_EQ(id_set("site:example.org"), Ids{"unicode"});
  EXPECT_EQ(id_set("site:www.example.org"), Ids{"unicode"});
  EXPECT_EQ(id_set("site:EXAMPLE.org kernels"), Ids{"unicode"});
  EXPECT_EQ(id_set("site:ample.org"), Ids{});
}

TEST_F(SearcherTest, OptionFilters) {
  SearchRequest r;
  r.query.filters.categories = {"RELEASE", "language"};
  EXPECT_EQ(id_set("kernels", r), (Ids{"october", "go"}));
  r.query.filters.feeds = {"go"};
  EXPECT_EQ(id_set("kernels", r), Ids{"go"});
  SearchRequest a;
  a.query.filters.authors = {"alice example"};
  EXPECT_EQ(id_set("", a), (Ids{"compile", "conference"}));
  a.query.filters.authors = {"Alice"};  // exact names only
  EXPECT_EQ(id_set("", a), Ids{});
}

// ---- dates -------------------------------------------------------------------

TEST_F(SearcherTest, DateRangesIncludeTheirEdges) {
  // "conference" is at 2026-09-30T23:59:59, "october" at 2026-10-01T00:00:00.
  EXPECT_EQ(id_set("kernels date:2026-09-30..2026-09-30"), Ids{"conference"});
  EXPECT_EQ(id_set("kernels date:2026-10-01..2026-10-01"), Ids{"october"});
  EXPECT_EQ(id_set("kernels date:2026-09..2026-09"), (Ids{"compile", "conference"}));
  EXPECT_EQ(id_set("kernels date:2026-09"), (Ids{"compile", "conference"}));
  EXPECT_EQ(id_set("kernels date:2026-10.."), Ids{"october"});
  EXPECT_EQ(id_set("kernels date:..2025"), (Ids{"kernels-body", "go"}));
  EXPECT_EQ(id_set("kernels date:2025"), (Ids{"kernels-body", "go"}));
  EXPECT_EQ(id_set("date:2026-01-15..2026-08-01"), (Ids{"unicode", "near"}));
}

TEST_F(SearcherTest, SinceAndUntil) {
  SearchRequest r;
  r.query.filters.since = *parse_date("2026-09-30", false);
  EXPECT_EQ(id_set("kernels", r), (Ids{"conference", "october"}));
  r.query.filters.until = *parse_date("2026-09-30", true);
  EXPECT_EQ(id_set("kernels", r), Ids{"conference"});
  SearchRequest u;
  u.query.filters.until = *parse_date("2025-12-31", true);
  EXPECT_EQ(id_set("", u), (Ids{"kernels-body", "go", "steer-a", "steer-b"}));
}

TEST_F(SearcherTest, PlainWordsNoPostHasAllAreSearchedAsAnyWord) {
  // No post has all of them: the posts with some, the most first, marked.
  const SearchResult any = run("how do go generics compare to triton kernels");
  EXPECT_TRUE(any.any_word);
  ASSERT_FALSE(any.hits.empty());
  EXPECT_EQ(any.hits[0].post->id, "go");  // go, generics, kernels
  EXPECT_GT(any.total.estimated, 1u);
  // Posts that have every word are found as before, unmarked.
  const SearchResult all = run("go generics");
  EXPECT_FALSE(all.any_word);
  EXPECT_EQ(all.total.estimated, 1u);
  // Operators, quotes and fields mean what they say: no second try.
  EXPECT_EQ(run("go AND triton").total.estimated, 0u);
  EXPECT_FALSE(run("go AND triton").any_word);
  EXPECT_EQ(run("\"go triton\"").total.estimated, 0u);
  EXPECT_EQ(run("title:go title:triton").total.estimated, 0u);
  // One word is not widened, and neither are words none of which any post has.
  EXPECT_EQ(run("qqzz").total.estimated, 0u);
  EXPECT_EQ(run("qqzz wwxx").total.estimated, 0u);
  EXPECT_FALSE(run("qqzz wwxx").any_word);
  // A later page of the wider search is the same search.
  SearchRequest second;
  second.offset = 1;
  const SearchResult page2 = run("how do go generics compare to triton kernels", second);
  EXPECT_TRUE(page2.any_word);
  EXPECT_EQ(page2.total.estimated, any.total.estimated);
}

TEST_F(SearcherTest, ParsedQueryWritesDatesAsDates) {
  // Xapian writes a value range as the value's sortable bytes; the result
  // names the times, for the query's date: ranges and --since/--until.
  SearchRequest r;
  r.query.filters.until = *parse_date("2026-09-30", true);
  const std::string parsed = run("kernels date:2026-09..", r).parsed_query;
  EXPECT_NE(parsed.find("VALUE_GE 0 2026-09-01T00:00:00Z"), std::string::npos) << parsed;
  EXPECT_NE(parsed.find("VALUE_LE 0 2026-09-30T23:59:59Z"), std::string::npos) << parsed;
  EXPECT_EQ(parsed.find("\\x"), std::string::npos) << parsed;
  EXPECT_NE(run("date:2025", SearchRequest{}).parsed_query.find("VALUE_RANGE 0 2025-01-01T00:00:00Z 2025-12-31T23:59:59Z"),
            std::string::npos);
}

// ---- sorting and paging ------------------------------------------------------

TEST_F(SearcherTest, SortByDate) {
  SearchRequest r;
  r.sort = SortOrder::kDate;
  EXPECT_EQ(ids("kernels", r),
            (std::vector<std::string>{"october", "conference", "compile", "unicode", "go", "kernels-body"}));
  r.reverse = true;
  EXPECT_EQ(ids("kernels", r),
            (std::vector<std::string>{"kernels-body", "go", "unicode", "compile", "conference", "october"}));
  SearchRequest bad;
  bad.reverse = true;
  EXPECT_THROW(run("kernels", bad), QueryError);
}

TEST_F(SearcherTest, RecentBoostsNewerPosts) {
  // "kernels-body" has "compiling" once in a long text and is older;
  // relevance puts the title match first, and so does recent since it
  // is also newer. Among body-only matches of "kernels", recent must move
  // the newest up compared with plain relevance.
  SearchRequest rel;
  auto by_relevance = ids("kernels", rel);
  SearchRequest rec;
  rec.sort = SortOrder::kRecent;
  auto by_recent = ids("kernels", rec);
  ASSERT_EQ(by_relevance.size(), by_recent.size());
  auto pos = [](const std::vector<std::string>& v, const std::string& id) {
    return std::find(v.begin(), v.end(), id) - v.begin();
  };
  EXPECT_EQ(by_recent[0], "october");
  EXPECT_LE(pos(by_recent, "october"), pos(by_relevance, "october"));
  EXPECT_GE(pos(by_recent, "kernels-body"), pos(by_relevance, "kernels-body"));
  // A pure filter has no relevance at all: recent is then newest first.
  SearchRequest f;
  f.sort = SortOrder::kRecent;
  f.query.filters.feeds = {"pytorch"};
  EXPECT_EQ(ids("", f), (std::vector<std::string>{"october", "conference", "compile", "near", "kernels-body"}));
}

TEST_F(SearcherTest, PagingBounds) {
  SearchRequest r;
  r.sort = SortOrder::kDate;
  r.limit = 4;
  auto first = run("kernels", r);
  EXPECT_EQ(first.hits.size(), 4u);
  EXPECT_EQ(first.hits[0].rank, 1u);
  r.offset = 4;
  auto second = run("kernels", r);
  ASSERT_EQ(second.hits.size(), 2u);
  EXPECT_EQ(second.hits[0].rank, 5u);
  EXPECT_EQ(second.hits[1].post->id, "kernels-body");
  r.offset = 6;
  EXPECT_TRUE(run("kernels", r).hits.empty());
  r.offset = 0;
  r.limit = kMaxLimit + 1;
  EXPECT_THROW(run("kernels", r), QueryError);
  r.limit = kMaxLimit;
  EXPECT_EQ(run("kernels", r).hits.size(), 6u);
}

TEST_F(SearcherTest, CountsAndEstimates) {
  SearchRequest r;
  r.limit = 0;
  r.exact_count = true;
  auto res = run("kernels", r);
  EXPECT_EQ(res.total.estimated, 6u);
  EXPECT_TRUE(res.total.exact());
  EXPECT_TRUE(res.hits.empty());
}

// ---- facets and spelling -----------------------------------------------------

TEST_F(SearcherTest, FacetsCountTheWholeMatchSet) {
  SearchRequest r;
  r.limit = 1;
  r.facets = {FacetKind::kCategory, FacetKind::kAuthor, FacetKind::kFeed, FacetKind::kMonth};
  auto res = run("kernels", r);
  ASSERT_EQ(res.hits.size(), 1u);
  ASSERT_EQ(res.facets.size(), 4u);
  auto find = [](const Facet& f, const std::string& value) -> const FacetValue* {
    for (const auto& v : f.values)
      if (v.value == value) return &v;
    return nullptr;
  };
  EXPECT_EQ(res.facets[0].kind, FacetKind::kCategory);
  ASSERT_TRUE(find(res.facets[0], "pytorch conference"));
  EXPECT_EQ(find(res.facets[0], "pytorch conference")->label, "PyTorch Conference");
  EXPECT_EQ(find(res.facets[0], "ünicode tests")->label, "Ünicode Tests");
  EXPECT_EQ(res.facets[0].values.size(), 8u);
  ASSERT_TRUE(find(res.facets[1], "alice example"));
  EXPECT_EQ(find(res.facets[1], "alice example")->count, 2u);
  EXPECT_EQ(res.facets[1].values[0].label, "Alice Example");  // biggest first
  EXPECT_EQ(find(res.facets[2], "pytorch")->count, 4u);
  EXPECT_EQ(find(res.facets[2], "go")->label, "The Go Blog");
  EXPECT_EQ(res.facets[3].values[0].value, "2026-10");  // newest month first
  EXPECT_EQ(find(res.facets[3], "2026-09")->count, 2u);
  EXPECT_FALSE(find(res.facets[3], "2026-08"));  // "near" does not mention kernels
}

TEST_F(SearcherTest, SpellingSuggestion) {
  auto res = run("distribted trainng");
  EXPECT_EQ(res.suggestion, "distributed training");
  EXPECT_TRUE(run("distributed training").suggestion.empty());
  // A correction that finds nothing either is not offered.
  EXPECT_TRUE(run("distribted trainng qqzzxxvv").suggestion.empty());
}

// A database of its own posts, for tests whose posts would change what the
// shared fixture's tests expect.
class OwnDatabase {
 public:
  explicit OwnDatabase(const std::vector<TestPost>& posts) {
    char tmpl[] = "/tmp/query_test_own.XXXXXX";
    dir_ = mkdtemp(tmpl);
    Xapian::WritableDatabase db(path(), Xapian::DB_CREATE_OR_OPEN);
    db.set_metadata(schema::kMetaSchemaVersion, std::to_string(schema::kSchemaVersion));
    for (const auto& p : posts) add_post(db, p);
    db.commit();
  }
  ~OwnDatabase() { fs::remove_all(dir_); }
  std::string path() const { return dir_ + "/db"; }
  SearchResult run(const std::string& text, SearchRequest request = {}) const {
    request.query.text = text;
    return Searcher(path()).search(request);
  }
  std::vector<std::string> ids(const std::string& text, SearchRequest request = {}) const {
    std::vector<std::string> out;
    for (const auto& hit : run(text, request).hits) out.push_back(hit.post->id);
    return out;
  }

 private:
  std::string dir_;
};

TEST_F(SearcherTest, CapitalisedWordsAreStemmed) {
  // A phone keyboard capitalises the first word; a pasted title most words.
  EXPECT_EQ(id_set("Compiles"), id_set("compiles"));
  EXPECT_EQ(id_set("Compiles"), (Ids{"compile", "kernels-body", "go"}));
  EXPECT_EQ(id_set("Compiling Kernels"), id_set("compiling kernels"));
  EXPECT_EQ(id_set("Generics OR Community"), (Ids{"go", "conference"}));
  // Operators stay operators, phrases stay exact.
  EXPECT_EQ(id_set("Kernels NOT Training"), (Ids{"compile", "kernels-body", "go", "unicode"}));
  EXPECT_EQ(id_set("\"Distributed Data Parallel\""), Ids{"near"});
  EXPECT_EQ(id_set("\"Distributed Data Parallels\""), Ids{});
}

TEST_F(SearcherTest, OnlyNegationsMeanAllPostsExcept) {
  Ids all;
  for (const auto& p : test_posts()) all.insert(p.id);
  SearchRequest r;
  r.limit = 100;
  Ids without = all;
  for (const auto& id : id_set("kernels", r)) without.erase(id);
  EXPECT_EQ(id_set("-kernels", r), without);
  EXPECT_EQ(id_set("-kernels", r), id_set("NOT kernels", r));
  for (const auto& id : id_set("election", r)) without.erase(id);
  EXPECT_EQ(id_set("-kernels -election", r), without);
  EXPECT_EQ(id_set("-kernels -election", r), (Ids{"near"}));
  EXPECT_EQ(run("-kernels", r).total.estimated, without.size() + 2);  // + the two election posts
}

TEST_F(SearcherTest, UnparsableNegationsAreSearchedAsWords) {
  // The query fuzzer's find: "-a..b" parses neither as a range nor, with
  // its '-' taken off, as the words to exclude; it excludes the words.
  SearchRequest r;
  r.limit = 100;
  SearchResult res;
  ASSERT_NO_THROW(res = run("-kernels..training", r));
  EXPECT_FALSE(res.searched_as_words.empty());
  Ids ids;
  for (const auto& hit : res.hits) ids.insert(hit.post->id);
  EXPECT_EQ(ids, id_set("-kernels -training", r));
  const char fuzzed[] = "-O+DDDDD\0\0a\x10\0?\x1c\x80" "DDDD..\xd9\x8d\xa5\x86OO";
  EXPECT_NO_THROW(run(std::string(fuzzed, sizeof fuzzed - 1), r));
}

TEST_F(SearcherTest, UnparsableTextWithoutOperatorsIsSearchedAsWords) {
  // Xapian reads "..." as a range; a pasted title must still search.
  for (const char* q : {"Compiling models... with torch", "Models...compiling?", "compiling.. models"}) {
    SearchResult res;
    ASSERT_NO_THROW(res = run(q)) << q;
    EXPECT_FALSE(res.searched_as_words.empty()) << q;
    ASSERT_FALSE(res.hits.empty()) << q;
    EXPECT_EQ(res.hits[0].post->id, "compile") << q;
    const auto json = result_to_json(res, JsonOptions{});
    EXPECT_EQ(json["searched_as_words"], res.searched_as_words);
  }
  EXPECT_TRUE(run("compiling models").searched_as_words.empty());
  EXPECT_TRUE(result_to_json(run("compiling models"), JsonOptions{})["searched_as_words"].is_null());
  // With an operator the error and its caret stay.
  try {
    run("kernels... AND");
    FAIL() << "no error";
  } catch (const QueryError& e) {
    EXPECT_EQ(e.column(), 12u) << e.what();
  }
}

TEST_F(SearcherTest, BadDateCaretPointsAtTheBadToken) {
  // The "9" of "2019" comes first in the text; the caret marks the range's end.
  struct Case {
    const char* query;
    std::size_t column;
  } cases[] = {{"kernels 2019 date:2026..9", 25}, {"9 date:9", 8}, {"2026-13 date:2026-13..", 14},
               {"x date:2026..date:13", 14}};
  for (const auto& c : cases) {
    try {
      run(c.query);
      ADD_FAILURE() << c.query << ": no error";
    } catch (const QueryError& e) {
      EXPECT_EQ(e.column(), c.column) << c.query << ": " << e.what();
    }
  }
}

TEST_F(SearcherTest, HugeOffsetsDoNotWrap) {
  SearchRequest r;
  r.offset = std::numeric_limits<unsigned>::max();
  SearchResult res;
  ASSERT_NO_THROW(res = run("kernels", r));
  EXPECT_TRUE(res.hits.empty());
  EXPECT_EQ(res.total.estimated, 6u);
  std::ostringstream text;
  write_text(text, res, TextStyle{false});
  EXPECT_NE(text.str().find("none from result 4,294,967,296 on"), std::string::npos) << text.str();
}

TEST_F(SearcherTest, CountsAreExactUpToTheBound) {
  // Not "about 1" with --limit 1: a few matches are counted, not estimated.
  SearchRequest r;
  r.limit = 1;
  for (const char* q : {"kernels", "\"distributed training\"", "kernels -training", "date:2026"}) {
    const auto res = run(q, r);
    EXPECT_TRUE(res.total.exact()) << q;
    r.limit = 100;
    EXPECT_EQ(res.total.estimated, run(q, r).hits.size()) << q;
    r.limit = 1;
  }
  std::ostringstream text;
  write_text(text, run("kernels", r), TextStyle{false});
  EXPECT_EQ(text.str().find("About"), std::string::npos) << text.str();
}

TEST(SearcherRanking, ExactTitleRanksItsPostFirst) {
  std::string often;
  for (int i = 0; i < 40; ++i) often += "the api returns the api key of the api user; ";
  std::vector<TestPost> posts = {
      {"api", "Api", "A short post about an interface.", {"A"}, {}, "x", "", at("2020-01-01")},
      {"api-long", "Designing an API", often, {"B"}, {}, "x", "", at("2021-01-01")},
      {"api-new", "Api keys", often, {"C"}, {}, "x", "", at("2022-01-01")},
      {"nix", "Nix Remote Builders", "Build on other machines.", {"D"}, {}, "x", "", at("2020-01-01")},
      {"nix-ssh", "Nix Remote Builders on non-standard OpenSSH ports",
       "Nix remote builders, remote builders of Nix, over OpenSSH.", {"D"}, {}, "x", "", at("2022-01-01")},
      {"dots", "Wait...what?", "A post with dots in its title.", {"E"}, {}, "x", "", at("2020-01-01")},
      {"wait", "Waiting for what", "wait what wait what wait what", {"E"}, {}, "x", "", at("2022-01-01")},
  };
  OwnDatabase db(posts);
  EXPECT_EQ(db.ids("Api")[0], "api");
  EXPECT_EQ(db.ids("api")[0], "api");
  EXPECT_EQ(db.ids("Nix Remote Builders")[0], "nix");
  EXPECT_EQ(db.ids("nix remote builders")[0], "nix");
  EXPECT_EQ(db.ids("Wait...what?")[0], "dots");
  EXPECT_EQ(db.ids("“Nix Remote Builders”")[0], "nix");
  // The boost ranks, it does not match: "-api" still excludes, and syntax
  // (a field, a sign) means the query is not a pasted title.
  EXPECT_EQ(db.ids("-api").size(), 4u);
  EXPECT_EQ(db.ids("+Api")[0], "api-new");
  // The recency boost is scaled to the query's words, not to the title boost.
  SearchRequest recent;
  recent.sort = SortOrder::kRecent;
  EXPECT_EQ(db.ids("Api", recent)[0], "api");
}

TEST(SearcherSpelling, RareValidWordsAreNotCorrected) {
  std::vector<TestPost> posts;
  for (int i = 0; i < 30; ++i)
    posts.push_back({"html" + std::to_string(i), "Post " + std::to_string(i), "html markup and css", {"A"}, {},
                     "x", "", at("2020-01-01") + i});
  posts.push_back({"htmx1", "One", "htmx swaps html", {"A"}, {}, "x", "", at("2021-01-01")});
  posts.push_back({"htmx2", "Two", "htmx again", {"A"}, {}, "x", "", at("2021-01-02")});
  posts.push_back({"typo", "Three", "a htnl typo", {"A"}, {}, "x", "", at("2021-01-03")});
  OwnDatabase db(posts);
  EXPECT_EQ(db.run("htmx").suggestion, "");   // in two posts: a word, not a typo
  EXPECT_EQ(db.run("htnl").suggestion, "html");  // in one post, html in thirty
  EXPECT_EQ(db.run("htmlx").suggestion, "html");  // in none
  EXPECT_EQ(db.run("htmx htmlx").suggestion, "htmx html");  // only the typo is corrected
}

TEST(SearcherSpelling, AShortWordIsCorrectedOnlyOneEditAway) {
  std::vector<TestPost> posts;
  for (int i = 0; i < 30; ++i)
    posts.push_back({"def" + std::to_string(i), "Post " + std::to_string(i), "def main returns a value",
                     {"A"}, {}, "x", "", at("2020-01-01") + i});
  OwnDatabase db(posts);
  EXPECT_EQ(db.run("deff").suggestion, "def");     // one edit
  EXPECT_EQ(db.run("diff").suggestion, "");        // two edits in four letters: no typo of "def"
  EXPECT_EQ(db.run("retruns").suggestion, "returns");  // a longer word may take two
  EXPECT_EQ(db.run("diff OR deff").suggestion, "diff OR def");
}

// ---- caches of a long-running searcher --------------------------------------

// Everything a result says, for comparing two searches (elapsed_ms aside).
std::string everything(const SearchResult& r) {
  nlohmann::json j = result_to_json(r, JsonOptions{});
  j.erase("elapsed_ms");
  for (const auto& hit : r.hits) j["texts"].push_back(hit.post->text);
  return j.dump();
}

TEST_F(SearcherTest, CachesChangeNoResult) {
  Searcher plain(db_path_);
  SearcherOptions options;
  options.cache_bytes = 1 << 20;
  Searcher cached(db_path_, options);
  // "" with a filter: every match weighs 0, so the order is all tie-breaks.
  for (const char* q : {"kernels", "go", "köln OR straße", "emoji", "ampersands", "title:kernels", "kern*", ""}) {
    for (SortOrder sort : {SortOrder::kRelevance, SortOrder::kDate, SortOrder::kRecent}) {
      for (bool reverse_or_text : {false, true}) {
        SearchRequest r;
        r.query.text = q;
        if (!*q) r.query.filters.since = at("2000-01-01");
        r.facets = {FacetKind::kCategory, FacetKind::kAuthor, FacetKind::kFeed, FacetKind::kMonth};
        r.sort = sort;
        r.reverse = sort == SortOrder::kDate && reverse_or_text;
        r.with_text = sort != SortOrder::kDate && reverse_or_text;
        r.limit = 4;
        const std::string want = everything(plain.search(r));
        // Twice: the first search fills the caches, the second reads them.
        EXPECT_EQ(everything(cached.search(r)), want) << q;
        EXPECT_EQ(everything(cached.search(r)), want) << q << " (from the caches)";
        r.offset = 4;
        EXPECT_EQ(everything(cached.search(r)), everything(plain.search(r))) << q << " (page 2)";
      }
    }
  }
}

TEST_F(SearcherTest, QueryBuilderReusedBuildsWhatANewOneBuilds) {
  Xapian::Database db(db_path_);
  QueryBuilder builder(db);
  // Errors in between must leave nothing behind for the next query.
  for (const char* text : {"kernels", "date:2026-13", "kernels", "pytorch AND", "title:kernels compil*",
                           "date:2026..2025-13 go", "köln OR straße", "\"prompt injection\" -go", "kernels"}) {
    for (bool spelling : {false, true}) {
      QueryOptions options;
      options.text = text;
      options.spelling = spelling;
      auto describe = [&](const std::function<BuiltQuery()>& build) {
        try {
          BuiltQuery b = build();
          return b.query.get_description() + " | " + b.suggestion;
        } catch (const QueryError& e) {
          return std::string("error: ") + e.what();
        }
      };
      EXPECT_EQ(describe([&] { return builder.build(options); }), describe([&] { return build_query(db, options); }))
          << text;
    }
  }
}

TEST_F(SearcherTest, DocCacheKeepsWithinItsBudget) {
  Xapian::Database db(db_path_);
  const Xapian::docid last = db.get_lastdocid();
  ASSERT_GE(last, 4u);
  FeedNames names({db});
  // Room for about two of the fixture's posts.
  std::size_t one = 0;
  {
    DocCache probe(std::size_t{1} << 20);
    probe.get(db, 1, names);
    one = probe.bytes();
  }
  ASSERT_GT(one, 0u);
  DocCache cache(one * 5 / 2);
  std::shared_ptr<const DocCache::Entry> first;
  for (Xapian::docid did = 1; did <= last; ++did) {
    auto entry = cache.get(db, did, names);
    if (did == 1) first = entry;
    const Xapian::Document doc = db.get_document(did);
    const PostRecord want = read_post_record(doc, true);
    EXPECT_EQ(entry->record.id, want.id);
    EXPECT_EQ(entry->record.title, want.title);
    EXPECT_EQ(entry->text, want.text);
    EXPECT_TRUE(entry->record.text.empty());
    EXPECT_LE(cache.bytes(), one * 5 / 2);
  }
  EXPECT_LT(cache.size(), static_cast<std::size_t>(last));
  EXPECT_GE(cache.size(), 1u);
  // The most recently used post is kept: asking again returns the same entry.
  auto newest = cache.get(db, last, names);
  EXPECT_EQ(cache.get(db, last, names).get(), newest.get());
  // The least recently used was dropped: asking again reads it anew.
  EXPECT_NE(cache.get(db, 1, names).get(), first.get());
  // A budget smaller than any post keeps nothing and still answers.
  DocCache tiny(1);
  EXPECT_EQ(tiny.get(db, 1, names)->record.id, first->record.id);
  EXPECT_EQ(tiny.size(), 0u);
}

// ---- snippets and formatters ---------------------------------------------------

using blogsearch::test_util::valid_utf8;

TEST_F(SearcherTest, SnippetsMarkMatchesAndEscapeNothing) {
  auto res = run("ampersands");
  ASSERT_EQ(res.hits.size(), 1u);
  const auto& parts = res.hits[0].snippet;
  std::string joined;
  int matches = 0;
  for (const auto& p : parts) {
    joined += p.text;
    if (p.match) {
      ++matches;
      EXPECT_EQ(p.text, "ampersands");
    }
  }
  EXPECT_EQ(matches, 1);
  // The stored text is plain: its markup-like characters come back as typed.
  EXPECT_NE(joined.find("<b>bold</b> & ampersands &amp; entities"), std::string::npos) << joined;
  EXPECT_TRUE(valid_utf8(joined));
}

TEST_F(SearcherTest, SnippetsNeverBreakUtf8) {
  SearchRequest r;
  for (unsigned len : {5u, 17u, 23u, 40u, 61u, 90u}) {
    r.snippet_length = len;
    for (const char* q : {"kernels", "köln", "straße", "emoji"}) {
      for (const auto& hit : run(q, r).hits) {
        std::string all;
        for (const auto& p : hit.snippet) {
          EXPECT_TRUE(valid_utf8(p.text)) << q << " " << len;
          all += p.text;
        }
        EXPECT_TRUE(valid_utf8(clean_line(all)));
      }
    }
  }
}

TEST_F(SearcherTest, TextOutputHighlightsOnlyWhenAsked) {
  auto res = run("ampersands");
  std::ostringstream plain, bold;
  write_text(plain, res, TextStyle{false});
  write_text(bold, res, TextStyle{true});
  EXPECT_EQ(plain.str().find('\x1b'), std::string::npos);
  EXPECT_NE(bold.str().find("\x1b[1mampersands\x1b[0m"), std::string::npos) << bold.str();
  EXPECT_NE(plain.str().find("1 result ("), std::string::npos) << plain.str();
  EXPECT_NE(plain.str().find("2026-01-15 · Zoë Ünicode · Ünicode Tests · misc blog"), std::string::npos)
      << plain.str();
  EXPECT_NE(plain.str().find("https://www.example.org/unicode"), std::string::npos);
  EXPECT_NE(plain.str().find("<b>bold</b> & ampersands &amp;"), std::string::npos);
}

TEST(TextFormat, CleanLineDropsControlsAndKeepsUtf8) {
  EXPECT_EQ(clean_line("a\x1b[31mred\x1b[0m\tb\nc"), "a [31mred [0m b c");
  EXPECT_EQ(clean_line("  café  \r\n"), "café");
  EXPECT_EQ(clean_line("one two  three \x07" "four five "), "one two three four five");
  EXPECT_EQ(clean_line(" a b"), "a b");
  EXPECT_EQ(clean_block("a b\n c  d e\x01 f"), "a b\n c  d e  f");
  std::string invalid = "ok \xff\xfe end";
  EXPECT_TRUE(valid_utf8(clean_line(invalid)));
  EXPECT_EQ(clean_block("line1\nline2\x07"), "line1\nline2");
}

TEST_F(SearcherTest, JsonHasTheDocumentedShape) {
  SearchRequest r;
  r.facets = {FacetKind::kCategory, FacetKind::kMonth};
  r.limit = 2;
  auto j = result_to_json(run("kernels", r), JsonOptions{});
  // Round-trip through the serialiser as a consumer would see it.
  j = nlohmann::json::parse(dump_json(j, false));
  for (const char* key : {"query", "parsed_query", "sort", "reverse", "total", "offset", "limit",
                          "results", "facets", "suggestion", "any_word", "unknown_filters", "elapsed_ms", "partial"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["query"], "kernels");
  EXPECT_TRUE(j["parsed_query"].get<std::string>().find("kernel") != std::string::npos);
  EXPECT_EQ(j["sort"], "relevance");
  EXPECT_EQ(j["total"]["estimated"], 6);
  EXPECT_EQ(j["total"]["exact"], true);
  EXPECT_TRUE(j["total"]["lower_bound"].is_number_unsigned());
  EXPECT_TRUE(j["total"]["upper_bound"].is_number_unsigned());
  EXPECT_EQ(j["limit"], 2);
  EXPECT_TRUE(j["suggestion"].is_null());
  EXPECT_TRUE(j["elapsed_ms"].is_number());
  ASSERT_EQ(j["results"].size(), 2u);
  const auto& first = j["results"][0];
  for (const char* key : {"rank", "percent", "weight", "docid", "id", "link", "title", "authors",
                          "categories", "feed", "feeds", "published", "updated", "first_seen",
                          "last_seen", "last_change", "versions", "in_feed", "no_text", "summary",
                          "content_hash", "snapshot", "snippet", "snippet_parts"})
    EXPECT_TRUE(first.contains(key)) << key;
  EXPECT_FALSE(first.contains("text"));
  EXPECT_FALSE(first.contains("history"));  // issue 15 point 12: only with --history
  EXPECT_EQ(first["rank"], 1);
  EXPECT_TRUE(first["updated"].is_null());
  EXPECT_TRUE(first["feed"]["id"].is_string());
  EXPECT_TRUE(first["snippet_parts"][0]["match"].is_boolean());
  EXPECT_TRUE(j["facets"]["category"][0].contains("label"));
  EXPECT_TRUE(j["facets"]["month"][0]["count"].is_number_unsigned());
  EXPECT_TRUE(result_to_json(run("kernels", r), JsonOptions{true})["results"][0].contains("text"));
}

// ---- posts and databases -----------------------------------------------------

TEST_F(SearcherTest, FindPostByIdOrLink) {
  Searcher s(db_path_);
  auto by_id = s.find_post("conference");
  ASSERT_TRUE(by_id);
  EXPECT_EQ(by_id->title, "PyTorch Conference 2026 recap");
  EXPECT_EQ(by_id->authors, (std::vector<std::string>{"Bob Writer", "Alice Example"}));
  auto by_link = s.find_post("https://go.dev/blog/generics");
  ASSERT_TRUE(by_link);
  EXPECT_EQ(by_link->id, "go");
  EXPECT_FALSE(s.find_post("https://go.dev/blog/nothing"));
  EXPECT_FALSE(s.find_post("nothing"));
  // Issue 15 point 11: links as people type them.
  for (const char* typed : {"http://go.dev/blog/generics", "https://www.go.dev/blog/generics/",
                            "https://GO.dev/blog/generics#top", "https://go.dev:443/blog/generics?utm_source=x"}) {
    auto found = s.find_post(typed);
    ASSERT_TRUE(found) << typed;
    EXPECT_EQ(found->id, "go") << typed;
  }
  EXPECT_FALSE(s.find_post("https://go.dev/blog/Generics"));  // the path's case counts
  std::ostringstream out;
  write_post_text(out, *by_id);
  EXPECT_NE(out.str().find("in feed:      yes"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("Talks about distributed training"), std::string::npos);
}

// A query that is a pasted link finds the post of that link, however the
// link is written, within the filters; a link of no post is searched as
// words.
TEST_F(SearcherTest, APastedLinkFindsItsPost) {
  for (const char* typed : {"https://go.dev/blog/generics", " http://www.go.dev/blog/generics/ ",
                            "go.dev/blog/generics", "HTTPS://GO.dev/blog/generics?utm_source=x#top"}) {
    const SearchResult r = run(typed);
    ASSERT_EQ(r.hits.size(), 1u) << typed;
    EXPECT_EQ(r.hits[0].post->id, "go") << typed;
    EXPECT_EQ(r.total.estimated, 1u) << typed;
    EXPECT_EQ(r.query, typed);
  }
  SearchRequest other_feed;
  other_feed.query.filters.feeds = {"nowhere"};
  EXPECT_TRUE(ids("https://go.dev/blog/generics", other_feed).empty());
  EXPECT_TRUE(ids("https://go.dev/blog/nothing").empty());
  // Words with a slash or a dot are words.
  EXPECT_EQ(id_set("go.dev/blog/generics kernels"), id_set("go dev blog generics kernels"));
}

// Finding a pasted link's post through its host's posts reads their
// records: past 5,000 posts on the host, only a post whose id is the link
// as pasted is found by it, and the others' links are searched as words.
TEST(SearcherPastedLink, ABigHostIsNotReadThrough) {
  char tmpl[] = "/tmp/query_test_link.XXXXXX";
  const std::string dir = mkdtemp(tmpl);
  {
    Xapian::WritableDatabase db(dir + "/db", Xapian::DB_CREATE_OR_OPEN);
    db.set_metadata(schema::kMetaSchemaVersion, std::to_string(schema::kSchemaVersion));
    for (int i = 0; i < 5001; ++i) {
      TestPost p{"big-" + std::to_string(i), "Post " + std::to_string(i), "Words.", {}, {}, "big"};
      p.link = "https://big.example.org/post/" + std::to_string(i);
      add_post(db, p);
    }
    TestPost own{"https://big.example.org/own", "Own", "Words.", {}, {}, "big"};
    own.link = own.id;
    add_post(db, own);
    db.commit();
  }
  Searcher s(dir + "/db");
  SearchRequest r;
  r.query.text = "https://big.example.org/own";
  SearchResult found = s.search(r);
  ASSERT_EQ(found.hits.size(), 1u);
  EXPECT_EQ(found.hits[0].post->id, "https://big.example.org/own");
  r.query.text = "https://big.example.org/post/7";
  EXPECT_EQ(s.search(r).parsed_query.find("Qbig-7"), std::string::npos);
  ASSERT_TRUE(s.find_post(r.query.text));  // `show URL` still reads them all
  EXPECT_EQ(s.find_post(r.query.text)->id, "big-7");
  fs::remove_all(dir);
}

TEST(SearcherDatabase, MissingDatabaseNamesPathAndFix) {
  try {
    Searcher s("/nonexistent/blogsearch-db");
    FAIL() << "opened";
  } catch (const DatabaseUnavailable& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("/nonexistent/blogsearch-db"), std::string::npos);
    EXPECT_NE(m.find("blogsearch-index add --db /nonexistent/blogsearch-db"), std::string::npos);
  }
  char tmpl[] = "/tmp/query_test_empty.XXXXXX";
  std::string dir = mkdtemp(tmpl);
  EXPECT_THROW(Searcher s(dir), DatabaseUnavailable);  // a directory, but no database
  fs::remove_all(dir);
}

TEST(SearcherDatabase, OtherSchemaVersionIsRefused) {
  char tmpl[] = "/tmp/query_test_ver.XXXXXX";
  std::string dir = mkdtemp(tmpl);
  {
    Xapian::WritableDatabase db(dir + "/db", Xapian::DB_CREATE_OR_OPEN);
    db.set_metadata(schema::kMetaSchemaVersion, "999");
    db.commit();
  }
  try {
    Searcher s(dir + "/db");
    FAIL() << "opened";
  } catch (const DatabaseUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find("schema version 999"), std::string::npos);
  }
  fs::remove_all(dir);
}

TEST(SearcherDatabase, SearchesSurviveCommitsWhileOpen) {
  char tmpl[] = "/tmp/query_test_mod.XXXXXX";
  std::string dir = mkdtemp(tmpl);
  const std::string path = dir + "/db";
  Xapian::WritableDatabase db(path, Xapian::DB_CREATE_OR_OPEN);
  auto write_all = [&db](int round) {
    for (int i = 0; i < 400; ++i) {
      TestPost p{"p" + std::to_string(i), "kernels " + std::to_string(round),
                 "kernels round" + std::to_string(round) + " word" + std::to_string(i * 7 + round) +
                     " " + std::string(100, 'x'),
                 {"A"}, {"C"}, "f", "", at("2026-01-01") + i};
      add_post(db, p);
    }
    db.commit();
  };
  write_all(0);
  Searcher searcher(path);
  SearchRequest r;
  r.query.text = "kernels";
  r.limit = 5;
  EXPECT_EQ(searcher.search(r).total.estimated, 400u);
  // Rewrite every post several times so that the blocks of the revision the
  // searcher has open are reused: reading them then throws
  // Xapian::DatabaseModifiedError, which the searcher must absorb by
  // reopening. The last round's words prove it reads the new revision.
  for (int round = 1; round <= 4; ++round) write_all(round);
  r.query.text = "round4";
  r.facets = {FacetKind::kMonth};
  SearchResult res;
  ASSERT_NO_THROW(res = searcher.search(r));
  EXPECT_EQ(res.total.estimated, 400u);
  fs::remove_all(dir);
}

// Databases that the real writer builds from data/ in a directory of their
// own (path_), removed after the test.
class SearcherOnWriter : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(data_ + "/pytorch")) GTEST_SKIP() << "no sample snapshots in " << data_;
    char tmpl[] = "/tmp/query_test_writer.XXXXXX";
    dir_ = mkdtemp(tmpl);
    path_ = dir_ + "/db";
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  // The snapshots under data/`sub`.
  std::vector<Snapshot> snapshots(const std::string& sub) {
    std::vector<std::string> errors;
    auto found = collect_snapshots({data_ + sub}, "", errors);
    EXPECT_TRUE(errors.empty()) << errors[0];
    return found;
  }

  const std::string data_ = std::string(BLOGSEARCH_SOURCE_DIR) + "/data";
  std::string dir_, path_;
};

// The contract with the real writer: data/ indexed by Writer::ingest is
// found through every field the searcher relies on.
TEST_F(SearcherOnWriter, SampleDataIsFoundByEveryField) {
  Writer(path_).ingest(snapshots(""));
  Searcher s(path_);
  auto search = [&s](const std::string& text, SearchRequest r = {}) {
    r.query.text = text;
    return s.search(r);
  };
  const std::string title = "Autotuning Custom Kernels with Helion";
  auto res = search(title);
  ASSERT_FALSE(res.hits.empty());
  const PostRecord& post = *res.hits[0].post;
  EXPECT_EQ(post.title, title);
  ASSERT_FALSE(post.categories.empty());
  ASSERT_FALSE(post.authors.empty());
  EXPECT_EQ(post.feed_id, "pytorch");

  auto finds_it = [&](const std::string& text, SearchRequest r = {}) {
    r.limit = kMaxLimit;
    for (const auto& hit : search(text, r).hits)
      if (hit.post->id == post.id) return true;
    return false;
  };
  EXPECT_TRUE(finds_it("category:\"" + schema::lowercase_utf8(post.categories.back()) + "\""));
  EXPECT_TRUE(finds_it("helion feed:PYTORCH site:pytorch.org"));
  EXPECT_TRUE(finds_it("helion date:" + post.published.substr(0, 10)));
  EXPECT_FALSE(finds_it("helion date:..2020"));
  SearchRequest by_author;
  by_author.query.filters.authors = {schema::lowercase_utf8(post.authors[0])};
  EXPECT_TRUE(finds_it("", by_author));
  EXPECT_TRUE(finds_it("author:" + post.authors[0].substr(0, post.authors[0].find(' '))));
  EXPECT_TRUE(finds_it("title:helion"));

  SearchRequest facets;
  facets.facets = {FacetKind::kFeed, FacetKind::kCategory};
  auto f = search("helion", facets);
  ASSERT_EQ(f.facets.size(), 2u);
  ASSERT_FALSE(f.facets[0].values.empty());
  EXPECT_EQ(f.facets[0].values[0].value, "pytorch");
  EXPECT_NE(f.facets[0].values[0].label, "pytorch");  // the feed's title, from metadata

  auto by_link = s.find_post(post.link);
  ASSERT_TRUE(by_link);
  EXPECT_EQ(by_link->id, post.id);
}

// One shard or three: the same posts are found, in the same order, with
// the same weights, counts, facets (feed titles from shard 0's metadata)
// and spelling suggestions (facet labels up to case). Xapian ranks with the statistics of all shards
// together; ties are broken by date and then document id, which differ
// between layouts, so equal weights may come in another order.
TEST_F(SearcherOnWriter, OneShardAndThreeShardsAnswerAlike) {
  std::vector<Snapshot> all = snapshots("");
  std::vector<std::string> errors;
  for (auto& s : collect_snapshots({std::string(BLOGSEARCH_SOURCE_DIR) + "/tests/feeds/languages"}, "", errors))
    all.push_back(std::move(s));
  ASSERT_TRUE(errors.empty()) << errors[0];
  const std::string one = dir_ + "/one", three = dir_ + "/three";
  {
    Writer w1(one, 1);
    w1.ingest(all);
    EXPECT_EQ(w1.shard_count(), 1u);
    Writer w3(three, 3);
    w3.ingest(all);
    EXPECT_EQ(w3.shard_count(), 3u);
  }
  Searcher s1(one), s3(three);
  auto describe = [](const SearchResult& r) {
    std::vector<std::string> lines;
    for (const auto& h : r.hits) {
      char weight[32];
      std::snprintf(weight, sizeof weight, "%.9g", h.weight);
      lines.push_back(std::string(weight) + " " + h.post->id + " " + h.post->feed_title);
    }
    // Equal weights in any order (see above).
    std::sort(lines.begin(), lines.end());
    std::string out = "total " + std::to_string(r.total.estimated) + " suggestion '" + r.suggestion + "'\n";
    for (const auto& l : lines) out += l + "\n";
    for (const auto& f : r.facets)
      // A label written in two ways ("Debugging", "debugging") is the one
      // of the lowest document id, and ids differ between layouts.
      for (const auto& v : f.values)
        out += "facet " + v.value + " " + schema::lowercase_utf8(v.label) + " " + std::to_string(v.count) + "\n";
    return out;
  };
  std::size_t with_hits = 0;
  for (const std::string q : {"pytorch", "the", "kernel", "\"custom kernels\"", "title:helion", "pytroch",
                              "feed:pytorch", "category:blog", "sprache", "politik", "author:mitchell", "date:2026",
                              "notes OR digest"}) {
    SearchRequest r;
    r.query.text = q;
    r.limit = kMaxLimit;
    r.exact_count = true;
    r.facets = {FacetKind::kFeed, FacetKind::kCategory, FacetKind::kAuthor, FacetKind::kMonth};
    const SearchResult a = s1.search(r), b = s3.search(r);
    EXPECT_EQ(describe(a), describe(b)) << q;
    if (!a.hits.empty()) ++with_hits;
  }
  EXPECT_GE(with_hits, 10u);  // the queries find something to compare
}

// Xapian 1.4.22 crashes on XOR over several shards once every term of the
// XOR has ended in a shard that is not the last (the query fuzzer found
// "bilen XOR author:"): such a query is refused there with a QueryError
// that says how to write it, and still answered over one shard.
TEST_F(SearcherOnWriter, XorIsRefusedOverSeveralShardsAndAnsweredOverOne) {
  const std::string one = dir_ + "/one", two = dir_ + "/two";
  {
    Writer(one, 1).ingest(snapshots(""));
    Writer(two, 2).ingest(snapshots(""));
  }
  Searcher s1(one), s2(two);
  for (const std::string q : {"bilen XOR author:", "kernels XOR training", "(zzzz XOR yyyy) OR kernels"}) {
    SearchRequest r;
    r.query.text = q;
    EXPECT_NO_THROW(s1.search(r)) << q;
    try {
      s2.search(r);
      ADD_FAILURE() << q << ": no QueryError over 2 shards";
    } catch (const QueryError& e) {
      EXPECT_NE(std::string(e.what()).find("(a OR b) NOT (a AND b)"), std::string::npos) << e.what();
    }
  }
  SearchRequest plain;
  plain.query.text = "kernels OR training";
  EXPECT_FALSE(s2.search(plain).hits.empty());
}

TEST_F(SearcherOnWriter, ReopenFollowsARebuild) {
  Writer(path_).ingest(snapshots(""));
  Searcher s(path_);
  SearchRequest r;
  r.query.filters.since = 0;
  r.exact_count = true;
  const auto before = s.search(r).total.estimated;
  // A rebuild from the PyTorch snapshots only switches the XAPIANDB stub
  // to a new, smaller generation.
  rebuild_database(path_, snapshots("/pytorch"));
  s.reopen();
  const auto after = s.search(r).total.estimated;
  EXPECT_GT(before, after);
  EXPECT_GT(after, 0u);
  r.query.filters.feeds = {"tensor-notes"};
  EXPECT_EQ(s.search(r).total.estimated, 0u);
}

// A database of an older schema version is refused by searches and by
// `add`, and brought up to date by a rebuild from the snapshots.
TEST_F(SearcherOnWriter, RebuildUpgradesAnOlderSchemaVersion) {
  const auto pytorch = snapshots("/pytorch");
  {
    Writer writer(path_);
    writer.ingest(pytorch);
    writer.database().set_metadata(schema::kMetaSchemaVersion, "2");
    writer.database().commit();
  }
  EXPECT_THROW(Searcher{path_}, SchemaMismatch);
  EXPECT_THROW(Writer{path_}, DatabaseError);
  EXPECT_THROW(Writer(path_, Writer::AnySchema{}).ingest(pytorch), DatabaseError);
  rebuild_database(path_, pytorch);
  Searcher s(path_);
  SearchRequest r;
  r.query.filters.since = 0;
  r.exact_count = true;
  EXPECT_GT(s.search(r).total.estimated, 0u);
  EXPECT_EQ(Xapian::Database(path_).get_metadata(schema::kMetaSchemaVersion),
            std::to_string(schema::kSchemaVersion));
}

// ---- facets past the bound ----------------------------------------------
// 2,000 posts in four feeds of 500, indexed feed after feed as fetches do;
// half "even", half "odd" (alternating: periodic in docid order), one in
// 100 also "rare". Every post has the word "common".
class BoundedFacetsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    char tmpl[] = "/tmp/query_bound_test.XXXXXX";
    dir_ = mkdtemp(tmpl);
    Xapian::WritableDatabase db(dir_ + "/db", Xapian::DB_CREATE_OR_OPEN);
    db.set_metadata(schema::kMetaSchemaVersion, std::to_string(schema::kSchemaVersion));
    for (int i = 0; i < 2000; ++i) {
      // "rare phrase" as a phrase in one post in 7, "blue sky" in two in 3,
      // their words in all.
      const std::string text = std::string("common words in a post: ") + (i % 7 ? "phrase rare" : "rare phrase") +
                               (i % 3 ? ". blue sky" : ". sky blue");
      TestPost p{"p" + std::to_string(i), "Post " + std::to_string(i), text, {"Ann Author"},
                 {i % 2 ? "Odd" : "Even"}, "f" + std::to_string(i / 500), "", at("2026-01-01") + 3600 * i};
      if (i % 100 == 0) p.categories.push_back("Rare");
      add_post(db, p);
    }
    db.commit();
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }

  SearchResult run(Xapian::doccount bound, std::size_t cache_bytes = 0, const std::string& query = "common") {
    SearchRequest r;
    r.query.text = query;
    r.facets = {FacetKind::kCategory, FacetKind::kFeed};
    r.facet_bound = bound;
    SearcherOptions options;
    options.cache_bytes = cache_bytes;
    Searcher searcher(dir_ + "/db", options);
    return searcher.search(r);
  }
  static std::map<std::string, Xapian::doccount> counts(const Facet& f) {
    std::map<std::string, Xapian::doccount> out;
    for (const auto& v : f.values) out[v.value] = v.count;
    return out;
  }
  static std::string dir_;
};
std::string BoundedFacetsTest::dir_;

TEST_F(BoundedFacetsTest, ExactUpToTheBound) {
  for (Xapian::doccount bound : {2000u, 5000u}) {
    SearchResult r = run(bound);
    EXPECT_FALSE(r.facet_counting.estimated) << bound;
    EXPECT_EQ(r.facet_counting.stride, 1u);
    EXPECT_EQ(r.total.estimated, 2000u);
    EXPECT_TRUE(r.total.exact());
    auto category = counts(r.facets[0]);
    EXPECT_EQ(category["even"], 1000u);
    EXPECT_EQ(category["odd"], 1000u);
    EXPECT_EQ(category["rare"], 20u);
    auto feed = counts(r.facets[1]);
    for (const char* f : {"f0", "f1", "f2", "f3"}) EXPECT_EQ(feed[f], 500u) << f;
  }
}

TEST_F(BoundedFacetsTest, PastTheBoundEstimatedFromASampleOfAboutTheBound) {
  SearchResult r = run(200);
  ASSERT_TRUE(r.facet_counting.estimated);
  EXPECT_EQ(r.facet_counting.stride, 10u);
  // About 200 of the 2,000 matches counted, not all of them.
  EXPECT_GT(r.facet_counting.sampled, 120u);
  EXPECT_LT(r.facet_counting.sampled, 280u);
  // The sample is spread over the whole database (every feed, both halves
  // of the alternating categories, whatever the docid pattern), and the
  // counts are scaled to the whole match set.
  auto category = counts(r.facets[0]);
  auto feed = counts(r.facets[1]);
  for (const char* c : {"even", "odd"}) {
    EXPECT_GT(category[c], 750u) << c;
    EXPECT_LT(category[c], 1250u) << c;
  }
  for (const char* f : {"f0", "f1", "f2", "f3"}) {
    EXPECT_GT(feed[f], 350u) << f;
    EXPECT_LT(feed[f], 650u) << f;
  }
  Xapian::doccount sum = 0;
  for (const auto& [name, n] : feed) sum += n;
  EXPECT_EQ(sum, r.facet_counting.sampled * r.facet_counting.stride);
  // The same sample every time, and from the FacetTable of a long-running
  // searcher too.
  SearchResult again = run(200, 1 << 20);
  EXPECT_EQ(counts(again.facets[0]), category);
  EXPECT_EQ(counts(again.facets[1]), feed);
  // The hits are those of an unbounded search.
  SearchResult exact = run(5000);
  ASSERT_EQ(r.hits.size(), exact.hits.size());
  for (std::size_t i = 0; i < r.hits.size(); ++i) EXPECT_EQ(r.hits[i].post->id, exact.hits[i].post->id);
}

// Xapian's estimate of a phrase's matches can be far from the truth: the
// stride comes from the upper bound, so the sample stays near the bound (it
// was five times the bound for a phrase over a million posts, from the
// estimate), and a second sample is counted when the first shows the
// matches to be far fewer. The total is then estimated from the sample.
TEST_F(BoundedFacetsTest, PhraseSamplesStayNearTheBoundAndEstimateTheTotal) {
  for (const char* phrase : {"\"common words\"", "\"rare phrase\""}) {  // in 2,000 posts; in 286
    SearchResult r = run(200, 0, phrase);
    ASSERT_TRUE(r.facet_counting.estimated) << phrase;
    const double matches = phrase[1] == 'c' ? 2000 : 286;
    EXPECT_EQ(r.facet_counting.stride, sample_stride(r.total.upper, 200)) << phrase;
    EXPECT_LT(r.facet_counting.sampled, 280u) << phrase;
    EXPECT_GT(r.total.estimated, 0.7 * matches) << phrase;
    EXPECT_LT(r.total.estimated, 1.3 * matches) << phrase;
    Xapian::doccount sum = 0;
    for (const auto& [name, n] : counts(r.facets[1])) sum += n;
    EXPECT_EQ(sum, r.facet_counting.sampled * r.facet_counting.stride) << phrase;
  }
}

// "blue sky" is a phrase in 1,333 posts, its words in all 2,000: more
// matches than the match counts (1,000), fewer than the upper bound. A
// sample finds them few, and a pass over all of them counts them exactly
// when they are within the bound; past it the sample's counts stand.
TEST_F(BoundedFacetsTest, AFewMatchesUnderAHighUpperBoundAreCountedExactly) {
  SearchResult within = run(1500, 0, "\"blue sky\"");
  EXPECT_FALSE(within.facet_counting.estimated);
  EXPECT_EQ(within.facet_counting.stride, 1u);
  EXPECT_TRUE(within.total.exact());
  EXPECT_EQ(within.total.estimated, 1333u);
  Xapian::doccount sum = 0;
  for (const auto& [name, n] : counts(within.facets[1])) sum += n;
  EXPECT_EQ(sum, 1333u);
  auto category = counts(within.facets[0]);
  EXPECT_EQ(category["even"], 666u);  // i % 3 != 0 among even i < 2000
  EXPECT_EQ(category["rare"], 13u);   // i % 100 == 0 and i % 3 != 0
  // The same from the FacetTable of a long-running searcher.
  SearchResult kept = run(1500, 1 << 20, "\"blue sky\"");
  EXPECT_FALSE(kept.facet_counting.estimated);
  EXPECT_EQ(kept.total.estimated, 1333u);
  EXPECT_EQ(counts(kept.facets[0]), category);
  EXPECT_EQ(counts(kept.facets[1]), counts(within.facets[1]));

  SearchResult past = run(1000, 0, "\"blue sky\"");
  EXPECT_TRUE(past.facet_counting.estimated);
  EXPECT_EQ(past.facet_counting.stride, 2u);
  EXPECT_FALSE(past.total.exact());
  EXPECT_GT(past.total.lower, 1000u);
  EXPECT_GT(past.total.estimated, 0.7 * 1333);
  EXPECT_LT(past.total.estimated, 1.3 * 1333);
  sum = 0;
  for (const auto& [name, n] : counts(past.facets[1])) sum += n;
  EXPECT_EQ(sum, past.facet_counting.sampled * 2);
  SearchResult past_kept = run(1000, 1 << 20, "\"blue sky\"");
  EXPECT_EQ(counts(past_kept.facets[0]), counts(past.facets[0]));
  EXPECT_EQ(counts(past_kept.facets[1]), counts(past.facets[1]));
}

// A long-running searcher counts the facets' sample on a thread of its
// own beside the match (searcher.cc: SampleBeside): the same sample, the
// same counts and estimates as a one-shot searcher, which counts it after
// the match.
TEST_F(BoundedFacetsTest, TheSampleCountedBesideTheMatchIsTheSame) {
  SearcherOptions long_running;
  long_running.cache_bytes = 1 << 20;
  Searcher kept(dir_ + "/db", long_running), one_shot(dir_ + "/db");
  for (const char* q : {"common", "\"common words\"", "\"rare phrase\"", "\"blue sky\""}) {
    SearchRequest r;
    r.query.text = q;
    r.facets = {FacetKind::kCategory, FacetKind::kFeed};
    r.facet_bound = 200;
    auto started = [&kept] { return kept.kept_use().samples_beside + kept.kept_use().samples_beside_dropped; };
    const unsigned long before = started();
    const SearchResult a = one_shot.search(r), b = kept.search(r);
    EXPECT_EQ(started(), before + 1) << q;
    ASSERT_TRUE(b.facet_counting.estimated) << q;
    EXPECT_EQ(b.facet_counting.stride, a.facet_counting.stride) << q;
    EXPECT_EQ(b.facet_counting.sampled, a.facet_counting.sampled) << q;
    EXPECT_EQ(b.total.estimated, a.total.estimated) << q;
    EXPECT_EQ(b.partial, a.partial) << q;
    EXPECT_EQ(counts(b.facets[0]), counts(a.facets[0])) << q;
    EXPECT_EQ(counts(b.facets[1]), counts(a.facets[1])) << q;
    ASSERT_EQ(b.hits.size(), a.hits.size()) << q;
    for (std::size_t i = 0; i < a.hits.size(); ++i) EXPECT_EQ(b.hits[i].post->id, a.hits[i].post->id) << q;
  }
  // Used, except where the match's upper bound came out lower than
  // Xapian's estimate before it ("rare phrase": another stride).
  EXPECT_GE(kept.kept_use().samples_beside, 3u);
  EXPECT_EQ(one_shot.kept_use().samples_beside + one_shot.kept_use().samples_beside_dropped, 0u);
}

// FacetSpy reads each shard's value stream forwards: ids shown out of
// order (not how Xapian shows them) are sorted first, not skipped.
TEST_F(BoundedFacetsTest, IdsShownOutOfOrderCountTheSame) {
  Xapian::Database db(dir_ + "/db");
  FacetSpy forwards({FacetKind::kCategory}), backwards({FacetKind::kCategory});
  for (Xapian::docid did = 1; did <= 300; ++did) forwards(db.get_document(did), 0);
  for (Xapian::docid did = 300; did >= 1; --did) backwards(db.get_document(did), 0);
  forwards.count({db});
  backwards.count({db});
  auto as_map = [](const std::vector<TermCount>& terms) {
    std::map<std::string, Xapian::doccount> out;
    for (const auto& t : terms) out[std::string(t.term)] = t.n;
    return out;
  };
  const auto expected = std::map<std::string, Xapian::doccount>{{"Keven", 150}, {"Kodd", 150}, {"Krare", 3}};
  EXPECT_EQ(as_map(forwards.terms(0)), expected);
  EXPECT_EQ(as_map(backwards.terms(0)), expected);
}

TEST(FacetSample, StrideFromTheUpperBoundThenFromTheSample) {
  EXPECT_EQ(sample_stride(0, 10000), 1u);
  EXPECT_EQ(sample_stride(10000, 10000), 1u);
  EXPECT_EQ(sample_stride(10001, 10000), 2u);
  EXPECT_EQ(sample_stride(456704, 10000), 46u);
  EXPECT_EQ(sample_stride(5, 0), 1u);
  // The million-post phrase: upper bound 456,704, 344,000 matches: 7,480
  // counted at stride 46 is enough.
  EXPECT_EQ(resample_stride(7480, 46, 10588, 456704, 10000), 0u);
  // About 20,000 matches under the same upper bound: 435 counted, far too
  // few; again at the stride they show (20,010 / 10,000).
  EXPECT_EQ(resample_stride(435, 46, 10588, 456704, 10000), 3u);
  // Never fewer than the lower bound of the matches.
  EXPECT_EQ(resample_stride(10, 46, 30000, 456704, 10000), 3u);
  // The upper bound was about right: no second sample.
  EXPECT_EQ(resample_stride(2000, 46, 10588, 100000, 10000), 0u);
}

TEST_F(BoundedFacetsTest, OutputsSayTheCountsAreEstimates) {
  SearchResult r = run(200);
  auto j = nlohmann::json::parse(dump_json(result_to_json(r, JsonOptions{}), false));
  EXPECT_EQ(j["facet_counts"]["estimated"], true);
  EXPECT_EQ(j["facet_counts"]["sample_stride"], 10);
  std::ostringstream text;
  write_text(text, r, TextStyle{false});
  EXPECT_NE(text.str().find("Facet counts are estimates"), std::string::npos);
  SearchResult exact = run(5000);
  j = nlohmann::json::parse(dump_json(result_to_json(exact, JsonOptions{}), false));
  EXPECT_EQ(j["facet_counts"]["estimated"], false);
  std::ostringstream plain;
  write_text(plain, exact, TextStyle{false});
  EXPECT_EQ(plain.str().find("estimates"), std::string::npos);
}

}  // namespace
}  // namespace blogsearch
