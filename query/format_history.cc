// format_history.cc: a post's versions, one version and a diff of two, as
// text and JSON (format.h).
#include <algorithm>
#include <iomanip>
#include <string_view>

#include "query/format.h"

namespace blogsearch {

namespace {

const char kRed[] = "\x1b[31m";
const char kGreen[] = "\x1b[32m";
const char kReset[] = "\x1b[0m";

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string optional_time(const std::optional<std::int64_t>& t) { return t ? format_time(*t) : std::string(); }

nlohmann::json time_or_null(const std::optional<std::int64_t>& t) {
  return t ? nlohmann::json(format_time(*t)) : nlohmann::json(nullptr);
}

// What a version changed, for the versions list.
std::string what_changed(const Version& v) {
  std::string out = v.number == 1 ? "first version" : v.changed.empty() ? "(nothing)" : join(v.changed, ", ");
  if (v.no_text) out += "; no text sent";
  return out;
}

}  // namespace

void write_versions(std::ostream& out, const PostHistory& h, std::size_t max_versions) {
  out << "\nVersions (" << Thousands(h.versions.size()).view() << "):\n";
  const int width = static_cast<int>(std::to_string(h.versions.size()).size());
  const std::size_t skip = h.versions.size() - std::min(h.versions.size(), max_versions);
  if (skip)
    out << "  (" << Thousands(skip).view() << (skip == 1 ? " older version" : " older versions")
        << " not listed: --all lists every version, --version N prints one)\n";
  for (auto it = h.versions.begin() + static_cast<std::ptrdiff_t>(skip); it != h.versions.end(); ++it) {
    const Version& v = *it;
    out << "  " << std::right << std::setw(width) << v.number << "  " << format_time(v.first_seen) << " – "
        << format_time(v.last_seen) << "  " << clean_line(what_changed(v)) << "\n";
  }
  out << std::left;
}

void write_version_text(std::ostream& out, const PostHistory& h, int number) {
  const Version& v = h.versions.at(static_cast<std::size_t>(number - 1));
  const VersionContent& c = h.content_of(v);
  auto field = [&out](const char* name, const std::string& value) {
    if (!value.empty()) out << std::left << std::setw(14) << name << clean_line(value) << "\n";
  };
  out << clean_line(c.title.empty() ? "(untitled)" : c.title) << "\n\n";
  field("version:", std::to_string(v.number) + " of " + std::to_string(h.versions.size()));
  field("link:", c.link);
  field("authors:", join(c.authors, ", "));
  field("categories:", join(c.categories, ", "));
  field("published:", optional_time(c.published));
  field("updated:", optional_time(c.updated));
  field("first seen:", format_time(v.first_seen));
  field("last seen:", format_time(v.last_seen));
  if (v.number > 1) field("changed:", v.changed.empty() ? "(nothing)" : join(v.changed, ", "));
  field("feed:", v.feed);
  field("snapshot:", v.snapshot);
  if (v.no_text || c.text.empty()) out << "\n(no text sent in this version)\n";
  else out << "\n" << clean_block(c.text) << "\n";
}

nlohmann::json version_to_json(const PostHistory& h, int number) {
  const Version& v = h.versions.at(static_cast<std::size_t>(number - 1));
  const VersionContent& c = h.content_of(v);
  return {{"number", v.number},
          {"versions", h.versions.size()},
          {"first_seen", format_time(v.first_seen)},
          {"last_seen", format_time(v.last_seen)},
          {"changed", v.changed},
          {"no_text", v.no_text},
          {"feed", v.feed},
          {"snapshot", v.snapshot},
          {"title", c.title},
          {"link", c.link},
          {"authors", c.authors},
          {"categories", c.categories},
          {"published", time_or_null(c.published)},
          {"updated", time_or_null(c.updated)},
          {"summary", c.summary},
          {"text", c.text}};
}

// The unchanged words `text` keeps around the changes: its first `head`
// and its last `tail` words, "…" for the words between. The whitespace
// between kept words stays as it was.
std::string elide_middle(std::string_view text, std::size_t head, std::size_t tail) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
  std::vector<std::size_t> starts, ends;  // of each word
  for (std::size_t i = 0; i < text.size();) {
    while (i < text.size() && space(text[i])) ++i;
    if (i == text.size()) break;
    starts.push_back(i);
    while (i < text.size() && !space(text[i])) ++i;
    ends.push_back(i);
  }
  if (starts.size() <= head + tail + 1) return std::string(text);
  std::string out;
  if (head) out.append(text.substr(0, ends[head - 1])).append(" ");
  out += "…";
  if (tail) out.append(" ").append(text.substr(starts[starts.size() - tail]));
  return out;
}

std::string diff_block(const TextDiff& diff, bool colour, std::size_t context) {
  std::string out;
  const DiffPart* before = nullptr;
  for (std::size_t i = 0; i < diff.parts.size(); ++i) {
    const DiffPart& p = diff.parts[i];
    // An addition that replaces a removal follows it at once: "[-old-]{+new+}".
    const bool replaces = before && before->op == DiffPart::Op::kRemoved && p.op == DiffPart::Op::kAdded;
    if (!replaces) out += before ? clean_block(p.lead) : std::string();
    // Unchanged text is kept only near the changes: `context` words after
    // the change before it and before the change after it.
    const std::string text =
        clean_block(p.op == DiffPart::Op::kSame && diff.changed()
                        ? elide_middle(p.text, i > 0 ? context : 0, i + 1 < diff.parts.size() ? context : 0)
                        : p.text);
    switch (p.op) {
      case DiffPart::Op::kSame: out += text; break;
      case DiffPart::Op::kRemoved: out += colour ? kRed + text + kReset : "[-" + text + "-]"; break;
      case DiffPart::Op::kAdded: out += colour ? kGreen + text + kReset : "{+" + text + "+}"; break;
    }
    before = &p;
  }
  return out;
}

void write_version_diff(std::ostream& out, const PostRecord& post, const VersionDiff& d, bool colour,
                        std::size_t context) {
  out << "Versions " << d.from << " and " << d.to << " of " << clean_line(post.title.empty() ? post.id : post.title)
      << "\n";
  out << "changed: " << (d.changed.empty() ? std::string("nothing") : join(d.changed, ", ")) << "\n";
  if (d.title.changed()) out << "title: " << diff_markup(d.title, colour) << "\n";
  if (d.from_no_text || d.to_no_text) {
    out << "\n(no text sent in version " << (d.from_no_text ? d.from : d.to)
        << (d.from_no_text && d.to_no_text ? " nor in version " + std::to_string(d.to) : std::string())
        << ": the texts are not compared)\n";
    return;
  }
  out << "\n" << diff_block(d.text, colour, context) << "\n";
  if (d.text.coarse) out << "\n(parts too different to compare word by word are shown removed and added whole)\n";
  if (d.text.cut) out << "\n(the texts are compared up to their first MiB)\n";
}

nlohmann::json version_diff_to_json(const PostRecord& post, const VersionDiff& d) {
  return {{"id", post.id},
          {"from", d.from},
          {"to", d.to},
          {"changed", d.changed},
          {"title", diff_to_json(d.title)},
          {"text", d.from_no_text || d.to_no_text ? nlohmann::json(nullptr) : diff_to_json(d.text)},
          {"from_no_text", d.from_no_text},
          {"to_no_text", d.to_no_text}};
}

}  // namespace blogsearch
