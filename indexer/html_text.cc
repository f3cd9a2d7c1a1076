// html_text.cc: HTML fragment -> plain text, with Gumbo doing the HTML5
// parsing (tokenizing, entities, implied tags) and this file deciding which
// text counts and where words break.

#include "indexer/html_text.h"

#include <gumbo.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstddef>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "common/utf8.h"

namespace blogsearch {
namespace {

// Gumbo 0.10.1 has no max-depth option: its tree builder scans the whole
// stack of open elements for every start tag (quadratic in depth: 100,000
// nested divs take ~20 s) and it overflows the C stack somewhere below a
// million levels. Real posts nest a few dozen levels deep, so anything past
// this estimated depth is flattened before Gumbo sees it.
constexpr int kMaxDepth = 256;

// Gumbo takes an unsigned int length; nobody posts 2 GB, but never wrap.
constexpr std::size_t kMaxInput = static_cast<std::size_t>(INT_MAX);

// ---- Tag classes ------------------------------------------------------------

enum TagClass : unsigned char {
  kInline = 0,
  kBlock = 1,  // separates words before and after
  kSkip = 2,   // element and everything inside it is not text
};

std::array<TagClass, GUMBO_TAG_LAST + 1> make_tag_classes() {
  std::array<TagClass, GUMBO_TAG_LAST + 1> c{};
  for (GumboTag t : {GUMBO_TAG_SCRIPT, GUMBO_TAG_STYLE, GUMBO_TAG_NOSCRIPT,
                     GUMBO_TAG_TEMPLATE,
                     // Fallback content shown only by browsers that lack the
                     // feature: never what a reader of the post sees.
                     GUMBO_TAG_IFRAME, GUMBO_TAG_NOEMBED, GUMBO_TAG_NOFRAMES})
    c[t] = kSkip;
  for (GumboTag t :
       {GUMBO_TAG_HTML,       GUMBO_TAG_HEAD,     GUMBO_TAG_TITLE,
        GUMBO_TAG_BODY,       GUMBO_TAG_ARTICLE,  GUMBO_TAG_SECTION,
        GUMBO_TAG_NAV,        GUMBO_TAG_ASIDE,    GUMBO_TAG_H1,
        GUMBO_TAG_H2,         GUMBO_TAG_H3,       GUMBO_TAG_H4,
        GUMBO_TAG_H5,         GUMBO_TAG_H6,       GUMBO_TAG_HGROUP,
        GUMBO_TAG_HEADER,     GUMBO_TAG_FOOTER,   GUMBO_TAG_ADDRESS,
        GUMBO_TAG_P,          GUMBO_TAG_HR,       GUMBO_TAG_PRE,
        GUMBO_TAG_BLOCKQUOTE, GUMBO_TAG_OL,       GUMBO_TAG_UL,
        GUMBO_TAG_LI,         GUMBO_TAG_DL,       GUMBO_TAG_DT,
        GUMBO_TAG_DD,         GUMBO_TAG_FIGURE,   GUMBO_TAG_FIGCAPTION,
        GUMBO_TAG_MAIN,       GUMBO_TAG_DIV,      GUMBO_TAG_BR,
        GUMBO_TAG_IMG,        GUMBO_TAG_VIDEO,    GUMBO_TAG_AUDIO,
        GUMBO_TAG_CANVAS,     GUMBO_TAG_OBJECT,   GUMBO_TAG_EMBED,
        GUMBO_TAG_MATH,       GUMBO_TAG_SVG,      GUMBO_TAG_TABLE,
        GUMBO_TAG_CAPTION,    GUMBO_TAG_COLGROUP, GUMBO_TAG_COL,
        GUMBO_TAG_TBODY,      GUMBO_TAG_THEAD,    GUMBO_TAG_TFOOT,
        GUMBO_TAG_TR,         GUMBO_TAG_TD,       GUMBO_TAG_TH,
        GUMBO_TAG_FORM,       GUMBO_TAG_FIELDSET, GUMBO_TAG_LEGEND,
        GUMBO_TAG_INPUT,      GUMBO_TAG_BUTTON,   GUMBO_TAG_SELECT,
        GUMBO_TAG_DATALIST,   GUMBO_TAG_OPTGROUP, GUMBO_TAG_OPTION,
        GUMBO_TAG_TEXTAREA,   GUMBO_TAG_OUTPUT,   GUMBO_TAG_PROGRESS,
        GUMBO_TAG_METER,      GUMBO_TAG_DETAILS,  GUMBO_TAG_SUMMARY,
        GUMBO_TAG_MENU,       GUMBO_TAG_DIR,      GUMBO_TAG_FRAMESET,
        GUMBO_TAG_LISTING,    GUMBO_TAG_XMP,      GUMBO_TAG_PLAINTEXT,
        GUMBO_TAG_CENTER,     GUMBO_TAG_MARQUEE,  GUMBO_TAG_MULTICOL,
        GUMBO_TAG_RT,         GUMBO_TAG_RP})
    c[t] = kBlock;
  return c;
}

TagClass tag_class(GumboTag tag) {
  static const std::array<TagClass, GUMBO_TAG_LAST + 1> classes = make_tag_classes();
  return tag <= GUMBO_TAG_LAST ? classes[tag] : kInline;
}

bool is_void(GumboTag tag) {
  switch (tag) {
    case GUMBO_TAG_AREA: case GUMBO_TAG_BASE: case GUMBO_TAG_BR:
    case GUMBO_TAG_COL: case GUMBO_TAG_EMBED: case GUMBO_TAG_HR:
    case GUMBO_TAG_IMG: case GUMBO_TAG_IMAGE: case GUMBO_TAG_INPUT:
    case GUMBO_TAG_KEYGEN: case GUMBO_TAG_LINK: case GUMBO_TAG_META:
    case GUMBO_TAG_PARAM: case GUMBO_TAG_SOURCE: case GUMBO_TAG_TRACK:
    case GUMBO_TAG_WBR: case GUMBO_TAG_BASEFONT: case GUMBO_TAG_BGSOUND:
    case GUMBO_TAG_FRAME: case GUMBO_TAG_ISINDEX: case GUMBO_TAG_MENUITEM:
      return true;
    default:
      return false;
  }
}

// Elements whose content the HTML tokenizer reads as raw text up to the
// matching end tag (so a "<div>" inside them is not a tag).
bool is_raw_text(GumboTag tag) {
  switch (tag) {
    case GUMBO_TAG_SCRIPT: case GUMBO_TAG_STYLE: case GUMBO_TAG_TEXTAREA:
    case GUMBO_TAG_TITLE: case GUMBO_TAG_XMP: case GUMBO_TAG_IFRAME:
    case GUMBO_TAG_NOEMBED: case GUMBO_TAG_NOFRAMES:
      return true;
    default:
      return false;
  }
}

// ---- Whitespace-collapsing, UTF-8-repairing output ---------------------------

// Length of the valid UTF-8 sequence at s[i], or 0 if it is not one.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  std::uint32_t cp = 0;
  return utf8::decode(s, i, cp);
}

// Unicode space separators (Zs, plus line/paragraph separators) that are
// not ASCII: a no-break space between words is still a word break.
bool is_unicode_space(std::string_view s, std::size_t i, std::size_t len) {
  auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  if (len == 2) return b(0) == 0xC2 && b(1) == 0xA0;  // U+00A0
  if (len != 3) return false;
  if (b(0) == 0xE1) return b(1) == 0x9A && b(2) == 0x80;  // U+1680
  if (b(0) == 0xE3) return b(1) == 0x80 && b(2) == 0x80;  // U+3000
  if (b(0) != 0xE2) return false;
  if (b(1) == 0x80)  // U+2000..U+200A, U+2028, U+2029, U+202F
    return b(2) <= 0x8A || b(2) == 0xA8 || b(2) == 0xA9 || b(2) == 0xAF;
  return b(1) == 0x81 && b(2) == 0x9F;  // U+205F
}

class TextSink {
 public:
  explicit TextSink(std::size_t expected) { out_.reserve(expected); }

