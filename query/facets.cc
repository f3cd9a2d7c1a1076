#include "query/facets.h"

#include <algorithm>
#include <ctime>

#include <nlohmann/json.hpp>

#include "indexer/schema.h"

namespace blogsearch {

namespace {

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

}  // namespace

const char* facet_prefix(const std::string& name) {
  if (name == "category") return schema::kCategory;
  if (name == "author") return schema::kAuthorExact;
  if (name == "feed") return schema::kFeed;
  if (name == "month") return schema::kMonth;
  return nullptr;
}

FacetSpy::FacetSpy(std::vector<std::string> prefixes)
    : prefixes_(std::move(prefixes)), counts_(prefixes_.size()) {
  for (std::size_t i = 0; i < prefixes_.size(); ++i)
    if (prefixes_[i] == schema::kMonth) month_ = i;
}

void FacetSpy::operator()(const Xapian::Document& doc, double) { matched_.push_back(doc.get_docid()); }

void FacetSpy::count(const Xapian::Database& db) {
  if (prefixes_.empty() || matched_.empty()) return;
  const std::size_t n = matched_.size(), total = db.get_doccount();
  // A value per match costs less than a posting list per month while
  // under a quarter of the posts match.
  const bool months_by_values = month_ != kNone && n * 4 < total;
  if (months_by_values) count_months_by_values(db);
  const Skip skip = [&](std::size_t i) { return months_by_values && i == month_; };
  // A termlist costs far more than a posting (it is compressed and holds
  // every word of the post): only read them when very few documents match.
  if (n * 64 < total) count_by_termlists(db, skip);
  else count_by_postlists(db, skip);
}

void FacetSpy::count_months_by_values(const Xapian::Database& db) {
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

void FacetSpy::count_by_termlists(const Xapian::Database& db, const Skip& skip) {
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

void FacetSpy::count_by_postlists(const Xapian::Database& db, const Skip& skip) {
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

}  // namespace blogsearch
