// xml_input.cc: encoding repair and a hardened libxml2 parse.
#include "indexer/xml_input.h"

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>

#include <climits>
#include <cstring>
#include <mutex>

#include "indexer/count.h"
#include "indexer/encoding.h"
#include "indexer/feed_parser.h"
#include "indexer/xml_cdata.h"
#include "indexer/xml_repair.h"

namespace blogsearch {
namespace {

// Recovery, but nothing fetched and nothing expanded that the document does
// not spell out: no XML_PARSE_NOENT (external entities stay unloaded), no
// XML_PARSE_DTDLOAD, and no XML_PARSE_HUGE, so libxml2 keeps its limits on
// text node size (10 MB), nesting depth (256) and entity amplification.
constexpr int kParseOptions = XML_PARSE_RECOVER | XML_PARSE_NONET | XML_PARSE_NOCDATA |
                              XML_PARSE_BIG_LINES | XML_PARSE_COMPACT | XML_PARSE_NOWARNING;

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

XmlDoc read_xml(std::string_view bytes, const std::string& name, const ParseOptions& parse_options,
                ParsedFeed& feed) {
  std::vector<std::string>& warnings = feed.warnings;
  static std::once_flag init;
  std::call_once(init, [] { xmlInitParser(); });

  if (is_blank(bytes)) throw FeedError(name + ": empty file, not a feed");
  if (bytes.size() > static_cast<std::size_t>(INT_MAX)) throw FeedError(name + ": too large to parse");

  // The text parsed is always UTF-8 (encoding.h decides and decodes), so
  // CDATA sections can be marked whatever the feed's encoding.
  const char* encoding = nullptr;
  int options = kParseOptions;
  std::string repaired;
  Utf8Text decoded = decode_to_utf8(bytes, parse_options.http_charset, name, repaired, warnings);
  std::string_view input = decoded.text;
  if (!decoded.declaration_agrees) {
    encoding = "UTF-8";
    options |= XML_PARSE_IGNORE_ENC;
  }
  if (input.size() > static_cast<std::size_t>(INT_MAX)) throw FeedError(name + ": too large to parse");

  auto parse_with = [&](std::string_view text, ErrorLog& log, int with) {
    ErrorCapture capture(&log);
    if (text.size() > static_cast<std::size_t>(INT_MAX)) return XmlDoc();
    return XmlDoc(xmlReadMemory(text.data(), static_cast<int>(text.size()), nullptr, encoding, with));
  };
  auto parse = [&](std::string_view text, ErrorLog& log) { return parse_with(text, log, options); };
  ErrorLog log;
  XmlDoc owned;
  std::string marked;
  std::vector<std::string_view> sections;
  if (mark_cdata_sections(input, marked, sections)) {
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
    if (again && second.count == 0) {
      warnings.push_back(name + ":" + std::to_string(log.first_line) + ": undeclared HTML entities (&" +
                         log.undeclared[0] + ";" + (log.undeclared.size() > 1 ? " and others" : "") +
                         ") read as characters");
      owned = std::move(again);
      log = std::move(second);
    }
  }
  std::string where = name + ":" + std::to_string(log.first_line);
  if (log.count > 0) {
    // The recovery path (xml_repair.h): libxml2's own recovery has lost
    // entities and items by now, so the document is rewritten as XML and
    // parsed again. Only broken documents get here.
    RepairOptions repair_options;
    repair_options.max_text_bytes = parse_options.max_text_bytes;
    RepairResult fixed;
    try {
      fixed = repair_xml(input, repair_options);
    } catch (const std::bad_alloc&) {
      throw;
    } catch (const std::exception&) {
      // A bug in the repair must not cost the feed: libxml2's recovery stands.
      fixed = RepairResult();
    }
    // The repair keeps every text node under the size it is given; past
    // libxml2's own 10 MB limit the parse must allow it.
    int reparse = options;
    if (repair_options.max_text_bytes + 8 >= 10000000) reparse |= XML_PARSE_HUGE;
    ErrorLog after;
    XmlDoc again;
    if (!fixed.root.empty()) {
      std::string marked_again;
      std::vector<std::string_view> sections_again;
      if (mark_cdata_sections(fixed.text, marked_again, sections_again)) {
        again = parse_with(marked_again, after, reparse);
        if (after.count > 0 || !again || !restore_cdata_sections(again.get(), sections_again)) {
          again.reset();
          after = ErrorLog();
        }
      }
      if (!again) again = parse_with(fixed.text, after, reparse);
    }
    // The repaired text is well-formed by construction; errors left in it
    // are limits libxml2 enforces (entity amplification), which the strict
    // parse would have met too had its recovery not stopped expanding.
    if (again && xmlDocGetRootElement(again.get()) != nullptr) {
      owned = std::move(again);
      std::string w = where + ": malformed XML, recovered: " + log.first_message;
      if (log.count > 1) w += " (and " + counted(log.count - 1, "more error", "more errors") + ")";
      std::string what = fixed.summary();
      if (!what.empty()) w += "; repaired: " + what;
      if (after.count > 0) w += "; then: " + after.first_message;
      warnings.push_back(std::move(w));
      log = ErrorLog();
    }
    if (!fixed.root.empty() && !fixed.root_closed) {
      feed.complete = false;
      warnings.push_back(name + ": document ends before </" + fixed.root +
                         "> (truncated?); only complete items kept");
    }
  }
  xmlDoc* doc = owned.get();
  if (!owned || xmlDocGetRootElement(doc) == nullptr) {
    throw FeedError(where + ": not XML" +
                    (log.count > 0 ? " (" + log.first_message + ")" : std::string()));
  }
  if (log.count > 0) {
    std::string w = where + ": malformed XML, recovered: " + log.first_message;
    if (log.count > 1) w += " (and " + counted(log.count - 1, "more error", "more errors") + ")";
    warnings.push_back(std::move(w));
  }
  return owned;
}

}  // namespace blogsearch
