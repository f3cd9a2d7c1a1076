// post_terms.h: the part of a post's Xapian document that depends on the
// post alone: its plain text (HTML stripped), the terms and positions
// TermGenerator makes of it, and the author, category and host terms.
//
// This is the costly, self-contained part of indexing a post (Gumbo and
// TermGenerator), kept apart from the database so the writer can run it on
// worker threads. Each thread needs its own TermGenerator from
// make_term_generator(): TermGenerator, Stem and Document are not
// thread-safe. Never throws except std::bad_alloc (and Xapian::Error, which
// TermGenerator does not raise for text).
#pragma once

#include <xapian.h>

#include <string>
#include <unordered_map>

#include "indexer/post.h"

namespace blogsearch {

struct PostTerms {
  // Free-text terms with positions, author, category and host terms, and
  // the text (schema::kSlotText).
  Xapian::Document doc;
  std::string text;          // plain text of the content (else of the summary)
  std::string summary_text;  // plain text of the summary
};

// Words for spelling data ("did you mean") -> occurrences.
using SpellingCounts = std::unordered_map<std::string, Xapian::termcount>;

// A TermGenerator with blogsearch's stemming settings and its own Stem.
Xapian::TermGenerator make_term_generator();

// Indexes title (S and unprefixed, weighted), author words (A), category
// words and the body text, and adds the terms and value named above. Adds
// the post's unprefixed words to `spelling` (one map per thread: summing
// them there keeps that work off the writer's thread). The returned
// document shares nothing with `tg`.
PostTerms index_post(const Post& p, Xapian::TermGenerator& tg, SpellingCounts& spelling);

}  // namespace blogsearch
