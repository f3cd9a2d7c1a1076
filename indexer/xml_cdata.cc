// xml_cdata.cc: a scanner that knows just enough XML to find CDATA sections
// in element content; anything it is unsure of makes it give up, and the
// document is then parsed as it is.
#include "indexer/xml_cdata.h"

#include <cstring>

namespace blogsearch {
namespace {

bool starts_at(std::string_view s, std::size_t i, std::string_view prefix) {
  return s.compare(i, prefix.size(), prefix) == 0;
}

// Character references rather than &lt; and &amp;: libxml2 reads them with
// less work (no entity lookup). Text is copied in runs between the bytes
// that need escaping; memchr finds each kind, and where the next one of a
// kind is, is remembered until it has been passed (no rescanning).
void append_escaped(std::string& out, std::string_view text) {
  const char* p = text.data();
  const char* const end = p + text.size();
  const char kinds[3] = {'<', '&', '>'};
  const char* found[3];
  auto find = [&](int k) {
    const void* hit = std::memchr(p, kinds[k], static_cast<std::size_t>(end - p));
    found[k] = hit != nullptr ? static_cast<const char*>(hit) : end;
  };
  for (int k = 0; k < 3; ++k) find(k);
  for (;;) {
    int k = 0;
    for (int j = 1; j < 3; ++j) {
      if (found[j] < found[k]) k = j;
    }
    const char* next = found[k];
    out.append(p, static_cast<std::size_t>(next - p));
    if (next == end) break;
    if (kinds[k] == '<') {
      out += "&#60;";
    } else if (kinds[k] == '&') {
      out += "&#38;";
    } else if (!out.empty() && out.back() == ']') {
      out += "&#62;";  // "]]>" is not allowed in character data
    } else {
      out += '>';
    }
    p = next + 1;
    find(k);
  }
}

}  // namespace

bool escape_cdata_sections(std::string_view in, std::string& out) {
  constexpr std::string_view kOpen = "<![CDATA[";
  if (in.find(kOpen) == std::string_view::npos) return false;
  out.clear();
  out.reserve(in.size() + in.size() / 8);
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
      // Text after a section ending in ']' could start with '>'; leave
      // such sections (and ones outside the root element) alone.
      if (depth > 0 && text.size() <= kMaxRewrittenCdata && (text.empty() || text.back() != ']')) {
        append_escaped(out, text);
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

}  // namespace blogsearch
