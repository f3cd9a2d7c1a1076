// xml_cdata.h: keeping the text of CDATA sections out of libxml2's way.
//
// Private to the indexer (used by xml_input.cc). Feeds carry their posts'
// HTML in CDATA sections, and libxml2 2.9 reads those one UTF-8 character at
// a time: on blog-history that was 45% of all instructions of an ingest.
// So before parsing, each section in element content is replaced by a short
// marker naming it, and after parsing the markers in the tree's text nodes
// are replaced by the sections' text. With XML_PARSE_NOCDATA that gives the
// same tree as parsing the sections, at a third of the parse's cost (the
// rewrite before escaped the sections as character data instead, which
// libxml2 then had to decode).
//
// The caller parses the original bytes instead whenever the marked ones
// report any error (libxml2's recovery differs between the two forms: it
// drops entity references such as &lt; after an error, for one), or when
// restoring fails. Works on UTF-8 only: the sections' bytes go into the
// tree as they are. Never throws except std::bad_alloc.
#pragma once

#include <libxml/tree.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace blogsearch {

// CDATA sections larger than this stay as they are: libxml2 limits CDATA
// and text nodes with different errors, and hostile feeds test that limit.
inline constexpr std::size_t kMaxMarkedCdata = 1u << 20;

// Writes `in` to `out` with each CDATA section found in element content
// replaced by a marker (U+FDD0, its index in `sections`, U+FDD1), and
// `sections` pointing into `in` at their text. Returns false, leaving `out`
// and `sections` unspecified, when there was nothing to mark, when `in`
// already holds U+FDD0 or U+FDD1, or when the markup is not plain enough to
// be sure where element content is (a DOCTYPE with an internal subset, '<'
// inside a tag, an unterminated comment, processing instruction, CDATA
// section or tag).
bool mark_cdata_sections(std::string_view in, std::string& out, std::vector<std::string_view>& sections);

// Replaces the markers in the text nodes of `doc` by their sections' text,
// line ends normalised as XML does ("\r\n" and "\r" become "\n"). Returns
// false, with the tree partly restored, unless every marker was found once,
// in the order written (so one the document spelled as character references
// is caught), or when a text node would outgrow libxml2's limit on text
// (10,000,000 bytes): the document must then be parsed as it came.
bool restore_cdata_sections(xmlDoc* doc, const std::vector<std::string_view>& sections);

}  // namespace blogsearch
