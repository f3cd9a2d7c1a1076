#include "query/cgi_app.h"

#include <sys/stat.h>

#include <chrono>
#include <iostream>
#include <thread>

#include "indexer/schema.h"
#include "query/format.h"
#include "query/format_web.h"

namespace blogsearch::web {

namespace {

const char* reason_phrase(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 503: return "Service Unavailable";
    default: return "Internal Server Error";
  }
}

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
               // new sheet has a new URL, so browsers may keep this one.
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
  for (const char* name : {"since", "until", "limit", "category", "author", "feed"}) {
    const std::string option = std::string("--") + name;
    for (std::size_t at; (at = message.find(option)) != std::string::npos;) message.replace(at, option.size(), name);
  }
  return message;
}

Response error_response(const PageError& error, const PageContext& context) {
  if (context.query.format == OutputFormat::kJson) {
    nlohmann::json j = {{"error", error.message}, {"status", error.status}};
    if (error.column > 0) j["column"] = error.column;
    return make_response(error.status, OutputFormat::kJson, dump_json(j, false) + "\n");
  }
  std::string body;
  write_html_error(body, error, context);
  Response r = make_response(error.status, OutputFormat::kHtml, std::move(body));
  if (error.status == 503) r.headers.emplace_back("Retry-After", "30");
  return r;
}

}  // namespace

std::string serialize_headers(const Response& response) {
  std::string out = "Status: " + std::to_string(response.status) + " " + reason_phrase(response.status) + "\r\n";
  for (const auto& [name, value] : response.headers) out += name + ": " + value + "\r\n";
  out += "Content-Length: " + std::to_string(response.body.size()) + "\r\n\r\n";
  return out;
}

std::string serialize(const Response& response, bool head) {
  std::string out = serialize_headers(response);
  if (!head) out += response.body;
  return out;
}

bool CgiApp::DiskState::operator==(const DiskState& o) const {
  return valid == o.valid && generation == o.generation && version_inode == o.version_inode &&
         version_mtime == o.version_mtime && version_mtime_ns == o.version_mtime_ns &&
         version_size == o.version_size;
}

CgiApp::CgiApp(CgiAppOptions options) : options_(std::move(options)) {}
CgiApp::~CgiApp() = default;

void CgiApp::log(const std::string& message) const {
  if (options_.log) options_.log(message);
  else std::cerr << "blogsearch.cgi: " << message << std::endl;
}

// A glass database rewrites its version file "iamglass" (a new inode) at
// every commit; behind a stub the live generation is named in XAPIANDB,
// which a rebuild replaces by a rename (a new inode): it is read again only
// then, so a request costs two stat calls.
CgiApp::DiskState CgiApp::disk_state(const std::string& path) {
  DiskState s;
  std::string dir = path;
  struct stat st {};
  const std::string stub = path + "/" + schema::kStubFile;
  if (::stat(stub.c_str(), &st) == 0) {
    StubSeen seen{path, st.st_ino, st.st_mtim.tv_sec, st.st_mtim.tv_nsec, st.st_size, ""};
    if (!(seen.path == stub_seen_.path && seen.inode == stub_seen_.inode && seen.mtime == stub_seen_.mtime &&
          seen.mtime_ns == stub_seen_.mtime_ns && seen.size == stub_seen_.size)) {
      seen.generation = schema::live_generation(path);
      stub_seen_ = seen;
    }
    s.generation = stub_seen_.generation;
    if (!s.generation.empty()) dir = path + "/" + s.generation;
  }
  if (::stat((dir + "/iamglass").c_str(), &st) != 0) return s;
  s.valid = true;
  s.version_inode = st.st_ino;
  s.version_mtime = st.st_mtim.tv_sec;
  s.version_mtime_ns = st.st_mtim.tv_nsec;
  s.version_size = st.st_size;
  return s;
}

