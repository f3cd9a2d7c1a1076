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

}  // namespace blogsearch
