// post_record.cc: a stored document back into a PostRecord.
//
// Every result of every search passes through here, so the document data
// is read with RapidJSON, in place: nlohmann-json (which the rest of the
// project uses to write JSON) built a tree of maps for the same bytes and
// took a fifth of a whole search process, RapidJSON a twentieth of that.
#include <rapidjson/document.h>

#include "indexer/schema.h"
#include "query/result.h"

namespace blogsearch {

namespace {

using Value = rapidjson::Value;

// Stored data comes from our own writer, but an older or newer writer may
// leave a field out or change its type; a search must still show the rest.
std::string str(const Value& object, const char* key) {
  auto it = object.FindMember(key);
  if (it == object.MemberEnd() || !it->value.IsString()) return std::string();
  return std::string(it->value.GetString(), it->value.GetStringLength());
}

std::vector<std::string> strings(const Value& object, const char* key) {
  std::vector<std::string> out;
  auto it = object.FindMember(key);
  if (it == object.MemberEnd() || !it->value.IsArray()) return out;
  for (const auto& v : it->value.GetArray())
    if (v.IsString()) out.emplace_back(v.GetString(), v.GetStringLength());
  return out;
}

}  // namespace

PostRecord read_post_record(const Xapian::Document& doc, bool with_text) {
  PostRecord p = parse_post_record(doc.get_data(), doc.get_docid());
  if (with_text) p.text = doc.get_value(schema::kSlotText);
  return p;
}

PostRecord parse_post_record(std::string data, Xapian::docid docid) {
  PostRecord p;
  p.docid = docid;
  rapidjson::Document j;
  // Iterative: nesting costs heap, not stack, whatever the data holds.
  j.ParseInsitu<rapidjson::kParseIterativeFlag>(data.data());  // ours, NUL-terminated
  if (j.HasParseError() || !j.IsObject()) return p;
  p.id = str(j, "id");
  p.link = str(j, "link");
  p.title = str(j, "title");
  p.authors = strings(j, "authors");
  p.categories = strings(j, "categories");
  if (auto feed = j.FindMember("feed"); feed != j.MemberEnd() && feed->value.IsObject()) {
    p.feed_id = str(feed->value, "id");
    p.feed_title = str(feed->value, "title");
    p.feed_url = str(feed->value, "url");
  } else if (feed != j.MemberEnd() && feed->value.IsString()) {
    p.feed_id = feed->value.GetString();
  }
  p.feeds = strings(j, "feeds");
  p.published = str(j, "published");
  p.updated = str(j, "updated");
  p.first_seen = str(j, "first_seen");
  p.last_seen = str(j, "last_seen");
  if (auto v = j.FindMember("versions"); v != j.MemberEnd() && v->value.IsInt64()) p.versions = v->value.GetInt64();
  if (auto v = j.FindMember("in_feed"); v != j.MemberEnd() && v->value.IsBool()) p.in_feed = v->value.GetBool();
  p.summary = str(j, "summary");
  p.content_hash = str(j, "content_hash");
  p.snapshot = str(j, "snapshot");
  if (auto h = j.FindMember("history"); h != j.MemberEnd() && h->value.IsArray()) {
    for (const auto& v : h->value.GetArray()) {
      if (!v.IsObject()) continue;
      p.history.push_back({str(v, "content_hash"), str(v, "first_seen"), str(v, "last_seen"),
                           str(v, "snapshot")});
    }
  }
  return p;
}

}  // namespace blogsearch
