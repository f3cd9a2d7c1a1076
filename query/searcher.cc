#include "query/searcher.h"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <string_view>

#include <nlohmann/json.hpp>

#include "indexer/schema.h"
#include "query/snippet.h"

namespace blogsearch {

namespace {

// Below this many matches a query may be misspelt (see search_once).
constexpr Xapian::doccount kFewMatches = 20;

// A reindex that commits twice while we read makes Xapian throw
// DatabaseModifiedError; a few retries always get a consistent revision.
constexpr int kMaxRetries = 5;

// "recent": the boost a post gets halves every kHalfLifeDays of age,
// counted back from the newest post in the database (not from today, so an
// archive of last year's posts still ranks its newest first). The boost
// of the newest post is this share of the best BM25 weight.
constexpr double kHalfLifeDays = 90;
constexpr double kRecencyShare = 0.5;

std::string create_hint(const std::string& path) {
  return "create it with: blogsearch-index add --db " + path + " data/";
}

class RecencySource : public Xapian::ValuePostingSource {
 public:
  RecencySource(double max_boost, double reference)
      : Xapian::ValuePostingSource(schema::kSlotPublished),
        max_boost_(max_boost),
        reference_(reference) {}

  void init(const Xapian::Database& database) override {
    Xapian::ValuePostingSource::init(database);
    set_maxweight(max_boost_);
  }

  double get_weight() const override {
    double published = Xapian::sortable_unserialise(get_value());
    double age_days = std::max(0.0, reference_ - published) / 86400.0;
    return max_boost_ * std::exp2(-age_days / kHalfLifeDays);
  }

  RecencySource* clone() const override { return new RecencySource(max_boost_, reference_); }
  std::string name() const override { return "blogsearch::RecencySource"; }

 private:
  double max_boost_;
  double reference_;
};

const char* facet_prefix(const std::string& name) {
  if (name == "category") return schema::kCategory;
  if (name == "author") return schema::kAuthorExact;
  if (name == "feed") return schema::kFeed;
  if (name == "month") return schema::kMonth;
  return nullptr;
}

// Counts the exact-match terms (K, XAUTHOR, XFEED, M) of every matching
// document. A post can have several categories, authors and feeds, which
// one value slot could not hold, so for those the spy only records docids
// and counting happens afterwards in count(). Glass stores termlists
// zlib-compressed and a long post's is large, so when many documents match
// it is much cheaper to walk the (short) posting lists of the facet terms
// than to read every matching termlist; for a few matches each termlist is
// read once, for all prefixes together. While few posts match, months are
// counted from the date in kSlotPublished instead (the writer makes the M
// term from the same date): a value per match beats a posting list per month.
class TermFacetSpy : public Xapian::MatchSpy {
 public:
  explicit TermFacetSpy(std::vector<std::string> prefixes)
      : prefixes_(std::move(prefixes)), counts_(prefixes_.size()) {
    for (std::size_t i = 0; i < prefixes_.size(); ++i)
      if (prefixes_[i] == schema::kMonth) month_ = i;
  }

  void operator()(const Xapian::Document& doc, double) override { matched_.push_back(doc.get_docid()); }

  void count(const Xapian::Database& db) {
    if (prefixes_.empty() || matched_.empty()) return;
    const std::size_t n = matched_.size(), total = db.get_doccount();
    // A value per match costs less than a posting list per month while
    // under a quarter of the posts match.
    const bool months_by_values = month_ != kNone && n * 4 < total;
    if (months_by_values) count_months_by_values(db);
    auto skip = [&](std::size_t i) { return months_by_values && i == month_; };
    // A termlist costs far more than a posting (it is compressed and holds
    // every word of the post): only read them when very few documents match.
    if (n * 64 < total) count_by_termlists(db, skip);
    else count_by_postlists(db, skip);
  }

  const std::map<std::string, Xapian::doccount>& counts(std::size_t i) const { return counts_[i]; }

 private:
  void count_months_by_values(const Xapian::Database& db) {
    std::vector<Xapian::docid> sorted = matched_;
    std::sort(sorted.begin(), sorted.end());
    std::map<int, Xapian::doccount> by_month;  // year * 100 + month
    Xapian::ValueIterator v = db.valuestream_begin(schema::kSlotPublished);
    for (Xapian::docid did : sorted) {
      v.skip_to(did);
      if (v == db.valuestream_end(schema::kSlotPublished)) break;
      if (v.get_docid() != did) continue;
      const auto t = static_cast<std::time_t>(Xapian::sortable_unserialise(*v));
      std::tm tm{};
      if (gmtime_r(&t, &tm)) ++by_month[(tm.tm_year + 1900) * 100 + tm.tm_mon + 1];
    }
    for (const auto& [month, n] : by_month)
      if (month >= 100001 && month <= 999912) counts_[month_][schema::kMonth + std::to_string(month)] = n;
  }

