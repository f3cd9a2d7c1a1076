// encoding.h: which character encoding a feed is in, and its text as UTF-8.
//
// Private to the indexer (used by xml_input.cc). Labels are read as the WHATWG
// Encoding Standard reads them (gb2312 is GBK read by the gb18030 decoder,
// Shift_JIS is windows-31j, big5 is Big5-HKSCS, latin1 and us-ascii are
// windows-1252, ...), plus UTF-32, which XML allows and the standard does not
// list. The encoding is chosen as RFC 7303 says: a byte order mark, then the
// HTTP charset, then the XML declaration; but the bytes overrule a label they
// contradict (a label for UTF-8 on bytes that are not, a legacy label on bytes
// that are valid UTF-8 with non-ASCII characters, a UTF-16 label on bytes that
// are ASCII-compatible). With nothing usable, UTF-8 with every byte that is not
// UTF-8 read as windows-1252.
//
// Nothing here fails: an unknown label, an encoding iconv lacks, a sequence the
// encoding cannot decode (it becomes U+FFFD and decoding goes on) each become
// one warning line naming the file. Valid UTF-8 is not copied.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace blogsearch {

// One encoding of the WHATWG Encoding Standard.
struct Encoding {
  enum class Kind {
    kUtf8,
    kUtf16Le,
    kUtf16Be,
    kUtf32Le,
    kUtf32Be,
    kAscii,        // ASCII bytes mean ASCII characters (windows-1252, GBK, Shift_JIS, ...)
    kSevenBit,     // escape sequences in ASCII bytes (ISO-2022-JP, HZ, ...)
  };
  const char* name;   // the standard's name: "UTF-8", "windows-1252", "GBK", ...
  const char* iconv;  // glibc iconv's name for its decoder ("" for one decoded here)
  Kind kind;
};

// The encoding a label names, ignoring case and surrounding blanks and
// quotes; nullptr when the label is unknown.
const Encoding* encoding_for_label(std::string_view label);

// The value of the encoding pseudo-attribute of an XML declaration within the
// first few kilobytes (junk may precede it); "" when there is none.
std::string declared_encoding(std::string_view bytes);

struct Utf8Text {
  // The document as UTF-8 without byte order mark and without the characters
  // XML forbids; a view of the input or of the caller's storage.
  std::string_view text;
  // What it was read as.
  const Encoding* encoding = nullptr;
  // libxml2 may trust the XML declaration (there is none, or it says UTF-8);
  // else it must be told the text is UTF-8 and to ignore the declaration.
  bool declaration_agrees = true;
};

// Decodes `bytes` (a whole document) to UTF-8. `http_charset` is the charset
// parameter of the HTTP Content-Type ("" for none); `storage` holds the text
// when it had to be copied; warnings name `name`.
Utf8Text decode_to_utf8(std::string_view bytes, std::string_view http_charset, const std::string& name,
                        std::string& storage, std::vector<std::string>& warnings);

}  // namespace blogsearch
