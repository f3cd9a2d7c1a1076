#include "query/shard_match.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <exception>
#include <future>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <utility>

#include "indexer/schema.h"

namespace blogsearch {

namespace {

// Xapian::BM25Weight()'s parameters.
constexpr double kK1 = 1, kK3 = 1, kB = 0.5, kMinNormlen = 0.5;

// What WholeBM25 weighs one shard's documents with: the statistics of all
// the shards.
struct WholeStats {
  Xapian::doccount collection_size = 0;
  double average_length = 0;
  // (frequency, collection frequency) of a term in this shard -> its
  // frequency in all the shards.
  std::map<std::pair<Xapian::doccount, Xapian::termcount>, Xapian::doccount> termfreq;
  // Set when a weighted part's statistics were not in `termfreq`: the
  // weights are not one match's, and the split is thrown away.
  mutable std::atomic<bool> unknown{false};
};

// BM25 as Xapian::BM25Weight() computes it (no relevance set, k2 = 0), the
// same operations in the same order, from WholeStats.
class WholeBM25 : public Xapian::Weight {
 public:
  explicit WholeBM25(std::shared_ptr<const WholeStats> stats) : stats_(std::move(stats)) {
    need_stat(TERMFREQ);
    need_stat(COLLECTION_FREQ);
    need_stat(WDF);
    need_stat(WDF_MAX);
    need_stat(DOC_LENGTH);
    need_stat(DOC_LENGTH_MIN);
    need_stat(WQF);
  }
  WholeBM25* clone() const override { return new WholeBM25(stats_); }
  std::string name() const override { return "blogsearch::WholeBM25"; }

  void init(double factor) override {
    Xapian::doccount tf = 0;
    if (get_termfreq() != 0) {  // else no document of this shard has it: any weight will do
      const auto it = stats_->termfreq.find({get_termfreq(), get_collection_freq()});
      if (it == stats_->termfreq.end()) stats_->unknown = true;
      else tf = it->second;
    }
    double tw = (stats_->collection_size - tf + 0.5) / (tf + 0.5);
    // BM25Weight's floor for terms in more than a third of the documents.
    if (tw < 2) tw = tw * 0.5 + 1;
    termweight_ = std::log(tw) * factor;
    const double wqf = get_wqf();
    termweight_ *= (kK3 + 1) * wqf / (kK3 + wqf);
    termweight_ *= (kK1 + 1);
    len_factor_ = stats_->average_length;
    if (len_factor_ != 0) len_factor_ = 1 / len_factor_;
  }
  double get_sumpart(Xapian::termcount wdf, Xapian::termcount len, Xapian::termcount) const override {
    const double normlen = std::max(len * len_factor_, kMinNormlen);
    const double wdf_double = wdf;
    const double denom = kK1 * (normlen * kB + (1 - kB)) + wdf_double;
    return termweight_ * (wdf_double / denom);
  }
  // At the most frequent, in the shortest document: a bound (a hair above,
  // against rounding) that lets the matcher skip what cannot rank.
  double get_maxpart() const override {
    const double wdf = get_wdf_upper_bound();
    const double normlen = std::max(get_doclength_lower_bound() * len_factor_, kMinNormlen);
    return termweight_ * (wdf / (kK1 * (normlen * kB + (1 - kB)) + wdf)) * (1 + 1e-9);
  }
#if BLOGSEARCH_XAPIAN_PATCHED
  // The bound glass skips postings by once the page is full
  // (tools/xapian/search.patch): get_sumpart() falls as a document grows,
  // and a document is at least as long as the shortest of its shard and as
  // the term's wdf in it.
  double get_maxpart_at_wdf(Xapian::termcount wdf) const override {
    return get_sumpart(wdf, std::max(wdf, get_doclength_lower_bound()), 0);
  }
#endif
  double get_sumextra(Xapian::termcount, Xapian::termcount) const override { return 0; }
  double get_maxextra() const override { return 0; }