  // A word break: becomes one space, but only between two pieces of text.
  void separate() { pending_space_ = true; }

  void append(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
      const unsigned char c = static_cast<unsigned char>(s[i]);
      if (c < 0x80) {
        // Control characters are invisible; treating them as spaces keeps
        // them out of terms and out of JSON escapes.
        if (c <= 0x20 || c == 0x7F) {
          pending_space_ = true;
        } else {
          put_pending();
          out_ += static_cast<char>(c);
        }
        ++i;
        continue;
      }
      const std::size_t len = utf8_length(s, i);
      if (len == 0) {
        put_pending();
        out_ += "\xEF\xBF\xBD";  // U+FFFD for each bad byte
        ++i;
      } else if (is_unicode_space(s, i, len)) {
        pending_space_ = true;
        i += len;
      } else {
        put_pending();
        out_.append(s.data() + i, len);
        i += len;
      }
    }
  }

  std::string take() { return std::move(out_); }

 private:
  void put_pending() {
    if (pending_space_ && !out_.empty()) out_ += ' ';
    pending_space_ = false;
  }

  std::string out_;
  bool pending_space_ = false;
};

// ---- Depth guard -------------------------------------------------------------

bool ascii_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool ascii_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

// Where the tag starting at html[lt] ('<') ends (index after '>'), honouring
// quoted attribute values; html.size() if it never ends.
std::size_t tag_end(std::string_view html, std::size_t lt) {
  std::size_t i = lt + 1;
  while (i < html.size()) {
    const char c = html[i];
    if (c == '>') return i + 1;
    if (c == '=') {
      ++i;
      while (i < html.size() && ascii_space(html[i])) ++i;
      if (i < html.size() && (html[i] == '"' || html[i] == '\'')) {
        const std::size_t close = html.find(html[i], i + 1);
        if (close == std::string_view::npos) return html.size();
        i = close + 1;
      }
      continue;
    }
    ++i;
  }
  return html.size();
}

