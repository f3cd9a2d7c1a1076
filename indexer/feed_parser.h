// feed_parser.h: RSS 0.9x/2.0, RSS 1.0 (RDF), Atom 1.0 and Atom 0.3 -> posts.
//
// Uses libxml2 with no network access, no DTD or external entity loading and
// bounded entity expansion. Encodings follow the WHATWG labels and RFC 7303
// (BOM, then ParseOptions::http_charset, then the XML declaration; see
// encoding.h); a feed declared UTF-8 that carries Windows-1252 bytes, or has
// no declaration, is recovered. Malformed XML is recovered where libxml2 can, with a warning
// naming the file and line in ParsedFeed::warnings.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include "indexer/post.h"

namespace blogsearch {

// Thrown when nothing usable can be read: not XML even after recovery, or
// XML that is not a feed. what() is one line naming the file.
class FeedError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ParseOptions {
  // Text nodes longer than this are truncated (with a warning).
  std::size_t max_text_bytes = 8u << 20;
  // Items past this many are skipped, with one warning naming the file, so
  // memory does not grow with the item count of a hostile feed.
  std::size_t max_items = 10000;
  // The document's own URL: headers.json's finalUrl, else the URL fetched,
  // else the feed's url in feeds.toml; "" when unknown. Relative links are
  // resolved against xml:base first, then this, then the feed's own link.
  std::string base_url;
  // The charset parameter of the HTTP Content-Type ("" when none was
  // recorded). Precedence (RFC 7303): BOM, then this, then the declaration.
  std::string http_charset;
  // When the snapshot was observed (unix seconds; 0 = unknown). A published
  // or updated date more than a day after it is replaced by it, with a
  // warning.
  Time observed = 0;
};

// `bytes` is the whole document; `name` is used in messages only.
// Throws FeedError; everything else recoverable becomes a warning.
ParsedFeed parse_feed(std::string_view bytes, const std::string& name,
                      const ParseOptions& options = {});

}  // namespace blogsearch
