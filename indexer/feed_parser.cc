// feed_parser.cc: walks the libxml2 tree of RSS 2.0, RSS 1.0 and Atom feeds.
//
// One walker serves every format: feeds mix vocabularies (atom:link in RSS,
// dc:creator in Atom), so an item's children are dispatched by namespace and
// name whatever the root was. Text is copied straight out of the tree's text
// nodes into the Post's strings; nothing is re-parsed except short HTML titles.
#include "common/utf8.h"
#include "indexer/feed_parser.h"

#include <libxml/HTMLparser.h>  // htmlEntityLookup
#include <libxml/tree.h>
#include <libxml/xmlstring.h>  // xmlCheckUTF8

#include <cctype>
#include <cstring>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "indexer/count.h"
#include "indexer/date.h"
#include "indexer/feed_text.h"
#include "indexer/html_text.h"
#include "indexer/json_feed.h"
#include "indexer/url.h"
#include "indexer/xml_input.h"

namespace blogsearch {
namespace {

enum class Ns {
  kNone, kAtom10, kAtom03, kRss, kRdf, kDc, kDcTerms, kContent, kItunes, kXhtml, kMedia, kFeedburner, kOther
};

// Namespace URIs are matched without regard to case or a trailing slash, as
// feeds in the wild vary both.
Ns classify_namespace(const xmlChar* href) {
  std::string h = href ? reinterpret_cast<const char*>(href) : "";
  for (char& c : h) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  while (!h.empty() && (h.back() == '/' || h.back() == '#')) h.pop_back();
  static const std::pair<const char*, Ns> kKnown[] = {
      {"http://www.w3.org/2005/atom", Ns::kAtom10},
      {"http://purl.org/atom/ns", Ns::kAtom03},
      {"http://purl.org/rss/1.0", Ns::kRss},
      {"http://my.netscape.com/rdf/simple/0.9", Ns::kRss},
      {"http://backend.userland.com/rss2", Ns::kRss},
      {"http://backend.userland.com/rss", Ns::kRss},
      {"http://blogs.law.harvard.edu/tech/rss", Ns::kRss},
      {"http://purl.org/net/rss1.1", Ns::kRss},
      {"http://www.w3.org/1999/02/22-rdf-syntax-ns", Ns::kRdf},
      {"http://purl.org/dc/elements/1.1", Ns::kDc},
      {"http://purl.org/dc/terms", Ns::kDcTerms},
      {"http://purl.org/rss/1.0/modules/content", Ns::kContent},
      {"http://www.itunes.com/dtds/podcast-1.0.dtd", Ns::kItunes},
      {"http://www.w3.org/1999/xhtml", Ns::kXhtml},
      {"http://search.yahoo.com/mrss", Ns::kMedia},
      {"http://rssnamespace.org/feedburner/ext/1.0", Ns::kFeedburner},
  };
  for (const auto& [uri, ns] : kKnown) {
    if (h == uri) return ns;
  }
  return Ns::kOther;
}

bool name_is(const xmlNode* n, const char* name) {
  return std::strcmp(reinterpret_cast<const char*>(n->name), name) == 0;
}

// Per item (and for the feed's own authors): a feed repeating <category>
// 100,000 times must cost time linear in its size, and the lists are
// shown whole, so they stop growing here. The scan below is then bounded.
constexpr std::size_t kMaxListEntries = 256;

// Adds value unless empty or present; false when the list was full.
bool add_unique(std::vector<std::string>& list, std::string value) {
  if (value.empty()) return true;
  for (const auto& v : list) {
    if (v == value) return true;
  }
  if (list.size() >= kMaxListEntries) return false;
  list.push_back(std::move(value));
  return true;
}

std::string lowercase_ascii(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}


// Whether an absolute URL needs percent-encoding (spaces, non-ASCII...):
// only those go through resolve_url, so valid links stay byte for byte.
bool needs_encoding(const std::string& url) {
  for (unsigned char c : url) {
    if (c <= 0x20 || c >= 0x7F || c == '"' || c == '<' || c == '>' || c == '`' || c == '{' || c == '}' ||
        c == '|' || c == '^' || c == '\\') {
      return true;
    }
  }
  return false;
}

struct Text {
  std::string value;
  bool html = false;
  bool present = false;
};

// What an item says before precedence between its elements is settled.
struct Draft {
  std::string guid, atom_id, about;
  bool guid_is_permalink = false;
  std::string rss_link, alternate_html, alternate_any, orig_link;
  std::string title, media_title;
  std::vector<std::string> authors, categories, category_terms;
  std::optional<Time> pub_date, published, issued, created, dc_date, updated, modified;
  Text description, summary, encoded, content, body;  // body: xhtml:body, <body>, fullitem
  Text itunes_summary, media_description;             // the text when nothing else has it
  bool list_full = false;                             // a list reached kMaxListEntries
};

class Walker {
 public:
  Walker(xmlDoc* doc, const std::string& name, const ParseOptions& options, ParsedFeed& out)
      : doc_(doc), name_(name), options_(options), out_(out) {}

