// xml_cdata.cc: a scanner that knows just enough XML to find CDATA sections
// in element content (anything it is unsure of makes it give up, and the
// document is then parsed as it is), and the walk that puts their text back.
#include "indexer/xml_cdata.h"

namespace blogsearch {
namespace {

bool starts_at(std::string_view s, std::size_t i, std::string_view prefix) {
  return s.compare(i, prefix.size(), prefix) == 0;
}

constexpr std::string_view kMarkOpen = "\xEF\xB7\x90";   // U+FDD0
constexpr std::string_view kMarkClose = "\xEF\xB7\x91";  // U+FDD1
// libxml2's XML_MAX_TEXT_LENGTH, which the original parse would enforce.
constexpr std::size_t kMaxTextBytes = 10000000;

// Appends `text` with "\r\n" and "\r" turned into "\n", as libxml2 does
// with the line ends of a CDATA section.
void append_normalised(std::string& out, std::string_view text) {
  for (;;) {
    std::size_t cr = text.find('\r');
    out.append(text.substr(0, cr));
    if (cr == std::string_view::npos) return;
    out += '\n';
    text.remove_prefix(cr + (cr + 1 < text.size() && text[cr + 1] == '\n' ? 2 : 1));
  }
}

// One text node. Markers must come in the order they were written, each
// once: a character reference such as &#xFDD0; in the document could
// otherwise pass for one. False when a marker is out of place or malformed,
// or the text too long.
bool restore_text(xmlNode* node, const std::vector<std::string_view>& sections, std::size_t& next) {
  std::string_view content(reinterpret_cast<const char*>(node->content));
  std::size_t at = content.find(kMarkOpen);
  if (at == std::string_view::npos) return true;
  std::string text;
  for (;;) {
    text.append(content.substr(0, at));
    if (at == std::string_view::npos) break;
    content.remove_prefix(at + kMarkOpen.size());
    std::size_t close = content.find(kMarkClose);
    if (close == std::string_view::npos || close == 0 || close > 9) return false;
    std::size_t index = 0;
    for (char c : content.substr(0, close)) {
      if (c < '0' || c > '9') return false;
      index = index * 10 + static_cast<std::size_t>(c - '0');
    }
    if (index != next || index >= sections.size()) return false;
    ++next;
    append_normalised(text, sections[index]);
    if (text.size() > kMaxTextBytes) return false;
    content.remove_prefix(close + kMarkClose.size());
    at = content.find(kMarkOpen);
  }
  if (text.size() > kMaxTextBytes) return false;
  xmlNodeSetContentLen(node, reinterpret_cast<const xmlChar*>(text.data()), static_cast<int>(text.size()));
  return true;
}

}  // namespace

bool mark_cdata_sections(std::string_view in, std::string& out, std::vector<std::string_view>& sections) {
  constexpr std::string_view kOpen = "<![CDATA[";
  if (in.find(kOpen) == std::string_view::npos) return false;
  if (in.find(kMarkOpen) != std::string_view::npos || in.find(kMarkClose) != std::string_view::npos) return false;
  out.clear();
  out.reserve(in.size() / 4);
  sections.clear();
  bool changed = false;
  long depth = 0;  // open elements
  std::size_t i = 0;
  for (;;) {
    std::size_t lt = in.find('<', i);
    out.append(in.substr(i, lt == std::string_view::npos ? std::string_view::npos : lt - i));
    if (lt == std::string_view::npos) break;
    std::size_t end;
    if (starts_at(in, lt, kOpen)) {
      std::size_t body = lt + kOpen.size();
      end = in.find("]]>", body);
      if (end == std::string_view::npos) return false;
      std::string_view text = in.substr(body, end - body);
      end += 3;
      // Sections outside the root element are left to libxml2's errors.
      if (depth > 0 && text.size() <= kMaxMarkedCdata) {
        out += kMarkOpen;
        out += std::to_string(sections.size());
        out += kMarkClose;
        sections.push_back(text);
        changed = true;
      } else {
        out.append(in.substr(lt, end - lt));
      }
    } else if (starts_at(in, lt, "<!--")) {
      end = in.find("-->", lt + 4);
      if (end == std::string_view::npos) return false;
      end += 3;
      out.append(in.substr(lt, end - lt));
    } else if (starts_at(in, lt, "<?")) {
      end = in.find("?>", lt + 2);
      if (end == std::string_view::npos) return false;
      end += 2;
      out.append(in.substr(lt, end - lt));
    } else if (starts_at(in, lt, "<!")) {
      // A DOCTYPE: its internal subset may declare entities holding
      // markup, so only the plain form is passed over.
      end = in.find_first_of("[<>", lt + 2);
      if (end == std::string_view::npos || in[end] != '>') return false;
      end += 1;
      out.append(in.substr(lt, end - lt));
    } else {
      // A start or end tag; quoted attribute values may hold '>'.
      char quote = 0;
      end = lt + 1;
      for (; end < in.size(); ++end) {
        char c = in[end];
        if (c == '<') return false;
        if (quote != 0) {
          if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == '>') {
          break;
        }
      }
      if (end == in.size()) return false;
      if (in[lt + 1] == '/') --depth;
      else if (in[end - 1] != '/') ++depth;
      if (depth < 0) return false;
      end += 1;
      out.append(in.substr(lt, end - lt));
    }
    i = end;
  }
  return changed;
}

bool restore_cdata_sections(xmlDoc* doc, const std::vector<std::string_view>& sections) {
  std::size_t next = 0;  // the marker expected next, in document order
  xmlNode* node = doc->children;
  while (node != nullptr) {
    if (node->type == XML_TEXT_NODE && node->content != nullptr && !restore_text(node, sections, next)) {
      return false;
    }
    if (node->type == XML_ELEMENT_NODE && node->children != nullptr) {
      node = node->children;
      continue;
    }
    while (node != nullptr && node->next == nullptr) {
      xmlNode* up = node->parent;
      node = (up == nullptr || up == reinterpret_cast<xmlNode*>(doc)) ? nullptr : up;
    }
    if (node != nullptr) node = node->next;
  }
  return next == sections.size();
}

}  // namespace blogsearch
