// version_diff.cc: the fields and words that differ between two versions.
#include "query/version_diff.h"

#include <stdexcept>

namespace blogsearch {

std::string version_range_error(const PostHistory& history, long number) {
  const std::size_t n = history.versions.size();
  if (number >= 1 && static_cast<unsigned long>(number) <= n) return {};
  if (n == 0) return "post has no recorded versions";
  const std::string count = n == 1 ? "1 version (1)" : std::to_string(n) + " versions (1 to " + std::to_string(n) + ")";
  return "post has " + count + "; there is no version " + std::to_string(number);
}

VersionDiff diff_versions(const PostHistory& history, int from, int to, const DiffLimits& limits) {
  if (!version_range_error(history, from).empty() || !version_range_error(history, to).empty())
    throw std::out_of_range("no such version");
  const Version& a = history.versions[static_cast<std::size_t>(from - 1)];
  const Version& b = history.versions[static_cast<std::size_t>(to - 1)];
  const VersionContent& older = history.content_of(a);
  const VersionContent& newer = history.content_of(b);
  VersionDiff d;
  d.from = from;
  d.to = to;
  d.changed = changed_fields(older, newer);
  d.title = diff_words(older.title, newer.title, limits);
  d.from_no_text = a.no_text || older.text.empty();
  d.to_no_text = b.no_text || newer.text.empty();
  if (!d.from_no_text && !d.to_no_text) d.text = diff_words(older.text, newer.text, limits);
  return d;
}

}  // namespace blogsearch
