// page_out.h: writing a web page into a std::string with <<.
//
// The web formatters (format_html.cc, format_atom.cc, format_opensearch.cc)
// write a page in about 1,500 pieces. std::ostream builds a sentry and makes
// a virtual call for each, which was a tenth of a FastCGI request; PageOut
// copies them into the string it is given. It takes strings, characters,
// integers and Escaped (text escaped on the way, escape.h), and has no
// formatting state. Nothing here throws except std::bad_alloc.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "web/escape.h"

namespace blogsearch::web {

// Text to escape (escape.h: escape_markup) as it is written:
// `out << Escaped{title}` is `out << escape_markup(title)` without the copy.
struct Escaped {
  std::string_view text;
};

class PageOut {
 public:
  // Writes after what `out` holds. Room for a whole page is made at once
  // (growing the string step by step copied the page a dozen times), and
  // pieces are copied to a write position rather than appended one by one
  // (std::string::append is a call into the library per piece, which was a
  // tenth of a FastCGI request); the destructor cuts `out` to what was
  // written.
  explicit PageOut(std::string& out) : out_(out) {
    const std::size_t start = out_.size();
    out_.resize(start + kPageBytes);
    at_ = out_.data() + start;
    end_ = out_.data() + out_.size();
  }
  ~PageOut() { out_.resize(static_cast<std::size_t>(at_ - out_.data())); }
  PageOut(const PageOut&) = delete;
  PageOut& operator=(const PageOut&) = delete;

  // A page of ten results, with its sidebar, is 14 to 17 KB; bigger ones
  // grow (by doubling). The room is zero-filled first: no more than needed.
  static constexpr std::size_t kPageBytes = 20 * 1024;

  PageOut& operator<<(Escaped e) {
    room(e.text.size() * kMarkupBytesPerByte);
    at_ = write_escaped_markup(at_, e.text);
    return *this;
  }
  // Inlined, so that the length of a string literal is known where it is
  // written and its copy is a few moves (not a call to strlen and memcpy).
  [[gnu::always_inline]] PageOut& operator<<(std::string_view s) {
    room(s.size());
    std::memcpy(at_, s.data(), s.size());
    at_ += s.size();
    return *this;
  }
  [[gnu::always_inline]] PageOut& operator<<(const char* s) { return *this << std::string_view(s); }
  PageOut& operator<<(const std::string& s) { return *this << std::string_view(s); }
  PageOut& operator<<(char c) {
    room(1);
    *at_++ = c;
    return *this;
  }
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, char> &&
                                             !std::is_same_v<T, bool>,
                                         int> = 0>
  PageOut& operator<<(T n) {
    constexpr std::size_t kDigits = 24;
    room(kDigits);
    at_ = std::to_chars(at_, at_ + kDigits, n).ptr;
    return *this;
  }

  // Bytes written so far (of the whole string, what it held before too).
  std::size_t size() const { return static_cast<std::size_t>(at_ - out_.data()); }

  // For a piece that is made in a std::string (the query string of a
  // link): make(s) appends it to an empty string, which is kept for the
  // next piece so that it is allocated once.
  template <typename Make>
  PageOut& piece(Make make) {
    piece_.clear();
    make(piece_);
    return *this << piece_;
  }

 private:
  void room(std::size_t n) {
    if (n > static_cast<std::size_t>(end_ - at_)) grow(n);
  }
  [[gnu::noinline]] void grow(std::size_t n) {
    const std::size_t used = static_cast<std::size_t>(at_ - out_.data());
    out_.resize(std::max(out_.size() * 2, used + n));
    at_ = out_.data() + used;
    end_ = out_.data() + out_.size();
  }

  std::string& out_;
  char* at_;
  char* end_;
  std::string piece_;
};

}  // namespace blogsearch::web
