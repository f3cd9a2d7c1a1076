// shards.h: the databases behind a database path, each opened on its own
// and all of them combined, for searching one index spread over several
// databases and hosts.
//
// A path names one of:
//   - a blogsearch database directory, whose XAPIANDB stub lists the
//     shards of its live generation (indexer/db_layout.h), with one
//     spelling database for all of them (the layout from before shards:
//     one shard);
//   - a glass database directory: one shard;
//   - a stub (a file, or a directory holding XAPIANDB) in Xapian's stub
//     format that lists shards, one a line: `auto PATH` (another of these,
//     relative to the stub's folder) or `remote :HOST:PORT` (a database
//     served by xapian-tcpsrv). Blank lines and lines starting with # are
//     skipped, as Xapian does.
//
// Xapian opens all of these as one Database, but a combined Database reads
// metadata (feed titles, schema version) from its first shard only, and a
// remote shard answers no spelling questions. So the searcher opens each
// shard itself: searches run on `all`, metadata is looked up in every
// shard, and spelling comes from the spelling databases of the local
// shards plus, for remote ones, from the folder beside the stub (see
// `spelling_paths`).
//
// The shards of one blogsearch database are committed one after another:
// open_shards() opens them again until they are at the same commit of
// their writer (schema::kMetaCommit), so a search never mixes two states.
//
// open_shards() throws ShardError naming the stub line or the host:port
// that failed (ShardUnreachable for a remote shard that did not answer);
// what Xapian throws later while searching a remote shard that stopped
// answering (Xapian::NetworkError, NetworkTimeoutError) is the
// caller's to turn into a message (shard_names() helps).
#pragma once

#include <xapian.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace blogsearch {

class ShardError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A remote shard that refused the connection or did not answer in time:
// opening the stub again at once would wait as long again.
class ShardUnreachable : public ShardError {
 public:
  using ShardError::ShardError;
};

struct ShardOptions {
  // How long a remote shard may take to accept a connection, and to answer
  // any one message. A shard that stops answering fails the search after
  // at most `remote_timeout_ms`.
  unsigned remote_connect_timeout_ms = 2000;
  unsigned remote_timeout_ms = 5000;
};

struct ShardSet {
  Xapian::Database all;                 // every shard, combined: what searches run on
  std::vector<Xapian::Database> shards;  // each shard on its own, in stub order
  std::vector<std::string> names;       // each shard's path or "HOST:PORT", for messages
  bool remote = false;                  // some shard is served by xapian-tcpsrv
  std::vector<std::string> remote_names;  // "HOST:PORT" of those, in stub order
  // The ids of documents in their shards are distinct across shards: one
  // shard, or local shards of a database written with interleaved ids
  // (indexer/schema.h: kMetaDocids, each shard marked with its place in
  // stub order). A table by the id a MatchSpy or KeyMaker is shown then
  // tells every document apart.
  bool distinct_docids = false;
  // The spelling databases to consult: each local shard's own
  // (schema::spelling_db_path), then "spelling" beside a stub that lists
  // shards, when it exists: a database, or a stub listing the read
  // replicas of the remote shards' spelling databases (docs/multi-host.md).
  std::vector<std::string> spelling_paths;
};

// Opens every shard behind `path`. Throws ShardError (a stub line Xapian
// or blogsearch cannot use, a stub nested too deep, a shard that cannot be
// opened or reached); Xapian::DatabaseOpeningError when `path` itself is
// no database.
ShardSet open_shards(const std::string& path, const ShardOptions& options = {});

// The first non-empty value of metadata `key` in the shards, in order.
// Throws what Xapian throws (a remote shard gone).
std::string shard_metadata(const ShardSet& set, const std::string& key);

// "HOST:PORT, HOST:PORT" of the remote shards, for an error message.
std::string remote_shard_names(const ShardSet& set);

}  // namespace blogsearch
