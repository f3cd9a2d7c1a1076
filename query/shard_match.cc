#include "query/shard_match.h"

#include <algorithm>
#include <exception>
#include <future>
#include <optional>
#include <system_error>
#include <utility>

#include "indexer/schema.h"

namespace blogsearch {

namespace {

// Every document of the shard whose UUID it was given (its ids, one after
// the other: the query it filters skips ahead of them), none elsewhere.
// Xapian calls init() once for each shard of a combined database.
class OnlyShardSource : public Xapian::PostingSource {
 public:
  explicit OnlyShardSource(std::string uuid) : uuid_(std::move(uuid)) {}
  void init(const Xapian::Database& db) override {
    const bool mine = db.get_uuid() == uuid_;
    last_ = mine ? db.get_lastdocid() : 0;
    count_ = mine ? db.get_doccount() : 0;
    did_ = 0;
    set_maxweight(0);
  }
  Xapian::doccount get_termfreq_min() const override { return count_; }
  Xapian::doccount get_termfreq_est() const override { return count_; }
  Xapian::doccount get_termfreq_max() const override { return count_; }
  void next(double) override { ++did_; }
  void skip_to(Xapian::docid did, double) override {
    if (did_ < did) did_ = did;
  }
  bool at_end() const override { return did_ > last_; }
  Xapian::docid get_docid() const override { return did_; }
  OnlyShardSource* clone() const override { return new OnlyShardSource(uuid_); }
  std::string name() const override { return "blogsearch::OnlyShardSource"; }

 private:
  std::string uuid_;
  Xapian::docid last_ = 0;
  Xapian::doccount count_ = 0;
  Xapian::docid did_ = 0;
};

// The id term of document `did` of `db` (its only term with the prefix),
// "" when it has none.
std::string id_term_of(const Xapian::Database& db, Xapian::docid did) {
  Xapian::TermIterator it = db.termlist_begin(did);
  it.skip_to(schema::kId);
  if (it == db.termlist_end(did)) return "";
  std::string term = *it;
  return term.rfind(schema::kId, 0) == 0 ? term : "";
}

struct Ranked {
  Xapian::docid docid;
  double weight;
  std::string key;
  std::size_t task;
};

}  // namespace

Matches matches_of(const Xapian::MSet& mset) {
  Matches m;
  m.lower = mset.get_matches_lower_bound();
  m.estimated = mset.get_matches_estimated();
  m.upper = mset.get_matches_upper_bound();
  m.docs.reserve(mset.size());
  for (auto it = mset.begin(); it != mset.end(); ++it) m.docs.push_back({*it, it.get_weight(), it.get_percent()});
  return m;
}

Xapian::Query only_shard(const Xapian::Query& query, const std::string& shard_uuid) {
  return Xapian::Query(Xapian::Query::OP_FILTER, query,
                       Xapian::Query((new OnlyShardSource(shard_uuid))->release()));
}

Matches match_by_shard(std::vector<ShardTask>& tasks, const Xapian::Weight& weight, const EnquireSetUp& set_up,
                       Xapian::doccount offset, Xapian::doccount limit, Xapian::doccount check_at_least) {
  std::vector<Xapian::MSet> pages(tasks.size());
  // Each page from the top: which of them hold the merged page's documents
  // is known only after the merge.
  const Xapian::doccount wanted = offset + limit;
  auto run = [&](std::size_t i) {
    Xapian::Enquire enquire(tasks[i].db);
    enquire.set_weighting_scheme(weight);
    set_up(enquire, i);
    enquire.set_query(only_shard(tasks[i].query, tasks[i].shard_uuid));
    pages[i] = enquire.get_mset(0, wanted, check_at_least);
  };
  std::vector<std::future<void>> others;
  std::vector<std::size_t> left;  // tasks no thread could be started for
  for (std::size_t i = 1; i < tasks.size(); ++i) {
    try {
      others.push_back(std::async(std::launch::async, run, i));
    } catch (const std::system_error&) {
      left.push_back(i);
    }
  }
  std::exception_ptr failed;
  auto note = [&failed](auto&& f) {
    try {
      f();
    } catch (...) {
      if (!failed) failed = std::current_exception();
    }
  };
  note([&] { run(0); });
  for (std::size_t i : left) note([&] { run(i); });
  for (auto& other : others) note([&] { other.get(); });
  if (failed) std::rethrow_exception(failed);

  Matches merged;
  std::vector<Ranked> all;
  for (std::size_t i = 0; i < pages.size(); ++i) {
    const Xapian::MSet& page = pages[i];
    merged.lower += page.get_matches_lower_bound();
    merged.estimated += page.get_matches_estimated();
    merged.upper += page.get_matches_upper_bound();
    for (auto it = page.begin(); it != page.end(); ++it) all.push_back({*it, it.get_weight(), it.get_sort_key(), i});
  }
  std::sort(all.begin(), all.end(), [](const Ranked& a, const Ranked& b) {
    if (a.weight != b.weight) return a.weight > b.weight;
    if (a.key != b.key) return a.key > b.key;
    return a.docid < b.docid;
  });
  // A match's percentages are its weights scaled by its best document's:
  // the share of the query's weighted parts that document matches, over
  // its weight. The tasks' own are no use (Xapian 1.4 counts the posting
  // source that restricts them as a matching part, though it weighs
  // nothing), so the best document is matched once more on its own,
  // restricted by its id term instead: the same weight, the same share.
  std::optional<Xapian::MSet> top;
  if (!all.empty() && all.front().weight > 0) {
    const std::string id = id_term_of(tasks[0].db, all.front().docid);
    if (!id.empty()) {
      Xapian::Enquire enquire(tasks[0].db);
      enquire.set_weighting_scheme(weight);
      enquire.set_query(Xapian::Query(Xapian::Query::OP_FILTER, tasks[0].query, Xapian::Query(id)));
      top = enquire.get_mset(0, 1);
    }
  }
  for (std::size_t r = offset; r < all.size() && r < wanted; ++r)
    merged.docs.push_back({all[r].docid, all[r].weight, top ? top->convert_to_percent(all[r].weight) : 100});
  return merged;
}

}  // namespace blogsearch
