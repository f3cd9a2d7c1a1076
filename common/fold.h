// fold.h: diacritics folded away, so that "jurgen" finds "Jürgen" and
// "naive" finds "naïve" (issue 16).
//
// fold() maps each Latin letter with a diacritic of U+00C0..U+017F (Latin-1
// Supplement and Latin Extended-A: the letters of the languages Xapian
// stems in Latin script) to its ASCII base letters, keeping case: "ü" ->
// "u", "ß" -> "ss", "Æ" -> "AE", "ł" -> "l". Every other character,
// including any byte that is not valid UTF-8, is copied as it is. The
// indexer and the searcher both fold through schema::make_stemmer
// (schema.h), so the two sides agree. Never throws except std::bad_alloc.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/utf8.h"

namespace blogsearch::fold {

// The ASCII letters U+00C0 + i folds to; "" for the two signs (x, ÷).
inline constexpr const char* kLatinFold[192] = {
    "A", "A", "A", "A", "A", "A", "AE", "C", "E", "E", "E", "E", "I", "I", "I", "I",  // U+00C0
    "D", "N", "O", "O", "O", "O", "O", "", "O", "U", "U", "U", "U", "Y", "TH", "ss",  // U+00D0
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",  // U+00E0
    "d", "n", "o", "o", "o", "o", "o", "", "o", "u", "u", "u", "u", "y", "th", "y",  // U+00F0
    "A", "a", "A", "a", "A", "a", "C", "c", "C", "c", "C", "c", "C", "c", "D", "d",  // U+0100
    "D", "d", "E", "e", "E", "e", "E", "e", "E", "e", "E", "e", "G", "g", "G", "g",  // U+0110
    "G", "g", "G", "g", "H", "h", "H", "h", "I", "i", "I", "i", "I", "i", "I", "i",  // U+0120
    "I", "i", "IJ", "ij", "J", "j", "K", "k", "k", "L", "l", "L", "l", "L", "l", "L",  // U+0130
    "l", "L", "l", "N", "n", "N", "n", "N", "n", "n", "N", "n", "O", "o", "O", "o",  // U+0140
    "O", "o", "OE", "oe", "R", "r", "R", "r", "R", "r", "S", "s", "S", "s", "S", "s",  // U+0150
    "S", "s", "T", "t", "T", "t", "T", "t", "U", "u", "U", "u", "U", "u", "U", "u",  // U+0160
    "U", "u", "U", "u", "W", "w", "Y", "y", "Y", "Z", "z", "Z", "z", "Z", "z", "s",  // U+0170
};

// Whether `s` holds a character fold() changes. ASCII text is answered
// without decoding.
inline bool has_foldable(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    // U+00C0..U+017F are encoded as C3 80 .. C5 BF.
    if (c >= 0xC3 && c <= 0xC5 && i + 1 < s.size()) {
      std::uint32_t cp = 0;
      if (utf8::decode(s, i, cp) == 2 && cp >= 0xC0 && cp < 0x180 && *kLatinFold[cp - 0xC0]) return true;
    }
  }
  return false;
}

// `s` with its foldable letters folded.
inline std::string fold(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    std::uint32_t cp = 0;
    if (c >= 0xC3 && c <= 0xC5 && i + 1 < s.size() && utf8::decode(s, i, cp) == 2 && cp >= 0xC0 &&
        cp < 0x180 && *kLatinFold[cp - 0xC0]) {
      out += kLatinFold[cp - 0xC0];
      i += 2;
    } else {
      out += s[i++];
    }
  }
  return out;
}

}  // namespace blogsearch::fold
