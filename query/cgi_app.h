// cgi_app.h: answering one web request, for CGI and FastCGI alike.
//
// CgiApp turns the CGI variables of a request into a complete response
// (status, headers, body): it decodes the parameters (cgi_request.h), runs
// the search (searcher.h) and renders HTML, JSON, Atom or OpenSearch
// (format_web.h, format.h). cgi_main.cc only moves bytes.
//
// Status codes: 200; 400 for a parameter or query syntax error (a page with
// the message and the form, or a JSON error object); 405 for methods other
// than GET and HEAD; 503 when the database is missing or unreadable; 500 for
// anything else. Pages never show paths or internal messages: those go to
// the log function (stderr, the web server's error log).
//
// One CgiApp keeps its Searcher between requests (FastCGI). Before each
// request it checks whether the database changed on disk (a commit rewrites
// the generation's version file; a rebuild switches the XAPIANDB stub to a
// new generation and deletes the old) and opens it again if so. A search
// that fails because the database moved under it is retried on a freshly
// opened database, so a rebuild never fails a request.
//
// With `cache_entries` > 0 (FastCGI) successful answers are kept, keyed by
// the request, and served again until the database changes on disk or
// `cache_seconds` pass (the Cache-Control max-age; relative dates like
// since=30d move with time). A page served from the cache shows the time
// its search took when it was made.
// handle() never throws (except std::bad_alloc).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <ctime>
#include <functional>
#include <list>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "query/cgi_request.h"
#include "query/searcher.h"

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

struct Response {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;  // Content-Type first
  std::string body;
};

// "Status: 200 OK\r\nContent-Type: ...\r\n...\r\n\r\n" + body (no body for
// HEAD), as a CGI or FastCGI application writes it.
std::string serialize(const Response& response, bool head);
// The same without the body: what goes before it.
std::string serialize_headers(const Response& response);

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
  int cache_seconds = 60;
  // Posts' records, texts and facet terms kept by the searcher between
  // requests (searcher.h: SearcherOptions), in bytes; 0 for one CGI request.
  std::size_t searcher_cache_bytes = 0;
};

class CgiApp {
 public:
  explicit CgiApp(CgiAppOptions options = {});
  ~CgiApp();
  CgiApp(const CgiApp&) = delete;
  CgiApp& operator=(const CgiApp&) = delete;

  Response handle(const CgiEnvironment& env);

 private:
  // Identity of the database on disk: changes with every commit and switch.
  struct DiskState {
    bool valid = false;
    std::string generation;
    ino_t version_inode = 0;
    std::time_t version_mtime = 0;
    long version_mtime_ns = 0;
    off_t version_size = 0;
    bool operator==(const DiskState& o) const;
  };
  DiskState disk_state(const std::string& path);
  Searcher& searcher(const std::string& path);
  void forget_searcher();
  void log(const std::string& message) const;
  Response search_response(const CgiEnvironment& env, PageContext& context);

  // Least recently used first.
  struct CacheEntry {
    std::string key;
    Response response;
    std::chrono::steady_clock::time_point made;
  };
  const Response* cached(const std::string& key, const DiskState& state);
  void remember(const std::string& key, const Response& response);

  CgiAppOptions options_;
  std::unique_ptr<Searcher> searcher_;
  std::string searcher_path_;
  DiskState searcher_state_;
  // The XAPIANDB stub as last read, and the generation it named.
  struct StubSeen {
    std::string path;
    ino_t inode = 0;
    std::time_t mtime = 0;
    long mtime_ns = 0;
    off_t size = -1;
    std::string generation;
  } stub_seen_;
  std::list<CacheEntry> cache_;
  std::unordered_map<std::string, std::list<CacheEntry>::iterator> cache_index_;
  DiskState cache_state_;
};

}  // namespace blogsearch::web
