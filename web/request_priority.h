// request_priority.h: in a FastCGI process, expensive requests give way.
//
// Under a flood of the most expensive requests anyone can send (hundreds of
// wildcards, the largest pages), the ordinary searches of other users must
// still get the CPU at once. A PriorityWatch follows the request its
// process is answering and, once that request has used `lower_after` of
// its thread's CPU time, lowers the thread to the lowest priority (nice
// 19): the kernel then runs every ordinary request, in this process or in
// another, before it, and the expensive one finishes on what is left. An
// unprivileged process cannot raise a thread's priority back, so a thread
// that was lowered ends after its request (end() says so) and the caller
// starts a new one.
//
// One request at a time is watched (the process answers one at a time).
// Linux keeps a nice value per thread; a system call that fails leaves the
// request at its priority, nothing else. Constructing may throw
// std::system_error (no thread); the rest never throws.
#pragma once

#include <sys/types.h>
#include <time.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace blogsearch::web {

class PriorityWatch {
 public:
  // `lower_after` 0: never lower (no thread is started).
  explicit PriorityWatch(std::chrono::milliseconds lower_after);
  ~PriorityWatch();
  PriorityWatch(const PriorityWatch&) = delete;
  PriorityWatch& operator=(const PriorityWatch&) = delete;

  // Called by the thread that starts answering a request.
  void begin();
  // Called by that thread when it has answered: true when it was lowered
  // (and so should end, leaving its place to a new thread).
  bool end();

 private:
  void watch();

  const long long limit_ns_;
  std::mutex lock_;
  std::condition_variable changed_;
  bool stopping_ = false;
  bool active_ = false;
  bool lowered_ = false;
  pid_t tid_ = 0;
  clockid_t clock_{};
  long long start_ns_ = 0;
  std::thread watcher_;
};

}  // namespace blogsearch::web
