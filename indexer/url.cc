// url.cc: one CURLU handle per call; these are not on a hot path.
#include "indexer/url.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>

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

std::string url_host(const std::string& url) { return url_part(url, CURLUPART_HOST); }
std::string url_scheme(const std::string& url) { return url_part(url, CURLUPART_SCHEME); }

}  // namespace blogsearch
