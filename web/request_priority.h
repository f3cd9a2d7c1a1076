// request_priority.h: in a FastCGI process, expensive requests give way.
//
// Under a flood of the most expensive requests anyone can send (hundreds of
// wildcards, the largest pages), the ordinary searches of other users must
// still get the CPU at once. A PriorityWatch follows the request its
// process is answering and, once that request has used `lower_after` of
// its thread's CPU time, lowers the thread to the lowest priority (the
// SCHED_IDLE policy, and nice 19): the kernel then runs every ordinary
// request, in this process or in another, before it, and the expensive one
// finishes on what is left. An
// unprivileged process cannot raise a thread's priority back, so a thread
// that was lowered ends after its request (end() says so) and the caller
// starts a new one.
//
// Several requests are watched at once (a process answers one per searcher,
// searcher_slots.h), each by the thread that answers it, with the threads
// that thread starts to help it (the match by shard, the facets' sample):
// their CPU is not counted, but they are lowered with it. Constructing it
// also starts glibc's thread for Xapian's time-limit timers at the
// constructing thread's priority (request_priority.cc says why). Linux keeps a nice
// value per thread; a system call that fails leaves the
// request at its priority, nothing else. Constructing may throw
// std::system_error (no thread); the rest never throws.
#pragma once

#include <sys/types.h>
#include <time.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace blogsearch::web {

class PriorityWatch {
 public:
  // `lower_after` 0: never lower (no thread is started).
  explicit PriorityWatch(std::chrono::milliseconds lower_after);
  ~PriorityWatch();
  PriorityWatch(const PriorityWatch&) = delete;
  PriorityWatch& operator=(const PriorityWatch&) = delete;

  // Called by a thread that starts answering a request.
  void begin();
  // Called by that thread when it has answered: true when it was lowered
  // (and so should end, leaving its place to a new thread).
  bool end();

  // Called by a thread that a request's thread `owner` started to help it
  // (query/shard_match.h: HelperHooks), first and last: the helper is
  // lowered with the request (at once when the request already was). A
  // helper of a thread that is not answering a request is left alone.
  void helper_begin(pid_t owner);
  void helper_end();

  // How many requests are being answered now, and how many of them were
  // lowered (for tests and logs).
  std::size_t active() const;
  std::size_t lowered() const;

 private:
  struct Request {
    pid_t tid = 0;
    clockid_t clock{};
    long long start_ns = 0;
    bool lowered = false;
    std::vector<pid_t> helpers;  // between helper_begin() and helper_end()
  };
  void watch();

  const long long limit_ns_;
  mutable std::mutex lock_;
  std::condition_variable changed_;
  bool stopping_ = false;
  std::vector<Request> requests_;  // one per thread in begin()..end()
  std::thread watcher_;
};

}  // namespace blogsearch::web
