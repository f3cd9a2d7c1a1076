// archive.h: keeping fetched snapshots on disk.
//
// ARCHIVE/<feed>/<UTC>.xml holds the body exactly as served (after content
// decoding) and <UTC>.headers.json what is known of the fetch, in the shape
// snapshot.h reads back (fetchedAt, observed_at, finalUrl, status, etag,
// lastModified, date, contentType, contentLength). ARCHIVE/.database names
// the database that uses the archive (archive_for_database).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "indexer/fetch.h"
#include "indexer/snapshot.h"

namespace blogsearch {

struct ArchivedFile {
  std::string path;      // the .xml
  bool existed = false;  // the same body was already archived under this time
};

// What a body that the feed's newest archived file (not newer than it)
// already holds is. For fetch, that snapshot fetched again: a run killed
// after archiving it and before indexing it is followed by one that gets
// the same body, and the file is the snapshot, not a second one. For add
// and import-git, a snapshot of its own: its time counts (a later snapshot
// in between, added afterwards, makes it a return to that body), so the
// archive keeps it for rebuild.
enum class SameAsNewest { kANewSnapshot, kThatSnapshot };

// Writes both files (each to a temporary name, then renamed, so a crash never
// leaves half a snapshot) and returns the path of the .xml. `extra` (a JSON
// object) is merged into the headers file, to say where a snapshot came from.
// When the file for this time already holds the same body (a re-run of
// import-git or add), or `same` says so of the feed's newest file (a fetch
// run killed before it indexed), nothing is written.
// Temporary files left by a killed run are removed.
// Throws std::runtime_error naming the path when the disk refuses.
ArchivedFile archive_snapshot(const std::string& archive_dir, const FetchResponse& response,
                              const nlohmann::json& extra = nlohmann::json::object(),
                              SameAsNewest same = SameAsNewest::kANewSnapshot);

// What runs killed while writing ARCHIVE/<feed_id> left, in one listing of
// the folder: the temporary files (*.tmp) of a write cut short are removed
// (a write that fails removes its own; every archive write does this for
// its folder, fetch for every feed it fetches, so a feed that does not
// change again keeps none either), and the snapshot bodies whose file names
// say they were observed after `after` (or in the second before it: the
// caller reads each one's own time) are returned in name order: what a run
// killed between archiving and indexing left, for the next fetch to index.
// Call it under the database's write lock (a running writer's temporaries
// are not stale). Never throws (but bad_alloc): a folder that cannot be
// listed is left as it is and gives none.
std::vector<std::string> tidy_feed_folder(const std::string& archive_dir, const std::string& feed_id,
                                          std::int64_t after);

// The same for many snapshots: each feed's folder is listed (and cleaned of
// temporary files) once, not once per snapshot. Without `with_headers` only
// the body is written: for a snapshot of which nothing is known but its
// time, which its file name says.
class Archive {
 public:
  explicit Archive(std::string archive_dir, SameAsNewest same = SameAsNewest::kANewSnapshot);
  ~Archive();
  ArchivedFile put(const FetchResponse& response, const nlohmann::json& extra = nlohmann::json::object(),
                   bool with_headers = true);
  // As put() for the regular file `source` of `size` bytes (what `add` was
  // given; response.body is not used), without reading it: the body is
  // hard-linked from it (link(2): same file system). Creating and writing
  // a file per snapshot was most of what archiving cost. A link is as
  // crash-safe as the rename: the name appears whole or not at all.
  // nullopt when it cannot link (another file system, not allowed, or the
  // file no longer has `size` bytes): then put() the body read.
  std::optional<ArchivedFile> link(const FetchResponse& response, const std::string& source, std::uintmax_t size,
                                   const nlohmann::json& extra, bool with_headers);
  // The feed folders (absolute) that this object created, in order.
  const std::vector<std::string>& created_folders() const { return created_; }

 private:
  struct Folder {
    std::string dir;     // absolute
    std::string newest;  // its newest .xml by name, "" when none
    std::unordered_set<std::string> names;  // its files: listed when first met, and written since
    std::unordered_map<std::string, std::uintmax_t> sizes;  // bodies written since, by name
  };
  Folder& folder(const std::string& feed_id);
  // The archived file already holding this body of `size` bytes
  // (holds_body), else nullopt and the names to write it under.
  std::optional<ArchivedFile> place(const FetchResponse& r, std::uintmax_t size,
                                    const std::function<bool(const std::filesystem::path&)>& holds_body,
                                    std::filesystem::path& body, std::filesystem::path& headers);
  static std::string headers_of(const FetchResponse& r, std::uintmax_t size, const nlohmann::json& extra);
  void placed(const FetchResponse& r, const std::filesystem::path& body, std::uintmax_t size);
  std::string dir_;
  SameAsNewest same_;
  std::map<std::string, Folder> folders_;
  std::vector<std::string> created_;
};

// What a fetch (or a committed version) tells of its snapshot: feed id,
// observed time, status, ETag, Last-Modified, final URL and Content-Type,
// as headers.json records them; no path yet. Never throws (but bad_alloc).
Snapshot snapshot_of(const FetchResponse& response);

// --archive, else $BLOGSEARCH_ARCHIVE, else the folder "archive" beside the
// database directory `db_path` (schema::resolve_db_path): for the default
// database that is $XDG_DATA_HOME/blogsearch/archive
// (~/.local/share/blogsearch/archive), and a database given with --db
// keeps its archive beside it, where add, fetch, import-git and rebuild all
// find it. Never throws (but bad_alloc).
std::string resolve_archive_path(const std::string& from_option, const std::string& db_path);

// A default archive that another database uses (archive_for_database).
class ArchiveClaimError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The archive of the database at `db_path` (resolve_archive_path), claimed
// for it. Every database in one folder would default to the same folder
// "archive" beside them, and a rebuild of one would then take in the
// other's snapshots; so the first database to use an archive writes its
// absolute path in ARCHIVE/.database (a dot file: no snapshot), and a
// command of another database that would fall back to that archive throws
// ArchiveClaimError (one line: whose archive it is and what to pass) while
// the claiming database still exists. A claim of a database that is gone
// (moved or deleted) passes to this one; a claim that cannot be written
// (a read-only archive) is skipped. An archive named on purpose
// (`from_option`: --archive or config.toml; $BLOGSEARCH_ARCHIVE) is used
// as given, shared if so chosen, and never written to here. `create`
// makes the archive folder when missing (add, fetch, import-git; rebuild
// only reads). Throws ArchiveClaimError only.
std::string archive_for_database(const std::string& from_option, const std::string& db_path, bool create);

}  // namespace blogsearch
