// writer.h: applying snapshots to the Xapian database.
//
// The database is a function of the set of snapshots ingested (replay.h
// holds the rules): a snapshot is its feed, observed time and body, and
// ingesting one again is a no-op; a body that returns later, or that
// another feed serves too, is a snapshot of its own. Identity of a post: its
// id (guid / atom:id), else its link, else a hash of feed, title and date.
// Each run merges the appearances of every post it touches with those the
// database holds and replays them all, so any order and batching of the
// same snapshots gives the same posts, versions, times, in_feed, feeds and
// text. A post missing from the newest snapshot of every feed that carries
// it stays searchable with in_feed = false.
//
// The database is K shards (db_layout.h): a post is written to shard
// schema::shard_of(its id, K), by a thread of that shard's own, so the
// shards are written side by side. A new post gets the shard's next
// interleaved id (schema::next_interleaved_docid), an updated one keeps its
// id; a sharded database written before ids were interleaved is written as
// before (Xapian's numbering) until a rebuild.
//
// Feeds' changes go into one transaction per shard that is committed
// whenever it is two seconds old and at the end of the run, always between
// feeds: every shard's documents first, then the metadata in shard 0 that
// records which snapshots were ingested. A kill at any point leaves a
// database that the next run completes to what one uninterrupted run gives.
// A bad file is logged and skipped; a failure while writing cancels the
// open transactions and leaves what was committed before them.
#pragma once

#include <xapian.h>

#include <memory>
#include <string>
#include <vector>

#include "indexer/database_error.h"
#include "indexer/ingest_options.h"
#include "indexer/snapshot.h"

namespace blogsearch {

class Writer {
 public:
  // Opens or creates the database at `path`, a new one with `shards`
  // shards (0: db_layout.h's default). Throws DatabaseLocked when another
  // process holds the write lock, DatabaseDamaged when it is corrupt,
  // DatabaseError otherwise (also for a database of another schema version,
  // in the layout from before shards, or of another number of shards than
  // a non-zero `shards`).
  explicit Writer(const std::string& path, unsigned shards = 0);
  // What a rebuild uses for the database it replaces: any schema version
  // and the layout from before shards are opened, to hold the lock and read
  // the feeds' metadata, never to ingest.
  struct AnySchema {};
  Writer(const std::string& path, AnySchema);
  ~Writer();
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  // Never throws for bad input (it is reported through on_message and
  // counted); throws DatabaseError when the database itself fails
  // (DatabaseDamaged when it is found corrupt), and what
  // options.before_read throws; either way what was not committed is
  // rolled back.
  IngestSummary ingest(const std::vector<Snapshot>& snapshots,
                       const IngestOptions& options = {});

  // Shard 0, which holds the metadata (feeds, fetch state). Not to be used
  // during ingest().
  Xapian::WritableDatabase& database();
  unsigned shard_count() const;
  const std::vector<std::string>& shard_paths() const;  // shard 0 first

 private:
  void open(const std::string& path, bool any_schema, unsigned shards);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace blogsearch
