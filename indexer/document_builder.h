// document_builder.h: THE one place that makes a post's Xapian document:
// every term, value and the data, from what the replay (replay.h) settled.
//
// Two steps, both pure:
//   make_content(Post)    what the index shows of an item as the feed sent
//                         it: HTML stripped to plain text (the costly part);
//                         versions are compared on this (record/post_history.h)
//   build_document(...)   the whole document of the post's current state.
// The writer runs both on worker threads (ordered_pool.h), so each thread
// needs its own TermGenerator from make_term_generator() and its own
// Stemmers: TermGenerator, Stem and Document are not thread-safe. The
// document returned shares nothing with either.
//
// To add a term or a value: add it in build_document() (free text through
// the TermGenerator, boolean terms with add_boolean_term), give it its
// prefix or slot in schema.h, and bump schema::kSchemaVersion when old
// databases lack it.
//
// Nothing here throws except std::bad_alloc (and Xapian::Error, which
// TermGenerator does not raise for text).
#pragma once

#include <xapian.h>

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "indexer/post.h"
#include "record/post_history.h"

namespace blogsearch {

// Words for spelling data ("did you mean") -> occurrences.
using SpellingCounts = std::unordered_map<std::string, Xapian::termcount>;

// A TermGenerator with blogsearch's stemming settings and its own Stem.
Xapian::TermGenerator make_term_generator();

// One worker's stemmers, one per language, each remembering the stems it
// gave (a Snowball stem takes about 1.8 us, a look-up a fraction of it).
// Not thread-safe: each worker has its own and keeps it from batch to
// batch; a language's memory starts over past 100,000 words.
class Stemmers {
 public:
  Xapian::Stem get(const std::string& language);

 private:
  std::unordered_map<std::string, Xapian::Stem> by_language_;
};

// What the index shows of `p`: title, plain text of the content (else of
// the summary; "" when there is neither), summary (plain, cut at a word to
// at most kMaxSummaryBytes + "…"), link, dates as written, authors and
// categories.
VersionContent make_content(const Post& p);
inline constexpr std::size_t kMaxSummaryBytes = 600;

// Everything a post's document is made of.
struct DocumentInput {
  std::string id;
  const VersionContent* content = nullptr;  // the current version
  std::string text;  // the text to search: the current one, or the last non-empty one
  // Dates as shown: the replay settles a date too far in the future.
  std::optional<Time> published, updated;
  Time first_seen = 0, last_seen = 0;
  std::vector<std::string> feeds;  // every feed that carried it
  std::string feed_title;          // of the feed it is shown in: searchable words
  bool in_feed = false;
  std::string content_hash;  // hex, of the current version
  std::string record;        // encoded post record (schema::kSlotRecord)
  std::string history;       // encoded history (the document data)
};

// The post's document, stemmed in its language (language.h; its L term):
// id (Q), title (S and unprefixed, weighted), author words (A and
// unprefixed), the feed title's words, category and body words, folded
// copies of the words with diacritics, exact author, category, host, feed and
// in-feed terms, date terms (D, M, Y), every value slot and the data. Adds
// the post's unprefixed words to `spelling` (one map per thread: summing
// them there keeps that work off the writer's thread). `tg` and `stemmers`
// are the calling worker's own.
Xapian::Document build_document(const DocumentInput& in, Xapian::TermGenerator& tg, Stemmers& stemmers,
                                SpellingCounts& spelling);

// The hex XXH3-64 of a content: equal contents, equal hashes.
std::string content_hash(const VersionContent& c);

}  // namespace blogsearch
