// snippet.h: the few words of a result's text shown around its matches.
//
// A snippet is a passage of about `length` bytes of the post's plain text
// with the words that match the query marked: a word matches when it is a
// query word (a version number with its "v" too: "v0.5.0" for "0.5.0"),
// when its English stem is a query stem (as Xapian's
// TermGenerator and QueryParser stem them), or when it starts with the
// letters of a trailing wildcard. The passage starts a little before the
// place where the most different query words occur close together, the
// rarer words counting more, found by a plain byte scan of the text; a
// text with no match shows its start.
//
// Xapian's MSet::snippet does the same job, but it tokenises, looks up and
// stems every word of the text it is given: for ten results that was a
// third of a whole search process. Here only words whose first letters
// agree with a query stem are stemmed, so a snippet costs little more than
// copying its bytes.
//
// Nothing here throws except std::bad_alloc.
#pragma once

#include <xapian.h>

#include <array>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "query/result.h"

namespace blogsearch {

// What a snippet marks, taken from one parsed query. Lowercase.
struct SnippetTerms {
  std::set<std::string> words;     // unprefixed query terms (as typed)
  std::set<std::string> stems;     // stems of the query's Z terms
  std::set<std::string> prefixes;  // letters before a wildcard's `*`
  // Words already stemmed -> whether the stem is one of `stems`, filled by
  // make_snippet: the snippets of one search stem the same words again and
  // again ("plugin", "plugins"). One search's snippets are made on one thread.
  mutable std::map<std::string, bool, std::less<>> stemmed;
  // Made once from the sets above by snippet_terms, for every snippet of
  // the search: the distinct strings looked for in a text (none starting
  // with another), and the bytes that may start a matching word (the ASCII
  // letters and digits some string starts with, in either case, and every
  // non-ASCII lead byte).
  std::vector<std::string> needles;
  // The weight of each needle in choosing the passage: how rare the rarest
  // word or stem it stands for is (the square of the log of posts over
  // posts with it; 1 each without a database), so that the passage shows
  // "rust" of a question about learning rust before "best" and "way".
  std::vector<double> needle_weights;
  std::array<bool, 256> starts{};
  // The first two bytes of every word, stem and prefix: a matching word
  // starts with one of them (no_pairs when one of those is shorter).
  std::vector<std::string> pairs;
  bool no_pairs = false;
};

// The unprefixed terms and stems of `query` (field terms such as title:
// or author: are not looked for in the text), and the wildcards typed in
// `query_text` (the parsed query holds no terms for them: they are
// expanded only while matching). With `counts`, a word or stem that more
// than half of the posts have ("the", "to", "a" of a question typed as a
// sentence) is left out, as BM25 gives it no weight either, unless every
// word and stem of the query is that common; and rarer words weigh more in
// the choice of the passage.
struct TermCounts {
  Xapian::doccount posts = 0;
  // Posts with a term: the match's own statistics (Xapian::MSet) where
  // there are some, as over remote shards each look-up of the database is
  // a round trip.
  std::function<Xapian::doccount(const std::string& term)> posts_with;
  static TermCounts of(const Xapian::Database& db);
  static TermCounts of(const Xapian::MSet& match, Xapian::doccount posts);
};
SnippetTerms snippet_terms(const Xapian::Query& query, std::string_view query_text,
                           const TermCounts* counts = nullptr);

// The snippet of `text` as parts, matches marked, with "…" where text was
// left out before or after: at most about `length` bytes, starting and
// ending at a word boundary where there is one nearby and never inside a
// UTF-8 sequence. Empty for an empty text.
// A word matches a stem when one of `stems` (schema::make_stemmer of each
// language the query was stemmed in) stems it so; words with diacritics
// match folded too ("Jürgen" for the query word "jurgen").
std::vector<SnippetPart> make_snippet(std::string_view text, const SnippetTerms& terms,
                                      std::size_t length, const std::vector<Xapian::Stem>& stems);
std::vector<SnippetPart> make_snippet(std::string_view text, const SnippetTerms& terms,
                                      std::size_t length, const Xapian::Stem& stem);

}  // namespace blogsearch
