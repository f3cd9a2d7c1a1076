// blogsearch.cgi: the search page and API, as CGI or FastCGI.
//
// Run by a web server as a CGI program it answers one request from its
// environment and exits. Started by a FastCGI spawner (lighttpd's
// fastcgi.server, spawn-fcgi, systemd socket) it finds a listening socket on
// stdin (libfcgi's FCGX_IsCGI) and answers requests in a loop, keeping the
// database open between them. Either way the database is BLOGSEARCH_DB from
// the server's environment, never anything from the request. Everything else
// is CgiApp (cgi_app.h); this file only moves bytes.
#include <fcgiapp.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "query/cgi_app.h"

namespace {

using blogsearch::web::CgiApp;
using blogsearch::web::CgiEnvironment;
using blogsearch::web::Method;
using blogsearch::web::parse_method;
using blogsearch::web::serialize;

template <typename Get>
CgiEnvironment read_environment(Get get, const std::string& database) {
  CgiEnvironment env;
  env.request_method = get("REQUEST_METHOD");
  env.query_string = get("QUERY_STRING");
  env.script_name = get("SCRIPT_NAME");
  env.http_host = get("HTTP_HOST");
  env.server_name = get("SERVER_NAME");
  env.server_port = get("SERVER_PORT");
  env.https = get("HTTPS");
  env.request_scheme = get("REQUEST_SCHEME");
  env.database = database;
  return env;
}

std::string getenv_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

int main() {
  // The process environment, not the request's, names the database: a
  // FastCGI request's parameters could carry any BLOGSEARCH_DB.
  const std::string database = getenv_or_empty("BLOGSEARCH_DB");

  if (FCGX_IsCGI()) {
    CgiApp app;
    if (getenv_or_empty("GATEWAY_INTERFACE").empty() && getenv_or_empty("REQUEST_METHOD").empty()) {
      std::cerr << "blogsearch.cgi: run me from a web server (CGI or FastCGI); "
                   "tools/serve starts one\n";
      return 2;
    }
    CgiEnvironment env = read_environment(getenv_or_empty, database);
    const std::string out = serialize(app.handle(env), parse_method(env.request_method) == Method::kHead);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
  }

  blogsearch::web::CgiAppOptions options;
  options.cache_entries = 256;
  if (const std::string n = getenv_or_empty("BLOGSEARCH_CGI_CACHE"); !n.empty()) {
    char* end = nullptr;
    const unsigned long entries = std::strtoul(n.c_str(), &end, 10);
    if (*end != '\0' || entries > 100000) {
      std::cerr << "blogsearch.cgi: BLOGSEARCH_CGI_CACHE must be a number of answers (0 to 100000)\n";
      return 2;
    }
    options.cache_entries = entries;
  }
  CgiApp app(options);
  if (FCGX_Init() != 0) {
    std::cerr << "blogsearch.cgi: cannot initialise FastCGI\n";
    return 1;
  }
  FCGX_Request request;
  FCGX_InitRequest(&request, 0, 0);
  while (FCGX_Accept_r(&request) >= 0) {
    auto get = [&request](const char* name) {
      const char* v = FCGX_GetParam(name, request.envp);
      return std::string(v ? v : "");
    };
    CgiEnvironment env = read_environment(get, database);
    const std::string out = serialize(app.handle(env), parse_method(env.request_method) == Method::kHead);
    FCGX_PutStr(out.data(), static_cast<int>(out.size()), request.out);
    FCGX_Finish_r(&request);
  }
  return 0;
}