  void run() {
    const xmlNode* root = xmlDocGetRootElement(doc_);
    Ns ns = ns_of(root);
    std::vector<const xmlNode*> items;
    if (name_is(root, "rss")) {
      out_.format = "rss2";
      const xmlNode* channel = first_child(root, "channel");
      read_header(channel ? channel : root);
      collect(channel, "item", items);
      if (items.empty()) collect(root, "item", items);
    } else if (name_is(root, "RDF")) {
      out_.format = "rss1";
      const xmlNode* channel = first_child(root, "channel");
      if (channel) read_header(channel);
      collect(root, "item", items);
      collect(channel, "item", items);
    } else if (name_is(root, "feed") && (ns == Ns::kAtom10 || ns == Ns::kAtom03 || ns == Ns::kNone)) {
      out_.format = ns == Ns::kAtom03 ? "atom03" : "atom10";
      atom_ = true;
      read_header(root);
      collect(root, "entry", items);
    } else {
      throw FeedError(name_ + ": not a feed (root element <" +
                      reinterpret_cast<const char*>(root->name) + ">)");
    }
    if (items_seen_ > items.size()) {
      // Few bytes per item escape parse_feed's cut before parsing; the
      // cap holds all the same, and the rest is unknown, not gone.
      out_.items_skipped += items_seen_ - items.size();
      out_.complete = false;
      out_.warnings.push_back(items_skipped_warning(name_, items_seen_, items.size()));
    }
    out_.posts.reserve(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
      item_number_ = i + 1;
      out_.posts.push_back(read_item(items[i]));
      // The item's xml:lang (Atom: on the entry or the feed), else the
      // channel's <language> (RSS) or dc:language.
      std::string lang = lang_at(items[i]);
      out_.posts.back().language = lang.empty() ? feed_language_ : std::move(lang);
    }
    if (entity_limit_hit_) {
      out_.warnings.push_back(name_ + ": entity expansion stopped at " +
                              std::to_string(kMaxEntityExpansions) + " references or " +
                              std::to_string(kMaxEntityBytes) + " bytes");
    }
  }

 private:
  // Bounds on what entity references may add to one document: libxml2
  // stops exponential nesting itself, but not a large entity referenced
  // many times (quadratic blowup).
  static constexpr int kMaxEntityExpansions = 10000;
  static constexpr std::size_t kMaxEntityBytes = 1u << 20;

  Ns ns_of(const xmlNode* n) {
    if (n->ns == nullptr) return Ns::kNone;
    for (const auto& [ptr, ns] : ns_cache_) {
      if (ptr == n->ns) return ns;
    }
    Ns ns = classify_namespace(n->ns->href);
    // A document declaring a namespace on every element must not make this
    // scan quadratic: past a few dozen, classify each time.
    if (ns_cache_.size() < 64) ns_cache_.emplace_back(n->ns, ns);
    return ns;
  }

  // Elements of the feed's own vocabulary: no namespace, RSS or Atom.
  bool core(const xmlNode* n) {
    Ns ns = ns_of(n);
    return ns == Ns::kNone || ns == Ns::kRss || ns == Ns::kAtom10 || ns == Ns::kAtom03;
  }

  const xmlNode* first_child(const xmlNode* parent, const char* name) {
    for (const xmlNode* c = parent->children; c; c = c->next) {
      if (c->type == XML_ELEMENT_NODE && core(c) && name_is(c, name)) return c;
    }
    return nullptr;
  }

  // Items past options_.max_items are only counted, so what the walk holds
  // does not grow with the item count of a hostile feed.
  void collect(const xmlNode* parent, const char* name, std::vector<const xmlNode*>& out) {
    if (parent == nullptr) return;
    for (const xmlNode* c = parent->children; c; c = c->next) {
      if (c->type == XML_ELEMENT_NODE && core(c) && name_is(c, name)) {
        ++items_seen_;
        if (out.size() < options_.max_items) out.push_back(c);
      }
    }
  }

  std::string attr(const xmlNode* n, const char* name, Ns ns = Ns::kNone) {
    for (const xmlAttr* a = n->properties; a; a = a->next) {
      if (std::strcmp(reinterpret_cast<const char*>(a->name), name) != 0) continue;
      if (ns == Ns::kNone ? a->ns != nullptr
                          : (a->ns == nullptr || classify_namespace(a->ns->href) != ns)) {
        continue;
      }
      std::string v;
      for (const xmlNode* c = a->children; c; c = c->next) {
        if (c->type == XML_TEXT_NODE && c->content) v += reinterpret_cast<const char*>(c->content);
      }
      return v;
    }
    return {};
  }

