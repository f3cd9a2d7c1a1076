// format_atom.cc: a search as an Atom 1.0 feed, so it can be subscribed to.
#include "indexer/schema.h"
#include "web/escape.h"
#include "web/format_web.h"
#include "web/page_out.h"

namespace blogsearch::web {

namespace {

// Atom ids must be IRIs and should never change for an entry. Post ids from
// feeds are often plain strings ("9000001", "post-42"), so those become a
// urn with a hash of the id; http(s), tag: and urn: ids are used as they are.
std::string entry_id(const PostRecord& p) {
  const std::string& id = p.id.empty() ? p.link : p.id;
  if (!safe_http_url(id).empty()) return id;
  if ((id.rfind("tag:", 0) == 0 || id.rfind("urn:", 0) == 0) &&
      id.find_first_of(" \t\r\n<>\"") == std::string::npos)
    return id;
  return "urn:blogsearch:post:" + schema::hex64(XXH3_64bits(id.data(), id.size()));
}

// An entry is updated when the post last changed: when its newest version
// was first seen (a feed's own updated date may move without a change, or
// stay put through one). Stored times are RFC 3339 already; records
// without last_change fall back to the feed's dates, then first_seen,
// which the writer always records.
std::string updated_of(const PostRecord& p) {
  if (!p.last_change.empty()) return p.last_change;
  if (!p.updated.empty()) return p.updated;
  if (!p.published.empty()) return p.published;
  if (!p.first_seen.empty()) return p.first_seen;
  return "1970-01-01T00:00:00Z";
}

std::string absolute(const PageContext& c, const WebQuery& w) {
  const std::string qs = to_query_string(w);
  return c.self_url + (qs.empty() ? "" : "?" + qs);
}

}  // namespace

void write_atom(std::string& page, const SearchResult& r, const PageContext& c) {
  PageOut out(page);
  WebQuery self = c.query, html = c.query;
  self.format = OutputFormat::kAtom;
  html.format = OutputFormat::kHtml;
  std::string feed_updated = "1970-01-01T00:00:00Z";
  for (const auto& hit : r.hits) feed_updated = std::max(feed_updated, updated_of(*hit.post));
  const std::string self_url = absolute(c, self);
  const std::string feed_id = c.self_url.empty()
                                  ? "urn:blogsearch:search:" + schema::hex64(XXH3_64bits(self_url.data(), self_url.size()))
                                  : self_url;
  const std::string title =
      c.query.q.empty() ? c.site_title + ": newest posts" : c.site_title + ": “" + c.query.q + "”";

  out << "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
      << "<feed xmlns=\"http://www.w3.org/2005/Atom\" "
         "xmlns:opensearch=\"http://a9.com/-/spec/opensearch/1.1/\">\n"
      << "<title type=\"text\">" << escape_markup(title) << "</title>\n"
      << "<id>" << escape_markup(feed_id) << "</id>\n"
      << "<updated>" << escape_markup(feed_updated) << "</updated>\n"
      << "<author><name>" << escape_markup(c.site_title) << "</name></author>\n"
      << "<generator>blogsearch</generator>\n";
  if (!c.self_url.empty())
    out << "<link rel=\"self\" type=\"application/atom+xml\" href=\"" << escape_markup(self_url) << "\"/>\n"
        << "<link rel=\"alternate\" type=\"text/html\" href=\"" << escape_markup(absolute(c, html)) << "\"/>\n";
  out << "<opensearch:totalResults>" << r.total.estimated << "</opensearch:totalResults>\n"
      << "<opensearch:startIndex>" << r.offset + 1 << "</opensearch:startIndex>\n"
      << "<opensearch:itemsPerPage>" << r.limit << "</opensearch:itemsPerPage>\n";
  if (!c.query.q.empty())
    out << "<opensearch:Query role=\"request\" searchTerms=\"" << escape_markup(c.query.q) << "\"/>\n";

  for (const auto& hit : r.hits) {
    const PostRecord& p = *hit.post;
    out << "<entry>\n<title type=\"text\">" << escape_markup(p.title.empty() ? "(untitled)" : p.title)
        << "</title>\n<id>" << escape_markup(entry_id(p)) << "</id>\n";
    if (const std::string link = safe_http_url(p.link); !link.empty())
      out << "<link rel=\"alternate\" type=\"text/html\" href=\"" << escape_markup(link) << "\"/>\n";
    // The archived copy, with its versions: the post page of this CGI.
    if (!c.self_url.empty() && !p.id.empty()) {
      WebQuery archived;
      archived.post = std::string(post_key(p));
      out << "<link rel=\"related\" type=\"text/html\" title=\"archived copy\" href=\""
          << escape_markup(absolute(c, archived)) << "\"/>\n";
    }
    if (!p.published.empty()) out << "<published>" << escape_markup(p.published) << "</published>\n";
    out << "<updated>" << escape_markup(updated_of(p)) << "</updated>\n";
    for (const auto& a : p.authors) out << "<author><name>" << escape_markup(a) << "</name></author>\n";
    for (const auto& cat : p.categories) out << "<category term=\"" << escape_markup(cat) << "\"/>\n";
    std::string summary;
    for (const auto& part : hit.snippet) summary += part.text;
    if (summary.empty()) summary = p.summary;
    if (!summary.empty()) out << "<summary type=\"text\">" << escape_markup(summary) << "</summary>\n";
    out << "</entry>\n";
  }
  out << "</feed>\n";
}

}  // namespace blogsearch::web
