// feed_text.cc: string rules for feed fields.
#include "indexer/feed_text.h"

#include <cctype>
#include <cstring>

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

namespace {

std::size_t word_count(std::string_view s) {
  std::size_t n = 0;
  bool in_word = false;
  for (char c : s) {
    if (is_space(c)) {
      in_word = false;
    } else if (!in_word) {
      in_word = true;
      ++n;
    }
  }
  return n;
}

bool is_name_suffix(const std::string& part) {
  static const char* const kSuffixes[] = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "phd", "ph.d.", "md", "m.d."};
  std::string lower;
  for (char c : part) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* s : kSuffixes) {
    if (lower == s) return true;
  }
  return false;
}

}  // namespace

std::string person_text(std::string_view raw) {
  // Feeds put links to author pages in author elements, escaped or not;
  // only the name belongs in the index.
  std::string s = looks_like_html(raw) ? html_to_text(raw) : collapse_whitespace(raw);
  if (s.size() > 3 && (s[0] == 'b' || s[0] == 'B') && (s[1] == 'y' || s[1] == 'Y')) {
    std::size_t i = 2;
    if (s[i] == ':') ++i;
    if (i < s.size() && s[i] == ' ') {
      std::string rest = trim_copy(std::string_view(s).substr(i));
      if (!rest.empty()) s = std::move(rest);
    }
  }
  return person_name(s);
}

std::vector<std::string> split_byline(const std::string& name) {
  if (name.empty()) return {};
  std::vector<std::string> parts;
  if (name.find(';') != std::string::npos) {
    std::size_t start = 0;
    while (start <= name.size()) {
      std::size_t semi = name.find(';', start);
      if (semi == std::string::npos) semi = name.size();
      std::string part = trim_copy(std::string_view(name).substr(start, semi - start));
      if (!part.empty()) parts.push_back(std::move(part));
      start = semi + 1;
    }
    return parts.empty() ? std::vector<std::string>{name} : parts;
  }
  // Separators, longest first so ", and " is one conjunction, not a comma.
  struct Sep {
    const char* text;
    bool conjunction;
  };
  static const Sep kSeps[] = {{", and ", true}, {", & ", true}, {" and ", true}, {" & ", true}, {", ", false}};
  std::vector<bool> conjunctions;
  std::size_t start = 0;
  for (std::size_t i = 0; i < name.size();) {
    const Sep* found = nullptr;
    for (const Sep& sep : kSeps) {
      if (name.compare(i, std::strlen(sep.text), sep.text) == 0) {
        found = &sep;
        break;
      }
    }
    if (found == nullptr) {
      ++i;
      continue;
    }
    parts.push_back(trim_copy(std::string_view(name).substr(start, i - start)));
    conjunctions.push_back(found->conjunction);
    i += std::strlen(found->text);
    start = i;
  }
  if (parts.empty()) return {name};
  parts.push_back(trim_copy(std::string_view(name).substr(start)));
  // Commas alone join a name and its affiliation ("Ann Lee, Red Hat") as
  // often as people: only a list closed by a conjunction is split.
  if (!conjunctions.back()) return {name};
  for (std::size_t k = 0; k + 1 < conjunctions.size(); ++k) {
    if (conjunctions[k]) return {name};  // "A and B, C": not a list
  }
  for (const auto& p : parts) {
    // A comma left inside a part ("Xu,Markus Lee") means the separators
    // are irregular: where one name ends is then a guess.
    if (p.empty() || is_name_suffix(p) || p.find(',') != std::string::npos) return {name};
  }
  if (parts.size() == 2 && (word_count(parts[0]) < 2 || word_count(parts[1]) < 2)) return {name};
  return parts;
}

bool decode_base64(std::string_view in, std::string& out) {
  out.clear();
  out.reserve(in.size() / 4 * 3);
  unsigned bits = 0;
  int nbits = 0;
  bool padding = false;
  for (char ch : in) {
    if (is_space(ch)) continue;
    if (ch == '=') {
      padding = true;
      continue;
    }
    int v;
    if (ch >= 'A' && ch <= 'Z') {
      v = ch - 'A';
    } else if (ch >= 'a' && ch <= 'z') {
      v = ch - 'a' + 26;
    } else if (ch >= '0' && ch <= '9') {
      v = ch - '0' + 52;
    } else if (ch == '+') {
      v = 62;
    } else if (ch == '/') {
      v = 63;
    } else {
      return false;
    }
    if (padding) return false;  // data after '='
    bits = (bits << 6) | static_cast<unsigned>(v);
    nbits += 6;
    if (nbits >= 8) {
      nbits -= 8;
      out += static_cast<char>((bits >> nbits) & 0xFF);
    }
  }
  return nbits < 6;  // a lone trailing character cannot hold a byte
}

std::string items_skipped_warning(const std::string& file, std::size_t items, std::size_t read) {
  auto with_commas = [](std::size_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
      if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
      out += digits[i];
    }
    return out;
  };
  return file + ": " + with_commas(items) + " items; only the first " + with_commas(read) + " read (--max-items)";
}

}  // namespace blogsearch