// Case-insensitive search for "</name" from `from`; html.size() if absent.
std::size_t find_end_tag(std::string_view html, std::size_t from, std::string_view name) {
  for (std::size_t i = html.find("</", from); i != std::string_view::npos;
       i = html.find("</", i + 2)) {
    if (html.size() - i - 2 < name.size()) break;
    bool same = true;
    for (std::size_t k = 0; k < name.size() && same; ++k) {
      char a = html[i + 2 + k];
      if (a >= 'A' && a <= 'Z') a = static_cast<char>(a - 'A' + 'a');
      same = a == name[k];
    }
    if (same) return i;
  }
  return html.size();
}

// A lightweight scan of the tag structure. It over-estimates depth (it does
// not know which end tags HTML implies), which only means a little more
// gets flattened. Returns whether some start tag lies past kMaxDepth. With
// `rewrite` null it stops there; otherwise it copies the input to *rewrite
// with every start tag past kMaxDepth (and as many end tags after it)
// replaced by a space for block elements or nothing for inline ones, and
// skip-class elements past the limit dropped with their content.
bool scan_depth(std::string_view html, std::string* rewrite) {
  int depth = 0;
  bool too_deep = false;
  int excess = 0;        // start tags dropped and not yet closed
  int skip_level = 0;    // > 0 while inside a dropped skip-class element
  std::size_t copied = 0;  // html[0, copied) is already in *rewrite
  auto emit_up_to = [&](std::size_t pos) {
    if (rewrite && skip_level == 0) rewrite->append(html.substr(copied, pos - copied));
    copied = pos;
  };
  std::size_t i = 0;
  while ((i = html.find('<', i)) != std::string_view::npos) {
    const std::size_t lt = i;
    if (html.compare(lt, 4, "<!--") == 0) {
      const std::size_t close = html.find("-->", lt + 4);
      i = close == std::string_view::npos ? html.size() : close + 3;
      continue;
    }
    const bool end_tag = lt + 1 < html.size() && html[lt + 1] == '/';
    const std::size_t name_at = lt + (end_tag ? 2 : 1);
    if (name_at >= html.size() || !ascii_alpha(html[name_at])) {
      // "<!doctype", "<?php", "< 3", "</ >": bogus comments or plain text.
      i = (lt + 1 < html.size() && (html[lt + 1] == '!' || html[lt + 1] == '?' || end_tag))
              ? tag_end(html, lt)
              : lt + 1;
      continue;
    }
    std::size_t name_end = name_at;
    while (name_end < html.size() && !ascii_space(html[name_end]) && html[name_end] != '/' &&
           html[name_end] != '>')
      ++name_end;
    const std::string_view name = html.substr(name_at, name_end - name_at);
    const GumboTag tag = gumbo_tagn_enum(name.data(), static_cast<unsigned>(name.size()));
    const std::size_t end = tag_end(html, lt);

    if (end_tag) {
      if (skip_level > 0 || excess > 0) {
        emit_up_to(lt);
        if (rewrite && skip_level == 0 && tag_class(tag) == kBlock) *rewrite += ' ';
        copied = end;
        if (skip_level > 0) --skip_level; else --excess;
      } else if (depth > 0) {
        --depth;
      }
      i = end;
      continue;
    }

    if (is_void(tag)) {
      i = end;
      continue;
    }
    std::size_t after = end;
    if (is_raw_text(tag)) {
      std::string lower(name);
      for (char& ch : lower)
        if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
      after = find_end_tag(html, end, lower);
    }
    if (skip_level > 0) {
      ++skip_level;
    } else if (depth >= kMaxDepth) {
      too_deep = true;
      if (!rewrite) return true;
      emit_up_to(lt);
      if (tag_class(tag) == kSkip) {
        skip_level = 1;
      } else {
        if (rewrite && tag_class(tag) == kBlock) *rewrite += ' ';
        ++excess;
      }
      copied = end;
    } else {
      ++depth;
    }
    i = after;
  }
  emit_up_to(html.size());
  return too_deep;
}

