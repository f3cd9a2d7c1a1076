// format_web.h: rendering the result model (result.h) for the web: the HTML
// search page and its style sheet, the page of one archived post
// (format_post.cc), an Atom feed of a search, and the OpenSearch
// description.
//
// These are the CGI's formatters (its JSON is format.h's result_to_json, the
// same model as the CLI's). Every string from the model or the request is
// escaped through escape.h, once, for the context it is written into; links
// from feeds are only used when they are http(s) (safe_http_url). The page
// needs no JavaScript and one other resource, its style sheet, which the
// CGI serves too (format=css); the histogram is inline SVG. So the CSP
// allows styles from the CGI's own origin and forbids everything else.
// The writers append to `page`. None throws (except bad_alloc).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "query/post_page.h"
#include "query/result.h"
#include "web/cgi_request.h"

namespace blogsearch::web {

// The most bytes of an HTML page (format_html.cc keeps to it whatever the
// data, with a result model cut to output_caps.h's caps).
inline constexpr std::size_t kPageBudget = 200 * 1024;

// What a page knows besides the results.
struct PageContext {
  WebQuery query;                    // the decoded request, for the form and links
  std::vector<std::string> notices;  // what was cut or clamped
  // Absolute URL of the CGI ("https://host/cgi-bin/blogsearch.cgi"), for the
  // Atom feed and the OpenSearch document, which need absolute links.
  std::string self_url;
  std::string site_title = "Blog search";
};

// A search's results page: form, count, "did you mean", results, paging,
// facet sidebar and month histogram. `result` should carry the category,
// author, feed and month facets.
void write_html_results(std::string& page, const SearchResult& result, const PageContext& context);

// The start page for an empty query: what is indexed (counts, feeds, months)
// and the newest posts; `newest` is a search for every post, newest first,
// with the feed and month facets.
void write_html_start(std::string& page, const SearchResult& newest, const PageContext& context);

// The page of one archived post (post_page.h), reached by post=ID: its
// title, dates, authors, categories, feeds, first and last seen, whether a
// feed still carries it, its text (or, with version=N in the context's
// query, that version's title and text; with diff=A-B, the changes from
// version A to version B: title and text word by word, query/text_diff.h, with
// <del> and <ins>, other fields old and new), the versions timeline (each
// version linked to its text and to the changes from the one before) and
// related posts; the words of the search it came from (q) are marked in
// the text. The caller has checked that the versions exist.
void write_html_post(std::string& page, const PostPage& post, const PageContext& context);
// What post= names `post` by on its page's links: its id, else (an id
// longer than the 2,048 bytes post= takes) its link.
std::string_view post_key(const PostRecord& post);
// "Title – archived copy – Blog search".
std::string post_page_title(const PostPage& post, const PageContext& context);

// An error page with the form, so the query can be corrected. `message` is
// shown as given (escaped): it must not name files or paths.
struct PageError {
  int status = 400;           // 400, 404, 405, 500, 503
  std::string message;        // one sentence for the reader
  std::string query;          // the query text the error is about, "" if none
  std::size_t column = 0;     // 1-based byte column in `query`, 0 when unknown
  std::size_t length = 1;     // bytes the error covers
  bool about_post = false;    // a request for a post's page (the heading says so), also when `post` was unusable
};
void write_html_error(std::string& page, const PageError& error, const PageContext& context);

// The results as an Atom 1.0 feed (newest first when the search is sorted by
// date, which the CGI does for Atom).
void write_atom(std::string& page, const SearchResult& result, const PageContext& context);

// The page's style sheet (format=css), and a short hash of it that the
// page's link carries, so that a new version is fetched at once although
// browsers may keep the sheet a year.
std::string_view page_style();
const std::string& style_version();

// The OpenSearch 1.1 description document of this CGI.
void write_opensearch(std::string& page, const PageContext& context);

// "Blog search", or "“query” – Blog search": the page title.
std::string page_title(const PageContext& context);

}  // namespace blogsearch::web
