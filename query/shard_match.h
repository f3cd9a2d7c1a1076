// shard_match.h: one match over local shards, split by shard over threads.
//
// Xapian 1.4 matches the shards of a combined Database one after the other,
// on one thread: over a million posts a word in every post is 30 ms of one
// core, whatever the cores. Here each task matches the whole combined
// database, so that every weight is worked out from the statistics of all
// the shards together, exactly as one match's are, but with its query
// restricted to the documents of one shard (only_shard: in the other
// shards the restricted query ends at once). The tasks run on threads of
// their own, and their pages are merged in the order one match gives:
// weight, then sort key (descending), then document id. The hits, their
// weights and percentages are those of one match; the counts are the sums
// of each task's, each of which counts its shard up to check_at_least (so
// they are at least as exact as one match's, not always equal to them).
//
// Only for a sort by relevance then key (or value), descending, which is
// what the merge reproduces.
//
// Failures: what a task's match throws (a Xapian error: the database
// modified under it, say) is thrown by match_by_shard once every task has
// finished. A thread that cannot be started leaves its task to the
// calling thread.
#pragma once

#include <xapian.h>

#include <functional>
#include <string>
#include <vector>

namespace blogsearch {

struct MatchedDoc {
  Xapian::docid docid = 0;  // in the combined database
  double weight = 0;
  int percent = 0;
};

// A page of a match and what it counted.
struct Matches {
  std::vector<MatchedDoc> docs;  // best first
  Xapian::doccount lower = 0, estimated = 0, upper = 0;
};

// The page and counts of one Xapian match.
Matches matches_of(const Xapian::MSet& mset);

// `query` restricted to the documents of the shard with this UUID (a
// posting source of blogsearch's own: local databases only).
Xapian::Query only_shard(const Xapian::Query& query, const std::string& shard_uuid);

struct ShardTask {
  Xapian::Database db;  // a handle of its own on every shard, combined
  // Built for this task alone: Xapian counts references to a query's parts
  // without atomics, so no part may be shared with another task's.
  Xapian::Query query;
  std::string shard_uuid;
};

// Sets up task `i`'s Enquire (sort, match spies, time limit) on the thread
// that runs it, before the match.
using EnquireSetUp = std::function<void(Xapian::Enquire&, std::size_t i)>;

// Matches every task (the first on the calling thread) weighed by
// `weight`, and merges their pages: the documents from offset to
// offset + limit of the whole match. Their percentages come from one more
// match of the best document alone (by its id term, schema::kId).
Matches match_by_shard(std::vector<ShardTask>& tasks, const Xapian::Weight& weight, const EnquireSetUp& set_up,
                       Xapian::doccount offset, Xapian::doccount limit, Xapian::doccount check_at_least);

}  // namespace blogsearch
