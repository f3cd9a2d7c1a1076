// url.h: the parts of a URL blogsearch needs, through libcurl's URL API.
//
// None of these throws (except std::bad_alloc); a string libcurl cannot
// parse as an absolute URL gives "" (url_key: the string itself).
#pragma once

#include <string>

namespace blogsearch {

// Lowercased host name ("pytorch.org"), or "".
std::string url_host(const std::string& url);

// Lowercased scheme ("https"), or "".
std::string url_scheme(const std::string& url);

// href resolved against base (RFC 3986), with spaces, non-ASCII and other
// characters a URL may not hold percent-encoded as browsers do
// ("/blog/日本語/" -> "/blog/%E6%97%A5...", "my post.html" -> "my%20post.html").
// An href that is already absolute is only normalised that way. When base
// is "" or not absolute and href is relative, href is returned encoded but
// unresolved. Never returns "" for a non-empty href.
std::string resolve_url(const std::string& href, const std::string& base);

// The form of `url` in which two ways of writing one URL are equal, to tell
// a feed already subscribed (RFC 3986 6.2.2 and 6.2.3): scheme and host
// lowercased, the scheme's default port dropped, dot segments removed, an
// empty path made "/", an empty query and the fragment dropped, percent
// escapes of unreserved characters decoded ("%7E" -> "~") and the others
// uppercased ("%2f" -> "%2F"). For comparing only: store the URL as given.
// A string libcurl cannot parse is returned as it is.
std::string url_key(const std::string& url);

}  // namespace blogsearch
