// json_feed.cc: (being written)
#include "indexer/json_feed.h"

namespace blogsearch {

bool looks_like_json_feed(std::string_view bytes) {
  std::size_t i = bytes.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (i < bytes.size() && (bytes[i] == ' ' || bytes[i] == '\t' || bytes[i] == '\n' || bytes[i] == '\r')) ++i;
  return i < bytes.size() && bytes[i] == '{';
}

void parse_json_feed(std::string_view, const std::string& name, const ParseOptions&, ParsedFeed&) {
  throw FeedError(name + ": JSON Feed not supported yet");
}

}  // namespace blogsearch
