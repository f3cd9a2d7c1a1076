// post_history.h: a post's history, as the writer stores it in the
// document data and as `show`, `diff` and the post page read it.
//
// The history is the input and the output of the replay (indexer/replay.h):
//   contents     every distinct content the post was seen with: what the
//                index shows of it (title, text, summary, link, dates as the
//                feed wrote them, authors, categories), each stored once;
//   appearances  every snapshot the post was in, per feed: its observed time
//                and which content it had there;
//   versions     the runs of equal content in time order (a revert is a new
//                version whose content is an earlier one's), each with its
//                first and last seen time, what changed against the one
//                before, and the archived snapshot it was first seen in.
// It lives in the document data (glass compresses that with zlib; a search
// never reads it), encoded as one JSON object; encode (nlohmann-json) and
// decode (RapidJSON's event reader: a post seen in thousands of snapshots
// has megabytes of history, which `show` and the post page read whole) are
// side by side in post_history.cc.
//
// decode_post_history() never throws except std::bad_alloc: data of another
// shape gives an empty history (and `ok` false). encode throws only
// std::bad_alloc.
#pragma once

#include <xapian.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blogsearch {

// What the index shows of one version of a post. Two contents are the same
// version iff they are equal (operator==); raw HTML does not take part, so a
// re-render of the same text is no new version.
struct VersionContent {
  std::string title;
  std::string text;     // plain text of the content (else of the summary); "" when the feed sent none
  std::string summary;  // plain text of the summary, whole
  std::string link;
  std::optional<std::int64_t> published, updated;  // unix seconds, as the feed wrote them
  std::vector<std::string> authors;
  std::vector<std::string> categories;      // as written (labels)
  std::vector<std::string> category_terms;  // Atom category terms whose label differs
  // The language the feed declared (Post::language), "" when none. Not
  // compared, hashed or listed as a change: a feed that starts declaring its
  // language makes no new version.
  std::string language;
  bool operator==(const VersionContent& o) const;
  bool operator!=(const VersionContent& o) const { return !(*this == o); }
};

// One version: a run of appearances with equal content, in time order.
struct Version {
  int number = 0;                  // 1-based, oldest first
  std::int64_t first_seen = 0;     // observed time of the run's first snapshot
  std::int64_t last_seen = 0;      // ... and of its last
  std::uint32_t content = 0;       // index into PostHistory::contents
  // What differs from the version before: any of "title", "text",
  // "summary", "link", "published", "updated", "authors", "categories"; empty
  // for version 1.
  std::vector<std::string> changed;
  // The feed sent no text in this version: the post stays searchable by
  // the last non-empty text before it (PostHistory::searchable_text).
  bool no_text = false;
  std::string feed;      // feed of the first snapshot of the run
  std::string snapshot;  // archive file of that snapshot ("" when unknown)
};

// The appearances of a post in one feed: parallel arrays, times ascending.
struct FeedAppearances {
  std::string feed;
  std::vector<std::int64_t> times;
  std::vector<std::uint32_t> contents;  // index into PostHistory::contents
};

struct PostHistory {
  std::vector<VersionContent> contents;
  std::vector<Version> versions;
  std::vector<FeedAppearances> appearances;  // sorted by feed id
  // The time of the last change: the first seen time of the newest version
  // (Atom <updated>). 0 for an empty history.
  std::int64_t last_change = 0;
  // Whether decoding found our layout.
  bool ok = true;

  const VersionContent& content_of(const Version& v) const { return contents.at(v.content); }
};

// The fields in which two contents differ, as Version::changed names them,
// in that order.
std::vector<std::string> changed_fields(const VersionContent& a, const VersionContent& b);

// A content whose text equals `stored_text` (the post's searchable text,
// which kSlotText holds) is written without it; decoding takes it from
// `text_value`, the kSlotText value as stored (stored_text.h), and only
// decodes that when a content needs it.
std::string encode_post_history(const PostHistory& h, std::string_view stored_text = {});

// The versions whose text and summary a reader wants decoded: every one
// (the default), or only those listed, by number as readers count them
// (version N is versions[N - 1]; -1 is the newest, -2 the one before);
// the other contents keep text and summary empty (Version::no_text says
// whether the feed sent a text). Texts are stored as deltas, so each one
// rebuilt is a copy of a whole text: for the post seen with 3,813 versions,
// rebuilding all of them for the one or two its page shows took 6 MB and
// 21 ms of the page's 74 ms of CPU.
struct HistoryTexts {
  bool all = true;
  std::vector<long> versions;  // when not all; 0 and numbers out of range are ignored
  static HistoryTexts of(std::vector<long> numbers) { return {false, std::move(numbers)}; }
  static HistoryTexts none() { return {false, {}}; }
};

PostHistory decode_post_history(std::string_view data, std::string_view text_value = {},
                                const HistoryTexts& texts = {});
// The history of a stored post (its document data and kSlotText).
PostHistory read_post_history(const Xapian::Document& doc, const HistoryTexts& texts = {});

// "2026-09-02T01:32:28Z" for unix seconds. Never throws except std::bad_alloc.
std::string format_time(std::int64_t t);

}  // namespace blogsearch
