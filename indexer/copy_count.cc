// copy_count.cc: the count of copies, kept up to date (copy_count.h).
#include "indexer/copy_count.h"

#include <algorithm>

namespace blogsearch {

void CopyCount::reset(std::vector<std::uint64_t> keys) {
  std::sort(keys.begin(), keys.end());
  sorted_ = std::move(keys);
  changes_.clear();
  std::uint64_t distinct = 0;
  for (std::size_t i = 0; i < sorted_.size(); ++i) distinct += i == 0 || sorted_[i] != sorted_[i - 1];
  copies_ = sorted_.size() - distinct;
}

std::uint64_t CopyCount::posts_with(std::uint64_t key) const {
  const auto range = std::equal_range(sorted_.begin(), sorted_.end(), key);
  long n = range.second - range.first;
  if (auto c = changes_.find(key); c != changes_.end()) n += c->second;
  return n > 0 ? static_cast<std::uint64_t>(n) : 0;
}

void CopyCount::add(std::uint64_t key) {
  if (posts_with(key) > 0) ++copies_;
  ++changes_[key];
  if (changes_.size() > std::max<std::size_t>(4096, sorted_.size() / 16)) merge();
}

void CopyCount::remove(std::uint64_t key) {
  const std::uint64_t n = posts_with(key);
  if (n == 0) return;
  if (n > 1) --copies_;
  if (--changes_[key] == 0) changes_.erase(key);
}

void CopyCount::merge() {
  std::vector<std::pair<std::uint64_t, long>> changes(changes_.begin(), changes_.end());
  std::sort(changes.begin(), changes.end());
  std::vector<std::uint64_t> merged;
  merged.reserve(sorted_.size() + changes.size());
  auto next = sorted_.begin();
  for (const auto& [key, delta] : changes) {
    auto at = std::lower_bound(next, sorted_.end(), key);
    merged.insert(merged.end(), next, at);
    auto end = std::upper_bound(at, sorted_.end(), key);
    const long n = (end - at) + delta;
    merged.insert(merged.end(), n > 0 ? static_cast<std::size_t>(n) : 0, key);
    next = end;
  }
  merged.insert(merged.end(), next, sorted_.end());
  sorted_ = std::move(merged);
  changes_.clear();
}

}  // namespace blogsearch
