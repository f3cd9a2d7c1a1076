#include <nlohmann/json.hpp>

#include "query/result.h"

namespace blogsearch {

namespace {

// Stored data comes from our own writer, but an older or newer writer may
// leave a field out or change its type; a search must still show the rest.
std::string str(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<std::string> strings(const nlohmann::json& j, const char* key) {
  std::vector<std::string> out;
  auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (const auto& v : *it)
    if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

}  // namespace

PostRecord parse_post_record(const std::string& data, Xapian::docid docid) {
  PostRecord p;
  p.docid = docid;
  nlohmann::json j = nlohmann::json::parse(data, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return p;
  p.id = str(j, "id");
  p.link = str(j, "link");
  p.title = str(j, "title");
  p.authors = strings(j, "authors");
  p.categories = strings(j, "categories");
  if (auto feed = j.find("feed"); feed != j.end() && feed->is_object()) {
    p.feed_id = str(*feed, "id");
    p.feed_title = str(*feed, "title");
    p.feed_url = str(*feed, "url");
  } else if (feed != j.end() && feed->is_string()) {
    p.feed_id = feed->get<std::string>();
  }
  p.feeds = strings(j, "feeds");
  p.published = str(j, "published");
  p.updated = str(j, "updated");
  p.first_seen = str(j, "first_seen");
  p.last_seen = str(j, "last_seen");
  if (auto v = j.find("versions"); v != j.end() && v->is_number_integer()) p.versions = v->get<long>();
  if (auto v = j.find("in_feed"); v != j.end() && v->is_boolean()) p.in_feed = v->get<bool>();
  p.summary = str(j, "summary");
  p.text = str(j, "text");
  p.content_hash = str(j, "content_hash");
  p.snapshot = str(j, "snapshot");
  if (auto h = j.find("history"); h != j.end() && h->is_array()) {
    for (const auto& v : *h) {
      if (!v.is_object()) continue;
      p.history.push_back({str(v, "content_hash"), str(v, "first_seen"), str(v, "last_seen"),
                           str(v, "snapshot")});
    }
  }
  return p;
}

}  // namespace blogsearch
