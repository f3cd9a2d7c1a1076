#include "web/escape.h"

#include <uriparser/Uri.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

#include "common/utf8.h"

namespace blogsearch::web {

namespace {

const char kReplacement[] = "\xEF\xBF\xBD";  // U+FFFD

// Printable ASCII that no escaper here changes: copied in runs, as most
// text is made of it.
constexpr std::array<bool, 256> kPlainAscii = [] {
  std::array<bool, 256> plain{};
  for (int c = 0x20; c < 0x7F; ++c) plain[c] = c != '&' && c != '<' && c != '>' && c != '"' && c != '\'';
  return plain;
}();
bool plain_ascii(char c) { return kPlainAscii[static_cast<unsigned char>(c)]; }

// The bytes a URL component keeps as they are: ASCII letters, digits, "-._~".
constexpr std::array<bool, 256> kUnreserved = [] {
  std::array<bool, 256> keep{};
  for (int c = 0; c < 128; ++c)
    keep[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
              c == '_' || c == '~';
  return keep;
}();

char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Calls emit(bytes, cp) for each character of `text`, valid UTF-8 with
// control characters dropped and bad bytes replaced; a run of plain_ascii
// characters comes as one call with cp == 0.
template <typename Emit>
void for_each_char(std::string_view text, Emit emit) {
  for (std::size_t i = 0; i < text.size();) {
    std::size_t run = i;
    // Eight bytes at a time while all are plain, then one by one (the
    // flags are summed rather than joined with && so that there is one
    // branch per eight bytes).
    auto plain8 = [&text](std::size_t at) {
      int n = 0;
      for (std::size_t k = 0; k < 8; ++k) n += plain_ascii(text[at + k]) ? 1 : 0;
      return n == 8;
    };
    while (run + 8 <= text.size() && plain8(run))
      run += 8;
    while (run < text.size() && plain_ascii(text[run])) ++run;
    if (run > i) {
      emit(text.substr(i, run - i), 0);
      i = run;
      continue;
    }
    std::uint32_t cp = 0;
    std::size_t len = utf8::decode(text, i, cp);
    if (len == 0) {
      emit(std::string_view(kReplacement), 0xFFFD);
      ++i;
      continue;
    }
    if (!dropped_character(cp)) emit(text.substr(i, len), cp);
    i += len;
  }
}

}  // namespace

// Control characters that HTML calls parse errors and XML 1.0 forbids or
// discourages; none carries meaning in a title or a query.
bool dropped_character(std::uint32_t cp) {
  if (cp < 0x20) return cp != '\t' && cp != '\n' && cp != '\r';
  return (cp >= 0x7F && cp <= 0x9F) || cp == 0xFFFE || cp == 0xFFFF;
}

char* write_escaped_markup(char* out, std::string_view text) {
  for_each_char(text, [&out](std::string_view bytes, std::uint32_t cp) {
    switch (cp) {
      case '&': bytes = "&amp;"; break;
      case '<': bytes = "&lt;"; break;
      case '>': bytes = "&gt;"; break;
      case '"': bytes = "&quot;"; break;
      case '\'': bytes = "&#39;"; break;
      default: break;
    }
    std::memcpy(out, bytes.data(), bytes.size());
    out += bytes.size();
  });
  return out;
}

std::string valid_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for_each_char(text, [&out](std::string_view bytes, std::uint32_t) { out += bytes; });
  return out;
}

std::string escape_markup(std::string_view text) {
  std::string out(text.size() * kMarkupBytesPerByte, '\0');
  out.resize(static_cast<std::size_t>(write_escaped_markup(out.data(), text) - out.data()));
  return out;
}

void append_url_component(std::string& out, std::string_view text) {
  // Most values (feed ids, months, page numbers, plain words) need nothing.
  if (std::all_of(text.begin(), text.end(), [](char c) { return kUnreserved[static_cast<unsigned char>(c)]; })) {
    out += text;
    return;
  }
  const std::string valid = valid_text(text);
  // uriparser writes at most three bytes per input byte, plus the NUL.
  const std::size_t at = out.size();
  out.resize(at + valid.size() * 3 + 1);
  const char* end = uriEscapeExA(valid.data(), valid.data() + valid.size(), &out[at], URI_TRUE, URI_FALSE);
  out.resize(static_cast<std::size_t>(end - out.data()));
}

std::string url_component(std::string_view text) {
  std::string out;
  append_url_component(out, text);
  return out;
}

std::string safe_http_url(std::string_view link) {
  // Most links are printable ASCII already: nothing to repair.
  const bool printable = std::all_of(link.begin(), link.end(), [](char c) { return c > 0x20 && c < 0x7F; });
  const std::string url = printable ? std::string(link) : valid_text(link);
  auto starts_with = [&url](std::string_view scheme) {
    if (url.size() <= scheme.size()) return false;
    for (std::size_t i = 0; i < scheme.size(); ++i)
      if (ascii_lower(url[i]) != scheme[i]) return false;
    return true;
  };
  if (!starts_with("http://") && !starts_with("https://")) return "";
  if (!printable)
    for (unsigned char c : url)
      if (c <= 0x20) return "";
  return url;
}

}  // namespace blogsearch::web
