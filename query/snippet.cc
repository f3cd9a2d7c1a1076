#include "query/snippet.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "common/fold.h"
#include "common/version_word.h"

namespace blogsearch {

namespace {

using Stems = std::vector<Xapian::Stem>;

const char kOmit[] = "…";

// The cluster of matches starts this share of the snippet into it, so the
// reader sees a few words of what leads up to it.
constexpr std::size_t kLeadPercent = 20;
// Occurrences looked at per query word: enough to find the densest cluster
// in any real post, bounded for a text that repeats one word a million times.
constexpr std::size_t kMaxHitsPerNeedle = 2000;
// How far a window edge may move to reach a space before it settles for a
// UTF-8 character boundary (text without spaces: CJK, a long URL).
constexpr std::size_t kMaxSnap = 48;
// How far a text is read for a word that matches only folded, when no
// needle occurs (first_non_ascii_match).
constexpr std::size_t kMaxFoldedScan = 64 * 1024;
// An English stem is the word it comes from with at most its last two
// letters changed ("happiness" -> "happi", "hoping" -> "hope"), so a word
// is stemmed only when it starts with all but the last two letters of a
// query stem (at least two). Of the 19,267 lowercase words of the
// blog-history corpus, only "lying" -> "lie" breaks this rule.
std::size_t stem_keeps(const std::string& stem) { return stem.size() > 4 ? stem.size() - 2 : 2; }

char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
// Asked of every byte of every snippet's text: a table.
constexpr std::array<bool, 256> kAsciiAlnum = [] {
  std::array<bool, 256> alnum{};
  for (int c = 0; c < 128; ++c) alnum[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  return alnum;
}();
bool is_ascii_alnum(char c) { return kAsciiAlnum[static_cast<unsigned char>(c)]; }
bool is_space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }
bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The character at `i`: its length in bytes and its code point. The
// stored text is valid UTF-8; a stray byte counts as one character.
std::size_t char_at(std::string_view s, std::size_t i, unsigned* code) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  std::size_t n = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
  if (i + n > s.size()) n = 1;
  unsigned v = n == 1 ? c : c & (0x7Fu >> n);
  for (std::size_t k = 1; k < n; ++k) {
    if (!is_continuation(s[i + k])) {
      *code = c;
      return 1;
    }
    v = (v << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3Fu);
  }
  *code = v;
  return n;
}

// Bytes of the word character at `i`, 0 when it is none. An apostrophe
// between letters belongs to the word, as in Xapian's TermGenerator.
std::size_t word_char_at(std::string_view s, std::size_t i) {
  unsigned code = 0;
  std::size_t n = char_at(s, i, &code);
  if (code < 0x80 ? is_ascii_alnum(static_cast<char>(code)) : Xapian::Unicode::is_wordchar(code)) return n;
  if ((code == '\'' || code == 0x2019) && i > 0 && i + n < s.size()) {
    unsigned next = 0;
    char_at(s, i + n, &next);
    if (next < 0x80 ? is_ascii_alnum(static_cast<char>(next)) : Xapian::Unicode::is_wordchar(next)) return n;
  }
  return 0;
}

std::string lowercase(std::string_view word) {
  std::string out(word);
  bool ascii = true;
  for (char& c : out) {
    if (static_cast<unsigned char>(c) >= 0x80) ascii = false;
    c = ascii_lower(c);
  }
  return ascii ? out : Xapian::Unicode::tolower(out);
}

// `text` at `pos` starts with `needle`, ignoring ASCII case.
bool starts_with_at(std::string_view text, std::size_t pos, std::string_view needle) {
  if (text.size() - pos < needle.size()) return false;
  for (std::size_t i = 0; i < needle.size(); ++i)
    if (ascii_lower(text[pos + i]) != needle[i]) return false;
  return true;
}

bool is_ascii_digit(char c) { return c >= '0' && c <= '9'; }

// Bytes of the word character at `i` of `s` (0 when none), with ASCII
// letters, digits and other ASCII bytes needing no decoding. A dot, comma
// or semicolon between two digits belongs to the word, as in Xapian's
// TermGenerator: "v0.5.0" and "1,000" are one word each.
std::size_t word_char_fast(std::string_view s, std::size_t i) {
  const char c = s[i];
  if (is_ascii_alnum(c)) return 1;
  if ((c == '.' || c == ',' || c == ';') && i > 0 && i + 1 < s.size() && is_ascii_digit(s[i - 1]) &&
      is_ascii_digit(s[i + 1]))
    return 1;
  if (static_cast<unsigned char>(c) < 0x80 && c != '\'') return 0;
  return word_char_at(s, i);
}

// Whether `word` matches: a query word, a word starting with a wildcard's
// letters, or a word with a query stem. Most words start with a letter no
// query word, stem or prefix starts with: those are passed over without
// being lowercased.
bool word_matches(std::string_view word, const SnippetTerms& terms, const Stems& stem) {
  if (word.empty() || !terms.starts[static_cast<unsigned char>(word[0])]) return false;
  // A match (a query word, a prefix, or a word sharing at least the first
  // two letters of a stem: stem_keeps) starts with one of terms.pairs; a
  // word of two ASCII letters or more is checked for that before it is
  // lowercased.
  if (!terms.no_pairs && word.size() >= 2 && static_cast<unsigned char>(word[0]) < 0x80 &&
      static_cast<unsigned char>(word[1]) < 0x80) {
    const char two[2] = {ascii_lower(word[0]), ascii_lower(word[1])};
    if (std::none_of(terms.pairs.begin(), terms.pairs.end(),
                     [&two](const std::string& p) { return p[0] == two[0] && p[1] == two[1]; }))
      return false;
  }
  const std::string lower = lowercase(word);
  if (terms.words.count(lower)) return true;
  // Stems are of folded words (schema::make_stemmer); so are the folded
  // copies of words with diacritics that the query's words may have matched.
  const std::string folded = fold::has_foldable(lower) ? fold::fold(lower) : std::string();
  if (!folded.empty() && terms.words.count(folded)) return true;
  const std::string& key = folded.empty() ? lower : folded;
  for (const auto& p : terms.prefixes)
    if (lower.compare(0, p.size(), p) == 0 || key.compare(0, p.size(), p) == 0) return true;
  for (const auto& s : terms.stems) {
    if (key.compare(0, stem_keeps(s), s, 0, stem_keeps(s)) != 0) continue;
    auto known = terms.stemmed.find(lower);
    if (known == terms.stemmed.end())
      known = terms.stemmed
                  .emplace(lower, std::any_of(stem.begin(), stem.end(),
                                              [&](const Xapian::Stem& st) { return terms.stems.count(st(lower)) > 0; }))
                  .first;
    return known->second;
  }
  return false;
}

struct Occurrence {
  std::size_t pos;
  std::size_t needle;
};

// Where a passage of `length` bytes first holds the most different needles,
// each counted by its weight,
// (npos when none occurs). Needles are found where they start a word, in
// text order: one memchr stream per first letter (both cases), merged, so
// the scan stops as soon as a passage holds every needle.
std::size_t densest(std::string_view text, const SnippetTerms& terms, std::size_t length, const Stems& stem) {
  const std::vector<std::string>& needles = terms.needles;
  struct Stream {
    char letter;
    std::size_t next;
  };
  std::vector<Stream> streams;
  for (const auto& n : needles) {
    const char lower = n[0];
    const char upper = lower >= 'a' && lower <= 'z' ? static_cast<char>(lower - 'a' + 'A') : lower;
    for (char c : {lower, upper})
      if (std::none_of(streams.begin(), streams.end(), [c](const Stream& s) { return s.letter == c; }))
        streams.push_back({c, text.find(c)});
  }
  std::vector<Occurrence> found;
  std::vector<std::size_t> per_needle(needles.size(), 0), in_window(needles.size(), 0);
  std::size_t distinct = 0, best = 0, best_pos = std::string_view::npos, tail = 0;
  double score = 0, best_score = 0;
  auto weight = [&terms](std::size_t n) { return n < terms.needle_weights.size() ? terms.needle_weights[n] : 1.0; };
  while (best < needles.size()) {
    Stream* s = nullptr;
    for (auto& candidate : streams)
      if (candidate.next != std::string_view::npos && (!s || candidate.next < s->next)) s = &candidate;
    if (!s) break;
    const std::size_t pos = s->next;
    s->next = text.find(s->letter, pos + 1);
    if (pos > 0 && (static_cast<unsigned char>(text[pos - 1]) >= 0x80 || word_char_fast(text, pos - 1) > 0)) continue;
    std::size_t word_end = pos;  // found at the first needle that starts here
    bool confirmed = false;
    for (std::size_t n = 0; n < needles.size(); ++n) {
      if (ascii_lower(text[pos]) != needles[n][0] || per_needle[n] >= kMaxHitsPerNeedle ||
          !starts_with_at(text, pos, needles[n]))
        continue;
      // A needle is where a match may start ("priva" for the stem
      // "privaci" of "privacy"): the word is a match if it matches as
      // make_snippet marks it.
      if (word_end == pos) {
        std::size_t k = 0;
        while (word_end < text.size() && (k = word_char_fast(text, word_end)) > 0) word_end += k;
        confirmed = word_matches(text.substr(pos, word_end - pos), terms, stem);
      }
      if (!confirmed) break;
      ++per_needle[n];
      found.push_back({pos, n});
      if (in_window[n]++ == 0) {
        ++distinct;
        score += weight(n);
      }
      while (found[tail].pos + length < pos) {
        const std::size_t gone = found[tail++].needle;
        if (--in_window[gone] == 0) {
          --distinct;
          score -= weight(gone);
        }
      }
      if (score > best_score) {
        best = distinct;
        best_score = score;
        best_pos = found[tail].pos;
      }
    }
  }
  return best_pos;
}

// Moves `pos` back to just after a space within kMaxSnap bytes, else to the
// start of the UTF-8 character it falls in.
std::size_t snap_back(std::string_view text, std::size_t pos) {
  if (pos == 0 || pos >= text.size()) return std::min(pos, text.size());
  for (std::size_t at = pos; pos - at < kMaxSnap; --at) {
    if (at == 0) return 0;  // the text's first word: from its start
    if (is_space(text[at - 1])) return at;
  }
  while (pos > 0 && is_continuation(text[pos])) --pos;
  return pos;
}

void add_part(std::vector<SnippetPart>& parts, std::string_view text, bool match) {
  if (text.empty()) return;
  if (!parts.empty() && parts.back().match == match) parts.back().text.append(text);
  else parts.push_back({std::string(text), match});
}

// The passage of `text` to show: [begin, end).
struct TextWindow {
  std::size_t begin = 0;
  std::size_t end = 0;
};

// The needles to look for: distinct, and none that starts with another
// (where "datasette" occurs, its stem "datasett" does too). A stem is
// looked for by the letters a word that has it starts with (stem_keeps:
// "priva" for "privaci", the stem of "privacy").
std::vector<std::string> distinct_needles(const SnippetTerms& terms) {
  std::vector<std::string> all;
  for (const auto* set : {&terms.words, &terms.prefixes})
    for (const auto& n : *set)
      if (!n.empty()) all.push_back(n);
  for (const auto& n : terms.stems)
    if (!n.empty()) all.push_back(n.substr(0, std::min(n.size(), stem_keeps(n))));
  std::sort(all.begin(), all.end());  // a needle sorts right before those it starts
  std::vector<std::string> needles;
  for (auto& n : all)
    if (needles.empty() || n.compare(0, needles.back().size(), needles.back()) != 0) needles.push_back(std::move(n));
  return needles;
}

}  // namespace

