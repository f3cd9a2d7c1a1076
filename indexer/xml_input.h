// xml_input.h: turning the bytes of a feed into a libxml2 tree, safely.
//
// Private to the indexer (used by feed_parser.cc). read_xml has the text
// decoded to UTF-8 (encoding.h: BOM, HTTP charset, XML declaration, with
// Windows-1252 bytes in a UTF-8 feed and the control characters and NULs XML
// forbids repaired), then parses it strictly, without network, DTD or external
// entity loading, and within libxml2's default size and depth limits. Only
// when that parse reports an error is the text rewritten as well-formed XML
// (xml_repair.h) and parsed again; a document whose root element never
// closes clears ParsedFeed::complete. Everything recovered becomes one
// warning line each in `warnings`; input that yields no tree at all throws
// FeedError naming the file.
#pragma once

#include <libxml/tree.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "indexer/feed_parser.h"

namespace blogsearch {

struct XmlDocFree {
  void operator()(xmlDoc* doc) const { xmlFreeDoc(doc); }
};
using XmlDoc = std::unique_ptr<xmlDoc, XmlDocFree>;

// Never returns null. Throws FeedError (feed_parser.h). Warnings go to
// feed.warnings; feed.complete is cleared when the document was cut short.
// options.http_charset takes part in choosing the encoding.
XmlDoc read_xml(std::string_view bytes, const std::string& name, const ParseOptions& options,
                ParsedFeed& feed);

}  // namespace blogsearch
