// response_cache.h: answers a long-running CGI process keeps for repeated
// requests.
//
// Up to `entries` responses taking at most `max_bytes` together (bodies,
// headers and keys), keyed by the request (its host and query string),
// least recently used dropped first; a response bigger than a sixteenth
// of `max_bytes` is not kept. All of them are dropped
// when the database's DiskState (database_watcher.h) changes, and each
// expires `seconds` after it was made (the Cache-Control max-age; relative
// dates like since=30d move with time). A page served from the cache shows
// the time its search took when it was made.
//
// Thread-safe: the searchers of one FastCGI process (searcher_slots.h)
// share one cache. Its lock is held only to move pointers: a response is
// copied, and a dropped one freed, outside it, since a thread lowered to
// the lowest priority (request_priority.h) that is preempted holding the
// lock would keep every ordinary request of the process waiting. Nothing
// throws except std::bad_alloc.
#pragma once

#include <chrono>
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "web/database_watcher.h"
#include "web/response.h"

namespace blogsearch::web {

class ResponseCache {
 public:
  static constexpr std::size_t kDefaultBytes = std::size_t{32} << 20;
  ResponseCache(std::size_t entries, int seconds, std::size_t max_bytes = kDefaultBytes)
      : entries_(entries), seconds_(seconds), max_bytes_(max_bytes) {}

  bool enabled() const { return entries_ > 0; }

  // The response kept for `key` when `state` is the state the cache holds
  // answers of, else nullopt (and a changed state empties the cache).
  std::optional<Response> find(const std::string& key, const DiskState& state);
  // Keeps `response` for `key`, made from the database in `state` (the
  // state its find() was given): not when another request has seen the
  // database change since.
  void put(const std::string& key, const Response& response, const DiskState& state);

  std::size_t size() const;
  std::size_t bytes() const;

 private:
  struct Entry {
    std::string key;
    std::shared_ptr<const Response> response;
    std::size_t weight = 0;
    std::chrono::steady_clock::time_point made;
  };
  using Entries = std::list<Entry>;
  static std::size_t weight(const std::string& key, const Response& response);
  // Move entries into `dropped`, to be freed once the lock is released.
  void drop_oldest(Entries& dropped);
  void clear(Entries& dropped);

  mutable std::mutex lock_;
  std::size_t entries_;
  int seconds_;
  std::size_t max_bytes_;
  std::size_t bytes_ = 0;
  Entries lru_;  // least recently used first
  std::unordered_map<std::string, Entries::iterator> index_;
  DiskState state_;
};

}  // namespace blogsearch::web
