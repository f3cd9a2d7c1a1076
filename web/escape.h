// escape.h: THE one place that makes text safe for the web outputs.
//
// The result model (result.h) holds plain UTF-8 as stored, and request
// parameters arrive as whatever bytes a client sent. Every string that the
// HTML, Atom or OpenSearch formatters write goes through exactly one of the
// functions below: markup through escape_markup (or PageOut's Escaped,
// which calls write_escaped_markup), URL parts through url_component.
// (JSON is escaped by nlohmann-json in format_json.cc.)
//
// Every function first repairs its input: invalid UTF-8 (stray bytes,
// overlong forms, surrogates, code points above U+10FFFF) becomes U+FFFD,
// and control characters that HTML and XML 1.0 forbid are dropped, so no
// output can carry a NUL or a byte sequence a browser might read as
// something else. None of them throws (except std::bad_alloc).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace blogsearch::web {

// Valid UTF-8 with the forbidden control characters removed (tab, newline
// and carriage return are kept). What every function below starts with.
std::string valid_text(std::string_view text);
// The code points valid_text removes: C0 controls but tab, newline and
// carriage return, DEL and the C1 controls (U+007F to U+009F), and the
// noncharacters U+FFFE and U+FFFF.
bool dropped_character(std::uint32_t cp);

// THE escaper of markup, for every context the web outputs write text
// into: HTML text, a double- or single-quoted HTML attribute value, XML
// character data and quoted XML attributes (Atom, OpenSearch). & < > " '
// are escaped, so one function is safe in all of them.
std::string escape_markup(std::string_view text);

// The same, written at `out`, which must have room for
// kMarkupBytesPerByte * text.size() bytes; returns the end of what was
// written. What the page writer (page_out.h) uses for every piece.
constexpr std::size_t kMarkupBytesPerByte = 6;  // "\"" becomes "&quot;"
char* write_escaped_markup(char* out, std::string_view text);

// One component of a URL query (a name or a value): every byte but the
// unreserved ASCII letters, digits and "-._~" percent-encoded; spaces as
// "+". The result is pure ASCII, safe in any attribute after html_attribute.
std::string url_component(std::string_view text);
// The same, appended to `out`.
void append_url_component(std::string& out, std::string_view text);

// A link taken from a feed, for an href: returned unchanged (but repaired)
// when it is an absolute http or https URL without spaces or control
// characters, else "" so the caller shows the title without a link.
// Feeds are hostile input: this is what keeps `javascript:` and `data:`
// links off the page.
std::string safe_http_url(std::string_view link);

}  // namespace blogsearch::web
