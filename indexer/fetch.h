// fetch.h: downloading feeds with libcurl's multi interface.
//
// All requests run in parallel (bounded overall and per host), with
// conditional GET, at most `max_redirects` redirects, every content encoding
// libcurl supports, connect and total timeouts, a body cap, TLS verification,
// retries with exponential backoff on timeouts, connection failures and 5xx,
// and Retry-After honoured on 429/503. Only http and https are allowed, also
// for redirects.
//
// fetch_all never throws for network or HTTP trouble: each response carries
// its own error text. It throws std::runtime_error only when libcurl itself
// cannot be set up.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "indexer/post.h"

namespace blogsearch {

struct FetchRequest {
  std::string feed_id;
  std::string url;
  std::string etag;           // sent as If-None-Match when not empty
  std::string last_modified;  // sent as If-Modified-Since when not empty
};

struct FetchResponse {
  std::string feed_id;
  int status = 0;             // final HTTP status; 0 when no response came
  std::string error;          // "" when the feed answered 200 or 304; ends with " (N attempts)" after retries
  std::string body;           // 200 only
  std::string final_url;      // after redirects
  bool permanent_redirect = false;  // every redirect was 301 or 308
  std::string etag, last_modified, date, content_type;
  Time fetched_at = 0;
  int attempts = 0;
  double seconds = 0;         // time spent on the last attempt
};

struct FetchOptions {
  long connect_timeout_seconds = 15;
  long timeout_seconds = 60;
  std::size_t max_body_bytes = 32u << 20;  // after decoding, so gzip bombs stop too
  long max_redirects = 5;
  int max_parallel = 16;
  int max_per_host = 2;
  int max_retries = 2;                // extra attempts after the first
  double backoff_seconds = 1.0;       // doubled at each retry
  long max_retry_after_seconds = 60;  // a longer Retry-After is not waited for
  std::string user_agent;             // default: blogsearch/VERSION (+HOMEPAGE)
};

std::vector<FetchResponse> fetch_all(const std::vector<FetchRequest>& requests, const FetchOptions& options = {});

// "blogsearch/0.1.0 (+https://...)".
std::string default_user_agent();

}  // namespace blogsearch
