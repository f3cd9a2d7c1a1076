// searcher_slots.h: which of a FastCGI process's searchers are free.
//
// A FastCGI process keeps several CgiApps (each with its own Searcher and
// Xapian handles, which are not thread-safe) so that an ordinary search
// does not wait while another request, however expensive, is answered.
// SearcherSlots hands out their indexes: a request takes a free one for as
// long as it answers, and when every one is taken it waits for one at most
// `wait`, then gets none (the caller answers 503 with Retry-After).
// Waiters are served in no particular order.
//
// Thread-safe. Nothing throws but std::system_error from the standard
// mutex (which does not happen in practice).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <vector>

namespace blogsearch::web {

class SearcherSlots {
 public:
  explicit SearcherSlots(std::size_t count);
  SearcherSlots(const SearcherSlots&) = delete;
  SearcherSlots& operator=(const SearcherSlots&) = delete;

  // A free slot, taken for the caller; nullopt when none came free within
  // `wait`.
  std::optional<std::size_t> acquire(std::chrono::milliseconds wait);
  // Gives back a slot that acquire() returned.
  void release(std::size_t slot);
  // Waits until no slot is taken, at most `wait`: true when none is.
  bool wait_idle(std::chrono::milliseconds wait);

  std::size_t count() const { return taken_.size(); }
  std::size_t in_use() const;

 private:
  mutable std::mutex lock_;
  std::condition_variable freed_;
  std::vector<bool> taken_;
  std::size_t in_use_ = 0;
};

}  // namespace blogsearch::web
