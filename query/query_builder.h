// query_builder.h: turning what the user typed into a Xapian::Query.
//
// The query language is Xapian's QueryParser set up from schema.h: stemming
// (of capitalised words too) in each language the database's posts are in,
// diacritics folded ("jurgen" finds "Jürgen"; words typed with them rank
// the posts that write them so first), AND by default, OR/NOT/XOR/NEAR/ADJ (upper case only, so a
// lowercase "or" stays a word), +term, -term, parentheses, "phrases", trailing
// wildcards, the prefixes of schema::kFieldPrefixes (free text title: and
// author:, exact and case-insensitive category:, feed:, site:, lang:) and dates
// (date:2026-09-01..2026-10-01, date:2026-09.., date:..2026, date:2026-09).
// Option filters (--category, --author, --feed, --since, --until) are added
// as boolean filters: values of one field are ORed, fields are ANDed.
//
// Every function here reports bad input by throwing QueryError, whose
// message says what is wrong and, for the query text, at which column.
#pragma once

#include <xapian.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace blogsearch {

class QueryError : public std::runtime_error {
 public:
  // `byte_column` is the 1-based byte offset of the error in `query`, 0 when
  // the error has no position (it is then about an option, named in
  // `detail`); `byte_length` the bytes it covers. column() and length()
  // report them in characters, as people count.
  QueryError(const std::string& detail, const std::string& query = "",
             std::size_t byte_column = 0, std::size_t byte_length = 1);
  const char* what() const noexcept override { return message_.c_str(); }
  const std::string& detail() const { return detail_; }
  const std::string& query() const { return query_; }
  std::size_t column() const { return column_; }
  std::size_t length() const { return length_; }

 private:
  std::string detail_;
  std::string query_;
  std::size_t column_;
  std::size_t length_;
  std::string message_;
};

// Unix seconds, UTC.
using UnixTime = std::int64_t;

struct Filters {
  std::vector<std::string> categories;  // exact labels, any case
  std::vector<std::string> authors;     // exact full names, any case
  std::vector<std::string> feeds;       // feed ids
  std::vector<std::string> posts;       // post ids (a pasted link: Searcher::search)
  std::optional<UnixTime> since;        // published at or after
  std::optional<UnixTime> until;        // published at or before
};

struct QueryOptions {
  std::string text;  // may be empty when filters are given
  Filters filters;
  // A wildcard matching more terms than this is an error, not a slow query.
  Xapian::termcount max_wildcard_expansion = 1000;
  bool spelling = true;  // compute a "did you mean" suggestion
  // Words joined by OR instead of AND: a post needs one of them, and BM25
  // ranks those with more (and rarer) ones first. The searcher's second
  // try for plain words that no post has all of.
  bool any_word = false;
};

struct BuiltQuery {
  Xapian::Query query;
  std::string suggestion;  // corrected query text; "" when none
  // Why the query was searched as plain words: Xapian could not parse it
  // ("Wait...what?") and it uses no operator, so its words were searched
  // instead of reporting an error. "" when it was parsed as written.
  std::string as_words;
  // `query` without what ranks title matches higher (the match set is the
  // same): what the recency boost of --sort recent is scaled to.
  Xapian::Query unboosted;
  // The languages (schema::kLanguages codes) the text was stemmed in: those
  // of the database's posts. Empty when there is no text.
  std::vector<std::string> languages;
  // Every time a date range of `query` starts or ends at (date:, --since,
  // --until), for describe_query.
  std::vector<UnixTime> dates;
  // The text is two or more words and nothing else: no operator, sign,
  // field, quotes or wildcard (what a second try with any_word may widen).
  bool plain_words = false;
};

// Xapian's description of `query` (the field parsed_query of a result),
// with the times in `dates` written as UTC ("2026-09-01T00:00:00Z") where
// Xapian writes the value's sortable bytes. Never throws (but bad_alloc).
std::string describe_query(const Xapian::Query& query, const std::vector<UnixTime>& dates);

// Parses and combines. A word's first letter is lowercased so that
// capitalised words are stemmed too; a query of negations only ("-python")
// matches every post without them. Throws QueryError for syntax errors in a
// query that uses operators or parentheses (others are searched as words,
// see BuiltQuery::as_words), bad dates and an empty query without filters. Wildcard limits are only checked when the
// query runs (Xapian::WildcardError; see searcher.h).
BuiltQuery build_query(const Xapian::Database& db, const QueryOptions& options);

// build_query for many queries on one database: Xapian's QueryParser with
// every field prefix and processor is set up at the first query and kept,
// which a long-running searcher (FastCGI) saves on every search. One
// thread at a time.
class QueryBuilder {
 public:
  explicit QueryBuilder(const Xapian::Database& db);
  ~QueryBuilder();
  QueryBuilder(const QueryBuilder&) = delete;
  QueryBuilder& operator=(const QueryBuilder&) = delete;

  BuiltQuery build(const QueryOptions& options);

 private:
  struct Parser;
  Xapian::Database db_;
  std::unique_ptr<Parser> parser_;
};

// A date as the start or the inclusive end of the period it names:
// "2026" (year), "2026-09" (month), "2026-09-02" (day), all UTC. With
// `end_of_period` the last second of the period is returned. Returns
// nullopt when `text` is not such a date (or not a real calendar date).
std::optional<UnixTime> parse_date(const std::string& text, bool end_of_period);

// An option value for --since / --until: a date as for parse_date, or a
// relative age "30d", "6m", "1y" counted back from `now`. Throws QueryError
// naming `option` when the value is neither.
UnixTime parse_time_option(const std::string& option, const std::string& value,
                           bool end_of_period, UnixTime now);

// Where a syntax error reported by Xapian's QueryParser most likely is: the
// first dangling operator, unbalanced parenthesis or unterminated quote.
// Returns a QueryError with a column (or column 0 when nothing was found).
QueryError locate_syntax_error(const std::string& query, const std::string& xapian_message);

}  // namespace blogsearch
