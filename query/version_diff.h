// version_diff.h: two versions of a post compared, for `blogsearch diff`
// (and the post page): which fields differ, and a word diff (text_diff.h)
// of their titles and texts.
//
// Versions are numbered from 1 (the oldest) as in record/post_history.h.
// version_range_error() says in one line why a version number does not name
// a version of the history ("" when it does). diff_versions() throws
// std::out_of_range for such a number, else only std::bad_alloc; its cost
// is text_diff's, bounded by `limits` whatever the texts.
#pragma once

#include <string>
#include <vector>

#include "query/text_diff.h"
#include "record/post_history.h"

namespace blogsearch {

struct VersionDiff {
  int from = 0, to = 0;               // version numbers
  std::vector<std::string> changed;   // fields that differ (as Version::changed)
  TextDiff title;
  // The texts' diff; empty when either version has no text (the feed sent
  // none then: `from_no_text` / `to_no_text`), as an empty text is no edit.
  TextDiff text;
  bool from_no_text = false, to_no_text = false;
};

// "" when 1 <= number <= versions, else e.g. "post has 3 versions (1 to 3); there is no version 7".
std::string version_range_error(const PostHistory& history, long number);

VersionDiff diff_versions(const PostHistory& history, int from, int to, const DiffLimits& limits = {});

}  // namespace blogsearch
