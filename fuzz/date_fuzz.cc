// date_fuzz.cc: libFuzzer target for the feed date parser (indexer/date.h)
// and the query-side date reader (query/query_builder.h).
//
// A date the parser accepts must print as RFC 3339 and read back as the same
// instant: that is what `parse` output and the stored values rely on.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "indexer/date.h"
#include "query/query_builder.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto t = blogsearch::parse_date(text)) {
    std::string printed = blogsearch::format_rfc3339(*t);
    auto back = blogsearch::parse_date(printed);
    if (!back || *back != *t) std::abort();
  }
  std::string s(text);
  blogsearch::parse_date(s, false);
  blogsearch::parse_date(s, true);
  try {
    blogsearch::parse_time_option("--since", s, false, 1790000000);
  } catch (const blogsearch::QueryError&) {
    // The documented failure for a value that is neither a date nor an age.
  }
  return 0;
}
