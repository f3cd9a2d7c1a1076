// format.h: rendering the result model (result.h) for the command line.
//
// One function per output. Each is the only place that escapes for its
// output: text output drops control characters (so a hostile feed cannot
// drive the terminal) and marks matches with ANSI bold only when asked;
// JSON output is nlohmann-json with invalid UTF-8 replaced by U+FFFD.
// The JSON shape is documented in docs/blogsearch.md and stable: fields
// are only ever added. None of these functions throws (except bad_alloc).
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <string_view>

#include "query/result.h"
#include "query/text_diff.h"
#include "record/post_history.h"

namespace blogsearch {

struct TextStyle {
  bool bold = false;  // ANSI bold for matches and titles (a TTY without NO_COLOR)
};

// "About 12 results (3 ms)", the results, the facets, "Did you mean".
void write_text(std::ostream& out, const SearchResult& result, const TextStyle& style);
// One post id per line.
void write_ids(std::ostream& out, const SearchResult& result);
// One post in full, plain text.
void write_post_text(std::ostream& out, const PostRecord& post);

// A word diff on one line: "kept [-removed-]{+added+} kept" (as git's
// --word-diff=plain), or with `colour` the removed words red and the added
// green (ANSI), without the marks. Cleaned like clean_line.
std::string diff_markup(const TextDiff& diff, bool colour);

struct JsonOptions {
  bool with_text = false;     // include each result's full plain text
  bool with_history = false;  // include each result's history (--history)
};
nlohmann::json result_to_json(const SearchResult& result, const JsonOptions& options);
nlohmann::json post_to_json(const PostRecord& post, const JsonOptions& options);
// A post's versions, oldest first: [{"number", "first_seen", "last_seen",
// "changed": [...], "no_text", "feed", "snapshot"}] (no titles or texts).
nlohmann::json history_to_json(const PostHistory& history);
// {"parts": [{"op": "same"|"removed"|"added", "text"}], "words_removed",
// "words_added", "coarse", "cut"}; each part's text starts with its lead.
nlohmann::json diff_to_json(const TextDiff& diff);
// Serialises compactly with invalid UTF-8 replaced, never throwing.
std::string dump_json(const nlohmann::json& value, bool pretty);

// Text safe for one terminal line: valid UTF-8, control characters and
// line breaks turned into single spaces.
std::string clean_line(const std::string& text);
// The same but keeping newlines (for post bodies).
std::string clean_block(const std::string& text);

// A count with thousands separators ("1,234,567"), for every output that
// shows counts; made on the stack, as a page writes dozens.
class Thousands {
 public:
  explicit Thousands(unsigned long long n);
  std::string_view view() const { return {text_, size_}; }

 private:
  char text_[32];
  std::size_t size_ = 0;
};

}  // namespace blogsearch
