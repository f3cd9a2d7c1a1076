// result.h: THE one result model of a blogsearch search.
//
// The searcher (searcher.h) fills these plain structs; every output (text,
// JSON, ids here; HTML and Atom in the CGI) renders them. Nothing in here is
// escaped for any output: strings hold plain UTF-8 text exactly as stored, and
// a snippet is a list of parts with the matched words marked, so each
// formatter escapes once, for its own output, and nothing is escaped twice.
//
// read_post_record() and parse_post_record() throw only std::bad_alloc and
// (reading a document) Xapian errors: fields missing from the stored data,
// or of the wrong type, are left empty.
#pragma once

#include <xapian.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "query/facet_kind.h"

namespace blogsearch {

// An earlier version of a post, as recorded by the writer.
struct PostVersion {
  std::string content_hash;
  std::string first_seen;
  std::string last_seen;
  std::string snapshot;
};

// Every field of a post's stored record (schema.h: kSlotRecord). Times are
// RFC 3339 UTC strings as stored; "" when the feed did not give one.
struct PostRecord {
  Xapian::docid docid = 0;
  std::string id;
  std::string link;
  std::string title;
  std::vector<std::string> authors;
  std::vector<std::string> categories;
  std::string feed_id, feed_title, feed_url;  // the feed that last carried it
  std::vector<std::string> feeds;              // every feed that carried it
  std::string published;
  std::string updated;
  std::string first_seen;
  std::string last_seen;
  long versions = 0;
  bool in_feed = false;
  std::string summary;
  std::string text;  // plain text of the content (only when asked for)
  std::string content_hash;
  std::string snapshot;
  std::vector<PostVersion> history;  // oldest first
};

// Builds a record from a document: its JSON record and, `with_text`, its
// plain text, each from its value slot.
PostRecord read_post_record(const Xapian::Document& doc, bool with_text);
// Builds a record from the JSON record alone (no text).
PostRecord parse_post_record(std::string data, Xapian::docid docid);

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
  unsigned offset = 0;
  unsigned limit = 0;
  std::vector<Hit> hits;
  std::vector<Facet> facets;  // in the order asked for
  std::string suggestion;     // "did you mean" query; "" when none
  std::vector<UnknownFilter> unknown_filters;  // filter values no post has
  double elapsed_ms = 0;
};

}  // namespace blogsearch
