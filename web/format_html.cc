// format_html.cc: the search page. Plain HTML and one style sheet
// (format_style.cc), no scripts: everything interactive is a link or the
// form, so it works in any browser and under a CSP that forbids scripts.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cmath>
#include <vector>

#include "query/filter_check.h"
#include "web/escape.h"
#include "common/utf8.h"
#include "query/format.h"
#include "web/format_web.h"
#include "web/html_parts.h"
#include "web/page_out.h"

namespace blogsearch::web {

namespace {


// Facet values listed in the sidebar (the searcher is asked for more, for
// the month histogram).
constexpr std::size_t kSidebarValues = 10;

// A page stays under kPageBudget whatever the data and the request
// (format_web.h). The strings in the model are capped (output_caps.h), but
// every link repeats the query and its filters, so the pieces a page has
// many of (filter chips, results, the sidebar's links and bars) stop once
// the page is this big; what follows them is small.
constexpr std::size_t kResultsBudget = 100 * 1024;
constexpr std::size_t kSidebarBudget = 170 * 1024;
constexpr unsigned kMaxPage = RequestLimits{}.max_page;

std::string_view cut(std::string_view text, std::size_t max) { return utf8::truncate(text, max); }

}  // namespace

PageOut& operator<<(PageOut& out, Count c) { return out << Thousands(c.n).view(); }

std::string shorten(const std::string& text, std::size_t max) {
  if (text.size() <= max) return text;
  return std::string(cut(text, max)) + "…";
}

PageOut& operator<<(PageOut& out, ShortHtml s) {
  const std::string_view shown = cut(s.text, s.max);
  out << Escaped{shown};
  if (shown.size() < s.text.size()) out << "…";
  return out;
}

std::string href(const WebQuery& w) { return "?" + to_query_string(w, "&amp;"); }

PageOut& operator<<(PageOut& out, PostLink l) {
  return out.piece([&l](std::string& s) {
    s += "?post=";
    append_url_component(s, l.id);
    if (!l.q.empty()) {
      s += "&amp;q=";
      append_url_component(s, l.q);
    }
  });
}

namespace {

// A same-page link to the page's search refined by one more value, for an
// href: `out << RefinedLink{links, facet, value}`.
struct RefinedLink {
  const Refinements& links;
  FacetKind facet;
  const std::string& value;
};
PageOut& operator<<(PageOut& out, const RefinedLink& l) {
  out << '?';
  return out.piece([&l](std::string& s) { l.links.append_query_string(s, l.facet, l.value); });
}

}  // namespace

std::string_view day_of(const PostRecord& p) {
  const std::string& t = !p.published.empty() ? p.published : !p.updated.empty() ? p.updated : p.first_seen;
  return std::string_view(t).substr(0, 10);
}

void write_head(PageOut& out, const PageContext& c, const std::string& title) {
  WebQuery atom = c.query;
  atom.format = OutputFormat::kAtom;
  atom.page = 1;
  atom.sort = "relevance";
  atom.post.clear();  // a post page's feed is the feed of its search
  atom.version = atom.diff_from = atom.diff_to = 0;
  WebQuery opensearch;
  opensearch.format = OutputFormat::kOpenSearch;
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<meta name=\"color-scheme\" content=\"light dark\">\n"
         "<meta name=\"referrer\" content=\"no-referrer\">\n"
      << "<title>" << Escaped{title} << "</title>\n"
      << "<link rel=\"icon\" href=\"data:,\">\n"
      << "<link rel=\"search\" type=\"application/opensearchdescription+xml\" title=\""
      << Escaped{c.site_title} << "\" href=\"" << href(opensearch) << "\">\n"
      << "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"Atom feed of this search\" href=\""
      << href(atom) << "\">\n"
      << "<link rel=\"stylesheet\" href=\"?format=css&amp;v=" << style_version() << "\">\n"
      << "</head>\n<body>\n"
      << "<a class=\"skip\" href=\"#main\">" << (c.query.post.empty() ? "Skip to results" : "Skip to the post")
      << "</a>\n";
}

void write_form(PageOut& out, const PageContext& c, bool autofocus) {
  const WebQuery& w = c.query;
  out << "<header class=\"site\"><div class=\"wrap\">\n"
      << "<a class=\"brand\" href=\"?\">" << Escaped{c.site_title} << "</a>\n"
      << "<form class=\"search\" role=\"search\" method=\"get\">\n"
      << "<label for=\"q\">Search the blog archive</label>\n<div class=\"row\">"
      << "<input type=\"search\" id=\"q\" name=\"q\" value=\"" << Escaped{w.q}
      << "\" maxlength=\"" << RequestLimits{}.max_query_bytes
      << "\" autocomplete=\"off\" spellcheck=\"false\"" << (autofocus ? " autofocus" : "") << ">"
      << "<button type=\"submit\">Search</button></div>\n";
  // Filters chosen from the sidebar stay in force when the words change;
  // the chips below remove them one by one.
  for (const FacetInfo& f : kFacetTable)
    if (const auto* values = w.filter(f.kind))
      for (const auto& v : *values)
        out << "<input type=\"hidden\" name=\"" << f.parameter << "\" value=\"" << Escaped{v} << "\">\n";
  out << "<details class=\"options\"" << (w.sort != "relevance" || !w.since.empty() || !w.until.empty() || w.n != 10 ? " open" : "")
      << "><summary>Options</summary><div class=\"opts\">\n"
      << "<label>Sort<select name=\"sort\">";
  const std::pair<const char*, const char*> sorts[] = {
      {"relevance", "Best match"}, {"date", "Newest first"}, {"recent", "Best match, recent first"}};
  for (const auto& [value, label] : sorts)
    out << "<option value=\"" << value << "\"" << (w.sort == value ? " selected" : "") << ">" << label
        << "</option>";
  out << "</select></label>\n"
      << "<label>Since<input name=\"since\" value=\"" << Escaped{w.since}
      << "\" placeholder=\"2026-01 or 6m\"></label>\n"
      << "<label>Until<input name=\"until\" value=\"" << Escaped{w.until}
      << "\" placeholder=\"2026-12-31\"></label>\n"
      << "<label>Per page<select name=\"n\">";
  bool listed = false;
  for (unsigned n : {10u, 20u, 50u, 100u}) {
    listed = listed || n == w.n;
    out << "<option" << (n == w.n ? " selected" : "") << ">" << n << "</option>";
  }
  if (!listed) out << "<option selected>" << w.n << "</option>";
  out << "</select></label>\n</div></details>\n</form>\n";

  // Active filters, each a link that removes it.
  std::vector<std::pair<std::string, WebQuery>> chips;
  for (const FacetInfo& f : kFacetTable) {
    const auto* values = w.filter(f.kind);
    for (std::size_t i = 0; values && i < values->size(); ++i) {
      WebQuery without = w;
      without.filter(f.kind)->erase(without.filter(f.kind)->begin() + static_cast<long>(i));
      without.page = 1;
      chips.emplace_back(std::string(f.name) + ": " + (*values)[i], without);
    }
  }
  if (!w.since.empty() || !w.until.empty()) {
    WebQuery without = w;
    without.since.clear();
    without.until.clear();
    without.page = 1;
    std::string label = w.since == w.until ? "month: " + w.since
                                           : "date: " + (w.since.empty() ? "…" : w.since) + " to " +
                                                 (w.until.empty() ? "…" : w.until);
    chips.emplace_back(label, without);
  }
  if (!chips.empty()) {
    out << "<ul class=\"filters\" aria-label=\"Active filters\">";
    for (const auto& [label, without] : chips)
      if (out.size() < kResultsBudget / 2)
        out << "<li><a href=\"" << href(without) << "\" title=\"Remove this filter\">" << Escaped{label}
          << " <span aria-hidden=\"true\">×</span><span class=\"skip\"> (remove)</span></a></li>";
    out << "</ul>\n";
  }
  out << "</div></header>\n";
}

void write_notices(PageOut& out, const PageContext& c) {
  for (const auto& n : c.notices) out << "<p class=\"notice\" role=\"status\">" << Escaped{n} << "</p>\n";
}

namespace {

void write_snippet(PageOut& out, const Hit& hit) {
  out << "<p class=\"snippet\">";
  // Without matched words (the start page, a filter-only search) the
  // snippet is an arbitrary stretch of text; the post's summary reads better.
  const bool matched = std::any_of(hit.snippet.begin(), hit.snippet.end(),
                                   [](const SnippetPart& p) { return p.match; });
  if (hit.snippet.empty() || (!matched && !hit.post->summary.empty())) {
    out << ShortHtml{hit.post->summary, 300};
  } else {
    for (const auto& part : hit.snippet) {
      if (part.match) out << "<mark>" << Escaped{part.text} << "</mark>";
      else out << Escaped{part.text};
    }
  }
  out << "</p>\n";
}

// `q`: the search's words, which the post page marks.
void write_hit(PageOut& out, const Hit& hit, const Refinements& links, const std::string& q) {
  const PostRecord& p = *hit.post;
  const std::string link = safe_http_url(p.link);
  const std::string_view title = p.title.empty() ? std::string_view("(untitled)") : p.title;
  out << "<li class=\"hit\"><article>\n<h2>";
  if (!link.empty()) out << "<a href=\"" << Escaped{link} << "\">" << Escaped{title} << "</a>";
  else out << Escaped{title};
  out << "</h2>\n<p class=\"meta\">";
  bool first = true;
  auto sep = [&out, &first]() {
    if (!first) out << " · ";
    first = false;
  };
  if (const std::string_view day = day_of(p); !day.empty()) {
    sep();
    out << "<time datetime=\"" << Escaped{day} << "\">" << Escaped{day} << "</time>";
  }
  if (!p.authors.empty()) {
    sep();
    out << "by ";
    for (std::size_t i = 0; i < p.authors.size(); ++i)
      out << (i ? ", " : "") << Escaped{p.authors[i]};
  }
  if (!p.categories.empty()) {
    sep();
    for (std::size_t i = 0; i < p.categories.size() && i < 6; ++i)
      out << (i ? ", " : "") << "<a href=\"" << RefinedLink{links, FacetKind::kCategory, p.categories[i]} << "\">"
          << Escaped{p.categories[i]} << "</a>";
    if (p.categories.size() > 6) out << ", …";
  }
  if (!p.feed_id.empty()) {
    sep();
    out << "<a href=\"" << RefinedLink{links, FacetKind::kFeed, p.feed_id} << "\">"
        << Escaped{p.feed_title.empty() ? p.feed_id : p.feed_title} << "</a>";
  }
  out << "</p>\n";
  write_snippet(out, hit);
  out << "<p class=\"url\">";
  if (!link.empty()) out << ShortHtml{link, 100} << " · ";
  out << "<a href=\"" << PostLink{post_key(p), q} << "\">archived copy</a></p>\n";
  out << "</article></li>\n";
}

// The last page that has results (0 when none has), at most kMaxPage.
unsigned last_page(const SearchResult& r, const WebQuery& w) {
  return static_cast<unsigned>(std::min<unsigned long long>((r.total.estimated + w.n - 1) / w.n, kMaxPage));
}

void write_pages(PageOut& out, const SearchResult& r, const WebQuery& w) {
  const unsigned last = last_page(r, w);
  if (last <= 1 && w.page <= 1) return;
  if (last == 0) return;  // no page has results: nowhere to go
  auto page_link = [&](unsigned page, const std::string& label, const char* rel) {
    WebQuery to = w;
    to.page = page;
    out << "<li><a href=\"" << href(to) << "\"" << (rel ? std::string(" rel=\"") + rel + "\"" : "");
    if (page == w.page) out << " aria-current=\"page\"";
    out << ">" << label << "</a></li>";
  };
  out << "<nav class=\"pages\" aria-label=\"Result pages\"><ul>";
  if (w.page > last) {
    // Past the end the page before is as empty: the way back is the last
    // page with results.
    page_link(last, "← Last page (" + std::to_string(last) + ")", "prev");
    out << "</ul></nav>\n";
    return;
  }
  if (w.page > 1) page_link(w.page - 1, "← Previous", "prev");
  const unsigned from = w.page > 3 ? w.page - 2 : 1;
  const unsigned to = std::min(last, from + 4);
  if (from > 1) {
    page_link(1, "1", nullptr);
    if (from > 2) out << "<li><span aria-hidden=\"true\">…</span></li>";
  }
  for (unsigned p = from; p <= to; ++p) page_link(p, std::to_string(p), nullptr);
  if (to < last) {
    if (to + 1 < last) out << "<li><span aria-hidden=\"true\">…</span></li>";
    page_link(last, std::to_string(last), nullptr);
  }
  if (w.page < last) page_link(w.page + 1, "Next →", "next");
  out << "</ul></nav>\n";
}

const Facet* find_facet(const SearchResult& r, FacetKind kind) {
  for (const auto& f : r.facets)
    if (f.kind == kind) return &f;
  return nullptr;
}

// -1 unless `yyyy_mm` is exactly that: four digits, "-", a month 01-12.
int month_index(const std::string& yyyy_mm) {
  if (yyyy_mm.size() != 7 || yyyy_mm[4] != '-') return -1;
  int d[7];
  for (int i = 0; i < 7; ++i) {
    if (i == 4) continue;
    if (yyyy_mm[i] < '0' || yyyy_mm[i] > '9') return -1;
    d[i] = yyyy_mm[i] - '0';
  }
  const int year = d[0] * 1000 + d[1] * 100 + d[2] * 10 + d[3];
  const int month = d[5] * 10 + d[6];
  return month >= 1 && month <= 12 ? year * 12 + month - 1 : -1;
}

// "YYYY-MM", as month_index() reads it.
std::string month_name(int index) {
  if (index < 0 || index >= 10000 * 12) {  // not a four-digit year
    char buf[32];
    std::snprintf(buf, sizeof buf, "%04d-%02d", index / 12, index % 12 + 1);
    return buf;
  }
  const int year = index / 12, month = index % 12 + 1;
  return {static_cast<char>('0' + year / 1000 % 10), static_cast<char>('0' + year / 100 % 10),
          static_cast<char>('0' + year / 10 % 10),   static_cast<char>('0' + year % 10),
          '-', static_cast<char>('0' + month / 10),   static_cast<char>('0' + month % 10)};
}

// Matches per month, oldest left, with empty months as gaps; each bar links
// to the search narrowed to its month.
void write_histogram(PageOut& out, const Facet& months, const Refinements& links, const char* heading) {
  struct Bar {
    int month;
    const FacetValue* value;
  };
  std::vector<Bar> bars;
  bars.reserve(months.values.size());
  Xapian::doccount top = 0;
  for (const auto& v : months.values) {
    const int m = month_index(v.value);
    if (m < 0) continue;
    bars.push_back({m, &v});
    top = std::max(top, v.count);
  }
  if (bars.empty() || top == 0) return;
  std::sort(bars.begin(), bars.end(), [](const Bar& a, const Bar& b) { return a.month < b.month; });
  const int last = bars.back().month;
  // At least a year wide, so a few months do not become a few fat bars.
  const int first = std::min(bars.front().month, last - 11);
  const int columns = last - first + 1;
  constexpr int kBar = 10, kGap = 2, kHeight = 60;
  const int width = columns * (kBar + kGap);
  const std::string first_name = month_name(first), last_name = month_name(last);
  out << "<section aria-labelledby=\"h-hist\"><h2 id=\"h-hist\">" << heading << "</h2>\n"
      << "<svg class=\"hist\" viewBox=\"0 0 " << width << " " << kHeight + 1
      << "\" preserveAspectRatio=\"none\" role=\"group\" aria-label=\"Matches per month, "
      << Escaped{first_name} << " to " << Escaped{last_name} << "\">";
  out << "<line x1=\"0\" y1=\"" << kHeight << ".5\" x2=\"" << width << "\" y2=\"" << kHeight << ".5\"/>";
  for (const Bar& bar : bars) {
    if (out.size() > kSidebarBudget) break;
    const FacetValue& v = *bar.value;
    const int h = std::max(2, static_cast<int>(static_cast<double>(v.count) * kHeight / top + 0.5));
    const int x = (bar.month - first) * (kBar + kGap);
    // The value is "YYYY-MM" (month_index checked), so each month has one
    // bar, and the label (digits, "-" and words) needs no escaping.
    auto label = [&out, &v] { out << v.value << ": " << Count{v.count} << (v.count == 1 ? " post" : " posts"); };
    out << "<a href=\"" << RefinedLink{links, FacetKind::kMonth, v.value} << "\" aria-label=\"";
    label();
    out << "\"><rect x=\"" << x << "\" y=\"" << kHeight - h << "\" width=\"" << kBar << "\" height=\"" << h
        << "\"><title>";
    label();
    out << "</title></rect></a>";
  }
  out << "</svg>\n<div class=\"hist-axis\" aria-hidden=\"true\"><span>" << first_name << "</span><span>"
      << last_name << "</span></div></section>\n";
}

void write_facet_list(PageOut& out, const Facet& facet, const Refinements& links, std::string_view heading,
                      std::size_t max_values = kSidebarValues) {
  if (facet.values.empty()) return;
  const std::string_view name = facet_name(facet.kind);
  out << "<section aria-labelledby=\"h-" << name << "\"><h2 id=\"h-" << name << "\">" << heading
      << "</h2><ul>\n";
  for (std::size_t i = 0; i < facet.values.size() && i < max_values && out.size() < kSidebarBudget; ++i) {
    const FacetValue& v = facet.values[i];
    const std::string& label = v.label.empty() ? v.value : v.label;
    out << "<li><a href=\"" << RefinedLink{links, facet.kind, v.value} << "\"><span>" << Escaped{label};
    // A feed's id is what feed: and --feed take.
    if (facet.kind == FacetKind::kFeed && label != v.value) out << " <span class=\"fid\">(" << Escaped{v.value} << ")</span>";
    out << "</span><span class=\"n\" aria-label=\"" << Count{v.count}
        << (v.count == 1 ? " post" : " posts") << "\">" << Count{v.count} << "</span></a></li>\n";
  }
  out << "</ul></section>\n";
}

void write_sidebar(PageOut& out, const SearchResult& r, const Refinements& w) {
  out << "<aside aria-label=\"Refine the search\">\n";
  if (const Facet* months = find_facet(r, FacetKind::kMonth)) write_histogram(out, *months, w, "Matches per month");
  for (const FacetInfo& info : kFacetTable)
    if (const Facet* f = find_facet(r, info.kind)) write_facet_list(out, *f, w, info.heading);
  if (!r.facets.empty() && r.facet_counting.estimated)
    out << "<p class=\"estimate\">Counts are estimates, from one match in " << Count{r.facet_counting.stride}
        << ".</p>\n";
  out << "</aside>\n";
}

}  // namespace

void write_footer(PageOut& out, const PageContext& c) {
  WebQuery json = c.query, atom = c.query;
  json.format = OutputFormat::kJson;
  atom.format = OutputFormat::kAtom;
  atom.page = 1;
  out << "<footer class=\"site\"><div class=\"wrap\"><p>";
  if (!c.query.is_empty() && c.query.post.empty())
    out << "This search as <a href=\"" << href(atom) << "\">an Atom feed</a> or <a href=\"" << href(json)
        << "\">JSON</a>. ";
  out << "Searches over posts archived from blog feeds.</p></div></footer>\n</body>\n</html>\n";
}

namespace {

void write_help(PageOut& out) {
  out << "<section class=\"help\" aria-labelledby=\"h-help\"><h2 id=\"h-help\">How to search</h2><dl>\n"
         "<dt>pytorch compiler</dt><dd>posts with both words (any form: compile, compiling)</dd>\n"
         "<dt>\"prompt injection\"</dt><dd>the exact phrase</dd>\n"
         "<dt>rust OR zig -crab</dt><dd>either word, without “crab”</dd>\n"
         "<dt>compil*</dt><dd>words starting with “compil”</dd>\n"
         "<dt>title:release author:willison</dt><dd>words in the title, or in an author's name</dd>\n"
         "<dt>category:\"Machine Learning\" feed:the-go-blog site:go.dev</dt><dd>exact category, feed or site</dd>\n"
         "<dt>date:2026-03..2026-05</dt><dd>published between (also date:2026, date:..2025-12)</dd>\n"
         "<dt>jurgen lang:de</dt><dd>accents optional (finds “Jürgen”); posts in German</dd>\n"
         "<dt>go.dev/blog/generics</dt><dd>a pasted link: that post</dd>\n"
         "</dl></section>\n";
}

}  // namespace

std::string page_title(const PageContext& c) {
  if (!c.query.q.empty()) return "“" + shorten(c.query.q, 80) + "” – " + c.site_title;
  if (c.query.has_filters()) return "Filtered posts – " + c.site_title;
  return c.site_title;
}

void write_html_results(std::string& page, const SearchResult& r, const PageContext& c) {
  PageOut out(page);
  const WebQuery& w = c.query;
  const Refinements links(w, "&amp;");
  write_head(out, c, page_title(c));
  write_form(out, c, false);
  out << "<div class=\"wrap layout\">\n<main id=\"main\">\n"
      << "<h1>" << (w.q.empty() ? std::string("Filtered posts") : "Results for “" + escape_markup(shorten(w.q, 200)) + "”")
      << "</h1>\n";
  write_notices(out, c);
  if (r.any_word)
    out << "<p class=\"notice\">No post has all the words: these have some of them, the most first.</p>\n";
  if (!r.searched_as_words.empty())
    out << "<p class=\"notice\">The query could not be read as written (" << Escaped{r.searched_as_words}
        << "), so its words were searched.</p>\n";
  for (const auto& u : r.unknown_filters) {
    std::string note = unknown_filter_note(u);
    note[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(note[0])));
    out << "<p class=\"notice\" role=\"status\">" << Escaped{note} << ".</p>\n";
  }
  if (!r.suggestion.empty()) {
    WebQuery corrected = w;
    corrected.q = r.suggestion;
    corrected.page = 1;
    out << "<p class=\"suggest\">Did you mean <a href=\"" << href(corrected) << "\">"
        << Escaped{r.suggestion} << "</a>?</p>\n";
  }
  out << "<p class=\"count\" role=\"status\">";
  if (r.hits.empty()) {
    if (r.total.estimated == 0) out << "No posts match.";
    else if (w.page > last_page(r, w))
      out << "No results on page " << w.page << ": the last page of results is page " << last_page(r, w) << ".";
    else out << "No more results on this page.";
  } else {
    const unsigned long long first = r.offset + 1, last = r.offset + r.hits.size();
    out << "Results " << Count{first} << "–" << Count{last} << " of " << (r.total.exact() ? "" : "about ")
        << Count{r.total.estimated};
  }
  out << " (" << std::llround(std::max(0.0, r.elapsed_ms)) << " ms)</p>\n";
  if (r.partial)
    out << "<p class=\"notice\" role=\"status\">The search ran out of time: the counts and the lists beside the results cover only "
           "part of the matches.</p>\n";
  if (!r.hits.empty()) {
    out << "<ol class=\"hits\" start=\"" << r.offset + 1 << "\">\n";
    std::size_t shown = 0;
    for (const auto& hit : r.hits) {
      if (out.size() > kResultsBudget) break;
      write_hit(out, hit, links, w.q);
      ++shown;
    }
    out << "</ol>\n";
    if (shown < r.hits.size())
      out << "<p class=\"notice\" role=\"status\">Only " << shown << " of the " << r.hits.size()
          << " results fit on this page: ask for fewer per page.</p>\n";
  } else if (r.total.estimated == 0) {
    out << "<p>Try fewer or other words, or remove a filter.</p>\n";
  }
  write_pages(out, r, w);
  out << "</main>\n";
  write_sidebar(out, r, links);
  out << "</div>\n";
  write_footer(out, c);
}

