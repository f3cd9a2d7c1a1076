// Languages and diacritics (issue 16, point 9), and author and feed-title
// words (point 5): posts made by the indexer's own document builder from
// German, English and accented feeds, searched by the query builder.
#include <gtest/gtest.h>
#include <unistd.h>
#include <xapian.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "common/acronym_plural.h"
#include "common/fold.h"
#include "common/version_word.h"
#include "indexer/document_builder.h"
#include "indexer/feed_parser.h"
#include "indexer/language.h"
#include "indexer/schema.h"
#include "query/query_bounds.h"
#include "query/facets.h"
#include "query/query_builder.h"
#include "query/snippet.h"

namespace blogsearch {
namespace {

TEST(Fold, LatinLettersLoseTheirDiacritics) {
  EXPECT_EQ(fold::fold("Jürgen Müller"), "Jurgen Muller");
  EXPECT_EQ(fold::fold("naïve café"), "naive cafe");
  EXPECT_EQ(fold::fold("Straße Æsir Łódź œuvre"), "Strasse AEsir Lodz oeuvre");
  EXPECT_EQ(fold::fold("plain ascii, 日本語, Ωμέγα"), "plain ascii, 日本語, Ωμέγα");
  EXPECT_EQ(fold::fold("bad \xC3 byte"), "bad \xC3 byte");
  EXPECT_TRUE(fold::has_foldable("Zoë"));
  EXPECT_FALSE(fold::has_foldable("Zoe \xC3"));
  EXPECT_FALSE(fold::has_foldable("a × b"));  // a sign, not a letter
}

TEST(Language, DeclaredCodesAreNormalised) {
  EXPECT_EQ(schema::language_code("de-DE"), "de");
  EXPECT_EQ(schema::language_code("EN_us"), "en");
  EXPECT_EQ(schema::language_code("nb"), "no");
  EXPECT_EQ(schema::language_code("ja"), "");
  EXPECT_EQ(schema::language_code("english"), "");
  EXPECT_EQ(schema::language_code(""), "");
}

TEST(Language, DetectionVotesByCommonWords) {
  EXPECT_EQ(detect_language("Neue Werkzeuge", "Ich habe mir neue Werkzeuge gekauft, und die alten sind nicht mehr scharf."), "de");
  EXPECT_EQ(detect_language("New tools", "I bought new tools, and the old ones are not sharp any more."), "en");
  EXPECT_EQ(detect_language("Les outils", "Les outils sont dans la boîte, et ce n'est pas fini pour nous."), "fr");
  // Too few votes, or English quoted in German: English.
  EXPECT_EQ(detect_language("Kubernetes", "kubectl apply"), "en");
  EXPECT_EQ(detect_language("", ""), "en");
  EXPECT_EQ(post_language("de", "The title", "the text is English"), "de");  // the declaration wins
  EXPECT_EQ(post_language("ja", "Neue Werkzeuge", "Ich habe die alten nicht mehr und das ist gut"), "de");
}

TEST(Language, FeedsDeclareIt) {
  ParsedFeed rss = parse_feed(
      "<rss version=\"2.0\"><channel><title>t</title><language> de-AT </language>"
      "<item><title>a</title><guid>a</guid></item></channel></rss>",
      "rss.xml");
  ASSERT_EQ(rss.posts.size(), 1u);
  EXPECT_EQ(rss.posts[0].language, "de-AT");
  ParsedFeed atom = parse_feed(
      "<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"en\"><title>t</title>"
      "<entry><id>a</id><title>a</title></entry>"
      "<entry xml:lang=\"fr-CA\"><id>b</id><title>b</title></entry></feed>",
      "atom.xml");
  ASSERT_EQ(atom.posts.size(), 2u);
  EXPECT_EQ(atom.posts[0].language, "en");
  EXPECT_EQ(atom.posts[1].language, "fr-CA");
  ParsedFeed json = parse_feed(
      R"({"version":"https://jsonfeed.org/version/1.1","title":"t","language":"de",)"
      R"("items":[{"id":"a","content_text":"x"},{"id":"b","content_text":"y","language":"es"}]})",
      "feed.json");
  ASSERT_EQ(json.posts.size(), 2u);
  EXPECT_EQ(json.posts[0].language, "de");
  EXPECT_EQ(json.posts[1].language, "es");
  ParsedFeed none = parse_feed("<rss version=\"2.0\"><channel><title>t</title><item><guid>a</guid></item></channel></rss>", "n.xml");
  ASSERT_EQ(none.posts.size(), 1u);
  EXPECT_EQ(none.posts[0].language, "");
}

// The feeds of tests/feeds/languages, each post a document as the writer
// makes it (its feed's title included).
class LanguageIndex : public ::testing::Test {
 protected:
  void SetUp() override {
    load("tests/feeds/languages/", {"politik-am-morgen/2026-10-01T080000Z.xml", "mixed-notes/2026-10-02T090000Z.xml",
                                     "ohne-sprache/2026-10-03T070000Z.xml", "mitchell-hashimoto/2026-10-04T070000Z.xml"});
  }

