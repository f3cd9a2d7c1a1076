// spelling_writer.cc: Xapian spelling data on a thread of its own.
#include "indexer/spelling_writer.h"

#include "indexer/database_error.h"

namespace blogsearch {

SpellingWriter::SpellingWriter(const std::string& path) : path_(path) {
  try {
    db_ = Xapian::WritableDatabase(path, Xapian::DB_CREATE_OR_OPEN);
  } catch (const Xapian::Error& e) {
    throw DatabaseError("cannot open the spelling data " + path + ": " + e.get_description());
  }
  thread_ = std::thread([this] { run(); });
}

SpellingWriter::~SpellingWriter() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.clear();
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void SpellingWriter::push(Task task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(std::move(task));
  }
  changed_.notify_all();
}

void SpellingWriter::add(SpellingCounts words) {
  if (!words.empty()) push({Task::Kind::kAdd, std::move(words)});
}

void SpellingWriter::commit() { push({Task::Kind::kCommit, {}}); }

void SpellingWriter::wait() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return queue_.empty() && !busy_; });
  if (error_) std::rethrow_exception(error_);
}

void SpellingWriter::cancel() {
  push({Task::Kind::kCancel, {}});
  wait();
}

void SpellingWriter::run() {
  // Each feed's counts are summed here and given to Xapian at the commit:
  // a word met in many feeds is one add_spelling per commit, not one per
  // feed (Xapian keeps its changes in a tree of words).
  SpellingCounts pending;
  bool in_transaction = false;
  for (;;) {
    Task task;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return !queue_.empty() || stop_; });
      if (queue_.empty()) break;  // stopping
      task = std::move(queue_.front());
      queue_.pop_front();
      busy_ = true;
    }
    std::exception_ptr failure;
    try {
      switch (task.kind) {
        case Task::Kind::kAdd:
          if (pending.empty()) {
            pending = std::move(task.words);
          } else {
            for (const auto& [word, n] : task.words) pending[word] += n;
          }
          break;
        case Task::Kind::kCommit:
          if (!pending.empty()) {
            db_.begin_transaction();
            in_transaction = true;
            for (const auto& [word, n] : pending) db_.add_spelling(word, n);
            pending.clear();
            in_transaction = false;  // a commit that fails has ended it
            db_.commit_transaction();
          }
          break;
        case Task::Kind::kCancel:
          pending.clear();
          break;
      }
    } catch (const Xapian::Error& e) {
      failure = std::make_exception_ptr(
          DatabaseError("writing the spelling data " + path_ + " failed: " + e.get_description()));
    } catch (...) {
      failure = std::current_exception();
    }
    if (failure) pending.clear();
    if (failure && in_transaction) {
      in_transaction = false;
      try {
        db_.cancel_transaction();
      } catch (const Xapian::Error&) {
        // A commit that failed part way has ended the transaction already.
      }
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      busy_ = false;
      if (failure && !error_) error_ = failure;
      if (error_) queue_.clear();  // after a failure, everything is dropped
    }
    changed_.notify_all();
  }
}

}  // namespace blogsearch