// ---- Fast path -----------------------------------------------------------------

// Most feed HTML is plain markup: well-nested paragraphs, lists, headings,
// links and emphasis, a handful of entities. For that, Gumbo's tree is just
// the nesting as written, so the text the walk below would collect can be
// read straight off the tokens, several times faster than Gumbo builds the
// tree (stripping every distinct item is most of an ingest's work). The
// fast path takes only input where that is certain, and gives up (nullopt,
// and Gumbo does it) at the first thing where HTML5's tree building could
// differ: a tag outside the list below, a misnested or unclosed element, a
// block start inside an open <p>, <li> in <li>, <a> in <a>, a heading in a
// heading, an unusual entity, comment, control character or bad UTF-8.
// The fuzzer (fuzz/html_text_fuzz.cc) checks that both give the same text.

bool fast_tag_allowed(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_A: case GUMBO_TAG_ABBR: case GUMBO_TAG_B: case GUMBO_TAG_BDI:
    case GUMBO_TAG_BDO: case GUMBO_TAG_BLOCKQUOTE: case GUMBO_TAG_BR: case GUMBO_TAG_CITE:
    case GUMBO_TAG_CODE: case GUMBO_TAG_DD: case GUMBO_TAG_DEL: case GUMBO_TAG_DFN:
    case GUMBO_TAG_DIV: case GUMBO_TAG_DL: case GUMBO_TAG_DT: case GUMBO_TAG_EM:
    case GUMBO_TAG_FIGCAPTION: case GUMBO_TAG_FIGURE: case GUMBO_TAG_H1: case GUMBO_TAG_H2:
    case GUMBO_TAG_H3: case GUMBO_TAG_H4: case GUMBO_TAG_H5: case GUMBO_TAG_H6:
    case GUMBO_TAG_HR: case GUMBO_TAG_I: case GUMBO_TAG_IMG: case GUMBO_TAG_INS:
    case GUMBO_TAG_KBD: case GUMBO_TAG_LI: case GUMBO_TAG_MARK: case GUMBO_TAG_OL:
    case GUMBO_TAG_P: case GUMBO_TAG_PRE: case GUMBO_TAG_Q: case GUMBO_TAG_S:
    case GUMBO_TAG_SAMP: case GUMBO_TAG_SMALL: case GUMBO_TAG_SPAN: case GUMBO_TAG_STRONG:
    case GUMBO_TAG_SUB: case GUMBO_TAG_SUP: case GUMBO_TAG_TIME: case GUMBO_TAG_U:
    case GUMBO_TAG_UL: case GUMBO_TAG_VAR: case GUMBO_TAG_SECTION: case GUMBO_TAG_ARTICLE:
    case GUMBO_TAG_HEADER: case GUMBO_TAG_FOOTER: case GUMBO_TAG_ASIDE: case GUMBO_TAG_NAV:
    case GUMBO_TAG_MAIN: case GUMBO_TAG_WBR:
      return true;
    default:
      return false;
  }
}

bool is_heading(GumboTag t) { return t >= GUMBO_TAG_H1 && t <= GUMBO_TAG_H6; }

