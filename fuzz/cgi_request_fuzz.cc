// cgi_request_fuzz.cc: libFuzzer target for a web request: CGI variables ->
// decoded parameters (cgi_request.h) -> CgiApp's whole answer (cgi_app.h),
// against a small database built once from data/.
//
// Input lines: QUERY_STRING, then optionally REQUEST_METHOD, HTTP_HOST,
// SCRIPT_NAME. Checked beyond "no crash, leak or timeout":
//   - decode_query_string never throws, and a request it accepts reads back
//     the same from to_query_string (the page's links ask for what was asked);
//   - CgiApp::handle never throws and never answers 500 (500 is "a bug").
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_database.h"
#include "web/cgi_app.h"
#include "web/cgi_request.h"

namespace {

namespace web = blogsearch::web;

std::string g_db;
std::unique_ptr<web::CgiApp> g_app;

bool same(const web::WebQuery& a, const web::WebQuery& b) {
  return a.q == b.q && a.page == b.page && a.n == b.n && a.sort == b.sort && a.since == b.since &&
         a.until == b.until && a.categories == b.categories && a.authors == b.authors &&
         a.feeds == b.feeds && a.format == b.format;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g_db = blogsearch::fuzz::build_fuzz_database("cgi_request_fuzz", [] { g_app.reset(); });
  web::CgiAppOptions options;
  options.log = [](const std::string&) {};
  options.now = [] { return blogsearch::UnixTime{1790000000}; };
  options.retries = 0;
  g_app = std::make_unique<web::CgiApp>(options);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> lines =
      blogsearch::fuzz::split_lines(std::string_view(reinterpret_cast<const char*>(data), size));
  web::DecodedRequest decoded = web::decode_query_string(lines[0]);
  if (decoded.error.empty()) {
    web::DecodedRequest again = web::decode_query_string(web::to_query_string(decoded.query));
    if (!again.error.empty() || !same(decoded.query, again.query)) std::abort();
  }
  web::CgiEnvironment env;
  env.query_string = lines[0];
  env.request_method = lines.size() > 1 ? lines[1] : "GET";
  if (lines.size() > 2) env.http_host = lines[2];
  if (lines.size() > 3) env.script_name = lines[3];
  env.server_name = "localhost";
  env.server_port = "80";
  env.database = g_db;
  web::Response response = g_app->handle(env);
  if (response.status == 500) std::abort();
  web::serialize(response, web::parse_method(env.request_method) == web::Method::kHead);
  return 0;
}
