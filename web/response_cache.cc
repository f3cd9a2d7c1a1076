#include "web/response_cache.h"

#include <iterator>

namespace blogsearch::web {

const Response* ResponseCache::find(const std::string& key, const DiskState& state) {
  if (!state.valid || state != state_) {
    lru_.clear();
    index_.clear();
    state_ = state;
    return nullptr;
  }
  auto it = index_.find(key);
  if (it == index_.end()) return nullptr;
  if (std::chrono::steady_clock::now() - it->second->made > std::chrono::seconds(seconds_)) {
    lru_.erase(it->second);
    index_.erase(it);
    return nullptr;
  }
  lru_.splice(lru_.end(), lru_, it->second);
  return &it->second->response;
}

void ResponseCache::put(const std::string& key, const Response& response) {
  if (entries_ == 0 || !state_.valid || index_.count(key)) return;
  while (lru_.size() >= entries_) {
    index_.erase(lru_.front().key);
    lru_.pop_front();
  }
  lru_.push_back({key, response, std::chrono::steady_clock::now()});
  index_[key] = std::prev(lru_.end());
}

}  // namespace blogsearch::web