  void append_capped(std::string& out, const xmlChar* text) {
    if (text == nullptr) return;
    std::size_t len = std::strlen(reinterpret_cast<const char*>(text));
    std::size_t cap = options_.max_text_bytes;
    if (entity_depth_ > 0 && entity_cap_ < cap) cap = entity_cap_;
    std::size_t room = out.size() < cap ? cap - out.size() : 0;
    if (len > room) {
      if (cap < options_.max_text_bytes) {
        entity_limit_hit_ = true;
      } else {
        truncated_ = true;
      }
      // Cut at a character boundary so the field stays valid UTF-8.
      len = utf8::boundary_before(std::string_view(reinterpret_cast<const char*>(text), len), room);
    }
    out.append(reinterpret_cast<const char*>(text), len);
  }

  // The text of an element's descendants, as xmlNodeGetContent would give,
  // but with entity references bounded: internal entities expand up to a
  // budget (libxml2 keeps them as references without XML_PARSE_NOENT),
  // undeclared HTML names (&nbsp; in RSS 0.91) are decoded, and external
  // entities are never read.
  void append_text(const xmlNode* first, std::string& out) {
    for (const xmlNode* c = first; c; c = c->next) {
      switch (c->type) {
        case XML_TEXT_NODE:
        case XML_CDATA_SECTION_NODE:
          append_capped(out, c->content);
          break;
        case XML_ELEMENT_NODE:
          append_text(c->children, out);
          break;
        case XML_ENTITY_REF_NODE:
          append_entity(c, out);
          break;
        default:
          break;
      }
    }
  }

  void append_entity(const xmlNode* ref, std::string& out) {
    const auto* ent = reinterpret_cast<const xmlEntity*>(ref->children);
    if (ent != nullptr && ent->type == XML_ENTITY_DECL) {
      if (ent->etype != XML_INTERNAL_GENERAL_ENTITY) return;
      if (entity_expansions_ >= kMaxEntityExpansions || entity_bytes_ >= kMaxEntityBytes) {
        entity_limit_hit_ = true;
        return;
      }
      ++entity_expansions_;
      std::size_t before = out.size();
      if (entity_depth_++ == 0) entity_cap_ = before + (kMaxEntityBytes - entity_bytes_);
      append_text(ent->children, out);
      if (--entity_depth_ == 0) entity_bytes_ += out.size() - before;
      return;
    }
    if (const htmlEntityDesc* html = htmlEntityLookup(ref->name)) utf8::append(out, html->value);
  }

  std::string text_of(const xmlNode* n) {
    // Most elements hold one text node: copy it without the general walk.
    const xmlNode* c = n->children;
    if (c != nullptr && c->next == nullptr && c->type == XML_TEXT_NODE && c->content != nullptr) {
      std::string out;
      append_capped(out, c->content);
      return out;
    }
    std::string out;
    append_text(c, out);
    return out;
  }

  // Text directly inside n, ignoring nested elements (an <image> inside a
  // <category> is not part of the category's name).
  std::string own_text(const xmlNode* n) {
    std::string out;
    for (const xmlNode* c = n->children; c; c = c->next) {
      if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) append_capped(out, c->content);
    }
    return out;
  }

  bool has_element_child(const xmlNode* n) {
    for (const xmlNode* c = n->children; c; c = c->next) {
      if (c->type == XML_ELEMENT_NODE) return true;
    }
    return false;
  }

  const xmlNode* sole_element_child(const xmlNode* n) {
    const xmlNode* found = nullptr;
    for (const xmlNode* c = n->children; c; c = c->next) {
      if (c->type == XML_ELEMENT_NODE) {
        if (found) return nullptr;
        found = c;
      }
    }
    return found;
  }

  // Inner markup of an element whose content is HTML: the text when it was
  // escaped (the usual case), else the child nodes serialised.
  std::string markup_of(const xmlNode* n) {
    if (!has_element_child(n)) return text_of(n);
    return serialise_children(n);
  }

  std::string serialise_children(const xmlNode* n) {
    xmlBufferPtr buf = xmlBufferCreate();
    if (buf == nullptr) return {};
    for (xmlNode* c = n->children; c; c = c->next) {
      xmlNodeDump(buf, doc_, c, 0, 0);
    }
    std::string out(reinterpret_cast<const char*>(xmlBufferContent(buf)),
                    static_cast<std::size_t>(xmlBufferLength(buf)));
    xmlBufferFree(buf);
    if (utf8::truncate_in_place(out, options_.max_text_bytes)) truncated_ = true;
    return out;
  }

