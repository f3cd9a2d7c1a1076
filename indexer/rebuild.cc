// rebuild.cc: build aside, then switch.
#include "indexer/rebuild.h"

#include <chrono>
#include <exception>
#include <memory>
#include <filesystem>
#include <thread>

#include "indexer/db_layout.h"
#include "indexer/schema.h"
#include "indexer/writer.h"
#include "record/feed_meta.h"

namespace blogsearch {

namespace fs = std::filesystem;

namespace {
constexpr std::chrono::milliseconds kReaderGrace{1500};

// Compacts each shard of a generation (Xapian::Database::compact, full
// compaction), all side by side, each into a copy that then replaces it.
// Throws what Xapian throws, or std::runtime_error.
void compact_shards(const std::vector<std::string>& shards) {
  std::vector<std::exception_ptr> errors(shards.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    threads.emplace_back([&, i] {
      try {
        const std::string& shard = shards[i];
        const std::string out = shard + ".compact";
        // Keeping every document id: interleaved ids (schema.h) name documents
        // across shards, and compaction would renumber them 1, 2, 3...
        Xapian::Database(shard).compact(out, Xapian::Compactor::FULL | Xapian::DBCOMPACT_NO_RENUMBER);
        std::error_code ec;
        fs::remove_all(shard, ec);
        if (!ec) fs::rename(out, shard, ec);
        if (ec) throw std::runtime_error("cannot replace " + shard + " by its compacted copy: " + ec.message());
      } catch (...) {
        errors[i] = std::current_exception();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace

IngestSummary rebuild_database(const std::string& db_path, const std::vector<Snapshot>& snapshots,
                               const IngestOptions& options, unsigned shards) {
  // Holds the write lock for the whole rebuild. The database it replaces
  // may be of an older schema version: rebuilding is how it is upgraded.
  // A damaged database cannot be opened, and is what a rebuild is for:
  // nobody else can write it either, so it is replaced without its lock,
  // and without the fetch state it held.
  std::unique_ptr<Writer> live;
  try {
    live = std::make_unique<Writer>(db_path, Writer::AnySchema{});
  } catch (const DatabaseDamaged&) {
    if (!has_generations(db_path)) throw;
  }
  if (!has_generations(db_path))
    throw DatabaseError("database " + db_path +
                        " was not created by blogsearch-index and cannot be switched atomically; "
                        "rebuild into a new --db instead");
  if (shards == 0) {
    // As many shards as the live database has (one when it is of
    // the layout from before shards; the default when it is damaged past
    // reading its stub).
    try {
      const Layout l = read_layout(db_path);
      if (l.kind == Layout::Kind::kSharded || l.kind == Layout::Kind::kSingle)
        shards = static_cast<unsigned>(l.shards.size());
    } catch (const std::runtime_error&) {
    }
  }
  std::string generation;
  try {
    generation = new_generation(db_path, shards);
  } catch (const std::runtime_error& e) {
    throw DatabaseError(e.what());
  }
  try {
    IngestSummary summary;
    std::vector<std::string> shard_paths;
    {
      Writer fresh(generation);
      Xapian::WritableDatabase& to = fresh.database();
      const std::string prefix = schema::kMetaFeedPrefix;
      // Fetch state (etag, redirects, failures) is not in the archive;
      // everything else is recomputed from the snapshots.
      if (live) {
        try {
          Xapian::WritableDatabase& from = live->database();
          for (auto it = from.metadata_keys_begin(prefix); it != from.metadata_keys_end(prefix); ++it) {
            const std::string id = (*it).substr(prefix.size());
            const FeedMeta old = decode_feed_meta(from.get_metadata(*it), id);
            FeedMeta keep;
            keep.id = old.id;
            keep.title = old.title;
            keep.url = old.url;
            keep.fetch = old.fetch;
            to.set_metadata(*it, encode_feed_meta(keep));
          }
        } catch (const Xapian::DatabaseCorruptError&) {
          // Damaged where the metadata is: the fetch state starts afresh.
        }
      }
      to.commit();
      summary = fresh.ingest(snapshots, options);
      to.commit();
      shard_paths = fresh.shard_paths();
    }
    compact_shards(shard_paths);
    switch_generation(db_path, generation);
    // A reader that read the old stub just before the rename still has to
    // open the old generation's tables; removing them at once makes its open
    // fail (the e2e test saw it). Readers that have opened them keep working
    // after the removal, so a short grace period closes the window.
    std::this_thread::sleep_for(kReaderGrace);
    remove_stale_generations(db_path);
    return summary;
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove_all(generation, ec);
    // Callers handle DatabaseError (and DatabaseLocked, one of them) only;
    // a failed stub rename or a Xapian error while copying state must not
    // escape as something else.
    try {
      throw;
    } catch (const DatabaseDamaged& e) {
      // What was found damaged is the generation being written, removed
      // above: its path, in the message, would be no advice.
      throw DatabaseError("rebuild of " + db_path + " failed: the new index came out damaged (" + e.detail +
                          "); the database is unchanged");
    } catch (const DatabaseError&) {
      throw;
    } catch (const Xapian::Error& e) {
      throw DatabaseError("rebuild of " + db_path + " failed: " + e.get_description());
    } catch (const std::runtime_error& e) {
      throw DatabaseError("rebuild of " + db_path + " failed: " + e.what());
    }
  }
}

}  // namespace blogsearch
