// format_opensearch.cc: the OpenSearch 1.1 description that lets browsers
// add this search (the page links it with rel="search").
#include "web/escape.h"
#include "web/format_web.h"
#include "web/page_out.h"

namespace blogsearch::web {

void write_opensearch(std::string& page, const PageContext& c) {
  PageOut out(page);
  // Templates are absolute URLs with the parameters the CGI reads; a
  // template is XML attribute text, so "&" is written "&amp;".
  const std::string base = c.self_url.empty() ? "" : c.self_url;
  auto url = [&](const char* type, const char* format) {
    std::string t = base + "?q={searchTerms}&page={startPage?}";
    if (*format) t += std::string("&format=") + format;
    out << "<Url type=\"" << type << "\" method=\"get\" pageOffset=\"1\" template=\"" << escape_markup(t)
        << "\"/>\n";
  };
  out << "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
      << "<OpenSearchDescription xmlns=\"http://a9.com/-/spec/opensearch/1.1/\">\n"
      << "<ShortName>" << escape_markup(c.site_title.substr(0, 16)) << "</ShortName>\n"
      << "<Description>" << escape_markup("Search the posts of an archive of blog feeds") << "</Description>\n"
      << "<InputEncoding>UTF-8</InputEncoding>\n<OutputEncoding>UTF-8</OutputEncoding>\n"
      << "<Image height=\"16\" width=\"16\" type=\"image/svg+xml\">data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Ccircle cx='6.5' cy='6.5' r='4.5' fill='none' stroke='%232f6fdb' stroke-width='2'/%3E%3Cpath d='M10 10l4.5 4.5' stroke='%232f6fdb' stroke-width='2'/%3E%3C/svg%3E</Image>\n";
  url("text/html", "");
  url("application/atom+xml", "atom");
  url("application/json", "json");
  WebQuery self;
  self.format = OutputFormat::kOpenSearch;
  out << "<Url type=\"application/opensearchdescription+xml\" rel=\"self\" template=\""
      << escape_markup(base + "?" + to_query_string(self)) << "\"/>\n"
      << "<Query role=\"example\" searchTerms=\"pytorch\"/>\n"
      << "</OpenSearchDescription>\n";
}

}  // namespace blogsearch::web
