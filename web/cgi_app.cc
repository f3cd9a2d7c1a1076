#include "web/cgi_app.h"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <thread>

#include "query/format.h"
#include "query/revision_tables.h"
#include "query/version_diff.h"
#include "web/format_web.h"
#include "web/output_caps.h"

namespace blogsearch::web {

namespace {

const char* content_type(OutputFormat format) {
  switch (format) {
    case OutputFormat::kJson: return "application/json";
    case OutputFormat::kAtom: return "application/atom+xml; charset=utf-8";
    case OutputFormat::kOpenSearch: return "application/opensearchdescription+xml; charset=utf-8";
    case OutputFormat::kStyle: return "text/css; charset=utf-8";
    case OutputFormat::kHtml: break;
  }
  return "text/html; charset=utf-8";
}

Response make_response(int status, OutputFormat format, std::string body) {
  Response r;
  r.status = status;
  r.headers = {{"Content-Type", content_type(format)},
               {"Content-Security-Policy", kContentSecurityPolicy},
               {"X-Content-Type-Options", "nosniff"},
               {"Referrer-Policy", "no-referrer"},
               {"X-Frame-Options", "DENY"},
               // The style sheet's link carries its hash (style_version): a
               // new sheet has a new URL, so browsers may keep this one
               // (handle() shortens it for a URL without the right hash).
               {"Cache-Control", status != 200                  ? "no-store"
                                 : format == OutputFormat::kStyle ? "public, max-age=31536000, immutable"
                                                                  : "max-age=60"}};
  r.body = std::move(body);
  return r;
}

// A host name as a Host header may carry it (name or [v6], optional port);
// anything else is not trusted into links.
bool plausible_host(const std::string& host) {
  if (host.empty() || host.size() > 255) return false;
  for (unsigned char c : host)
    if (!(std::isalnum(c) || c == '.' || c == '-' || c == ':' || c == '[' || c == ']')) return false;
  return true;
}

bool plausible_path(const std::string& path) {
  if (path.empty() || path[0] != '/' || path.size() > 1024) return false;
  for (unsigned char c : path)
    if (!(std::isalnum(c) || c == '/' || c == '.' || c == '-' || c == '_' || c == '~')) return false;
  return true;
}

std::string self_url(const CgiEnvironment& env) {
  std::string host = plausible_host(env.http_host) ? env.http_host : "";
  if (host.empty() && plausible_host(env.server_name)) {
    host = env.server_name;
    if (!env.server_port.empty() && env.server_port != "80" && env.server_port != "443" &&
        plausible_host(env.server_port))
      host += ":" + env.server_port;
  }
  if (host.empty()) return "";
  const bool tls = env.https == "on" || env.https == "ON" || env.https == "1" || env.request_scheme == "https";
  return std::string(tls ? "https://" : "http://") + host +
         (plausible_path(env.script_name) ? env.script_name : "/");
}

// QueryError messages name CLI options; on the web they are parameters.
std::string web_wording(std::string message) {
  std::vector<std::string_view> names = {"since", "until", "limit"};
  for (const FacetInfo& f : kFacetTable)
    if (!f.parameter.empty()) names.push_back(f.parameter);
  for (std::string_view name : names) {
    const std::string option = "--" + std::string(name);
    for (std::size_t at; (at = message.find(option)) != std::string::npos;) message.replace(at, option.size(), name);
  }
  return message;
}

Response error_response(const PageError& error, const PageContext& context) {
  if (context.query.format == OutputFormat::kJson) {
    nlohmann::json j = {{"error", error.message}, {"status", error.status}};
    if (error.column > 0) j["column"] = error.column;
    Response r = make_response(error.status, OutputFormat::kJson, dump_json(j, false) + "\n");
    if (error.status == 503) r.headers.emplace_back("Retry-After", "30");
    return r;
  }
  std::string body;
  write_html_error(body, error, context);
  Response r = make_response(error.status, OutputFormat::kHtml, std::move(body));
  if (error.status == 503) r.headers.emplace_back("Retry-After", "30");
  return r;
}

}  // namespace

Response busy_response(const CgiEnvironment& env) {
  PageContext context;
  context.query = decode_query_string(env.query_string).query;
  context.self_url = self_url(env);
  Response r = error_response({503, "The search is busy. Please try again in a moment."}, context);
  for (auto& [name, value] : r.headers)
    if (name == "Retry-After") value = "1";
  if (std::none_of(r.headers.begin(), r.headers.end(), [](const auto& h) { return h.first == "Retry-After"; }))
    r.headers.emplace_back("Retry-After", "1");
  return r;
}

CgiApp::CgiApp(CgiAppOptions options)
    : options_(std::move(options)),
      database_(options_.searcher_cache_bytes, kStubRecheck, options_.shared_tables, options_.searcher_helpers),
      cache_(options_.shared_cache ? options_.shared_cache
                                   : std::make_shared<ResponseCache>(options_.cache_entries, options_.cache_seconds,
                                                                     options_.cache_bytes)) {}
CgiApp::~CgiApp() = default;

void CgiApp::log(const std::string& message) const {
  if (options_.log) options_.log(message);
  else std::cerr << "blogsearch.cgi: " << message << std::endl;
}

Response CgiApp::handle(const CgiEnvironment& env) {
  DecodedRequest decoded = decode_query_string(env.query_string, options_.limits);
  PageContext context;
  context.query = decoded.query;
  context.notices = decoded.notices;
  context.self_url = self_url(env);

  if (parse_method(env.request_method) == Method::kOther) {
    Response r = error_response({405, "This search only answers GET and HEAD requests."}, context);
    r.headers.emplace_back("Allow", "GET, HEAD");
    return r;
  }
  if (!decoded.error.empty())
    return error_response(
        {400, (decoded.names_post ? "Cannot show this post: " : "Cannot search: ") + decoded.error + ".", "", 0, 1,
         decoded.names_post},
        context);

  if (context.query.format == OutputFormat::kOpenSearch) {
    std::string body;
    write_opensearch(body, context);
    return make_response(200, OutputFormat::kOpenSearch, std::move(body));
  }
  if (context.query.format == OutputFormat::kStyle) {
    Response r = make_response(200, OutputFormat::kStyle, std::string(page_style()));
    // Only the sheet's own URL (its hash, as pages link it) names this
    // sheet for good; another v, or none, is kept as long as a page.
    if (context.query.style_hash != style_version())
      for (auto& [name, value] : r.headers)
        if (name == "Cache-Control") value = "max-age=60";
    return r;
  }
  if (env.database.empty()) {
    log("BLOGSEARCH_DB is not set in the web server's environment");
    return error_response({503, "The search index is not configured."}, context);
  }

  // Answers depend on the request, the host its links are made for, and
  // the database; the key holds the first two, the cache its DiskState.
  const bool cacheable = cache_->enabled() && env.query_string.size() <= 4096;
  std::string key;
  DiskState state;
  if (cacheable) {
    key = context.self_url + "?" + env.query_string;
    state = database_.state(env.database);
    if (std::optional<Response> hit = cache_->find(key, state)) return std::move(*hit);
  }
  Response response = search_response(env, context);
  if (cacheable && response.status == 200) cache_->put(key, response, state);
  return response;
}

std::optional<Response> CgiApp::on_database(const CgiEnvironment& env, const PageContext& context,
                                            const std::function<void(Searcher&)>& work) {
  for (int attempt = 0;; ++attempt) {
    try {
      work(database_.searcher(env.database));
      return std::nullopt;
    } catch (const QueryError& e) {
      return error_response({400, web_wording(e.detail()), e.query(), e.column(), e.length()}, context);
    } catch (const std::exception& e) {
      // DatabaseUnavailable or a Xapian error passed on as runtime_error:
      // during a rebuild the generation this searcher read may be gone, so
      // open the database again (the stub now names the new one) and retry.
      // A missing database or one of another schema stays so, and a remote
      // shard that did not answer would take as long again: no retry.
      database_.forget();
      struct stat st {};
      const bool exists = ::stat(env.database.c_str(), &st) == 0;
      const bool lasting =
          dynamic_cast<const SchemaMismatch*>(&e) != nullptr || dynamic_cast<const ShardsUnreachable*>(&e) != nullptr;
      if (!exists || lasting || attempt >= options_.retries) {
        log(e.what());
        const bool unavailable = dynamic_cast<const DatabaseUnavailable*>(&e) != nullptr;
        return error_response({unavailable ? 503 : 500,
                               unavailable ? "The search index cannot be read right now. Please try again later."
                                           : "The search failed. Please try again later."},
                              context);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(options_.retry_pause_ms * (attempt + 1)));
    }
  }
}

Response CgiApp::post_response(const CgiEnvironment& env, PageContext& context) {
  const WebQuery& w = context.query;
  if (w.post.empty())
    return error_response({400, "version and diff belong to a post's page: add post=ID."}, context);
  if (w.format != OutputFormat::kHtml)
    return error_response({400, "A post's page is HTML only: leave out format."}, context);
  if (w.version && w.diff_from)
    return error_response({400, "Ask for one version or for one diff, not both."}, context);

  PostPageRequest request;
  request.post = w.post;
  request.query_text = w.q;
  // The page shows the current text (the post's own), one version's or a
  // diff's: the other versions' texts are not rebuilt.
  request.texts = HistoryTexts::of({long{w.version}, long{w.diff_from}, long{w.diff_to}});
  std::optional<PostPage> page;
  if (auto failed = on_database(env, context, [&](Searcher& searcher) { page = searcher.post_page(request); }))
    return *failed;
  if (!page) return error_response({404, "No archived post has this id or link."}, context);

  // A version the post does not have is named, as the CLI does
  // ("This post has 2 versions (1 to 2); there is no version 3.").
  for (unsigned asked : {w.version, w.diff_from, w.diff_to}) {
    const std::string missing = asked ? version_range_error(page->history, asked) : "";
    if (!missing.empty()) return error_response({400, "This " + missing + "."}, context);
  }
  const std::size_t count = page->history.versions.size();
  const std::string versions = count == 1 ? "one version" : std::to_string(count) + " versions";
  if (w.diff_from && w.diff_from == w.diff_to)
    return error_response({400, "This post has " + versions + ": diff takes two different ones, as in diff=1-2."},
                          context);
  std::string body;
  write_html_post(body, *page, context);
  return make_response(200, OutputFormat::kHtml, std::move(body));
}

Response CgiApp::search_response(const CgiEnvironment& env, PageContext& context) {
  if (!context.query.post.empty() || context.query.version || context.query.diff_from)
    return post_response(env, context);
  const UnixTime now = options_.now ? options_.now()
                                    : static_cast<UnixTime>(std::chrono::duration_cast<std::chrono::seconds>(
                                          std::chrono::system_clock::now().time_since_epoch())
                                                                .count());
  SearchRequest request;
  try {
    request = to_search_request(context.query, now);
  } catch (const QueryError& e) {
    return error_response({400, web_wording(e.what())}, context);
  }
  const bool start_page = context.query.is_empty();
  switch (context.query.format) {
    case OutputFormat::kAtom:
      // A feed reader wants the newest matches, not the best ones.
      request.sort = SortOrder::kDate;
      request.reverse = false;
      break;
    case OutputFormat::kHtml:
    case OutputFormat::kJson:
      for (const FacetInfo& f : kFacetTable) request.facets.push_back(f.kind);
      request.facet_limit = 24;  // the histogram shows two years
      break;
    case OutputFormat::kOpenSearch:
    case OutputFormat::kStyle: break;
  }

  SearchResult result;
  auto search = [&](Searcher& searcher) {
    // The recency boost cannot run on remote shards (docs/multi-host.md):
    // the page shows the best matches and says so, as a 400 would not.
    if (request.sort == SortOrder::kRecent && searcher.over_remote_shards()) {
      request.sort = SortOrder::kRelevance;
      context.query.sort = "relevance";
      context.notices.push_back("Recent first is not available on this site: the best matches come first.");
    }
    result = searcher.search(request);
  };
  if (auto failed = on_database(env, context, search)) return *failed;

  cap_result(result);
  std::string body;
  switch (context.query.format) {
    case OutputFormat::kJson:
      // The CLI's model without the snapshots' file paths (pages never show paths).
      body = dump_json(result_to_json(result, JsonOptions{false, context.query.history, false}), false) + "\n";
      break;
    case OutputFormat::kAtom:
      write_atom(body, result, context);
      break;
    default:
      if (start_page) write_html_start(body, result, context);
      else write_html_results(body, result, context);
  }
  return make_response(200, context.query.format, std::move(body));
}

}  // namespace blogsearch::web
