// json_feed.h: JSON Feed 1.0 and 1.1 (jsonfeed.org) -> posts.
//
// Private to the indexer (used by parse_feed, feed_parser.h): a JSON Feed is
// a feed format like the XML ones, read into the same ParsedFeed.
//
// Fields: id (a number is read as its string; none leaves "" for the
// writer's fallback), url else external_url else an id that is a web
// address as the link, title (an HTML title's entities and tags read as
// for RSS titles), content_html (HTML) over content_text (plain)
// over summary as the content, summary (plain), date_published /
// date_modified, authors (1.1 `authors` over 1.0 `author`; name, else url;
// the feed's when the item names none; one person object where the list
// belongs is read too), tags as categories, the feed's title, and
// home_page_url as the feed's link (else the document's URL). Everything
// else (attachments, `_extension` objects) is ignored.
//
// Relative URLs: the base is ParseOptions::base_url (the document's own URL,
// RFC 3986's base) when absolute, else feed_url, else for items the
// resolved home_page_url.
//
// Bounds: memory is the posts plus one string whatever the document (read
// through a SAX handler; unwanted or deeply nested values are skipped, not
// stored); strings are cut at max_text_bytes on a character boundary, items
// past max_items are skipped, authors and categories stop at 256 per item,
// each with a warning. Bytes that are not UTF-8 are re-read as
// Windows-1252, with a warning. A field of the wrong type is ignored with a
// warning. A document that ends or breaks before its object closes keeps
// its complete items and clears ParsedFeed::complete.
#pragma once

#include <string>
#include <string_view>

#include "indexer/feed_parser.h"

namespace blogsearch {

// Whether the bytes are JSON rather than XML: the first character after an
// optional BOM and white space is '{'. Decided by content, not file name.
bool looks_like_json_feed(std::string_view bytes);

// Fills `feed` (format "json10" or "json11"). Throws FeedError naming the
// file when the bytes are not JSON or not a JSON Feed (no jsonfeed.org
// version); never lets a nlohmann exception out.
void parse_json_feed(std::string_view bytes, const std::string& name, const ParseOptions& options,
                     ParsedFeed& feed);

}  // namespace blogsearch
