// post_page.h: what the CGI's page of one archived post shows, read from
// the database in one go: the post's record and text, its history (every
// version, record/post_history.h), what marks the words of the search it
// was reached from, and the posts most like it.
//
// Related posts come from Xapian's relevance feedback: an RSet holding the
// post, Enquire::get_eset's most distinctive body words of it (unprefixed
// terms of at least three bytes, not all digits) ORed into a query, the post
// itself left out, ranked by BM25 within the searcher's time limit.
//
// Searcher::post_page (searcher.h) fills it. It looks a post up as
// `blogsearch show` does: by its id (the id term), else by its link among
// the posts of the link's host, as stored or as people type links
// (link_key.h); never by reading every post. nullopt when no post has
// that id or link.
// It throws what a search throws: DatabaseUnavailable, and QueryError never
// (a query text that does not parse marks nothing).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "query/result.h"
#include "query/snippet.h"
#include "record/post_history.h"
#include "record/post_record.h"

namespace blogsearch {

struct PostPageRequest {
  std::string post;        // the post's id, or its link (as stored or as typed)
  std::string query_text;  // the search the page was reached from ("": none)
  unsigned related = 5;    // related posts wanted (at most 20)
  unsigned related_terms = 20;  // distinctive terms asked of get_eset
  unsigned time_limit_ms = 50;  // for the related posts' match
  // The versions whose texts the page shows (every one unless told).
  HistoryTexts texts;
};

struct PostPage {
  PostRecord post;  // with its text
  PostHistory history;
  // The title of each feed in post.feeds that has one, by feed id.
  std::map<std::string, std::string> feed_titles;
  // The query's words and stems, for make_snippet (empty when the page was
  // not reached from a search or the query does not parse).
  SnippetTerms marks;
  bool has_marks = false;
  std::vector<std::string> related_terms;  // the query the related posts answer
  std::vector<Hit> related;                // without snippets
};

}  // namespace blogsearch