  // Indexes the posts of `files` (under `dir`, of the source tree) in memory.
  void load(const std::string& dir, const std::vector<std::string>& files) {
    db_ = Xapian::WritableDatabase(std::string(), Xapian::DB_BACKEND_INMEMORY);
    for (const std::string& file : files) {
      const std::string path = std::string(BLOGSEARCH_SOURCE_DIR) + "/" + dir + file;
      std::ifstream in(path, std::ios::binary);
      ASSERT_TRUE(in) << path;
      std::stringstream bytes;
      bytes << in.rdbuf();
      const ParsedFeed feed = parse_feed(bytes.str(), file);
      ASSERT_FALSE(feed.posts.empty()) << file;
      for (const Post& p : feed.posts) add(p, feed.title);
    }
    db_.commit();
  }

  void add(const Post& p, const std::string& feed_title) {
    Xapian::TermGenerator tg = make_term_generator();
    Stemmers stemmers;
    SpellingCounts spelling;
    const VersionContent content = make_content(p);
    DocumentInput in;
    in.id = p.id;
    in.content = &content;
    in.text = content.text;
    in.feed_title = feed_title;
    texts_[db_.add_document(build_document(in, tg, stemmers, spelling))] = content.text;
    titles_.push_back(p.title);
  }

  // The titles of the posts `q` finds, best first.
  std::vector<std::string> search(const std::string& q) {
    QueryOptions o;
    o.text = q;
    o.spelling = false;
    Xapian::Enquire enquire(db_);
    enquire.set_query(build_query(db_, o).query);
    std::vector<std::string> out;
    Xapian::MSet mset = enquire.get_mset(0, 100);
    for (auto it = mset.begin(); it != mset.end(); ++it) out.push_back(titles_[*it - 1]);
    return out;
  }

  // The words the snippet of the post titled `title` marks for `q`.
  std::vector<std::string> marked(const std::string& q, Xapian::docid doc) {
    QueryOptions o;
    o.text = q;
    o.spelling = false;
    const BuiltQuery built = build_query(db_, o);
    std::vector<Xapian::Stem> stems;
    for (const auto& l : built.languages) stems.push_back(schema::make_stemmer(l));
    std::vector<std::string> out;
    for (const auto& part : make_snippet(texts_[doc], snippet_terms(built.query, q), 400, stems))
      if (part.match) out.push_back(part.text);
    return out;
  }

