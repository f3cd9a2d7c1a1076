// html_parts.h: the pieces that the search page (format_html.cc) and the
// post page (format_post.cc) share: head, form, notices, footer, and the
// small writers for counts, shortened text and links. Everything is
// escaped here as in format_web.h. Nothing throws except std::bad_alloc.
#pragma once

#include <string>
#include <string_view>

#include "record/post_record.h"
#include "web/escape.h"
#include "web/format_web.h"
#include "web/page_out.h"

namespace blogsearch::web {

// A count with thousands separators: `out << Count{12345}` writes "12,345".
struct Count {
  unsigned long long n;
};
PageOut& operator<<(PageOut& out, Count c);

// `text`, or its first `max` bytes (at a character boundary) and "…".
std::string shorten(const std::string& text, std::size_t max);

// Escaped{shorten(text, max)} without the copy.
struct ShortHtml {
  std::string_view text;
  std::size_t max;
};
PageOut& operator<<(PageOut& out, ShortHtml s);

// A same-page link to `w`, for an href (to_query_string's values need no
// escaping there, its separators do).
std::string href(const WebQuery& w);

// The link to a post's page, for an href: `out << PostLink{id, q}` writes
// "?post=ID" and, when `q` is not empty, "&amp;q=Q" (the search whose words
// the page marks).
struct PostLink {
  std::string_view id;
  std::string_view q;
};
PageOut& operator<<(PageOut& out, PostLink link);

// The day a post is dated by: published, else updated, else first seen.
std::string_view day_of(const PostRecord& p);

// <!DOCTYPE> to the opening <body>, with the style sheet, the Atom feed of
// the page's search and the OpenSearch description linked.
void write_head(PageOut& out, const PageContext& c, const std::string& title);
// The site header: the search form (holding the page's query) and the
// chips of its filters.
void write_form(PageOut& out, const PageContext& c, bool autofocus);
// What was cut or clamped in the request.
void write_notices(PageOut& out, const PageContext& c);
// The footer and the end of the page.
void write_footer(PageOut& out, const PageContext& c);

}  // namespace blogsearch::web
