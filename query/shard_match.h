// shard_match.h: one match over local shards, split by shard over threads.
//
// Xapian 1.4 matches the shards of a combined Database one after the other,
// on one thread: over a million posts a word in every post is 30 ms of one
// core, whatever the cores. Here each shard is matched on a thread of its
// own, on its own, and the pages are merged in the order one match gives
// (weight, then sort key, descending, then the document's combined id):
// for a sort by relevance then the published time, newest first, the
// searcher's (the only one it splits).
//
// A shard matched on its own would weigh its documents by its own
// statistics. So it is weighed by WholeBM25: Xapian's BM25 with its
// default parameters, the same arithmetic, but with the number of
// documents, their average length and each term's frequency of all the
// shards together: the weights of one match, to the last bit. A Weight in
// Xapian 1.4 is not told its term, only the term's statistics in the shard;
// the term is told apart by its frequency and collection frequency there.
// A query in which two weighted terms share those in a shard but not their
// frequency overall, or whose weighted parts are not plain terms (a
// wildcard's or a synonym's), cannot be split: match_by_shard then returns
// nullopt and the caller matches as one. Percentages come from one more
// match of the best document alone, on all the shards.
//
// The hits, weights and percentages are those of one match; the counts are
// the sums of each shard's, each counted up to check_at_least (so they are
// at least as exact as one match's, not always equal). With a collapse key
// (set_up's), each shard keeps the best of its copies of a post and the
// merge the best of the shards'; where that leaves the page unknown, or
// counts that one match makes exact (fewer than check_at_least) inexact,
// match_by_shard returns nullopt too.
//
// Failures: what a shard's match throws (a Xapian error: the database
// modified under it, say) is thrown once every shard has finished. A
// thread that cannot be started leaves its shard to the calling thread.
#pragma once

#include <sys/types.h>
#include <xapian.h>

#include <functional>
#include <optional>
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

struct ShardTask {
  Xapian::Database shard;  // a handle of its own on shard i (ids interleaved: schema.h)
  // Built for this task alone: Xapian counts references to a query's parts
  // without atomics, so no part may be shared with another task's.
  Xapian::Query query;
};

// What each thread a search starts besides its caller's runs first (with
// the caller's thread id, gettid) and last: the CGI lowers such a thread
// with the request that started it (web/request_priority.h). Either may be
// unset. Used by the match by shard and the facets' sample (searcher.cc).
struct HelperHooks {
  std::function<void(pid_t caller)> started;
  std::function<void()> done;
};

// Calls hooks.started on construction and hooks.done on destruction.
class HelperScope {
 public:
  HelperScope(const HelperHooks& hooks, pid_t caller) : hooks_(hooks) {
    if (hooks_.started) hooks_.started(caller);
  }
  ~HelperScope() {
    if (hooks_.done) hooks_.done();
  }
  HelperScope(const HelperScope&) = delete;
  HelperScope& operator=(const HelperScope&) = delete;

 private:
  const HelperHooks& hooks_;
};

// Runs run(i) for every i < n: run(0) on the calling thread, each other on
// a thread of its own that runs `hooks` (one that cannot be started runs on
// the calling thread). What a run throws is thrown once every run has
// ended.
void run_by_shard(std::size_t n, const std::function<void(std::size_t i)>& run, const HelperHooks& hooks);

// Sets up shard i's Enquire (sort, match spies, time limit) on the thread
// that runs it, before the match.
using EnquireSetUp = std::function<void(Xapian::Enquire&, std::size_t i)>;

// Matches tasks[i] on shard i of `all` (whose parts are `shards`, handles
// of the calling thread), tasks[0] on the calling thread, weighed as
// `query` over `all` with Xapian::BM25Weight(), and merges the pages: the
// documents from offset to offset + limit of the whole match. nullopt when
// the query cannot be split (above). The other threads run `hooks`.
std::optional<Matches> match_by_shard(const Xapian::Database& all, const std::vector<Xapian::Database>& shards,
                                      const Xapian::Query& query, std::vector<ShardTask>& tasks,
                                      const EnquireSetUp& set_up, Xapian::doccount offset, Xapian::doccount limit,
                                      Xapian::doccount check_at_least, const HelperHooks& hooks = {});

}  // namespace blogsearch
