// html_text.cc: HTML fragment -> plain text, with Gumbo doing the HTML5
// parsing (tokenizing, entities, implied tags) and this file deciding which
// text counts and where words break.

#include "indexer/html_text.h"

#include <gumbo.h>

#include <array>
#include <climits>
#include <cstddef>
#include <cstring>
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

std::string parse_and_walk(std::string_view html) {
  GumboOptions options = kGumboDefaultOptions;
  options.max_errors = 0;  // we never read them; recording costs time and memory
  // Feed content is the inside of a <body>. Parsed as a whole document, a
  // leading <noscript> would land in <head>, where (scripting being off) its
  // text is pushed out into the body and shown.
  options.fragment_context = GUMBO_TAG_BODY;
  GumboOutput* output = gumbo_parse_with_options(&options, html.data(), html.size());
  if (output == nullptr) return collapse_whitespace(html);
  TextSink sink(html.size() / 2);
  walk(output->document, sink);
  gumbo_destroy_output(&options, output);
  return sink.take();
}

}  // namespace

std::string html_to_text(std::string_view html) {
  if (html.size() > kMaxInput) html = html.substr(0, kMaxInput);
  // Most summaries and many titles are plain text: no parse needed.
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
