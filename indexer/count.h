// count.h: a number with its noun, for the counts in messages and summary
// lines: "1 feed", "0 feeds", "2 feeds". Never throws (but bad_alloc).
#pragma once

#include <string>

namespace blogsearch {

// `n` and `one` when n is 1, else `n` and `many`.
inline std::string counted(long long n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace blogsearch
