// facet_kind.h: THE one table of the facets a search can count and a page
// can filter by, like notmuch's prefix_table.
//
// Each facet has a FacetKind, the name the CLI (--facets) and the JSON
// output use, the term prefix (schema.h) its values are indexed under, the
// URL parameter that filters by one of its values (month has none: a month
// link sets since and until), and the heading of its list on the page.
// Everything that names a facet goes through this table; nothing here
// throws.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "indexer/schema.h"

namespace blogsearch {

enum class FacetKind { kCategory, kAuthor, kFeed, kMonth };

struct FacetInfo {
  FacetKind kind;
  std::string_view name;       // "category": --facets, JSON, text output
  const char* prefix;          // schema.h term prefix of its values
  std::string_view parameter;  // the CGI's filter parameter; "" for none
  std::string_view heading;    // "Category": the page's list heading
};

inline constexpr std::array<FacetInfo, 4> kFacetTable = {{
    {FacetKind::kCategory, "category", schema::kCategory, "category", "Category"},
    {FacetKind::kAuthor, "author", schema::kAuthorExact, "author", "Author"},
    {FacetKind::kFeed, "feed", schema::kFeed, "feed", "Feed"},
    {FacetKind::kMonth, "month", schema::kMonth, "", "Month"},
}};

// The bit of `kind` in a set of facets (FacetTable::term_facets).
constexpr std::uint8_t facet_bit(FacetKind kind) {
  return static_cast<std::uint8_t>(1u << static_cast<unsigned>(kind));
}

// The row of `kind` (the table is in enum order).
constexpr const FacetInfo& facet_info(FacetKind kind) { return kFacetTable[static_cast<std::size_t>(kind)]; }
constexpr std::string_view facet_name(FacetKind kind) { return facet_info(kind).name; }

// The facet called `name`, nullopt for any other name.
constexpr std::optional<FacetKind> parse_facet_name(std::string_view name) {
  for (const FacetInfo& f : kFacetTable)
    if (f.name == name) return f.kind;
  return std::nullopt;
}

// "category, author, feed, month": for messages.
inline constexpr const char* kFacetNameList = "category, author, feed, month";

}  // namespace blogsearch
