// result.h: THE one result model of a blogsearch search.
//
// The searcher (searcher.h) fills these plain structs; every output (text,
// JSON, ids here; HTML and Atom in the CGI) renders them. Nothing in here is
// escaped for any output: strings hold plain UTF-8 text exactly as stored, and
// a snippet is a list of parts with the matched words marked, so each
// formatter escapes once, for its own output, and nothing is escaped twice.
//
// A hit's post is the stored post record (record/post_record.h), which
// also reads it.
#pragma once

#include <xapian.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "query/facet_kind.h"
#include "record/post_history.h"
#include "record/post_record.h"

namespace blogsearch {

// A piece of a snippet; `match` marks words that matched the query.
struct SnippetPart {
  std::string text;
  bool match = false;
};

struct Hit {
  unsigned rank = 0;  // 1-based over the whole result list (offset included)
  int percent = 0;    // Xapian's relevance percentage (100 for every match of a pure filter)
  double weight = 0;  // BM25 weight (plus the recency boost for "recent")
  // The post; never null in a result. Shared, not copied, with what a
  // long-running searcher keeps of it (doc_cache.h).
  std::shared_ptr<const PostRecord> post;
  std::vector<SnippetPart> snippet;  // empty when snippets were not asked for
  // The post's history (record/post_history.h), only when asked for
  // (SearchRequest::with_history); else null.
  std::shared_ptr<const PostHistory> history;
};

// How many documents match. Exact when lower == upper.
struct MatchCount {
  Xapian::doccount estimated = 0;
  Xapian::doccount lower = 0;
  Xapian::doccount upper = 0;
  bool exact() const { return lower == upper; }
};

struct FacetValue {
  std::string value;  // the filter value (lowercased label, feed id, YYYY-MM)
  std::string label;  // how to show it (label as written, feed title, ...)
  Xapian::doccount count = 0;
};

struct Facet {
  FacetKind kind = FacetKind::kCategory;
  std::vector<FacetValue> values;
};

// How the facet counts were made: over every match (exact), or, past
// SearchRequest::facet_bound matches, over the matches among one post in
// `stride` (a fixed hash sample), multiplied by `stride` (estimates).
struct FacetCounting {
  bool estimated = false;
  unsigned stride = 1;          // 1 when exact
  Xapian::doccount sampled = 0;  // matches counted
};

// A filter value that no post has (filter_check.h), with the closest
// values that exist, nearest first.
struct UnknownFilter {
  std::string field;  // "feed", "category" or "author"
  std::string value;  // as given
  std::vector<std::string> suggestions;
};

struct SearchResult {
  std::string query;         // the query text as given
  std::string parsed_query;  // Xapian's description of the parsed query
  std::string sort;          // "relevance", "date" or "recent"
  bool reverse = false;
  MatchCount total;
  FacetCounting facet_counting;
  unsigned offset = 0;
  unsigned limit = 0;
  std::vector<Hit> hits;
  std::vector<Facet> facets;  // in the order asked for
  std::string suggestion;     // "did you mean" query; "" when none
  // The match ran out of time (SearchBounds::time_limit_ms): the hits are
  // right, but counts and facets may cover only part of the matches.
  bool partial = false;
  // The query could not be parsed as written and uses no operator, so its
  // words were searched: why (the syntax error). "" when it was parsed.
  std::string searched_as_words;
  // No post has every word of a query of plain words: these posts have some
  // of them, those with more (and rarer) ones first (QueryOptions::any_word).
  bool any_word = false;
  std::vector<UnknownFilter> unknown_filters;  // filter values no post has
  double elapsed_ms = 0;
};

}  // namespace blogsearch