TermCounts TermCounts::of(const Xapian::Database& db) {
  return {db.get_doccount(), [db](const std::string& term) { return db.get_termfreq(term); }};
}

TermCounts TermCounts::of(const Xapian::MSet& match, Xapian::doccount posts) {
  return {posts, [match](const std::string& term) { return match.get_termfreq(term); }};
}

SnippetTerms snippet_terms(const Xapian::Query& query, std::string_view query_text, const TermCounts* counts) {
  SnippetTerms terms, common;
  const bool counted = counts != nullptr;
  const Xapian::doccount posts = counted ? counts->posts : 0;
  std::map<std::string, double> rarity;  // word or stem -> its weight as a needle
  for (auto t = query.get_unique_terms_begin(); t != query.get_unique_terms_end(); ++t) {
    const std::string& term = *t;
    auto prefixed = [&](std::size_t at) { return term.size() > at && term[at] >= 'A' && term[at] <= 'Z'; };
    const bool stem = term.size() > 1 && term[0] == 'Z' && !prefixed(1);  // "ZS..." stems a field's word
    if (!stem && (term.empty() || prefixed(0))) continue;
    const Xapian::doccount freq = counted ? counts->posts_with(term) : 0;
    SnippetTerms& into = counted && freq > posts / 2 ? common : terms;
    const std::string name = stem ? term.substr(1) : term;
    // Squared, so that one rare word outweighs a few common ones. A term no
    // post has (another form the query tried) weighs nothing.
    const double idf = !counted ? 1.0 : freq == 0 ? 0.0 : std::max(0.2, std::log((posts + 1.0) / (freq + 1.0)));
    const double weight = idf * idf;
    if (stem) {
      into.stems.insert(name);
      const std::string needle = name.substr(0, std::min(name.size(), stem_keeps(name)));
      rarity[needle] = std::max(rarity[needle], weight);
    } else {
      into.words.insert(name);
      rarity[name] = std::max(rarity[name], weight);
      // A version number matched its "v" form too (common/version_word.h).
      if (is_version_with_v("v" + term)) {
        into.words.insert("v" + term);
        rarity["v" + term] = std::max(rarity["v" + term], weight);
      }
    }
  }
  if (terms.words.empty() && terms.stems.empty()) {
    terms.words = std::move(common.words);
    terms.stems = std::move(common.stems);
  }
  std::size_t i = 0;
  while (i < query_text.size()) {
    std::size_t end = query_text.find_first_of(" \t\n\"()", i);
    if (end == std::string_view::npos) end = query_text.size();
    std::string_view word = query_text.substr(i, end - i);
    if (word.size() > 1 && word.back() == '*') {
      word.remove_suffix(1);
      if (auto colon = word.rfind(':'); colon != std::string_view::npos) word.remove_prefix(colon + 1);
      while (!word.empty() && (word[0] == '+' || word[0] == '-')) word.remove_prefix(1);
      if (!word.empty()) terms.prefixes.insert(lowercase(word));
    }
    i = end + 1;
  }
  terms.needles = distinct_needles(terms);
  // A needle stands for the words and stems it starts (those sort right
  // after it); a wildcard's letters weigh 1.
  for (const auto& n : terms.needles) {
    double weight = terms.prefixes.count(n) ? 1.0 : 0.0;
    for (auto r = rarity.lower_bound(n); r != rarity.end() && r->first.compare(0, n.size(), n) == 0; ++r)
      weight = std::max(weight, r->second);
    terms.needle_weights.push_back(weight > 0 ? weight : 1.0);
  }
  for (const auto& n : terms.needles) {
    const auto c = static_cast<unsigned char>(n[0]);
    if (c >= 0x80) continue;
    terms.starts[c] = true;
    if (c >= 'a' && c <= 'z') terms.starts[c - 'a' + 'A'] = true;
  }
  for (int c = 0xC0; c < 0x100; ++c) terms.starts[c] = true;
  for (const auto* set : {&terms.words, &terms.stems, &terms.prefixes})
    for (const auto& n : *set) {
      if (n.size() < 2) terms.no_pairs = true;
      else if (std::find(terms.pairs.begin(), terms.pairs.end(), n.substr(0, 2)) == terms.pairs.end())
        terms.pairs.push_back(n.substr(0, 2));
    }
  return terms;
}

