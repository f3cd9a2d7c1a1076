// xml_input.cc: encoding repair and a hardened libxml2 parse.
#include "indexer/xml_input.h"

#include <iconv.h>
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>

#include <array>
#include <climits>
#include <cstdint>
#include <cstring>
#include <mutex>

#include "indexer/feed_parser.h"
#include "indexer/xml_cdata.h"

namespace blogsearch {
namespace {

// Recovery, but nothing fetched and nothing expanded that the document does
// not spell out: no XML_PARSE_NOENT (external entities stay unloaded), no
// XML_PARSE_DTDLOAD, and no XML_PARSE_HUGE, so libxml2 keeps its limits on
// text node size (10 MB), nesting depth (256) and entity amplification.
constexpr int kParseOptions = XML_PARSE_RECOVER | XML_PARSE_NONET | XML_PARSE_NOCDATA |
                              XML_PARSE_BIG_LINES | XML_PARSE_COMPACT | XML_PARSE_NOWARNING;

char lower_ascii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// The encoding named in the XML declaration, lowercased; "" when there is
// no declaration or it names none.
std::string declared_encoding(std::string_view b) {
  if (b.substr(0, 5) != "<?xml") return {};
  std::size_t end = b.find("?>");
  if (end == std::string_view::npos || end > 512) return {};
  std::string_view decl = b.substr(0, end);
  std::size_t at = decl.find("encoding");
  if (at == std::string_view::npos) return {};
  at = decl.find_first_of("\"'", at);
  if (at == std::string_view::npos) return {};
  std::size_t close = decl.find(decl[at], at + 1);
  if (close == std::string_view::npos) return {};
  std::string enc(decl.substr(at + 1, close - at - 1));
  for (char& c : enc) c = lower_ascii(c);
  return enc;
}

// The UTF-8 form of each Windows-1252 byte 0x80..0xFF, taken from iconv;
// the five bytes Windows-1252 leaves undefined become U+FFFD.
const std::array<std::string, 128>& windows1252_table() {
  static const std::array<std::string, 128> table = [] {
    std::array<std::string, 128> t;
    iconv_t cd = iconv_open("UTF-8", "WINDOWS-1252");
    for (int i = 0; i < 128; ++i) {
      char in = static_cast<char>(0x80 + i);
      char out[8];
      char* inp = &in;
      char* outp = out;
      std::size_t inleft = 1, outleft = sizeof out;
      if (cd != reinterpret_cast<iconv_t>(-1) &&
          iconv(cd, &inp, &inleft, &outp, &outleft) != static_cast<std::size_t>(-1)) {
        t[i].assign(out, outp);
      } else {
        t[i] = "\xEF\xBF\xBD";
      }
      if (cd != reinterpret_cast<iconv_t>(-1)) iconv(cd, nullptr, nullptr, nullptr, nullptr);
    }
    if (cd != reinterpret_cast<iconv_t>(-1)) iconv_close(cd);
    return t;
  }();
  return table;
}

enum class Byte { kOk, kInvalidUtf8, kForbidden };

// Classifies the sequence at p: valid UTF-8 (its length in `len`), a byte
// that is not UTF-8, or a character XML 1.0 forbids (C0 controls but tab,
// newline and return; U+FFFE and U+FFFF).
Byte classify(const unsigned char* p, const unsigned char* end, std::size_t& len) {
  unsigned char c = p[0];
  len = 1;
  if (c < 0x80) {
    return (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') ? Byte::kOk : Byte::kForbidden;
  }
  std::size_t n;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;  // no UTF-16 surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return Byte::kInvalidUtf8;
  }
  if (static_cast<std::size_t>(end - p) < n) return Byte::kInvalidUtf8;
  if (p[1] < lo || p[1] > hi) return Byte::kInvalidUtf8;
  for (std::size_t i = 2; i < n; ++i) {
    if (p[i] < 0x80 || p[i] > 0xBF) return Byte::kInvalidUtf8;
  }
  len = n;
  if (n == 3 && c == 0xEF && p[1] == 0xBF && (p[2] == 0xBE || p[2] == 0xBF)) return Byte::kForbidden;
  return Byte::kOk;
}

// Whether the eight bytes at p are all in 0x20..0x7F. A byte below 0x20
// borrows in the subtraction and sets a high bit; any false alarm only
// sends those bytes down the slow path.
bool all_printable_ascii(const unsigned char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return (((w - 0x2020202020202020u) | w) & 0x8080808080808080u) == 0;
}

// Offset of the first byte classify() objects to, or size.
std::size_t first_problem(std::string_view b) {
  const auto* p = reinterpret_cast<const unsigned char*>(b.data());
  const auto* end = p + b.size();
  const auto* start = p;
  while (p < end) {
    // Plain printable ASCII is nearly all of a feed; skip it quickly, eight
    // bytes at a time where it can.
    if (end - p >= 8 && all_printable_ascii(p)) {
      p += 8;
      continue;
    }
    if (*p >= 0x20 && *p < 0x80) {
      ++p;
      continue;
    }
    std::size_t len;
    if (classify(p, end, len) != Byte::kOk) return static_cast<std::size_t>(p - start);
    p += len;
  }
  return b.size();
}

struct Repair {
  std::string text;
  std::size_t windows1252 = 0;  // bytes re-read as Windows-1252
  std::size_t removed = 0;      // forbidden characters dropped
};

// Copies b from `from` on, re-reading each byte that is not UTF-8 as
// Windows-1252 (the usual mislabelling) and dropping forbidden characters,
// which libxml2 would otherwise stop at.
Repair repair_utf8(std::string_view b, std::size_t from) {
  const auto& table = windows1252_table();
  Repair r;
  r.text.reserve(b.size() + b.size() / 16);
  r.text.append(b.data(), from);
  const auto* p = reinterpret_cast<const unsigned char*>(b.data()) + from;
  const auto* end = reinterpret_cast<const unsigned char*>(b.data()) + b.size();
  while (p < end) {
    std::size_t len;
    switch (classify(p, end, len)) {
      case Byte::kOk:
        r.text.append(reinterpret_cast<const char*>(p), len);
        break;
      case Byte::kInvalidUtf8:
        r.text += table[*p - 0x80];
        ++r.windows1252;
        break;
      case Byte::kForbidden:
        ++r.removed;
        break;
    }
    p += len;
  }
  return r;
}

struct ErrorLog {
  int count = 0;
  int first_line = 0;
  std::string first_message;
  std::vector<std::string> undeclared;  // entity names used but never declared
};

void on_error(void* ctx, xmlErrorPtr err) {
  auto* log = static_cast<ErrorLog*>(ctx);
  if (err == nullptr || err->level < XML_ERR_ERROR) return;
  if (err->code == XML_ERR_UNDECLARED_ENTITY && err->str1 != nullptr && log->undeclared.size() < 64) {
    std::string entity = err->str1;
    bool known = false;
    for (const auto& u : log->undeclared) known = known || u == entity;
    if (!known) log->undeclared.push_back(std::move(entity));
  }
  if (log->count++ == 0) {
    log->first_line = err->line;
    std::string msg = err->message ? err->message : "unknown error";
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    for (char& c : msg) {
      if (c == '\n') c = ' ';
    }
    if (msg.size() > 160) msg.resize(160);
    log->first_message = std::move(msg);
  }
}

void ignore_generic(void*, const char*, ...) {}

// Routes this thread's libxml2 errors to an ErrorLog for one parse; the
// handlers are per-thread in libxml2, so parses on other threads are unaffected.
class ErrorCapture {
 public:
  explicit ErrorCapture(ErrorLog* log)
      : old_structured_(xmlStructuredError),
        old_structured_ctx_(xmlStructuredErrorContext),
        old_generic_(xmlGenericError),
        old_generic_ctx_(xmlGenericErrorContext) {
    xmlSetStructuredErrorFunc(log, on_error);
    xmlSetGenericErrorFunc(nullptr, ignore_generic);
  }
  ~ErrorCapture() {
    xmlSetStructuredErrorFunc(old_structured_ctx_, old_structured_);
    xmlSetGenericErrorFunc(old_generic_ctx_, old_generic_);
  }
  ErrorCapture(const ErrorCapture&) = delete;
  ErrorCapture& operator=(const ErrorCapture&) = delete;

