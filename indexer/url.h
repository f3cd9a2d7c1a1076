// url.h: the parts of a URL blogsearch needs, through libcurl's URL API.
//
// Both functions never throw (except std::bad_alloc); a string libcurl
// cannot parse as an absolute URL gives "".
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

}  // namespace blogsearch
