// ends_with.h: whether a string ends with another (std::string::ends_with
// is C++20). Never throws.
#pragma once

#include <string_view>

namespace blogsearch {

inline bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace blogsearch
