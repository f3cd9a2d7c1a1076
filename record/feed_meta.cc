// feed_meta.cc: the feed metadata (feed_meta.h) encoded and decoded.
#include "record/feed_meta.h"

#include <nlohmann/json.hpp>

#include "record/json_fields.h"

namespace blogsearch {
using nlohmann::json;

namespace {

const char* const kKnown[] = {"id", "title", "url", "link", "last_ingest", "latest_observed",
                              "latest_body", "newest_complete", "fetch"};

using json_fields::num;
using json_fields::str;

}  // namespace

std::string encode_feed_meta(const FeedMeta& f) {
  json j = json::parse(f.other, nullptr, false);
  if (!j.is_object()) j = json::object();
  j["id"] = f.id;
  j["title"] = f.title;
  j["url"] = f.url;
  j["link"] = f.link;
  j["last_ingest"] = f.last_ingest;
  j["latest_observed"] = f.latest_observed;
  j["latest_body"] = f.latest_body;
  if (f.newest_complete) j["newest_complete"] = *f.newest_complete;
  if (f.fetch) {
    const FetchState& s = *f.fetch;
    j["fetch"] = {{"config_url", s.config_url},
                  {"url", s.url},
                  {"etag", s.etag},
                  {"last_modified", s.last_modified},
                  {"last_attempt", s.last_attempt},
                  {"last_success", s.last_success},
                  {"last_status", s.last_status},
                  {"final_url", s.final_url},
                  {"last_error", s.last_error.empty() ? json(nullptr) : json(s.last_error)},
                  {"consecutive_failures", s.consecutive_failures}};
  }
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

FeedMeta decode_feed_meta(std::string_view data, const std::string& id) {
  FeedMeta f;
  f.id = id;
  json j = json::parse(data.begin(), data.end(), nullptr, false);
  if (!j.is_object()) return f;
  if (std::string s = str(j, "id"); !s.empty()) f.id = s;
  f.title = str(j, "title");
  f.url = str(j, "url");
  f.link = str(j, "link");
  f.last_ingest = str(j, "last_ingest");
  f.latest_observed = num(j, "latest_observed");
  f.latest_body = str(j, "latest_body");
  if (auto it = j.find("newest_complete"); it != j.end() && it->is_number_integer())
    f.newest_complete = it->get<std::int64_t>();
  if (auto it = j.find("fetch"); it != j.end() && it->is_object()) {
    FetchState s;
    s.config_url = str(*it, "config_url");
    s.url = str(*it, "url");
    s.etag = str(*it, "etag");
    s.last_modified = str(*it, "last_modified");
    s.last_attempt = str(*it, "last_attempt");
    s.last_success = str(*it, "last_success");
    s.last_status = static_cast<int>(num(*it, "last_status"));
    s.final_url = str(*it, "final_url");
    s.last_error = str(*it, "last_error");
    s.consecutive_failures = static_cast<long>(num(*it, "consecutive_failures"));
    f.fetch = std::move(s);
  }
  for (const char* key : kKnown) j.erase(key);
  if (!j.empty()) f.other = j.dump(-1, ' ', false, json::error_handler_t::replace);
  return f;
}

}  // namespace blogsearch
