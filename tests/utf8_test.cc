// Tests for common/utf8.h: cutting at character boundaries, strict
// decoding, counting and appending, as tables of cases.
#include "common/utf8.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/utf8_check.h"

namespace blogsearch::utf8 {
namespace {

TEST(Utf8, TruncateNeverSplitsACharacter) {
  struct Case {
    std::string text;
    std::size_t max;
    std::string want;
  };
  const Case cases[] = {
      {"hello", 10, "hello"},
      {"hello", 5, "hello"},
      {"hello", 3, "hel"},
      {"hello", 0, ""},
      {"J\xC3\xBCrgen", 2, "J"},              // ü is 2 bytes: not cut in half
      {"J\xC3\xBCrgen", 3, "J\xC3\xBC"},
      {"\xE6\x9D\xB1\xE4\xBA\xAC", 5, "\xE6\x9D\xB1"},  // 東京: 3 bytes each
      {"\xE6\x9D\xB1\xE4\xBA\xAC", 2, ""},
      {"a\xF0\x9F\x98\x80" "b", 4, "a"},       // an emoji is 4 bytes
      {"a\xF0\x9F\x98\x80" "b", 5, "a\xF0\x9F\x98\x80"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(truncate(c.text, c.max), c.want) << c.text << " " << c.max;
    std::string in_place = c.text;
    EXPECT_EQ(truncate_in_place(in_place, c.max), c.text.size() > c.max);
    EXPECT_EQ(in_place, c.want);
  }
}

TEST(Utf8, TruncateAtEveryLengthGivesValidText) {
  const std::string text = "Ä ö – 東京 \xF0\x9F\x98\x80 end";
  for (std::size_t max = 0; max <= text.size() + 1; ++max) {
    const std::string cut(truncate(text, max));
    EXPECT_LE(cut.size(), max);
    EXPECT_TRUE(test_util::valid_utf8(cut)) << max;
    EXPECT_EQ(text.compare(0, cut.size(), cut), 0);
    // As long as possible: one more character would not fit.
    if (cut.size() < text.size()) {
      std::size_t next = cut.size() + 1;
      while (next < text.size() && is_continuation(text[next])) ++next;
      EXPECT_GT(next, max) << max;
    }
  }
}

TEST(Utf8, DecodeIsStrict) {
  struct Case {
    std::string bytes;
    std::size_t length;  // 0: invalid
    std::uint32_t cp;
  };
  const Case cases[] = {
      {"A", 1, 0x41},
      {"\xC3\xBC", 2, 0xFC},
      {"\xE2\x80\x93", 3, 0x2013},
      {"\xF0\x9F\x98\x80", 4, 0x1F600},
      {"\xF4\x8F\xBF\xBF", 4, 0x10FFFF},
      {"\xC0\xBC", 0, 0},          // overlong '<'
      {"\xE0\x80\xBC", 0, 0},      // overlong, 3 bytes
      {"\xF0\x80\x80\xBC", 0, 0},  // overlong, 4 bytes
      {"\xED\xA0\x80", 0, 0},      // UTF-16 surrogate
      {"\xF4\x90\x80\x80", 0, 0},  // above U+10FFFF
      {"\xC3", 0, 0},              // cut by the end
      {"\xE2\x80", 0, 0},
      {"\x80", 0, 0},              // lone continuation
      {"\xC3(", 0, 0},             // missing continuation
      {"\xF8\x88\x80\x80\x80", 0, 0},  // five-byte form
      {"\xFF", 0, 0},
  };
  for (const Case& c : cases) {
    std::uint32_t cp = 0;
    EXPECT_EQ(decode(c.bytes, 0, cp), c.length) << c.bytes;
    if (c.length) {
      EXPECT_EQ(cp, c.cp) << c.bytes;
    }
  }
  std::uint32_t cp = 0;
  EXPECT_EQ(decode("x\xC3\xBCy", 1, cp), 2u);  // from the middle
  EXPECT_EQ(cp, 0xFCu);
}

TEST(Utf8, AppendThenDecodeRoundTrips) {
  for (std::uint32_t cp : {0x0u, 0x41u, 0x7Fu, 0x80u, 0x7FFu, 0x800u, 0xD7FFu, 0xE000u, 0xFFFDu, 0xFFFFu, 0x10000u,
                           0x1F600u, 0x10FFFFu}) {
    std::string s;
    append(s, cp);
    std::uint32_t back = 0;
    ASSERT_EQ(decode(s, 0, back), s.size()) << cp;
    EXPECT_EQ(back, cp);
    EXPECT_EQ(count_chars(s), 1u);
  }
}

TEST(Utf8, CountChars) {
  EXPECT_EQ(count_chars(""), 0u);
  EXPECT_EQ(count_chars("abc"), 3u);
  EXPECT_EQ(count_chars("J\xC3\xBCrgen"), 6u);
  EXPECT_EQ(count_chars("\xE6\x9D\xB1\xE4\xBA\xAC"), 2u);
  EXPECT_EQ(count_chars("\xC3"), 1u);  // a stray lead byte counts as one
}

}  // namespace
}  // namespace blogsearch::utf8