  // An Atom text construct (title, summary, content, or Atom 0.3's with its
  // mode attribute); RSS fields are read as HTML by their callers.
  Text text_construct(const xmlNode* n) {
    Text t;
    t.present = true;
    std::string type = attr(n, "type");
    for (char& ch : type) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    std::string mode = attr(n, "mode");
    if (!attr(n, "src").empty()) {
      t.present = false;  // out-of-line content: nothing to index here
    } else if (mode == "base64") {
      t = base64_text(n, type);
    } else if (type == "xhtml" || type == "application/xhtml+xml") {
      const xmlNode* div = nullptr;
      for (const xmlNode* c = n->children; c; c = c->next) {
        if (c->type == XML_ELEMENT_NODE) {
          div = name_is(c, "div") ? c : nullptr;
          break;
        }
      }
      t.value = serialise_children(div ? div : n);
      t.html = true;
    } else if (type == "html" || type == "text/html" || mode == "escaped" || mode == "xml") {
      // TypePad wraps escaped HTML in an xhtml div; the div's text is the HTML.
      const xmlNode* div = sole_element_child(n);
      bool wrapped = div && name_is(div, "div") && ns_of(div) == Ns::kXhtml && !has_element_child(div);
      t.value = wrapped ? text_of(div) : markup_of(n);
      t.html = true;
    } else if (type.empty() || type == "text" || type.compare(0, 5, "text/") == 0) {
      t.value = text_of(n);
    } else if (type.size() >= 3 && type.compare(type.size() - 3, 3, "xml") == 0) {
      t.value = markup_of(n);
      t.html = true;
    } else {
      t.present = false;  // base64 or other media: not text
    }
    return t;
  }

  // Atom 0.3's mode="base64": text or HTML content, encoded.
  Text base64_text(const xmlNode* n, const std::string& type) {
    Text t;
    bool html = type == "html" || type == "text/html" || type == "xhtml" || type == "application/xhtml+xml";
    bool plain = type.empty() || type == "text" || type == "text/plain";
    if (!html && !plain) return t;  // an image or other media: not text
    std::string decoded;
    // Decoded bytes bypass libxml2's checks: they must be UTF-8 like the
    // rest of the post, or they are dropped.
    if (!decode_base64(text_of(n), decoded) || decoded.find('\0') != std::string::npos ||
        !xmlCheckUTF8(reinterpret_cast<const xmlChar*>(decoded.c_str()))) {
      out_.warnings.push_back(where() + ": base64 content that is not UTF-8 text ignored");
      return t;
    }
    t.value = std::move(decoded);
    t.html = html;
    t.present = true;
    return t;
  }

  // "file: item 3" while items are read, else "file".
  std::string where() const {
    return item_number_ == 0 ? name_ : name_ + ": item " + std::to_string(item_number_);
  }

  // A zone name parse_date does not know leaves the date in UTC, hours off;
  // said once per document, since a feed writes all its dates alike.
  std::optional<Time> date_of(const xmlNode* n) {
    std::string text = text_of(n);
    bool unknown_zone = false;
    std::optional<Time> t = parse_date(text, &unknown_zone);
    if (unknown_zone && !unknown_zone_warned_) {
      unknown_zone_warned_ = true;
      out_.warnings.push_back(where() + ": unknown time zone in date \"" + collapse_whitespace(text) +
                              "\", read as UTC");
    }
    return t;
  }

  std::string plain_title(const xmlNode* n) {
    if (atom_ || !attr(n, "type").empty()) {
      Text t = text_construct(n);
      return t.html ? html_to_text(t.value) : collapse_whitespace(t.value);
    }
    std::string s = has_element_child(n) ? serialise_children(n) : text_of(n);
    return looks_like_html(s) ? html_to_text(s) : collapse_whitespace(s);
  }

  // Resolves href against the base URI in scope at n (RFC 3986 5.1):
  // xml:base, itself resolved against the document's URL; else the
  // document's URL; else, when that is unknown, the feed's own link.
  // Absolute hrefs are returned as written unless they hold characters a
  // URL may not (ids fall back to links, so a valid link must not change).
  // Inside an item, a relative href is also resolved against the feed's
  // site link (when that is absolute) instead of the document's URL, for
  // the post's identity (Post::id_link): every feed URL of a blog, and a
  // snapshot whatever URL it was fetched from, then give one id.
  std::string resolve(const xmlNode* n, std::string href) {
    href = trim_copy(href);
    if (href.empty()) return href;
    if (has_scheme(href)) return needs_encoding(href) ? resolve_url(href, "") : href;
    std::string url = resolve_url(href, base_at(n, false));
    if (in_item_ && has_scheme(out_.link)) item_id_links_[url] = resolve_url(href, base_at(n, true));
    return url;
  }

  // The xml:lang in scope at n (the innermost one), "" when none.
  static std::string lang_at(const xmlNode* n) {
    for (const xmlNode* e = n; e != nullptr && e->type == XML_ELEMENT_NODE; e = e->parent)
      for (const xmlAttr* a = e->properties; a; a = a->next)
        if (a->ns != nullptr && xmlStrEqual(a->ns->href, XML_XML_NAMESPACE) &&
            xmlStrEqual(a->name, reinterpret_cast<const xmlChar*>("lang")) && a->children != nullptr &&
            a->children->type == XML_TEXT_NODE)
          return trim_copy(reinterpret_cast<const char*>(a->children->content));
    return {};
  }

