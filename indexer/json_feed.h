// json_feed.h: JSON Feed 1.0 and 1.1 (jsonfeed.org) -> posts.
//
// Private to the indexer (used by parse_feed, feed_parser.h): a JSON Feed is
// a feed format like the XML ones, read into the same ParsedFeed.
#pragma once

#include <string>
#include <string_view>

#include "indexer/feed_parser.h"

namespace blogsearch {

// Whether the bytes are JSON rather than XML: the first character after an
// optional BOM and white space is '{'. Decided by content, not file name.
bool looks_like_json_feed(std::string_view bytes);

// Fills `feed` (format "json10" or "json11"). Throws FeedError naming the
// file when the bytes are not JSON or not a JSON Feed.
void parse_json_feed(std::string_view bytes, const std::string& name, const ParseOptions& options,
                     ParsedFeed& feed);

}  // namespace blogsearch
