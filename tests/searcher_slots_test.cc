// Tests of what lets a FastCGI process answer several requests at once:
// SearcherSlots (searcher_slots.h) and PriorityWatch (request_priority.h)
// watching several requests' threads. Meant to run under the thread
// sanitizer too.
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>
#include <vector>

#include "web/request_priority.h"
#include "web/searcher_slots.h"

namespace blogsearch::web {
namespace {

using namespace std::chrono_literals;

TEST(SearcherSlots, HandsOutEachSlotOnce) {
  SearcherSlots slots(3);
  std::set<std::size_t> got;
  for (int i = 0; i < 3; ++i) {
    auto s = slots.acquire(0ms);
    ASSERT_TRUE(s);
    got.insert(*s);
  }
  EXPECT_EQ(got, (std::set<std::size_t>{0, 1, 2}));
  EXPECT_EQ(slots.in_use(), 3u);
  EXPECT_FALSE(slots.acquire(0ms));  // all taken, no wait
  slots.release(1);
  auto again = slots.acquire(0ms);
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, 1u);
}

TEST(SearcherSlots, WaitsForASlotUntilItsDeadline) {
  SearcherSlots slots(1);
  ASSERT_TRUE(slots.acquire(0ms));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(slots.acquire(50ms));
  EXPECT_GE(std::chrono::steady_clock::now() - start, 45ms);
  // Released while another waits: the waiter gets it.
  std::thread releaser([&] {
    std::this_thread::sleep_for(20ms);
    slots.release(0);
  });
  auto s = slots.acquire(10s);
  releaser.join();
  ASSERT_TRUE(s);
  EXPECT_EQ(*s, 0u);
}

TEST(SearcherSlots, ReleasingAFreeOrUnknownSlotChangesNothing) {
  SearcherSlots slots(2);
  slots.release(0);
  slots.release(7);
  EXPECT_EQ(slots.in_use(), 0u);
  ASSERT_TRUE(slots.acquire(0ms));
  ASSERT_TRUE(slots.acquire(0ms));
  EXPECT_FALSE(slots.acquire(0ms));
}

TEST(SearcherSlots, WaitIdleReturnsOnceAllAreBack) {
  SearcherSlots slots(2);
  EXPECT_TRUE(slots.wait_idle(0ms));
  auto a = slots.acquire(0ms);
  ASSERT_TRUE(a);
  EXPECT_FALSE(slots.wait_idle(20ms));
  std::thread t([&] {
    std::this_thread::sleep_for(20ms);
    slots.release(*a);
  });
  EXPECT_TRUE(slots.wait_idle(10s));
  t.join();
}

// Many threads contending: no slot is ever held by two at once, and every
// request is either served or told none came free.
TEST(SearcherSlots, NoSlotIsSharedUnderContention) {
  constexpr std::size_t kSlots = 3;
  SearcherSlots slots(kSlots);
  std::vector<std::atomic<int>> holders(kSlots);
  std::atomic<int> served{0}, refused{0}, overlaps{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 300; ++i) {
        auto s = slots.acquire(5ms);
        if (!s) {
          ++refused;
          continue;
        }
        if (holders[*s].fetch_add(1) != 0) ++overlaps;
        std::this_thread::yield();
        holders[*s].fetch_sub(1);
        slots.release(*s);
        ++served;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(overlaps.load(), 0);
  EXPECT_EQ(served.load() + refused.load(), 8 * 300);
  EXPECT_GT(served.load(), 0);
  EXPECT_EQ(slots.in_use(), 0u);
}

long long thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

void spin_cpu(long long ms) {
  const long long until = thread_cpu_ms() + ms;
  volatile unsigned sink = 0;
  while (thread_cpu_ms() < until) sink = sink + 1;
}

// Two requests at once, on two threads: the one that uses CPU past the
// limit is lowered to nice 19 and the SCHED_IDLE policy, soon after it
// reaches the limit, the one that waits is not, and each thread learns its
// own outcome.
TEST(PriorityWatch, WatchesSeveralRequestsAtOnce) {
  PriorityWatch watch(20ms);
  const int base = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));  // the test's own nice
  ASSERT_LT(base, 19);
  std::atomic<bool> busy_lowered{false}, idle_lowered{true};
  std::atomic<int> busy_nice{0}, idle_nice{-1};
  std::atomic<int> busy_policy{-1}, idle_policy{-1};
  std::atomic<long long> busy_cpu_when_lowered{-1};
  std::atomic<int> started{0};
  std::thread busy([&] {
    watch.begin();
    ++started;
    const long long begun = thread_cpu_ms();
    // Spins until the watcher lowers it, noting how much CPU that took.
    while (sched_getscheduler(0) != SCHED_IDLE && thread_cpu_ms() - begun < 2000) spin_cpu(1);
    busy_cpu_when_lowered = thread_cpu_ms() - begun;
    spin_cpu(50);
    busy_nice = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
    busy_policy = sched_getscheduler(0);
    busy_lowered = watch.end();
  });
  std::thread idle([&] {
    watch.begin();
    ++started;
    std::this_thread::sleep_for(300ms);  // wall time, no CPU
    idle_nice = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
    idle_policy = sched_getscheduler(0);
    idle_lowered = watch.end();
  });
  busy.join();
  idle.join();
  EXPECT_EQ(started.load(), 2);
  EXPECT_TRUE(busy_lowered.load());
  EXPECT_EQ(busy_nice.load(), 19);
  EXPECT_EQ(busy_policy.load(), SCHED_IDLE);
  // Lowered once it could have used 20 ms, not much later (the slack is
  // for a loaded machine or a sanitizer build).
  EXPECT_GE(busy_cpu_when_lowered.load(), 20);
  EXPECT_LT(busy_cpu_when_lowered.load(), 200);
  EXPECT_FALSE(idle_lowered.load());
  EXPECT_EQ(idle_nice.load(), base);
  EXPECT_EQ(idle_policy.load(), SCHED_OTHER);
  EXPECT_EQ(watch.active(), 0u);
}

