// feed_parser.cc: walks the libxml2 tree of RSS 2.0, RSS 1.0 and Atom feeds.
//
// One walker serves every format: feeds mix vocabularies (atom:link in RSS,
// dc:creator in Atom), so an item's children are dispatched by namespace and
// name whatever the root was. Text is copied straight out of the tree's text
// nodes into the Post's strings; nothing is re-parsed except short HTML titles.
#include "indexer/feed_parser.h"

#include <libxml/HTMLparser.h>  // htmlEntityLookup
#include <libxml/tree.h>
#include <libxml/uri.h>

#include <cctype>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "indexer/date.h"
#include "indexer/feed_text.h"
#include "indexer/html_text.h"
#include "indexer/json_feed.h"
#include "indexer/xml_input.h"

namespace blogsearch {
namespace {

enum class Ns { kNone, kAtom10, kAtom03, kRss, kRdf, kDc, kDcTerms, kContent, kItunes, kXhtml, kOther };

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
  };
  for (const auto& [uri, ns] : kKnown) {
    if (h == uri) return ns;
  }
  return Ns::kOther;
}

bool name_is(const xmlNode* n, const char* name) {
  return std::strcmp(reinterpret_cast<const char*>(n->name), name) == 0;
}

void add_unique(std::vector<std::string>& list, std::string value) {
  if (value.empty()) return;
  for (const auto& v : list) {
    if (v == value) return;
  }
  list.push_back(std::move(value));
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
  std::string rss_link, alternate_html, alternate_any;
  std::string title;
  std::vector<std::string> authors, categories;
  std::optional<Time> pub_date, published, issued, created, dc_date, updated, modified;
  Text description, summary, encoded, content, body;  // body: xhtml:body, fullitem
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
    out_.posts.reserve(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
      item_number_ = i + 1;
      out_.posts.push_back(read_item(items[i]));
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
    ns_cache_.emplace_back(n->ns, ns);
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

  void collect(const xmlNode* parent, const char* name, std::vector<const xmlNode*>& out) {
    if (parent == nullptr) return;
    for (const xmlNode* c = parent->children; c; c = c->next) {
      if (c->type == XML_ELEMENT_NODE && core(c) && name_is(c, name)) out.push_back(c);
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
      while (room > 0 && (text[room] & 0xC0) == 0x80) --room;
      len = room;
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
    if (const htmlEntityDesc* html = htmlEntityLookup(ref->name)) append_utf8(out, html->value);
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
    if (out.size() > options_.max_text_bytes) {
      std::size_t cut = options_.max_text_bytes;
      while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
      out.resize(cut);
      truncated_ = true;
    }
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

  std::string plain_title(const xmlNode* n) {
    if (atom_ || !attr(n, "type").empty()) {
      Text t = text_construct(n);
      return t.html ? html_to_text(t.value) : collapse_whitespace(t.value);
    }
    std::string s = has_element_child(n) ? serialise_children(n) : text_of(n);
    return looks_like_html(s) ? html_to_text(s) : collapse_whitespace(s);
  }

  // Resolves href against xml:base in scope at n, else the feed's link.
  std::string resolve(const xmlNode* n, std::string href) {
    href = trim_copy(href);
    if (href.empty() || has_scheme(href)) return href;
    xmlChar* base = xmlNodeGetBase(doc_, n);
    std::string b = base ? reinterpret_cast<const char*>(base) : "";
    xmlFree(base);
    if (b.empty() || !has_scheme(b)) {
      if (!out_.link.empty() && has_scheme(out_.link)) {
        b = b.empty() ? out_.link : join(b, out_.link);
      }
    }
    return b.empty() ? href : join(href, b);
  }

  static std::string join(const std::string& href, const std::string& base) {
    xmlChar* uri = xmlBuildURI(reinterpret_cast<const xmlChar*>(href.c_str()),
                               reinterpret_cast<const xmlChar*>(base.c_str()));
    if (uri == nullptr) return href;
    std::string out = reinterpret_cast<const char*>(uri);
    xmlFree(uri);
    return out;
  }

  std::string atom_person(const xmlNode* n) {
    std::string name, email;
    for (const xmlNode* c = n->children; c; c = c->next) {
      if (c->type != XML_ELEMENT_NODE) continue;
      if (name_is(c, "name")) name = collapse_whitespace(text_of(c));
      if (name_is(c, "email")) email = collapse_whitespace(text_of(c));
    }
    if (!has_element_child(n)) return person_name(text_of(n));
    return name.empty() ? email : name;
  }

  // rel=alternate (or no rel) links, preferring an HTML one.
  void atom_link(const xmlNode* n, std::string& html, std::string& any) {
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
          add_unique(feed_authors_, atom_person(c));
        }
      } else if (ns == Ns::kDc && name_is(c, "title") && dc_title.empty()) {
        dc_title = collapse_whitespace(text_of(c));
      }
    }
    if (out_.title.empty()) out_.title = dc_title;
    out_.link = !rss_link.empty() ? rss_link : !alternate_html.empty() ? alternate_html : alternate_any;
    if (!has_scheme(out_.link) && !out_.link.empty()) {
      // A relative channel link can only be resolved by xml:base.
      xmlChar* base = xmlNodeGetBase(doc_, channel);
      if (base) out_.link = join(out_.link, reinterpret_cast<const char*>(base));
      xmlFree(base);
    }
    truncated_ = false;
  }

  Post read_item(const xmlNode* item) {
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
          add_unique(d.authors, person_name(text_of(c)));
        } else if (!std::strcmp(name, "subject")) {
          add_unique(d.categories, collapse_whitespace(text_of(c)));
        } else if (!std::strcmp(name, "date")) {
          if (!d.dc_date) d.dc_date = parse_date(text_of(c));
        } else if (!std::strcmp(name, "title")) {
          if (dc_title.empty()) dc_title = plain_title(c);
        } else if (!std::strcmp(name, "description")) {
          if (!dc_description.present) dc_description = {markup_of(c), true, true};
        }
      } else if (ns == Ns::kDcTerms) {
        if (!std::strcmp(name, "created")) {
          if (!d.created) d.created = parse_date(text_of(c));
        } else if (!std::strcmp(name, "issued")) {
          if (!d.issued) d.issued = parse_date(text_of(c));
        } else if (!std::strcmp(name, "modified")) {
          if (!d.modified) d.modified = parse_date(text_of(c));
        }
      } else if (ns == Ns::kContent && !std::strcmp(name, "encoded")) {
        if (!d.encoded.present) d.encoded = {markup_of(c), true, true};
      } else if (ns == Ns::kXhtml && !std::strcmp(name, "body")) {
        if (!d.body.present) d.body = {serialise_children(c), true, true};
      } else if (ns == Ns::kItunes && !std::strcmp(name, "author")) {
        add_unique(d.authors, person_name(text_of(c)));
      }
    }
    if (d.title.empty()) d.title = dc_title;
    if (!d.description.present) d.description = dc_description;
    return finish(std::move(d));
  }

  void read_core(const xmlNode* c, const char* name, Draft& d) {
    auto date = [&](std::optional<Time>& slot) {
      if (!slot) slot = parse_date(text_of(c));
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
      add_unique(d.authors, atom_person(c));
    } else if (!std::strcmp(name, "category")) {
      std::string term = attr(c, "term");
      if (term.empty()) term = attr(c, "label");
      if (term.empty()) term = own_text(c);
      add_unique(d.categories, collapse_whitespace(term));
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
    } else if (!std::strcmp(name, "fullitem")) {
      if (!d.body.present) d.body = {markup_of(c), true, true};
    }
  }

  Post finish(Draft d) {
    Post p;
    // A permalink guid, or an Atom id that is a web address, is the best link
    // left when the item has none (feedparser does the same).
    bool id_is_link = d.guid.empty() ? !d.atom_id.empty() : d.guid_is_permalink;
    p.id = !d.guid.empty() ? std::move(d.guid) : !d.atom_id.empty() ? std::move(d.atom_id) : std::move(d.about);
    p.link = !d.rss_link.empty()         ? std::move(d.rss_link)
             : !d.alternate_html.empty() ? std::move(d.alternate_html)
                                         : std::move(d.alternate_any);
    if (p.link.empty() && id_is_link && is_web_address(p.id)) p.link = p.id;
    p.title = std::move(d.title);
    p.authors = std::move(d.authors);
    if (p.authors.empty() && atom_) p.authors = feed_authors_;  // RFC 4287 4.2.1
    p.categories = std::move(d.categories);
    p.published = d.pub_date   ? d.pub_date
                  : d.published ? d.published
                  : d.issued    ? d.issued
                  : d.created   ? d.created
                                : d.dc_date;
    p.updated = d.updated ? d.updated : d.modified ? d.modified : d.dc_date;
    Text& summary = d.description.present ? d.description : d.summary;
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
    return p;
  }

  xmlDoc* doc_;
  const std::string& name_;
  const ParseOptions& options_;
  ParsedFeed& out_;
  std::vector<std::pair<const xmlNs*, Ns>> ns_cache_;
  std::vector<std::string> feed_authors_;
  bool atom_ = false;
  bool truncated_ = false;
  bool entity_limit_hit_ = false;
  int entity_expansions_ = 0;
  int entity_depth_ = 0;
  std::size_t entity_bytes_ = 0;
  std::size_t entity_cap_ = 0;
  std::size_t item_number_ = 0;
};

}  // namespace

ParsedFeed parse_feed(std::string_view bytes, const std::string& name, const ParseOptions& options) {
  ParsedFeed feed;
  feed.file = name;
  if (looks_like_json_feed(bytes)) {
    parse_json_feed(bytes, name, options, feed);
  } else {
    XmlDoc doc = read_xml(bytes, name, options, feed);
    Walker(doc.get(), name, options, feed).run();
  }
  return feed;
}

}  // namespace blogsearch
