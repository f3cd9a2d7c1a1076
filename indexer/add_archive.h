// add_archive.h: `add` puts what it ingests into the snapshot archive (copied, or hard-linked with --link).
//
// `rebuild` re-creates the database from the archive alone, so a snapshot
// that reached the database by `add` must be in the archive too, or a
// rebuild would drop its posts. copy_into_archive() writes each snapshot
// (its body, and its headers.json when it has one) into
// ARCHIVE/<feed id>/<observed time>.xml by the archive's rules
// (archive.h: atomic, and nothing written twice; with `link` the body is
// hard-linked from the file given when both are on one file system, so a
// file rewritten in place later would change the archived snapshot too:
// only for files nothing rewrites), and points each snapshot at its file
// in the archive, for the writer to read and record. A snapshot already in
// the archive, in its feed's folder, is left where it is.
//
// The snapshots are archived one after another in their order, and
// `on_archived(i)` is called as soon as snapshot i is settled (archived,
// found there, or left out); when it returns false the rest are left as
// they are: `add` archives on a thread of its own (BackgroundArchive)
// while the writer reads each snapshot once it is settled, so the copies
// cost the ingest little more than the time the readers wait for them.
//
// A snapshot whose folder names no feed gets the id the writer would give it
// (the feed's host, else "unknown": assign_feed_ids(), called before), so
// the archive's folder and the database agree. A file that cannot be read
// or is over max_body is left out of the archive and passed on as it is: the
// ingest reports it. Throws std::runtime_error naming the path when the
// archive cannot be written; what was settled before stays settled.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "indexer/snapshot.h"

namespace blogsearch {

// The files given and their copies in the archive, for messages: a warning
// names the file the user gave, not its copy. Safe to use from several
// threads.
class GivenPaths {
 public:
  void add(const std::string& archived, const std::string& given);
  // `message` with each archived path in it replaced by the path given.
  std::string rewrite(const std::string& archive_dir, std::string message) const;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::string> given_;  // archived -> given
};

struct ArchiveCopy {
  GivenPaths given;
  long copied = 0;                  // written now
  long already = 0;                 // in the archive already (same body)
  long left_out = 0;                // unreadable or too large
  std::vector<std::string> written;  // the archived paths written now
  std::vector<std::string> created_folders;  // the feed folders made now
};

// Gives each snapshot whose folder names no feed the id the writer would
// (from the feed's own link: its host, else "unknown"). Never throws but
// bad_alloc: an unreadable file gets "unknown".
void assign_feed_ids(std::vector<Snapshot>& snapshots, std::size_t max_body, const ParseOptions& parse = {});

// Archives `snapshots` (their feed ids assigned) in place: each one's path
// becomes its file in the archive. `out` is filled as it goes.
void copy_into_archive(const std::string& archive_dir, std::vector<Snapshot>& snapshots, std::size_t max_body,
                       ArchiveCopy& out, bool link = false,
                       const std::function<bool(std::size_t)>& on_archived = nullptr);

// Takes out of the archive what copy_into_archive() wrote now for the
// snapshots the ingest could not take (IngestSummary::not_ingested: not a
// feed, unreadable), so that the archive holds what `add` ingested and
// `rebuild` does not meet the same error again; and a feed folder that
// copy_into_archive() created, once that leaves it empty (never one that
// holds anything). Returns how many files were removed; a file that cannot
// be removed stays (it only costs a rebuild the same error).
long remove_not_ingested(ArchiveCopy& copy, const std::vector<std::string>& not_ingested);

// Why the archiving stopped (a full disk...), as ArchiveGate::wait throws
// it to the readers and Writer::ingest to `add`.
class ArchiveError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Which snapshots are settled in the archive, for readers on other threads
// to wait for. wait(i) returns once settled(i) was called, and throws what
// fail() was given when the archiving stopped before it; after stop()
// every wait returns at once.
class ArchiveGate {
 public:
  explicit ArchiveGate(std::size_t count) : settled_(count, false) {}
  void settled(std::size_t index);
  void fail(std::exception_ptr error);
  void wait(std::size_t index);
  void stop();             // the readers are gone: the archiving may end early
  bool stopped() const;

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<bool> settled_;
  std::exception_ptr error_;
  bool stop_ = false;
};

// `add`'s archiving: copy_into_archive() of `snapshots` (their feed ids
// assigned) on a thread of its own, started by the constructor, while the
// caller ingests them and waits for each one with wait(). `snapshots` and
// the object must outlive the thread: the destructor stops it (what is not
// archived yet stays so) and joins it. The thread's failure is an
// ArchiveError, thrown by wait() for every snapshot not settled before it.
class BackgroundArchive {
 public:
  BackgroundArchive(const std::string& archive_dir, std::vector<Snapshot>& snapshots, std::size_t max_body,
                    bool link);
  ~BackgroundArchive();
  BackgroundArchive(const BackgroundArchive&) = delete;
  BackgroundArchive& operator=(const BackgroundArchive&) = delete;

  void wait(std::size_t index) { gate_.wait(index); }
  // The paths given, for messages while it runs (GivenPaths is locked).
  const GivenPaths& given() const { return copy_.given; }
  // Joins the thread (it has settled every snapshot once the ingest has
  // read them all) and returns what it did.
  ArchiveCopy& finish();

 private:
  ArchiveCopy copy_;
  ArchiveGate gate_;
  std::thread thread_;  // last: it uses the members above
};

}  // namespace blogsearch