  std::string base_at(const xmlNode* n, bool from_site_link = false) {
    std::vector<const xmlChar*> bases;  // innermost first
    for (const xmlNode* e = n; e != nullptr && e->type == XML_ELEMENT_NODE; e = e->parent) {
      for (const xmlAttr* a = e->properties; a; a = a->next) {
        if (a->ns != nullptr && xmlStrEqual(a->ns->href, XML_XML_NAMESPACE) &&
            xmlStrEqual(a->name, reinterpret_cast<const xmlChar*>("base")) && a->children != nullptr &&
            a->children->type == XML_TEXT_NODE) {
          bases.push_back(a->children->content);
        }
      }
      // The site link already has the xml:base of the feed around the item.
      if (from_site_link && e == item_node_) break;
    }
    std::string base = from_site_link                  ? out_.link
                       : has_scheme(options_.base_url) ? options_.base_url
                       : has_scheme(out_.link)         ? out_.link
                                                       : std::string();
    for (auto it = bases.rbegin(); it != bases.rend(); ++it) {
      std::string b = reinterpret_cast<const char*>(*it);
      base = has_scheme(b) ? b : resolve_url(b, base);
    }
    return base;
  }

  // An Atom person construct, or an RSS <author> holding a name, a mail
  // address or markup (`by <a href="...">Name</a>`).
  std::string atom_person(const xmlNode* n) {
    std::string name, email;
    bool structured = false;
    for (const xmlNode* c = n->children; c; c = c->next) {
      if (c->type != XML_ELEMENT_NODE || !core(c)) continue;
      if (name_is(c, "name")) {
        name = person_text(text_of(c));
        structured = true;
      } else if (name_is(c, "email")) {
        email = collapse_whitespace(text_of(c));
        structured = true;
      } else if (name_is(c, "uri") || name_is(c, "url")) {
        structured = true;  // Atom 1.0 and 0.3: a person known by address only
      }
    }
    if (!structured) return person_text(text_of(n));
    return name.empty() ? email : name;
  }

  // One author element's people, each once.
  void add_authors(std::vector<std::string>& list, const std::string& byline, bool& full) {
    for (auto& a : split_byline(byline)) {
      if (!add_unique(list, std::move(a))) full = true;
    }
  }

  void add_category(Draft& d, std::string value) {
    if (!add_unique(d.categories, std::move(value))) d.list_full = true;
  }

  // rel=alternate (or no rel) links, preferring an HTML one.
  void atom_link(const xmlNode* n, std::string& html, std::string& any) {
    if (!html.empty()) return;  // the first HTML one wins: later ones cost nothing
    std::string rel = attr(n, "rel");
    if (!rel.empty() && rel != "alternate") return;
    std::string href = attr(n, "href");
    if (href.empty()) href = text_of(n);  // invalid Atom, but seen
    href = resolve(n, href);
    if (href.empty()) return;
    std::string type = attr(n, "type");
    if (html.empty() && (type.empty() || type == "text/html" || type == "application/xhtml+xml")) {
      html = href;
    }
    if (any.empty()) any = href;
  }

  void read_header(const xmlNode* channel) {
    std::string dc_title, alternate_html, alternate_any, rss_link;
    for (const xmlNode* c = channel->children; c; c = c->next) {
      if (c->type != XML_ELEMENT_NODE) continue;
      Ns ns = ns_of(c);
      if (core(c)) {
        if (name_is(c, "title") && out_.title.empty()) {
          out_.title = plain_title(c);
        } else if (name_is(c, "link")) {
          if (atom_ || !attr(c, "href").empty()) {
            atom_link(c, alternate_html, alternate_any);
          } else if (rss_link.empty()) {
            rss_link = trim_copy(text_of(c));
          }
        } else if (atom_ && name_is(c, "author")) {
          bool full = false;
          add_authors(feed_authors_, atom_person(c), full);
        } else if (!atom_ && name_is(c, "language") && feed_language_.empty()) {
          feed_language_ = trim_copy(text_of(c));
        }
      } else if (ns == Ns::kDc && name_is(c, "title") && dc_title.empty()) {
        dc_title = collapse_whitespace(text_of(c));
      } else if (ns == Ns::kDc && name_is(c, "language") && feed_language_.empty()) {
        feed_language_ = trim_copy(text_of(c));
      }
    }
    if (out_.title.empty()) out_.title = dc_title;
    // Resolved while out_.link is still empty: a relative channel link can
    // only be resolved by xml:base and the document's URL.
    std::string link = !rss_link.empty() ? rss_link : !alternate_html.empty() ? alternate_html : alternate_any;
    out_.link = resolve(channel, link);
    truncated_ = false;
  }

