// query_fuzz.cc: libFuzzer target for query text -> Xapian::Query -> results.
//
// Runs the whole search path of the CLI and CGI (query_builder.h through
// Searcher, with the schema's prefixes, date ranges, spelling, wildcards,
// facets and snippets) against a small real database built once from data/.
// Input: the first line is the query text; each further line is one option,
// "category=…", "author=…", "feed=…", "since=…", "until=…", "sort=…",
// "facet=…", "offset=N". The only acceptable failure is QueryError (and a
// rejected option value); anything else escaping is a bug the fuzzer reports.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_database.h"
#include "query/query_builder.h"
#include "query/searcher.h"

namespace {

std::unique_ptr<blogsearch::Searcher> g_searcher;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::string db = blogsearch::fuzz::build_fuzz_database("query_fuzz", [] { g_searcher.reset(); });
  g_searcher = std::make_unique<blogsearch::Searcher>(db);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> lines = blogsearch::fuzz::split_lines(input);
  blogsearch::SearchRequest request;
  request.query.text = std::string(lines[0]);
  request.limit = 5;
  try {
    for (std::size_t i = 1; i < lines.size() && i < 16; ++i) {
      std::string_view line = lines[i];
      std::size_t eq = line.find('=');
      if (eq == std::string_view::npos) continue;
      std::string key(line.substr(0, eq));
      std::string value(line.substr(eq + 1));
      blogsearch::Filters& f = request.query.filters;
      if (key == "category") f.categories.push_back(value);
      else if (key == "author") f.authors.push_back(value);
      else if (key == "feed") f.feeds.push_back(value);
      else if (key == "since") f.since = blogsearch::parse_time_option("--since", value, false, 1790000000);
      else if (key == "until") f.until = blogsearch::parse_time_option("--until", value, true, 1790000000);
      else if (key == "sort") {
        if (auto order = blogsearch::parse_sort_order(value)) request.sort = *order;
      } else if (key == "facet") {
        if (auto kind = blogsearch::parse_facet_name(value)) request.facets.push_back(*kind);
      }
      else if (key == "reverse") request.reverse = true;
      else if (key == "offset" && value.size() < 4 && !value.empty() &&
               value.find_first_not_of("0123456789") == std::string::npos)
        request.offset = static_cast<unsigned>(std::stoul(value));
    }
    g_searcher->search(request);
  } catch (const blogsearch::QueryError&) {
    // The documented failure for bad queries and option values.
  }
  return 0;
}
