// link_key.cc: the parts of RFC 3986's split, each made canonical.
#include "record/link_key.h"

#include <algorithm>
#include <cctype>

namespace blogsearch {

namespace {

struct Parts {
  std::string_view scheme, authority, path, query, fragment;
  bool ok = false;
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// ^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?  with scheme
// and authority required.
Parts split(std::string_view url) {
  Parts p;
  url = trim(url);
  const std::size_t colon = url.find(':');
  if (colon == 0 || colon == std::string_view::npos || url.find_first_of("/?#") < colon) return p;
  p.scheme = url.substr(0, colon);
  std::string_view rest = url.substr(colon + 1);
  if (rest.substr(0, 2) != "//") return p;
  rest.remove_prefix(2);
  const std::size_t authority_end = std::min(rest.find_first_of("/?#"), rest.size());
  p.authority = rest.substr(0, authority_end);
  rest.remove_prefix(authority_end);
  if (const std::size_t hash = rest.find('#'); hash != std::string_view::npos) {
    p.fragment = rest.substr(hash + 1);
    rest = rest.substr(0, hash);
  }
  const std::size_t question = std::min(rest.find('?'), rest.size());
  p.path = rest.substr(0, question);
  if (question < rest.size()) p.query = rest.substr(question + 1);
  p.ok = true;
  return p;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string host_of(const Parts& p) {
  std::string_view a = p.authority;
  if (const std::size_t at = a.rfind('@'); at != std::string_view::npos) a.remove_prefix(at + 1);
  std::string host = lower(a);
  // A port after the host (not inside an IPv6 literal's brackets).
  if (const std::size_t colon = host.rfind(':'); colon != std::string::npos && host.find(']', colon) == std::string::npos) {
    const std::string port = host.substr(colon + 1);
    const std::string scheme = lower(p.scheme);
    if (port.empty() || (port == "80" && scheme == "http") || (port == "443" && scheme == "https") ||
        (port == "80" && scheme == "https") || (port == "443" && scheme == "http"))
      host.erase(colon);
  }
  while (!host.empty() && host.back() == '.') host.pop_back();
  if (host.compare(0, 4, "www.") == 0 && host.size() > 4) host.erase(0, 4);
  return host;
}

// Bytes a URL may not hold as they are are percent-encoded; an escape of
// an unreserved character is decoded ("%7E" -> "~"), the others get
// upper-case hex digits (RFC 3986 sections 6.2.2.1 and 6.2.2.2).
void append_encoded(std::string& out, std::string_view s) {
  static const char hex[] = "0123456789ABCDEF";
  auto value = [](char h) { return std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (h | 0x20) - 'a' + 10; };
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      const char decoded = static_cast<char>(value(s[i + 1]) * 16 + value(s[i + 2]));
      if (std::isalnum(static_cast<unsigned char>(decoded)) || decoded == '-' || decoded == '.' || decoded == '_' ||
          decoded == '~') {
        out += decoded;
      } else {
        out += '%';
        out += static_cast<char>(std::toupper(static_cast<unsigned char>(s[i + 1])));
        out += static_cast<char>(std::toupper(static_cast<unsigned char>(s[i + 2])));
      }
      i += 2;
    } else if (c <= 0x20 || c >= 0x7f || c == '"' || c == '<' || c == '>' || c == '\\' || c == '^' || c == '`' ||
               c == '{' || c == '|' || c == '}' || c == '%') {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
}

// Parameters that say where a click came from, not what was asked for.
bool tracking(std::string_view name) {
  const std::string n = lower(name);
  return n.compare(0, 4, "utm_") == 0 || n == "fbclid" || n == "gclid" || n == "mc_cid" || n == "mc_eid" ||
         n == "ref_src";
}

// Whether `segment` is a language code a site puts first in its paths:
// two letters, or two and a region ("de", "pt-br", "en_US").
bool language_segment(std::string_view segment) {
  auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
  if (segment.size() != 2 && segment.size() != 5) return false;
  if (!letter(segment[0]) || !letter(segment[1])) return false;
  return segment.size() == 2 || ((segment[2] == '-' || segment[2] == '_') && letter(segment[3]) && letter(segment[4]));
}

std::string key_of(Parts p, bool keep_fragment, bool drop_language) {
  if (!p.ok) return {};
  if (drop_language && p.path.size() > 1) {
    const std::size_t end = std::min(p.path.find('/', 1), p.path.size());
    if (language_segment(p.path.substr(1, end - 1))) p.path.remove_prefix(end);
  }
  std::string key;
  const std::string scheme = lower(p.scheme);
  if (scheme != "http" && scheme != "https") key = scheme + ":";
  const std::string host = host_of(p);
  if (host.empty()) return {};
  key += host;
  std::string_view path = p.path;
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  append_encoded(key, path);
  std::string query;
  std::string_view q = p.query;
  while (!q.empty()) {
    const std::size_t amp = std::min(q.find('&'), q.size());
    const std::string_view param = q.substr(0, amp);
    q.remove_prefix(std::min(amp + 1, q.size()));
    if (param.empty() || tracking(param.substr(0, param.find('=')))) continue;
    query += query.empty() ? '?' : '&';
    append_encoded(query, param);
  }
  key += query;
  if (keep_fragment && !p.fragment.empty()) {
    key += '#';
    append_encoded(key, p.fragment);
  }
  return key;
}

}  // namespace

std::string canonical_escapes(std::string_view url) {
  std::string out;
  out.reserve(url.size());
  append_encoded(out, url);
  return out;
}

std::string link_key(std::string_view url) { return key_of(split(url), false, false); }

std::string link_key_host(std::string_view url) {
  const Parts p = split(url);
  return p.ok ? host_of(p) : std::string();
}

std::string pasted_link(std::string_view query) {
  const std::string_view text = trim(query);
  if (text.empty()) return {};
  for (char c : text)
    if (std::isspace(static_cast<unsigned char>(c)) || c == '"' || static_cast<unsigned char>(c) < 0x20) return {};
  auto starts_with = [&text](std::string_view prefix) {
    if (text.size() <= prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i]) return false;
    return true;
  };
  std::string link;
  if (starts_with("http://") || starts_with("https://")) {
    link = text;
  } else {
    const std::size_t slash = text.find('/');
    if (slash == std::string_view::npos || slash == 0) return {};
    const std::string_view host = text.substr(0, slash);
    if (host.find('.') == std::string_view::npos || host.front() == '.' || host.back() == '.') return {};
    for (char c : host)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') return {};
    link = "https://" + std::string(text);
  }
  return link_key_host(link).empty() ? std::string() : link;
}

std::string duplicate_key(std::string_view url, std::string_view title) {
  std::string key = key_of(split(url), true, true);
  if (key.empty()) return key;
  key += '\n';
  bool space = false;
  for (char c : trim(title)) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = true;
      continue;
    }
    if (space) key += ' ';
    space = false;
    key += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  }
  return key;
}

}  // namespace blogsearch
