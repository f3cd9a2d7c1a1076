// html_text.h: the plain text of an HTML fragment, for indexing and snippets.
//
// Uses Gumbo. Entities are decoded; script, style, noscript and template are
// dropped; block elements and <br> separate words; pre/code text is kept;
// image alt text is kept; runs of whitespace collapse to one space, and the
// result has no leading or trailing space. The result is always valid UTF-8
// (bad bytes become U+FFFD). Nesting deeper than a few hundred levels is
// flattened (words still separate) so hostile input stays fast. Never throws
// (except std::bad_alloc); input that is not HTML at all comes back as its text.
#pragma once

#include <string>
#include <string_view>

namespace blogsearch {

std::string html_to_text(std::string_view html);

// The same, always through Gumbo's tree: html_to_text() reads simple,
// well-nested markup straight off its tokens instead, and must give the
// same text (tests and the fuzzer compare the two).
std::string html_to_text_by_gumbo(std::string_view html);

// Collapses whitespace runs in already-plain text (same rules as above).
std::string collapse_whitespace(std::string_view text);

}  // namespace blogsearch
