// The word diff (query/text_diff.h) and its plain and JSON renderings: a
// table of cases, a property over random edits (the diff gives back both
// texts, and is minimal: as many words changed as a textbook LCS finds),
// and the bounds on long and unrelated texts.
#include <gtest/gtest.h>

#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "query/format.h"
#include "query/text_diff.h"

namespace blogsearch {
namespace {

struct Case {
  const char* older;
  const char* newer;
  const char* markup;
};

TEST(TextDiff, Table) {
  const Case cases[] = {
      {"", "", ""},
      {"same text", "same text", "same text"},
      {"", "new words", "{+new words+}"},
      {"old words", "", "[-old words-]"},
      {"the quick brown fox", "the quick red fox", "the quick [-brown-]{+red+} fox"},
      {"a b c", "a c", "a [-b-] c"},
      {"a c", "a b c", "a {+b+} c"},
      {"one two three", "zero one two three", "{+zero+} one two three"},
      {"one two three", "one two three four", "one two three {+four+}"},
      {"first second", "other words entirely", "[-first second-]{+other words entirely+}"},
      {"a b c d e", "a x c y e", "a [-b-]{+x+} c [-d-]{+y+} e"},
      {"Title", "Title (updated)", "Title {+(updated)+}"},
      {"x  spaced\ttext", "x spaced text", "x spaced text"},  // whitespace is not a word
  };
  for (const Case& c : cases) {
    const TextDiff d = diff_words(c.older, c.newer);
    EXPECT_EQ(diff_markup(d, false), c.markup) << c.older << " -> " << c.newer;
    EXPECT_FALSE(d.coarse);
    EXPECT_FALSE(d.cut);
  }
}

TEST(TextDiff, CountsAndColour) {
  const TextDiff d = diff_words("a b c", "a x y c");
  EXPECT_EQ(d.words_removed, 1u);
  EXPECT_EQ(d.words_added, 2u);
  EXPECT_TRUE(d.changed());
  EXPECT_EQ(diff_markup(d, true), "a \x1b[31mb\x1b[0m\x1b[32mx y\x1b[0m c");
  EXPECT_FALSE(diff_words("a b", "a  b").changed());
}

TEST(TextDiff, MarkupDropsControlCharacters) {
  const TextDiff d = diff_words("safe", "safe \x1b[2Jwiped");
  EXPECT_EQ(diff_markup(d, false), "safe {+[2Jwiped+}");
  EXPECT_EQ(diff_markup(d, true).find("\x1b[2J"), std::string::npos);
}

TEST(TextDiff, Json) {
  const nlohmann::json j = diff_to_json(diff_words("a b c", "a x c"));
  EXPECT_EQ(j["parts"].dump(),
            R"([{"op":"same","text":"a"},{"op":"removed","text":" b"},{"op":"added","text":" x"},)"
            R"({"op":"same","text":" c"}])");
  EXPECT_EQ(j["words_removed"], 1);
  EXPECT_EQ(j["words_added"], 1);
  EXPECT_EQ(j["coarse"], false);
  EXPECT_EQ(j["cut"], false);
}

// Joins lead + text of the parts that belong to one side (without the
// space before the first word: a common part's lead is the older text's).
std::string side(const TextDiff& d, DiffPart::Op other) {
  std::string out;
  for (const DiffPart& p : d.parts)
    if (p.op != other) out += p.lead + p.text;
  return out.substr(std::min(out.size(), out.find_first_not_of(' ')));
}

std::size_t lcs(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::vector<std::size_t>> t(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j)
      t[i][j] = a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1 : std::max(t[i - 1][j], t[i][j - 1]);
  return t[a.size()][b.size()];
}

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// Random texts over a small vocabulary (so words repeat, as in prose), and
// random edits of them: insertions, deletions, replacements, moves.
TEST(TextDiff, RandomEditsGiveBackBothTextsAndAreMinimal) {
  std::mt19937 rng(20261201);
  const std::vector<std::string> vocabulary = {"the", "a", "model", "compile", "torch", "fast", "graph",
                                               "of", "and", "kernel", "is", "new", "release."};
  for (int round = 0; round < 2000; ++round) {
    std::vector<std::string> a;
    const int n = static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) a.push_back(vocabulary[rng() % vocabulary.size()]);
    std::vector<std::string> b = a;
    const int edits = static_cast<int>(rng() % 6);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = b.empty() ? 0 : rng() % (b.size() + 1);
      switch (rng() % 4) {
        case 0: b.insert(b.begin() + static_cast<long>(at), vocabulary[rng() % vocabulary.size()]); break;
        case 1: if (at < b.size()) b.erase(b.begin() + static_cast<long>(at)); break;
        case 2: if (at < b.size()) b[at] = vocabulary[rng() % vocabulary.size()]; break;
        case 3:
          if (at < b.size()) {
            std::string moved = b[at];
            b.erase(b.begin() + static_cast<long>(at));
            b.insert(b.begin() + static_cast<long>(rng() % (b.size() + 1)), moved);
          }
          break;
      }
    }
    const std::string older = join(a), newer = join(b);
    const TextDiff d = diff_words(older, newer);
    ASSERT_EQ(side(d, DiffPart::Op::kAdded), older) << older << " -> " << newer;
    ASSERT_EQ(side(d, DiffPart::Op::kRemoved), newer) << older << " -> " << newer;
    const std::size_t common = lcs(a, b);
    ASSERT_EQ(d.words_removed, a.size() - common) << older << " -> " << newer;
    ASSERT_EQ(d.words_added, b.size() - common) << older << " -> " << newer;
    for (std::size_t i = 1; i < d.parts.size(); ++i) ASSERT_NE(d.parts[i].op, d.parts[i - 1].op);
  }
}

