// html_text_fuzz.cc: libFuzzer target for html_to_text and collapse_whitespace.
//
// Beyond "does not crash", checks the promises of html_text.h that the index
// relies on: the text is valid UTF-8 and has no leading, trailing or doubled
// spaces, and the same text whether the fast path or Gumbo made it. A
// broken promise aborts, which libFuzzer reports as a crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "indexer/html_text.h"

namespace {

// RFC 3629 UTF-8: no overlongs, no surrogates, nothing above U+10FFFF.
bool valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t n;
    unsigned min;
    unsigned cp;
    if (c < 0x80) { ++i; continue; }
    if (c >= 0xC2 && c <= 0xDF) { n = 1; min = 0x80; cp = c & 0x1F; }
    else if (c >= 0xE0 && c <= 0xEF) { n = 2; min = 0x800; cp = c & 0x0F; }
    else if (c >= 0xF0 && c <= 0xF4) { n = 3; min = 0x10000; cp = c & 0x07; }
    else return false;
    if (i + n >= s.size()) return false;
    for (std::size_t k = 1; k <= n; ++k) {
      unsigned char d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n + 1;
  }
  return true;
}

bool collapsed(std::string_view s) {
  if (s.empty()) return true;
  if (s.front() == ' ' || s.back() == ' ') return false;
  return s.find("  ") == std::string_view::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view html(reinterpret_cast<const char*>(data), size);
  std::string text = blogsearch::html_to_text(html);
  if (!valid_utf8(text) || !collapsed(text)) std::abort();
  // The fast path for simple markup must give what Gumbo's tree gives.
  if (text != blogsearch::html_to_text_by_gumbo(html)) std::abort();
  std::string again = blogsearch::collapse_whitespace(html);
  if (!collapsed(again)) std::abort();
  return 0;
}
