// link_key.h: links compared the way people type them, for `blogsearch show
// URL` and the post page; and the key that tells two posts apart as copies
// of one (schema::kSlotDuplicateKey).
//
// link_key() reduces an absolute URL to what tells posts apart: the scheme
// goes when it is http or https, the host is lowercased and loses "www.",
// a default port and userinfo, the path keeps its case but loses trailing
// slashes and gets its escapes made canonical (canonical_escapes: as the
// indexer stores links, non-ASCII bytes escaped), the query loses utm_* and other
// click-tracking parameters, and the fragment goes. So
// "HTTP://www.Example.org/Post/?utm_source=x#top" and
// "https://example.org/Post" have one key.
//
// It is a comparison key, not a URL to fetch: the split into scheme,
// authority, path, query and fragment is RFC 3986's (appendix B), and
// nothing is resolved. (The CLI links statically, and uriparser is only a
// shared library; libcurl's URL API is the indexer's.) Returns "" for
// anything that is not an absolute URL with a host. Never throws (except
// std::bad_alloc).
#pragma once

#include <string>
#include <string_view>

namespace blogsearch {

std::string link_key(std::string_view url);

// `url` with its percent escapes as link_key() writes them: an escape of
// an unreserved character decoded ("%7e" -> "~"), the others in upper case
// ("%2f" -> "%2F"), and bytes a URL may not hold as they are escaped.
std::string canonical_escapes(std::string_view url);

// The host part of link_key (lowercase, no "www.", no port): "" when none.
std::string link_key_host(std::string_view url);

// The link a search query is when it is one pasted link and nothing else
// (white space around it aside): "http://..." or "https://..." as it is,
// and "host.tld/path..." (a host with a dot, then a slash) with "https://"
// before it. "" for anything else: words, "site:x.org", "node.js".
std::string pasted_link(std::string_view query);

// The key that copies of one post share: its link as two feeds of one
// blog give it (http and https, "www.", a trailing slash, tracking
// parameters) or one site at two addresses (a language's path first:
// /de/updates/x and /updates/x), then its title. The link is link_key()'s
// with its fragment kept, for the posts of a page told apart by their
// fragments (ziglang.org/devlog/2026/#2026-06-30), and a first path
// segment of two letters, or two and a region ("pt-br"), dropped. The title
// (ASCII letters lowercased, runs of white space as one space) keeps apart
// the posts of a feed whose items all link to one page. "" when link_key()
// gives "".
std::string duplicate_key(std::string_view url, std::string_view title);

}  // namespace blogsearch
