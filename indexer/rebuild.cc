// rebuild.cc: build aside, then switch.
#include "indexer/rebuild.h"

#include <chrono>
#include <memory>
#include <filesystem>
#include <thread>

#include "indexer/db_layout.h"
#include "indexer/schema.h"
#include "indexer/writer.h"
#include "record/feed_meta.h"

namespace blogsearch {

namespace {
constexpr std::chrono::milliseconds kReaderGrace{1500};
}  // namespace

IngestSummary rebuild_database(const std::string& db_path, const std::vector<Snapshot>& snapshots,
                               const IngestOptions& options) {
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
  std::string generation;
  try {
    generation = new_generation(db_path);
  } catch (const std::runtime_error& e) {
    throw DatabaseError(e.what());
  }
  try {
    IngestSummary summary;
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
    }
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
