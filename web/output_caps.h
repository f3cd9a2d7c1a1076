// output_caps.h: what one web answer may hold, whatever the data.
//
// Feeds are hostile input: one post's title was 1 MB, one index's start
// page 3.9 MB. Before any web output is written (HTML, JSON, Atom), the
// CGI cuts the result model to these caps: long strings at a character
// boundary with "…", long lists to their first entries, links too long
// for any browser dropped (the title is then shown without a link), facet
// values too long to be a filter parameter (RequestLimits) left out. With
// at most RequestLimits::max_per_page hits this bounds JSON and Atom; the
// HTML page has a byte budget on top (format_web.h: kPageBudget), as its
// links repeat the query. Nothing here throws except std::bad_alloc.
#pragma once

#include <cstddef>

#include "query/result.h"

namespace blogsearch::web {

struct OutputCaps {
  std::size_t title_bytes = 300;
  std::size_t name_bytes = 100;     // each author, category and feed title
  std::size_t names = 10;           // authors, categories, feeds, versions per post
  std::size_t summary_bytes = 600;
  std::size_t link_bytes = 2048;    // longer links are dropped
  std::size_t snippet_bytes = 1000; // the text of a snippet's parts together
  std::size_t facet_label_bytes = 100;
  std::size_t facet_value_bytes = 1000;
};

// Cuts `result` to `caps` in place. A post over a cap is copied first:
// the records a long-running searcher shares (doc_cache.h) stay whole.
void cap_result(SearchResult& result, const OutputCaps& caps = {});

}  // namespace blogsearch::web
