// feed_parser_fuzz.cc: libFuzzer target for parse_feed (bytes -> posts).
//
// The parser must turn any byte string into posts or one FeedError, within
// bounded time and memory, and every text it hands on must be safe to feed
// to the HTML-to-text stage that the writer runs next.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "indexer/feed_parser.h"
#include "indexer/html_text.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  blogsearch::ParseOptions options;
  // Small enough that truncation paths are reached by fuzzer-sized inputs.
  options.max_text_bytes = 4096;
  try {
    blogsearch::ParsedFeed feed = blogsearch::parse_feed(bytes, "fuzz.xml", options);
    for (const blogsearch::Post& post : feed.posts) {
      if (post.content_is_html) blogsearch::html_to_text(post.content);
      if (post.summary_is_html) blogsearch::html_to_text(post.summary);
    }
  } catch (const blogsearch::FeedError&) {
    // The documented failure for input that is not a feed.
  }
  return 0;
}