// Start tags that close an open <p> (HTML5 "in body"), of the allowed ones.
bool closes_p(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_BLOCKQUOTE: case GUMBO_TAG_DIV: case GUMBO_TAG_DL: case GUMBO_TAG_FIGCAPTION:
    case GUMBO_TAG_FIGURE: case GUMBO_TAG_FOOTER: case GUMBO_TAG_HEADER: case GUMBO_TAG_MAIN:
    case GUMBO_TAG_NAV: case GUMBO_TAG_OL: case GUMBO_TAG_P: case GUMBO_TAG_SECTION:
    case GUMBO_TAG_UL: case GUMBO_TAG_ARTICLE: case GUMBO_TAG_ASIDE: case GUMBO_TAG_PRE:
    case GUMBO_TAG_HR: case GUMBO_TAG_LI: case GUMBO_TAG_DD: case GUMBO_TAG_DT:
      return true;
    default:
      return is_heading(t);
  }
}

// HTML5's "special" elements, of the allowed ones: they stop the search for
// an open <li>, <dd> or <dt> that a new one would close.
bool is_special(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_A: case GUMBO_TAG_ABBR: case GUMBO_TAG_B: case GUMBO_TAG_BDI:
    case GUMBO_TAG_BDO: case GUMBO_TAG_CITE: case GUMBO_TAG_CODE: case GUMBO_TAG_DEL:
    case GUMBO_TAG_DFN: case GUMBO_TAG_EM: case GUMBO_TAG_I: case GUMBO_TAG_INS:
    case GUMBO_TAG_KBD: case GUMBO_TAG_MARK: case GUMBO_TAG_Q: case GUMBO_TAG_S:
    case GUMBO_TAG_SAMP: case GUMBO_TAG_SMALL: case GUMBO_TAG_SPAN: case GUMBO_TAG_STRONG:
    case GUMBO_TAG_SUB: case GUMBO_TAG_SUP: case GUMBO_TAG_TIME: case GUMBO_TAG_U:
    case GUMBO_TAG_VAR:
      return false;
    default:
      return true;
  }
}

bool ascii_alnum(char c) { return ascii_alpha(c) || (c >= '0' && c <= '9'); }

// Code points the fast path leaves to Gumbo: controls other than the
// spaces, C1 controls, noncharacters (Gumbo reports or replaces them).
bool fast_code_point_ok(std::uint32_t cp) {
  if (cp < 0x20) return cp == '\t' || cp == '\n' || cp == '\f' || cp == '\r';
  if (cp >= 0x7F && cp <= 0x9F) return false;
  if (cp >= 0xFDD0 && cp <= 0xFDEF) return false;
  return (cp & 0xFFFE) != 0xFFFE;
}

// The character reference at html[i] ('&'), with its semicolon: its code
// point and length, or 0 when the fast path does not know it.
std::size_t fast_reference(std::string_view html, std::size_t i, std::uint32_t& cp) {
  static const struct {
    const char* name;
    std::uint32_t cp;
  } kNamed[] = {{"amp", '&'},      {"lt", '<'},       {"gt", '>'},       {"quot", '"'},
                {"apos", '\''},    {"nbsp", 0xA0},    {"auml", 0xE4},    {"ouml", 0xF6},
                {"uuml", 0xFC},    {"Auml", 0xC4},    {"Ouml", 0xD6},    {"Uuml", 0xDC},
                {"szlig", 0xDF},   {"eacute", 0xE9},  {"mdash", 0x2014}, {"ndash", 0x2013},
                {"hellip", 0x2026}, {"lsquo", 0x2018}, {"rsquo", 0x2019}, {"ldquo", 0x201C},
                {"rdquo", 0x201D}, {"copy", 0xA9},    {"middot", 0xB7},  {"times", 0xD7}};
  const std::size_t semi = html.find(';', i + 1);
  if (semi == std::string_view::npos || semi - i > 12) return 0;
  std::string_view name = html.substr(i + 1, semi - i - 1);
  if (name.size() >= 2 && name[0] == '#') {
    const bool hex = name[1] == 'x' || name[1] == 'X';
    std::uint32_t v = 0;
    std::size_t k = hex ? 2 : 1;
    if (k >= name.size() || name.size() - k > 6) return 0;
    for (; k < name.size(); ++k) {
      const char c = name[k];
      int d = c >= '0' && c <= '9' ? c - '0' : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10
                                               : hex && c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (d < 0) return 0;
      v = v * (hex ? 16 : 10) + static_cast<std::uint32_t>(d);
    }
    // Gumbo remaps or replaces the rest (0, C1 controls, surrogates...).
    if (!((v >= 0x20 && v < 0x7F) || (v >= 0xA0 && v < 0xD800) || (v >= 0xE000 && v < 0xFDD0))) return 0;
    cp = v;
    return semi - i + 1;
  }
  for (const auto& n : kNamed)
    if (name == n.name) {
      cp = n.cp;
      return semi - i + 1;
    }
  return 0;
}