 private:
  std::shared_ptr<const WholeStats> stats_;
  double termweight_ = 0;
  double len_factor_ = 0;
};

// Whether every weighted part of `query` is a term WholeBM25 can be told:
// no wildcard or synonym (weighed as one term from estimated statistics)
// and no elite set (its terms chosen by each shard's own weights).
bool plain_terms(const Xapian::Query& query) {
  switch (query.get_type()) {
    case Xapian::Query::OP_WILDCARD:
    case Xapian::Query::OP_SYNONYM:
    case Xapian::Query::OP_ELITE_SET:
      return false;
    default:
      for (std::size_t i = 0; i < query.get_num_subqueries(); ++i)
        if (!plain_terms(query.get_subquery(i))) return false;
      return true;
  }
}

// Shard i's WholeStats for `query`; empty when two of its terms share
// their statistics in a shard but not their frequency in all.
std::vector<std::shared_ptr<const WholeStats>> whole_stats(const Xapian::Database& all,
                                                           const std::vector<Xapian::Database>& shards,
                                                           const Xapian::Query& query) {
  Xapian::totallength total_length = 0;
  for (const auto& shard : shards) total_length += shard.get_total_length();
  const Xapian::doccount size = all.get_doccount();
  std::vector<std::shared_ptr<WholeStats>> stats;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    stats.push_back(std::make_shared<WholeStats>());
    stats.back()->collection_size = size;
    stats.back()->average_length = size == 0 ? 0 : Xapian::doclength(total_length) / size;
  }
  for (auto t = query.get_unique_terms_begin(); t != query.get_unique_terms_end(); ++t) {
    const Xapian::doccount whole = all.get_termfreq(*t);
    for (std::size_t i = 0; i < shards.size(); ++i) {
      const Xapian::doccount tf = shards[i].get_termfreq(*t);
      if (tf == 0) continue;
      const auto [at, added] = stats[i]->termfreq.emplace(std::make_pair(tf, shards[i].get_collection_freq(*t)), whole);
      if (!added && at->second != whole) return {};
    }
  }
  return {stats.begin(), stats.end()};
}

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
  Xapian::docid docid;  // combined
  double weight;
  std::string key;
  std::string collapse_key;  // "" when the match collapses nothing
};

}  // namespace

