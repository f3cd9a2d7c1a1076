// response.h: an HTTP response as the CGI program writes it.
//
// CgiApp (cgi_app.h) makes a Response for every request; cgi_main.cc writes
// it out with serialize_headers() and its body; the response cache
// (response_cache.h) keeps copies. Nothing here throws except
// std::bad_alloc.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace blogsearch::web {

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

// "OK", "Bad Request", ... for the status codes the CGI answers with.
const char* reason_phrase(int status);

}  // namespace blogsearch::web
