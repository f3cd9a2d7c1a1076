// post_page.cc: Searcher::post_page (post_page.h), what the CGI's page of
// one post reads: the post by its id or link, its history, the marks of
// the search it was reached from, and related posts by relevance feedback.
#include "query/post_page.h"

#include <algorithm>
#include <stdexcept>

#include "indexer/schema.h"
#include "query/query_builder.h"
#include "query/searcher.h"

namespace blogsearch {

namespace {

constexpr unsigned kMaxRelated = 20;
constexpr unsigned kMaxRelatedTerms = 50;

// The terms relevance feedback may pick: body words (unprefixed: prefixed
// terms start with a capital letter) of three bytes or more, not numbers,
// which say little about what a post is about.
class BodyWords : public Xapian::ExpandDecider {
 public:
  bool operator()(const std::string& term) const override {
    if (term.size() < 3) return false;
    if (term[0] >= 'A' && term[0] <= 'Z') return false;
    return !std::all_of(term.begin(), term.end(), [](char c) { return c >= '0' && c <= '9'; });
  }
};

}  // namespace

std::optional<PostPage> Searcher::post_page(const PostPageRequest& request) {
  for (int attempt = 0;; ++attempt) {
    try {
      return post_page_once(request);
    } catch (...) {
      on_read_error(attempt);
    }
  }
}

std::optional<PostPage> Searcher::post_page_once(const PostPageRequest& request) {
  if (request.post.empty()) return std::nullopt;
  std::optional<PostRecord> post = find_post_once(request.post, false);
  if (!post) return std::nullopt;
  PostPage page;
  page.post = std::move(*post);
  feed_names_->apply(page.post);
  for (const std::string& feed : page.post.feeds)
    if (std::string title = feed_names_->title_of(feed); !title.empty()) page.feed_titles[feed] = std::move(title);
  page.history = read_post_history(db_.get_document(page.post.docid), request.texts);

  if (!request.query_text.empty()) {
    QueryOptions options;
    options.text = request.query_text;
    options.spelling = false;
    try {
      const TermCounts counts = TermCounts::of(db_);
      page.marks = snippet_terms(build_query(db_, options).query, request.query_text, &counts);
      page.has_marks = !page.marks.needles.empty();
    } catch (const QueryError&) {
      // A query that does not parse (or filters only) marks nothing.
    }
  }

  const unsigned wanted = std::min(request.related, kMaxRelated);
  if (wanted == 0) return page;
  Xapian::RSet rset;
  rset.add_document(page.post.docid);
  Xapian::Enquire feedback(db_);
  const BodyWords body_words;
  const Xapian::ESet eset =
      feedback.get_eset(std::min(request.related_terms, kMaxRelatedTerms), rset, &body_words);
  std::vector<Xapian::Query> terms;
  for (auto t = eset.begin(); t != eset.end(); ++t) {
    page.related_terms.push_back(*t);
    terms.emplace_back(*t);
  }
  if (terms.empty()) return page;
  Xapian::Enquire enquire(db_);
  enquire.set_weighting_scheme(Xapian::BM25Weight());
  enquire.set_query(Xapian::Query(Xapian::Query::OP_AND_NOT,
                                  Xapian::Query(Xapian::Query::OP_OR, terms.begin(), terms.end()),
                                  Xapian::Query(schema::id_term(page.post.id))));
  if (request.time_limit_ms > 0) enquire.set_time_limit(request.time_limit_ms / 1000.0);
  const Xapian::MSet mset = enquire.get_mset(0, wanted + 1);
  unsigned rank = 0;
  for (auto it = mset.begin(); it != mset.end() && page.related.size() < wanted; ++it) {
    if (*it == page.post.docid) continue;  // left out by its id term already; a second guard
    Hit& hit = page.related.emplace_back();
    hit.rank = ++rank;
    hit.percent = it.get_percent();
    hit.weight = it.get_weight();
    auto related = std::make_shared<PostRecord>(read_post_record(it.get_document(), false));
    related->docid = *it;
    feed_names_->apply(*related);
    hit.post = std::move(related);
  }
  return page;
}

}  // namespace blogsearch
