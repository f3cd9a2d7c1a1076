// filter_check.cc: unknown filter values and their nearest neighbours.
#include "query/filter_check.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>

#include "common/fold.h"
#include "indexer/schema.h"

namespace blogsearch {

namespace {

// Letters and digits only, diacritics folded: "simon-willison", "Simon
// Willison" and "simonwillison" are one name to a reader, and so are
// "Jürgen Weiß" and "jurgen weiss".
std::string squeeze(const std::string& s) {
  std::string out;
  for (unsigned char c : fold::fold(schema::lowercase_utf8(s)))
    if (c >= 0x80 || std::isalnum(c)) out += static_cast<char>(c);
  return out;
}

// Levenshtein distance over bytes, one row at a time; values are short.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::vector<std::string> closest(const Xapian::Database& db, const char* prefix, const std::string& value) {
  const std::string want = squeeze(value);
  const std::size_t bound = std::max<std::size_t>(2, want.size() / 3);
  std::vector<std::pair<std::size_t, std::string>> near;
  std::size_t scanned = 0;
  const std::string p = prefix;
  for (auto it = db.allterms_begin(p); it != db.allterms_end(p) && scanned < kMaxScannedTerms; ++it, ++scanned) {
    const std::string candidate = (*it).substr(p.size());
    // A multi-letter prefix ("XFEED") shares its first letter with others.
    if (candidate.empty() || (std::isupper(static_cast<unsigned char>(candidate[0])))) continue;
    const std::string have = squeeze(candidate);
    std::size_t d = edit_distance(want, have);
    const bool contains = !want.empty() && !have.empty() &&
                          (have.find(want) != std::string::npos || want.find(have) != std::string::npos);
    if (contains) d = std::min<std::size_t>(d, 1);
    if (d <= bound) near.emplace_back(d, candidate);
  }
  std::sort(near.begin(), near.end());
  std::vector<std::string> out;
  for (std::size_t i = 0; i < near.size() && out.size() < kMaxSuggestions; ++i) out.push_back(near[i].second);
  return out;
}

void check(const Xapian::Database& db, const char* field, const char* prefix, const std::vector<std::string>& values,
           std::vector<UnknownFilter>& out) {
  for (const auto& v : values) {
    if (db.term_exists(schema::exact_term(prefix, v))) continue;
    out.push_back({field, v, closest(db, prefix, v)});
  }
}

}  // namespace

std::vector<UnknownFilter> unknown_filters(const Xapian::Database& db, const Filters& filters) {
  std::vector<UnknownFilter> out;
  check(db, "feed", schema::kFeed, filters.feeds, out);
  check(db, "category", schema::kCategory, filters.categories, out);
  check(db, "author", schema::kAuthorExact, filters.authors, out);
  return out;
}

std::vector<UnknownFilter> unknown_query_fields(const Xapian::Database& db, const Xapian::Query& query) {
  std::vector<UnknownFilter> out;
  const std::pair<const char*, const char*> fields[] = {{"feed", schema::kFeed}, {"category", schema::kCategory}};
  for (auto t = query.get_unique_terms_begin(); t != query.get_unique_terms_end(); ++t) {
    if (out.size() >= kMaxUnknownFields) break;
    const std::string term = *t;
    for (const auto& [field, prefix] : fields) {
      const std::size_t n = std::char_traits<char>::length(prefix);
      // A multi-letter prefix ("XFEED") shares its first letter with others.
      if (term.size() <= n || term.compare(0, n, prefix) != 0 || std::isupper(static_cast<unsigned char>(term[n])))
        continue;
      if (!db.term_exists(term)) out.push_back({field, term.substr(n), closest(db, prefix, term.substr(n))});
      break;
    }
  }
  return out;
}

std::string unknown_filter_note(const UnknownFilter& unknown) {
  std::string note = "no " + unknown.field + " '" + unknown.value + "' in the database";
  for (std::size_t i = 0; i < unknown.suggestions.size(); ++i)
    note += (i == 0 ? " (closest: " : ", ") + unknown.suggestions[i];
  if (!unknown.suggestions.empty()) note += ")";
  return note;
}

}  // namespace blogsearch