// The threads a request's thread starts to help it (a search's match by
// shard and facets' sample: query/shard_match.h) are lowered with it,
// though they use no CPU of their own here; one that starts once the
// request was lowered is lowered at once; a helper of a thread that answers
// no request is left alone.
TEST(PriorityWatch, HelpersAreLoweredWithTheirRequest) {
  PriorityWatch watch(20ms);
  const int base = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
  ASSERT_LT(base, 19);
  auto nice_of_self = [] { return getpriority(PRIO_PROCESS, static_cast<id_t>(gettid())); };
  std::atomic<int> early_nice{-1}, early_policy{-1}, late_nice{-1}, stray_nice{-1};
  std::thread request([&] {
    watch.begin();
    const pid_t owner = gettid();
    std::atomic<bool> owner_lowered{false};
    std::thread early([&] {
      watch.helper_begin(owner);
      // Sleeps (no CPU) until its request is lowered, then looks at itself.
      for (int i = 0; i < 2000 && !owner_lowered; ++i) std::this_thread::sleep_for(1ms);
      std::this_thread::sleep_for(5ms);
      early_nice = nice_of_self();
      early_policy = sched_getscheduler(0);
      watch.helper_end();
    });
    const long long begun = thread_cpu_ms();
    while (sched_getscheduler(0) != SCHED_IDLE && thread_cpu_ms() - begun < 2000) spin_cpu(1);
    owner_lowered = true;
    early.join();
    std::thread late([&] {
      watch.helper_begin(owner);
      late_nice = nice_of_self();
      watch.helper_end();
    });
    late.join();
    watch.end();
  });
  request.join();
  std::thread stray([&] {
    watch.helper_begin(gettid());  // no request of that thread
    stray_nice = nice_of_self();
    watch.helper_end();
  });
  stray.join();
  EXPECT_EQ(early_nice.load(), 19);
  EXPECT_EQ(early_policy.load(), SCHED_IDLE);
  EXPECT_EQ(late_nice.load(), 19);
  EXPECT_EQ(stray_nice.load(), base);
  EXPECT_EQ(watch.active(), 0u);
}

TEST(PriorityWatch, ZeroNeverLowers) {
  PriorityWatch watch(0ms);
  std::atomic<bool> lowered{true};
  std::thread t([&] {
    watch.begin();
    spin_cpu(30);
    lowered = watch.end();
  });
  t.join();
  EXPECT_FALSE(lowered.load());
}

}  // namespace
}  // namespace blogsearch::web
