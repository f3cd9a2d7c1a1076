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
//   versions[]     {number, first_seen, last_seen (unix seconds), content
//                  (index), changed[], no_text, feed, snapshot}
//   appearances[]  {feed, times[] (the first absolute, then differences to
//                  the one before: small numbers that zlib packs well),
//                  contents[] (index per time)}
//   last_change    unix seconds
#include "record/post_history.h"

#include <nlohmann/json.hpp>

#include "common/utf8.h"
#include "record/json_fields.h"

#include <algorithm>
#include <ctime>

namespace blogsearch {
using nlohmann::json;

bool VersionContent::operator==(const VersionContent& o) const {
  return title == o.title && text == o.text && summary == o.summary && link == o.link &&
         published == o.published && updated == o.updated && authors == o.authors &&
         categories == o.categories && category_terms == o.category_terms;
}

namespace {

json time_or_null(const std::optional<std::int64_t>& t) { return t ? json(*t) : json(nullptr); }

std::optional<std::int64_t> opt_time(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<std::int64_t>();
}

std::vector<std::string> strings(const json& j, const char* key) {
  std::vector<std::string> out;
  auto it = j.find(key);
  if (it != j.end() && it->is_array())
    for (const auto& v : *it)
      if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

using json_fields::num;
using json_fields::str;

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

std::string get_text(const json& c, const char* key, const char* delta_key, const std::string* before) {
  auto it = c.find(delta_key);
  if (it == c.end()) return str(c, key);
  const json& d = *it;
  if (!before || !d.is_array() || d.size() != 3 || !d[0].is_number_unsigned() || !d[1].is_number_unsigned() ||
      !d[2].is_string())
    return {};
  const std::uint64_t p = d[0].get<std::uint64_t>(), s = d[1].get<std::uint64_t>();
  if (p > before->size() || s > before->size() - p) return {};
  return before->substr(0, p) + d[2].get<std::string>() + before->substr(before->size() - s);
}

}  // namespace

std::string encode_post_history(const PostHistory& h) {
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
    put_text(out, "text", "text_delta", c.text, previous ? &previous->text : nullptr);
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

PostHistory decode_post_history(std::string_view data) {
  PostHistory h;
  json j = json::parse(data.begin(), data.end(), nullptr, false);
  if (!j.is_object()) {
    h.ok = false;
    return h;
  }
  const std::size_t n_contents = j.contains("contents") && j["contents"].is_array() ? j["contents"].size() : 0;
  auto content_index = [&](const json& v) -> std::optional<std::uint32_t> {
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() >= n_contents) return std::nullopt;
    return static_cast<std::uint32_t>(v.get<std::uint64_t>());
  };
  if (n_contents)
    for (const auto& c : j["contents"]) {
      VersionContent vc;
      const VersionContent* before = h.contents.empty() ? nullptr : &h.contents.back();
      if (c.is_object()) {
        vc.title = str(c, "title");
        vc.text = get_text(c, "text", "text_delta", before ? &before->text : nullptr);
        vc.summary = get_text(c, "summary", "summary_delta", before ? &before->summary : nullptr);
        vc.link = str(c, "link");
        vc.published = opt_time(c, "published");
        vc.updated = opt_time(c, "updated");
        vc.authors = strings(c, "authors");
        vc.categories = strings(c, "categories");
        vc.category_terms = strings(c, "category_terms");
        vc.language = str(c, "language");
      }
      h.contents.push_back(std::move(vc));
    }
  if (auto it = j.find("versions"); it != j.end() && it->is_array())
    for (const auto& v : *it) {
      if (!v.is_object()) continue;
      auto c = v.find("content");
      auto content = c == v.end() ? std::nullopt : content_index(*c);
      if (!content) continue;
      Version out;
      out.number = static_cast<int>(num(v, "number"));
      out.first_seen = num(v, "first_seen");
      out.last_seen = num(v, "last_seen");
      out.content = *content;
      out.changed = strings(v, "changed");
      auto no_text = v.find("no_text");
      out.no_text = no_text != v.end() && no_text->is_boolean() && no_text->get<bool>();
      out.feed = str(v, "feed");
      out.snapshot = str(v, "snapshot");
      h.versions.push_back(std::move(out));
    }
  if (auto it = j.find("appearances"); it != j.end() && it->is_array())
    for (const auto& a : *it) {
      if (!a.is_object() || !a.contains("times") || !a.contains("contents") || !a["times"].is_array() ||
          !a["contents"].is_array() || a["times"].size() != a["contents"].size())
        continue;
      FeedAppearances fa;
      fa.feed = str(a, "feed");
      std::int64_t t = 0;
      bool good = true;
      for (std::size_t i = 0; i < a["times"].size() && good; ++i) {
        const json& d = a["times"][i];
        auto content = content_index(a["contents"][i]);
        if (!d.is_number_integer() || !content) good = false;
        else {
          t += d.get<std::int64_t>();
          fa.times.push_back(t);
          fa.contents.push_back(*content);
        }
      }
      if (good) h.appearances.push_back(std::move(fa));
    }
  h.last_change = num(j, "last_change");
  return h;
}

PostHistory read_post_history(const Xapian::Document& doc) { return decode_post_history(doc.get_data()); }

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
