// rebuild.h: re-creating the whole database from the snapshot archive.
//
// The new index is built in a fresh generation (db_layout.h) while the live
// one keeps serving searches and stays write-locked, then switched in
// atomically; the old generation is removed. The new generation has
// `shards` shards (0: as many as the live database, one for a
// database of the layout from before shards), written side by side and
// then compacted side by side (Xapian::Database::compact) before the
// switch. Per-feed fetch state is carried over. A failure or a kill leaves the live database untouched (the partial
// generation is removed now or by the next writer). The live database may be
// of an older schema version: a rebuild is how it is brought up to date.
// Throws DatabaseLocked / DatabaseError (database_error.h).
#pragma once

#include <string>
#include <vector>

#include "indexer/ingest_options.h"

namespace blogsearch {

IngestSummary rebuild_database(const std::string& db_path, const std::vector<Snapshot>& snapshots,
                               const IngestOptions& options = {}, unsigned shards = 0);

}  // namespace blogsearch
