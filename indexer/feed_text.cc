// feed_text.cc: string rules for feed fields.
#include "indexer/feed_text.h"

#include <cctype>

#include "indexer/html_text.h"

namespace blogsearch {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
bool is_alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool is_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

}  // namespace

std::string trim_copy(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return std::string(s);
}

void append_utf8(std::string& out, unsigned cp) {
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

bool looks_like_html(std::string_view s) {
  for (std::size_t i = 0; i + 2 < s.size(); ++i) {
    char c = s[i];
    if (c == '<' && s[i + 1] == '/' && is_alpha(s[i + 2]) && s.find('>', i) != std::string_view::npos) {
      return true;
    }
    if (c == '&') {
      std::size_t semi = s.find(';', i);
      if (semi != std::string_view::npos && semi > i + 1 && semi - i <= 10) {
        bool word = true;
        for (std::size_t k = i + 1; k < semi; ++k) {
          word = word && (is_alnum(s[k]) || (k == i + 1 && s[k] == '#'));
        }
        if (word) return true;
      }
    }
  }
  return false;
}

bool has_scheme(std::string_view s) {
  std::size_t colon = s.find(':');
  if (colon == std::string_view::npos || colon == 0 || !is_alpha(s[0])) return false;
  for (std::size_t i = 0; i < colon; ++i) {
    char c = s[i];
    if (!(is_alnum(c) || c == '+' || c == '-' || c == '.')) return false;
  }
  return true;
}

bool is_web_address(std::string_view s) {
  auto starts = [&](std::string_view prefix) {
    if (s.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i) {
      if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
    }
    return true;
  };
  return starts("http://") || starts("https://");
}

std::string person_name(std::string_view raw) {
  std::string s = collapse_whitespace(raw);
  if (s.find('@') == std::string::npos) return s;
  std::size_t open = s.find('('), close = s.rfind(')');
  if (open != std::string::npos && close != std::string::npos && close > open + 1) {
    std::string inner = trim_copy(std::string_view(s).substr(open + 1, close - open - 1));
    if (inner.find('@') == std::string::npos) return inner;
    return trim_copy(std::string_view(s).substr(0, open));
  }
  std::size_t lt = s.find('<');
  if (lt != std::string::npos && lt > 0) return trim_copy(std::string_view(s).substr(0, lt));
  return s;
}

}  // namespace blogsearch
