// version_word.h: version numbers written with a "v" ("v2.5", "V0.5.0",
// "v1.0a4"), which people search for without it and write without it as
// often: the indexer gives such a word its number as a word too
// (indexer/document_builder.cc), and a query's such word is searched as
// its number (query/query_builder.cc), so "0.5.0" and "v0.5.0" find each
// other. A number without a dot ("v1", "v8") is left alone: "1" alone
// would find every post with the digit.
#pragma once

#include <string_view>

namespace blogsearch {

// Whether `word` is "v" or "V", a digit, then ASCII letters, digits and
// dots only, with a dot followed by a digit somewhere: "v2.5", "v0.1a4".
// Never throws.
inline bool is_version_with_v(std::string_view word) {
  if (word.size() < 4 || (word[0] != 'v' && word[0] != 'V') || !(word[1] >= '0' && word[1] <= '9')) return false;
  bool dot_digit = false;
  for (std::size_t i = 2; i < word.size(); ++i) {
    const char c = word[i];
    const bool digit = c >= '0' && c <= '9';
    if (!digit && c != '.' && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z')) return false;
    dot_digit |= digit && word[i - 1] == '.';
  }
  return dot_digit;
}

}  // namespace blogsearch
