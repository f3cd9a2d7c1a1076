// post_history.cc: the document data of a post, encoded and decoded.
//
// Layout (one JSON object):
//   contents[]     {title, text, summary, link, published, updated (unix
//                  seconds or null), authors[], categories[], category_terms[],
//                  language (only when declared)}
//                  Instead of text or summary a content after the first
//                  may hold text_delta / summary_delta: [p, s, "middle"],
//                  meaning the first p bytes of the content before it, then
//                  middle, then its last s bytes (cut at characters). Most
//                  versions change a few words of a long text: this halved
//                  the data written over blog-history, and with it the
//                  time zlib spends compressing it.
//                  A content whose text is the post's searchable text
//                  (kSlotText, stored_text.h) holds text_stored: true
//                  instead: the text is stored once, not twice (the
//                  document data of the generated 10,000 posts was 70%
//                  the current text again).
//   versions[]     {number, first_seen, last_seen (unix seconds), content
//                  (index), changed[], no_text, feed, snapshot}
//   appearances[]  {feed, times[] (the first absolute, then differences to
//                  the one before: small numbers that zlib packs well),
//                  contents[] (index per time)}
//   last_change    unix seconds
#include "record/post_history.h"

#include <nlohmann/json.hpp>

#include "common/utf8.h"
#include "indexer/schema.h"
#include "record/json_reader.h"
#include "record/stored_text.h"

#include <algorithm>
#include <ctime>
#include <optional>

