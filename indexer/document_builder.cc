// document_builder.cc: a post's current state -> its Xapian document.
#include "indexer/document_builder.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include <tsl/robin_map.h>

#include "common/utf8.h"
#include "indexer/date.h"
#include "common/fold.h"
#include "common/version_word.h"
#include "indexer/html_text.h"
#include "indexer/language.h"
#include "indexer/schema.h"
#include "record/link_key.h"
#include "indexer/url.h"
#include "record/stored_text.h"

namespace blogsearch {
namespace {

std::string plain_text(const std::string& s, bool is_html) {
  return is_html ? html_to_text(s) : collapse_whitespace(s);
}

std::string shorten(const std::string& text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t cut = utf8::boundary_before(text, max_bytes);
  std::size_t space = text.rfind(' ', cut);
  if (space != std::string::npos && space > max_bytes / 2) cut = space;
  return text.substr(0, cut) + "\u2026";
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

// A stemmer that remembers the stems it gave: most words of a post were
// stemmed in the posts before it (the layout's stem_cache; 3-5% of the CPU
// of an ingest of new posts, docs/benchmarks.md). One per worker and
// language, without a lock: one shared cache behind a read lock cost as
// much in the lock as it saved.
class CachedStem : public Xapian::StemImplementation {
 public:
  explicit CachedStem(Xapian::Stem stem) : stem_(std::move(stem)) {}
  std::string operator()(const std::string& word) override {
    auto hit = stems_.find(word);
    if (hit != stems_.end()) return hit->second;
    if (stems_.size() >= kMaxCachedStems) stems_.clear();
    return stems_.emplace(word, stem_(word)).first->second;
  }
  std::string get_description() const override { return "cached " + stem_.get_description(); }

 private:
  static constexpr std::size_t kMaxCachedStems = 100000;  // about 10 MB
  Xapian::Stem stem_;
  tsl::robin_map<std::string, std::string> stems_;
};

// Author names and the feed's title are words of the post too, weighted
// below the title and above one mention in the text: "hoffmann" finds the
// posts of an author Hoffmann, "mitchell hashimoto" those of the feed of
// that name.
constexpr Xapian::termcount kAuthorWeight = 2;
constexpr Xapian::termcount kFeedTitleWeight = 1;

Xapian::Document free_text(const DocumentInput& in, const std::string& language, Xapian::TermGenerator& tg,
                           Stemmers& stemmers) {
  const VersionContent& c = *in.content;
  const schema::PostingsLayout& layout = schema::postings_layout();
  // With trimmed positions, author, feed-title and category words get none.
  auto extra = [&](const std::string& text, Xapian::termcount weight, const std::string& prefix) {
    if (layout.trim_positions) tg.index_text_without_positions(text, weight, prefix);
    else tg.index_text(text, weight, prefix);
    tg.increase_termpos();
  };
  Xapian::Document doc;
  tg.set_stemmer(stemmers.get(language));
  tg.set_document(doc);
  tg.index_text(c.title, 1, schema::kTitle);
  tg.increase_termpos();
  // The unprefixed title keeps its positions: a quoted phrase that is only
  // in the title ("open source") must find the post.
  tg.index_text(c.title, schema::kTitleWeight);
  tg.increase_termpos();
  for (const auto& a : c.authors) {
    extra(a, 1, schema::kAuthor);
    extra(a, kAuthorWeight, "");
  }
  if (!in.feed_title.empty()) extra(in.feed_title, kFeedTitleWeight, "");
  for (const auto& cat : c.categories) extra(cat, 1, "");
  tg.index_text(in.text);
  // The document goes to another thread: tg must not keep a
  // (non-atomically counted) reference to it.
  tg.set_document(Xapian::Document());
  return doc;
}

// Each unstemmed word (unprefixed, title or author) that people also type
// another way gets that form too, at the same positions and with the same
// wdf, so that a phrase or a word typed that way finds it: a word with a
// diacritic its folded form (stems are folded already:
// schema::make_stemmer), a version number with a "v" its number
// (common/version_word.h).
void add_word_variants(Xapian::Document& doc) {
  struct Variant {
    std::string term;
    Xapian::termcount wdf;
    std::vector<Xapian::termpos> positions;
  };
  std::vector<Variant> variants;
  for (auto t = doc.termlist_begin(); t != doc.termlist_end(); ++t) {
    const std::string& term = *t;
    const unsigned char c = static_cast<unsigned char>(term[0]);
    std::size_t prefix = 0;
    if (c >= 'A' && c <= 'Z') {
      if ((c != schema::kTitle[0] && c != schema::kAuthor[0]) || term.size() < 2 ||
          (term[1] >= 'A' && term[1] <= 'Z'))
        continue;
      prefix = 1;
    }
    const std::string_view word = std::string_view(term).substr(prefix);
    std::string variant;
    if (fold::has_foldable(word)) variant = term.substr(0, prefix) + fold::fold(word);
    else if (is_version_with_v(word)) variant = term.substr(0, prefix) + std::string(word.substr(1));
    else continue;
    Variant f{std::move(variant), t.get_wdf(), {}};
    if (f.term.size() > schema::kMaxTermBytes) continue;
    for (auto p = t.positionlist_begin(); p != t.positionlist_end(); ++p) f.positions.push_back(*p);
    variants.push_back(std::move(f));
  }
  for (const auto& f : variants) {
    for (Xapian::termpos p : f.positions) doc.add_posting(f.term, p, 0);
    doc.add_term(f.term, f.wdf);
  }
}

void add_time(Xapian::Document& doc, schema::Slot slot, Time t) {
  doc.add_value(slot, Xapian::sortable_serialise(static_cast<double>(t)));
}

}  // namespace

Xapian::TermGenerator make_term_generator() {
  Xapian::TermGenerator tg;
  // A Stem of its own: copies of one Stem share a reference count that is
  // not atomic.
  tg.set_stemmer(schema::make_stemmer(schema::kStemLanguage));
  tg.set_stemming_strategy(schema::postings_layout().stems_only ? Xapian::TermGenerator::STEM_ALL_Z
                                                                : Xapian::TermGenerator::STEM_SOME);
  return tg;
}

VersionContent make_content(const Post& p) {
  VersionContent c;
  c.title = p.title;
  c.link = p.link;
  c.published = p.published;
  c.updated = p.updated;
  c.authors = p.authors;
  c.categories = p.categories;
  c.category_terms = p.category_terms;
  c.language = p.language;
  c.text = plain_text(p.content, p.content_is_html);
  // Feeds without content:encoded give the description as both summary
  // and content: strip it once.
  const std::string summary = p.summary == p.content && p.summary_is_html == p.content_is_html
                                  ? c.text
                                  : plain_text(p.summary, p.summary_is_html);
  if (c.text.empty()) c.text = summary;
  c.summary = shorten(summary, kMaxSummaryBytes);
  return c;
}

std::string content_hash(const VersionContent& c) {
  XXH3_state_t* st = XXH3_createState();
  XXH3_64bits_reset(st);
  auto add = [&](std::string_view s) {
    XXH3_64bits_update(st, s.data(), s.size());
    XXH3_64bits_update(st, "\0", 1);
  };
  add(c.title);
  add(c.text);
  add(c.summary);
  add(c.link);
  add(c.published ? std::to_string(*c.published) : "-");
  add(c.updated ? std::to_string(*c.updated) : "-");
  for (const auto* list : {&c.authors, &c.categories, &c.category_terms}) {
    for (const auto& s : *list) add(s);
    add("\x01");
  }
  std::string out = schema::hex64(XXH3_64bits_digest(st));
  XXH3_freeState(st);
  return out;
}

Xapian::Stem Stemmers::get(const std::string& language) {
  auto known = by_language_.find(language);
  if (known != by_language_.end()) return known->second;
  Xapian::Stem stem = schema::make_stemmer(language);
  if (schema::postings_layout().stem_cache) stem = Xapian::Stem(new CachedStem(std::move(stem)));
  return by_language_.emplace(language, stem).first->second;
}

Xapian::Document build_document(const DocumentInput& in, Xapian::TermGenerator& tg, Stemmers& stemmers,
                                SpellingCounts& spelling) {
  const VersionContent& c = *in.content;
  const std::string language = post_language(c.language, c.title, in.text);
  Xapian::Document doc = free_text(in, language, tg, stemmers);
  collect_spelling(doc, spelling);
  add_word_variants(doc);
  doc.add_boolean_term(schema::kLanguage + language);

  doc.add_boolean_term(schema::id_term(in.id));
  if (const std::string t = schema::title_term(c.title); !t.empty()) doc.add_term(t);
  for (const auto& a : c.authors) doc.add_boolean_term(schema::exact_term(schema::kAuthorExact, a));
  for (const auto& cat : c.categories) doc.add_boolean_term(schema::exact_term(schema::kCategory, cat));
  for (const auto& cat : c.category_terms) doc.add_boolean_term(schema::exact_term(schema::kCategory, cat));
  const std::string host = url_host(c.link);
  if (!host.empty()) doc.add_boolean_term(schema::exact_term(schema::kHost, host));
  for (const auto& f : in.feeds) doc.add_boolean_term(schema::exact_term(schema::kFeed, f));
  doc.add_boolean_term(std::string(schema::kInFeed) + (in.in_feed ? "yes" : "no"));

  const Time date = in.published.value_or(in.updated.value_or(in.first_seen));
  const std::string ymd = format_rfc3339(date).substr(0, 10);  // YYYY-MM-DD
  const std::string compact = ymd.substr(0, 4) + ymd.substr(5, 2) + ymd.substr(8, 2);
  doc.add_boolean_term(schema::kDay + compact);
  doc.add_boolean_term(schema::kMonth + compact.substr(0, 6));
  doc.add_boolean_term(schema::kYear + compact.substr(0, 4));

  add_time(doc, schema::kSlotPublished, date);
  if (in.updated) add_time(doc, schema::kSlotUpdated, *in.updated);
  add_time(doc, schema::kSlotFirstSeen, in.first_seen);
  add_time(doc, schema::kSlotLastSeen, in.last_seen);
  doc.add_value(schema::kSlotContentHash, in.content_hash);
  // A post without a link is told apart by its id, when that is a URL.
  doc.add_value(schema::kSlotDuplicateKey,
                schema::duplicate_key_value(duplicate_key(c.link.empty() ? in.id : c.link, c.title)));
  doc.add_value(schema::kSlotText,
                schema::postings_layout().compress_text ? encode_stored_text(in.text) : in.text);
  // Last: it lists the facet terms the document now has.
  doc.add_value(schema::kSlotFacets, schema::facet_value(doc, c.authors, c.categories));
  doc.add_value(schema::kSlotRecord, in.record);
  doc.set_data(in.history);
  return doc;
}

}  // namespace blogsearch
