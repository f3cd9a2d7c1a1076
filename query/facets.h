// facets.h: counting facet values (category, author, feed, month) over a
// search's whole match set, and turning the counts into the result model.
//
// A FacetSpy is added to the Enquire as a MatchSpy: it notes every matching
// document while Xapian matches, and count() then reads the facet terms of
// those documents from schema::kSlotFacets, one value stream in docid
// order. A post can have several categories, authors and feeds; the value
// holds them all, categories and authors with their labels as written.
//
// A long-running searcher (FastCGI) reads every post's facet terms once,
// into a FacetTable, and counts from it: no reads at all per search. The
// table is by the id a MatchSpy is shown, a document's id in its shard, so
// it needs those distinct (shards.h: ShardSet::distinct_docids): one
// shard, or local shards with interleaved ids.
//
// Xapian errors (a database modified under the search) propagate; the
// searcher retries.
#pragma once

#include <xapian.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <tsl/robin_map.h>
#include <xxhash.h>

#include "query/facet_kind.h"
#include "query/result.h"

namespace blogsearch {

// A hash table by short strings (facet terms and pairs), hashed by XXH3,
// each entry's hash kept: numbering the pairs of a sample's values with
// std::hash was a tenth of a faceted search's instructions.
struct BytesHash {
  std::size_t operator()(std::string_view bytes) const noexcept { return XXH3_64bits(bytes.data(), bytes.size()); }
};
template <typename T>
using BytesMap = tsl::robin_map<std::string_view, T, BytesHash, std::equal_to<std::string_view>,
                                std::allocator<std::pair<std::string_view, T>>, true>;

// The distinct (term, label) pairs of kSlotFacets values (schema.h:
// facet_value(): a length byte, the term, a length byte, the label), each
// numbered in the order first seen. A pair is looked up by its own bytes in
// the value, and those bytes are kept here once: numbering a value
// allocates nothing for a pair seen before. The views of pairs() stay valid
// while it lives.
class FacetPairs {
 public:
  struct Pair {
    std::string_view term, label;
  };
  // Appends the number of each pair of `value` to `numbers`, in order.
  void number(std::string_view value, std::vector<std::uint32_t>& numbers);
  // The number of `pair`, a pair of another FacetPairs (numbered here
  // when new).
  std::uint32_t number(const Pair& pair);
  const std::vector<Pair>& pairs() const { return pairs_; }

 private:
  // `bytes`: a pair as a value holds it (its length byte, term, length
  // byte, label), with a term of `term_size` bytes.
  std::uint32_t number_bytes(std::string_view bytes, std::size_t term_size);

  BytesMap<std::uint32_t> index_;  // a pair's bytes -> its number
  std::vector<Pair> pairs_;                                 // by number
  std::vector<std::string> blocks_;  // the kept bytes; a block never grows past its capacity
};

// The kSlotFacets values of every document of one database revision, in
// memory: each distinct (term, label) pair once, and per docid (in its
// shard, distinct across `shards`) the numbers of its pairs; and the title
// of every feed, from the metadata of the first of `shards` that has it.
// The owner drops it when it opens the database again. The constructor
// throws Xapian errors.
class FacetTable {
 public:
  explicit FacetTable(const std::vector<Xapian::Database>& shards);

  const FacetPairs& pairs() const { return pairs_; }
  // Each pair's term's place among the distinct terms, in byte order.
  std::uint32_t term_rank(std::uint32_t pair) const { return term_ranks_[pair]; }
  // The distinct terms of the pairs, in byte order.
  const std::vector<std::string_view>& terms() const { return terms_; }
  // The facets (a bit per FacetKind) whose prefix the term of that rank
  // starts with: counting looks here instead of comparing strings.
  std::uint8_t term_facets(std::uint32_t rank) const { return term_facets_[rank]; }
  // The pair numbers of document `did` (its id in its shard): [begin, end); empty for a docid
  // the revision does not have.
  const std::uint32_t* begin(Xapian::docid did) const;
  const std::uint32_t* end(Xapian::docid did) const;
  // The feed's title from its metadata, else its id.
  const std::string& feed_title(const std::string& feed_id) const;

 private:
  FacetPairs pairs_;
  std::vector<std::uint32_t> term_ranks_;  // by pair number
  std::vector<std::string_view> terms_;    // into pairs_
  std::vector<std::uint8_t> term_facets_;  // by term rank
  std::map<std::string, std::string> feed_titles_;
  std::vector<std::uint32_t> offsets_;  // by docid: where its numbers start in ids_
  std::vector<std::uint32_t> ids_;
};

// One facet term and the number of matching documents that carry it, with
// its label as most of the matching posts wrote it, ties going to the first
// in byte order (empty when no matching post's value holds a label: feeds,
// months, long labels). Every way of counting (a FacetTable, the value
// streams, Xapian's ValueCountMatchSpy over remote shards) knows how many
// matches carry each label, so all of them label a category written
// "Debugging" and "debugging" alike. The views point into the FacetSpy that
// counted, or into its FacetTable.
struct TermCount {
  std::string_view term;
  Xapian::doccount n;
  std::string_view label;
};

class FacetSpy : public Xapian::MatchSpy {
 public:
  // These facets, in this order.
  explicit FacetSpy(const std::vector<FacetKind>& facets);