// A long post (about 100,000 words) with a few edits far apart: diffed
// chunk by chunk, exactly, in well under a second.
TEST(TextDiff, LongTextWithSparseEdits) {
  std::mt19937 rng(7);
  std::vector<std::string> a;
  for (int i = 0; i < 100000; ++i) a.push_back("w" + std::to_string(rng() % 5000) + (rng() % 12 == 0 ? "." : ""));
  std::vector<std::string> b = a;
  b[1000] = "CHANGED";
  b.erase(b.begin() + 40000, b.begin() + 40010);
  b.insert(b.begin() + 90000, "INSERTED");
  const std::string older = join(a), newer = join(b);
  const std::clock_t start = std::clock();  // CPU time: the machine may be busy
  const TextDiff d = diff_words(older, newer);
  const double seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  EXPECT_LT(seconds, 1.0);
  EXPECT_FALSE(d.coarse);
  EXPECT_EQ(side(d, DiffPart::Op::kAdded), older);
  EXPECT_EQ(side(d, DiffPart::Op::kRemoved), newer);
  EXPECT_EQ(d.words_removed, 11u);
  EXPECT_EQ(d.words_added, 2u);
}

// Two unrelated texts of a megabyte each: the diff stays bounded in time,
// says it is coarse, and still gives back both texts.
TEST(TextDiff, UnrelatedLongTextsAreBounded) {
  std::mt19937 rng(11);
  auto text = [&rng](char tag) {
    std::string out;
    while (out.size() < (1u << 20) - 16) out += std::string(1, tag) + std::to_string(rng() % 100000) + " ";
    out.pop_back();
    return out;
  };
  const std::string older = text('a'), newer = text('b');
  const std::clock_t start = std::clock();  // CPU time: the machine may be busy
  const TextDiff d = diff_words(older, newer);
  const double seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  EXPECT_LT(seconds, 1.0);
  EXPECT_TRUE(d.coarse);
  EXPECT_FALSE(d.cut);
  EXPECT_EQ(side(d, DiffPart::Op::kAdded), older);
  EXPECT_EQ(side(d, DiffPart::Op::kRemoved), newer);
}

std::vector<std::string> random_words(std::mt19937& rng, std::size_t n, const std::string& tag) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(tag + std::to_string(rng() % 3000));
  return out;
}

// An unrelated stretch beside an edited word: the stretch is shown removed
// and added whole, the word exactly.
TEST(TextDiff, UnrelatedStretchIsWholeTheRestExact) {
  std::mt19937 rng(3);
  std::vector<std::string> a = random_words(rng, 2000, "w"), b = a;
  const std::vector<std::string> fresh = random_words(rng, 400, "x");
  std::copy(fresh.begin(), fresh.end(), b.begin() + 500);
  b[1500] = "CHANGED";
  const TextDiff d = diff_words(join(a), join(b));
  EXPECT_TRUE(d.coarse);
  EXPECT_EQ(d.words_removed, 401u);
  EXPECT_EQ(d.words_added, 401u);
  EXPECT_NE(diff_markup(d, false).find(" [-" + a[1500] + "-]{+CHANGED+} "), std::string::npos);
  EXPECT_EQ(side(d, DiffPart::Op::kAdded), join(a));
  EXPECT_EQ(side(d, DiffPart::Op::kRemoved), join(b));
}

// One word replaced throughout a long post (a name respelt): every place
// is found, word by word.
TEST(TextDiff, ReplacedThroughout) {
  std::mt19937 rng(5);
  std::vector<std::string> a = random_words(rng, 5000, "w"), b = a;
  for (std::size_t i = 100; i < 5000; i += 160) {
    a[i] = "Pytorch";
    b[i] = "PyTorch";
  }
  const TextDiff d = diff_words(join(a), join(b));
  EXPECT_FALSE(d.coarse);
  EXPECT_EQ(d.words_removed, 31u);
  EXPECT_EQ(d.words_added, 31u);
}

TEST(TextDiff, LongerThanMaxBytesIsCut) {
  DiffLimits limits;
  limits.max_bytes = 10;
  const TextDiff d = diff_words("abc def ghi jkl", "abc def ghi xyz", limits);
  EXPECT_TRUE(d.cut);
  EXPECT_FALSE(d.changed());  // "jkl" and "xyz" lie past the bound
  EXPECT_EQ(diff_markup(d, false), "abc def");
}

}  // namespace
}  // namespace blogsearch