  Xapian::WritableDatabase db_;
  std::vector<std::string> titles_;
  std::map<Xapian::docid, std::string> texts_;
};

using Titles = std::vector<std::string>;

TEST_F(LanguageIndex, PostsAreStemmedInTheirLanguage) {
  EXPECT_EQ(db_.get_termfreq("Lde"), 4u);  // declared (RSS, Atom entry) and detected (ohne-sprache)
  EXPECT_EQ(db_.get_termfreq("Len"), 3u);
  EXPECT_EQ(search("Umfrage").size(), 2u);
  EXPECT_EQ(search("Umfragen").size(), 2u);
  EXPECT_EQ(search("Wahl").size(), 2u);
  EXPECT_EQ(search("Wahlen").size(), 2u);
  EXPECT_EQ(search("Haus"), Titles{"Über Häuser und Gärten"});   // German stem of "Häusern"
  EXPECT_EQ(search("Säge"), Titles{"Neue Werkzeuge"});           // detected German: "Sägen"
  EXPECT_EQ(search("caching"), Titles{"A naïve approach to caching"});  // English still stemmed
  EXPECT_EQ(search("lang:de").size(), 4u);
  EXPECT_EQ(search("lang:german").size(), 4u);
  EXPECT_EQ(search("lang:en-GB").size(), 3u);
  EXPECT_EQ(search("gärten lang:en").size(), 0u);
}

TEST_F(LanguageIndex, DiacriticsAreFoldedOnBothSides) {
  EXPECT_EQ(search("jurgen").size(), 2u);
  EXPECT_EQ(search("Jürgen").size(), 2u);
  EXPECT_EQ(search("author:jurgen").size(), 2u);
  EXPECT_EQ(search("author:müller").size(), 2u);
  EXPECT_EQ(search("\"jurgen muller\"").size(), 2u);  // phrases: the folded copies
  EXPECT_EQ(search("grunen").size(), 1u);
  EXPECT_EQ(search("cafe").size(), 1u);
  EXPECT_EQ(search("naive").size(), 2u);
  // Typed with its diacritic, the post that writes it so comes first.
  const Titles naive = search("naïve");
  ASSERT_EQ(naive.size(), 2u);
  EXPECT_EQ(naive[0], "A naïve approach to caching");
}

TEST_F(LanguageIndex, AuthorsAndFeedTitlesAreWords) {
  EXPECT_EQ(search("hoffmann").size(), 2u);
  EXPECT_EQ(search("zoe").size(), 2u);
  EXPECT_EQ(search("mitchell hashimoto"), Titles{"Terminal emulators are fun"});
  EXPECT_EQ(search("politik").size(), 2u);
  EXPECT_EQ(search("ortiz"), Titles{"Naive Bayes for spam"});
}

TEST_F(LanguageIndex, SnippetsMarkFoldedAndGermanMatches) {
  // Docids follow the feed order of SetUp: 1, 2 politik; 3-5 mixed-notes.
  EXPECT_EQ(marked("Umfrage", 1), std::vector<std::string>{"Umfragen"});
  EXPECT_EQ(marked("wahl", 1), (std::vector<std::string>{"Wahlen", "Wählern"}));
  EXPECT_EQ(marked("naive", 3), std::vector<std::string>{"naïve"});
  EXPECT_EQ(marked("cafe", 3), std::vector<std::string>{"café"});
  EXPECT_EQ(marked("haus", 5), std::vector<std::string>{"Häusern"});
}

TEST(AcronymPlural, LosesItsS) {
  for (auto [stem, singular] : std::vector<std::pair<std::string, std::string>>{
           {"llms", "llm"}, {"gpus", "gpu"}, {"prs", "pr"}, {"kpis", "kpi"}, {"cves", "cve"}, {"h100s", "h100"},
           {"https", "http"}, {"ssds", "ssd"}, {"spas", "spa"}}) {
    EXPECT_EQ(singular_of_acronym(stem), singular) << stem;
  }
  // Words that keep it: too short, "ss", a vowel elsewhere, not a letter
  // or digit, no letter at all, and the listed exceptions.
  for (const std::string kept : {"ms", "class", "bus", "gas", "focus", "menus", "1990s", "c++s", "this", "thus",
                                 "plus", "gps", "cvs", "mrs", "hrs", "llm"}) {
    EXPECT_EQ(singular_of_acronym(kept), kept);
  }
  // English only: other languages' stemmers are left as they are.
  EXPECT_EQ(schema::make_stemmer("en")("llms"), "llm");  // (Xapian lowercases before stemming)
  EXPECT_EQ(schema::make_stemmer("en")("gpus"), "gpu");
  EXPECT_EQ(schema::make_stemmer("de")("gpus"), Xapian::Stem("german")("gpus"));
}

// The plural of an acronym finds its singular and back ("llm" missed most
// of blog-history's posts about LLMs), in the snippets too; the quoted
// form stays exact; words that only look like such plurals stay apart.
class AcronymIndex : public LanguageIndex {
 protected:
  void SetUp() override { load("tests/feeds/", {"acronyms/2026-10-05T070000Z.xml"}); }
};

TEST_F(AcronymIndex, PluralsMeetTheirSingulars) {
  const Titles both{"Serving LLMs on many GPUs", "One LLM, one GPU"};
  for (const std::string q : {"llm", "LLM", "llms", "LLMs", "gpu", "GPUs", "kpi", "KPIs", "h100", "h100s"}) {
    Titles found = search(q);
    std::sort(found.begin(), found.end());
    Titles want = both;
    std::sort(want.begin(), want.end());
    EXPECT_EQ(found, want) << q;
  }
  EXPECT_EQ(search("\"LLMs\""), Titles{"Serving LLMs on many GPUs"});
  EXPECT_EQ(search("pr"), Titles{"Review notes"});
  EXPECT_EQ(search("cve"), Titles{"Review notes"});
  EXPECT_EQ(search("gp").size(), 0u);  // GPS is not a plural
  EXPECT_EQ(marked("llm", 1), std::vector<std::string>{"LLMs"});
  EXPECT_EQ(marked("gpu", 2), std::vector<std::string>{"GPU"});
}

TEST(VersionWord, IsAVersionWithItsV) {
  for (const char* yes : {"v2.5", "V0.5.0", "v1.0a4", "v0.6.0rc1", "v10.2"}) EXPECT_TRUE(is_version_with_v(yes)) << yes;
  for (const char* no : {"v1", "v8", "2.5", "va.5", "v2.", "v2.a", "v", "vue", "v2_5.1", "v2.5-rc1"})
    EXPECT_FALSE(is_version_with_v(no)) << no;
}

// A version number written with a "v" and without it find each other, as
// words and in phrases; one without a dot is left alone.
TEST_F(AcronymIndex, VersionsWithAndWithoutTheirV) {
  for (const std::string q : {"0.5.0", "v0.5.0", "V0.5.0"}) {
    Titles found = search(q);
    std::sort(found.begin(), found.end());
    EXPECT_EQ(found, (Titles{"Release v0.5.0", "Upgrading to 0.5.0"})) << q;
  }
  EXPECT_EQ(search("\"release 0.5.0\""), Titles{"Release v0.5.0"});
  EXPECT_EQ(search("\"to v0.5.0\""), Titles{"Upgrading to 0.5.0"});
  EXPECT_EQ(search("title:0.5.0").size(), 2u);
  EXPECT_EQ(search("0.6.0rc1"), Titles{"Release v0.5.0"});
  EXPECT_EQ(search("v1"), Titles{"Release v0.5.0"});  // not every post with a 1
  // The snippets mark the other form too.
  EXPECT_EQ(marked("0.5.0", 4), std::vector<std::string>{"v0.5.0"});
  EXPECT_EQ(marked("v0.5.0", 5), std::vector<std::string>{"0.5.0"});
  EXPECT_EQ(marked("0.6.0rc1", 4), std::vector<std::string>{"V0.6.0rc1"});
  EXPECT_EQ(marked("5.0", 5).size(), 0u);  // a part of 0.5.0 is not marked
}

// A query parsed in German and in English holds each wildcard twice; the
// bound on wildcard expansion counts it once, as typed (issue 16).
TEST_F(LanguageIndex, AWildcardCountsOnceWhateverTheLanguages) {
  QueryOptions o;
  o.text = "Wahlen h*";
  o.spelling = false;
  const BuiltQuery built = build_query(db_, o);
  ASSERT_EQ(built.languages.size(), 2u);
  ASSERT_NE(built.query.get_description().find("MAX"), std::string::npos) << built.query.get_description();
  Xapian::termcount words = 0;
  for (auto t = db_.allterms_begin("h"); t != db_.allterms_end("h"); ++t) ++words;
  ASSERT_GE(words, 2u);
  EXPECT_NO_THROW(check_wildcard_total(db_, built.query, o.text, words));
  try {
    check_wildcard_total(db_, built.query, o.text, words - 1);
    FAIL() << "no error";
  } catch (const QueryError& e) {
    EXPECT_NE(std::string(e.what()).find("'h*' matches more than"), std::string::npos) << e.what();
  }
  // Excluded words are parsed in both languages too.
  o.text = "-Wahlen -h*";
  const BuiltQuery negated = build_query(db_, o);
  EXPECT_NO_THROW(check_wildcard_total(db_, negated.query, o.text, words));
  // And a post is excluded when it matches the parse of any language.
  EXPECT_EQ(search("-Wahlen").size(), titles_.size() - search("Wahlen").size());
}

TEST(LanguageQuery, AnEnglishDatabaseIsSearchedInEnglish) {
  Xapian::WritableDatabase db(std::string(), Xapian::DB_BACKEND_INMEMORY);
  Xapian::Document doc;
  doc.add_boolean_term("Len");
  db.add_document(doc);
  QueryOptions o;
  o.text = "Wahlen";
  EXPECT_EQ(build_query(db, o).languages, std::vector<std::string>{"en"});
  Xapian::WritableDatabase empty(std::string(), Xapian::DB_BACKEND_INMEMORY);
  EXPECT_EQ(build_query(empty, o).languages, std::vector<std::string>{"en"});
}

// A term in every post of a database (the language's, "the"), matched
// unweighted: by a filter alone (lang:en), and by the facets' counting
// pass. Xapian 1.4.22 reads such a term from the list of document lengths
// renamed after it, and threw "Unexpected end of posting list" past that
// list's first chunk, in a database whose ids have gaps (fixed by
// tools/xapian/search.patch); the counting
// pass does not take that path at all (CountingWeight), with any libxapian.
class EveryPostTerm : public ::testing::Test {
 protected:
  static constexpr Xapian::doccount kPosts = 3000;  // glass's lengths: about 700 a chunk

  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) / ("every-post-term-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    Xapian::WritableDatabase w(dir_.string(), Xapian::DB_CREATE_OR_OVERWRITE | Xapian::DB_BACKEND_GLASS);
    Xapian::TermGenerator tg = make_term_generator();
    Stemmers stemmers;
    SpellingCounts spelling;
    for (Xapian::doccount i = 0; i < kPosts; ++i) {
      Post p;
      p.id = "post-" + std::to_string(i);
      p.title = "Post " + std::to_string(i);
      p.content = "<p>The model and the data of post " + std::to_string(i) + ".</p>";
      p.language = "en";
      const VersionContent content = make_content(p);
      DocumentInput in;
      in.id = p.id;
      in.content = &content;
      in.text = content.text;
      // Ids with gaps, as a shard's are (every other one of two shards):
      // the list of lengths is then read in chunks, not as a range.
      w.replace_document(2 * i + 1, build_document(in, tg, stemmers, spelling));
    }
    w.commit();
    w.close();
    db_ = Xapian::Database(dir_.string());
    ASSERT_EQ(db_.get_termfreq("Len"), kPosts);
    ASSERT_EQ(db_.get_termfreq("Zthe"), kPosts);
  }
  void TearDown() override {
    db_.close();
    std::filesystem::remove_all(dir_);
  }

