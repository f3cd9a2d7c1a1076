// acronym_plural.h: the plural s of acronyms and abbreviations ("LLMs",
// "GPUs", "PRs", "KPIs", "H100s"), which Snowball's English stemmer keeps.
// It removes a plural s only after a part holding a vowel that is not just
// before the s ("gaps" -> "gap"), so "llms" and "gpus" stayed whole and a
// search for "llm" missed 357 of blog-history's 649 posts about LLMs.
//
// singular_of_acronym(stem) is `stem` without its final s when the part
// before the s
//   - has no vowel (a e i o u y) and at least one letter: llms, prs, ssds,
//     pdfs, h100s, https;
//   - or is two or more consonants and one vowel: gpus, kpis, cves, slas
//     (and English's own spas, bras, twos);
// and `stem` unchanged otherwise: shorter than three letters, ending in
// "ss", holding anything but ASCII letters and digits, or one of the few
// words the rule would get wrong (this, thus, plus; gps, cvs, mrs and hrs,
// which are not plurals and would meet gp, cv, mr and hr). Of Debian's
// wamerican word list it changes 42 words, none harmfully (pros and pro,
// bbs and bb, chris and chri meet).
// schema::make_stemmer applies it after the English stemmer, on both sides
// (the indexer's and the query's). Never throws except std::bad_alloc.
#pragma once

#include <string>
#include <string_view>

namespace blogsearch {

inline std::string singular_of_acronym(std::string stem) {
  const std::size_t n = stem.size();
  if (n < 3 || stem[n - 1] != 's' || stem[n - 2] == 's') return stem;
  for (std::string_view kept : {"this", "thus", "plus", "gps", "cvs", "mrs", "hrs"})
    if (stem == kept) return stem;
  auto vowel = [](char c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || c == 'y'; };
  bool letter = false;
  std::size_t vowels = 0;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const char c = stem[i];
    const bool is_letter = c >= 'a' && c <= 'z';
    if (!is_letter && !(c >= '0' && c <= '9')) return stem;
    letter |= is_letter;
    vowels += vowel(c);
  }
  const bool no_vowel = vowels == 0 && letter;
  // Consonants (letters only), then the one vowel just before the s.
  bool consonants_then_vowel = n >= 4 && vowels == 1 && vowel(stem[n - 2]) && stem[n - 2] != 'y';
  for (std::size_t i = 0; consonants_then_vowel && i + 2 < n; ++i)
    consonants_then_vowel = stem[i] >= 'a' && stem[i] <= 'z';
  if (no_vowel || consonants_then_vowel) stem.pop_back();
  return stem;
}

}  // namespace blogsearch
