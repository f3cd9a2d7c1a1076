// url.cc: one CURLU handle per call; these are not on a hot path.
#include "indexer/url.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>

#include "record/link_key.h"

namespace blogsearch {

namespace {

std::string url_part(const std::string& url, CURLUPart part) {
  std::string out;
  CURLU* u = curl_url();
  if (u && curl_url_set(u, CURLUPART_URL, url.c_str(), 0) == CURLUE_OK) {
    char* value = nullptr;
    if (curl_url_get(u, part, &value, 0) == CURLUE_OK && value) {
      out = value;
      curl_free(value);
    }
  }
  curl_url_cleanup(u);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

}  // namespace

namespace {

// Percent-encodes what a URL may not hold: bytes outside printable ASCII,
// space, and the few printable characters browsers also escape ("<>\"`{}|^").
// '%' is left alone, so escapes already present stay as they are.
std::string encode_unsafe(const std::string& s) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    bool unsafe = c <= 0x20 || c >= 0x7F || c == '"' || c == '<' || c == '>' || c == '`' ||
                  c == '{' || c == '}' || c == '|' || c == '^' || c == '\\';
    if (unsafe) {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string trimmed(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

}  // namespace

std::string resolve_url(const std::string& href, const std::string& base) {
  std::string rel = encode_unsafe(trimmed(href));
  if (rel.empty()) return rel;
  std::string out;
  CURLU* u = curl_url();
  if (u == nullptr) return rel;
  std::string b = encode_unsafe(trimmed(base));
  // libcurl resolves "#frag" against the base's directory; RFC 3986 5.2.2
  // keeps the whole base but its fragment.
  if (rel[0] == '#' && !b.empty() && curl_url_set(u, CURLUPART_URL, b.c_str(), CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK) {
    curl_url_cleanup(u);
    return b.substr(0, b.find('#')) + rel;
  }
  bool ok = false;
  if (!b.empty() && curl_url_set(u, CURLUPART_URL, b.c_str(), CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK) {
    ok = curl_url_set(u, CURLUPART_URL, rel.c_str(), CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK;
  } else {
    ok = curl_url_set(u, CURLUPART_URL, rel.c_str(), CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK;
  }
  char* value = nullptr;
  if (ok && curl_url_get(u, CURLUPART_URL, &value, 0) == CURLUE_OK && value) {
    out = value;
    curl_free(value);
  }
  curl_url_cleanup(u);
  return out.empty() ? rel : out;
}

std::string url_key(const std::string& url) {
  CURLU* u = curl_url();
  if (u == nullptr) return url;
  std::string out = url;
  // libcurl lowercases the scheme, removes dot segments and gives an empty
  // path as "/"; the rest is done here.
  if (curl_url_set(u, CURLUPART_URL, url.c_str(), CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK) {
    curl_url_set(u, CURLUPART_FRAGMENT, nullptr, 0);
    char* value = nullptr;
    if (curl_url_get(u, CURLUPART_QUERY, &value, 0) == CURLUE_OK && value) {
      if (*value == 0) curl_url_set(u, CURLUPART_QUERY, nullptr, 0);
      curl_free(value);
    }
    const std::string host = url_part(url, CURLUPART_HOST);  // lowercased
    if (!host.empty()) curl_url_set(u, CURLUPART_HOST, host.c_str(), 0);
    value = nullptr;
    if (curl_url_get(u, CURLUPART_URL, &value, CURLU_NO_DEFAULT_PORT) == CURLUE_OK && value) {
      out = canonical_escapes(value);  // libcurl keeps escapes as written
      curl_free(value);
    }
  }
  curl_url_cleanup(u);
  return out;
}

std::string url_host(const std::string& url) { return url_part(url, CURLUPART_HOST); }
std::string url_scheme(const std::string& url) { return url_part(url, CURLUPART_SCHEME); }

}  // namespace blogsearch