  void operator()(const Xapian::Document& doc, double weight) override;

  // Counts the facet terms of the documents seen; call once, after the
  // match. From `table` when given (the same revision as `shards`; terms()
  // then points into it), else from the value streams of `shards`: one
  // database, or local shards with interleaved ids (shards.h:
  // ShardSet::distinct_docids), the ids the spy was shown.
  void count(const std::vector<Xapian::Database>& shards, const FacetTable* table = nullptr);

  // Counts instead from what a Xapian::ValueCountMatchSpy on
  // schema::kSlotFacets counted over the matches: the way for remote
  // shards, where xapian-tcpsrv runs only Xapian's own match spies. The
  // counts and labels are count()'s (TermCount). Call once.
  void count_values(const Xapian::ValueCountMatchSpy& values);

  // Takes in what `other` (for the same facets) was shown: the match by
  // shard (shard_match.h) gives each thread a spy of its own. Call before
  // count().
  void add(const FacetSpy& other);

  // Counting shard by shard, each on a thread of its own: a spy shown the
  // matches of one shard alone (their ids in it) reads their values from
  // `shard` (tally), and one spy then takes in each such spy's counts
  // (absorb, which may take the counts of `tallied` over), before its
  // count(), which then reads nothing more.
  void tally(const Xapian::Database& shard);
  void absorb(FacetSpy&& tallied);

  // How many matches it was shown (and the spies it absorbed).
  Xapian::doccount seen() const { return static_cast<Xapian::doccount>(matched_.size()) + absorbed_; }

  // The terms of the i-th prefix that some match carries, in no order.
  const std::vector<TermCount>& terms(std::size_t i) const { return terms_[i]; }

 private:
  std::vector<std::string> prefixes_;  // of the facets, in order
  std::vector<std::uint8_t> bits_;     // facet_bit() of each
  std::vector<std::vector<TermCount>> terms_;
  std::vector<Xapian::docid> matched_;

  // The pairs of the values counted (what terms_ points into when counting
  // from the database), and how many matches carry each, by number.
  FacetPairs pairs_;
  std::vector<Xapian::doccount> pair_counts_;
  std::vector<std::uint32_t> numbers_;  // of one value's pairs
  Xapian::doccount absorbed_ = 0;       // matches seen by the spies absorbed
  bool tallied_ = false;                // pair_counts_ hold them: count() reads nothing
  // Adds the facet values of the matches (ids in `shards`, as count()) to
  // pair_counts_.
  void read_values(const std::vector<Xapian::Database>& shards);
  void add_value(std::string_view facet_value, Xapian::doccount n);
  void add_pairs();
  void count_from_table(const FacetTable& table);
};

// The weighting scheme of a pass that counts matches and ranks none: every
// match weighs 0, worked out from its wdf alone (no document length read,
// no BM25). Not Xapian::BoolWeight: with it, Xapian 1.4.22 reads a term
// that indexes every document of a shard from the list of document lengths
// under the term's name, and throws "Unexpected end of posting list" past
// that list's first chunk. Local databases only: xapian-tcpsrv does not
// know it.
class CountingWeight : public Xapian::Weight {
 public:
  CountingWeight() { need_stat(WDF); }
  CountingWeight* clone() const override { return new CountingWeight; }
  std::string name() const override { return "blogsearch::CountingWeight"; }
  void init(double) override {}
  double get_sumpart(Xapian::termcount, Xapian::termcount, Xapian::termcount) const override { return 0; }
  double get_maxpart() const override { return 0; }
  double get_sumextra(Xapian::termcount, Xapian::termcount) const override { return 0; }
  double get_maxextra() const override { return 0; }
};

// `query` restricted to about one document in `stride` (by a hash of its id
// in each shard, the same ones every time): a sample of the matches spread
// over the whole database, found at about the cost of the sample (the
// filter skips ahead in the query's posting lists). Local databases only: it
// is a posting source of blogsearch's own.
Xapian::Query sampled(const Xapian::Query& query, Xapian::docid stride);

// The stride that samples about `bound` of `matches` matches (at least 1).
unsigned sample_stride(std::uint64_t matches, Xapian::doccount bound);

// Xapian's estimate of a phrase's matches can be far below the truth
// (70,000 for 344,000 over a million posts), so a first sample takes its
// stride from the upper bound of the matches, which they cannot exceed.
// After it counted `sampled` matches at `stride`: the stride to count again
// at, when that sample is far below the bound and shows the matches to be
// far fewer than `upper`; else 0 (the sample will do). Matches are at least
// `lower`.
unsigned resample_stride(Xapian::doccount sampled, unsigned stride, Xapian::doccount lower, Xapian::doccount upper,
                         Xapian::doccount bound);

// The `limit` biggest values of one facet (months: the newest) from its
// terms (FacetSpy::terms), with the labels as the feeds wrote them: a
// term's own label, else the one in the first post that carries it. Feed
// titles come from `table` when given (the same revision as `db`), else
// from the metadata of the first of `shards` (the parts of `db`) that has it.
Facet make_facet(const Xapian::Database& db, const std::vector<Xapian::Database>& shards, FacetKind kind,
                 const std::vector<TermCount>& terms, unsigned limit,
                 const FacetTable* table = nullptr);

}  // namespace blogsearch
