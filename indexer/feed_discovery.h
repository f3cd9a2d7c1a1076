// feed_discovery.h: from a URL someone has (a blog's home page, or its
// feed) to the URL of a feed that parses, for `feeds add`.
//
// The URL is fetched (fetch.h: same timeouts, body cap and http/https rule
// as `fetch`). When the body parses as a feed, that is the feed. Otherwise
// it is read as HTML with libxml2's HTML parser (no network) and its
// <link rel="alternate"> elements of a feed type (RSS, Atom, RDF, JSON Feed)
// are tried in document order, their hrefs resolved against <base href> or
// the page's own URL; when none of them parses, the common paths /feed,
// /rss.xml, /atom.xml, /index.xml and /feed.json of the page's site are.
// The first candidate that parses as a feed wins. At most kMaxAlternates
// alternates are tried; each candidate is one request.
//
// discover_feed throws DiscoveryError, one line naming the URL and what
// each candidate answered, when no feed is found; std::runtime_error only
// when libcurl cannot be set up.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "indexer/feed_parser.h"
#include "indexer/fetch.h"

namespace blogsearch {

class DiscoveryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr std::size_t kMaxAlternates = 10;

struct DiscoveredFeed {
  std::string url;     // the feed's URL (after permanent redirects)
  std::string title;   // the feed's own title ("" when it has none)
  std::string format;  // "rss", "atom", ... as ParsedFeed::format
  std::size_t items = 0;
  bool from_page = false;               // found through an HTML page
  std::vector<std::string> alternates;  // every feed link the page named, resolved
  std::vector<std::string> rejected;    // "URL: why" for candidates that were not feeds
};

DiscoveredFeed discover_feed(const std::string& url, const FetchOptions& fetch, const ParseOptions& parse = {});

// The feed links of an HTML page (<link rel="alternate" type="...">), hrefs
// resolved against <base href> or `page_url`, in document order, without
// repeats. Exposed for tests. Never throws (except std::bad_alloc).
std::vector<std::string> feed_links_in_html(const std::string& html, const std::string& page_url);

}  // namespace blogsearch
