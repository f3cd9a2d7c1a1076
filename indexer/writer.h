// writer.h: applying snapshots to the Xapian database.
//
// Identity: a post is its id (guid / atom:id), else its link, else a hash of
// feed, title and date. Ingesting a snapshot whose body was ingested before is
// a no-op. An item whose content hash is unchanged only moves last_seen (its
// HTML is not parsed again); an edited item replaces the document and counts
// a new version; a post missing from its feed's newest snapshot stays
// searchable with in_feed = false. Snapshots of one feed are applied in
// observed order and an older snapshot never overwrites newer content.
//
// Backfills: all snapshots of one feed given to one ingest() are parsed and
// hashed first; each post is then indexed once, in its newest version.
// Feeds' changes go into one transaction that is committed whenever it is
// two seconds old and at the end of the run, always between feeds. A bad
// file is logged and skipped; a failure while writing cancels the open
// transaction and leaves what was committed before it.
#pragma once

#include <xapian.h>

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "indexer/snapshot.h"

namespace blogsearch {

// The database cannot be opened, created or written (path in the message).
class DatabaseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// The database is locked by another writer (exit 4 in the mains).
class DatabaseLocked : public DatabaseError {
 public:
  using DatabaseError::DatabaseError;
};

// Xapian found the database corrupt: it can only be rebuilt from the
// archive (the message says how).
class DatabaseDamaged : public DatabaseError {
 public:
  using DatabaseError::DatabaseError;
};

struct IngestSummary {
  long snapshots_read = 0;
  long snapshots_skipped = 0;  // body already ingested
  long items_seen = 0;
  long posts_added = 0;
  long posts_updated = 0;
  long posts_unchanged = 0;
  long warnings = 0;
  long errors = 0;
  double seconds = 0;
};

struct IngestOptions {
  // Called with one-line messages ("warning: FILE: ...", "error: ...").
  std::function<void(const std::string&)> on_message;
  // Called after each snapshot is read and merged with (done, total), for a
  // progress line. This and on_message are called from the ingest's reading
  // thread (feed_batch.h), never at the same time, and not after ingest()
  // has returned or thrown.
  std::function<void(long, long)> on_progress;
  // Called after each document is written inside a feed's transaction, on
  // the caller's thread.
  // Anything it throws aborts that transaction like a crash would (tests use
  // this to check that a failed batch leaves the previous state).
  std::function<void()> on_document_written;
  // Larger snapshot files are skipped with an error naming them (--max-body).
  std::size_t max_snapshot_bytes = kDefaultMaxSnapshotBytes;
  // The parser's bounds (max_items, max_text_bytes); each snapshot's URL,
  // charset and time are added to them (parse_options_for, snapshot.h).
  ParseOptions parse;
};

class Writer {
 public:
  // Opens or creates the database at `path`. Throws DatabaseLocked when
  // another process holds the write lock, DatabaseDamaged when it is
  // corrupt, DatabaseError otherwise (also for a database of another schema
  // version).
  explicit Writer(const std::string& path);
  // What a rebuild uses for the database it replaces: any schema version is
  // opened, to hold the lock and read the feeds' metadata, never to ingest.
  struct AnySchema {};
  Writer(const std::string& path, AnySchema);
  ~Writer();
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  // Never throws for bad input (it is reported through on_message and
  // counted); throws DatabaseError when the database itself fails
  // (DatabaseDamaged when it is found corrupt).
  IngestSummary ingest(const std::vector<Snapshot>& snapshots,
                       const IngestOptions& options = {});

  Xapian::WritableDatabase& database();

 private:
  void open(const std::string& path, bool any_schema);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace blogsearch
