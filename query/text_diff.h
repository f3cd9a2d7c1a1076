// text_diff.h: a word-level diff of two texts, for `blogsearch diff` and the
// post page's diff between two versions.
//
// The texts are split into words at whitespace; the words are compared
// exactly (no stemming, no case folding). The edit script comes from dtl
// (Debian's libdtl-dev: Wu, Manber and Myers' O(NP) algorithm), whose cost
// grows with the product of the lengths for unrelated texts: so dtl only
// sees short sequences. A long stretch is cut into about a hundred chunks a
// side (chunk ends are chosen by the words themselves, so an insertion does
// not shift every later chunk), the chunks are diffed, and the changed ones
// again, down to words. A stretch with no chunk in common, or past the total
// budget, is shown as removed and added whole (`coarse`); text past
// max_bytes is not compared (`cut`). So a diff costs a bounded time and
// memory whatever the texts, and is exact for the usual edits.
//
// diff_words() never throws (except std::bad_alloc).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace blogsearch {

struct DiffPart {
  enum class Op { kSame, kRemoved, kAdded };
  Op op = Op::kSame;
  // The whitespace before the first word of the part, as in the text it
  // comes from (the older text for kSame and kRemoved, the newer for
  // kAdded), and the words with the whitespace between them. Joining
  // lead + text of the kSame and kRemoved parts gives the older text,
  // of the kSame and kAdded parts the newer (but for whitespace at the ends:
  // a kSame part's lead is the older text's).
  std::string lead;
  std::string text;
};

struct DiffLimits {
  // Bytes of each text compared; the rest is left out (`cut`).
  std::size_t max_bytes = 1u << 20;
  // dtl is given sequences whose lengths multiply to at most max_cells
  // (words, or chunks of words), and at most max_total_cells in all.
  std::size_t max_cells = 65'536;
  std::size_t max_total_cells = 4'000'000;
};

struct TextDiff {
  // In order; a removal comes before the addition that replaces it, and
  // adjacent parts never have the same op.
  std::vector<DiffPart> parts;
  std::size_t words_removed = 0;
  std::size_t words_added = 0;
  bool coarse = false;  // a stretch was too large to diff word by word
  bool cut = false;     // a text was longer than max_bytes
  bool changed() const { return words_removed + words_added > 0; }
};

TextDiff diff_words(std::string_view older, std::string_view newer, const DiffLimits& limits = {});

}  // namespace blogsearch
