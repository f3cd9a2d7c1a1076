// request_priority.cc: a watcher thread that renices expensive requests.
#include "web/request_priority.h"

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <ctime>

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

// Xapian's search time limit is a POSIX timer that notifies through a
// thread (SIGEV_THREAD). glibc starts one helper thread for all such
// timers at the first timer_create(), and the helper takes the nice value
// of the thread that called it: were that a lowered request's thread, the
// helper would stay at nice 19 for good, and every time limit after would
// fire from a nice-19 thread, late under load. A timer made and deleted
// here, before any request, starts the helper at the process's priority.
void start_timer_helper() {
  sigevent sev{};
  sev.sigev_notify = SIGEV_THREAD;
  sev.sigev_notify_function = [](sigval) {};
  timer_t id;
  if (timer_create(CLOCK_MONOTONIC, &sev, &id) == 0) timer_delete(id);
}

}  // namespace

PriorityWatch::PriorityWatch(std::chrono::milliseconds lower_after)
    : limit_ns_(std::chrono::duration_cast<std::chrono::nanoseconds>(lower_after).count()) {
  if (limit_ns_ <= 0) return;
  start_timer_helper();
  watcher_ = std::thread([this] { watch(); });
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
  Request r;
  if (pthread_getcpuclockid(pthread_self(), &r.clock) != 0 || !cpu_ns(r.clock, &r.start_ns)) return;
  r.tid = gettid();
  {
    std::lock_guard<std::mutex> hold(lock_);
    requests_.push_back(r);
  }
  changed_.notify_all();
}

bool PriorityWatch::end() {
  const pid_t tid = gettid();
  std::lock_guard<std::mutex> hold(lock_);
  for (auto it = requests_.begin(); it != requests_.end(); ++it) {
    if (it->tid != tid) continue;
    const bool lowered = it->lowered;
    requests_.erase(it);
    return lowered;
  }
  return false;  // begin() could not read the thread's clock: never watched
}

std::size_t PriorityWatch::active() const {
  std::lock_guard<std::mutex> hold(lock_);
  return requests_.size();
}

std::size_t PriorityWatch::lowered() const {
  std::lock_guard<std::mutex> hold(lock_);
  std::size_t n = 0;
  for (const Request& r : requests_) n += r.lowered;
  return n;
}

// A thread and its CPU clock stay valid while it is in requests_: the
// request's thread removes itself (under the lock) before it can end.
void PriorityWatch::watch() {
  std::unique_lock<std::mutex> lock(lock_);
  while (!stopping_) {
    bool watching = false;
    for (Request& r : requests_) {
      if (r.lowered) continue;
      long long now = 0;
      if (cpu_ns(r.clock, &now) && now - r.start_ns >= limit_ns_) {
        // Lowered even when setpriority fails: the thread is replaced anyway.
        setpriority(PRIO_PROCESS, static_cast<id_t>(r.tid), kLowest);
        r.lowered = true;
        continue;
      }
      watching = true;
    }
    if (watching) changed_.wait_for(lock, kPoll);
    else changed_.wait(lock);
  }
}

}  // namespace blogsearch::web
