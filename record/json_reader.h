// json_reader.h: RapidJSON's SAX reader over a stored JSON value, in place,
// for the codecs that read on every search (post_record.cc,
// post_history.cc).
//
// The record library is built with RAPIDJSON_SSE2 (CMakeLists.txt), so the
// reader scans strings 16 aligned bytes at a time and may read up to 15
// bytes past the end of the text (never past the page). parse_in_place()
// first makes the string's buffer long enough for that, so that no read
// leaves the allocation (AddressSanitizer checks it). `data` is parsed in
// place: its bytes are overwritten. Returns false when it is not valid
// JSON (the handler has then seen part of it); throws only what the
// handler throws and std::bad_alloc.
#pragma once

#include <rapidjson/reader.h>

#include <string>

namespace blogsearch {

inline constexpr std::size_t kJsonReadSlack = 16;

template <typename Handler>
bool parse_in_place(std::string& data, Handler& handler) {
  data.reserve(data.size() + kJsonReadSlack);
  rapidjson::Reader reader;
  rapidjson::InsituStringStream in(data.data());  // NUL-terminated: a std::string's
  return !reader.Parse<rapidjson::kParseInsituFlag>(in, handler).IsError();
}

}  // namespace blogsearch
