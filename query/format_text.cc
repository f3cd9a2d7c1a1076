#include <xapian.h>

#include <cctype>
#include <charconv>
#include <iomanip>
#include <sstream>

#include "query/format.h"

namespace blogsearch {

namespace {

const char kBold[] = "\x1b[1m";
const char kReset[] = "\x1b[0m";

// Xapian's Utf8Iterator reads invalid bytes as Latin-1 characters, so the
// output is always valid UTF-8; C0/C1 controls (ESC above all) are dropped
// so stored text can never move the cursor or change the terminal.
std::string clean(const std::string& text, bool keep_newlines) {
  std::string out;
  out.reserve(text.size());
  bool pending_space = false;
  const char* const end = text.data() + text.size();
  for (Xapian::Utf8Iterator it(text); it != Xapian::Utf8Iterator(); ++it) {
    // Printable ASCII, most of any text, is copied in runs: a space only
    // between two other printable characters, where it stays as it is.
    const char* run = it.raw();
    const char* stop = run;
    auto printable = [](char c) { return c > 0x20 && c < 0x7f; };
    while (stop != end) {
      if (printable(*stop)) ++stop;
      else if (*stop == ' ' && stop != run && stop + 1 != end && printable(stop[1])) stop += 2;
      else break;
    }
    if (stop != run) {
      if (pending_space && !out.empty()) out += ' ';
      pending_space = false;
      out.append(run, stop);
      it = Xapian::Utf8Iterator(stop, static_cast<std::size_t>(end - stop));
      if (it == Xapian::Utf8Iterator()) break;
    }
    unsigned ch = *it;
    if (keep_newlines && (ch == '\n' || ch == '\t')) {
      out += static_cast<char>(ch);
      pending_space = false;
      continue;
    }
    if (ch < 0x20 || ch == 0x7f || (ch >= 0x80 && ch < 0xa0) || ch == 0x2028 || ch == 0x2029 ||
        (!keep_newlines && ch == ' ')) {
      pending_space = true;
      continue;
    }
    if (pending_space && !out.empty()) out += ' ';
    pending_space = false;
    Xapian::Unicode::append_utf8(out, ch);
  }
  return out;
}

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (const auto& s : items) {
    if (s.empty()) continue;
    if (!out.empty()) out += sep;
    out += s;
  }
  return out;
}

std::string day_of(const PostRecord& p) {
  for (const auto* t : {&p.published, &p.updated, &p.first_seen})
    if (!t->empty()) return t->substr(0, 10);
  return "";
}


void write_count_line(std::ostream& out, const SearchResult& r) {
  const auto n = r.total.estimated;
  if (n == 0) {
    out << "No results";
  } else {
    if (!r.total.exact()) out << "About ";
    out << Thousands(n).view() << (n == 1 ? " result" : " results");
    if (!r.hits.empty() && (r.offset > 0 || r.hits.size() < n))
      out << ", showing " << r.hits.front().rank << "–" << r.hits.back().rank;
    else if (r.hits.empty())
      out << ", none from result " << Thousands(r.offset + 1ULL).view() << " on";
  }
  std::ostringstream ms;
  ms << std::fixed << std::setprecision(r.elapsed_ms < 10 ? 1 : 0) << r.elapsed_ms;
  out << " (" << ms.str() << " ms" << (r.partial ? "; partial: the search ran out of time, counts may be low" : "")
      << ")\n";
}

}  // namespace

std::string clean_line(const std::string& text) { return clean(text, false); }
std::string clean_block(const std::string& text) { return clean(text, true); }

