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

#include "indexer/snapshot.h"
#include "indexer/writer.h"
#include "query/cgi_app.h"
#include "query/cgi_request.h"

namespace {

namespace web = blogsearch::web;

std::string g_dir;
std::unique_ptr<web::CgiApp> g_app;

void remove_dir() {
  g_app.reset();
  std::error_code ec;
  if (!g_dir.empty()) std::filesystem::remove_all(g_dir, ec);
}

bool same(const web::WebQuery& a, const web::WebQuery& b) {
  return a.q == b.q && a.page == b.page && a.n == b.n && a.sort == b.sort && a.since == b.since &&
         a.until == b.until && a.categories == b.categories && a.authors == b.authors &&
         a.feeds == b.feeds && a.format == b.format;
}

std::vector<std::string> split_lines(std::string_view s) {
  std::vector<std::string> lines;
  while (true) {
    std::size_t nl = s.find('\n');
    lines.emplace_back(s.substr(0, nl));
    if (nl == std::string_view::npos) break;
    s.remove_prefix(nl + 1);
  }
  return lines;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* env = std::getenv("BLOGSEARCH_FUZZ_DATA");
  std::string data = env ? env : BLOGSEARCH_SOURCE_DIR "/data";
  char tmpl[] = "/tmp/blogsearch-cgi-fuzz.XXXXXX";
  if (!mkdtemp(tmpl)) {
    std::cerr << "cgi_request_fuzz: cannot create a temporary directory\n";
    std::exit(1);
  }
  g_dir = tmpl;
  std::atexit(remove_dir);
  std::vector<std::string> errors;
  auto snapshots = blogsearch::collect_snapshots({data}, "", errors);
  if (snapshots.empty()) {
    std::cerr << "cgi_request_fuzz: no snapshots in " << data << " (set BLOGSEARCH_FUZZ_DATA)\n";
    std::exit(1);
  }
  {
    blogsearch::Writer writer(g_dir + "/db");
    writer.ingest(snapshots);
  }
  web::CgiAppOptions options;
  options.log = [](const std::string&) {};
  options.now = [] { return blogsearch::UnixTime{1790000000}; };
  options.retries = 0;
  g_app = std::make_unique<web::CgiApp>(options);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> lines =
      split_lines(std::string_view(reinterpret_cast<const char*>(data), size));
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
  env.database = g_dir + "/db";
  web::Response response = g_app->handle(env);
  if (response.status == 500) std::abort();
  web::serialize(response, web::parse_method(env.request_method) == web::Method::kHead);
  return 0;
}
