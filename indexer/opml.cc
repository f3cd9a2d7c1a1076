// opml.cc: OPML through libxml2 (a tree to read, xmlTextWriter to write).
#include "indexer/opml.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlwriter.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <memory>


namespace blogsearch {

namespace {

std::string attr(xmlNode* node, const char* name) {
  xmlChar* v = xmlGetProp(node, reinterpret_cast<const xmlChar*>(name));
  if (!v) return {};
  std::string out(reinterpret_cast<const char*>(v));
  xmlFree(v);
  return out;
}

bool named(xmlNode* node, const char* name) {
  return node->type == XML_ELEMENT_NODE && xmlStrcmp(node->name, reinterpret_cast<const xmlChar*>(name)) == 0;
}

void outlines(xmlNode* node, const std::string& category, std::vector<OpmlFeed>& out) {
  for (; node; node = node->next) {
    if (!named(node, "outline")) continue;
    std::string title = attr(node, "title");
    if (title.empty()) title = attr(node, "text");
    const std::string url = attr(node, "xmlUrl");
    if (!url.empty()) {
      out.push_back({title, url, attr(node, "htmlUrl"), category});
      continue;  // a feed's children are not feeds of it
    }
    std::string folder = attr(node, "text");
    if (folder.empty()) folder = attr(node, "title");
    outlines(node->children, folder.empty() ? category : (category.empty() ? folder : category + "/" + folder), out);
  }
}

struct DocFree {
  void operator()(xmlDoc* d) const { xmlFreeDoc(d); }
};

}  // namespace

std::vector<OpmlFeed> read_opml(const std::string& text, const std::string& name) {
  std::unique_ptr<xmlDoc, DocFree> doc(
      xmlReadMemory(text.data(), static_cast<int>(std::min<std::size_t>(text.size(), 1u << 30)), name.c_str(),
                    nullptr, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING));
  if (!doc) {
    const xmlError* e = xmlGetLastError();
    std::string why = e && e->message ? e->message : "not well-formed XML";
    while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
    throw OpmlError(name + (e && e->line ? ":" + std::to_string(e->line) : "") + ": not XML: " + why);
  }
  xmlNode* root = xmlDocGetRootElement(doc.get());
  if (!root || !named(root, "opml")) throw OpmlError(name + ": not OPML (the root element is not <opml>)");
  std::vector<OpmlFeed> feeds;
  for (xmlNode* n = root->children; n; n = n->next)
    if (named(n, "body")) outlines(n->children, "", feeds);
  return feeds;
}

namespace {

// A folder: its own feeds, then its subfolders, each in first-seen order.
struct Folder {
  std::string name;
  std::vector<const OpmlFeed*> feeds;
  std::vector<std::unique_ptr<Folder>> folders;

  Folder& sub(const std::string& n) {
    for (auto& f : folders)
      if (f->name == n) return *f;
    folders.push_back(std::make_unique<Folder>());
    folders.back()->name = n;
    return *folders.back();
  }
};

const xmlChar* x(const std::string& s) { return reinterpret_cast<const xmlChar*>(s.c_str()); }

void write_folder(xmlTextWriterPtr w, const Folder& folder) {
  for (const OpmlFeed* f : folder.feeds) {
    xmlTextWriterStartElement(w, x("outline"));
    xmlTextWriterWriteAttribute(w, x("type"), x("rss"));
    xmlTextWriterWriteAttribute(w, x("text"), x(f->title));
    xmlTextWriterWriteAttribute(w, x("title"), x(f->title));
    xmlTextWriterWriteAttribute(w, x("xmlUrl"), x(f->url));
    if (!f->site.empty()) xmlTextWriterWriteAttribute(w, x("htmlUrl"), x(f->site));
    xmlTextWriterEndElement(w);
  }
  for (const auto& sub : folder.folders) {
    xmlTextWriterStartElement(w, x("outline"));
    xmlTextWriterWriteAttribute(w, x("text"), x(sub->name));
    xmlTextWriterWriteAttribute(w, x("title"), x(sub->name));
    write_folder(w, *sub);
    xmlTextWriterEndElement(w);
  }
}

// RFC 822, as OPML 2.0 wants dateCreated.
std::string rfc822(Time now) {
  std::time_t t = static_cast<std::time_t>(now);
  std::tm tm {};
  gmtime_r(&t, &tm);
  static const char* const days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const char* const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char out[64];
  std::snprintf(out, sizeof out, "%s, %02d %s %04d %02d:%02d:%02d GMT", days[tm.tm_wday], tm.tm_mday,
                months[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
  return out;
}

}  // namespace

std::string write_opml(const std::vector<OpmlFeed>& feeds, const std::string& title, Time now) {
  Folder root;
  for (const auto& f : feeds) {
    Folder* at = &root;
    std::size_t from = 0;
    while (from < f.category.size()) {
      std::size_t slash = f.category.find('/', from);
      if (slash == std::string::npos) slash = f.category.size();
      if (slash > from) at = &at->sub(f.category.substr(from, slash - from));
      from = slash + 1;
    }
    at->feeds.push_back(&f);
  }
  xmlBufferPtr buffer = xmlBufferCreate();
  xmlTextWriterPtr w = xmlNewTextWriterMemory(buffer, 0);
  xmlTextWriterSetIndent(w, 1);
  xmlTextWriterSetIndentString(w, x("  "));
  xmlTextWriterStartDocument(w, "1.0", "UTF-8", nullptr);
  xmlTextWriterStartElement(w, x("opml"));
  xmlTextWriterWriteAttribute(w, x("version"), x("2.0"));
  xmlTextWriterStartElement(w, x("head"));
  xmlTextWriterWriteElement(w, x("title"), x(title));
  xmlTextWriterWriteElement(w, x("dateCreated"), x(rfc822(now)));
  xmlTextWriterEndElement(w);
  xmlTextWriterStartElement(w, x("body"));
  write_folder(w, root);
  xmlTextWriterEndDocument(w);  // closes body and opml
  xmlFreeTextWriter(w);
  std::string out(reinterpret_cast<const char*>(xmlBufferContent(buffer)),
                  static_cast<std::size_t>(xmlBufferLength(buffer)));
  xmlBufferFree(buffer);
  return out;
}

}  // namespace blogsearch
