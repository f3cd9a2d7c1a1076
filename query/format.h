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
#include "query/version_diff.h"
#include "record/post_history.h"

namespace blogsearch {

struct TextStyle {
  bool bold = false;  // ANSI bold for matches and titles (a TTY without NO_COLOR)
};

// "About 12 results (3 ms)", the results, the facets, "Did you mean".
void write_text(std::ostream& out, const SearchResult& result, const TextStyle& style);
// One post id per line.
void write_ids(std::ostream& out, const SearchResult& result);
// How many versions `blogsearch show` lists unless asked for all (--all):
// a post seen in thousands of snapshots has thousands of versions.
inline constexpr std::size_t kShownVersions = 20;
inline constexpr std::size_t kAllVersions = static_cast<std::size_t>(-1);
// One post in full, plain text; with `history`, its versions after its
// fields (write_versions).
// At most `max_versions` versions are listed (kAllVersions: all).
void write_post_text(std::ostream& out, const PostRecord& post, const PostHistory* history = nullptr,
                     std::size_t max_versions = kAllVersions);
// "Versions (3):" and one line per version: number, first and last seen,
// what it changed ("first version" for 1), "no text sent" when the feed
// sent none. Of more than `max_versions`, the newest that many, oldest
// first, after a line saying how many older ones are left out.
void write_versions(std::ostream& out, const PostHistory& history, std::size_t max_versions = kAllVersions);
// Version `number` (1-based; must exist) of a post: title, link, authors,
// categories, dates, seen times, what changed, and its text.
void write_version_text(std::ostream& out, const PostHistory& history, int number);
// Context for diff_block: every unchanged word.
inline constexpr std::size_t kAllContext = static_cast<std::size_t>(-1) / 4;
// A diff of two versions: the fields that changed, the title's word diff,
// and the text's, keeping its line breaks (diff_block).
void write_version_diff(std::ostream& out, const PostRecord& post, const VersionDiff& diff, bool colour,
                        std::size_t context = kAllContext);
// As diff_markup, but keeping the texts' line breaks (clean_block), and of
// each unchanged stretch only `context` words next to each change, the rest
// shown as "…" (kAllContext: all of it). An unchanged text is shown whole.
std::string diff_block(const TextDiff& diff, bool colour, std::size_t context = kAllContext);

// A word diff on one line: "kept [-removed-]{+added+} kept" (as git's
// --word-diff=plain), or with `colour` the removed words red and the added
// green (ANSI), without the marks. Cleaned like clean_line.
std::string diff_markup(const TextDiff& diff, bool colour);

struct JsonOptions {
  bool with_text = false;     // include each result's full plain text
  bool with_history = false;  // include each result's history (--history)
  // Include the "snapshot" of each result and version: a file path on this
  // machine, which the web's JSON leaves out (pages never show paths).
  bool with_paths = true;
};
nlohmann::json result_to_json(const SearchResult& result, const JsonOptions& options);
nlohmann::json post_to_json(const PostRecord& post, const JsonOptions& options);
// A post's versions, oldest first: [{"number", "first_seen", "last_seen",
// "changed": [...], "no_text", "feed", "snapshot"}] (no titles or texts;
// "snapshot" only `with_paths`); of more than `max_versions`, the newest
// that many.
nlohmann::json history_to_json(const PostHistory& history, std::size_t max_versions = kAllVersions,
                               bool with_paths = true);
// {"parts": [{"op": "same"|"removed"|"added", "text"}], "words_removed",
// "words_added", "coarse", "cut"}; each part's text starts with its lead.
nlohmann::json diff_to_json(const TextDiff& diff);
// Version `number` (must exist) with its title, dates and text; as
// write_version_text.
nlohmann::json version_to_json(const PostHistory& history, int number);
// {"id", "from", "to", "changed", "title": diff_to_json, "text": diff_to_json
// or null when either version has no text, "from_no_text", "to_no_text"}.
nlohmann::json version_diff_to_json(const PostRecord& post, const VersionDiff& diff);
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
