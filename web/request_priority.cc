// request_priority.cc: a watcher thread that renices expensive requests.
#include "web/request_priority.h"

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <ctime>

namespace blogsearch::web {

namespace {

// The shortest the watcher sleeps while a request runs (see watch()).
constexpr std::chrono::nanoseconds kMinSleep{100000};
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

// SCHED_IDLE as well as nice 19: a waking ordinary request preempts a
// SCHED_IDLE thread at once, where a nice-19 one could keep it waiting for
// the rest of a time slice. nice 19 alone is what is left where SCHED_IDLE
// is refused, and shows in ps (and in cgi_busy.sh) either way.
void lower(pid_t tid) {
  sched_param param{};
  param.sched_priority = 0;
  setpriority(PRIO_PROCESS, static_cast<id_t>(tid), kLowest);
  sched_setscheduler(tid, SCHED_IDLE, &param);
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

void PriorityWatch::helper_begin(pid_t owner) {
  if (limit_ns_ <= 0) return;
  const pid_t tid = gettid();
  std::lock_guard<std::mutex> hold(lock_);
  for (Request& r : requests_) {
    if (r.tid != owner) continue;
    if (r.lowered) lower(tid);
    else r.helpers.push_back(tid);
    return;
  }
}

void PriorityWatch::helper_end() {
  if (limit_ns_ <= 0) return;
  const pid_t tid = gettid();
  std::lock_guard<std::mutex> hold(lock_);
  for (Request& r : requests_) r.helpers.erase(std::remove(r.helpers.begin(), r.helpers.end(), tid), r.helpers.end());
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
// request's thread removes itself (under the lock) before it can end, and
// a helper its id from the request's before it ends.
//
// A thread uses at most one second of CPU per second, so a request that
// has `left` of its allowance cannot reach it before `left` has passed:
// the watcher sleeps until the first request could, and looks again
// (waking every few hundred microseconds instead would cost each process
// thousands of wake-ups a second, at the ordinary priority).
void PriorityWatch::watch() {
  std::unique_lock<std::mutex> lock(lock_);
  while (!stopping_) {
    long long soonest = -1;
    for (Request& r : requests_) {
      if (r.lowered) continue;
      long long now = 0;
      if (!cpu_ns(r.clock, &now)) continue;
      const long long left = limit_ns_ - (now - r.start_ns);
      if (left <= 0) {
        // Lowered even when this fails: the thread is replaced anyway.
        lower(r.tid);
        for (pid_t helper : r.helpers) lower(helper);
        r.lowered = true;
        continue;
      }
      if (soonest < 0 || left < soonest) soonest = left;
    }
    if (soonest < 0) changed_.wait(lock);
    else changed_.wait_for(lock, std::chrono::nanoseconds(std::max<long long>(soonest, kMinSleep.count())));
  }
}

}  // namespace blogsearch::web
