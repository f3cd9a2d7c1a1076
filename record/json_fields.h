// json_fields.h: reading one field of a stored JSON object, for the codecs
// of record/ (feed_meta.cc, post_history.cc). A missing field or one of
// another type reads as empty / 0, so data from an older or newer writer
// still decodes. Nothing here throws except std::bad_alloc.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace blogsearch::json_fields {

inline std::string str(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

inline std::int64_t num(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number_integer() ? it->get<std::int64_t>() : 0;
}

}  // namespace blogsearch::json_fields
