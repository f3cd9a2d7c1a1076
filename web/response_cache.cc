#include "web/response_cache.h"

#include <iterator>

namespace blogsearch::web {

std::size_t ResponseCache::weight(const std::string& key, const Response& response) {
  std::size_t n = sizeof(Entry) + 2 * key.size() + response.body.size() + 96;  // list node and index entry
  for (const auto& [name, value] : response.headers) n += sizeof(name) * 2 + name.size() + value.size();
  return n;
}

void ResponseCache::drop_oldest() {
  bytes_ -= weight(lru_.front().key, lru_.front().response);
  index_.erase(lru_.front().key);
  lru_.pop_front();
}

void ResponseCache::clear() {
  lru_.clear();
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
  std::lock_guard<std::mutex> hold(lock_);
  if (!state.valid || state != state_) {
    clear();
    state_ = state;
    return std::nullopt;
  }
  auto it = index_.find(key);
  if (it == index_.end()) return std::nullopt;
  if (std::chrono::steady_clock::now() - it->second->made > std::chrono::seconds(seconds_)) {
    bytes_ -= weight(it->second->key, it->second->response);
    lru_.erase(it->second);
    index_.erase(it);
    return std::nullopt;
  }
  lru_.splice(lru_.end(), lru_, it->second);
  return it->second->response;
}

void ResponseCache::put(const std::string& key, const Response& response, const DiskState& state) {
  std::lock_guard<std::mutex> hold(lock_);
  if (entries_ == 0 || !state_.valid || state != state_ || index_.count(key)) return;
  const std::size_t w = weight(key, response);
  if (w > max_bytes_ / 16) return;
  while (!lru_.empty() && (lru_.size() >= entries_ || bytes_ + w > max_bytes_)) drop_oldest();
  lru_.push_back({key, response, std::chrono::steady_clock::now()});
  index_[key] = std::prev(lru_.end());
  bytes_ += w;
}

}  // namespace blogsearch::web
