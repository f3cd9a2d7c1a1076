#include "web/output_caps.h"

#include <memory>
#include <string>
#include <vector>

#include "common/utf8.h"

namespace blogsearch::web {

namespace {

bool over(const std::string& s, std::size_t max) { return s.size() > max; }

void cut(std::string& s, std::size_t max) {
  if (utf8::truncate_in_place(s, max)) s += "…";
}

bool list_over(const std::vector<std::string>& list, std::size_t names, std::size_t bytes) {
  if (list.size() > names) return true;
  for (const auto& s : list)
    if (over(s, bytes)) return true;
  return false;
}

void cut_list(std::vector<std::string>& list, std::size_t names, std::size_t bytes) {
  if (list.size() > names) list.resize(names);
  for (auto& s : list) cut(s, bytes);
}

bool post_over(const PostRecord& p, const OutputCaps& c) {
  return over(p.title, c.title_bytes) || over(p.summary, c.summary_bytes) || over(p.link, c.link_bytes) ||
         over(p.feed_title, c.name_bytes) || over(p.feed_id, c.facet_value_bytes) ||
         list_over(p.authors, c.names, c.name_bytes) || list_over(p.categories, c.names, c.name_bytes) ||
         p.feeds.size() > c.names;
}

void cap_snippet(std::vector<SnippetPart>& parts, std::size_t max) {
  std::size_t used = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (used + parts[i].text.size() > max) {
      cut(parts[i].text, max - used);
      parts.resize(i + 1);
      return;
    }
    used += parts[i].text.size();
  }
}

}  // namespace

void cap_result(SearchResult& r, const OutputCaps& c) {
  utf8::truncate_in_place(r.query, 4096);
  for (Hit& hit : r.hits) {
    cap_snippet(hit.snippet, c.snippet_bytes);
    if (!hit.post || !post_over(*hit.post, c)) continue;
    auto p = std::make_shared<PostRecord>(*hit.post);
    cut(p->title, c.title_bytes);
    cut(p->summary, c.summary_bytes);
    cut(p->feed_title, c.name_bytes);
    if (over(p->link, c.link_bytes)) p->link.clear();
    if (over(p->feed_id, c.facet_value_bytes)) p->feed_id.clear();
    cut_list(p->authors, c.names, c.name_bytes);
    cut_list(p->categories, c.names, c.name_bytes);
    if (p->feeds.size() > c.names) p->feeds.resize(c.names);
    hit.post = std::move(p);
  }
  for (Facet& f : r.facets) {
    std::vector<FacetValue> kept;
    kept.reserve(f.values.size());
    for (FacetValue& v : f.values) {
      if (over(v.value, c.facet_value_bytes)) continue;
      cut(v.label, c.facet_label_bytes);
      kept.push_back(std::move(v));
    }
    f.values = std::move(kept);
  }
}

}  // namespace blogsearch::web