namespace {

// Where the first word with a non-ASCII letter that matches is, npos when
// none is in the first kMaxFoldedScan bytes: the needles are ASCII, so a word
// that matches only folded ("Überwachung" for the query word "uberwachung")
// is found only this way, when no needle is.
std::size_t first_non_ascii_match(std::string_view text, const SnippetTerms& terms, const Stems& stem) {
  const std::size_t limit = std::min(text.size(), kMaxFoldedScan);
  for (std::size_t i = 0; i < limit;) {
    std::size_t n = word_char_fast(text, i);
    if (n == 0) {
      ++i;
      continue;
    }
    const std::size_t start = i;
    bool non_ascii = false;
    while (i < text.size() && (n = word_char_fast(text, i)) > 0) {
      non_ascii = non_ascii || static_cast<unsigned char>(text[i]) >= 0x80;
      i += n;
    }
    if (non_ascii && word_matches(text.substr(start, i - start), terms, stem)) return start;
  }
  return std::string_view::npos;
}

TextWindow snippet_window(std::string_view text, const SnippetTerms& terms, std::size_t length,
                          const Stems& stem) {
  std::size_t begin = 0;
  bool to_end = false;
  if (text.size() > length) {
    std::size_t at = densest(text, terms, length, stem);
    if (at == std::string_view::npos) at = first_non_ascii_match(text, terms, stem);
    if (at != std::string_view::npos) {
      std::size_t lead = length * kLeadPercent / 100;
      begin = at > lead ? at - lead : 0;
      // Near the end, show a full passage that ends with the text.
      if (begin + length >= text.size()) {
        begin = text.size() - length;
        to_end = true;
      }
      begin = snap_back(text, begin);
    }
  }
  std::size_t end = to_end || begin + length >= text.size() ? text.size() : snap_back(text, begin + length);
  if (end <= begin) end = std::min(text.size(), begin + length);  // one long word
  while (end < text.size() && is_continuation(text[end])) ++end;
  while (begin < end && is_space(text[begin])) ++begin;
  while (end > begin && is_space(text[end - 1])) --end;
  return {begin, end};
}

}  // namespace

