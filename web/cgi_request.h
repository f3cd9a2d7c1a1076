// cgi_request.h: what a web request asks for, decoded from CGI variables.
//
// The CGI reads its parameters from QUERY_STRING (GET and HEAD only):
//   q         query text (capped at RequestLimits::max_query_bytes, cut at a
//             character boundary)
//   page      1-based page number (bounded by max_page)
//   n         results per page (1 .. max_per_page)
//   sort      relevance | date | recent
//   since, until   YYYY, YYYY-MM, YYYY-MM-DD or 30d/6m/1y (as the CLI)
//   category, author, feed   filters, repeatable (at most max_values each,
//             max_filter_bytes in all)
//   format    html | json | atom | opensearch | css (the page's style sheet)
//   v         with format=css: the sheet's hash, as pages link it
//   history   1: JSON results carry each post's history (else they do not)
//   post      a post's id or link: the post's own page (q, when given, is
//             the search it was reached from, whose words are marked)
//   version   with post: that version's text (1 = the oldest)
//   diff      with post: "A-B", version A's text against version B's
// Unknown parameters are ignored; the first of a repeated single-valued
// parameter wins. Values are percent-decoded by uriparser ("+" is a space).
// A value of these parameters that is not valid UTF-8 or holds a control
// character (%00 to %1F but tab and line breaks, %7F to %9F) is an error:
// it cannot be what someone typed (the page's form sends UTF-8), and
// repairing it would search for something else than was sent.
//
// decode_query_string() never throws (but bad_alloc): numbers out of range
// are clamped with a notice; a value that cannot mean anything (a page that
// is not a number, an unknown sort or format) is reported in `error` and
// the caller answers 400. The database is never taken from the request.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "query/facet_kind.h"
#include "query/query_builder.h"
#include "query/searcher.h"

namespace blogsearch::web {

// The longest post parameter read: an id or a link.
inline constexpr std::size_t kMaxPostParameter = 2048;

enum class OutputFormat { kHtml, kJson, kAtom, kOpenSearch, kStyle };

// The parameters of a search page, decoded and within bounds. The HTML page
// re-encodes them (to_query_string) for its links.
struct WebQuery {
  std::string q;
  unsigned page = 1;
  unsigned n = 10;
  std::string sort = "relevance";
  std::string since, until;
  std::vector<std::string> categories, authors, feeds;
  OutputFormat format = OutputFormat::kHtml;
  bool history = false;
  std::string style_hash;  // v, with format=css; never in links
  // The post page: the post's id or link ("" for a search), and what of it.
  std::string post;
  unsigned version = 0;                  // 0: the current text
  unsigned diff_from = 0, diff_to = 0;   // 0: no diff

  // The values of the filter parameter of `kind` (facet_kind.h); null for
  // the month, which is since and until.
  std::vector<std::string>* filter(FacetKind kind);
  const std::vector<std::string>* filter(FacetKind kind) const;

  bool has_filters() const {
    return !categories.empty() || !authors.empty() || !feeds.empty() || !since.empty() ||
           !until.empty();
  }
  // Nothing asked: the start page.
  bool is_empty() const;
};

struct RequestLimits {
  std::size_t max_query_bytes = 1000;
  unsigned max_per_page = 100;
  unsigned max_page = 1000;
  std::size_t max_values = 20;  // per repeatable parameter
  // The filter values together: every link of a page repeats them.
  std::size_t max_filter_bytes = 1000;
  unsigned default_per_page = 10;
};

struct DecodedRequest {
  WebQuery query;
  std::vector<std::string> notices;  // what was cut or clamped, for the page
  std::string error;                 // why the request is unusable; "" when fine
  bool names_post = false;           // a post parameter came, usable or not
};

DecodedRequest decode_query_string(std::string_view query_string, const RequestLimits& limits = {});

// The query string that asks for `query` again: parameters at their default
// value are left out, so links stay short. No leading "?". The values are
// percent-encoded (only letters, digits, "-._~", "%" and "+" remain), so
// with `separator` "&amp;" the result can go into an HTML attribute as it is.
std::string to_query_string(const WebQuery& query, std::string_view separator = "&");

// The query strings of many refinements of one query (a page's facet
// links): the query string of `query` on its first page with one more
// value of a facet's filter (a value it has already changes nothing; a
// month sets since and until to it), with the parameters that all of them
// share encoded and joined once, on either side of where each facet's
// value goes. It refers to `query`, which must outlive it.
class Refinements {
 public:
  Refinements(const WebQuery& query, std::string_view separator);
  // Appends the query string of the refinement by `value` of `facet`.
  void append_query_string(std::string& out, FacetKind facet, const std::string& value) const;

 private:
  // The query string without its page (a refinement starts on page 1),
  // cut where a facet's value goes: the parameters before and after it.
  struct Cut {
    std::string before, after;
  };
  const WebQuery& query_;
  std::string separator_;
  Cut category_, author_, feed_;
  Cut month_;        // without since and until, which a month replaces
  std::string all_;  // every parameter: a value the filter has already changes nothing
};

// The library request for `query`: paging from page and n, filters from
// since/until (relative to `now`) and the repeatable parameters. A query
// with neither text nor filters asks for every post (newest first), which is
// what the start page and an empty Atom feed show. Throws QueryError for
// since/until values that are not dates.
SearchRequest to_search_request(const WebQuery& query, UnixTime now);

enum class Method { kGet, kHead, kOther };
Method parse_method(std::string_view request_method);

const char* format_name(OutputFormat format);

}  // namespace blogsearch::web