  std::filesystem::path dir_;
  Xapian::Database db_;
};

TEST_F(EveryPostTerm, IsCountedInASample) {
  Xapian::Enquire sample(db_);
  sample.set_weighting_scheme(CountingWeight());
  sample.set_query(sampled(Xapian::Query("Zthe"), 7));
  const Xapian::doccount counted = sample.get_mset(0, 0, kPosts).get_matches_estimated();
  EXPECT_GT(counted, kPosts / 7 / 2);
  EXPECT_LT(counted, kPosts / 7 * 2);
  Xapian::Enquire all(db_);
  all.set_weighting_scheme(CountingWeight());
  all.set_query(Xapian::Query("Zthe"));
  EXPECT_EQ(all.get_mset(0, 0, kPosts).get_matches_estimated(), kPosts);
}

TEST_F(EveryPostTerm, IsFoundByAFilterAlone) {
  if (!BLOGSEARCH_XAPIAN_PATCHED)
    GTEST_SKIP() << "built with Debian's unpatched libxapian (no static one from tools/setup), "
                    "which fails on lang:en alone here";
  QueryOptions o;
  o.text = "lang:en";
  o.spelling = false;
  Xapian::Enquire filter(db_);
  filter.set_query(build_query(db_, o).query);
  EXPECT_EQ(filter.get_mset(0, 10, kPosts).get_matches_estimated(), kPosts);
}

}  // namespace
}  // namespace blogsearch