Searcher& CgiApp::searcher(const std::string& path) {
  DiskState now = disk_state(path);
  if (searcher_ && (path != searcher_path_ || !now.valid || !(now == searcher_state_))) forget_searcher();
  if (!searcher_) {
    SearcherOptions options;
    options.cache_bytes = options_.searcher_cache_bytes;
    searcher_ = std::make_unique<Searcher>(path, options);
    searcher_path_ = path;
    searcher_state_ = now;
  }
  return *searcher_;
}

void CgiApp::forget_searcher() {
  searcher_.reset();
  searcher_path_.clear();
  searcher_state_ = DiskState{};
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
  if (!decoded.error.empty()) return error_response({400, "Cannot search: " + decoded.error + "."}, context);

  if (context.query.format == OutputFormat::kOpenSearch) {
    std::string body;
    write_opensearch(body, context);
    return make_response(200, OutputFormat::kOpenSearch, std::move(body));
  }
  if (context.query.format == OutputFormat::kStyle) {
    return make_response(200, OutputFormat::kStyle, std::string(page_style()));
  }
  if (env.database.empty()) {
    log("BLOGSEARCH_DB is not set in the web server's environment");
    return error_response({503, "The search index is not configured."}, context);
  }

  // Answers depend on the request, the host its links are made for, and
  // the database; the key holds the first two, disk_state the last.
  const bool cacheable = options_.cache_entries > 0 && env.query_string.size() <= 4096;
  std::string key;
  DiskState state;
  if (cacheable) {
    key = context.self_url + "?" + env.query_string;
    state = disk_state(env.database);
    if (const Response* hit = cached(key, state)) return *hit;
  }
  Response response = search_response(env, context);
  if (cacheable && response.status == 200) remember(key, response);
  return response;
}

const Response* CgiApp::cached(const std::string& key, const DiskState& state) {
  if (!state.valid || !(state == cache_state_)) {
    cache_.clear();
    cache_index_.clear();
    cache_state_ = state;
    return nullptr;
  }
  auto it = cache_index_.find(key);
  if (it == cache_index_.end()) return nullptr;
  if (std::chrono::steady_clock::now() - it->second->made > std::chrono::seconds(options_.cache_seconds)) {
    cache_.erase(it->second);
    cache_index_.erase(it);
    return nullptr;
  }
  cache_.splice(cache_.end(), cache_, it->second);
  return &it->second->response;
}

void CgiApp::remember(const std::string& key, const Response& response) {
  if (!cache_state_.valid || cache_index_.count(key)) return;
  while (cache_.size() >= options_.cache_entries) {
    cache_index_.erase(cache_.front().key);
    cache_.pop_front();
  }
  cache_.push_back({key, response, std::chrono::steady_clock::now()});
  cache_index_[key] = std::prev(cache_.end());
}

Response CgiApp::search_response(const CgiEnvironment& env, PageContext& context) {
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
      request.facets = {"category", "author", "feed", "month"};
      request.facet_limit = 24;  // the histogram shows two years
      break;
    case OutputFormat::kOpenSearch:
    case OutputFormat::kStyle: break;
  }

  SearchResult result;
  for (int attempt = 0;; ++attempt) {
    try {
      result = searcher(env.database).search(request);
      break;
    } catch (const QueryError& e) {
      return error_response({400, web_wording(e.detail()), e.query(), e.column(), e.length()}, context);
    } catch (const std::exception& e) {
      // DatabaseUnavailable or a Xapian error passed on as runtime_error:
      // during a rebuild the generation this searcher read may be gone, so
      // open the database again (the stub now names the new one) and retry.
      // A missing database or one of another schema stays so: no retry.
      forget_searcher();
      struct stat st {};
      const bool exists = ::stat(env.database.c_str(), &st) == 0;
      const bool lasting = dynamic_cast<const SchemaMismatch*>(&e) != nullptr;
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

  std::string body;
  switch (context.query.format) {
    case OutputFormat::kJson:
      body = dump_json(result_to_json(result, JsonOptions{}), false) + "\n";
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
