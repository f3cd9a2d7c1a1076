// post_terms.cc: Post -> plain text and free-text terms.
#include "indexer/post_terms.h"

#include <algorithm>

#include "indexer/html_text.h"
#include "indexer/schema.h"
#include "indexer/url.h"

namespace blogsearch {
namespace {

std::string plain_text(const std::string& s, bool is_html) {
  return is_html ? html_to_text(s) : collapse_whitespace(s);
}

// Spelling data ("did you mean") is added once per distinct word and
// batch by the writer: TermGenerator's FLAG_SPELLING updates it for every
// occurrence, which made a backfill 40% slower.
void collect_spelling(const Xapian::Document& doc, SpellingCounts& spelling) {
  for (auto t = doc.termlist_begin(); t != doc.termlist_end(); ++t) {
    const std::string& term = *t;
    unsigned char c = static_cast<unsigned char>(term[0]);
    if ((c >= 'A' && c <= 'Z') || term.size() > 32) continue;  // prefixed or junk
    if (std::any_of(term.begin(), term.end(), [](unsigned char ch) { return ch >= '0' && ch <= '9'; })) continue;
    spelling[term] += t.get_wdf();
  }
}

}  // namespace

Xapian::TermGenerator make_term_generator() {
  Xapian::TermGenerator tg;
  // A Stem of its own: copies of one Stem share a reference count that is
  // not atomic.
  tg.set_stemmer(Xapian::Stem(schema::kStemLanguage));
  tg.set_stemming_strategy(Xapian::TermGenerator::STEM_SOME);
  return tg;
}

PostTerms index_post(const Post& p, Xapian::TermGenerator& tg, SpellingCounts& spelling) {
  PostTerms out;
  tg.set_document(out.doc);
  tg.index_text(p.title, 1, schema::kTitle);
  tg.increase_termpos();
  tg.index_text(p.title, schema::kTitleWeight);
  tg.increase_termpos();
  for (const auto& a : p.authors) {
    tg.index_text(a, 1, schema::kAuthor);
    tg.increase_termpos();
  }
  for (const auto& c : p.categories) {
    tg.index_text(c);
    tg.increase_termpos();
  }
  out.text = plain_text(p.content, p.content_is_html);
  // Feeds without content:encoded give the description as both summary
  // and content: strip it once.
  out.summary_text = p.summary == p.content && p.summary_is_html == p.content_is_html
                         ? out.text
                         : plain_text(p.summary, p.summary_is_html);
  if (out.text.empty()) out.text = out.summary_text;
  tg.index_text(out.text);
  out.doc.add_value(schema::kSlotText, out.text);
  if (const std::string t = schema::title_term(p.title); !t.empty()) out.doc.add_term(t);
  for (const auto& a : p.authors) out.doc.add_boolean_term(schema::exact_term(schema::kAuthorExact, a));
  for (const auto& c : p.categories) out.doc.add_boolean_term(schema::exact_term(schema::kCategory, c));
  for (const auto& c : p.category_terms) out.doc.add_boolean_term(schema::exact_term(schema::kCategory, c));
  std::string host = url_host(p.link);
  if (!host.empty()) out.doc.add_boolean_term(schema::exact_term(schema::kHost, host));
  // The document may be handed to another thread: tg must not keep a
  // (non-atomically counted) reference to it.
  tg.set_document(Xapian::Document());
  collect_spelling(out.doc, spelling);
  return out;
}

}  // namespace blogsearch
