// query_bounds.h: what one search may cost, checked before it runs.
//
// A query is bounded as a whole, whatever its text: its length in bytes,
// its number of words (the QueryParser's own time and memory grow with
// them), and the words all its wildcards expand to together (each
// expansion is a posting list the matcher opens: 333 wildcards of 1,000
// words each were 2-4 s and 230 MB). The searcher (searcher.h) calls these
// before it matches, and puts SearchBounds::time_limit_ms on the match.
//
// Each check throws QueryError (query_builder.h) with a message that says
// what to change, and (for a wildcard) the column of the wildcard at which
// the budget ran out.
#pragma once

#include <xapian.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace blogsearch {

struct SearchBounds {
  std::size_t max_query_bytes = 4096;
  unsigned max_words = 100;
  // After this long the matcher stops counting beyond the page (counts and
  // facets then cover only the documents seen: SearchResult::partial); 0
  // for no limit. Xapian's Enquire::set_time_limit.
  unsigned time_limit_ms = 50;
  // A match that reads at most this many postings (match_cost_bound) runs
  // without the limit; 0: every match has it. Xapian's timer makes glibc
  // start a thread in the process the first time: a one-shot process (the
  // CLI) pays that thread in every search (0.15 to 0.2 ms of 1.4), a
  // long-running one once. The CLI sets kUntimedPostings.
  std::uint64_t untimed_postings = 0;
};

// `the` over 10,000 generated posts (20,000 postings) with four facets
// counted takes 22 ms, process and all: well under time_limit_ms.
inline constexpr std::uint64_t kUntimedPostings = 20000;

// The words of `text` as the bound counts them: runs of letters, digits
// and non-ASCII characters but the operators AND, OR, NOT, XOR, NEAR and
// ADJ (an upper bound of the terms the QueryParser makes of them).
std::size_t count_query_words(const std::string& text);

// Throws QueryError when `text` is longer than bounds.max_query_bytes or
// has more than bounds.max_words words.
void check_query_size(const std::string& text, const SearchBounds& bounds);

// Throws QueryError when the wildcards of `query` (as parsed from `text`)
// expand to more than `max_terms` terms of `db` together. Reads at most
// max_terms + 1 terms of the database's term list.
void check_wildcard_total(const Xapian::Database& db, const Xapian::Query& query, const std::string& text,
                          Xapian::termcount max_terms);

// An upper bound of the postings a match of `query` over `db` reads, summed
// until it passes `cap` (the sum so far is then returned): each term's
// frequency, the words a wildcard expands to together, the terms of a
// phrase or NEAR kPositionsCost times (their positions are read too), and
// the whole database for a value range, a posting source, MatchAll or any
// other leaf (SearchBounds::untimed_postings). Never throws but Xapian's
// errors.
inline constexpr Xapian::doccount kPositionsCost = 10;
std::uint64_t match_cost_bound(const Xapian::Database& db, const Xapian::Query& query, std::uint64_t cap);

// Whether a match of `query` reads positions (a phrase or NEAR in it).
bool reads_positions(const Xapian::Query& query);

// Throws QueryError when `query` (as parsed from `text`) uses XOR and `db`
// has several shards: Xapian 1.4.22 crashes on it there (MultiXorPostList::
// recalc_maxweight, once every term of the XOR has ended in a shard that
// is not the last), so it is refused with the way to write it instead.
void check_shard_operators(const Xapian::Database& db, const Xapian::Query& query, const std::string& text);

}  // namespace blogsearch
