// shard_thread.cc: a queue of tasks in front of one WritableDatabase.
#include "indexer/shard_thread.h"

namespace blogsearch {

namespace {
thread_local bool t_committing = false;
}  // namespace

bool ShardThread::committing() { return t_committing; }

ShardThread::ShardThread(Xapian::WritableDatabase db) : db_(std::move(db)) {
  thread_ = std::thread([this] { run(); });
}

ShardThread::~ShardThread() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.clear();
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void ShardThread::post(Task task, bool commit) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (error_) return;  // dropped: wait() reports the failure
    queue_.push_back({std::move(task), commit});
  }
  changed_.notify_all();
}

void ShardThread::wait() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return queue_.empty() && !busy_; });
  if (error_) {
    std::exception_ptr e = error_;
    error_ = nullptr;
    std::rethrow_exception(e);
  }
}

void ShardThread::run() {
  for (;;) {
    Queued task;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return !queue_.empty() || stop_; });
      if (stop_) break;
      task = std::move(queue_.front());
      queue_.pop_front();
      busy_ = true;
    }
    std::exception_ptr failure;
    t_committing = task.commit;
    try {
      task.task(db_);
    } catch (...) {
      failure = std::current_exception();
    }
    t_committing = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      busy_ = false;
      if (failure && !error_) error_ = failure;
      if (error_) queue_.clear();
    }
    changed_.notify_all();
  }
}

}  // namespace blogsearch