std::vector<SnippetPart> make_snippet(std::string_view text, const SnippetTerms& terms,
                                      std::size_t length, const Stems& stem) {
  std::vector<SnippetPart> parts;
  parts.reserve(16);  // plain text and matches alternate: enough for most
  const TextWindow w = snippet_window(text, terms, std::max<std::size_t>(length, 1), stem);
  if (w.end <= w.begin) return parts;
  const std::string_view passage = text.substr(w.begin, w.end - w.begin);

  auto matches = [&](std::string_view word) { return word_matches(word, terms, stem); };

  if (w.begin > 0) add_part(parts, kOmit, false);
  auto word_char = [&passage](std::size_t i) { return word_char_fast(passage, i); };
  // Only bytes that could start a matching word are looked at (an ASCII
  // letter or digit a needle starts with, or any non-ASCII character:
  // terms.starts), and only where a word starts (the character before is
  // not a word character).
  auto starts_word = [&](std::size_t i) {
    if (i == 0) return true;
    std::size_t before = i - 1;
    while (before > 0 && is_continuation(passage[before])) --before;
    return word_char(before) == 0;
  };
  std::size_t plain = 0, i = 0;
  while (i < passage.size()) {
    while (i < passage.size() && !terms.starts[static_cast<unsigned char>(passage[i])]) ++i;
    if (i == passage.size()) break;
    if (word_char(i) == 0 || !starts_word(i)) {
      ++i;
      continue;
    }
    const std::size_t start = i;
    std::size_t n = 0;
    while (i < passage.size() && (n = word_char(i)) > 0) i += n;
    const std::string_view word = passage.substr(start, i - start);
    if (matches(word)) {
      add_part(parts, passage.substr(plain, start - plain), false);
      add_part(parts, word, true);
      plain = i;
    }
  }
  add_part(parts, passage.substr(plain), false);
  if (w.end < text.size()) add_part(parts, kOmit, false);
  return parts;
}

std::vector<SnippetPart> make_snippet(std::string_view text, const SnippetTerms& terms,
                                      std::size_t length, const Xapian::Stem& stem) {
  return make_snippet(text, terms, length, Stems{stem});
}

}  // namespace blogsearch