  template <typename Skip>
  void count_by_termlists(const Xapian::Database& db, Skip skip) {
    std::vector<std::size_t> order(prefixes_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [this](auto a, auto b) { return prefixes_[a] < prefixes_[b]; });
    for (Xapian::docid did : matched_) {
      Xapian::TermIterator it = db.termlist_begin(did);
      for (std::size_t i : order) {
        if (skip(i)) continue;
        const std::string& prefix = prefixes_[i];
        it.skip_to(prefix);
        for (; it != db.termlist_end(did); ++it) {
          const std::string term = *it;
          if (term.compare(0, prefix.size(), prefix) != 0) break;
          ++counts_[i][term];
        }
        if (it == db.termlist_end(did)) break;
      }
    }
  }

  template <typename Skip>
  void count_by_postlists(const Xapian::Database& db, Skip skip) {
    const bool everything = matched_.size() == db.get_doccount();
    std::vector<char> is_match;
    if (!everything) {
      is_match.assign(db.get_lastdocid() + 1, 0);
      for (Xapian::docid did : matched_) is_match[did] = 1;
    }
    for (std::size_t i = 0; i < prefixes_.size(); ++i) {
      if (skip(i)) continue;
      const std::string& prefix = prefixes_[i];
      for (auto t = db.allterms_begin(prefix); t != db.allterms_end(prefix); ++t) {
        Xapian::doccount n = 0;
        if (everything) {
          n = t.get_termfreq();
        } else {
          const std::string term = *t;
          for (auto p = db.postlist_begin(term); p != db.postlist_end(term); ++p) n += is_match[*p];
        }
        if (n) counts_[i][*t] = n;
      }
    }
  }

  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<std::string> prefixes_;
  std::vector<std::map<std::string, Xapian::doccount>> counts_;
  std::vector<Xapian::docid> matched_;
  std::size_t month_ = kNone;  // index of the month facet
};

bool is_month_term(const std::string& term) {
  if (term.size() != 7 || term[0] != 'M') return false;
  return std::all_of(term.begin() + 1, term.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The label as a feed wrote it, from the first post carrying the term.
std::string label_from_post(const Xapian::Database& db, const std::string& term,
                            const std::string& prefix, bool authors) {
  Xapian::PostingIterator p = db.postlist_begin(term);
  if (p == db.postlist_end(term)) return "";
  PostRecord post = parse_post_record(db.get_document(*p).get_data(), *p);
  for (const auto& label : authors ? post.authors : post.categories)
    if (schema::exact_term(prefix, label) == term) return label;
  return "";
}

std::string feed_title(const Xapian::Database& db, const std::string& feed_id) {
  auto meta = nlohmann::json::parse(db.get_metadata(schema::kMetaFeedPrefix + feed_id), nullptr, false);
  if (meta.is_object()) {
    auto t = meta.find("title");
    if (t != meta.end() && t->is_string() && !t->get<std::string>().empty()) return t->get<std::string>();
  }
  return feed_id;
}

Facet make_facet(const Xapian::Database& db, const std::string& name, const std::string& prefix,
                 const std::map<std::string, Xapian::doccount>& counts, unsigned limit) {
  Facet facet{name, {}};
  std::vector<std::pair<std::string, Xapian::doccount>> items;
  for (const auto& [term, count] : counts)
    if (name != "month" || is_month_term(term)) items.emplace_back(term, count);
  if (name == "month") {
    std::sort(items.begin(), items.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  } else {
    std::stable_sort(items.begin(), items.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
  }
  if (items.size() > limit) items.resize(limit);
  for (const auto& [term, count] : items) {
    FacetValue v;
    v.count = count;
    v.value = term.substr(prefix.size());
    if (name == "month") {
      v.value = v.value.substr(0, 4) + "-" + v.value.substr(4);
      v.label = v.value;
    } else if (name == "feed") {
      v.label = feed_title(db, v.value);
    } else {
      v.label = label_from_post(db, term, prefix, name == "author");
      if (!v.label.empty()) v.value = schema::lowercase_utf8(v.label);
      else v.label = v.value;
    }
    facet.values.push_back(std::move(v));
  }
  return facet;
}

}  // namespace

std::optional<SortOrder> parse_sort_order(const std::string& name) {
  if (name == "relevance") return SortOrder::kRelevance;
  if (name == "date") return SortOrder::kDate;
  if (name == "recent") return SortOrder::kRecent;
  return std::nullopt;
}

const char* sort_order_name(SortOrder order) {
  switch (order) {
    case SortOrder::kDate: return "date";
    case SortOrder::kRecent: return "recent";
    case SortOrder::kRelevance: break;
  }
  return "relevance";
}

Searcher::Searcher(const std::string& path) : path_(path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw DatabaseUnavailable("no database at " + path + "; " + create_hint(path));
  try {
    db_ = Xapian::Database(path);
  } catch (const Xapian::Error& e) {
    throw DatabaseUnavailable("cannot open the database at " + path + ": " + e.get_msg() + "; " +
                              create_hint(path));
  }
  std::string version = db_.get_metadata(schema::kMetaSchemaVersion);
  if (!version.empty() && version != std::to_string(schema::kSchemaVersion))
    throw DatabaseUnavailable("the database at " + path + " has schema version " + version +
                              ", this blogsearch reads version " +
                              std::to_string(schema::kSchemaVersion) + "; rebuild it: remove it and " +
                              create_hint(path));
}

Searcher::~Searcher() = default;

void Searcher::reopen() {
  // Opening the path again (rather than Database::reopen) also follows the
  // XAPIANDB stub to a new generation after `blogsearch-index` rebuilt.
  try {
    db_ = Xapian::Database(path_);
  } catch (const Xapian::Error& e) {
    throw DatabaseUnavailable("cannot reopen the database at " + path_ + ": " + e.get_msg());
  }
}

SearchResult Searcher::search(const SearchRequest& request) {
  if (request.limit > kMaxLimit)
    throw QueryError("--limit " + std::to_string(request.limit) + " is too large (at most " +
                     std::to_string(kMaxLimit) + ")");
  if (request.reverse && request.sort != SortOrder::kDate)
    throw QueryError("--reverse only applies to --sort date");
  for (const auto& f : request.facets)
    if (!facet_prefix(f))
      throw QueryError("--facets: unknown facet '" + f + "' (use category, author, feed, month)");

  const auto start = std::chrono::steady_clock::now();
  for (int attempt = 0;; ++attempt) {
    try {
      SearchResult result = search_once(request);
      result.elapsed_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      return result;
    } catch (const Xapian::DatabaseModifiedError& e) {
      if (attempt >= kMaxRetries)
        throw std::runtime_error("the database at " + path_ + " kept changing during the search: " +
                                 e.get_msg());
      reopen();
    } catch (const Xapian::WildcardError& e) {
      // Xapian says "Wildcard PATTERN* expands to more than N terms".
      const std::string& msg = e.get_msg();
      std::string pattern;
      if (msg.compare(0, 9, "Wildcard ") == 0) pattern = msg.substr(9, msg.find(' ', 9) - 9);
      const std::string& text = request.query.text;
      std::size_t at = pattern.empty() ? std::string::npos : text.find(pattern);
      throw QueryError("'" + (pattern.empty() ? std::string("the wildcard") : pattern) +
                           "' matches more than " +
                           std::to_string(request.query.max_wildcard_expansion) +
                           " words; give more letters before the *",
                       text, at == std::string::npos ? 0 : at + 1, pattern.size());
    } catch (const Xapian::DatabaseError& e) {
      throw DatabaseUnavailable("cannot read the database at " + path_ + ": " + e.get_msg());
    } catch (const Xapian::Error& e) {
      throw std::runtime_error("search failed on " + path_ + ": " + e.get_type() + ": " + e.get_msg());
    }
  }
}

SearchResult Searcher::search_once(const SearchRequest& request) {
  SearchResult result;
  result.query = request.query.text;
  result.sort = sort_order_name(request.sort);
  result.reverse = request.reverse;
  result.offset = request.offset;
  result.limit = request.limit;

  // The "did you mean" correction is worked out after the search, and only
  // when it could be offered (see below): it costs more than the search.
  QueryOptions typed = request.query;
  typed.spelling = false;
  BuiltQuery built = build_query(db_, typed);

  std::vector<std::string> prefixes;
  for (const auto& f : request.facets) prefixes.push_back(facet_prefix(f));
  TermFacetSpy spy(prefixes);

  Xapian::Enquire enquire(db_);
  enquire.set_weighting_scheme(Xapian::BM25Weight());
  Xapian::Query query = built.query;
  switch (request.sort) {
    case SortOrder::kRelevance:
      // Ties (every match of a pure filter weighs 0) go newest first.
      enquire.set_sort_by_relevance_then_value(schema::kSlotPublished, true);
      break;
    case SortOrder::kDate:
      enquire.set_sort_by_value_then_relevance(schema::kSlotPublished, !request.reverse);
      break;
    case SortOrder::kRecent: {
      // The boost is scaled to this query's best weight so that it shifts
      // the order by a similar amount for rare and common words alike.
      enquire.set_query(query);
      Xapian::MSet best = enquire.get_mset(0, 1);
      double top = best.empty() ? 0 : best.begin().get_weight();
      double reference = Xapian::sortable_unserialise(db_.get_value_upper_bound(schema::kSlotPublished));
      auto* source = new RecencySource(top > 0 ? top * kRecencyShare : 1.0, reference);
      query = Xapian::Query(Xapian::Query::OP_AND_MAYBE, query, Xapian::Query(source->release()));
      enquire.set_sort_by_relevance_then_value(schema::kSlotPublished, true);
      break;
    }
  }
  enquire.set_query(query);
  result.parsed_query = query.get_description();
  if (!prefixes.empty()) enquire.add_matchspy(&spy);

  const Xapian::doccount check_at_least =
      (!prefixes.empty() || request.exact_count) ? db_.get_doccount() : 0;
  Xapian::MSet mset = enquire.get_mset(request.offset, request.limit, check_at_least);
  result.total.estimated = mset.get_matches_estimated();
  result.total.lower = mset.get_matches_lower_bound();
  result.total.upper = mset.get_matches_upper_bound();

  const Xapian::Stem stem(schema::kStemLanguage);
  const SnippetTerms snippet_words =
      request.snippets ? snippet_terms(built.query, request.query.text) : SnippetTerms();
  unsigned rank = request.offset;
  for (auto it = mset.begin(); it != mset.end(); ++it) {
    Hit hit;
    hit.rank = ++rank;
    hit.percent = it.get_percent();
    hit.weight = it.get_weight();
    hit.post = read_post_record(it.get_document(), request.snippets || request.with_text);
    if (request.snippets) {
      const std::string& text = hit.post.text.empty() ? hit.post.summary : hit.post.text;
      hit.snippet = make_snippet(text, snippet_words, request.snippet_length, stem);
    }
    result.hits.push_back(std::move(hit));
  }
  // Xapian proposes a correction for any word that has a more frequent
  // neighbour, even a correct one ("plugins" -> "plugin"). Offer it when
  // what was typed finds nothing, or a few posts (a typo that a few posts
  // share) and at most a tenth of what the correction finds. A query that
  // finds many posts is not looked at: Xapian's look-up costs more than the
  // whole search, and the correction could find at most every document.
  if (request.query.spelling && result.total.estimated < kFewMatches &&
      result.total.estimated <= db_.get_doccount() / 10)
    result.suggestion = build_query(db_, request.query).suggestion;
  if (!result.suggestion.empty()) {
    QueryOptions corrected = request.query;
    corrected.text = result.suggestion;
    corrected.spelling = false;
    Xapian::Enquire check(db_);
    check.set_query(build_query(db_, corrected).query);
    Xapian::MSet alt = check.get_mset(0, 0, 100);
    if (result.total.estimated > 0 && alt.get_matches_estimated() < 10 * result.total.estimated)
      result.suggestion.clear();
  }
  spy.count(db_);
  for (std::size_t i = 0; i < request.facets.size(); ++i)
    result.facets.push_back(
        make_facet(db_, request.facets[i], prefixes[i], spy.counts(i), request.facet_limit));
  return result;
}

std::optional<PostRecord> Searcher::find_post(const std::string& id_or_url) {
  for (int attempt = 0;; ++attempt) {
    try {
      return find_post_once(id_or_url);
    } catch (const Xapian::DatabaseModifiedError& e) {
      if (attempt >= kMaxRetries)
        throw std::runtime_error("the database at " + path_ + " kept changing: " + e.get_msg());
      reopen();
    } catch (const Xapian::Error& e) {
      throw DatabaseUnavailable("cannot read the database at " + path_ + ": " + e.get_msg());
    }
  }
}

std::optional<PostRecord> Searcher::find_post_once(const std::string& id_or_url) {
  const std::string id_term = schema::id_term(id_or_url);
  Xapian::PostingIterator p = db_.postlist_begin(id_term);
  if (p != db_.postlist_end(id_term)) return read_post_record(db_.get_document(*p), true);

  // No term holds the link, so look through the posts of its host (or all
  // posts when the host has none); a substring test skips most JSON parsing.
  auto matches = [&](Xapian::docid did) -> std::optional<PostRecord> {
    Xapian::Document doc = db_.get_document(did);
    if (doc.get_data().find(id_or_url) == std::string::npos) return std::nullopt;
    PostRecord post = read_post_record(doc, true);
    if (post.link == id_or_url) return post;
    return std::nullopt;
  };
  std::string host = id_or_url;
  if (auto scheme = host.find("://"); scheme != std::string::npos) {
    host.erase(0, scheme + 3);
    host.erase(std::min(host.find('/'), host.size()));
    const std::string term = schema::exact_term(schema::kHost, host);
    for (auto it = db_.postlist_begin(term); it != db_.postlist_end(term); ++it)
      if (auto post = matches(*it)) return post;
  }
  for (auto it = db_.postlist_begin(""); it != db_.postlist_end(""); ++it)
    if (auto post = matches(*it)) return post;
  return std::nullopt;
}

}  // namespace blogsearch
