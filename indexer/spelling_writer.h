// spelling_writer.h: the spelling data ("did you mean") of an ingest,
// written to its own database (schema::spelling_db_path) on a thread of its
// own.
//
// Private to the writer (writer.cc). Adding words to Xapian's spelling data
// and committing it took an eighth of the writer's thread in a backfill,
// the thread Xapian allows only one of for the documents; here it runs
// beside it. The writer hands over each feed's word counts with add(), which
// the thread sums until commit(), called just before committing the
// documents, with wait() after, so both databases change at the same
// points; cancel() drops what was added since the last commit. Spelling
// data is advisory: a crash between the two commits leaves the words of one
// transaction out, which later ingests add back when the words come again.
//
// The constructor throws DatabaseError (database_error.h) when the database cannot
// be opened or created. wait() and cancel() rethrow a failure of the thread
// as DatabaseError; after one, the object only discards.
#pragma once

#include <xapian.h>

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <thread>

#include "indexer/document_builder.h"

namespace blogsearch {

class SpellingWriter {
 public:
  explicit SpellingWriter(const std::string& path);
  ~SpellingWriter();  // drops what was not committed and stops the thread
  SpellingWriter(const SpellingWriter&) = delete;
  SpellingWriter& operator=(const SpellingWriter&) = delete;

  void add(SpellingCounts words);
  void commit();  // queued after the words added before it
  void wait();    // until everything queued is done
  void cancel();  // drops what was added since the last commit, and waits

 private:
  struct Task {
    enum class Kind { kAdd, kCommit, kCancel } kind;
    SpellingCounts words;
  };
  void run();
  void push(Task task);

  std::string path_;
  Xapian::WritableDatabase db_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Task> queue_;
  bool busy_ = false, stop_ = false;
  std::exception_ptr error_;
  std::thread thread_;  // last: it uses the members above
};

}  // namespace blogsearch
