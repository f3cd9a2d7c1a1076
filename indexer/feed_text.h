// feed_text.h: small string rules for feed fields, shared by the feed parser.
//
// Private to the indexer. Pure functions on UTF-8 strings: none throws
// (except std::bad_alloc) and none allocates more than its result. Bad
// input gives an empty or unchanged result, never an error.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace blogsearch {

// s without leading and trailing ASCII white space.
std::string trim_copy(std::string_view s);

// Whether an RSS title holds HTML: a closing tag or an entity reference, the
// test feedparser uses. "AT&T", "a < b" and "On the <dl>" are plain text.
bool looks_like_html(std::string_view s);

// The one warning for a feed with more items than --max-items, the same for
// every format: "many.xml: 12,345 items; only the first 10,000 read (--max-items)".
std::string items_skipped_warning(const std::string& file, std::size_t items, std::size_t read);

// Whether s starts with a URI scheme ("https:", "tag:", "urn:").
bool has_scheme(std::string_view s);

// Whether s is an http or https address (any case).
bool is_web_address(std::string_view s);

// The name in "mail (Name)" or "Name <mail>"; other strings unchanged but
// with white space collapsed.
std::string person_name(std::string_view s);

// The person an author element names, as shown: markup removed (escaped or
// serialised HTML such as `by <a href="/author/x">Foo Bar</a>`), a leading
// "by " / "By: " dropped, then person_name().
std::string person_text(std::string_view raw);

// A byline split into the people it joins, where that is unambiguous:
//  - ';' always separates;
//  - otherwise only a list closed by a conjunction is split: parts
//    separated by ", " with the last pair joined by " and ", " & ",
//    ", and " or ", & ". Commas alone do not split: they join a name and
//    an affiliation ("Ann Lee, Red Hat") or "Last, First" as often as
//    people. A conjunction anywhere but last ("Smith, John and Doe, Jane")
//    means no split;
//  - two parts split only when both have at least two words, so
//    "Procter & Gamble" and "Ann and Bob" stay whole while
//    "Ann Lee & Bob Ray" splits;
//  - three or more parts split ("Ann, Bob and Cy") unless one of them is a
//    name suffix (Jr., Sr., II, III, PhD, MD);
//  - a part still holding a comma ("A, B,C and D": irregular separators)
//    or an empty part means no split.
// A name that is not split comes back as the only element; "" gives {}.
std::vector<std::string> split_byline(const std::string& name);

// Standard base64 (RFC 4648) with white space ignored and padding optional.
// False, with `out` unspecified, when other characters occur.
bool decode_base64(std::string_view in, std::string& out);

}  // namespace blogsearch
