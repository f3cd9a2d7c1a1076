// ordered_pool.h: running independent jobs on a few threads and handing their
// results back one at a time, in job order.
//
// The ingest pipeline has two such stages: reading and parsing snapshots, and
// turning changed posts into Xapian documents (HTML to text, term
// generation). Each job depends only on its own input, but the writer must
// apply the results in order, on its own thread, because the database is not
// thread-safe. With one worker the consumer only overlaps with it; with two
// or more, the jobs themselves also run side by side.
//
// At most `window` results are computed ahead of the consumer, and, when
// jobs are given weights (the bytes a job reads), at most `budget` weight
// beyond the job the consumer waits for: that bounds memory whether jobs are
// small or large. Whatever a job throws is rethrown by next() for that job,
// on the consumer's thread. The constructor throws std::system_error when a
// thread cannot be started; the destructor stops the workers (jobs already
// running finish first) and waits for them.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace blogsearch {

template <typename Result>
class OrderedPool {
 public:
  // job(index, worker) computes the result of job `index` in [0, count);
  // `worker` in [0, threads) lets a job use per-thread state (a
  // TermGenerator) without locking.
  using Job = std::function<Result(std::size_t index, std::size_t worker)>;
  using Weight = std::function<std::size_t(std::size_t index)>;

  OrderedPool(std::size_t count, std::size_t threads, std::size_t window, Job job, Weight weight = nullptr,
              std::size_t budget = 0)
      : count_(count),
        job_(std::move(job)),
        weight_(std::move(weight)),
        budget_(budget),
        slots_(std::max<std::size_t>(window, 1)) {
    threads = std::max<std::size_t>(1, std::min(threads, count));
    if (count == 0) return;
    try {
      for (std::size_t w = 0; w < threads; ++w) workers_.emplace_back([this, w] { run(w); });
    } catch (...) {
      stop_and_join();
      throw;
    }
  }

  ~OrderedPool() { stop_and_join(); }
  OrderedPool(const OrderedPool&) = delete;
  OrderedPool& operator=(const OrderedPool&) = delete;

  // Moves the next result (in job order) into `out`; false after the last.
  bool next(Result& out) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (handed_out_ == count_) return false;
    Slot& slot = slots_[handed_out_ % slots_.size()];
    changed_.wait(lock, [&] { return slot.done; });
    std::exception_ptr error = slot.error;
    if (!error) out = std::move(*slot.result);
    in_flight_ -= slot.weight;
    slot = Slot();
    ++handed_out_;
    lock.unlock();
    changed_.notify_all();  // a worker may be waiting for room in the window
    if (error) std::rethrow_exception(error);
    return true;
  }

 private:
  struct Slot {
    std::optional<Result> result;
    std::exception_ptr error;
    std::size_t weight = 0;
    bool done = false;
  };

  // Whether the next unclaimed job may start: there is a free slot, and its
  // weight fits the budget (the job the consumer waits for always may).
  bool may_claim() const {
    if (claimed_ >= handed_out_ + slots_.size()) return false;
    if (!weight_ || claimed_ == handed_out_) return true;
    return in_flight_ + weight_(claimed_) <= budget_;
  }

  void run(std::size_t worker) {
    for (;;) {
      std::size_t index, weight;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [&] { return stop_ || claimed_ == count_ || may_claim(); });
        if (stop_ || claimed_ == count_) return;
        index = claimed_++;
        weight = weight_ ? weight_(index) : 0;
        in_flight_ += weight;
      }
      Slot slot;
      slot.weight = weight;
      try {
        slot.result.emplace(job_(index, worker));
      } catch (...) {
        slot.error = std::current_exception();
      }
      slot.done = true;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        slots_[index % slots_.size()] = std::move(slot);
      }
      changed_.notify_all();
    }
  }

  void stop_and_join() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    changed_.notify_all();
    for (auto& t : workers_) t.join();
    workers_.clear();
  }

  const std::size_t count_;
  const Job job_;
  const Weight weight_;
  const std::size_t budget_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Slot> slots_;  // job i lives in slots_[i % size] until handed out
  std::size_t claimed_ = 0;     // jobs started
  std::size_t handed_out_ = 0;  // results given to next()
  std::size_t in_flight_ = 0;   // weight of jobs claimed and not handed out
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

// Worker threads for a stage that the consumer overlaps with: one per core,
// at least one, at most four (more only adds memory on a busy machine).
inline std::size_t pool_threads() {
  unsigned n = std::thread::hardware_concurrency();
  return std::clamp<std::size_t>(n, 1, 4);
}

}  // namespace blogsearch
