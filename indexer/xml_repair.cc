// xml_repair.cc: the tolerant tokenizer behind the recovery path.
//
// Decisions are made the way browsers and feed readers make them, so that a
// repaired feed reads as its author saw it in a browser: a '&' that starts no
// reference is a literal ampersand, a '<' that starts no tag is a literal
// less-than, a missing close tag is implied by the parent's close tag or the
// next item, and markup that does not balance inside a text element was HTML
// its author forgot to escape. Every search ahead is bounded or done once per
// input byte, so the pass stays linear on hostile input.
#include "indexer/xml_repair.h"

#include <libxml/HTMLparser.h>  // htmlEntityLookup

#include <cctype>
#include <cstdint>
#include <cstring>
#include <unordered_set>

#include "common/utf8.h"

namespace blogsearch {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// ASCII name characters; entity names are checked with these alone.
bool name_start(char ch) {
  auto c = static_cast<unsigned char>(ch);
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

bool name_char(char ch) {
  auto c = static_cast<unsigned char>(ch);
  return name_start(ch) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

// Length of the name character at s[p] (UTF-8, XML 1.0 fifth edition, as
// libxml2 checks names), or 0. A name libxml2 would reject fails the whole
// document, so element and attribute names are checked the same way.
std::size_t name_char_at(std::string_view s, std::size_t p, bool first) {
  if (p >= s.size()) return 0;
  auto c = static_cast<unsigned char>(s[p]);
  if (c < 0x80) return (first ? name_start(s[p]) : name_char(s[p])) ? 1 : 0;
  std::uint32_t v = 0;
  const std::size_t n = utf8::decode(s, p, v);
  if (n == 0) return 0;
  bool start = (v >= 0xC0 && v <= 0xD6) || (v >= 0xD8 && v <= 0xF6) || (v >= 0xF8 && v <= 0x2FF) ||
               (v >= 0x370 && v <= 0x37D) || (v >= 0x37F && v <= 0x1FFF) || (v >= 0x200C && v <= 0x200D) ||
               (v >= 0x2070 && v <= 0x218F) || (v >= 0x2C00 && v <= 0x2FEF) || (v >= 0x3001 && v <= 0xD7FF) ||
               (v >= 0xF900 && v <= 0xFDCF) || (v >= 0xFDF0 && v <= 0xFFFD) || (v >= 0x10000 && v <= 0xEFFFF);
  bool other = v == 0xB7 || (v >= 0x300 && v <= 0x36F) || (v >= 0x203F && v <= 0x2040);
  return (start || (!first && other)) ? n : 0;
}

// Whether s[p] == '<' starts a tag: a name follows (not a bare colon).
bool tag_starts(std::string_view s, std::size_t p) {
  return p + 1 < s.size() && s[p + 1] != ':' && name_char_at(s, p + 1, true) > 0;
}

bool forbidden_control(char ch) {
  auto c = static_cast<unsigned char>(ch);
  return c < 0x20 && c != '\t' && c != '\n' && c != '\r';
}

bool starts_at(std::string_view s, std::size_t i, std::string_view prefix) {
  return s.compare(i, prefix.size(), prefix) == 0;
}

std::string_view local_name(std::string_view qname) {
  std::size_t colon = qname.rfind(':');
  return colon == std::string_view::npos ? qname : qname.substr(colon + 1);
}

std::string_view prefix_of(std::string_view qname) {
  std::size_t colon = qname.find(':');
  return colon == std::string_view::npos ? std::string_view() : qname.substr(0, colon);
}

// Elements that hold text (possibly escaped HTML) rather than child elements:
// markup inside them that does not balance is raw HTML.
bool is_text_element(std::string_view qname) {
  static const std::string_view kNames[] = {"title",    "description", "summary", "content",
                                            "encoded",  "subtitle",    "tagline", "rights",
                                            "copyright", "comments",   "info"};
  std::string_view local = local_name(qname);
  if (local == "content" && prefix_of(qname) == "media") return false;  // an enclosure
  for (std::string_view n : kNames) {
    if (local == n) return true;
  }
  return false;
}

// Only the feed vocabularies' items: media:item or a podcast's entry
// elements are not posts.
bool is_item(std::string_view qname) {
  std::string_view local = local_name(qname);
  std::string_view prefix = prefix_of(qname);
  return (local == "item" || local == "entry") &&
         (prefix.empty() || prefix == "atom" || prefix == "rss" || prefix == "rdf");
}

// Names that end an element left open inside an item: no text element holds them.
bool is_boundary(std::string_view qname) {
  std::string_view local = local_name(qname);
  return local == "item" || local == "entry" || local == "channel" || local == "feed" ||
         local == "rss" || local == "RDF";
}

// Child elements of an item that no HTML holds: one starting inside a text
// element means the text element's close tag is missing.
bool is_item_field(std::string_view qname) {
  static const std::string_view kFields[] = {"title",   "link",     "guid",      "pubDate",
                                             "description", "author", "category", "comments",
                                             "enclosure", "id",     "updated",  "published",
                                             "issued",  "modified", "created"};
  static const std::string_view kPrefixes[] = {"dc",    "content", "atom",       "media", "itunes",
                                               "wfw",   "slash",   "feedburner", "dcterms"};
  std::string_view prefix = prefix_of(qname);
  if (!prefix.empty()) {
    for (std::string_view p : kPrefixes) {
      if (prefix == p) return true;
    }
    return false;
  }
  for (std::string_view n : kFields) {
    if (qname == n) return true;
  }
  return false;
}

bool is_feed_root(std::string_view qname) {
  std::string_view local = local_name(qname);
  return local == "rss" || local == "feed" || local == "RDF";
}

// Namespaces feeds use without declaring them; any other prefix gets a URN
// of its own so that its elements keep their names.
const char* well_known_namespace(std::string_view prefix) {
  static const std::pair<std::string_view, const char*> kKnown[] = {
      {"dc", "http://purl.org/dc/elements/1.1/"},
      {"dcterms", "http://purl.org/dc/terms/"},
      {"content", "http://purl.org/rss/1.0/modules/content/"},
      {"media", "http://search.yahoo.com/mrss/"},
      {"itunes", "http://www.itunes.com/dtds/podcast-1.0.dtd"},
      {"atom", "http://www.w3.org/2005/Atom"},
      {"feedburner", "http://rssnamespace.org/feedburner/ext/1.0"},
      {"rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"},
      {"slash", "http://purl.org/rss/1.0/modules/slash/"},
      {"wfw", "http://wellformedweb.org/CommentAPI/"},
      {"sy", "http://purl.org/rss/1.0/modules/syndication/"},
      {"thr", "http://purl.org/syndication/thread/1.0"},
      {"georss", "http://www.georss.org/georss"},
      {"googleplay", "http://www.google.com/schemas/play-podcasting"},
      {"xhtml", "http://www.w3.org/1999/xhtml"},
      {"admin", "http://webns.net/mvcb/"},
      {"trackback", "http://madskills.com/public/xml/rss/module/trackback/"},
  };
  for (const auto& [p, uri] : kKnown) {
    if (p == prefix) return uri;
  }
  return nullptr;
}

bool valid_xml_char(unsigned long v) {
  return v == 0x9 || v == 0xA || v == 0xD || (v >= 0x20 && v <= 0xD7FF) || (v >= 0xE000 && v <= 0xFFFD) ||
         (v >= 0x10000 && v <= 0x10FFFF);
}

struct Attribute {
  std::string_view name;
  std::string_view value;
  bool quoted = true;
};

// Elements that are empty by definition: their attributes are everything.
bool is_empty_element(std::string_view qname, const std::vector<Attribute>& attrs) {
  std::string_view local = local_name(qname);
  std::string_view prefix = prefix_of(qname);
  if (qname == "enclosure" || (prefix == "media" && (local == "thumbnail" || local == "player")) ||
      (prefix == "itunes" && local == "image")) {
    return true;
  }
  if (local == "link" && (prefix.empty() || prefix == "atom")) {
    for (const Attribute& a : attrs) {
      if (a.name == "href") return true;
    }
  }
  return false;
}

class Repairer {
 public:
  Repairer(std::string_view in, const RepairOptions& options, RepairResult& result)
      : in_(in), options_(options), r_(result), out_(result.text) {}

  void run() {
    out_.reserve(in_.size() + in_.size() / 8 + 256);
    if (starts_at(in_, 0, "\xEF\xBB\xBF")) {
      out_.append("\xEF\xBB\xBF");
      pos_ = 3;
    }
    prolog();
    while (pos_ < in_.size() && !root_done_) {
      char c = in_[pos_];
      if (r_.root.empty() && !(c == '<' && tag_starts(in_, pos_))) {
        // Before the root only its start tag may come.
        fix(Fix::kJunkBeforeRoot);
        ++pos_;
      } else if (c == '<') {
        markup();
      } else {
        text_char(pos_, /*in_attribute=*/false);
      }
    }
    finish();
  }

 private:
  struct Open {
    std::string name;
    std::size_t out_start;  // where its start tag begins in out_
    bool item;
  };

  void fix(Fix f, std::size_t n = 1) { r_.fixes[static_cast<std::size_t>(f)] += n; }

  std::string_view read_name(std::size_t& p) const {
    std::size_t start = p;
    for (std::size_t n; (n = name_char_at(in_, p, p == start)) > 0;) p += n;
    return in_.substr(start, p - start);
  }

  // A name libxml2's namespace checks accept: at most one colon, not at
  // either end.
  static std::string clean_name(std::string_view name) {
    std::string s(name);
    std::size_t first = s.find(':');
    if (first == std::string::npos) return s;
    for (std::size_t i = first + 1; i < s.size(); ++i) {
      if (s[i] == ':') s[i] = '-';
    }
    if (first == 0 || first + 1 == s.size()) s[first] = '_';
    return s;
  }

  // --- before the root --------------------------------------------------

  // The first start tag whose local name is a feed root, or npos.
  std::size_t find_feed_root(std::size_t from) const {
    std::size_t p = from;
    while ((p = in_.find('<', p)) != std::string_view::npos) {
      std::size_t q = p + 1;
      std::string_view name = read_name(q);
      if (!name.empty() && name[0] != ':' && is_feed_root(name) &&
          (q >= in_.size() || is_space(in_[q]) || in_[q] == '>' || in_[q] == '/')) {
        return p;
      }
      ++p;
    }
    return std::string_view::npos;
  }

  void prolog() {
    std::size_t root = find_feed_root(pos_);
    std::size_t decl = in_.find("<?xml", pos_);
    if (decl != std::string_view::npos && (root == std::string_view::npos || decl < root) &&
        decl + 5 < in_.size() && (is_space(in_[decl + 5]) || in_[decl + 5] == '?')) {
      std::size_t end = in_.find("?>", decl);
      if (end != std::string_view::npos && (root == std::string_view::npos || end < root)) {
        if (decl > pos_) fix(Fix::kJunkBeforeDeclaration);
        declaration(in_.substr(decl + 5, end - decl - 5));
        pos_ = end + 2;
      }
    }
    bool junk = false;
    while (pos_ < in_.size()) {
      char c = in_[pos_];
      if (is_space(c)) {
        out_ += c;
        ++pos_;
      } else if (root != std::string_view::npos && pos_ == root) {
        break;
      } else if (starts_at(in_, pos_, "<!--")) {
        skip_comment();
      } else if (starts_at(in_, pos_, "<!DOCTYPE")) {
        doctype();
      } else if (starts_at(in_, pos_, "<?")) {
        std::size_t end = in_.find("?>", pos_);
        std::size_t stop = end == std::string_view::npos ? in_.size() : end + 2;
        // Processing instructions (a stylesheet, a second declaration) carry
        // nothing an index needs, and a malformed one would fail the parse.
        pos_ = stop;
      } else if (root == std::string_view::npos && c == '<' && tag_starts(in_, pos_)) {
        break;  // no feed root anywhere: the first element is the root
      } else {
        junk = true;
        std::size_t next = root != std::string_view::npos ? root : in_.find('<', pos_ + 1);
        pos_ = next == std::string_view::npos ? in_.size() : next;
      }
    }
    if (junk) fix(Fix::kJunkBeforeRoot);
  }

  // The XML declaration, rewritten: the text is UTF-8 by now whatever the
  // label said, and a malformed declaration would fail the whole document.
  void declaration(std::string_view decl) {
    std::string_view standalone;
    std::size_t at = decl.find("standalone");
    if (at != std::string_view::npos) {
      std::string_view rest = decl.substr(at + 10);
      if (rest.find("yes") != std::string_view::npos) standalone = "yes";
    }
    out_.append("<?xml version=\"1.0\"");
    if (!standalone.empty()) out_.append(" standalone=\"yes\"");
    out_.append("?>");
  }

  // A DOCTYPE is rewritten to what the repaired document can use: the
  // internal entities it declares (feeds use them for names and symbols).
  // External DTDs are never loaded, so nothing else in it matters, and a
  // malformed one would fail the whole parse.
  void doctype() {
    std::size_t p = pos_ + 9;
    while (p < in_.size() && is_space(in_[p])) ++p;
    std::string_view root = read_name(p);
    while (p < in_.size() && in_[p] != '[' && in_[p] != '>') ++p;
    std::string decls;
    if (p < in_.size() && in_[p] == '[') {
      std::size_t close = in_.find(']', p);
      while (close != std::string_view::npos) {
        std::size_t q = close + 1;
        while (q < in_.size() && is_space(in_[q])) ++q;
        if (q < in_.size() && in_[q] == '>') break;
        close = in_.find(']', close + 1);
      }
      if (close == std::string_view::npos) {
        fix(Fix::kUnterminated);
        pos_ = in_.size();
        return;
      }
      std::string_view subset = in_.substr(p + 1, close - p - 1);
      for (std::size_t at = subset.find("<!ENTITY"); at != std::string_view::npos;
           at = subset.find("<!ENTITY", at + 8)) {
        entity_declaration(subset.substr(at + 8), decls);
      }
      p = close;
    }
    std::size_t end = in_.find('>', p);
    pos_ = end == std::string_view::npos ? in_.size() : end + 1;
    if (decls.empty()) return;
    out_.append("<!DOCTYPE ");
    bool named = !root.empty() && root[0] != ':';
    out_.append(named ? clean_name(root) : std::string("rss"));
    out_.append(" [");
    out_.append(decls);
    out_.append("]>");
  }

  // One <!ENTITY name "value"> (from after "<!ENTITY"), kept when it is an
  // internal general entity whose value is safe to use as written.
  void entity_declaration(std::string_view d, std::string& decls) {
    std::size_t q = 0;
    while (q < d.size() && is_space(d[q])) ++q;
    if (q == 0 || q >= d.size() || !name_start(d[q]) || d[q] == ':') return;  // '%': a parameter entity
    std::size_t start = q;
    while (q < d.size() && name_char(d[q])) ++q;
    std::string_view name = d.substr(start, q - start);
    while (q < d.size() && is_space(d[q])) ++q;
    if (q >= d.size() || (d[q] != '"' && d[q] != '\'')) return;  // SYSTEM or PUBLIC: never loaded
    std::size_t close = d.find(d[q], q + 1);
    if (close == std::string_view::npos) return;
    std::string_view value = d.substr(q + 1, close - q - 1);
    std::size_t gt = close + 1;
    while (gt < d.size() && is_space(d[gt])) ++gt;
    if (gt >= d.size() || d[gt] != '>') return;
    // References in the value must name entities declared before it.
    for (std::size_t i = 0; i < value.size(); ++i) {
      char c = value[i];
      if (c == '%' || c == '<' || forbidden_control(c)) return;
      if (c != '&') continue;
      std::size_t semi = value.find(';', i);
      if (semi == std::string_view::npos) return;
      std::string_view ref = value.substr(i + 1, semi - i - 1);
      bool ok = !ref.empty();
      if (ok && ref[0] == '#') {
        bool hex = ref.size() > 1 && ref[1] == 'x';
        ok = ref.size() > (hex ? 2u : 1u) && ref.size() < 10;
        unsigned long v = 0;
        for (std::size_t k = hex ? 2 : 1; ok && k < ref.size(); ++k) {
          char h = ref[k];
          int digit = (h >= '0' && h <= '9') ? h - '0'
                      : hex && (h >= 'a' && h <= 'f') ? h - 'a' + 10
                      : hex && (h >= 'A' && h <= 'F') ? h - 'A' + 10
                                                       : -1;
          ok = digit >= 0;
          v = v * (hex ? 16 : 10) + static_cast<unsigned long>(digit < 0 ? 0 : digit);
        }
        ok = ok && valid_xml_char(v);
      } else if (ok) {
        for (char n : ref) ok = ok && name_char(n);
        ok = ok && name_start(ref[0]) && ref[0] != ':' &&
             (ref == "amp" || ref == "lt" || ref == "gt" || ref == "quot" || ref == "apos" ||
              declared_entities_.count(ref) > 0);
      }
      if (!ok) return;
      i = semi;
    }
    if (declared_entities_.size() >= 10000 || declared_entities_.count(name) > 0) return;
    declared_entities_.emplace(name);
    decls.append("<!ENTITY ");
    decls.append(name);
    decls.append(" \"");
    for (char c : value) {
      if (c == '"') {
        decls.append("&#34;");
      } else {
        decls += c;
      }
    }
    decls.append("\">");
  }

  // --- character data ---------------------------------------------------

  // Copies the character at p (a reference as a whole) to out_, escaped for
  // text or an attribute value, and advances pos_ past it.
  void text_char(std::size_t p, bool in_attribute) {
    char c = in_[p];
    pos_ = p + 1;
    if (c == '&') {
      reference(p);
    } else if (c == '<') {
      fix(Fix::kBareLessThan);
      out_.append("&lt;");
    } else if (forbidden_control(c)) {
      fix(Fix::kControlCharacter);
    } else if (in_attribute && c == '"') {
      out_.append("&quot;");
    } else if (c == '>' && !in_attribute && out_.size() >= 2 && out_[out_.size() - 1] == ']' &&
               out_[out_.size() - 2] == ']') {
      out_.append("&gt;");  // "]]>" may not appear in text
    } else {
      if (!in_attribute && text_bytes_ >= text_cap()) {
        cut_ = true;
        return;
      }
      ++text_bytes_;
      out_ += c;
    }
  }

  std::size_t text_cap() const { return options_.max_text_bytes + 4; }

  // At in_[p] == '&': a reference XML understands is kept; HTML's names
  // become numeric references; anything else is a literal ampersand.
  void reference(std::size_t p) {
    std::size_t q = p + 1;
    if (q < in_.size() && in_[q] == '#') {
      ++q;
      bool hex = q < in_.size() && (in_[q] == 'x' || in_[q] == 'X');
      bool capital = hex && in_[q] == 'X';
      if (hex) ++q;
      std::size_t digits = q;
      unsigned long value = 0;
      while (q < in_.size() && q - digits < 12) {
        char d = in_[q];
        int v = (d >= '0' && d <= '9')           ? d - '0'
                : hex && (d >= 'a' && d <= 'f') ? d - 'a' + 10
                : hex && (d >= 'A' && d <= 'F') ? d - 'A' + 10
                                                 : -1;
        if (v < 0) break;
        value = value * (hex ? 16 : 10) + static_cast<unsigned long>(v);
        ++q;
      }
      if (q > digits && q < in_.size() && in_[q] == ';') {
        pos_ = q + 1;
        if (!valid_xml_char(value)) {
          fix(Fix::kCharReference);
          return;
        }
        if (capital) fix(Fix::kCharReference);
        out_.append(hex ? "&#x" : "&#");
        out_.append(in_.substr(digits, q - digits));
        out_ += ';';
        text_bytes_ += 4;
        return;
      }
    } else if (q < in_.size() && name_start(in_[q]) && in_[q] != ':') {
      std::size_t start = q;
      while (q < in_.size() && q - start < 40 && name_char(in_[q])) ++q;
      if (q < in_.size() && in_[q] == ';') {
        std::string_view name = in_.substr(start, q - start);
        pos_ = q + 1;
        if (name == "amp" || name == "lt" || name == "gt" || name == "quot" || name == "apos" ||
            declared_entities_.count(name) > 0) {
          out_.append(in_.substr(p, q + 1 - p));
          ++text_bytes_;
          return;
        }
        std::string z(name);
        if (const htmlEntityDesc* html = htmlEntityLookup(reinterpret_cast<const xmlChar*>(z.c_str()))) {
          fix(Fix::kHtmlEntity);
          out_.append("&#" + std::to_string(html->value) + ";");
          ++text_bytes_;
          return;
        }
        fix(Fix::kUnknownEntity);
        out_.append("&amp;");
        out_.append(name);
        out_ += ';';
        text_bytes_ += name.size() + 2;
        return;
      }
    }
    fix(Fix::kBareAmpersand);
    out_.append("&amp;");
    ++text_bytes_;
    pos_ = p + 1;
  }

  // --- markup -----------------------------------------------------------

  void skip_comment() {
    std::size_t end = in_.find("-->", pos_ + 4);
    if (end == std::string_view::npos) {
      fix(Fix::kUnterminated);
      pos_ = in_.size();
    } else {
      pos_ = end + 3;  // comments carry nothing an index needs
    }
  }

  void markup() {
    std::size_t p = pos_;
    if (starts_at(in_, p, "<!--")) {
      skip_comment();
    } else if (starts_at(in_, p, "<![CDATA[")) {
      cdata();
    } else if (starts_at(in_, p, "<?")) {
      std::size_t end = in_.find("?>", p);
      if (end == std::string_view::npos) fix(Fix::kUnterminated);
      pos_ = end == std::string_view::npos ? in_.size() : end + 2;
    } else if (starts_at(in_, p, "<!")) {
      std::size_t end = in_.find('>', p);
      fix(Fix::kBrokenTag);
      pos_ = end == std::string_view::npos ? in_.size() : end + 1;
    } else if (starts_at(in_, p, "</")) {
      close_tag();
    } else if (tag_starts(in_, p)) {
      start_tag();
    } else {
      text_char(p, false);
    }
  }

  void cdata() {
    std::size_t start = pos_ + 9;
    std::size_t end = in_.find("]]>", start);
    if (end == std::string_view::npos) {
      fix(Fix::kUnterminated);
      end = in_.size();
    }
    std::string_view body = in_.substr(start, end - start);
    if (text_bytes_ >= text_cap()) {
      cut_ = true;
    } else {
      if (body.size() > text_cap() - text_bytes_) {
        cut_ = true;
        body = body.substr(0, text_cap() - text_bytes_);
      }
      out_.append("<![CDATA[");
      std::size_t from = 0;
      for (std::size_t i = 0; i < body.size(); ++i) {
        if (forbidden_control(body[i])) {
          out_.append(body.substr(from, i - from));
          fix(Fix::kControlCharacter);
          from = i + 1;
        }
      }
      out_.append(body.substr(from));
      out_.append("]]>");
      text_bytes_ += body.size();
    }
    pos_ = end == in_.size() ? end : end + 3;
  }

  void emit_close(const Open& e) {
    out_.append("</");
    out_.append(e.name);
    out_ += '>';
  }

  // Closes everything above stack index k, and k itself.
  void close_to(std::size_t k) {
    while (stack_.size() > k) {
      if (stack_.size() - 1 > k) fix(Fix::kMissingCloseTag);
      emit_close(stack_.back());
      stack_.pop_back();
    }
    text_bytes_ = 0;
    if (stack_.empty()) root_done_ = true;
  }

  void close_tag() {
    std::size_t p = pos_ + 2;
    std::string_view name = read_name(p);
    std::size_t end = p;
    while (end < in_.size() && in_[end] != '>' && in_[end] != '<') ++end;
    if (name.empty()) {
      text_char(pos_, false);  // "</" then no name: text
      return;
    }
    if (end < in_.size() && in_[end] == '>') {
      pos_ = end + 1;
    } else {
      fix(Fix::kBrokenTag);
      pos_ = end;
    }
    if (flattened_ > 0) {
      // The close tag of an element kept as text is text too.
      --flattened_;
      out_.append("&lt;/");
      out_.append(name);
      out_.append("&gt;");
      return;
    }
    std::string cleaned = clean_name(name);
    for (std::size_t k = stack_.size(); k-- > 0;) {
      if (stack_[k].name == cleaned) {
        close_to(k);
        return;
      }
    }
    fix(Fix::kStrayCloseTag);
  }

  // Reads the attributes of the tag whose name ends at p; returns the
  // position after the tag and sets self_closing.
  std::size_t read_attributes(std::size_t p, std::vector<Attribute>& attrs, bool& self_closing) {
    self_closing = false;
    for (;;) {
      while (p < in_.size() && is_space(in_[p])) ++p;
      if (p >= in_.size()) {
        fix(Fix::kUnterminated);
        return p;
      }
      char c = in_[p];
      if (c == '>') return p + 1;
      if (c == '/' && p + 1 < in_.size() && in_[p + 1] == '>') {
        self_closing = true;
        return p + 2;
      }
      if (c == '<') {
        fix(Fix::kBrokenTag);
        return p;
      }
      if (c == ':' || name_char_at(in_, p, true) == 0) {
        if (c != '/') fix(Fix::kBrokenTag);
        ++p;
        continue;
      }
      Attribute a;
      a.name = read_name(p);
      std::size_t q = p;
      while (q < in_.size() && is_space(in_[q])) ++q;
      if (q < in_.size() && in_[q] == '=') {
        ++q;
        while (q < in_.size() && is_space(in_[q])) ++q;
        if (q < in_.size() && (in_[q] == '"' || in_[q] == '\'')) {
          char quote = in_[q];
          std::size_t close = find_quote(quote, q + 1);
          if (close == std::string_view::npos) {
            // No closing quote anywhere: the value runs to the end of the tag.
            std::size_t gt = q + 1;
            while (gt < in_.size() && in_[gt] != '>' && in_[gt] != '<') ++gt;
            a.value = in_.substr(q + 1, gt - q - 1);
            fix(Fix::kBrokenTag);
            p = gt;
          } else {
            a.value = in_.substr(q + 1, close - q - 1);
            p = close + 1;
          }
        } else {
          std::size_t start = q;
          while (q < in_.size() && !is_space(in_[q]) && in_[q] != '>' && in_[q] != '<') ++q;
          // "/>" right after an unquoted value closes the tag, as feeds mean it.
          if (q > start && in_[q - 1] == '/' && q < in_.size() && in_[q] == '>') --q;
          a.value = in_.substr(start, q - start);
          a.quoted = false;
          p = q;
        }
      } else {
        a.value = a.name;
        a.quoted = false;
        fix(Fix::kAttributeWithoutValue);
        p = q;
      }
      if (!a.quoted && a.value != a.name) fix(Fix::kUnquotedAttribute);
      if (attrs.size() < 1024) attrs.push_back(a);
    }
  }

  // The next `quote` at or after p. Remembers where none is left, so that
  // many unterminated values do not each scan to the end.
  std::size_t find_quote(char quote, std::size_t p) {
    std::size_t& none_after = quote == '"' ? no_double_after_ : no_single_after_;
    if (p >= none_after) return std::string_view::npos;
    std::size_t at = in_.find(quote, p);
    if (at == std::string_view::npos) none_after = p;
    return at;
  }

  void note_prefix(std::string_view qname) {
    std::string_view prefix = prefix_of(qname);
    if (prefix.empty() || prefix == "xml" || prefix == "xmlns") return;
    if (prefix == last_prefix_) return;
    last_prefix_ = prefix;
    for (const auto& u : used_prefixes_) {
      if (u == prefix) return;
    }
    if (used_prefixes_.size() < 256) used_prefixes_.emplace_back(prefix);
  }

  void note_declaration(std::string_view attr, std::string_view value, bool on_root) {
    if (attr.substr(0, 6) != "xmlns:") return;
    std::string prefix(attr.substr(6));
    if (on_root) root_declared_.push_back(prefix);
    for (const auto& d : declared_uris_) {
      if (d.first == prefix) return;
    }
    if (declared_uris_.size() < 256) declared_uris_.emplace_back(prefix, std::string(value));
  }

  void append_escaped(std::string_view s) {
    for (char c : s) {
      switch (c) {
        case '<': out_.append("&lt;"); break;
        case '>': out_.append("&gt;"); break;
        case '&': out_.append("&amp;"); break;
        case '"': out_.append("&quot;"); break;
        default:
          if (forbidden_control(c)) {
            fix(Fix::kControlCharacter);
          } else {
            out_ += c;
          }
      }
    }
  }

  // Raw HTML as the text of its element; a CDATA section inside it gives
  // its text.
  void append_raw(std::string_view body) {
    for (;;) {
      std::size_t at = body.find("<![CDATA[");
      if (at == std::string_view::npos) break;
      append_escaped(body.substr(0, at));
      std::size_t end = body.find("]]>", at + 9);
      std::size_t stop = end == std::string_view::npos ? body.size() : end;
      append_escaped(body.substr(at + 9, stop - at - 9));
      body.remove_prefix(end == std::string_view::npos ? body.size() : end + 3);
    }
    append_escaped(body);
  }

  // A namespace name libxml2 accepts as a URI: what a URI may not hold is
  // percent-encoded (the name only has to be unique, not to resolve).
  void append_namespace(std::string_view uri) { out_.append(namespace_value(uri)); }

  static std::string namespace_value(std::string_view uri) {
    static const char kHex[] = "0123456789ABCDEF";
    std::string v;
    v += '"';
    for (std::size_t i = 0; i < uri.size(); ++i) {
      auto c = static_cast<unsigned char>(uri[i]);
      bool escape_it = c <= 0x20 || c >= 0x7F || std::strchr("<>\"{}|\\^`", c) != nullptr ||
                       (c == '%' && !(i + 2 < uri.size() && std::isxdigit(static_cast<unsigned char>(uri[i + 1])) &&
                                      std::isxdigit(static_cast<unsigned char>(uri[i + 2]))));
      if (escape_it) {
        v += '%';
        v += kHex[c >> 4];
        v += kHex[c & 15];
      } else if (c == '&') {
        v.append("&amp;");
      } else {
        v += static_cast<char>(c);
      }
    }
    v += '"';
    return v;
  }

  // Writes an attribute value as XML wants it: quoted, its references
  // checked like text.
  void append_value(std::string_view value, std::size_t value_offset) {
    out_ += '"';
    std::size_t saved_pos = pos_;
    std::size_t saved_bytes = text_bytes_;
    std::size_t p = value_offset;
    std::size_t end = value_offset + value.size();
    while (p < end) {
      if (in_[p] == '&') {
        // A reference must end inside the value.
        std::size_t semi = in_.find(';', p);
        if (semi == std::string_view::npos || semi >= end) {
          fix(Fix::kBareAmpersand);
          out_.append("&amp;");
          ++p;
          continue;
        }
      }
      text_char(p, true);
      p = pos_;
    }
    pos_ = saved_pos;
    text_bytes_ = saved_bytes;
    out_ += '"';
  }

  void start_tag() {
    std::size_t tag_start = pos_;
    std::size_t p = pos_ + 1;
    std::string_view raw_name = read_name(p);
    std::string name = clean_name(raw_name);
    std::vector<Attribute>& attrs = attrs_;
    attrs.clear();
    bool self_closing = false;
    std::size_t after = read_attributes(p, attrs, self_closing);

    if (is_item(name)) {
      // An item starting inside another: the earlier one lacked its close tag.
      for (std::size_t k = stack_.size(); k-- > 0;) {
        if (stack_[k].item) {
          fix(Fix::kMissingCloseTag);
          close_to(k);
          break;
        }
      }
    }
    if (root_done_) {
      pos_ = after;
      return;
    }
    if (stack_.size() >= options_.max_depth) {
      fix(Fix::kDeepNesting);
      append_escaped(in_.substr(tag_start, after - tag_start));
      if (!self_closing) ++flattened_;
      pos_ = after;
      return;
    }
    pos_ = after;
    bool root = stack_.empty();

    // Raw HTML is decided before the tag is written: escaping it makes the
    // element's type html.
    bool raw = false;
    std::size_t content_end = 0, resume = 0;
    bool closed = false;
    if (!self_closing && !root && is_text_element(name) && !xml_typed(attrs)) {
      raw = needs_escaping(name, content_end, resume, closed);
    }

    std::size_t out_start = out_.size();
    out_ += '<';
    out_.append(name);
    if (root) {
      r_.root = name;
      root_insert_ = out_.size();
    }
    note_prefix(name);
    seen_attrs_.clear();
    bool typed = false;
    for (const Attribute& a : attrs) {
      std::string aname = clean_name(a.name);
      if (!seen_attrs_.insert(aname).second) {
        fix(Fix::kDuplicateAttribute);
        continue;
      }
      note_prefix(aname);
      note_declaration(aname, a.value, root);
      out_ += ' ';
      out_.append(aname);
      out_ += '=';
      if (raw && aname == "type") {
        out_.append("\"html\"");
        typed = true;
        continue;
      }
      if (aname == "xmlns" || aname.compare(0, 6, "xmlns:") == 0) {
        append_namespace(a.value);
        continue;
      }
      std::size_t offset = static_cast<std::size_t>(a.value.data() - in_.data());
      append_value(a.value, offset);
    }
    if (raw && !typed && local_name(name) != "description" && local_name(name) != "encoded") {
      out_.append(" type=\"html\"");
    }
    text_bytes_ = 0;
    if (!self_closing && is_empty_element(name, attrs)) {
      // <enclosure ...> left open would swallow the rest of the item.
      std::size_t q = pos_;
      while (q < in_.size() && is_space(in_[q])) ++q;
      std::string close = "</" + name;
      if (starts_at(in_, q, close)) {
        std::size_t gt = in_.find('>', q);
        if (gt != std::string_view::npos) pos_ = gt + 1;
      } else {
        fix(Fix::kMissingCloseTag);
      }
      self_closing = true;
    }
    if (self_closing) {
      out_.append("/>");
      if (root) root_done_ = true;
      return;
    }
    out_ += '>';
    if (raw) {
      std::string_view body = in_.substr(pos_, content_end - pos_);
      note_raw_html(name);
      if (body.size() > text_cap()) {
        cut_ = true;
        body = body.substr(0, text_cap());
      }
      append_raw(body);
      out_.append("</");
      out_.append(name);
      out_ += '>';
      if (!closed) fix(Fix::kMissingCloseTag);
      pos_ = resume;
      return;
    }
    stack_.push_back(Open{std::move(name), out_start, is_item(raw_name)});
  }

  // Atom's xhtml and XML content is markup by definition, never raw HTML.
  static bool xml_typed(const std::vector<Attribute>& attrs) {
    for (const Attribute& a : attrs) {
      if (a.name == "type") {
        std::string_view t = a.value;
        if (t == "xhtml" || (t.size() >= 3 && t.substr(t.size() - 3) == "xml")) return true;
      }
      if (a.name == "mode" && a.value == "xml") return true;
    }
    return false;
  }

  void note_raw_html(const std::string& name) {
    fix(Fix::kRawHtml);
    for (auto& [n, count] : r_.raw_html) {
      if (n == name) {
        ++count;
        return;
      }
    }
    if (r_.raw_html.size() < 8) r_.raw_html.emplace_back(name, 1);
  }

  // Looks ahead through the content of text element `name` (from pos_) to
  // its close tag, or to the next item boundary when that is missing. True
  // when the markup inside does not balance as XML: it is then HTML the
  // feed forgot to escape. Sets where the content ends and where to resume.
  // Reads each byte once; the content is read again only when it balances.
  bool needs_escaping(const std::string& name, std::size_t& content_end, std::size_t& resume,
                      bool& closed) {
    std::vector<std::string_view>& inner = inner_;
    inner.clear();
    bool balanced = true, tags = false;
    std::size_t p = pos_;
    closed = false;
    // Nested unclosed text elements could make these scans overlap; past a
    // budget of a few passes over the input, content is taken as it comes.
    if (lookahead_ > 4 * in_.size() + (1u << 20)) return false;
    struct Count {
      std::size_t& total;
      std::size_t from;
      std::size_t& to;
      ~Count() { total += (to > from ? to - from : 0); }
    } count{lookahead_, pos_, resume};
    for (;;) {
      p = in_.find('<', p);
      if (p == std::string_view::npos) {
        content_end = resume = in_.size();
        break;
      }
      if (starts_at(in_, p, "<![CDATA[")) {
        std::size_t e = in_.find("]]>", p + 9);
        if (e == std::string_view::npos) {
          content_end = resume = in_.size();
          break;
        }
        p = e + 3;
        continue;
      }
      if (starts_at(in_, p, "<!--")) {
        std::size_t e = in_.find("-->", p + 4);
        if (e == std::string_view::npos) {
          content_end = resume = in_.size();
          break;
        }
        p = e + 3;
        continue;
      }
      bool close = p + 1 < in_.size() && in_[p + 1] == '/';
      std::size_t q = p + (close ? 2 : 1);
      std::string_view tag = read_name(q);
      if (tag.empty() || tag[0] == ':') {
        balanced = false;
        ++p;
        continue;
      }
      if (close && tag == name && inner.empty()) {
        while (q < in_.size() && is_space(in_[q])) ++q;
        if (q < in_.size() && in_[q] == '>') {
          content_end = p;
          resume = q + 1;
          closed = true;
          break;
        }
      }
      // <title> and <link> are HTML and SVG names too: inside open markup
      // (an inline <svg><title>) they are not the item's.
      bool field = !close && is_item_field(tag) && (inner.empty() || (tag != "title" && tag != "link"));
      if (is_boundary(tag) || tag == name || field) {
        content_end = resume = p;
        if (close && tag == name) {
          // Its own close tag with markup still open inside: unbalanced.
          std::size_t gt = in_.find('>', q);
          resume = gt == std::string_view::npos ? in_.size() : gt + 1;
          closed = true;
          balanced = false;
        }
        break;
      }
      tags = true;
      // To the end of this tag, minding quotes, for a bounded distance.
      bool self_closing = false;
      std::size_t e = q;
      char quote = 0;
      std::size_t limit = std::min(in_.size(), q + 4096);
      for (; e < limit; ++e) {
        char c = in_[e];
        if (quote) {
          if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == '>') {
          self_closing = in_[e - 1] == '/';
          break;
        } else if (c == '<') {
          break;
        } else if (c == '=' && !close) {
          std::size_t v = e + 1;
          while (v < limit && is_space(in_[v])) ++v;
          if (v < limit && in_[v] != '"' && in_[v] != '\'') balanced = false;
        }
      }
      if (e >= limit || in_[e] != '>') {
        balanced = false;
        p = e;
        continue;
      }
      p = e + 1;
      if (!balanced) continue;
      if (close) {
        if (inner.empty() || inner.back() != tag) {
          balanced = false;
        } else {
          inner.pop_back();
        }
      } else if (!self_closing) {
        if (inner.size() >= 64) {
          balanced = false;
        } else {
          inner.push_back(tag);
        }
      }
    }
    if (!inner.empty()) balanced = false;
    // Content that ran into the next field or item lacked its close tag:
    // what it holds is taken as HTML, which plain text also reads as.
    return !closed || (tags && !balanced);
  }

  void finish() {
    if (!stack_.empty()) {
      r_.root_closed = false;
      // An item cut off by the end of input would be a wrong version of it.
      for (std::size_t k = 1; k < stack_.size(); ++k) {  // the root stays, even if named item
        if (stack_[k].item) {
          out_.resize(stack_[k].out_start);
          stack_.resize(k);
          ++r_.items_dropped;
          break;
        }
      }
      while (!stack_.empty()) {
        emit_close(stack_.back());
        stack_.pop_back();
      }
    } else if (r_.root.empty()) {
      r_.root_closed = false;
    }
    if (root_done_) {
      for (std::size_t p = pos_; p < in_.size(); ++p) {
        if (!is_space(in_[p])) {
          fix(Fix::kAfterRoot);
          break;
        }
      }
    }
    if (cut_) fix(Fix::kTextCut);
    std::string decls;
    for (const std::string& prefix : used_prefixes_) {
      bool on_root = false;
      for (const auto& d : root_declared_) on_root = on_root || d == prefix;
      if (on_root) continue;
      std::string uri;
      for (const auto& d : declared_uris_) {
        if (d.first == prefix) uri = d.second;
      }
      if (uri.empty()) {
        fix(Fix::kUndeclaredPrefix);
        const char* known = well_known_namespace(prefix);
        uri = known ? known : "urn:blogsearch:undeclared:" + prefix;
      }
      decls += " xmlns:" + prefix + "=" + namespace_value(uri);
    }
    if (!decls.empty() && !r_.root.empty() && root_insert_ <= out_.size()) out_.insert(root_insert_, decls);
  }

  std::string_view in_;
  const RepairOptions& options_;
  RepairResult& r_;
  std::string& out_;
  std::size_t pos_ = 0;
  std::vector<Open> stack_;
  bool root_done_ = false;
  std::size_t root_insert_ = 0;
  std::size_t flattened_ = 0;
  std::size_t text_bytes_ = 0;  // text written since the last tag
  bool cut_ = false;
  std::size_t no_double_after_ = std::string_view::npos;
  std::size_t no_single_after_ = std::string_view::npos;
  std::unordered_set<std::string_view> declared_entities_;
  std::vector<std::string> used_prefixes_;
  std::string last_prefix_;
  std::vector<std::string> root_declared_;
  std::vector<std::pair<std::string, std::string>> declared_uris_;
  std::vector<Attribute> attrs_;
  std::unordered_set<std::string> seen_attrs_;
  std::vector<std::string_view> inner_;
  std::size_t lookahead_ = 0;  // bytes read ahead by needs_escaping
};

const char* fix_name(Fix f) {
  switch (f) {
    case Fix::kJunkBeforeDeclaration: return "text before <?xml";
    case Fix::kJunkBeforeRoot: return "junk before the root element";
    case Fix::kBareAmpersand: return "bare '&'";
    case Fix::kBareLessThan: return "bare '<'";
    case Fix::kHtmlEntity: return "HTML entities";
    case Fix::kUnknownEntity: return "undeclared entities kept as text";
    case Fix::kCharReference: return "malformed character references";
    case Fix::kRawHtml: return "raw HTML";
    case Fix::kUnquotedAttribute: return "unquoted attributes";
    case Fix::kAttributeWithoutValue: return "attributes without value";
    case Fix::kDuplicateAttribute: return "duplicate attributes";
    case Fix::kBrokenTag: return "broken tags";
    case Fix::kMissingCloseTag: return "missing close tags";
    case Fix::kStrayCloseTag: return "stray close tags";
    case Fix::kUndeclaredPrefix: return "undeclared namespace prefixes";
    case Fix::kDeepNesting: return "nesting too deep";
    case Fix::kControlCharacter: return "control characters";
    case Fix::kUnterminated: return "unterminated markup at the end";
    case Fix::kTextCut: return "text cut at the size limit";
    case Fix::kAfterRoot: return "text after the root element";
    case Fix::kCount: break;
  }
  return "?";
}

}  // namespace

std::size_t RepairResult::total() const {
  std::size_t n = 0;
  for (std::size_t f : fixes) n += f;
  return n;
}

bool RepairResult::only_html_entities() const {
  return total() > 0 && total() == fixes[static_cast<std::size_t>(Fix::kHtmlEntity)];
}

std::string RepairResult::summary() const {
  std::string s;
  for (std::size_t i = 0; i < fixes.size(); ++i) {
    if (fixes[i] == 0) continue;
    auto f = static_cast<Fix>(i);
    if (f == Fix::kRawHtml) {
      for (const auto& [name, count] : raw_html) {
        s += (s.empty() ? "" : ", ") + std::string("raw HTML in <") + name + "> (" + std::to_string(count) + ")";
      }
      continue;
    }
    s += (s.empty() ? "" : ", ") + std::string(fix_name(f)) + " (" + std::to_string(fixes[i]) + ")";
  }
  return s;
}

RepairResult repair_xml(std::string_view in, const RepairOptions& options) {
  RepairResult result;
  Repairer(in, options, result).run();
  return result;
}

}  // namespace blogsearch