  Post read_item(const xmlNode* item) {
    in_item_ = true;
    item_node_ = item;
    item_id_links_.clear();
    Draft d;
    d.about = trim_copy(attr(item, "about", Ns::kRdf));
    std::string dc_title;
    Text dc_description;
    for (const xmlNode* c = item->children; c; c = c->next) {
      if (c->type != XML_ELEMENT_NODE) continue;
      Ns ns = ns_of(c);
      const char* name = reinterpret_cast<const char*>(c->name);
      if (core(c)) {
        read_core(c, name, d);
      } else if (ns == Ns::kDc) {
        if (!std::strcmp(name, "creator") || !std::strcmp(name, "author")) {
          add_authors(d.authors, person_text(text_of(c)), d.list_full);
        } else if (!std::strcmp(name, "subject")) {
          add_category(d, collapse_whitespace(text_of(c)));
        } else if (!std::strcmp(name, "date")) {
          if (!d.dc_date) d.dc_date = date_of(c);
        } else if (!std::strcmp(name, "title")) {
          if (dc_title.empty()) dc_title = plain_title(c);
        } else if (!std::strcmp(name, "description")) {
          if (!dc_description.present) dc_description = {markup_of(c), true, true};
        }
      } else if (ns == Ns::kDcTerms) {
        if (!std::strcmp(name, "created")) {
          if (!d.created) d.created = date_of(c);
        } else if (!std::strcmp(name, "issued")) {
          if (!d.issued) d.issued = date_of(c);
        } else if (!std::strcmp(name, "modified")) {
          if (!d.modified) d.modified = date_of(c);
        }
      } else if (ns == Ns::kContent && !std::strcmp(name, "encoded")) {
        if (!d.encoded.present) d.encoded = {markup_of(c), true, true};
      } else if (ns == Ns::kXhtml && !std::strcmp(name, "body")) {
        if (!d.body.present) d.body = {serialise_children(c), true, true};
      } else if (ns == Ns::kItunes && !std::strcmp(name, "author")) {
        add_authors(d.authors, person_text(text_of(c)), d.list_full);
      } else if (ns == Ns::kItunes && !std::strcmp(name, "summary")) {
        if (!d.itunes_summary.present) d.itunes_summary = loose_text(c, "");
      } else if (ns == Ns::kMedia) {
        read_media(c, name, d, 0);
      } else if (ns == Ns::kFeedburner && !std::strcmp(name, "origLink")) {
        if (d.orig_link.empty()) d.orig_link = resolve(c, text_of(c));
      }
    }
    if (d.title.empty()) d.title = dc_title;
    if (d.title.empty()) d.title = std::move(d.media_title);
    if (!d.description.present) d.description = dc_description;
    in_item_ = false;
    return finish(std::move(d));
  }

  // Text from a vocabulary without Atom's type rules (itunes:summary,
  // media:description): HTML when `type` says so or the text looks like it.
  Text loose_text(const xmlNode* n, const std::string& type) {
    Text t;
    t.present = true;
    t.value = markup_of(n);
    t.html = type == "html" || (type.empty() && looks_like_html(t.value)) || has_element_child(n);
    return t;
  }

  // Media RSS (YouTube, podcasts): title, description and categories, at
  // the item's level or inside media:group / media:content.
  void read_media(const xmlNode* c, const char* name, Draft& d, int depth) {
    if (!std::strcmp(name, "title")) {
      if (d.media_title.empty()) {
        std::string type = attr(c, "type");
        d.media_title = type == "html" ? html_to_text(text_of(c)) : collapse_whitespace(text_of(c));
      }
    } else if (!std::strcmp(name, "description")) {
      if (!d.media_description.present) d.media_description = loose_text(c, attr(c, "type"));
    } else if (!std::strcmp(name, "category")) {
      std::string label = attr(c, "label");
      add_category(d, collapse_whitespace(label.empty() ? text_of(c) : label));
    } else if ((!std::strcmp(name, "group") || !std::strcmp(name, "content")) && depth < 2) {
      for (const xmlNode* g = c->children; g; g = g->next) {
        if (g->type == XML_ELEMENT_NODE && ns_of(g) == Ns::kMedia) {
          read_media(g, reinterpret_cast<const char*>(g->name), d, depth + 1);
        }
      }
    }
  }

