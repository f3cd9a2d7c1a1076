// request_priority.cc: a watcher thread that renices expensive requests.
#include "web/request_priority.h"

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

namespace blogsearch::web {

namespace {

// How often the watcher looks at a request's CPU time while it runs.
constexpr std::chrono::milliseconds kPoll{2};
constexpr int kLowest = 19;

bool cpu_ns(clockid_t clock, long long* out) {
  timespec ts{};
  if (clock_gettime(clock, &ts) != 0) return false;
  *out = static_cast<long long>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
  return true;
}

}  // namespace

PriorityWatch::PriorityWatch(std::chrono::milliseconds lower_after)
    : limit_ns_(std::chrono::duration_cast<std::chrono::nanoseconds>(lower_after).count()) {
  if (limit_ns_ > 0) watcher_ = std::thread([this] { watch(); });
}

PriorityWatch::~PriorityWatch() {
  {
    std::lock_guard<std::mutex> hold(lock_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (watcher_.joinable()) watcher_.join();
}

void PriorityWatch::begin() {
  if (limit_ns_ <= 0) return;
  clockid_t clock{};
  long long start = 0;
  if (pthread_getcpuclockid(pthread_self(), &clock) != 0 || !cpu_ns(clock, &start)) return;
  {
    std::lock_guard<std::mutex> hold(lock_);
    tid_ = gettid();
    clock_ = clock;
    start_ns_ = start;
    active_ = true;
    lowered_ = false;
  }
  changed_.notify_all();
}

bool PriorityWatch::end() {
  std::lock_guard<std::mutex> hold(lock_);
  const bool lowered = active_ && lowered_;
  active_ = false;
  return lowered;
}

// The thread and its CPU clock stay valid while active_: the request's
// thread clears it (under the lock) before it can end.
void PriorityWatch::watch() {
  std::unique_lock<std::mutex> lock(lock_);
  while (!stopping_) {
    if (!active_ || lowered_) {
      changed_.wait(lock);
      continue;
    }
    long long now = 0;
    if (cpu_ns(clock_, &now) && now - start_ns_ >= limit_ns_) {
      // Lowered even when setpriority fails: the thread is replaced anyway.
      setpriority(PRIO_PROCESS, static_cast<id_t>(tid_), kLowest);
      lowered_ = true;
      continue;
    }
    changed_.wait_for(lock, kPoll);
  }
}

}  // namespace blogsearch::web
