// facets.h: counting facet values (category, author, feed, month) over a
// search's whole match set, and turning the counts into the result model.
//
// A FacetSpy is added to the Enquire as a MatchSpy: it notes every matching
// document while Xapian matches, and count() then counts the exact-match
// terms (K, XAUTHOR, XFEED, M) of those documents. A post can have several
// categories, authors and feeds, which one value slot could not hold, so
// they are counted from terms. Glass stores termlists zlib-compressed and a
// long post's is large, so when many documents match it is much cheaper to
// walk the (short) posting lists of the facet terms than to read every
// matching termlist; for a few matches each termlist is read once, for all
// prefixes together. While few posts match, months are counted from the
// date in schema::kSlotPublished instead (the writer makes the M term from
// the same date): a value per match beats a posting list per month.
//
// Xapian errors (a database modified under the search) propagate; the
// searcher retries.
#pragma once

#include <xapian.h>

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "query/result.h"

namespace blogsearch {

// The term prefix of a facet name ("category", "author", "feed", "month");
// nullptr for any other name.
const char* facet_prefix(const std::string& name);

class FacetSpy : public Xapian::MatchSpy {
 public:
  // One facet per prefix, in this order.
  explicit FacetSpy(std::vector<std::string> prefixes);

  void operator()(const Xapian::Document& doc, double weight) override;

  // Counts the facet terms of the documents seen; call once, after the match.
  void count(const Xapian::Database& db);

  // Term -> number of matching documents, for the i-th prefix.
  const std::map<std::string, Xapian::doccount>& counts(std::size_t i) const { return counts_[i]; }

 private:
  using Skip = std::function<bool(std::size_t)>;
  void count_months_by_values(const Xapian::Database& db);
  void count_by_termlists(const Xapian::Database& db, const Skip& skip);
  void count_by_postlists(const Xapian::Database& db, const Skip& skip);

  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<std::string> prefixes_;
  std::vector<std::map<std::string, Xapian::doccount>> counts_;
  std::vector<Xapian::docid> matched_;
  std::size_t month_ = kNone;  // index of the month facet
};

// The `limit` biggest values of one facet (months: the newest), with the
// labels as the feeds wrote them.
Facet make_facet(const Xapian::Database& db, const std::string& name, const std::string& prefix,
                 const std::map<std::string, Xapian::doccount>& counts, unsigned limit);

}  // namespace blogsearch
