// xml_cdata.h: rewriting CDATA sections of a feed as escaped character data,
// so that libxml2 parses them faster.
//
// Private to the indexer (used by xml_input.cc). Feeds carry their posts'
// HTML in CDATA sections, and libxml2 2.9 reads those one UTF-8 character at
// a time, while plain character data has a fast path: on blog-history the
// CDATA sections were 45% of all instructions of an ingest. With
// XML_PARSE_NOCDATA both forms give the same text nodes. The caller parses
// the original bytes again whenever the rewritten ones report any error:
// libxml2's recovery differs between the two forms (it drops entity
// references such as &lt; after an error, for one).
//
// Works on ASCII-compatible encodings only (UTF-8, Windows-1252). Never
// throws except std::bad_alloc.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace blogsearch {

// CDATA sections larger than this stay as they are: libxml2 limits CDATA
// and text nodes with different errors, and hostile feeds test that limit.
inline constexpr std::size_t kMaxRewrittenCdata = 1u << 20;

// Writes `in` to `out` with each CDATA section found in element content
// replaced by its text, '<' and '&' escaped as character references (and
// '>' where it would end a "]]>"). Returns false, leaving `out`
// unspecified, when there was nothing to rewrite or the markup is not plain
// enough to be sure where element content is (a DOCTYPE with an internal
// subset, '<' inside a tag, an unterminated comment, processing
// instruction, CDATA section or tag).
bool escape_cdata_sections(std::string_view in, std::string& out);

}  // namespace blogsearch
