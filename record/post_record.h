// post_record.h: the post record (schema::kSlotRecord), encoded by the
// writer and decoded by every search, side by side in post_record.cc.
//
// The record holds what a search result shows of a post: small, so that
// reading it for each result stays cheap. The history (every version's
// title and text) is not in it: it is in the document data
// (post_history.h), which only `show`, `diff` and the post page read.
//
// Layout: one JSON object
//   id, link, title            strings
//   authors[], categories[]    strings, as written in the feed
//   feed {id, title, url}      the feed of the post's newest appearance
//   feeds[]                    every feed that carried it, sorted
//   published, updated         RFC 3339 UTC strings or null (a date more
//                              than a day after first_seen is first_seen)
//   first_seen, last_seen      RFC 3339 UTC (observed snapshot times)
//   last_change                RFC 3339 UTC: when the newest version was
//                              first seen
//   versions                   number of versions (>= 1)
//   in_feed                    true while the newest snapshot of a feed
//                              carrying it has it
//   no_text                    the feed sends no text now (the text kept
//                              searchable is an earlier version's)
//   summary                    plain text of the summary, cut at a word to
//                              at most 600 bytes + "…"
//   content_hash               hex XXH3-64 of the current version's content
//   snapshot                   archive file the current version was first
//                              seen in
//
// decode_post_record() and read_post_record() throw only std::bad_alloc
// and (reading a document) Xapian errors: fields missing from the stored
// data, or of the wrong type, are left empty. encode_post_record() throws
// only std::bad_alloc.
#pragma once

#include <xapian.h>

#include <string>
#include <vector>

namespace blogsearch {

// Every field of a post's stored record. Times are RFC 3339 UTC strings as
// stored; "" when the feed did not give one.
struct PostRecord {
  Xapian::docid docid = 0;  // not stored: where it was read from
  std::string id;
  std::string link;
  std::string title;
  std::vector<std::string> authors;
  std::vector<std::string> categories;
  std::string feed_id, feed_title, feed_url;  // the feed that last carried it
  std::vector<std::string> feeds;              // every feed that carried it
  std::string published;
  std::string updated;
  std::string first_seen;
  std::string last_seen;
  std::string last_change;
  long versions = 0;
  bool in_feed = false;
  bool no_text = false;
  std::string summary;
  std::string text;  // not stored in the record: kSlotText (only when asked for)
  std::string content_hash;
  std::string snapshot;
};

std::string encode_post_record(const PostRecord& p);
// Builds a record from its encoding (`data` is consumed: parsed in place).
PostRecord parse_post_record(std::string data, Xapian::docid docid);
// Builds a record from a document: its record and, `with_text`, its plain
// text, each from its value slot.
PostRecord read_post_record(const Xapian::Document& doc, bool with_text);

}  // namespace blogsearch
