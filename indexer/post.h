// post.h: the in-memory model of one parsed feed and its posts.
//
// Produced by parse_feed() (feed_parser.h), consumed by the writer and by
// `blogsearch-index parse`. Plain data: no function here throws.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace blogsearch {

// Unix seconds, UTC.
using Time = std::int64_t;

struct Post {
  std::string id;      // guid / atom:id / rdf:about; "" when the feed has none
  std::string link;    // absolute URL (resolved against xml:base / feed link)
  // Without an id, and when the feed wrote the link relative: the link
  // resolved against the feed's site link rather than the document's URL,
  // the same from every feed URL of the blog (feed_batch.h: post_key).
  std::string id_link;
  std::string title;   // plain text
  std::vector<std::string> authors;
  std::vector<std::string> categories;
  // Atom category terms whose label (shown, in `categories`) differs: a
  // category filter matches them too, but they are not shown.
  std::vector<std::string> category_terms;
  std::optional<Time> published;
  std::optional<Time> updated;
  std::string summary;       // description/summary, as given (may be HTML)
  bool summary_is_html = true;
  std::string content;       // content:encoded / atom:content / description
  bool content_is_html = true;
  // The language the feed declares for it, as written ("de-DE"): the
  // entry's or feed's xml:lang, the RSS channel's <language>, the JSON
  // Feed's `language`; "" when none (the indexer then detects one).
  std::string language;
};

struct ParsedFeed {
  std::string file;    // the name used in messages
  std::string format;  // "rss2", "rss1", "atom10", "atom03"
  std::string title;   // plain text
  std::string link;    // the site's link (atom rel=alternate, rss link)
  std::vector<Post> posts;
  std::vector<std::string> warnings;  // one line each, naming file and line/item
  // False when the document ended before its root element closed (a body
  // cut short in transfer): its complete items are usable, but it is not a
  // snapshot of the whole feed, so nothing may be concluded from what it
  // lacks.
  bool complete = true;
  // Items past ParseOptions::max_items, not read (complete is then false:
  // the feed's later items are unknown, not gone).
  std::size_t items_skipped = 0;
};

}  // namespace blogsearch
