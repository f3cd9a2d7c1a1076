// searcher_slots.cc: a counted set of slots under one mutex.
#include "web/searcher_slots.h"

namespace blogsearch::web {

SearcherSlots::SearcherSlots(std::size_t count) : taken_(count, false) {}

std::optional<std::size_t> SearcherSlots::acquire(std::chrono::milliseconds wait) {
  std::unique_lock<std::mutex> hold(lock_);
  if (!freed_.wait_for(hold, wait, [&] { return in_use_ < taken_.size(); })) return std::nullopt;
  for (std::size_t i = 0; i < taken_.size(); ++i) {
    if (!taken_[i]) {
      taken_[i] = true;
      ++in_use_;
      return i;
    }
  }
  return std::nullopt;  // not reached: in_use_ counts the taken slots
}

void SearcherSlots::release(std::size_t slot) {
  {
    std::lock_guard<std::mutex> hold(lock_);
    if (slot >= taken_.size() || !taken_[slot]) return;
    taken_[slot] = false;
    --in_use_;
  }
  // Both a request waiting for a slot and a stop waiting for all of them.
  freed_.notify_all();
}

bool SearcherSlots::wait_idle(std::chrono::milliseconds wait) {
  std::unique_lock<std::mutex> hold(lock_);
  return freed_.wait_for(hold, wait, [&] { return in_use_ == 0; });
}

std::size_t SearcherSlots::in_use() const {
  std::lock_guard<std::mutex> hold(lock_);
  return in_use_;
}

}  // namespace blogsearch::web