void write_html_start(std::string& page, const SearchResult& newest, const PageContext& c) {
  PageOut out(page);
  const WebQuery everything;  // the start page's links refine "all posts"
  const Refinements links(everything, "&amp;");
  write_head(out, c, page_title(c));
  write_form(out, c, true);
  out << "<div class=\"wrap layout\">\n<main id=\"main\">\n";
  write_notices(out, c);
  const Facet* feeds = find_facet(newest, FacetKind::kFeed);
  const std::size_t feed_count = feeds ? feeds->values.size() : 0;
  out << "<h1>Search " << Count{newest.total.estimated}
      << (newest.total.estimated == 1 ? " post" : " posts");
  if (feed_count) out << " from " << feed_count << (feed_count == 1 ? " feed" : " feeds");
  out << "</h1>\n";
  if (newest.hits.empty()) {
    out << "<p>Nothing is indexed yet.</p>\n";
  } else {
    out << "<p class=\"count\">Newest post: " << Escaped{day_of(*newest.hits.front().post)} << "</p>\n"
        << "<h2>Newest posts</h2>\n<ol class=\"hits\">\n";
    for (const auto& hit : newest.hits)
      if (out.size() < kResultsBudget) write_hit(out, hit, links, everything.q);
    out << "</ol>\n";
  }
  write_help(out);
  out << "</main>\n<aside aria-label=\"What is indexed\">\n";
  if (const Facet* months = find_facet(newest, FacetKind::kMonth)) write_histogram(out, *months, links, "Posts per month");
  if (feeds) write_facet_list(out, *feeds, links, "Feeds", feeds->values.size());
  if (const Facet* cats = find_facet(newest, FacetKind::kCategory)) write_facet_list(out, *cats, links, "Categories");
  out << "</aside>\n</div>\n";
  write_footer(out, c);
}

