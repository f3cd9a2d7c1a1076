// post_record.cc: the post record (post_record.h) encoded and decoded.
//
// Encoding uses nlohmann-json, as the rest of the writer does. Every result of every search passes through here, so the stored record
// (schema::kSlotRecord) is read with RapidJSON's event parser, in place,
// straight into the PostRecord: nlohmann-json (which the rest of the project
// uses to write JSON) built a tree of maps for the same bytes and took a
// fifth of a whole search process, this a twentieth of that. The recursive in-place parse
// never touches RapidJSON's internal stack (whose first push is undefined
// behaviour in RapidJSON 1.1.0), and the handler stops it at kMaxDepth so
// nesting cannot run the C stack out.
#include "record/post_record.h"

#include <nlohmann/json.hpp>

#include "indexer/schema.h"
#include "record/json_reader.h"
#include "record/stored_text.h"

namespace blogsearch {

namespace {

// Our writer nests two deep (the feed object in the root).
constexpr std::size_t kMaxDepth = 8;

// Where the parser is: which container of the stored layout (schema.h).
enum class Where { kRoot, kFeed, kAuthors, kCategories, kFeeds, kOther };

// Stored data comes from our own writer, but an older or newer writer may
// leave a field out or change its type; a search must still show the rest,
// so values of an unexpected type are skipped.
class RecordHandler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, RecordHandler> {
 public:
  explicit RecordHandler(PostRecord& p) : p_(p) {}

  bool StartObject() { return enter(child(true)); }
  bool EndObject(rapidjson::SizeType) { return leave(); }
  bool StartArray() { return enter(child(false)); }
  bool EndArray(rapidjson::SizeType) { return leave(); }
  bool Key(const char* s, rapidjson::SizeType n, bool) {
    key_.assign(s, n);
    return true;
  }

  bool String(const char* s, rapidjson::SizeType n, bool) {
    std::string* field = nullptr;
    switch (where()) {
      case Where::kRoot:
        field = root_field();
        break;
      case Where::kFeed:
        field = key_ == "id"      ? &p_.feed_id
                : key_ == "title" ? &p_.feed_title
                : key_ == "url"   ? &p_.feed_url
                                  : nullptr;
        break;
      case Where::kAuthors:
        field = &p_.authors.emplace_back();
        break;
      case Where::kCategories:
        field = &p_.categories.emplace_back();
        break;
      case Where::kFeeds:
        field = &p_.feeds.emplace_back();
        break;
      case Where::kOther:
        break;
    }
    if (field) field->assign(s, n);  // only strings that land somewhere are copied
    return true;
  }

  bool Bool(bool b) {
    if (where() == Where::kRoot && key_ == "in_feed") p_.in_feed = b;
    if (where() == Where::kRoot && key_ == "no_text") p_.no_text = b;
    return true;
  }
  bool Int(int n) { return versions(n); }
  bool Uint(unsigned n) { return versions(n); }
  bool Int64(std::int64_t n) { return versions(n); }
  bool Uint64(std::uint64_t n) { return versions(static_cast<std::int64_t>(n)); }

 private:
  Where where() const { return stack_.empty() ? Where::kOther : stack_.back(); }

  // What a container opened here holds.
  Where child(bool object) {
    if (stack_.empty()) return object ? Where::kRoot : Where::kOther;
    switch (stack_.back()) {
      case Where::kRoot:
        if (object) return key_ == "feed" ? Where::kFeed : Where::kOther;
        if (key_ == "authors") return Where::kAuthors;
        if (key_ == "categories") return Where::kCategories;
        if (key_ == "feeds") return Where::kFeeds;
        return Where::kOther;
      default:
        return Where::kOther;
    }
  }

  bool enter(Where w) {
    if (stack_.size() >= kMaxDepth) return false;  // not our layout: stop
    stack_.push_back(w);
    return true;
  }
  bool leave() {
    if (!stack_.empty()) stack_.pop_back();
    return true;
  }

  // The root field the current key names, or nullptr.
  std::string* root_field() {
    if (key_ == "id") return &p_.id;
    if (key_ == "link") return &p_.link;
    if (key_ == "title") return &p_.title;
    if (key_ == "feed") return &p_.feed_id;  // an older layout: just the id
    if (key_ == "published") return &p_.published;
    if (key_ == "updated") return &p_.updated;
    if (key_ == "first_seen") return &p_.first_seen;
    if (key_ == "last_seen") return &p_.last_seen;
    if (key_ == "last_change") return &p_.last_change;
    if (key_ == "summary") return &p_.summary;
    if (key_ == "content_hash") return &p_.content_hash;
    if (key_ == "snapshot") return &p_.snapshot;
    return nullptr;
  }

  bool versions(std::int64_t n) {
    if (where() == Where::kRoot && key_ == "versions") p_.versions = static_cast<long>(n);
    return true;
  }

  PostRecord& p_;
  std::vector<Where> stack_;
  std::string key_;
};

nlohmann::json time_or_null(const std::string& t) { return t.empty() ? nlohmann::json(nullptr) : nlohmann::json(t); }

}  // namespace

std::string encode_post_record(const PostRecord& p) {
  nlohmann::json j = {
      {"id", p.id},
      {"link", p.link},
      {"title", p.title},
      {"authors", p.authors},
      {"categories", p.categories},
      {"feed", {{"id", p.feed_id}, {"title", p.feed_title}, {"url", p.feed_url}}},
      {"feeds", p.feeds},
      {"published", time_or_null(p.published)},
      {"updated", time_or_null(p.updated)},
      {"first_seen", p.first_seen},
      {"last_seen", p.last_seen},
      {"last_change", p.last_change},
      {"versions", p.versions},
      {"in_feed", p.in_feed},
      {"no_text", p.no_text},
      {"summary", p.summary},
      {"content_hash", p.content_hash},
      {"snapshot", p.snapshot},
  };
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

PostRecord read_post_record(const Xapian::Document& doc, bool with_text) {
  PostRecord p = parse_post_record(doc.get_value(schema::kSlotRecord), doc.get_docid());
  if (with_text) p.text = decode_stored_text(doc.get_value(schema::kSlotText));
  return p;
}

PostRecord parse_post_record(std::string data, Xapian::docid docid) {
  PostRecord p;
  RecordHandler handler(p);
  if (!parse_in_place(data, handler)) p = PostRecord();
  p.docid = docid;
  return p;
}

}  // namespace blogsearch
