// filter_check.h: filter values (--feed, --category, --author) that match no
// post at all, with the closest values the database does hold, so that
// `--feed simon-willison` says "no feed 'simon-willison' (did you mean
// simonwillison?)" instead of answering 0 results in silence.
//
// unknown_filters() and unknown_query_fields() throw only Xapian errors (reading the term list) and
// std::bad_alloc. The cost is bounded: at most kMaxScannedTerms terms of
// each prefix are compared, and only for a value that matched nothing.
#pragma once

#include <xapian.h>

#include <cstddef>
#include <string>
#include <vector>

#include "query/query_builder.h"
#include "query/result.h"

namespace blogsearch {

inline constexpr std::size_t kMaxScannedTerms = 20000;
inline constexpr std::size_t kMaxSuggestions = 3;

// One entry per filter value with no posts, in the order given.
std::vector<UnknownFilter> unknown_filters(const Xapian::Database& db, const Filters& filters);

// The same for the query's own feed: and category: terms ("feed:jeff-geerling
// raspberry pi" finds nothing when the feed id is another): one entry per
// such term no post has, at most kMaxUnknownFields of them.
inline constexpr std::size_t kMaxUnknownFields = 5;
std::vector<UnknownFilter> unknown_query_fields(const Xapian::Database& db, const Xapian::Query& query);

// The one wording of it, for the CLI's stderr and the page's note:
// "no feed 'simon-willison' (closest: simonwillison, simon-w)". Plain text.
std::string unknown_filter_note(const UnknownFilter& unknown);

}  // namespace blogsearch