void run_by_shard(std::size_t n, const std::function<void(std::size_t i)>& run, const HelperHooks& hooks) {
  const pid_t caller = gettid();
  std::vector<std::future<void>> others;
  std::vector<std::size_t> left;  // runs no thread could be started for
  for (std::size_t i = 1; i < n; ++i) {
    try {
      others.push_back(std::async(std::launch::async, [&run, &hooks, caller, i] {
        HelperScope scope(hooks, caller);
        run(i);
      }));
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
  if (n > 0) note([&] { run(0); });
  for (std::size_t i : left) note([&] { run(i); });
  for (auto& other : others) note([&] { other.get(); });
  if (failed) std::rethrow_exception(failed);
}

Matches matches_of(const Xapian::MSet& mset) {
  Matches m;
  m.lower = mset.get_matches_lower_bound();
  m.estimated = mset.get_matches_estimated();
  m.upper = mset.get_matches_upper_bound();
  m.docs.reserve(mset.size());
  for (auto it = mset.begin(); it != mset.end(); ++it) m.docs.push_back({*it, it.get_weight(), it.get_percent()});
  return m;
}

std::optional<Matches> match_by_shard(const Xapian::Database& all, const std::vector<Xapian::Database>& shards,
                                      const Xapian::Query& query, std::vector<ShardTask>& tasks,
                                      const EnquireSetUp& set_up, Xapian::doccount offset, Xapian::doccount limit,
                                      Xapian::doccount check_at_least, const HelperHooks& hooks) {
  if (tasks.size() != shards.size() || !plain_terms(query)) return std::nullopt;
  const std::vector<std::shared_ptr<const WholeStats>> stats = whole_stats(all, shards, query);
  if (stats.empty()) return std::nullopt;
  std::vector<Xapian::MSet> pages(tasks.size());
  // Each page from the top: which of them hold the merged page's documents
  // is known only after the merge.
  const Xapian::doccount wanted = offset + limit;
  auto run = [&](std::size_t i) {
    Xapian::Enquire enquire(tasks[i].shard);
    enquire.set_weighting_scheme(WholeBM25(stats[i]));
    set_up(enquire, i);
    enquire.set_query(tasks[i].query);
    pages[i] = enquire.get_mset(0, wanted, check_at_least);
  };
  run_by_shard(tasks.size(), run, hooks);
  for (const auto& s : stats)
    if (s->unknown) return std::nullopt;

  Matches merged;
  std::vector<Ranked> all_ranked;
  const auto k = static_cast<unsigned>(shards.size());
  bool seen_all = true;  // every shard's whole match is in its page
  Xapian::doccount most_lower = 0;
  for (const Xapian::MSet& page : pages) {
    const Matches counts = matches_of(page);
    merged.lower += counts.lower;
    merged.estimated += counts.estimated;
    merged.upper += counts.upper;
    most_lower = std::max(most_lower, counts.lower);
    seen_all = seen_all && page.size() == counts.upper;
    for (auto it = page.begin(); it != page.end(); ++it)
      all_ranked.push_back(
          {schema::combined_docid(*it, k), it.get_weight(), it.get_sort_key(), it.get_collapse_key()});
  }
  std::sort(all_ranked.begin(), all_ranked.end(), [](const Ranked& a, const Ranked& b) {
    if (a.weight != b.weight) return a.weight > b.weight;
    if (a.key != b.key) return a.key > b.key;
    return a.docid < b.docid;
  });
  // Each shard collapsed its own copies of a post (set_up's collapse key);
  // copies in two shards are collapsed here, the best kept. Some shard may
  // then hold more of the page than it gave, and copies of the posts past
  // the pages are unknown: the counts are exact only if every match was
  // seen, else a match as one answers what must be exact.
  const bool collapsing = std::any_of(all_ranked.begin(), all_ranked.end(),
                                      [](const Ranked& r) { return !r.collapse_key.empty(); });
  if (collapsing) {
    std::set<std::string> keys;
    std::vector<Ranked> best;
    for (Ranked& r : all_ranked)
      if (r.collapse_key.empty() || keys.insert(r.collapse_key).second) best.push_back(std::move(r));
    const auto copies = static_cast<Xapian::doccount>(all_ranked.size() - best.size());
    all_ranked = std::move(best);
    const auto kept = static_cast<Xapian::doccount>(all_ranked.size());
    if (seen_all) {
      merged.lower = merged.estimated = merged.upper = kept;
    } else {
      if (kept < wanted || merged.upper < check_at_least) return std::nullopt;
      merged.lower = std::max(most_lower, wanted);
      merged.estimated = std::max(merged.lower, merged.estimated - copies);
    }
  }
  // A match's percentages are its weights scaled by its best document's:
  // the share of the query's weighted parts that document matches, over
  // its weight. That document is matched once more on its own, over all
  // the shards, restricted by its id term (a boolean filter, which Xapian
  // leaves out of the share): the same weight, the same share.
  std::optional<Xapian::MSet> top;
  if (!all_ranked.empty() && all_ranked.front().weight > 0) {
    const std::string id = id_term_of(all, all_ranked.front().docid);
    if (!id.empty()) {
      Xapian::Enquire enquire(all);
      enquire.set_weighting_scheme(Xapian::BM25Weight());
      enquire.set_query(Xapian::Query(Xapian::Query::OP_FILTER, query, Xapian::Query(id)));
      top = enquire.get_mset(0, 1);
    }
  }
  for (std::size_t r = offset; r < all_ranked.size() && r < wanted; ++r)
    merged.docs.push_back(
        {all_ranked[r].docid, all_ranked[r].weight, top ? top->convert_to_percent(all_ranked[r].weight) : 100});
  return merged;
}

}  // namespace blogsearch
