#include "web/response_cache.h"

#include <iterator>

namespace blogsearch::web {

std::size_t ResponseCache::weight(const std::string& key, const Response& response) {
  std::size_t n = sizeof(Entry) + 2 * key.size() + response.body.size() + 96;  // list node and index entry
  for (const auto& [name, value] : response.headers) n += sizeof(name) * 2 + name.size() + value.size();
  return n;
}

void ResponseCache::drop_oldest(Entries& dropped) {
  bytes_ -= lru_.front().weight;
  index_.erase(lru_.front().key);
  dropped.splice(dropped.end(), lru_, lru_.begin());
}

void ResponseCache::clear(Entries& dropped) {
  dropped.splice(dropped.end(), lru_);
  index_.clear();
  bytes_ = 0;
}

std::size_t ResponseCache::size() const {
  std::lock_guard<std::mutex> hold(lock_);
  return lru_.size();
}

std::size_t ResponseCache::bytes() const {
  std::lock_guard<std::mutex> hold(lock_);
  return bytes_;
}

std::optional<Response> ResponseCache::find(const std::string& key, const DiskState& state) {
  Entries dropped;  // freed after the lock, on return
  std::shared_ptr<const Response> hit;
  {
    std::lock_guard<std::mutex> hold(lock_);
    if (!state.valid || state != state_) {
      clear(dropped);
      state_ = state;
      return std::nullopt;
    }
    auto it = index_.find(key);
    if (it == index_.end()) return std::nullopt;
    if (std::chrono::steady_clock::now() - it->second->made > std::chrono::seconds(seconds_)) {
      bytes_ -= it->second->weight;
      dropped.splice(dropped.end(), lru_, it->second);
      index_.erase(it);
      return std::nullopt;
    }
    lru_.splice(lru_.end(), lru_, it->second);
    hit = it->second->response;
  }
  return *hit;
}

void ResponseCache::put(const std::string& key, const Response& response, const DiskState& state) {
  if (entries_ == 0) return;
  const std::size_t w = weight(key, response);
  if (w > max_bytes_ / 16) return;
  Entries fresh;  // made, and on refusal freed, outside the lock
  fresh.push_back({key, std::make_shared<const Response>(response), w, std::chrono::steady_clock::now()});
  Entries dropped;
  std::lock_guard<std::mutex> hold(lock_);
  if (!state_.valid || state != state_ || index_.count(key)) return;
  while (!lru_.empty() && (lru_.size() >= entries_ || bytes_ + w > max_bytes_)) drop_oldest(dropped);
  lru_.splice(lru_.end(), fresh);
  index_[key] = std::prev(lru_.end());
  bytes_ += w;
}

}  // namespace blogsearch::web
