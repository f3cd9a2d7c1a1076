// fetch.cc: a small scheduler around curl_multi.
//
// Jobs wait in a queue with a "not before" time; the loop starts those whose
// time has come while the overall and per-host limits allow, and re-queues
// retryable failures with backoff instead of sleeping, so one slow or
// failing feed never holds up the others.
#include "indexer/fetch.h"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <map>
#include <memory>
#include <stdexcept>

#include "indexer/url.h"
#include "version.h"

namespace blogsearch {

namespace {

using Clock = std::chrono::steady_clock;

std::string trim(std::string s) {
  auto sp = [](unsigned char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!s.empty() && sp(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && sp(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

struct Job {
  std::size_t index = 0;  // into requests/responses
  std::string host;
  Clock::time_point not_before;
  int attempt = 0;
  CURL* easy = nullptr;
  curl_slist* headers = nullptr;
  std::string body;
  bool too_large = false;
  std::size_t max_body = 0;
  // Per response in the redirect chain: status codes seen, and the
  // headers of the last one.
  std::vector<long> chain;
  std::string etag, last_modified, date, content_type, retry_after;
  char error[CURL_ERROR_SIZE] = {0};
  Clock::time_point started;
};

size_t on_body(char* data, size_t size, size_t n, void* user) {
  auto* job = static_cast<Job*>(user);
  const size_t len = size * n;
  if (job->body.size() + len > job->max_body) {
    job->too_large = true;
    return 0;  // makes libcurl abort the transfer
  }
  job->body.append(data, len);
  return len;
}

size_t on_header(char* data, size_t size, size_t n, void* user) {
  auto* job = static_cast<Job*>(user);
  const size_t len = size * n;
  std::string line(data, len);
  if (line.rfind("HTTP/", 0) == 0) {
    // A new response in the chain: its headers replace the previous one's.
    std::size_t sp = line.find(' ');
    job->chain.push_back(sp == std::string::npos ? 0 : std::strtol(line.c_str() + sp + 1, nullptr, 10));
    job->etag.clear();
    job->last_modified.clear();
    job->date.clear();
    job->content_type.clear();
    job->retry_after.clear();
    return len;
  }
  std::size_t colon = line.find(':');
  if (colon == std::string::npos) return len;
  std::string name = line.substr(0, colon);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  std::string value = trim(line.substr(colon + 1));
  if (name == "etag") job->etag = value;
  else if (name == "last-modified") job->last_modified = value;
  else if (name == "date") job->date = value;
  else if (name == "content-type") job->content_type = value;
  else if (name == "retry-after") job->retry_after = value;
  return len;
}

// Seconds to wait according to Retry-After (delta or HTTP date); -1 if none.
long retry_after_seconds(const std::string& value) {
  if (value.empty()) return -1;
  if (std::all_of(value.begin(), value.end(), [](unsigned char c) { return std::isdigit(c); }))
    return std::strtol(value.c_str(), nullptr, 10);
  time_t when = curl_getdate(value.c_str(), nullptr);
  if (when < 0) return -1;
  return std::max<long>(0, static_cast<long>(when - std::time(nullptr)));
}

}  // namespace

std::string default_user_agent() {
  return std::string("blogsearch/") + BLOGSEARCH_VERSION + " (+" + BLOGSEARCH_HOMEPAGE + ")";
}

std::vector<FetchResponse> fetch_all(const std::vector<FetchRequest>& requests, const FetchOptions& options) {
  static const CURLcode global_init = curl_global_init(CURL_GLOBAL_DEFAULT);
  if (global_init != CURLE_OK) throw std::runtime_error("libcurl could not be initialised");

  std::vector<FetchResponse> responses(requests.size());
  std::vector<std::unique_ptr<Job>> queue;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    responses[i].feed_id = requests[i].feed_id;
    auto job = std::make_unique<Job>();
    job->index = i;
    job->host = url_host(requests[i].url);
    job->not_before = Clock::now();
    queue.push_back(std::move(job));
  }
  const std::string user_agent = options.user_agent.empty() ? default_user_agent() : options.user_agent;

  CURLM* multi = curl_multi_init();
  if (!multi) throw std::runtime_error("libcurl could not create a transfer set");
  std::map<CURL*, std::unique_ptr<Job>> active;
  std::map<std::string, int> per_host;

  auto start = [&](std::unique_ptr<Job> job) {
    const FetchRequest& req = requests[job->index];
    CURL* e = curl_easy_init();
    job->easy = e;
    job->body.clear();
    job->too_large = false;
    job->chain.clear();
    job->max_body = options.max_body_bytes;
    job->error[0] = 0;
    job->attempt++;
    job->started = Clock::now();
    curl_easy_setopt(e, CURLOPT_URL, req.url.c_str());
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(e, CURLOPT_MAXREDIRS, options.max_redirects);
    curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");  // every encoding libcurl was built with
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT, options.connect_timeout_seconds);
    curl_easy_setopt(e, CURLOPT_TIMEOUT, options.timeout_seconds);
    curl_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(options.max_body_bytes));
    curl_easy_setopt(e, CURLOPT_USERAGENT, user_agent.c_str());
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 2L);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, job.get());
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, job.get());
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, job->error);
    curl_slist_free_all(job->headers);
    job->headers = nullptr;
    if (!req.etag.empty()) job->headers = curl_slist_append(job->headers, ("If-None-Match: " + req.etag).c_str());
    if (!req.last_modified.empty())
      job->headers = curl_slist_append(job->headers, ("If-Modified-Since: " + req.last_modified).c_str());
    job->headers = curl_slist_append(job->headers, "Accept: application/rss+xml, application/atom+xml, application/feed+json, application/rdf+xml, application/xml;q=0.9, text/xml;q=0.9, application/json;q=0.8, */*;q=0.5");
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, job->headers);
    per_host[job->host]++;
    curl_multi_add_handle(multi, e);
    active.emplace(e, std::move(job));
  };

  // Decides what a finished transfer means; returns the delay before a
  // retry, or a negative number when the job is done.
  auto finish = [&](Job& job, CURLcode code) -> double {
    FetchResponse& r = responses[job.index];
    long status = 0;
    curl_easy_getinfo(job.easy, CURLINFO_RESPONSE_CODE, &status);
    char* url = nullptr;
    curl_easy_getinfo(job.easy, CURLINFO_EFFECTIVE_URL, &url);
    r.status = static_cast<int>(status);
    r.final_url = url ? url : requests[job.index].url;
    r.fetched_at = std::time(nullptr);
    r.attempts = job.attempt;
    r.seconds = std::chrono::duration<double>(Clock::now() - job.started).count();
    r.etag = job.etag;
    r.last_modified = job.last_modified;
    r.date = job.date;
    r.content_type = job.content_type;
    r.permanent_redirect = job.chain.size() > 1 &&
                           std::all_of(job.chain.begin(), job.chain.end() - 1, [](long s) { return s == 301 || s == 308; });
    r.body.clear();
    r.error.clear();
    const bool retries_left = job.attempt <= options.max_retries;
    const double backoff = options.backoff_seconds * static_cast<double>(1 << (job.attempt - 1));
    if (job.too_large || code == CURLE_FILESIZE_EXCEEDED) {
      r.error = "body larger than " + std::to_string(options.max_body_bytes) + " bytes, aborted";
      return -1;
    }
    if (code != CURLE_OK) {
      r.error = job.error[0] ? job.error : curl_easy_strerror(code);
      const bool transient = code == CURLE_OPERATION_TIMEDOUT || code == CURLE_COULDNT_CONNECT ||
                             code == CURLE_RECV_ERROR || code == CURLE_SEND_ERROR || code == CURLE_GOT_NOTHING ||
                             code == CURLE_PARTIAL_FILE;
      return transient && retries_left ? backoff : -1;
    }
    if (status == 200) {
      r.body = std::move(job.body);
      return -1;
    }
    if (status == 304) return -1;
    r.error = "HTTP " + std::to_string(status);
    if (status == 429 || status == 503) {
      long wait = retry_after_seconds(job.retry_after);
      if (wait > options.max_retry_after_seconds) {
        r.error += " (Retry-After " + std::to_string(wait) + " s, not retried now)";
        return -1;
      }
      if (retries_left) return wait >= 0 ? static_cast<double>(wait) : backoff;
      return -1;
    }
    if (status >= 500 && retries_left) return backoff;
    return -1;
  };

  while (!queue.empty() || !active.empty()) {
    const auto now = Clock::now();
    for (auto it = queue.begin(); it != queue.end();) {
      Job& j = **it;
      if (j.not_before <= now && static_cast<int>(active.size()) < options.max_parallel &&
          per_host[j.host] < options.max_per_host) {
        std::unique_ptr<Job> job = std::move(*it);
        it = queue.erase(it);
        start(std::move(job));
      } else {
        ++it;
      }
    }
    int running = 0;
    curl_multi_perform(multi, &running);
    int left = 0;
    bool slot_freed = false;
    while (CURLMsg* msg = curl_multi_info_read(multi, &left)) {
      if (msg->msg != CURLMSG_DONE) continue;
      CURL* e = msg->easy_handle;
      CURLcode code = msg->data.result;
      auto node = active.extract(e);
      std::unique_ptr<Job> job = std::move(node.mapped());
      double retry_in = finish(*job, code);
      // The retries' backoff is most of the time a failing feed takes:
      // its error says they were made (the message is the last attempt's).
      std::string& error = responses[job->index].error;
      if (retry_in < 0 && !error.empty() && job->attempt > 1)
        error += " (" + std::to_string(job->attempt) + " attempts)";
      curl_multi_remove_handle(multi, e);
      curl_easy_cleanup(e);
      job->easy = nullptr;
      per_host[job->host]--;
      slot_freed = true;
      if (retry_in >= 0) {
        job->not_before = Clock::now() + std::chrono::milliseconds(static_cast<long>(retry_in * 1000));
        queue.push_back(std::move(job));
      } else {
        curl_slist_free_all(job->headers);
        job->headers = nullptr;
      }
    }
    if (active.empty() && queue.empty()) break;
    // A finished transfer frees a slot: start the next one now rather than
    // after the poll below, which only wakes for the transfers still running
    // (or not at all when none is).
    if (slot_freed) continue;
    // A job waiting for a slot starts when a transfer ends, which wakes the
    // poll; a job with a free slot waiting for its backoff wakes it by time.
    auto next_wake = Clock::now() + std::chrono::seconds(1);
    for (const auto& j : queue)
      if (static_cast<int>(active.size()) < options.max_parallel && per_host[j->host] < options.max_per_host)
        next_wake = std::min(next_wake, j->not_before);
    auto wait_ms = std::chrono::duration_cast<std::chrono::milliseconds>(next_wake - Clock::now()).count();
    curl_multi_poll(multi, nullptr, 0, static_cast<int>(std::clamp<long long>(wait_ms, 0, 1000)), nullptr);
  }
  curl_multi_cleanup(multi);
  return responses;
}

}  // namespace blogsearch