std::optional<std::string> fast_text(std::string_view html) {
  // Whole input: valid UTF-8 of code points Gumbo passes on as they are.
  for (std::size_t i = 0; i < html.size();) {
    const unsigned char c = static_cast<unsigned char>(html[i]);
    std::uint32_t cp = c;
    std::size_t len = 1;
    if (c >= 0x80 && (len = utf8::decode(html, i, cp)) == 0) return std::nullopt;
    if (!fast_code_point_ok(cp)) return std::nullopt;
    i += len;
  }
  TextSink sink(html.size() / 2);
  std::vector<GumboTag> open;
  std::string piece;
  std::size_t i = 0;
  const std::size_t n = html.size();
  auto lower_name = [&](std::size_t from, std::size_t& to) {
    std::string name;
    to = from;
    while (to < n && ascii_alnum(html[to])) {
      char c = html[to++];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      name += c;
    }
    return name;
  };
  while (i < n) {
    const std::size_t next = html.find_first_of("<&", i);
    const std::size_t stop = next == std::string_view::npos ? n : next;
    sink.append(html.substr(i, stop - i));
    i = stop;
    if (i >= n) break;
    if (html[i] == '&') {
      std::uint32_t cp = 0;
      const char after = i + 1 < n ? html[i + 1] : ' ';
      if (ascii_alnum(after) || after == '#') {
        const std::size_t len = fast_reference(html, i, cp);
        if (len == 0) return std::nullopt;
        piece.clear();
        utf8::append(piece, cp);
        sink.append(piece);
        i += len;
      } else {
        sink.append("&");
        ++i;
      }
      continue;
    }
    // '<'
    if (html.compare(i, 4, "<!--") == 0) {
      const std::size_t body = i + 4;
      const std::size_t close = html.find("-->", body);
      if (close == std::string_view::npos) return std::nullopt;
      std::string_view inside = html.substr(body, close - body);
      if ((!inside.empty() && inside[0] == '>') || inside.rfind("->", 0) == 0 ||
          inside.find("--!>") != std::string_view::npos || inside.find("<!--") != std::string_view::npos)
        return std::nullopt;
      i = close + 3;
      continue;
    }
    const bool end_tag = i + 1 < n && html[i + 1] == '/';
    const std::size_t name_at = i + (end_tag ? 2 : 1);
    if (name_at >= n || !ascii_alpha(html[name_at])) return std::nullopt;
    std::size_t j = 0;
    const std::string name = lower_name(name_at, j);
    const GumboTag tag = gumbo_tag_enum(name.c_str());
    if (tag == GUMBO_TAG_UNKNOWN || !fast_tag_allowed(tag)) return std::nullopt;
    if (end_tag) {
      while (j < n && ascii_space(html[j])) ++j;
      if (j >= n || html[j] != '>') return std::nullopt;
      // A </p> with no <p> open makes an empty paragraph: a word break.
      if (tag == GUMBO_TAG_P && std::find(open.begin(), open.end(), GUMBO_TAG_P) == open.end()) {
        sink.separate();
        i = j + 1;
        continue;
      }
      if (is_void(tag) || open.empty() || open.back() != tag) return std::nullopt;
      open.pop_back();
      if (tag_class(tag) == kBlock) sink.separate();
      i = j + 1;
      continue;
    }
    // Attributes: only an image's alt is read; the rest must be plain enough
    // to be sure where the tag ends.
    std::optional<std::string> alt;
    bool self_closing = false;
    for (;;) {
      const std::size_t before = j;
      while (j < n && ascii_space(html[j])) ++j;
      if (j >= n) return std::nullopt;
      if (html[j] == '>') break;
      if (html[j] == '/') {
        if (j + 1 < n && html[j + 1] == '>') {
          self_closing = true;
          ++j;
          break;
        }
        return std::nullopt;
      }
      if (j == before) return std::nullopt;  // no space before the attribute
      const std::size_t attr_at = j;
      while (j < n && !ascii_space(html[j]) && html[j] != '/' && html[j] != '>' && html[j] != '=') {
        const char c = html[j];
        if (c == '"' || c == '\'' || c == '<') return std::nullopt;
        ++j;
      }
      if (j == attr_at) return std::nullopt;
      std::string attr(html.substr(attr_at, j - attr_at));
      for (char& c : attr)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      std::size_t k = j;
      while (k < n && ascii_space(html[k])) ++k;
      std::string_view value;
      if (k < n && html[k] == '=') {
        ++k;
        while (k < n && ascii_space(html[k])) ++k;
        if (k >= n) return std::nullopt;
        if (html[k] == '"' || html[k] == '\'') {
          const std::size_t close = html.find(html[k], k + 1);
          if (close == std::string_view::npos) return std::nullopt;
          value = html.substr(k + 1, close - k - 1);
          j = close + 1;
          if (j < n && !ascii_space(html[j]) && html[j] != '>' && html[j] != '/') return std::nullopt;
        } else {
          const std::size_t from = k;
          while (k < n && !ascii_space(html[k]) && html[k] != '>') {
            const char c = html[k];
            if (c == '"' || c == '\'' || c == '<' || c == '=' || c == '`') return std::nullopt;
            ++k;
          }
          value = html.substr(from, k - from);
          j = k;
        }
      }
      if (tag == GUMBO_TAG_IMG && attr == "alt" && !alt) {
        // References with their semicolon read the same in a value as in text.
        alt.emplace();
        for (std::size_t v = 0; v < value.size();) {
          const std::size_t amp = value.find('&', v);
          alt->append(value.substr(v, std::min(amp, value.size()) - v));
          if (amp == std::string_view::npos) break;
          const char after = amp + 1 < value.size() ? value[amp + 1] : ' ';
          if (!ascii_alnum(after) && after != '#') {
            *alt += '&';
            v = amp + 1;
            continue;
          }
          std::uint32_t cp = 0;
          const std::size_t len = fast_reference(value, amp, cp);
          if (len == 0) return std::nullopt;
          utf8::append(*alt, cp);
          v = amp + len;
        }
      }
    }
    i = j + 1;  // past '>'
    if (self_closing && !is_void(tag)) return std::nullopt;
    if (closes_p(tag) && std::find(open.begin(), open.end(), GUMBO_TAG_P) != open.end()) return std::nullopt;
    if (tag == GUMBO_TAG_A && std::find(open.begin(), open.end(), GUMBO_TAG_A) != open.end()) return std::nullopt;
    if (is_heading(tag) && !open.empty() && is_heading(open.back())) return std::nullopt;
    if (tag == GUMBO_TAG_LI || tag == GUMBO_TAG_DD || tag == GUMBO_TAG_DT) {
      for (auto it = open.rbegin(); it != open.rend(); ++it) {
        if (*it == GUMBO_TAG_LI || *it == GUMBO_TAG_DD || *it == GUMBO_TAG_DT) return std::nullopt;
        if (is_special(*it) && *it != GUMBO_TAG_DIV && *it != GUMBO_TAG_P) break;
      }
    }
    if (tag == GUMBO_TAG_IMG) {
      sink.separate();
      if (alt) sink.append(*alt);
      sink.separate();
      continue;
    }
    if (tag_class(tag) == kBlock) sink.separate();
    if (is_void(tag)) continue;
    if (open.size() >= 200) return std::nullopt;
    open.push_back(tag);
  }
  if (!open.empty()) return std::nullopt;
  return sink.take();
}

