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
#include <malloc.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "common/prefault.h"
#include "common/stdout_check.h"
#include "query/revision_tables.h"
#include "web/cgi_app.h"
#include "web/request_priority.h"
#include "web/searcher_slots.h"

namespace {

using blogsearch::web::busy_response;
using blogsearch::web::CgiApp;
using blogsearch::web::CgiEnvironment;
using blogsearch::web::Method;
using blogsearch::web::parse_method;
using blogsearch::web::PriorityWatch;
using blogsearch::web::Response;
using blogsearch::web::ResponseCache;
using blogsearch::web::SearcherSlots;
using blogsearch::web::serialize;
using blogsearch::web::serialize_headers;

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

constexpr unsigned long kUnset = static_cast<unsigned long>(-1);

// Searchers of a FastCGI process (BLOGSEARCH_CGI_SEARCHERS): requests it
// answers at once.
constexpr unsigned long kDefaultSearchers = 4;
constexpr unsigned long kMaxSearchers = 64;

// Growth of the resident size past which a FastCGI process returns memory
// after a request: 16 MB, or a quarter of its size after the last trim when
// that is more.
constexpr std::size_t kTrimAboveBytes = std::size_t{16} << 20;

// The process's resident bytes (/proc/self/statm: the kernel's counters,
// a few microseconds whatever the heap); 0 when it cannot be read.
std::size_t resident_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "re");
  if (!f) return 0;
  unsigned long size = 0, resident = 0;
  const bool read = std::fscanf(f, "%lu %lu", &size, &resident) == 2;
  std::fclose(f);
  return read ? resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE)) : 0;
}

// The resident size after the first request or the last trim, or the
// smallest seen since.
std::atomic<std::size_t> settled_bytes{0};

// A large request (a big page, many posting lists) leaves glibc's heap
// holding its peak: when the process has grown by more than
// kTrimAboveBytes since the last trim, what is free goes back to the system,
// so that each process keeps its working size. The check is the resident
// size, not malloc's counters: mallinfo2() walks every free chunk with the
// arena locked, 4 to 7 ms after each request over 100,000 posts (54,000
// free chunks), while requests of the other threads waited for the lock.
// malloc_trim() walks them too: 70 to 180 ms over a million posts, where
// ordinary requests come and go by 20 MB of a 160 MB process, so the
// allowance grows with the process and ordinary requests never trim.
void return_free_memory() {
  const std::size_t resident = resident_bytes();
  const std::size_t settled = settled_bytes.load();
  // The first request's size (its tables read) is where the process starts;
  // memory that went back on its own (a table dropped) lowers it.
  if (settled == 0 || resident < settled) {
    settled_bytes.store(resident);
    return;
  }
  if (resident <= settled + std::max(kTrimAboveBytes, settled / 4)) return;
  malloc_trim(0);
  settled_bytes.store(resident_bytes());
}

// The decimal number in environment variable `name`, at most `max`: kUnset
// when it is not set. False when it is set to anything else.
bool number_from_environment(const char* name, unsigned long max, unsigned long* out) {
  const std::string text = getenv_or_empty(name);
  *out = kUnset;
  if (text.empty()) return true;
  if (text.find_first_not_of("0123456789") != std::string::npos || text.size() > 9) return false;
  *out = std::strtoul(text.c_str(), nullptr, 10);
  return *out <= max;
}

// Writes `response` to the web server (no body for HEAD).
void write_response(FCGX_Request& request, const CgiEnvironment& env, const Response& response,
                    const std::string& content_length) {
  const std::string headers = serialize_headers(response);
  bool written = FCGX_PutStr(headers.data(), static_cast<int>(headers.size()), request.out) >= 0;
  if (written && parse_method(env.request_method) != Method::kHead)
    written = FCGX_PutStr(response.body.data(), static_cast<int>(response.body.size()), request.out) >= 0;
  // A client that went away is the web server's business; say so once.
  if (!written) std::cerr << "blogsearch.cgi: the answer could not be written to the web server\n";
  // libfcgi closes a connection by shutting down its side and waiting
  // until the web server has closed too (so that input the server still
  // sends cannot reset the connection): one more sleep and wake-up per
  // request. A request without a body has nothing left to send once its
  // empty stdin is read, so it is closed at once (FCGX_Detach; measured:
  // 4% more requests per second and 5% less CPU per request). A request
  // with a body keeps the waiting close.
  if (content_length.empty() || content_length == "0") {
    char rest[256];
    while (FCGX_GetStr(rest, sizeof rest, request.in) > 0) {
    }
    FCGX_Detach(&request);
  }
}

}  // namespace

