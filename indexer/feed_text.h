// feed_text.h: small string rules for feed fields, shared by the feed parser.
//
// Private to the indexer. Pure functions on UTF-8 strings: none throws
// (except std::bad_alloc) and none allocates more than its result.
#pragma once

#include <string>
#include <string_view>

namespace blogsearch {

// s without leading and trailing ASCII white space.
std::string trim_copy(std::string_view s);

// Appends code point cp as UTF-8 (cp must be a Unicode scalar value).
void append_utf8(std::string& out, unsigned cp);

// Whether an RSS title holds HTML: a closing tag or an entity reference, the
// test feedparser uses. "AT&T", "a < b" and "On the <dl>" are plain text.
bool looks_like_html(std::string_view s);

// Whether s starts with a URI scheme ("https:", "tag:", "urn:").
bool has_scheme(std::string_view s);

// Whether s is an http or https address (any case).
bool is_web_address(std::string_view s);

// The name in "mail (Name)" or "Name <mail>"; other strings unchanged but
// with white space collapsed.
std::string person_name(std::string_view s);

}  // namespace blogsearch
