#include "query/facets.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <string_view>

#include "indexer/schema.h"
#include "query/value_streams.h"
#include "record/feed_meta.h"

namespace blogsearch {

namespace {

bool is_month_term(std::string_view term) {
  if (term.size() != 7 || term[0] != 'M') return false;
  return std::all_of(term.begin() + 1, term.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The label as a feed wrote it, from the first post carrying the term (for
// a label the facet value could not hold).
std::string label_from_post(const Xapian::Database& db, const std::string& term,
                            const std::string& prefix, bool authors) {
  Xapian::PostingIterator p = db.postlist_begin(term);
  if (p == db.postlist_end(term)) return "";
  PostRecord post = parse_post_record(db.get_document(*p).get_value(schema::kSlotRecord), *p);
  for (const auto& label : authors ? post.authors : post.categories)
    if (schema::exact_term(prefix, label) == term) return label;
  return "";
}

// A combined database reads metadata from its first shard only: the title
// comes from the first shard that has the feed's metadata.
std::string title_of_feed(const std::vector<Xapian::Database>& shards, const std::string& feed_id) {
  std::string json;
  for (const auto& shard : shards)
    if (json = shard.get_metadata(schema::kMetaFeedPrefix + feed_id); !json.empty()) break;
  const FeedMeta meta = decode_feed_meta(json, feed_id);
  if (!meta.title.empty()) return meta.title;
  return feed_id;
}

}  // namespace

namespace {

// Yields about one docid in `stride` of a shard, with no weight: those
// whose multiplicative hash (by 2^32 / the golden ratio, Knuth's) is in the
// lowest 1/stride of its range. Over consecutive docids that hash is a Weyl
// sequence: the docids it yields are spread evenly, about `stride` apart,
// and do not alias with anything periodic in the order posts were indexed
// in, or with the gaps between a shard's docids (schema.h), as every k-th
// docid would. Stepping through the docids costs a multiplication and a
// comparison each (with MurmurHash3's finaliser it cost twice as much: a
// quarter of a faceted search over a million posts). Xapian clones it for
// each shard and inits it with that shard.
class SampleSource : public Xapian::PostingSource {
 public:
  explicit SampleSource(Xapian::docid stride)
      : stride_(stride), below_(((std::uint64_t{1} << 32) + stride - 1) / std::max<Xapian::docid>(stride, 1)) {}
  void init(const Xapian::Database& db) override {
    last_ = db.get_lastdocid();
    did_ = 0;
    set_maxweight(0);
  }
  Xapian::doccount get_termfreq_min() const override { return 0; }
  Xapian::doccount get_termfreq_est() const override { return last_ / stride_; }
  Xapian::doccount get_termfreq_max() const override { return last_; }
  void next(double) override { advance(did_ + 1); }
  void skip_to(Xapian::docid did, double) override {
    if (did_ < did) advance(did);
  }
  bool at_end() const override { return did_ > last_; }
  Xapian::docid get_docid() const override { return did_; }
  SampleSource* clone() const override { return new SampleSource(stride_); }
  std::string name() const override { return "blogsearch::SampleSource"; }

 private:
  static std::uint32_t mix(std::uint32_t x) { return x * 0x9e3779b1u; }
  void advance(Xapian::docid from) {
    for (did_ = from; did_ <= last_ && mix(did_) >= below_; ++did_) {
    }
  }

  Xapian::docid stride_;
  std::uint64_t below_;  // 2^32 / stride, rounded up
  Xapian::docid last_ = 0;
  Xapian::docid did_ = 0;
};

}  // namespace

Xapian::Query sampled(const Xapian::Query& query, Xapian::docid stride) {
  return Xapian::Query(Xapian::Query::OP_FILTER, query, Xapian::Query((new SampleSource(stride))->release()));
}

unsigned sample_stride(std::uint64_t matches, Xapian::doccount bound) {
  if (bound == 0) return 1;
  return static_cast<unsigned>(std::max<std::uint64_t>(1, (matches + bound - 1) / bound));
}

unsigned resample_stride(Xapian::doccount sampled, unsigned stride, Xapian::doccount lower, Xapian::doccount upper,
                         Xapian::doccount bound) {
  const std::uint64_t matches = std::max<std::uint64_t>(std::uint64_t{sampled} * stride, lower);
  if (sampled >= bound / 4 || matches >= upper / 2) return 0;
  const unsigned again = sample_stride(matches, bound);
  return again < stride ? again : 0;
}

FacetSpy::FacetSpy(const std::vector<FacetKind>& facets) : terms_(facets.size()) {
  for (FacetKind f : facets) {
    prefixes_.emplace_back(facet_info(f).prefix);
    bits_.push_back(facet_bit(f));
  }
  matched_.reserve(256);  // most searches match fewer: no regrowing while Xapian matches
}

void FacetSpy::operator()(const Xapian::Document& doc, double) { matched_.push_back(doc.get_docid()); }

void FacetSpy::add(const FacetSpy& other) {
  matched_.insert(matched_.end(), other.matched_.begin(), other.matched_.end());
}

void FacetPairs::number(std::string_view value, std::vector<std::uint32_t>& numbers) {
  schema::for_each_facet_term(value, [&](std::string_view term, std::string_view label) {
    // The pair's bytes in the value: its length byte, term, length byte, label.
    numbers.push_back(
        number_bytes(std::string_view(term.data() - 1, label.data() + label.size() - (term.data() - 1)), term.size()));
  });
}

std::uint32_t FacetPairs::number(const Pair& pair) {
  // A kept pair's term and label lie in its bytes, as in the value.
  const char* bytes = pair.term.data() - 1;
  return number_bytes(std::string_view(bytes, pair.label.data() + pair.label.size() - bytes), pair.term.size());
}

std::uint32_t FacetPairs::number_bytes(std::string_view bytes, std::size_t term_size) {
  if (const auto found = index_.find(bytes); found != index_.end()) return found->second;
  if (blocks_.empty() || blocks_.back().capacity() - blocks_.back().size() < bytes.size()) {
    blocks_.emplace_back();
    blocks_.back().reserve(std::max<std::size_t>(std::size_t{64} << 10, bytes.size()));
  }
  std::string& block = blocks_.back();
  const std::size_t at = block.size();
  block.append(bytes);  // within its capacity: the block's bytes stay where they are
  const std::string_view kept = std::string_view(block).substr(at, bytes.size());
  const auto number = static_cast<std::uint32_t>(pairs_.size());
  index_.emplace(kept, number);
  pairs_.push_back({kept.substr(1, term_size), kept.substr(term_size + 2)});
  return number;
}

FacetTable::FacetTable(const std::vector<Xapian::Database>& shards) {
  const Xapian::docid last = last_docid(shards);
  offsets_.assign(last + 2, 0);
  Xapian::docid next = 1;  // offsets_ of docids without a value repeat the one before
  for_each_value(shards, schema::kSlotFacets, last, [&](Xapian::docid did, const std::string& value) {
    for (; next <= did; ++next) offsets_[next] = static_cast<std::uint32_t>(ids_.size());
    pairs_.number(value, ids_);
  });
  for (; next < offsets_.size(); ++next) offsets_[next] = static_cast<std::uint32_t>(ids_.size());
  ids_.shrink_to_fit();  // kept until the database changes: not the slack of its growth
  const auto& pairs = pairs_.pairs();
  std::vector<std::uint32_t> by_term(pairs.size());
  for (std::uint32_t p = 0; p < by_term.size(); ++p) by_term[p] = p;
  std::sort(by_term.begin(), by_term.end(),
            [&pairs](std::uint32_t a, std::uint32_t b) { return pairs[a].term < pairs[b].term; });
  term_ranks_.assign(pairs.size(), 0);
  for (std::uint32_t p : by_term) {
    if (terms_.empty() || terms_.back() != pairs[p].term) terms_.push_back(pairs[p].term);
    term_ranks_[p] = static_cast<std::uint32_t>(terms_.size() - 1);
  }
  term_facets_.assign(terms_.size(), 0);
  for (std::size_t t = 0; t < terms_.size(); ++t)
    for (const FacetInfo& f : kFacetTable)
      if (terms_[t].substr(0, std::strlen(f.prefix)) == f.prefix) term_facets_[t] |= facet_bit(f.kind);
  const std::string_view feed_prefix = schema::kFeed;
  for (std::string_view term : terms_)
    if (term.substr(0, feed_prefix.size()) == feed_prefix) {
      const std::string id(term.substr(feed_prefix.size()));
      feed_titles_.emplace(id, title_of_feed(shards, id));
    }
}

const std::string& FacetTable::feed_title(const std::string& feed_id) const {
  auto found = feed_titles_.find(feed_id);
  return found != feed_titles_.end() ? found->second : feed_id;
}

const std::uint32_t* FacetTable::begin(Xapian::docid did) const {
  return did + 1 < offsets_.size() ? ids_.data() + offsets_[did] : ids_.data();
}

const std::uint32_t* FacetTable::end(Xapian::docid did) const {
  return did + 1 < offsets_.size() ? ids_.data() + offsets_[did + 1] : ids_.data();
}

void FacetSpy::count(const std::vector<Xapian::Database>& shards, const FacetTable* table) {
  if (prefixes_.empty()) return;
  if (tallied_) {
    add_pairs();
    return;
  }
  if (matched_.empty()) return;
  if (table) {  // in any order
    count_from_table(*table);
    return;
  }
  read_values(shards);
  add_pairs();
}

void FacetSpy::tally(const Xapian::Database& shard) {
  if (prefixes_.empty() || matched_.empty()) return;
  read_values({shard});
}

void FacetSpy::absorb(FacetSpy&& tallied) {
  absorbed_ += tallied.seen();
  if (!tallied_ && pairs_.pairs().empty()) {
    // The first spy's pairs and counts are taken over, not numbered again:
    // the same numbering, for nothing.
    tallied_ = true;
    pairs_ = std::move(tallied.pairs_);
    pair_counts_ = std::move(tallied.pair_counts_);
    return;
  }
  tallied_ = true;
  const auto& pairs = tallied.pairs_.pairs();
  for (std::uint32_t p = 0; p < pairs.size(); ++p) {
    const std::uint32_t n = pairs_.number(pairs[p]);
    pair_counts_.resize(pairs_.pairs().size(), 0);
    pair_counts_[n] += tallied.pair_counts_[p];
  }
}

void FacetSpy::read_values(const std::vector<Xapian::Database>& shards) {
  // Xapian reports the matches of one shard after the other, each in docid
  // order: each shard's value stream can be read forwards as they come.
  const auto k = static_cast<unsigned>(shards.size());
  std::vector<Xapian::docid> last(k, 0);
  for (Xapian::docid did : matched_) {
    Xapian::docid& before = last[schema::shard_of_docid(did, k)];
    if (did < before) {
      std::sort(matched_.begin(), matched_.end());
      break;
    }
    before = did;
  }
  // Each (term, label) pair is counted in a hash table, and only the
  // distinct pairs are summed into terms (add_pairs): values are mostly
  // distinct (a post's month, feed, authors and categories), pairs not.
  // Each shard's own stream, read forwards: the ids are interleaved, so an
  // id names its shard, and most skips stay inside the chunk already read.
  std::vector<Xapian::ValueIterator> at, end;
  for (const auto& shard : shards) {
    at.push_back(shard.valuestream_begin(schema::kSlotFacets));
    end.push_back(shard.valuestream_end(schema::kSlotFacets));
  }
  for (Xapian::docid did : matched_) {
    const unsigned s = schema::shard_of_docid(did, k);
    if (at[s] == end[s]) continue;
    at[s].skip_to(did);
    if (at[s] != end[s] && at[s].get_docid() == did) add_value(*at[s], 1);
  }
}

void FacetSpy::count_values(const Xapian::ValueCountMatchSpy& values) {
  if (prefixes_.empty()) return;
  for (auto v = values.values_begin(); v != values.values_end(); ++v) add_value(*v, v.get_termfreq());
  add_pairs();
}

void FacetSpy::add_value(std::string_view value, Xapian::doccount n) {
  numbers_.clear();
  pairs_.number(value, numbers_);
  pair_counts_.resize(pairs_.pairs().size(), 0);  // new pairs are numbered from the end
  for (std::uint32_t p : numbers_) pair_counts_[p] += n;
}

void FacetSpy::add_pairs() {
  // Per term: the sum over its pairs (which differ in their labels), and
  // the label most matches carry, ties to the first in byte order
  // (TermCount).
  constexpr std::uint32_t kNone = ~std::uint32_t{0};
  struct Sum {
    std::string_view term;
    Xapian::doccount n = 0;
    std::uint32_t best = kNone;  // the pair whose label it shows
  };
  const auto& pairs = pairs_.pairs();
  std::vector<Sum> sums;
  BytesMap<std::uint32_t> by_term;
  by_term.reserve(pairs.size());
  for (std::uint32_t p = 0; p < pairs.size(); ++p) {
    const auto [at, added] = by_term.try_emplace(pairs[p].term, static_cast<std::uint32_t>(sums.size()));
    if (added) sums.push_back({pairs[p].term});
    Sum& sum = sums[at->second];
    const Xapian::doccount n = pair_counts_[p];
    sum.n += n;
    if (pairs[p].label.empty()) continue;
    const std::uint32_t best = sum.best;
    if (best == kNone || n > pair_counts_[best] || (n == pair_counts_[best] && pairs[p].label < pairs[best].label))
      sum.best = p;
  }
  for (const Sum& sum : sums)
    for (std::size_t i = 0; i < prefixes_.size(); ++i)
      if (sum.term.substr(0, prefixes_[i].size()) == prefixes_[i])
        terms_[i].push_back({sum.term, sum.n, sum.best == kNone ? std::string_view() : pairs[sum.best].label});
}

void FacetSpy::count_from_table(const FacetTable& table) {
  const auto& pairs = table.pairs().pairs();
  // Per pair: how many matches carry it; `seen` lists the pairs counted.
  std::vector<Xapian::doccount> n(pairs.size(), 0);
  std::vector<std::uint32_t> seen;
  for (Xapian::docid did : matched_)
    for (const std::uint32_t* p = table.begin(did); p != table.end(did); ++p)
      if (n[*p]++ == 0) seen.push_back(*p);
  // Per term (the pairs of one term differ in their labels): the sum, and
  // the pair whose label most matches carry, ties to the first label in
  // byte order (TermCount).
  constexpr std::uint32_t kNone = ~std::uint32_t{0};
  std::vector<Xapian::doccount> term_n(table.terms().size(), 0);
  std::vector<std::uint32_t> term_label(table.terms().size(), kNone);
  for (std::uint32_t p : seen) {
    const std::uint32_t t = table.term_rank(p);
    term_n[t] += n[p];
    if (pairs[p].label.empty()) continue;
    const std::uint32_t best = term_label[t];
    if (best == kNone || n[p] > n[best] || (n[p] == n[best] && pairs[p].label < pairs[best].label)) term_label[t] = p;
  }
  // In rank order, which is the terms' byte order: a pass over every term
  // of the table (as the vectors above are) costs less than sorting the
  // ranks of thousands of counted terms.
  for (std::uint32_t t = 0; t < term_n.size(); ++t) {
    if (term_n[t] == 0) continue;
    const std::string_view label = term_label[t] == kNone ? std::string_view() : pairs[term_label[t]].label;
    for (std::size_t i = 0; i < bits_.size(); ++i)
      if (table.term_facets(t) & bits_[i]) terms_[i].push_back({table.terms()[t], term_n[t], label});
  }
}

Facet make_facet(const Xapian::Database& db, const std::vector<Xapian::Database>& shards, FacetKind kind,
                 const std::vector<TermCount>& terms, unsigned limit, const FacetTable* table) {
  Facet facet{kind, {}};
  const std::string prefix = facet_info(kind).prefix;
  // Months: the newest first; the others: the biggest counts, ties in
  // byte order. Only the first `limit` are put in order.
  std::vector<const TermCount*> items;
  for (const auto& t : terms)
    if (kind != FacetKind::kMonth || is_month_term(t.term)) items.push_back(&t);
  const std::size_t kept = std::min<std::size_t>(limit, items.size());
  if (kind == FacetKind::kMonth) {
    std::partial_sort(items.begin(), items.begin() + kept, items.end(),
                      [](const TermCount* a, const TermCount* b) { return a->term > b->term; });
  } else {
    std::partial_sort(items.begin(), items.begin() + kept, items.end(), [](const TermCount* a, const TermCount* b) {
      return a->n != b->n ? a->n > b->n : a->term < b->term;
    });
  }
  items.resize(kept);
  facet.values.reserve(items.size());
  for (const TermCount* item : items) {
    const std::string term(item->term);
    FacetValue v;
    v.count = item->n;
    v.value = term.substr(prefix.size());
    if (kind == FacetKind::kMonth) {
      v.value = v.value.substr(0, 4) + "-" + v.value.substr(4);
      v.label = v.value;
    } else if (kind == FacetKind::kFeed) {
      v.label = table ? table->feed_title(v.value) : title_of_feed(shards, v.value);
    } else {
      v.label = !item->label.empty() ? std::string(item->label)
                                     : label_from_post(db, term, prefix, kind == FacetKind::kAuthor);
      if (!v.label.empty()) v.value = schema::lowercase_utf8(v.label);
      else v.label = v.value;
    }
    facet.values.push_back(std::move(v));
  }
  return facet;
}

}  // namespace blogsearch
