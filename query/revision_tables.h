// revision_tables.h: the per-post tables of one database revision, shared
// by the searchers of a process.
//
// A long-running searcher keeps every post's facet terms (FacetTable,
// facets.h) and published time (PublishedKeys, sort_keys.h): a few hundred
// bytes per post, made at its first search of a revision. A FastCGI process
// runs several searchers (web/searcher_slots.h), each with its own Xapian
// handles; they read the same revision most of the time, and both tables
// are immutable once made, so a RevisionTables given to all of them
// (SearcherOptions::tables) makes each table once per revision and hands
// out the same one. It keeps the newest revision asked for only: a
// searcher still reading an older one keeps its own shared_ptr to it until
// it opens the database again, and one asking for an older revision than
// the kept one gets tables made for it alone.
//
// A revision is named by the shards' uuids and revision numbers
// (revision_key); "" (unknown) is never shared. Thread-safe: a table is
// made under the lock, so two searchers never make the same one at once.
// The makers' exceptions (Xapian errors) propagate, and nothing is kept.
#pragma once

#include <xapian.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace blogsearch {

class FacetTable;
class PublishedKeys;

// The name of the revision that local `shards` (the parts of one database,
// shards.h) read: their uuids and the sum of their revision numbers, which
// grows with every commit of any of them (a searcher opens them again until
// their commits agree); "" when it cannot tell (then nothing is shared).
std::string revision_key(const std::vector<Xapian::Database>& shards);

class RevisionTables {
 public:
  std::shared_ptr<const PublishedKeys> keys(const std::string& revision,
                                            const std::function<std::shared_ptr<const PublishedKeys>()>& make);
  std::shared_ptr<const FacetTable> facets(const std::string& revision,
                                           const std::function<std::shared_ptr<const FacetTable>()>& make);

  // How many tables it has made (for tests).
  long made() const;

 private:
  // Moves to revision `number` of database `uuid` when it is newer than
  // the kept one or of another database; false when it is older: the
  // caller makes its own.
  bool at(const std::string& uuid, Xapian::rev number);

  mutable std::mutex lock_;
  std::string uuid_;
  Xapian::rev revision_ = 0;
  bool any_ = false;
  std::shared_ptr<const PublishedKeys> keys_;
  std::shared_ptr<const FacetTable> facets_;
  long made_ = 0;
};

}  // namespace blogsearch