void write_html_error(std::string& page, const PageError& e, const PageContext& c) {
  PageOut out(page);
  const bool about_post = e.about_post || !c.query.post.empty();
  const char* heading = e.status == 400   ? (about_post ? "This page cannot be shown" : "This search cannot be run")
                        : e.status == 404 ? "No such post"
                        : e.status == 405 ? "Method not allowed"
                        : e.status == 503 ? "Search is unavailable right now"
                                          : "Something went wrong";
  write_head(out, c, std::string(heading) + " – " + c.site_title);
  write_form(out, c, e.status == 400);
  out << "<div class=\"wrap\">\n<main id=\"main\" class=\"error\">\n<h1>" << heading << "</h1>\n";
  write_notices(out, c);
  out << "<p role=\"alert\">" << Escaped{e.message} << "</p>\n";
  if (!e.query.empty() && e.column > 0 && e.column <= e.query.size() + 1) {
    const std::size_t at = e.column - 1;
    const std::size_t len = std::min(e.length, e.query.size() - std::min(at, e.query.size()));
    out << "<pre>" << Escaped{e.query.substr(0, at)} << "<mark>" << Escaped{e.query.substr(at, len)}
        << "</mark>" << Escaped{e.query.substr(at + len)} << "</pre>\n";
  }
  if (e.status == 400) write_help(out);
  out << "</main>\n</div>\n";
  write_footer(out, c);
}

}  // namespace blogsearch::web
