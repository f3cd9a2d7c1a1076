// xml_repair.h: rewriting broken feed markup as well-formed XML.
//
// Private to the indexer (used by xml_input.cc, and only after the strict
// parse of a document reported an error, so well-formed feeds never pay for
// it). libxml2's own recovery is no substitute: after its first error it
// drops every predefined entity (&amp; &lt; ...), and it loses whatever
// follows raw HTML, a missing </item> or an unquoted attribute.
//
// repair_xml is a tolerant tokenizer in one forward pass: it re-emits what it
// reads as XML a strict parser accepts, fixing the classes of fault real
// feeds have (see Fix), and reports what it fixed. The input is UTF-8 (as
// read_xml decodes every feed): the declaration's encoding label is dropped,
// markup bytes are ASCII and every other byte is copied as it is. It never
// throws except std::bad_alloc; time and memory
// are linear in the input (the output is at most about five times the input,
// when every byte is a '<' to escape).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace blogsearch {

// What the repair can fix; each is counted in RepairResult::fixes.
enum class Fix {
  kJunkBeforeDeclaration,  // whitespace, comment or text before <?xml
  kJunkBeforeRoot,         // a PHP warning or stray markup before the root element
  kBareAmpersand,          // '&' not starting a reference -> &amp;
  kBareLessThan,           // '<' not starting a tag -> &lt;
  kHtmlEntity,             // &nbsp; &eacute; ... -> numeric references
  kUnknownEntity,          // &foo; (declared nowhere) kept as the text "&foo;"
  kCharReference,          // &#X41; spelled with a capital X, or naming no XML character
  kRawHtml,                // markup inside a text element (counted per element, see raw_html)
  kUnquotedAttribute,      // isPermaLink=false
  kAttributeWithoutValue,  // <option selected>
  kDuplicateAttribute,     // the later copies dropped
  kBrokenTag,              // a tag with stray characters, or cut off by '<'
  kMissingCloseTag,        // an element closed by its parent's close tag, the next <item>, or EOF
  kStrayCloseTag,          // a close tag matching nothing open
  kUndeclaredPrefix,       // dc:, content:, media: ... used without xmlns
  kDeepNesting,            // elements nested past the bound, kept as text
  kControlCharacter,       // a character XML forbids
  kUnterminated,           // a CDATA section, comment, tag or PI open at EOF
  kTextCut,                // an element's text past max_text_bytes
  kAfterRoot,              // anything after the root element closed
  kCount
};

struct RepairOptions {
  // Text of one element past this many bytes is cut (the parser's callers
  // cap fields at this size anyway; cutting early keeps every text node
  // under libxml2's 10 MB limit at the default).
  std::size_t max_text_bytes = 8u << 20;
  // Elements nested deeper than this are written as text instead.
  std::size_t max_depth = 200;
};

struct RepairResult {
  std::string text;  // the repaired document, same encoding as the input
  std::array<std::size_t, static_cast<std::size_t>(Fix::kCount)> fixes{};
  // Raw HTML escaped as text, by element name (first few names only).
  std::vector<std::pair<std::string, std::size_t>> raw_html;
  std::string root;         // qualified name of the root element; "" if none
  bool root_closed = true;  // false: the input ended with the root still open
  std::size_t items_dropped = 0;  // <item>/<entry> cut off by the end of input
  // Total of fixes; 0 means the input needed nothing this tokenizer fixes.
  std::size_t total() const;
  // "bare '&' (3), raw HTML in <description> (2)"; "" when nothing was fixed.
  std::string summary() const;
  // Whether the only fixes were HTML entity names turned into references.
  bool only_html_entities() const;
};

RepairResult repair_xml(std::string_view in, const RepairOptions& options = {});

}  // namespace blogsearch
