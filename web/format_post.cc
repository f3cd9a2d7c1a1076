// format_post.cc: the page of one archived post (format_web.h:
// write_html_post). Plain HTML with the search page's style sheet and
// form: the post's facts, its text (or one version's, or the changes
// between two), the versions timeline and related posts. Kept under
// kPageBudget whatever the post: the text stops at a byte budget with a
// notice, the timeline lists the newest versions that fit.
#include <algorithm>
#include <optional>

#include "common/utf8.h"
#include "indexer/schema.h"
#include "query/text_diff.h"
#include "web/format_web.h"
#include "web/html_parts.h"
#include "web/page_out.h"

namespace blogsearch::web {

namespace {

// Where the page's pieces stop, in bytes of the page written so far: the
// text (or diff) first, then the timeline; the related posts and the footer
// that follow are small (at most kMaxRelated capped titles).
constexpr std::size_t kTextBudget = 120 * 1024;
constexpr std::size_t kTimelineBudget = 175 * 1024;
constexpr std::size_t kNames = 10;       // authors, categories, feeds shown
constexpr std::size_t kNameBytes = 100;  // each
constexpr std::size_t kTitleBytes = 300;
constexpr std::size_t kMaxRelated = 10;
// The related posts' section stops at about this many bytes (their links
// hold ids that may be kilobytes long once encoded).
constexpr std::size_t kRelatedBudget = 30 * 1024;
// The longest author, category or feed linked as a filter.
constexpr std::size_t kFilterLinkBytes = 300;
// What follows the timeline besides the related posts: the closing tags,
// the footer and the notice about versions left out.
constexpr std::size_t kEndBytes = 2048;
// Text is written in pieces of this many bytes, so that it stops near the
// budget whatever escaping makes of it.
constexpr std::size_t kPiece = 1024;

std::string_view title_of(const std::string& title) {
  return title.empty() ? std::string_view("(untitled)") : std::string_view(title);
}

// "2026-09-02 01:32 UTC" for an RFC 3339 time as stored.
void write_time(PageOut& out, std::string_view rfc3339) {
  out << "<time datetime=\"" << Escaped{rfc3339} << "\">";
  if (rfc3339.size() >= 16 && rfc3339[10] == 'T') out << Escaped{rfc3339.substr(0, 10)} << ' ' << Escaped{rfc3339.substr(11, 5)} << " UTC";
  else out << Escaped{rfc3339};
  out << "</time>";
}

// Writes `text` escaped, `tag` around it when given, until the page holds
// `budget` bytes. Returns the bytes of `text` written.
std::size_t write_bounded(PageOut& out, std::string_view text, const char* tag, std::size_t budget) {
  if (out.size() >= budget) return 0;
  if (tag) out << '<' << tag << '>';
  std::size_t done = 0;
  while (done < text.size() && out.size() < budget) {
    const std::string_view piece = utf8::truncate(text.substr(done), kPiece);
    if (piece.empty()) break;  // not at a character boundary: cannot happen for valid text
    out << Escaped{piece};
    done += piece.size();
  }
  if (tag) out << "</" << tag << '>';
  return done;
}

// The link to the post page of `c`'s post showing `version` or the diff
// `from`-`to` (the search's words kept, so the marks stay).
std::string post_href(const PageContext& c, unsigned version, unsigned from = 0, unsigned to = 0) {
  WebQuery w;
  w.q = c.query.q;
  w.post = c.query.post;
  w.version = version;
  w.diff_from = from;
  w.diff_to = to;
  return href(w);
}

void write_facts(PageOut& out, const PostPage& p) {
  const PostRecord& r = p.post;
  out << "<dl class=\"facts\">\n";
  if (!r.published.empty()) {
    out << "<dt>Published</dt><dd>";
    write_time(out, r.published);
    out << "</dd>\n";
  }
  if (!r.updated.empty() && r.updated != r.published) {
    out << "<dt>Updated (as the feed says)</dt><dd>";
    write_time(out, r.updated);
    out << "</dd>\n";
  }
  auto list = [&out](const char* heading, const std::vector<std::string>& values, auto link) {
    if (values.empty()) return;
    out << "<dt>" << heading << "</dt><dd>";
    for (std::size_t i = 0; i < values.size() && i < kNames; ++i) {
      if (i) out << ", ";
      link(values[i]);
    }
    if (values.size() > kNames) out << ", and " << values.size() - kNames << " more";
    out << "</dd>\n";
  };
  // Each value links the search filtered by it; a value too long to be a
  // useful filter is shown without a link (a cut one would filter nothing).
  auto filter_link = [&out](FacetKind kind, const std::string& value, std::string_view label) {
    if (value.size() > kFilterLinkBytes) {
      out << ShortHtml{label, kNameBytes};
      return;
    }
    WebQuery w;
    w.filter(kind)->push_back(value);
    out << "<a href=\"" << href(w) << "\">" << ShortHtml{label, kNameBytes} << "</a>";
  };
  list("By", r.authors, [&](const std::string& a) { filter_link(FacetKind::kAuthor, a, a); });
  list("Categories", r.categories, [&](const std::string& cat) { filter_link(FacetKind::kCategory, cat, cat); });
  list(r.feeds.size() == 1 ? "Feed" : "Feeds", r.feeds.empty() && !r.feed_id.empty() ? std::vector<std::string>{r.feed_id} : r.feeds,
       [&](const std::string& feed) {
         std::string_view label = feed;
         if (auto title = p.feed_titles.find(feed); title != p.feed_titles.end()) label = title->second;
         else if (feed == r.feed_id && !r.feed_title.empty()) label = r.feed_title;
         filter_link(FacetKind::kFeed, feed, label);
       });
  if (!r.first_seen.empty()) {
    out << "<dt>First seen</dt><dd>";
    write_time(out, r.first_seen);
    out << "</dd>\n";
  }
  if (!r.last_seen.empty()) {
    out << "<dt>Last seen</dt><dd>";
    write_time(out, r.last_seen);
    out << "</dd>\n";
  }
  out << "<dt>In the feed</dt><dd>"
      << (r.in_feed ? "Yes: the feed still carries it" : "No: the feed no longer carries it; this is the archived copy")
      << "</dd>\n";
  if (const std::string link = safe_http_url(r.link); !link.empty() && link.size() <= 2048)
    out << "<dt>Original</dt><dd><a href=\"" << Escaped{link} << "\">" << ShortHtml{link, 100} << "</a></dd>\n";
  out << "</dl>\n";
}

// `text` with the words of the page's search marked, until the budget.
// Returns the bytes of `text` written.
std::size_t write_marked(PageOut& out, std::string_view text, const PostPage& p) {
  if (!p.has_marks) return write_bounded(out, text, nullptr, kTextBudget);
  // The marks are looked for in what can be shown at most (escaping only
  // makes text longer), so the cost stays bounded too.
  const std::string_view shown = utf8::truncate(text, kTextBudget);
  // A stemmer of its own: a Xapian::Stem is not thread-safe, and the
  // searchers of a FastCGI process write pages at once.
  const Xapian::Stem stem(schema::kStemLanguage);
  std::size_t done = 0;
  for (const SnippetPart& part : make_snippet(shown, p.marks, shown.size(), stem)) {
    const std::size_t wrote = write_bounded(out, part.text, part.match ? "mark" : nullptr, kTextBudget);
    done += wrote;
    if (wrote < part.text.size()) break;
  }
  return done;
}

void write_text_section(PageOut& out, const std::string& heading, std::string_view text, const PostPage& p) {
  out << "<section class=\"text\" aria-labelledby=\"h-text\"><h2 id=\"h-text\">" << Escaped{heading} << "</h2>\n";
  if (text.empty()) {
    out << "<p class=\"notice\">The feed sent no text for this version.</p>\n</section>\n";
    return;
  }
  out << "<p class=\"body\">";
  const std::size_t shown = write_marked(out, text, p);
  out << "</p>\n";
  if (shown < text.size())
    out << "<p class=\"notice\" role=\"status\">The text is cut here: " << Count{shown} << " of its "
        << Count{text.size()} << " bytes are shown.</p>\n";
  out << "</section>\n";
}

// A stretch of unchanged text longer than this is shown by its ends, each
// kContextBytes long, with "…" between: the versions' own pages show all.
constexpr std::size_t kLongSame = 1000;
constexpr std::size_t kContextBytes = 300;
// The bytes of each text a diff compares (text_diff.h's bound on its cost).
constexpr std::size_t kDiffBytes = 256 * 1024;

// The first `n` bytes of `text` at a character boundary, cut back to a
// space when there is one in the last quarter.
std::string_view head_of(std::string_view text, std::size_t n) {
  std::string_view h = utf8::truncate(text, n);
  if (const std::size_t space = h.rfind(' '); space != std::string_view::npos && space > n * 3 / 4) h = h.substr(0, space + 1);
  return h;
}
// The last `n` bytes or so of `text`, from a character start (and a space
// when there is one in the first quarter).
std::string_view tail_of(std::string_view text, std::size_t n) {
  if (text.size() <= n) return text;
  std::size_t at = text.size() - n;
  while (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) ++at;
  if (const std::size_t space = text.find(' ', at); space != std::string_view::npos && space < at + n / 4) at = space;
  return text.substr(at);
}

// The word diff as text with <del> and <ins>, until the budget. Returns
// false when it stopped there.
bool write_diff_parts(PageOut& out, const TextDiff& diff, std::size_t budget) {
  for (std::size_t i = 0; i < diff.parts.size(); ++i) {
    const DiffPart& part = diff.parts[i];
    const char* tag = part.op == DiffPart::Op::kAdded ? "ins" : part.op == DiffPart::Op::kRemoved ? "del" : nullptr;
    // The space before a changed part stays outside its mark.
    if (write_bounded(out, part.lead, nullptr, budget) < part.lead.size()) return false;
    const std::string_view text = part.text;
    if (!tag && text.size() > kLongSame) {
      const std::string_view head = i == 0 ? std::string_view() : head_of(text, kContextBytes);
      const std::string_view tail = i + 1 == diff.parts.size() ? std::string_view() : tail_of(text, kContextBytes);
      if (write_bounded(out, head, nullptr, budget) < head.size()) return false;
      out << "<span class=\"gap\" title=\"unchanged text left out\">…</span>";
      if (write_bounded(out, tail, nullptr, budget) < tail.size()) return false;
      continue;
    }
    if (write_bounded(out, text, tag, budget) < text.size()) return false;
  }
  return true;
}

std::string joined(const std::vector<std::string>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size() && i < kNames; ++i) out += (i ? ", " : "") + values[i];
  if (values.size() > kNames) out += ", …";
  return out;
}

std::string time_or_none(const std::optional<std::int64_t>& t) { return t ? format_time(*t) : "none"; }

// The changes from version `from` to version `to` (numbers checked by the
// caller): the title and text word by word, the other fields old and new.
void write_diff_section(PageOut& out, const PostPage& p, unsigned from, unsigned to) {
  const Version& a = p.history.versions.at(from - 1);
  const Version& b = p.history.versions.at(to - 1);
  const VersionContent& older = p.history.content_of(a);
  const VersionContent& newer = p.history.content_of(b);
  out << "<section class=\"diff\" aria-labelledby=\"h-diff\"><h2 id=\"h-diff\">Changes from version " << from
      << " to version " << to << "</h2>\n<p class=\"count\">Version " << from << " first seen ";
  write_time(out, format_time(a.first_seen));
  out << ", version " << to << " first seen ";
  write_time(out, format_time(b.first_seen));
  out << ". <del>Removed</del> and <ins>added</ins> words are marked.</p>\n";

  DiffLimits limits;
  limits.max_bytes = kDiffBytes;
  struct Field {
    const char* name;
    std::string old_value, new_value;
  };
  std::vector<Field> fields;
  if (older.link != newer.link) fields.push_back({"Link", older.link, newer.link});
  if (older.published != newer.published)
    fields.push_back({"Published", time_or_none(older.published), time_or_none(newer.published)});
  if (older.updated != newer.updated)
    fields.push_back({"Updated", time_or_none(older.updated), time_or_none(newer.updated)});
  if (older.authors != newer.authors) fields.push_back({"Authors", joined(older.authors), joined(newer.authors)});
  if (older.categories != newer.categories)
    fields.push_back({"Categories", joined(older.categories), joined(newer.categories)});
  out << "<dl class=\"facts\">\n<dt>Title</dt><dd>";
  if (older.title == newer.title) {
    out << ShortHtml{newer.title, kTitleBytes} << " (unchanged)";
  } else {
    const TextDiff title = diff_words(utf8::truncate(older.title, kTitleBytes), utf8::truncate(newer.title, kTitleBytes), limits);
    write_diff_parts(out, title, kTextBudget);
  }
  out << "</dd>\n";
  for (const Field& f : fields)
    out << "<dt>" << f.name << "</dt><dd><del>" << ShortHtml{f.old_value, kTitleBytes} << "</del> → <ins>"
        << ShortHtml{f.new_value, kTitleBytes} << "</ins></dd>\n";
  out << "</dl>\n";

  if (older.text == newer.text) {
    out << "<p class=\"notice\">The text did not change.</p>\n</section>\n";
    return;
  }
  const TextDiff diff = diff_words(older.text, newer.text, limits);
  out << "<p class=\"count\">" << Count{diff.words_removed} << (diff.words_removed == 1 ? " word" : " words")
      << " removed, " << Count{diff.words_added} << (diff.words_added == 1 ? " word" : " words") << " added.</p>\n";
  if (diff.coarse)
    out << "<p class=\"notice\" role=\"status\">Some stretches differ too much to compare word by word: they are "
           "shown removed and added whole.</p>\n";
  if (diff.cut)
    out << "<p class=\"notice\" role=\"status\">Only the first " << Count{kDiffBytes}
        << " bytes of each text were compared.</p>\n";
  out << "<p class=\"body\">";
  const bool whole = write_diff_parts(out, diff, kTextBudget);
  out << "</p>\n";
  if (!whole)
    out << "<p class=\"notice\" role=\"status\">The changes are cut here: the page would be too long. The "
           "versions' own pages show their texts.</p>\n";
  out << "</section>\n";
}

// The timeline stops where the page, with one more entry and `reserve`
// bytes still to come (the related posts, the footer), would pass
// kPageBudget. An entry's two links repeat the post's id and the query,
// which may be kilobytes each.
void write_timeline(PageOut& out, const PostPage& p, const PageContext& c, unsigned shown_version,
                    std::size_t reserve) {
  const auto& versions = p.history.versions;
  if (versions.empty()) return;
  out << "<section class=\"versions\" aria-labelledby=\"h-versions\"><h2 id=\"h-versions\">"
      << Count{versions.size()} << (versions.size() == 1 ? " version" : " versions") << "</h2>\n<ol reversed>\n";
  const std::size_t entry_bytes = 2 * post_href(c, 0, 4294967295u, 4294967295u).size() + 600;
  const std::size_t stop = std::min(kTimelineBudget, kPageBudget - std::min(kPageBudget, reserve + entry_bytes + kEndBytes));
  std::size_t listed = 0;
  for (auto v = versions.rbegin(); v != versions.rend() && out.size() < stop; ++v, ++listed) {
    const bool current = static_cast<unsigned>(v->number) == shown_version;
    out << "<li" << (current ? " aria-current=\"page\"" : "") << "><a href=\"" << post_href(c, v->number)
        << "\">Version " << v->number << "</a> · ";
    write_time(out, format_time(v->first_seen));
    if (v->last_seen != v->first_seen) {
      out << " to ";
      write_time(out, format_time(v->last_seen));
    }
    if (!v->changed.empty()) {
      out << " · changed: ";
      for (std::size_t i = 0; i < v->changed.size() && i < kNames; ++i) out << (i ? ", " : "") << Escaped{v->changed[i]};
    }
    if (v->no_text) out << " · no text";
    if (v->number > 1)
      out << " · <a href=\"" << post_href(c, 0, v->number - 1, v->number) << "\">changes from version "
          << v->number - 1 << "</a>";
    out << "</li>\n";
  }
  out << "</ol>\n";
  if (listed < versions.size())
    out << "<p class=\"notice\" role=\"status\">The " << Count{versions.size() - listed}
        << " oldest versions are not listed; ask for one with version=N.</p>\n";
  out << "</section>\n";
}

void write_related(PageOut& out, const PostPage& p) {
  out << "<aside aria-label=\"Related posts\">\n<section aria-labelledby=\"h-related\"><h2 id=\"h-related\">Related posts</h2>\n";
  if (p.related.empty()) {
    out << "<p class=\"count\">No other post is much like this one.</p>\n";
  } else {
    out << "<ul class=\"related\">\n";
    for (std::size_t i = 0; i < p.related.size() && i < kMaxRelated && out.size() < kRelatedBudget; ++i) {
      const PostRecord& r = *p.related[i].post;
      out << "<li><a href=\"" << PostLink{post_key(r), {}} << "\"><span>" << ShortHtml{title_of(r.title), kTitleBytes}
          << "</span></a><span class=\"meta\">" << Escaped{day_of(r)};
      if (!r.feed_title.empty() || !r.feed_id.empty())
        out << " · " << ShortHtml{r.feed_title.empty() ? r.feed_id : r.feed_title, kNameBytes};
      out << "</span></li>\n";
    }
    out << "</ul>\n";
  }
  out << "</section>\n</aside>\n";
}

}  // namespace