  void read_core(const xmlNode* c, const char* name, Draft& d) {
    auto date = [&](std::optional<Time>& slot) {
      if (!slot) slot = date_of(c);
    };
    if (!std::strcmp(name, "title")) {
      if (d.title.empty()) d.title = plain_title(c);
    } else if (!std::strcmp(name, "link")) {
      if (atom_ || !attr(c, "href").empty()) {
        atom_link(c, d.alternate_html, d.alternate_any);
      } else if (d.rss_link.empty()) {
        d.rss_link = resolve(c, text_of(c));
      }
    } else if (!std::strcmp(name, "guid")) {
      if (d.guid.empty()) {
        d.guid = trim_copy(text_of(c));
        std::string permalink = attr(c, "isPermaLink");
        d.guid_is_permalink = permalink.empty() || permalink == "true";
      }
    } else if (!std::strcmp(name, "id")) {
      if (d.atom_id.empty()) d.atom_id = trim_copy(text_of(c));
    } else if (!std::strcmp(name, "author")) {
      add_authors(d.authors, atom_person(c), d.list_full);
    } else if (!std::strcmp(name, "category")) {
      // Atom's label is for people, its term for machines: show the label,
      // and let a filter on either find the post.
      std::string term = collapse_whitespace(attr(c, "term"));
      std::string label = collapse_whitespace(attr(c, "label"));
      if (label.empty()) label = term;
      if (label.empty()) label = collapse_whitespace(own_text(c));
      if (!term.empty() && lowercase_ascii(term) != lowercase_ascii(label) &&
          !add_unique(d.category_terms, term)) {
        d.list_full = true;
      }
      add_category(d, std::move(label));
    } else if (!std::strcmp(name, "pubDate")) {
      date(d.pub_date);
    } else if (!std::strcmp(name, "published")) {
      date(d.published);
    } else if (!std::strcmp(name, "issued")) {
      date(d.issued);
    } else if (!std::strcmp(name, "created")) {
      date(d.created);
    } else if (!std::strcmp(name, "updated")) {
      date(d.updated);
    } else if (!std::strcmp(name, "modified")) {
      date(d.modified);
    } else if (!std::strcmp(name, "description")) {
      if (!d.description.present) d.description = {markup_of(c), true, true};
    } else if (!std::strcmp(name, "summary")) {
      if (!d.summary.present) d.summary = text_construct(c);
    } else if (!std::strcmp(name, "content")) {
      if (!d.content.present) d.content = text_construct(c);
    } else if (!std::strcmp(name, "fullitem") || (!atom_ && !std::strcmp(name, "body"))) {
      if (!d.body.present) d.body = {markup_of(c), true, true};
    }
  }

  Post finish(Draft d) {
    Post p;
    // A permalink guid, or an Atom id that is a web address, is the best link
    // left when the item has none (feedparser does the same).
    bool id_is_link = d.guid.empty() ? !d.atom_id.empty() : d.guid_is_permalink;
    p.id = !d.guid.empty() ? std::move(d.guid) : !d.atom_id.empty() ? std::move(d.atom_id) : std::move(d.about);
    // FeedBurner's origLink is the post's own address; its <link> only
    // redirects through FeedBurner.
    p.link = !d.orig_link.empty()        ? std::move(d.orig_link)
             : !d.rss_link.empty()       ? std::move(d.rss_link)
             : !d.alternate_html.empty() ? std::move(d.alternate_html)
                                         : std::move(d.alternate_any);
    if (p.link.empty() && id_is_link && is_web_address(p.id)) p.link = p.id;
    if (p.id.empty())
      if (auto it = item_id_links_.find(p.link); it != item_id_links_.end()) p.id_link = it->second;
    p.title = std::move(d.title);
    p.authors = std::move(d.authors);
    if (p.authors.empty() && atom_) p.authors = feed_authors_;  // RFC 4287 4.2.1
    p.categories = std::move(d.categories);
    p.category_terms = std::move(d.category_terms);
    p.published = d.pub_date   ? d.pub_date
                  : d.published ? d.published
                  : d.issued    ? d.issued
                  : d.created   ? d.created
                                : d.dc_date;
    p.updated = d.updated ? d.updated : d.modified ? d.modified : d.dc_date;
    Text& summary = d.description.present      ? d.description
                    : d.summary.present        ? d.summary
                    : d.itunes_summary.present ? d.itunes_summary
                                               : d.media_description;
    Text& content = d.encoded.present   ? d.encoded
                    : d.content.present ? d.content
                    : d.body.present    ? d.body
                                        : summary;
    if (summary.present) {
      p.summary = summary.value;
      p.summary_is_html = summary.html;
    }
    if (content.present) {
      p.content = std::move(content.value);
      p.content_is_html = content.html;
    }
    if (truncated_) {
      out_.warnings.push_back(name_ + ": item " + std::to_string(item_number_) +
                              ": text longer than " + std::to_string(options_.max_text_bytes) +
                              " bytes truncated");
      truncated_ = false;
    }
    if (d.list_full) {
      out_.warnings.push_back(where() + ": more than " + std::to_string(kMaxListEntries) +
                              " authors or categories; the rest ignored");
    }
    return p;
  }

