// cgi_app.h: answering one web request, for CGI and FastCGI alike.
//
// CgiApp routes a request: it turns the CGI variables into a complete
// response (response.h): it decodes the parameters (cgi_request.h), runs
// the search (searcher.h) on the database its DatabaseWatcher keeps open
// (database_watcher.h) and renders HTML, JSON, Atom or OpenSearch
// (format_web.h, format.h), keeping answers in a ResponseCache
// (response_cache.h). cgi_main.cc only moves bytes.
//
// A request with post=ID is the page of that post (format_web.h:
// write_html_post), HTML only.
//
// Status codes: 200; 400 for a parameter or query syntax error (a page with
// the message and the form, or a JSON error object), or a version or diff
// the post does not have; 404 for a post=ID no post has; 405 for methods other
// than GET and HEAD; 503 when the database is missing or unreadable; 500 for
// anything else. Pages never show paths or internal messages: those go to
// the log function (stderr, the web server's error log).
//
// One CgiApp keeps its Searcher between requests (FastCGI) and opens it
// again when the database changed on disk (DatabaseWatcher). A search
// that fails because the database moved under it is retried on a freshly
// opened database, so a rebuild never fails a request.
//
// With `cache_entries` > 0 (FastCGI) successful answers are kept
// (ResponseCache) until the database changes on disk or `cache_seconds`
// pass; CgiApps given the same `shared_cache` keep them together.
//
// A CgiApp answers one request at a time (its Searcher's Xapian handles are
// not thread-safe); a FastCGI process runs several, one per thread that
// answers (searcher_slots.h).
// handle() never throws (except std::bad_alloc).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "web/cgi_request.h"
#include "query/searcher.h"
#include "web/database_watcher.h"
#include "web/response.h"
#include "web/response_cache.h"

namespace blogsearch::web {

struct PageContext;  // format_web.h

// The CGI meta-variables (RFC 3875) that the app reads.
struct CgiEnvironment {
  std::string request_method;  // REQUEST_METHOD
  std::string query_string;    // QUERY_STRING
  std::string script_name;     // SCRIPT_NAME, for absolute links
  std::string http_host;       // HTTP_HOST
  std::string server_name;     // SERVER_NAME (when there is no Host header)
  std::string server_port;     // SERVER_PORT
  std::string https;           // HTTPS ("on" behind TLS)
  std::string request_scheme;  // REQUEST_SCHEME
  std::string database;        // BLOGSEARCH_DB: from the server's environment only
};

// Headers every response carries.
inline constexpr const char* kContentSecurityPolicy =
    "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
    "base-uri 'none'; frame-ancestors 'none'";

struct CgiAppOptions {
  RequestLimits limits;
  // Where internal errors (with paths) are reported. Default: stderr.
  std::function<void(const std::string&)> log;
  // How often a search is retried on a reopened database before giving up,
  // and the pause before each retry (a rebuild's switch takes milliseconds).
  int retries = 8;
  int retry_pause_ms = 25;
  // The clock for relative since/until; tests fix it.
  std::function<UnixTime()> now;
  // Answers kept for repeated requests (0: none, as for one CGI request).
  std::size_t cache_entries = 0;
  std::size_t cache_bytes = ResponseCache::kDefaultBytes;  // all the kept answers together
  int cache_seconds = 60;
  // When set, the answers are kept there (with the other CgiApps of the
  // process) instead of in a cache of this app's own.
  std::shared_ptr<ResponseCache> shared_cache;
  // When set, the Searchers' per-post tables of a revision are shared
  // there with the other CgiApps of the process (query/revision_tables.h).
  std::shared_ptr<RevisionTables> shared_tables;
  // Posts' records, texts and facet terms kept by the searcher between
  // requests (searcher.h: SearcherOptions), in bytes; 0 for one CGI request.
  std::size_t searcher_cache_bytes = 0;
  // Run by the threads a search starts besides the request's (searcher.h:
  // SearcherOptions::helpers); cgi_main.cc lowers them with the request.
  HelperHooks searcher_helpers;
};

// The answer to a request that found the process busy past its wait
// (cgi_main.cc): 503 with Retry-After, in the request's format. Uses no
// CgiApp, so another thread may call it while one searches.
Response busy_response(const CgiEnvironment& env);

class CgiApp {
 public:
  explicit CgiApp(CgiAppOptions options = {});
  ~CgiApp();
  CgiApp(const CgiApp&) = delete;
  CgiApp& operator=(const CgiApp&) = delete;

  Response handle(const CgiEnvironment& env);

 private:
  void log(const std::string& message) const;
  Response search_response(const CgiEnvironment& env, PageContext& context);
  Response post_response(const CgiEnvironment& env, PageContext& context);
  // Runs `work` on the Searcher of the database, again on a freshly opened
  // one when the database moved under it; nullopt when it ran, else the
  // error response (400 for a QueryError, 503 or 500).
  std::optional<Response> on_database(const CgiEnvironment& env, const PageContext& context,
                                      const std::function<void(Searcher&)>& work);

  CgiAppOptions options_;
  DatabaseWatcher database_;
  std::shared_ptr<ResponseCache> cache_;
};

}  // namespace blogsearch::web