namespace blogsearch {
using nlohmann::json;

bool VersionContent::operator==(const VersionContent& o) const {
  return title == o.title && text == o.text && summary == o.summary && link == o.link &&
         published == o.published && updated == o.updated && authors == o.authors &&
         categories == o.categories && category_terms == o.category_terms;
}

namespace {

json time_or_null(const std::optional<std::int64_t>& t) { return t ? json(*t) : json(nullptr); }


// Below this many bytes saved the whole text is stored: a delta has to pay
// for its own brackets and numbers.
constexpr std::size_t kMinDeltaSaving = 32;

// `now` as a delta against `before`, or null when that does not pay. Both
// are valid UTF-8 (TextSink's output), so the common prefix and suffix are
// cut where characters start.
json delta_of(const std::string& before, const std::string& now) {
  const std::size_t n = std::min(before.size(), now.size());
  std::size_t p = 0;
  while (p < n && before[p] == now[p]) ++p;
  p = utf8::boundary_before(now, p);
  std::size_t s = 0;
  while (s < n - p && before[before.size() - 1 - s] == now[now.size() - 1 - s]) ++s;
  while (s > 0 && utf8::is_continuation(now[now.size() - s])) --s;
  if (p + s < kMinDeltaSaving) return json(nullptr);
  return json::array({p, s, now.substr(p, now.size() - p - s)});
}

// A field written as itself or as a delta against `before`.
void put_text(json& out, const char* key, const char* delta_key, const std::string& now, const std::string* before) {
  if (before) {
    json d = delta_of(*before, now);
    if (!d.is_null()) {
      out[delta_key] = std::move(d);
      return;
    }
  }
  out[key] = now;
}

}  // namespace

std::string encode_post_history(const PostHistory& h, std::string_view stored_text) {
  json contents = json::array();
  const VersionContent* previous = nullptr;
  for (const auto& c : h.contents) {
    json out = {{"title", c.title},
                {"link", c.link},
                {"published", time_or_null(c.published)},
                {"updated", time_or_null(c.updated)},
                {"authors", c.authors},
                {"categories", c.categories},
                {"category_terms", c.category_terms}};
    if (!c.language.empty()) out["language"] = c.language;
    if (!stored_text.empty() && c.text == stored_text) out["text_stored"] = true;
    else put_text(out, "text", "text_delta", c.text, previous ? &previous->text : nullptr);
    put_text(out, "summary", "summary_delta", c.summary, previous ? &previous->summary : nullptr);
    contents.push_back(std::move(out));
    previous = &c;
  }
  json versions = json::array();
  for (const auto& v : h.versions)
    versions.push_back({{"number", v.number},
                        {"first_seen", v.first_seen},
                        {"last_seen", v.last_seen},
                        {"content", v.content},
                        {"changed", v.changed},
                        {"no_text", v.no_text},
                        {"feed", v.feed},
                        {"snapshot", v.snapshot}});
  json appearances = json::array();
  for (const auto& a : h.appearances) {
    json times = json::array();
    std::int64_t before = 0;
    for (std::int64_t t : a.times) {
      times.push_back(t - before);
      before = t;
    }
    appearances.push_back({{"feed", a.feed}, {"times", std::move(times)}, {"contents", a.contents}});
  }
  json out = {{"contents", std::move(contents)},
              {"versions", std::move(versions)},
              {"appearances", std::move(appearances)},
              {"last_change", h.last_change}};
  return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

namespace {

// Decoding: RapidJSON's event reader, in place, straight into the history.
// The post page of a post seen in thousands of snapshots decodes megabytes
// of it (3,813 versions: 2.5 MB): nlohmann-json's tree of maps for those
// took most of the page's 100 ms. The rules are those of the fields'
// types: a field missing or of another type reads as empty (0, ""), a
// content that is no object is an empty one, a version or appearance that
// is no object, or names a content that is not there, is left out (an
// appearance also when its times and contents differ in number or hold
// other than numbers). Content indexes are checked once the whole object
// is read: the keys are written in name order, "appearances" first.

// Our layout nests four deep (root, contents, a content, its authors).
constexpr std::size_t kMaxDepth = 8;

// A number as JSON gives it: whether it was an integer, and whether unsigned.
struct Number {
  bool integer = false, is_unsigned = false;
  std::uint64_t u = 0;
  std::int64_t i = 0;
};

struct RawDelta {
  bool present = false;  // the key is there, of whatever type
  bool good = false;     // an array [unsigned, unsigned, string]
  std::size_t size = 0;  // elements seen
  std::uint64_t p = 0, s = 0;
  std::string middle;
};

struct RawContent {
  VersionContent vc;  // title, link, dates, lists, language; text and summary when given whole
  RawDelta text_delta, summary_delta;
  bool text_stored = false;  // the text is the searchable text (kSlotText)
};

struct RawVersion {
  Version v;
  Number content;
  bool has_content = false;
};

struct RawAppearance {
  std::string feed;
  bool times_array = false, contents_array = false;
  bool good = true;  // every time an integer
  std::vector<std::int64_t> times;
  std::vector<Number> contents;
};

// Where the reader is: the container it is in.
enum class In {
  kRoot, kContents, kContent, kVersions, kVersion, kAppearances, kAppearance,
  kStrings, kDelta, kTimes, kIndexes, kSkip, kOther
};

class HistoryHandler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, HistoryHandler> {
 public:
  bool root_object = false;
  std::vector<RawContent> contents;
  std::vector<RawVersion> versions;
  std::vector<RawAppearance> appearances;
  std::int64_t last_change = 0;

  bool StartObject() { return open(true); }
  bool EndObject(rapidjson::SizeType) { return close(); }
  bool StartArray() { return open(false); }
  bool EndArray(rapidjson::SizeType) { return close(); }
  bool Key(const char* s, rapidjson::SizeType n, bool) {
    key_.assign(s, n);
    return true;
  }

  bool String(const char* s, rapidjson::SizeType n, bool) {
    const std::string_view v(s, n);
    switch (in()) {
      case In::kContents:
        contents.emplace_back();  // no object: an empty content
        break;
      case In::kContent: {
        VersionContent& c = contents.back().vc;
        if (std::string* f = key_ == "title" ? &c.title : key_ == "link" ? &c.link : key_ == "text" ? &c.text
                             : key_ == "summary" ? &c.summary : key_ == "language" ? &c.language : nullptr)
          f->assign(v);
        else delta_scalar();
        break;
      }
      case In::kVersion: {
        Version& ver = versions.back().v;
        if (key_ == "feed") ver.feed.assign(v);
        else if (key_ == "snapshot") ver.snapshot.assign(v);
        else if (key_ == "content") versions.back().has_content = true;  // of the wrong type
        break;
      }
      case In::kAppearance:
        if (key_ == "feed") appearances.back().feed.assign(v);
        break;
      case In::kStrings:
        strings_->emplace_back(v);
        break;
      case In::kDelta:
        if (delta_->size++ == 2) delta_->middle.assign(v);
        else delta_->good = false;
        break;
      case In::kTimes:
        appearances.back().good = false;
        appearances.back().times.push_back(0);
        break;
      case In::kIndexes:
        appearances.back().contents.emplace_back();
        break;
      default:
        break;
    }
    return true;
  }

  bool Null() { return other(); }
  bool Bool(bool b) {
    if (in() == In::kVersion && key_ == "no_text") versions.back().v.no_text = b;
    if (in() == In::kContent && key_ == "text_stored") {
      contents.back().text_stored = b;
      return true;
    }
    return other();
  }
  bool Double(double) { return other(); }
  bool Int(int n) { return number(signed_number(n)); }
  bool Int64(std::int64_t n) { return number(signed_number(n)); }
  bool Uint(unsigned n) { return number(unsigned_number(n)); }
  bool Uint64(std::uint64_t n) { return number(unsigned_number(n)); }

 private:
  static Number signed_number(std::int64_t n) {
    Number x;
    x.integer = true;
    x.i = n;
    x.u = static_cast<std::uint64_t>(n);
    return x;
  }
  static Number unsigned_number(std::uint64_t n) {
    Number x;
    x.integer = x.is_unsigned = true;
    x.u = n;
    x.i = static_cast<std::int64_t>(n);
    return x;
  }

  In in() const { return stack_.empty() ? In::kOther : stack_.back(); }

  // A text_delta or summary_delta that is no array is there, and bad.
  void delta_scalar() {
    if (RawDelta* d = delta_of_key()) {
      d->present = true;
      d->good = false;
    }
  }
  RawDelta* delta_of_key() {
    if (key_ == "text_delta") return &contents.back().text_delta;
    if (key_ == "summary_delta") return &contents.back().summary_delta;
    return nullptr;
  }

  // Null, a boolean or a fraction: of the wrong type wherever it is.
  bool other() {
    switch (in()) {
      case In::kContents: contents.emplace_back(); break;
      case In::kContent: delta_scalar(); break;
      case In::kVersion: if (key_ == "content") versions.back().has_content = true; break;
      case In::kDelta: delta_->size++; delta_->good = false; break;
      case In::kTimes: appearances.back().good = false; appearances.back().times.push_back(0); break;
      case In::kIndexes: appearances.back().contents.emplace_back(); break;
      default: break;
    }
    return true;
  }

  bool number(const Number& x) {
    switch (in()) {
      case In::kContents:
        contents.emplace_back();
        break;
      case In::kRoot:
        if (key_ == "last_change") last_change = x.i;
        break;
      case In::kContent: {
        VersionContent& c = contents.back().vc;
        if (key_ == "published") c.published = x.i;
        else if (key_ == "updated") c.updated = x.i;
        else delta_scalar();
        break;
      }
      case In::kVersion: {
        RawVersion& r = versions.back();
        if (key_ == "number") r.v.number = static_cast<int>(x.i);
        else if (key_ == "first_seen") r.v.first_seen = x.i;
        else if (key_ == "last_seen") r.v.last_seen = x.i;
        else if (key_ == "content") {
          r.has_content = true;
          r.content = x;
        }
        break;
      }
      case In::kDelta: {
        const std::size_t at = delta_->size++;
        if (at < 2 && x.is_unsigned) (at == 0 ? delta_->p : delta_->s) = x.u;
        else delta_->good = false;
        break;
      }
      case In::kTimes:
        appearances.back().times.push_back(x.i);
        break;
      case In::kIndexes:
        appearances.back().contents.push_back(x);
        break;
      default:
        break;
    }
    return true;
  }

  // What a container opened here is.
  In child(bool object) {
    if (stack_.empty()) {
      root_object = object;
      return object ? In::kRoot : In::kSkip;
    }
    switch (stack_.back()) {
      case In::kRoot:
        if (object) return In::kSkip;
        if (key_ == "contents" && !seen_contents_) {
          seen_contents_ = true;
          return In::kContents;
        }
        if (key_ == "versions" && !seen_versions_) {
          seen_versions_ = true;
          return In::kVersions;
        }
        if (key_ == "appearances" && !seen_appearances_) {
          seen_appearances_ = true;
          return In::kAppearances;
        }
        return In::kSkip;
      case In::kContents:
        contents.emplace_back();  // an element that is no object is an empty content
        return object ? In::kContent : In::kSkip;
      case In::kContent:
        if (RawDelta* d = delta_of_key()) {
          d->present = true;
          d->good = !object;
          d->size = 0;
          delta_ = d;
          return object ? In::kSkip : In::kDelta;
        }
        if (object) return In::kSkip;
        strings_ = key_ == "authors" ? &contents.back().vc.authors
                   : key_ == "categories" ? &contents.back().vc.categories
                   : key_ == "category_terms" ? &contents.back().vc.category_terms : nullptr;
        return strings_ ? In::kStrings : In::kSkip;
      case In::kVersions:
        if (!object) return In::kSkip;
        versions.emplace_back();
        return In::kVersion;
      case In::kVersion:
        if (key_ == "content") versions.back().has_content = true;  // of the wrong type
        if (object || key_ != "changed") return In::kSkip;
        strings_ = &versions.back().v.changed;
        return In::kStrings;
      case In::kAppearances:
        if (!object) return In::kSkip;
        appearances.emplace_back();
        return In::kAppearance;
      case In::kAppearance:
        if (object) {
          if (key_ == "times" || key_ == "contents") appearances.back().good = false;
          return In::kSkip;
        }
        if (key_ == "times") {
          appearances.back().times_array = true;
          appearances.back().times.clear();
          return In::kTimes;
        }
        if (key_ == "contents") {
          appearances.back().contents_array = true;
          appearances.back().contents.clear();
          return In::kIndexes;
        }
        return In::kSkip;
      case In::kDelta:
        delta_->size++;
        delta_->good = false;
        return In::kSkip;
      case In::kTimes:
        appearances.back().good = false;
        appearances.back().times.push_back(0);
        return In::kSkip;
      case In::kIndexes:
        appearances.back().contents.emplace_back();
        return In::kSkip;
      default:
        return In::kSkip;
    }
  }

  bool open(bool object) {
    if (stack_.size() >= kMaxDepth) return false;  // not our layout: stop
    stack_.push_back(child(object));
    return true;
  }
  bool close() {
    if (!stack_.empty()) stack_.pop_back();
    return true;
  }

  std::vector<In> stack_;
  std::string key_;
  std::vector<std::string>* strings_ = nullptr;
  RawDelta* delta_ = nullptr;
  bool seen_contents_ = false, seen_versions_ = false, seen_appearances_ = false;
};

// A text given whole, or as a delta against the content before (`before`).
std::string text_of(std::string&& whole, const RawDelta& d, const std::string* before) {
  if (!d.present) return std::move(whole);
  if (!before || !d.good || d.size != 3) return {};
  if (d.p > before->size() || d.s > before->size() - d.p) return {};
  std::string out;
  out.reserve(d.p + d.middle.size() + d.s);
  out.append(*before, 0, d.p).append(d.middle).append(*before, before->size() - d.s, d.s);
  return out;
}

PostHistory decode_in_place(std::string& data, std::string_view text_value, const HistoryTexts& texts) {
  PostHistory h;
  HistoryHandler handler;
  if (!parse_in_place(data, handler) ||
      !handler.root_object) {
    h.ok = false;
    return h;
  }
  const std::size_t n = handler.contents.size();
  auto index = [n](const Number& x) -> std::optional<std::uint32_t> {
    if (!x.is_unsigned || x.u >= n) return std::nullopt;
    return static_cast<std::uint32_t>(x.u);
  };
  h.versions.reserve(handler.versions.size());
  for (RawVersion& raw : handler.versions) {
    const auto content = raw.has_content ? index(raw.content) : std::nullopt;
    if (!content) continue;
    raw.v.content = *content;
    h.versions.push_back(std::move(raw.v));
  }

  // The contents whose texts are wanted, and how far the deltas must be
  // followed to rebuild them.
  std::vector<bool> wanted(n, texts.all);
  if (!texts.all)
    for (long number : texts.versions) {
      const long count = static_cast<long>(h.versions.size());
      if (number < 0) number += count + 1;
      if (number >= 1 && number <= count) wanted[h.versions[static_cast<std::size_t>(number - 1)].content] = true;
    }
  std::size_t end = n;
  while (end > 0 && !wanted[end - 1]) --end;

  h.contents.reserve(n);  // no reallocation: `*_before` point into it
  std::string text_buf, summary_buf;  // the texts of the content before, when not kept
  const std::string* text_before = nullptr;
  const std::string* summary_before = nullptr;
  std::optional<std::string> stored;  // decoded when a content needs it
  for (std::size_t k = 0; k < n; ++k) {
    RawContent& raw = handler.contents[k];
    VersionContent vc = std::move(raw.vc);
    std::string text, summary;
    if (k < end) {
      if (raw.text_stored) {
        if (!stored) stored = decode_stored_text(text_value);
        text = *stored;
      } else {
        text = text_of(std::move(vc.text), raw.text_delta, text_before);
      }
      summary = text_of(std::move(vc.summary), raw.summary_delta, summary_before);
    }
    if (wanted[k]) {
      vc.text = std::move(text);
      vc.summary = std::move(summary);
    } else {  // kept only as the base of the next delta
      text_buf = std::move(text);
      summary_buf = std::move(summary);
      vc.text.clear();
      vc.summary.clear();
    }
    h.contents.push_back(std::move(vc));
    text_before = wanted[k] ? &h.contents.back().text : &text_buf;
    summary_before = wanted[k] ? &h.contents.back().summary : &summary_buf;
  }
  for (RawAppearance& raw : handler.appearances) {
    if (!raw.times_array || !raw.contents_array || !raw.good || raw.times.size() != raw.contents.size()) continue;
    FeedAppearances fa;
    fa.feed = std::move(raw.feed);
    std::int64_t t = 0;
    bool good = true;
    for (std::size_t i = 0; i < raw.times.size() && good; ++i) {
      const auto content = index(raw.contents[i]);
      if (!content) good = false;
      else {
        t += raw.times[i];
        fa.times.push_back(t);
        fa.contents.push_back(*content);
      }
    }
    if (good) h.appearances.push_back(std::move(fa));
  }
  h.last_change = handler.last_change;
  return h;
}

}  // namespace

PostHistory decode_post_history(std::string_view data, std::string_view text_value, const HistoryTexts& texts) {
  std::string copy(data);  // the reader decodes strings in place
  return decode_in_place(copy, text_value, texts);
}

PostHistory read_post_history(const Xapian::Document& doc, const HistoryTexts& texts) {
  std::string data = doc.get_data();
  return decode_in_place(data, doc.get_value(schema::kSlotText), texts);
}


std::vector<std::string> changed_fields(const VersionContent& a, const VersionContent& b) {
  std::vector<std::string> out;
  if (a.title != b.title) out.push_back("title");
  if (a.text != b.text) out.push_back("text");
  if (a.summary != b.summary) out.push_back("summary");
  if (a.link != b.link) out.push_back("link");
  if (a.published != b.published) out.push_back("published");
  if (a.updated != b.updated) out.push_back("updated");
  if (a.authors != b.authors) out.push_back("authors");
  if (a.categories != b.categories || a.category_terms != b.category_terms) out.push_back("categories");
  return out;
}

std::string format_time(std::int64_t t) {
  std::time_t tt = static_cast<std::time_t>(t);
  std::tm tm{};
  char buf[32];
  if (!gmtime_r(&tt, &tm) || std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0) return {};
  return buf;
}

}  // namespace blogsearch
