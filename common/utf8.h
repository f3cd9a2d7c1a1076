// utf8.h: the one place that knows how UTF-8 is laid out.
//
// Cutting text to a byte budget without splitting a character, decoding one
// character strictly (what the web escaper and the HTML stripper need:
// overlong forms, surrogates and code points above U+10FFFF are invalid),
// and counting characters. Everything is inline (these run per character
// in the escaper and the stripper) and works on bytes: nothing allocates,
// nothing throws.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace blogsearch::utf8 {

// A byte that continues a multi-byte sequence (10xxxxxx).
constexpr bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The largest length <= max at which `text` can be cut without splitting a
// character: `max` itself when text[max] starts a character (or max is at
// or past the end: then text.size()).
constexpr std::size_t boundary_before(std::string_view text, std::size_t max) {
  if (max >= text.size()) return text.size();
  while (max > 0 && is_continuation(text[max])) --max;
  return max;
}

// At most `max_bytes` of `text`, ending at a character boundary.
constexpr std::string_view truncate(std::string_view text, std::size_t max_bytes) {
  return text.substr(0, boundary_before(text, max_bytes));
}

// Cuts `text` in place to at most `max_bytes`, at a character boundary.
// True when something was cut.
inline bool truncate_in_place(std::string& text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return false;
  text.resize(boundary_before(text, max_bytes));
  return true;
}

// The length of the valid, shortest-form sequence at text[i], with its
// code point in `cp`; 0 when the bytes there are not one (a stray or
// missing continuation byte, an overlong form such as C0 BC for '<', a
// surrogate, a code point above U+10FFFF, a sequence cut by the end).
// i must be < text.size().
constexpr std::size_t decode(std::string_view text, std::size_t i, std::uint32_t& cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
  const unsigned char c = b(0);
  std::size_t len = 0;
  std::uint32_t min = 0;
  if (c < 0x80) {
    cp = c;
    return 1;
  }
  if ((c & 0xE0) == 0xC0) { len = 2; cp = c & 0x1F; min = 0x80; }
  else if ((c & 0xF0) == 0xE0) { len = 3; cp = c & 0x0F; min = 0x800; }
  else if ((c & 0xF8) == 0xF0) { len = 4; cp = c & 0x07; min = 0x10000; }
  else return 0;
  if (i + len > text.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if (!is_continuation(static_cast<char>(b(k)))) return 0;
    cp = (cp << 6) | (b(k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

// The characters in `text`: bytes that are not continuation bytes (so a
// stray byte counts as one).
constexpr std::size_t count_chars(std::string_view text) {
  std::size_t n = 0;
  for (char c : text) n += !is_continuation(c);
  return n;
}

// Appends code point `cp` (at most U+10FFFF, not a surrogate) as UTF-8.
inline void append(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace blogsearch::utf8