// ---- Tree walk -----------------------------------------------------------------

// An image is a box between the words around it, even without alt text.
void append_alt(const GumboElement& img, TextSink& sink) {
  sink.separate();
  if (const GumboAttribute* alt = gumbo_get_attribute(&img.attributes, "alt"))
    sink.append(alt->value);
  sink.separate();
}

// Iterative pre-order walk: the parse tree can be as deep as kMaxDepth plus
// whatever Gumbo adds, and recursion per level is not worth the risk.
void walk(const GumboNode* root, TextSink& sink) {
  struct Frame {
    const GumboVector* children;
    unsigned next;
    bool block;
  };
  std::vector<Frame> stack;
  stack.reserve(64);
  stack.push_back({&root->v.document.children, 0, false});
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next >= top.children->length) {
      if (top.block) sink.separate();
      stack.pop_back();
      continue;
    }
    const auto* node = static_cast<const GumboNode*>(top.children->data[top.next++]);
    switch (node->type) {
      case GUMBO_NODE_TEXT:
      case GUMBO_NODE_WHITESPACE:
      case GUMBO_NODE_CDATA:
        sink.append(node->v.text.text);
        break;
      case GUMBO_NODE_ELEMENT: {
        const GumboElement& el = node->v.element;
        // Foreign (SVG, MathML) elements use tag enums of their own names
        // or UNKNOWN; treat their text pieces as separate words.
        const TagClass cls =
            el.tag_namespace == GUMBO_NAMESPACE_HTML ? tag_class(el.tag) : kBlock;
        if (cls == kSkip) break;
        if (el.tag == GUMBO_TAG_IMG && el.tag_namespace == GUMBO_NAMESPACE_HTML) {
          append_alt(el, sink);
          break;
        }
        if (cls == kBlock) sink.separate();
        if (el.children.length > 0) stack.push_back({&el.children, 0, cls == kBlock});
        break;
      }
      case GUMBO_NODE_TEMPLATE:  // template contents are inert
      case GUMBO_NODE_COMMENT:
      case GUMBO_NODE_DOCUMENT:
        break;
    }
  }
}