  xmlDoc* doc_;
  const std::string& name_;
  const ParseOptions& options_;
  ParsedFeed& out_;
  std::vector<std::pair<const xmlNs*, Ns>> ns_cache_;
  std::vector<std::string> feed_authors_;
  std::string feed_language_;  // the channel's <language> or dc:language
  bool in_item_ = false;
  const xmlNode* item_node_ = nullptr;
  // resolved link -> the same href resolved against the site link, this item
  std::map<std::string, std::string> item_id_links_;
  bool atom_ = false;
  bool truncated_ = false;
  bool entity_limit_hit_ = false;
  int entity_expansions_ = 0;
  int entity_depth_ = 0;
  std::size_t entity_bytes_ = 0;
  std::size_t entity_cap_ = 0;
  std::size_t item_number_ = 0;
  bool unknown_zone_warned_ = false;
  std::size_t items_seen_ = 0;
};

// A date far in the future would rank its post first under every sort by
// recency; a day's slack allows for clocks and zones that are wrong. The
// parser only says so: the writer dates such a post by when it was first
// seen (writer.cc), a time that does not change with each snapshot that
// carries the post, as the observed time would (every snapshot would then
// be a new version of it).
void settle_dates(ParsedFeed& feed, const ParseOptions& options) {
  if (options.observed == 0) return;
  constexpr Time kSlack = 24 * 60 * 60;
  std::size_t settled = 0;
  for (std::size_t i = 0; i < feed.posts.size(); ++i) {
    Post& p = feed.posts[i];
    for (auto* slot : {&p.published, &p.updated}) {
      if (!*slot || **slot <= options.observed + kSlack) continue;
      // A feed dated wholly in the future gets a few lines, not thousands.
      if (++settled <= 10) {
        std::string what = !p.id.empty() ? p.id : !p.link.empty() ? p.link : p.title;
        feed.warnings.push_back(feed.file + ": item " + std::to_string(i + 1) + " (" + what + "): " +
                                (slot == &p.published ? "published" : "updated") + " date " +
                                format_rfc3339(**slot) + " is after the snapshot was observed (" +
                                format_rfc3339(options.observed) + "); dated when first seen instead");
      }
    }
  }
  if (settled > 10) {
    const long long more = static_cast<long long>(settled) - 10;
    feed.warnings.push_back(feed.file + ": " + counted(more, "more future date", "more future dates") +
                            "; dated when first seen instead");
  }
}

}  // namespace

namespace {

// Where the item after the first `max` starts ("<item" or "<entry" and a
// delimiter), counting them all in `total`; npos when there are no more.
// A plain byte scan: a tag spelled inside CDATA or a comment counts too,
// which at worst cuts a feed that is over the bound anyway a little early.
std::size_t start_of_item_after(std::string_view b, std::size_t max, std::size_t& total) {
  std::size_t cut = std::string_view::npos;
  total = 0;
  for (std::size_t at = b.find('<'); at != std::string_view::npos; at = b.find('<', at + 1)) {
    std::size_t len = b.compare(at + 1, 4, "item") == 0 ? 5 : b.compare(at + 1, 5, "entry") == 0 ? 6 : 0;
    if (len == 0 || at + len >= b.size()) continue;
    char next = b[at + len];
    if (next != '>' && next != ' ' && next != '/' && next != '\t' && next != '\n' && next != '\r') continue;
    if (++total == max + 1) cut = at;
  }
  return cut;
}

}  // namespace

ParsedFeed parse_feed(std::string_view bytes, const std::string& name, const ParseOptions& options) {
  ParsedFeed feed;
  feed.file = name;
  if (looks_like_json_feed(bytes)) {
    parse_json_feed(bytes, name, options, feed);
  } else {
    // A feed of more items than the bound loses the items past it before it
    // is parsed, so the tree libxml2 builds does not grow with the item
    // count either: from where the first item past the bound starts to the
    // end of the last item ("</item>", "</entry>") is left out, so the
    // document still closes as it did. (Fewer bytes than the shortest items
    // take cannot hold more.) Without a last close tag the cut document's
    // end is repaired like a truncated one.
    std::size_t total = 0;
    std::size_t cut = bytes.size() > options.max_items * 13
                          ? start_of_item_after(bytes, options.max_items, total)
                          : std::string_view::npos;
    std::string stitched;
    std::string_view input = bytes;
    if (cut != std::string_view::npos) {
      std::size_t item_end = bytes.rfind("</item>"), entry_end = bytes.rfind("</entry>");
      std::size_t tail = std::string_view::npos;
      if (item_end != std::string_view::npos) tail = item_end + 7;
      if (entry_end != std::string_view::npos && (tail == std::string_view::npos || entry_end + 8 > tail)) {
        tail = entry_end + 8;
      }
      stitched.reserve(cut + 64);
      stitched.append(bytes.substr(0, cut));
      if (tail != std::string_view::npos && tail > cut) stitched.append(bytes.substr(tail));
      input = stitched;
    }
    XmlDoc doc = read_xml(input, name, options, feed);
    Walker(doc.get(), name, options, feed).run();
    if (cut != std::string_view::npos) {
      feed.items_skipped = total - options.max_items;
      feed.complete = false;
      feed.warnings.push_back(items_skipped_warning(name, total, options.max_items));
    }
  }
  settle_dates(feed, options);
  return feed;
}

}  // namespace blogsearch