int main() {
  // The process environment, not the request's, names the database: a
  // FastCGI request's parameters could carry any BLOGSEARCH_DB.
  const std::string database = getenv_or_empty("BLOGSEARCH_DB");

  if (FCGX_IsCGI()) {
    blogsearch::prefault_short_process();  // one request, then the process ends
    CgiApp app;
    if (getenv_or_empty("GATEWAY_INTERFACE").empty() && getenv_or_empty("REQUEST_METHOD").empty()) {
      std::cerr << "blogsearch.cgi: run me from a web server (CGI or FastCGI); "
                   "tools/serve starts one\n";
      return 2;
    }
    CgiEnvironment env = read_environment(getenv_or_empty, database);
    const std::string out = serialize(app.handle(env), parse_method(env.request_method) == Method::kHead);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return blogsearch::finish_stdout("blogsearch.cgi") ? 0 : 1;
  }

  blogsearch::web::CgiAppOptions options;
  options.cache_entries = 256;
  options.searcher_cache_bytes = std::size_t{64} << 20;
  unsigned long n = 0;
  if (!number_from_environment("BLOGSEARCH_CGI_CACHE", 100000, &n)) {
    std::cerr << "blogsearch.cgi: BLOGSEARCH_CGI_CACHE must be a number of answers (0 to 100000)\n";
    return 2;
  }
  if (n != kUnset) options.cache_entries = n;
  if (!number_from_environment("BLOGSEARCH_CGI_CACHE_MB", 65536, &n)) {
    std::cerr << "blogsearch.cgi: BLOGSEARCH_CGI_CACHE_MB must be a number of MiB (0 to 65536)\n";
    return 2;
  }
  if (n != kUnset) options.cache_bytes = std::size_t{n} << 20;
  if (!number_from_environment("BLOGSEARCH_CGI_DOC_CACHE_MB", 65536, &n)) {
    std::cerr << "blogsearch.cgi: BLOGSEARCH_CGI_DOC_CACHE_MB must be a number of MiB (0 to 65536)\n";
    return 2;
  }
  if (n != kUnset) options.searcher_cache_bytes = std::size_t{n} << 20;
  // Several searchers answer at once, each a CgiApp of its own (a Searcher's
  // Xapian handles serve one thread at a time), so that an ordinary search
  // never waits for an expensive one: it waits only when every searcher of
  // its process is answering. They share the answer cache and the per-post
  // tables of a revision; the records and texts budget is divided between
  // them, so the process keeps its bounds.
  if (!number_from_environment("BLOGSEARCH_CGI_SEARCHERS", kMaxSearchers, &n) || n == 0) {
    std::cerr << "blogsearch.cgi: BLOGSEARCH_CGI_SEARCHERS must be a number of searchers (1 to "
              << kMaxSearchers << ")\n";
    return 2;
  }
  const std::size_t searchers = n != kUnset ? n : kDefaultSearchers;
  options.searcher_cache_bytes /= searchers;
  options.shared_cache = std::make_shared<ResponseCache>(options.cache_entries, options.cache_seconds, options.cache_bytes);
  options.shared_tables = std::make_shared<blogsearch::RevisionTables>();
  SearcherSlots slots(searchers);
  if (FCGX_Init() != 0) {
    std::cerr << "blogsearch.cgi: cannot initialise FastCGI\n";
    return 1;
  }
  // One thread more than searchers takes requests. A request that finds
  // every searcher busy waits for one at most BLOGSEARCH_CGI_WAIT_MS
  // (default 200: twice what the worst request costs), then is
  // answered 503 with Retry-After instead of queueing behind a process that
  // is stuck: the web server's other processes, or the client a second
  // later, get it.
  if (!number_from_environment("BLOGSEARCH_CGI_WAIT_MS", 60000, &n)) {
    std::cerr << "blogsearch.cgi: BLOGSEARCH_CGI_WAIT_MS must be a number of milliseconds (0 to 60000)\n";
    return 2;
  }
  const std::chrono::milliseconds wait(n != kUnset ? n : 200);
  // SIGTERM (what a web server sends its FastCGI processes when it stops),
  // SIGINT, SIGHUP and SIGUSR1 are taken by one thread of their own: it
  // lets the requests in hand finish (5 s at most) and exits. Left to
  // libfcgi's handler they would only stop a thread that is in accept, and
  // a process whose signal hit another thread would stay behind its server.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  for (int sig : {SIGTERM, SIGINT, SIGHUP, SIGUSR1}) sigaddset(&stop_signals, sig);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);  // for every thread made from here
  // A request that has used BLOGSEARCH_CGI_LOWER_AFTER_MS of CPU (default
  // 2; an ordinary search uses well under 1 on a quiet machine) finishes at
  // the lowest priority, so that expensive requests cannot slow the others
  // (request_priority.h); its thread then ends and a new one takes its
  // place. Each millisecond an expensive request runs at the ordinary
  // priority is one the ordinary searches of every process wait for.
  if (!number_from_environment("BLOGSEARCH_CGI_LOWER_AFTER_MS", 60000, &n)) {
    std::cerr << "blogsearch.cgi: BLOGSEARCH_CGI_LOWER_AFTER_MS must be a number of milliseconds (0 to 60000, "
                 "0: never)\n";
    return 2;
  }
  PriorityWatch priority(std::chrono::milliseconds(n != kUnset ? n : 2));
  // The threads a search starts to help it (the match by shard, the
  // facets' sample) are lowered with its request.
  options.searcher_helpers.started = [&priority](pid_t caller) { priority.helper_begin(caller); };
  options.searcher_helpers.done = [&priority] { priority.helper_end(); };
  std::vector<std::unique_ptr<CgiApp>> apps;
  for (std::size_t i = 0; i < searchers; ++i) apps.push_back(std::make_unique<CgiApp>(options));
  std::mutex accept_lock;  // libfcgi's accept is not thread-safe
  const int kThreads = static_cast<int>(searchers) + 1;
  std::mutex threads_lock;
  std::condition_variable thread_ended;
  int running = 0, ended = 0;
  bool stopped = false;  // accept failed: the web server closed the socket
  auto serve = [&] {
    FCGX_Request request;
    FCGX_InitRequest(&request, 0, 0);
    bool lowered = false;
    for (;;) {
      {
        std::lock_guard<std::mutex> hold(accept_lock);
        if (FCGX_Accept_r(&request) < 0) break;
      }
      auto get = [&request](const char* name) {
        const char* v = FCGX_GetParam(name, request.envp);
        return std::string(v ? v : "");
      };
      CgiEnvironment env = read_environment(get, database);
      Response response;
      if (std::optional<std::size_t> slot = slots.acquire(wait)) {
        priority.begin();
        response = apps[*slot]->handle(env);
        lowered = priority.end();
        slots.release(*slot);
      } else {
        response = busy_response(env);
      }
      write_response(request, env, response, get("CONTENT_LENGTH"));
      FCGX_Finish_r(&request);
      // A lowered thread never trims: malloc_trim() takes every malloc
      // arena's lock in turn, and a thread at the lowest priority that is
      // preempted holding one keeps every ordinary request of the process
      // that needs memory waiting (it made 7 to 17 ms of an ordinary
      // search's time under attack). The thread that replaces it trims
      // instead.
      if (lowered) break;
      return_free_memory();
    }
    FCGX_Free(&request, 1);  // a connection the web server kept open goes with the thread
    std::lock_guard<std::mutex> hold(threads_lock);
    if (!lowered) stopped = true;
    ++ended;
    thread_ended.notify_one();
  };
  std::thread([&] {
    int sig = 0;
    while (sigwait(&stop_signals, &sig) != 0) {
    }
    slots.wait_idle(std::chrono::seconds(5));  // the searches in hand finish
    std::_Exit(0);
  }).detach();
  // This thread only keeps kThreads serving: it replaces the ones that
  // were lowered (returning what their requests freed, at its own
  // priority), and waits for all of them once accept fails.
  std::unique_lock<std::mutex> threads(threads_lock);
  for (;;) {
    if (!stopped) {
      for (; running < kThreads; ++running) std::thread(serve).detach();
    }
    thread_ended.wait(threads, [&] { return ended > 0; });
    running -= ended;
    ended = 0;
    threads.unlock();
    return_free_memory();
    threads.lock();
    if (stopped && running == 0) break;
  }
  return 0;
}