// Gumbo allocates every node, attribute and piece of text on its own and
// frees them one by one when the parse is destroyed: a third of its time
// went to malloc and free. One parse gets an arena instead, dropped whole
// afterwards. Gumbo grows a buffer by allocating a larger one and freeing
// the old, so the arena holds at most about twice what Gumbo uses at once;
// that is bounded by the input's size like Gumbo's own use.
class Arena {
 public:
  explicit Arena(std::size_t first_block) : next_block_(first_block) {}
  void* allocate(std::size_t n) {
    n = (n + kAlign - 1) & ~(kAlign - 1);
    if (n > left_) {
      const std::size_t size = std::max(n, next_block_);
      blocks_.push_back(std::make_unique<unsigned char[]>(size));
      next_ = blocks_.back().get();
      left_ = size;
      next_block_ = std::min(size * 2, kMaxBlock);
    }
    void* p = next_;
    next_ += n;
    left_ -= n;
    return p;
  }
  static void* allocate_for_gumbo(void* arena, std::size_t n) { return static_cast<Arena*>(arena)->allocate(n); }
  static void free_for_gumbo(void*, void*) {}

 private:
  static constexpr std::size_t kAlign = alignof(std::max_align_t);
  static constexpr std::size_t kMaxBlock = std::size_t{8} << 20;
  std::vector<std::unique_ptr<unsigned char[]>> blocks_;
  unsigned char* next_ = nullptr;
  std::size_t left_ = 0;
  std::size_t next_block_;
};

std::string parse_and_walk(std::string_view html) {
  GumboOptions options = kGumboDefaultOptions;
  // Gumbo uses several times the input's size; start with about that.
  Arena arena(std::max<std::size_t>(std::size_t{16} << 10, html.size() * 4));
  options.allocator = &Arena::allocate_for_gumbo;
  options.deallocator = &Arena::free_for_gumbo;
  options.userdata = &arena;
  options.max_errors = 0;  // we never read them; recording costs time and memory
  // Feed content is the inside of a <body>. Parsed as a whole document, a
  // leading <noscript> would land in <head>, where (scripting being off) its
  // text is pushed out into the body and shown.
  options.fragment_context = GUMBO_TAG_BODY;
  GumboOutput* output = gumbo_parse_with_options(&options, html.data(), html.size());
  if (output == nullptr) return collapse_whitespace(html);
  TextSink sink(html.size() / 2);
  walk(output->document, sink);
  // No gumbo_destroy_output(): the arena goes with everything in it.
  return sink.take();
}

}  // namespace

std::string html_to_text(std::string_view html) {
  if (html.size() > kMaxInput) html = html.substr(0, kMaxInput);
  // Most summaries and many titles are plain text: no parse needed.
  if (html.find_first_of("<&") == std::string_view::npos) return collapse_whitespace(html);
  if (std::optional<std::string> text = fast_text(html)) return std::move(*text);
  return html_to_text_by_gumbo(html);
}

std::string html_to_text_by_gumbo(std::string_view html) {
  if (html.size() > kMaxInput) html = html.substr(0, kMaxInput);
  if (html.find_first_of("<&") == std::string_view::npos) return collapse_whitespace(html);
  if (!scan_depth(html, nullptr)) return parse_and_walk(html);
  std::string flattened;
  flattened.reserve(html.size());
  scan_depth(html, &flattened);
  return parse_and_walk(flattened);
}

std::string collapse_whitespace(std::string_view text) {
  TextSink sink(text.size());
  sink.append(text);
  return sink.take();
}

}  // namespace blogsearch
