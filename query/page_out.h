// page_out.h: writing a web page into a std::string with <<.
//
// The web formatters (format_html.cc, format_atom.cc, format_opensearch.cc)
// write a page in about 1,500 pieces. std::ostream builds a sentry and makes
// a virtual call for each, which was a tenth of a FastCGI request; PageOut
// appends to the string it is given. It takes strings, characters,
// integers and Html (text escaped on the way, escape.h), and has no
// formatting state. Nothing here throws except std::bad_alloc.
#pragma once

#include <charconv>
#include <string>
#include <string_view>
#include <type_traits>

#include "query/escape.h"

namespace blogsearch::web {

// Text to escape for HTML (text or a quoted attribute) as it is written:
// `out << Html{title}` is `out << html_text(title)` without the copy.
struct Html {
  std::string_view text;
};

class PageOut {
 public:
  // Room for a whole page is made at once: growing the string step by step
  // copied the page written so far a dozen times.
  explicit PageOut(std::string& out) : out_(out) { out_.reserve(out_.size() + kPageBytes); }

  static constexpr std::size_t kPageBytes = 32 * 1024;

  std::string& str() { return out_; }

  PageOut& operator<<(Html h) {
    append_html(out_, h.text);
    return *this;
  }
  PageOut& operator<<(std::string_view s) {
    out_.append(s);
    return *this;
  }
  PageOut& operator<<(const char* s) { return *this << std::string_view(s); }
  PageOut& operator<<(const std::string& s) { return *this << std::string_view(s); }
  PageOut& operator<<(char c) {
    out_ += c;
    return *this;
  }
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, char> &&
                                             !std::is_same_v<T, bool>,
                                         int> = 0>
  PageOut& operator<<(T n) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
    out_.append(digits, end);
    return *this;
  }

 private:
  std::string& out_;
};

}  // namespace blogsearch::web
