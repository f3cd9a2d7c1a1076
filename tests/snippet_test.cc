// Snippets: which passage is shown, which words are marked, and that a
// snippet never cuts a UTF-8 sequence, whatever its length.
#include "query/snippet.h"

#include <gtest/gtest.h>

#include <string>

#include "indexer/schema.h"
#include "tests/utf8_check.h"

namespace blogsearch {
namespace {

const Xapian::Stem kStem = schema::make_stemmer(schema::kStemLanguage);

std::string joined(const std::vector<SnippetPart>& parts) {
  std::string out;
  for (const auto& p : parts) out += p.text;
  return out;
}

std::vector<std::string> marked(const std::vector<SnippetPart>& parts) {
  std::vector<std::string> out;
  for (const auto& p : parts)
    if (p.match) out.push_back(p.text);
  return out;
}

using blogsearch::test_util::valid_utf8;

// What the query parser makes of `text` with the searcher's settings.
SnippetTerms terms_for(const std::string& text) {
  Xapian::QueryParser qp;
  qp.set_stemmer(kStem);
  qp.set_stemming_strategy(Xapian::QueryParser::STEM_SOME);
  qp.add_prefix("title", schema::kTitle);
  Xapian::Query q =
      qp.parse_query(text, Xapian::QueryParser::FLAG_DEFAULT | Xapian::QueryParser::FLAG_WILDCARD);
  return snippet_terms(q, text);
}

std::string filler(std::size_t words) {
  std::string out;
  for (std::size_t i = 0; i < words; ++i) out += "lorem ipsum dolor ";
  return out;
}

TEST(Snippet, TermsFromTheQuery) {
  // Lowercase words are stemmed, capitalised ones kept as typed (STEM_SOME);
  // phrase words are kept as typed; field terms are not looked for.
  SnippetTerms t = terms_for("compiling kernels Triton \"prompt injection\" title:ignored quant*");
  EXPECT_EQ(t.stems, (std::set<std::string>{"compil", "kernel"}));
  EXPECT_EQ(t.words, (std::set<std::string>{"triton", "prompt", "injection"}));
  EXPECT_EQ(t.prefixes, (std::set<std::string>{"quant"}));
}

// A word more than half of the posts have weighs nothing in BM25 and is
// not marked, unless the query has no other: a question typed as a
// sentence marks its words, not every "the" and "to".
TEST(Snippet, WordsOfMostPostsAreNotMarkedBesideOthers) {
  Xapian::WritableDatabase db(std::string(), Xapian::DB_BACKEND_INMEMORY);
  Xapian::TermGenerator tg;
  tg.set_stemmer(kStem);
  for (const char* text : {"how to train the model", "the cat went to sleep", "the dog ran to it", "a bird"}) {
    Xapian::Document doc;
    tg.set_document(doc);
    tg.index_text(text);
    db.add_document(doc);
  }
  Xapian::QueryParser qp;
  qp.set_stemmer(kStem);
  qp.set_stemming_strategy(Xapian::QueryParser::STEM_SOME);
  const TermCounts counts = TermCounts::of(db);
  auto terms = [&](const std::string& text) { return snippet_terms(qp.parse_query(text), text, &counts); };
  const std::string text = "how to train the model";
  EXPECT_EQ(marked(make_snippet(text, terms("how to train the model"), 240, kStem)),
            (std::vector<std::string>{"how", "train", "model"}));
  EXPECT_EQ(marked(make_snippet(text, terms("the"), 240, kStem)), (std::vector<std::string>{"the"}));
  EXPECT_EQ(marked(make_snippet(text, terms("\"to the\""), 240, kStem)), (std::vector<std::string>{"to", "the"}));
  // Without the database, every word is marked.
  EXPECT_EQ(marked(make_snippet(text, terms_for("how to train the model"), 240, kStem)),
            (std::vector<std::string>{"how", "to", "train", "the", "model"}));
}

// The passage holds the rarer words first: "rust" (in one post of 20)
// before "best" and "way" (in 9 each) of a question typed as a sentence.
TEST(Snippet, RareWordsChooseThePassage) {
  Xapian::WritableDatabase db(std::string(), Xapian::DB_BACKEND_INMEMORY);
  Xapian::TermGenerator tg;
  tg.set_stemmer(kStem);
  for (int i = 0; i < 20; ++i) {
    Xapian::Document doc;
    tg.set_document(doc);
    tg.index_text(i == 0 ? "learn rust" : i < 9 ? "the best way" : "a post");
    db.add_document(doc);
  }
  Xapian::QueryParser qp;
  qp.set_stemmer(kStem);
  qp.set_stemming_strategy(Xapian::QueryParser::STEM_SOME);
  const std::string q = "best way rust";
  const std::string text = "The best way to begin. " + filler(20) + "We rewrote it in Rust last year.";
  const TermCounts counts = TermCounts::of(db);
  EXPECT_EQ(marked(make_snippet(text, snippet_terms(qp.parse_query(q), q, &counts), 60, kStem)),
            std::vector<std::string>{"Rust"});
  // The same counted by a match's statistics (what a search over remote
  // shards uses).
  Xapian::Enquire enquire(db);
  enquire.set_query(qp.parse_query(q));
  const TermCounts matched = TermCounts::of(enquire.get_mset(0, 10), db.get_doccount());
  EXPECT_EQ(marked(make_snippet(text, snippet_terms(qp.parse_query(q), q, &matched), 60, kStem)),
            std::vector<std::string>{"Rust"});
  // Without the database every word weighs the same: the two win.
  EXPECT_EQ(marked(make_snippet(text, terms_for(q), 60, kStem)), (std::vector<std::string>{"best", "way"}));
  // A form the query also tried that no post has ("Zbestest") does not make
  // its needle ("best") rare.
  const std::vector<std::string> forms{"Zbest", "Zbestest", "Zway", "Zrust"};
  const Xapian::Query tried(Xapian::Query::OP_OR, forms.begin(), forms.end());
  EXPECT_EQ(marked(make_snippet(text, snippet_terms(tried, q, &counts), 60, kStem)), std::vector<std::string>{"Rust"});
}

TEST(Snippet, MarksWordsStemsAndWildcards) {
  std::string text = "We compiled the kernel. Compiling kernels, quantized and quantization-aware, is fast.";
  auto parts = make_snippet(text, terms_for("compile kernel quant*"), 240, kStem);
  EXPECT_EQ(joined(parts), text);  // short text: shown whole, no "…"
  EXPECT_EQ(marked(parts), (std::vector<std::string>{"compiled", "kernel", "Compiling", "kernels", "quantized",
                                                     "quantization"}));
}

TEST(Snippet, DoesNotMarkWordsThatOnlyStartAlike) {
  // "generous" starts like "general" but stems to itself.
  auto parts = make_snippet("the general and the generous generals", terms_for("general"), 240, kStem);
  EXPECT_EQ(marked(parts), (std::vector<std::string>{"general", "generals"}));
}

TEST(Snippet, MarksEveryFormThatStemsLikeTheQuery) {
  // Forms whose stem changes the word's last letters: each is marked
  // exactly when Xapian stems it as it stems the query word.
  const std::vector<std::string> forms = {
      "happy",  "happiness", "happier",  "hope",     "hoping",     "hoped",    "hopped",  "hops",
      "relate", "relational", "related", "relating", "organizer", "organize", "organs",  "flies",
      "fly",    "flying",    "gently",   "gentle",   "possibly",   "possible", "ability", "able"};
  std::string text;
  for (const auto& f : forms) text += f + " ";
  for (const std::string query : {"happiness", "hoping", "relational", "organizing", "flies", "gently", "possibility"}) {
    std::vector<std::string> want;
    for (const auto& f : forms)
      if (kStem(f) == kStem(query)) want.push_back(f);
    ASSERT_FALSE(want.empty()) << query;
    EXPECT_EQ(marked(make_snippet(text, terms_for(query), 1000, kStem)), want) << query;
  }
}

TEST(Snippet, OneLetterPrefixesAndWordsStillMark) {
  // Words are passed over when their first two letters start no query
  // word, stem or prefix; a one-letter prefix or word turns that off.
  EXPECT_EQ(marked(make_snippet("A cat, a car and C code in Python", terms_for("c* python"), 240, kStem)),
            (std::vector<std::string>{"cat", "car", "C", "code", "Python"}));
  EXPECT_EQ(marked(make_snippet("x and x-ray and xylophone", terms_for("x"), 240, kStem)),
            (std::vector<std::string>{"x", "x"}));
}

TEST(Snippet, ShowsTheMatchesOfALongText) {
  std::string text = filler(2000) + "here the needle word sits near another needle " + filler(2000);
  auto parts = make_snippet(text, terms_for("needle"), 200, kStem);
  std::string s = joined(parts);
  EXPECT_EQ(s.rfind("…", 0), 0u) << s;  // text left out before
  EXPECT_NE(s.find("here the needle word sits near another needle"), std::string::npos) << s;
  EXPECT_EQ(s.substr(s.size() - 3), "…");  // and after
  EXPECT_LE(s.size(), 200u + 2 * 3);
  EXPECT_EQ(marked(parts), (std::vector<std::string>{"needle", "needle"}));
}

TEST(Snippet, PrefersThePlaceWithMoreDifferentWords) {
  std::string text = "alpha " + filler(100) + "beta " + filler(100) + "alpha and beta together " + filler(100);
  auto parts = make_snippet(text, terms_for("alpha beta"), 120, kStem);
  EXPECT_NE(joined(parts).find("alpha and beta together"), std::string::npos) << joined(parts);
}

TEST(Snippet, FindsWordsWhoseStemIsNotTheirStart) {
  // "privacy" stems to "privaci", "happiness" to "happi": neither stem
  // occurs in the text as written, the passage must still be found.
  for (const char* q : {"privacy", "happiness", "Privacy", "happy"}) {
    const std::string word = std::string(q) == "happy" ? "happiness" : q;
    std::string text = filler(200) + "a paragraph on " + word + " and more " + filler(200);
    auto parts = make_snippet(text, terms_for(q == std::string("Privacy") ? "privacy" : q), 120, kStem);
    EXPECT_EQ(marked(parts).size(), 1u) << q << ": " << joined(parts);
  }
  std::string text = filler(200) + "Whining, speedy privacy. " + filler(200);
  auto parts = make_snippet(text, terms_for("whine speedy privacy"), 120, kStem);
  EXPECT_EQ(marked(parts), (std::vector<std::string>{"Whining", "speedy", "privacy"})) << joined(parts);
}

TEST(Snippet, NeverStartsInsideTheFirstWord) {
  // The lead before the match (a fifth of the length) would start two
  // bytes into "Following".
  std::string text = "Following up on wanted things, here is the rest " + filler(20);
  const std::size_t length = 70;
  auto parts = make_snippet(text, terms_for("wanted"), length, kStem);
  std::string s = joined(parts);
  EXPECT_EQ(s.rfind("Following", 0), 0u) << s;
  EXPECT_EQ(marked(parts), (std::vector<std::string>{"wanted"})) << s;
}

TEST(Snippet, WithoutAMatchShowsTheStart) {
  std::string text = "The opening words of the post. " + filler(100);
  auto parts = make_snippet(text, terms_for("absent"), 100, kStem);
  std::string s = joined(parts);
  EXPECT_EQ(s.rfind("The opening words of the post.", 0), 0u) << s;
  EXPECT_TRUE(marked(parts).empty());
  EXPECT_EQ(s.substr(s.size() - 3), "…");
}

TEST(Snippet, MatchesNearTheEndShowAFullPassage) {
  std::string text = filler(100) + "the final word is omega";
  auto parts = make_snippet(text, terms_for("omega"), 120, kStem);
  std::string s = joined(parts);
  EXPECT_GE(s.size(), 100u) << s;
  EXPECT_EQ(s.substr(s.size() - 5), "omega");
}

TEST(Snippet, NeverBreaksUtf8) {
  std::string cjk;
  for (int i = 0; i < 300; ++i) cjk += "日本語のテキスト";
  std::string mixed = filler(30) + "Köln straße 🙂 emoji " + cjk + " Straße";
  for (std::size_t len = 1; len < 300; len += 7) {
    for (const std::string& text : {cjk, mixed}) {
      for (const char* q : {"straße", "emoji", "テキスト", "absent"}) {
        auto parts = make_snippet(text, terms_for(q), len, kStem);
        for (const auto& p : parts) EXPECT_TRUE(valid_utf8(p.text)) << q << " " << len;
        EXPECT_FALSE(parts.empty());
      }
    }
  }
}

TEST(Snippet, EmptyTextGivesNoSnippet) {
  EXPECT_TRUE(make_snippet("", terms_for("anything"), 100, kStem).empty());
  EXPECT_TRUE(make_snippet("   ", terms_for("anything"), 100, kStem).empty());
}

TEST(Snippet, NonAsciiWordsMatchIgnoringCase) {
  auto parts = make_snippet("Die STRASSE und die Straße in Köln", terms_for("straße köln"), 240, kStem);
  // ß folds to ss (schema::make_stemmer): the search finds "STRASSE" too.
  EXPECT_EQ(marked(parts), (std::vector<std::string>{"STRASSE", "Straße", "Köln"}));
  parts = make_snippet("Die Strasse in Koln", terms_for("straße köln"), 240, kStem);
  EXPECT_EQ(marked(parts), (std::vector<std::string>{"Strasse", "Koln"}));
}

// The needles are ASCII: a word that matches only folded, far into a text,
// is still where the snippet is.
TEST(Snippet, FoldedMatchFarIntoTheTextIsShown) {
  const std::string text = filler(200) + "Die Überwachung wächst. " + filler(200);
  auto parts = make_snippet(text, terms_for("uberwachung"), 240, kStem);
  EXPECT_EQ(marked(parts), std::vector<std::string>{"Überwachung"});
  parts = make_snippet(text, terms_for("zzznothing"), 240, kStem);
  EXPECT_TRUE(marked(parts).empty());
  EXPECT_EQ(joined(parts).rfind("lorem", 0), 0u);  // nothing matches: the opening
}

}  // namespace
}  // namespace blogsearch