std::string_view post_key(const PostRecord& post) {
  return post.id.size() <= kMaxPostParameter || post.link.empty() ? std::string_view(post.id) : std::string_view(post.link);
}

std::string post_page_title(const PostPage& p, const PageContext& c) {
  return shorten(std::string(title_of(p.post.title)), 80) + " – archived copy – " + c.site_title;
}

void write_html_post(std::string& page, const PostPage& p, const PageContext& c) {
  PageOut out(page);
  const WebQuery& w = c.query;
  write_head(out, c, post_page_title(p, c));
  write_form(out, c, false);
  out << "<div class=\"wrap layout\">\n<main id=\"main\" class=\"post\">\n";
  write_notices(out, c);
  if (!w.q.empty()) {
    WebQuery back;
    back.q = w.q;
    out << "<p class=\"back\"><a href=\"" << href(back) << "\">← Results for “" << ShortHtml{w.q, 200}
        << "”</a></p>\n";
  }
  const std::vector<Version>& versions = p.history.versions;
  const Version* version = w.version && w.version <= versions.size() ? &versions[w.version - 1] : nullptr;
  const std::string& title = version ? p.history.content_of(*version).title : p.post.title;
  out << "<article>\n<h1>" << ShortHtml{title_of(title), kTitleBytes} << "</h1>\n";
  write_facts(out, p);
  if (w.diff_from) {
    write_diff_section(out, p, w.diff_from, w.diff_to);
  } else if (version) {
    const VersionContent& content = p.history.content_of(*version);
    std::string heading = "Version " + std::to_string(version->number) + " of " + std::to_string(versions.size());
    heading += ", first seen " + format_time(version->first_seen);
    if (version->number != static_cast<int>(versions.size()))
      out << "<p class=\"notice\" role=\"status\">This is an earlier version. <a href=\"" << post_href(c, 0)
          << "\">The current text</a>.</p>\n";
    write_text_section(out, heading, content.text, p);
  } else {
    if (p.post.no_text)
      out << "<p class=\"notice\" role=\"status\">The feed sends no text for this post now: the text shown is the "
             "last it sent.</p>\n";
    write_text_section(out, "Text", p.post.text, p);
  }
  out << "</article>\n";
  // The related posts are made first, so that the timeline knows the room
  // they take (their links hold ids that may be kilobytes long).
  std::string related;
  {
    PageOut r(related);
    write_related(r, p);
  }
  write_timeline(out, p, c, version ? static_cast<unsigned>(version->number) : w.diff_to, related.size());
  out << "</main>\n" << related << "</div>\n";
  write_footer(out, c);
}

}  // namespace blogsearch::web