 private:
  xmlStructuredErrorFunc old_structured_;
  void* old_structured_ctx_;
  xmlGenericErrorFunc old_generic_;
  void* old_generic_ctx_;
};

// Feeds written by HTML tools use HTML's entity names (&nbsp;, &eacute;)
// without declaring them, and libxml2 drops such references. Rewrites the
// named ones as character references, outside CDATA sections and comments;
// false when no name was an HTML entity.
bool rewrite_html_entities(std::string_view in, const std::vector<std::string>& names,
                           std::string& out) {
  out.clear();
  out.reserve(in.size() + 64);
  bool changed = false;
  std::size_t i = 0;
  while (i < in.size()) {
    char c = in[i];
    if (c == '<' && in.compare(i, 9, "<![CDATA[") == 0) {
      std::size_t end = in.find("]]>", i);
      end = end == std::string_view::npos ? in.size() : end + 3;
      out.append(in.substr(i, end - i));
      i = end;
      continue;
    }
    if (c == '<' && in.compare(i, 4, "<!--") == 0) {
      std::size_t end = in.find("-->", i);
      end = end == std::string_view::npos ? in.size() : end + 3;
      out.append(in.substr(i, end - i));
      i = end;
      continue;
    }
    if (c == '&') {
      std::size_t semi = in.find(';', i);
      if (semi != std::string_view::npos && semi - i <= 32) {
        std::string name(in.substr(i + 1, semi - i - 1));
        bool listed = false;
        for (const auto& n : names) listed = listed || n == name;
        const htmlEntityDesc* html =
            listed ? htmlEntityLookup(reinterpret_cast<const xmlChar*>(name.c_str())) : nullptr;
        if (html != nullptr) {
          out += "&#" + std::to_string(html->value) + ";";
          i = semi + 1;
          changed = true;
          continue;
        }
      }
    }
    out += c;
    ++i;
  }
  return changed;
}

bool is_blank(std::string_view b) {
  for (char c : b) {
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\0') return false;
  }
  return true;
}

}  // namespace

XmlDoc read_xml(std::string_view bytes, const std::string& name, const ParseOptions& /*options*/,
                ParsedFeed& feed) {
  std::vector<std::string>& warnings = feed.warnings;
  static std::once_flag init;
  std::call_once(init, [] { xmlInitParser(); });

  if (is_blank(bytes)) throw FeedError(name + ": empty file, not a feed");
  if (bytes.size() > static_cast<std::size_t>(INT_MAX)) throw FeedError(name + ": too large to parse");

  const char* encoding = nullptr;
  bool utf8 = false;  // the bytes parsed are UTF-8 (CDATA sections can be marked)
  int options = kParseOptions;
  std::string repaired;
  std::string_view input = bytes;

  bool utf8_bom = bytes.substr(0, 3) == "\xEF\xBB\xBF";
  bool wide = !utf8_bom && bytes.size() >= 2 &&
              (bytes[0] == '\0' || bytes[1] == '\0' || static_cast<unsigned char>(bytes[0]) >= 0xFE);
  std::string declared = (utf8_bom || wide) ? std::string() : declared_encoding(bytes);
  if (declared == "iso-8859-1" || declared == "latin1" || declared == "latin-1" ||
      declared == "iso8859-1") {
    // As browsers do: a feed labelled Latin-1 is read as its superset
    // Windows-1252, whose curly quotes and dashes it nearly always holds.
    encoding = "WINDOWS-1252";
    options |= XML_PARSE_IGNORE_ENC;
  } else if (!wide && (utf8_bom || declared.empty() || declared == "utf-8" || declared == "utf8" ||
                       declared == "us-ascii" || declared == "ascii")) {
    utf8 = true;
    std::size_t bad = first_problem(bytes);
    if (bad < bytes.size()) {
      Repair r = repair_utf8(bytes, bad);
      repaired = std::move(r.text);
      input = repaired;
      if (r.windows1252 > 0) {
        warnings.push_back(name + ": not valid UTF-8; " + std::to_string(r.windows1252) +
                           " byte(s) read as Windows-1252");
      }
      if (r.removed > 0) {
        warnings.push_back(name + ": " + std::to_string(r.removed) +
                           " character(s) not allowed in XML removed");
      }
    }
    if (!declared.empty() && declared.find("utf") == std::string::npos) {
      encoding = "UTF-8";
      options |= XML_PARSE_IGNORE_ENC;
    }
  }

  auto parse = [&](std::string_view text, ErrorLog& log) {
    ErrorCapture capture(&log);
    return XmlDoc(xmlReadMemory(text.data(), static_cast<int>(text.size()), nullptr, encoding, options));
  };
  ErrorLog log;
  XmlDoc owned;
  std::string marked;
  std::vector<std::string_view> sections;
  if (utf8 && mark_cdata_sections(input, marked, sections)) {
    owned = parse(marked, log);
    // Only a clean parse of the marked text is sure to equal the
    // original's (xml_cdata.h); anything else is parsed as it came.
    if (log.count > 0 || !owned || !restore_cdata_sections(owned.get(), sections)) {
      owned.reset();
      log = ErrorLog();
    }
  }
  if (!owned) owned = parse(input, log);
  std::string rewritten;
  if (!log.undeclared.empty() && rewrite_html_entities(input, log.undeclared, rewritten)) {
    ErrorLog second;
    XmlDoc again = parse(rewritten, second);
    if (again && second.count < log.count) {
      warnings.push_back(name + ":" + std::to_string(log.first_line) + ": undeclared HTML entities (&" +
                         log.undeclared[0] + ";" + (log.undeclared.size() > 1 ? " and others" : "") +
                         ") read as characters");
      owned = std::move(again);
      log = std::move(second);
    }
  }
  xmlDoc* doc = owned.get();
  std::string where = name + ":" + std::to_string(log.first_line);
  if (!owned || xmlDocGetRootElement(doc) == nullptr) {
    throw FeedError(where + ": not XML" +
                    (log.count > 0 ? " (" + log.first_message + ")" : std::string()));
  }
  if (log.count > 0) {
    std::string w = where + ": malformed XML, recovered: " + log.first_message;
    if (log.count > 1) w += " (and " + std::to_string(log.count - 1) + " more errors)";
    warnings.push_back(std::move(w));
  }
  return owned;
}

}  // namespace blogsearch
