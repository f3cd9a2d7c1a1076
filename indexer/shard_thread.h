// shard_thread.h: one shard's WritableDatabase, owned by a thread of its
// own, so that the shards of a database are written side by side.
//
// Private to the writer (writer.cc). A Xapian::WritableDatabase must not be
// used by two threads at once: the writer's thread hands each shard its
// work (add or replace a document, begin or commit a transaction) with
// post(), and touches the database itself (database()) only after wait(),
// when the thread is idle. Tasks run in the order they were posted.
//
// A task that throws stops the shard: the tasks after it are dropped, and
// wait() rethrows what it threw (a Xapian::Error as it was) once, after
// which the shard runs tasks again. The constructor throws
// std::system_error when the thread cannot be started.
#pragma once

#include <xapian.h>

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace blogsearch {

class ShardThread {
 public:
  using Task = std::function<void(Xapian::WritableDatabase&)>;

  explicit ShardThread(Xapian::WritableDatabase db);
  ~ShardThread();  // drops what is queued, finishes the running task, stops
  ShardThread(const ShardThread&) = delete;
  ShardThread& operator=(const ShardThread&) = delete;

  // `commit`: the task commits (see committing()).
  void post(Task task, bool commit = false);
  // Until every task posted has run; rethrows the first failure.
  void wait();
  // Only while idle (after wait()).
  Xapian::WritableDatabase& database() { return db_; }

  // True on a shard's thread while it runs a commit task. Xapian 1.4 can
  // end a commit that fails half-way (a full disk) in std::terminate, with
  // no exception to look at: the terminate handler asks this (main.cc).
  static bool committing();

 private:
  void run();

  Xapian::WritableDatabase db_;
  std::mutex mutex_;
  std::condition_variable changed_;
  struct Queued {
    Task task;
    bool commit = false;
  };
  std::deque<Queued> queue_;
  bool busy_ = false, stop_ = false;
  std::exception_ptr error_;
  std::thread thread_;  // last: it uses the members above
};

}  // namespace blogsearch