void write_text(std::ostream& out, const SearchResult& r, const TextStyle& style) {
  const char* bold = style.bold ? kBold : "";
  const char* reset = style.bold ? kReset : "";
  if (!r.suggestion.empty()) out << "Did you mean: " << clean_line(r.suggestion) << "\n";
  write_count_line(out, r);
  for (const auto& hit : r.hits) {
    const PostRecord& p = *hit.post;
    const std::string indent(std::to_string(hit.rank).size() + 2, ' ');
    std::string title = clean_line(p.title);
    if (title.empty()) title = "(untitled)";
    out << "\n" << hit.rank << ". " << bold << title << reset << "\n";
    std::string feed = p.feed_title.empty() ? p.feed_id : p.feed_title;
    std::string meta = join({day_of(p), join(p.authors, ", "), join(p.categories, ", "), feed}, " · ");
    if (!meta.empty()) out << indent << clean_line(meta) << "\n";
    if (!p.link.empty()) out << indent << clean_line(p.link) << "\n";
    if (!hit.snippet.empty()) {
      out << indent;
      for (const auto& part : hit.snippet) {
        // Keep the spaces at the edges of parts: they separate the words.
        std::string text = clean_line(part.text);
        if (text.empty()) text = part.text.empty() ? "" : " ";
        else {
          if (std::isspace(static_cast<unsigned char>(part.text.front()))) text.insert(0, " ");
          if (std::isspace(static_cast<unsigned char>(part.text.back()))) text += ' ';
        }
        if (part.match) out << bold << text << reset;
        else out << text;
      }
      out << "\n";
    }
  }
  if (!r.facets.empty() && r.facet_counting.estimated)
    out << "\nFacet counts are estimates: " << r.facet_counting.sampled << " matches counted, one in "
        << r.facet_counting.stride << ".\n";
  for (const auto& facet : r.facets) {
    out << "\n" << facet_name(facet.kind) << ":\n";
    if (facet.values.empty()) out << "  (none)\n";
    for (const auto& v : facet.values)
      // A feed's title, and the id --feed takes.
      out << "  " << std::setw(6) << v.count << "  " << clean_line(v.label)
          << (facet.kind == FacetKind::kFeed && v.label != v.value ? " (" + clean_line(v.value) + ")" : std::string()) << "\n";
  }
}

void write_ids(std::ostream& out, const SearchResult& r) {
  for (const auto& hit : r.hits) out << clean_line(hit.post->id) << "\n";
}

void write_post_text(std::ostream& out, const PostRecord& p, const PostHistory* history, std::size_t max_versions) {
  auto field = [&out](const char* name, const std::string& value) {
    if (!value.empty()) out << std::left << std::setw(14) << name << clean_line(value) << "\n";
  };
  out << clean_line(p.title.empty() ? "(untitled)" : p.title) << "\n\n";
  field("id:", p.id);
  field("link:", p.link);
  field("authors:", join(p.authors, ", "));
  field("categories:", join(p.categories, ", "));
  std::string feed = p.feed_title;
  if (!p.feed_id.empty()) feed += feed.empty() ? p.feed_id : " (" + p.feed_id + ")";
  if (!p.feed_url.empty()) feed += " <" + p.feed_url + ">";
  field("feed:", feed);
  if (p.feeds.size() > 1) field("feeds:", join(p.feeds, ", "));
  field("published:", p.published);
  field("updated:", p.updated);
  field("first seen:", p.first_seen);
  field("last seen:", p.last_seen);
  field("last change:", p.last_change);
  field("versions:", std::to_string(p.versions));
  field("in feed:", p.in_feed ? "yes" : "no (dropped out of the feed; kept in the archive)");
  if (p.no_text) field("text:", "the feed sends none now; the text below is the last it sent");
  field("content hash:", p.content_hash);
  field("snapshot:", p.snapshot);
  if (history && !history->versions.empty()) write_versions(out, *history, max_versions);
  if (!p.summary.empty()) out << "\nSummary:\n" << clean_block(p.summary) << "\n";
  if (!p.text.empty()) out << "\n" << clean_block(p.text) << "\n";
}

std::string diff_markup(const TextDiff& diff, bool colour) {
  std::string out;
  const DiffPart* before = nullptr;
  for (const DiffPart& p : diff.parts) {
    // Parts meet between words, so a space separates them, but for an
    // addition that replaces a removal: "[-old-]{+new+}".
    const bool replaces = before && before->op == DiffPart::Op::kRemoved && p.op == DiffPart::Op::kAdded;
    if (before && !replaces) out += ' ';
    const std::string text = clean_line(p.text);
    switch (p.op) {
      case DiffPart::Op::kSame: out += text; break;
      case DiffPart::Op::kRemoved: out += colour ? "\x1b[31m" + text + kReset : "[-" + text + "-]"; break;
      case DiffPart::Op::kAdded: out += colour ? "\x1b[32m" + text + kReset : "{+" + text + "+}"; break;
    }
    before = &p;
  }
  return out;
}

Thousands::Thousands(unsigned long long n) {
  char digits[24];
  const auto count = static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, n).ptr - digits);
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0 && (count - i) % 3 == 0) text_[size_++] = ',';
    text_[size_++] = digits[i];
  }
}

}  // namespace blogsearch
