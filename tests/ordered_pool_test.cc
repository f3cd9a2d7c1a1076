// Tests for OrderedPool: results come back in job order whichever thread
// finishes first, errors are rethrown at their job, and the weight budget
// bounds how much work waits ahead of the consumer.
#include "indexer/ordered_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

namespace blogsearch {
namespace {

TEST(OrderedPool, HandsResultsBackInJobOrder) {
  // Early jobs are the slowest, so later ones finish first.
  OrderedPool<int> pool(40, 4, 8, [](std::size_t i, std::size_t) {
    std::this_thread::sleep_for(std::chrono::microseconds(40 * (40 - i)));
    return static_cast<int>(i * i);
  });
  int out = -1;
  for (int i = 0; i < 40; ++i) {
    ASSERT_TRUE(pool.next(out));
    EXPECT_EQ(out, i * i);
  }
  EXPECT_FALSE(pool.next(out));
}

TEST(OrderedPool, RethrowsAJobsErrorAtThatJob) {
  OrderedPool<int> pool(5, 2, 4, [](std::size_t i, std::size_t) {
    if (i == 2) throw std::runtime_error("job 2 failed");
    return static_cast<int>(i);
  });
  int out = -1;
  ASSERT_TRUE(pool.next(out));
  EXPECT_EQ(out, 0);
  ASSERT_TRUE(pool.next(out));
  EXPECT_EQ(out, 1);
  EXPECT_THROW(pool.next(out), std::runtime_error);
  ASSERT_TRUE(pool.next(out));
  EXPECT_EQ(out, 3);
}

TEST(OrderedPool, WeightBudgetBoundsTheWorkAhead) {
  // Job i weighs 10 + i; the budget holds about three jobs. While the
  // consumer sleeps, the workers may run ahead only as far as the budget.
  // `ahead` is the weight of jobs started and not yet asked for (the
  // consumer takes a job's weight off just before asking for it).
  constexpr long kBudget = 40;
  std::atomic<long> ahead{0}, most_ahead{0};
  OrderedPool<std::size_t> pool(
      30, 3, 1000,
      [&](std::size_t i, std::size_t) {
        long now = ahead += static_cast<long>(10 + i);
        long seen = most_ahead.load();
        while (now > seen && !most_ahead.compare_exchange_weak(seen, now)) {
        }
        return i;
      },
      [](std::size_t i) { return 10 + i; }, kBudget);
  std::size_t out = 0;
  for (std::size_t i = 0; i < 30; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    ahead -= static_cast<long>(10 + i);
    ASSERT_TRUE(pool.next(out));
    EXPECT_EQ(out, i);
  }
  EXPECT_FALSE(pool.next(out));
  EXPECT_LE(most_ahead.load(), kBudget);
  EXPECT_GE(most_ahead.load(), 20);  // it did run ahead, more than one job
}

TEST(OrderedPool, AJobHeavierThanTheBudgetStillRuns) {
  OrderedPool<int> pool(
      3, 2, 4, [](std::size_t i, std::size_t) { return static_cast<int>(i); },
      [](std::size_t) { return std::size_t{1000}; }, 10);
  int out = -1;
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(pool.next(out));
    EXPECT_EQ(out, i);
  }
  EXPECT_FALSE(pool.next(out));
}

}  // namespace
}  // namespace blogsearch
