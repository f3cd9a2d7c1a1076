// language.cc: a post's language, declared or voted for by its common words.
#include "indexer/language.h"

#include <xapian.h>

#include <array>
#include <cstring>
#include <string_view>
#include <unordered_map>

#include "indexer/schema.h"

namespace blogsearch {
namespace {

// How much of the text is looked at: enough words for a clear vote, and a
// bound on the cost for any text.
constexpr std::size_t kSampleBytes = 4000;

// Frequent words of each language that are rare in the others (words two
// of them share, such as "la", "que", "en", "des" or "in", are left out;
// "die" is German here: English texts vote English by far more).
struct Votes {
  const char* code;
  std::array<const char*, 40> words;
};
constexpr Votes kVotes[] = {
    {"en", {"the", "and", "of", "to", "is", "that", "it", "for", "with", "this", "you", "are", "was", "on",
            "be", "have", "not", "but", "what", "from", "they", "can", "will", "which", "there", "would",
            "about", "just", "my", "your", "we", "our"}},
    {"de", {"der", "das", "und", "ist", "nicht", "ich", "sie", "ein", "eine", "einen", "mit", "auf", "für",
            "von", "dem", "den", "zu", "auch", "sich", "wir", "werden", "wird", "sind", "noch", "nach",
            "bei", "aus", "wie", "oder", "aber", "dass", "die", "hat", "im", "zur", "zum", "vom", "einer",
            "gegen"}},
    {"fr", {"le", "les", "et", "aux", "est", "une", "pour", "dans", "qui", "pas", "sur", "avec", "ce", "il",
            "sont", "du", "au", "mais", "nous", "vous", "elle", "ou", "cette", "être", "fait", "aussi",
            "très", "leur", "comme", "ces", "peut", "été"}},
    {"es", {"el", "los", "las", "del", "y", "es", "una", "por", "con", "para", "como", "más", "pero", "sus",
            "muy", "está", "este", "esta", "también", "lo", "se", "al", "son", "fue", "hay", "ser", "sobre",
            "todo", "cuando", "puede", "entre", "desde"}},
};
constexpr std::size_t kLanguagesVoting = sizeof(kVotes) / sizeof(kVotes[0]);

// Each voting word and the languages (bit l: kVotes[l]) whose list has
// it: one look-up per word of the text instead of a comparison with every
// word of every list (which took most of the time of the vote).
using WordVotes = std::unordered_map<std::string_view, unsigned>;
const WordVotes& word_votes() {
  static const WordVotes table = [] {
    WordVotes t;
    for (std::size_t l = 0; l < kLanguagesVoting; ++l)
      for (const char* w : kVotes[l].words)
        if (w != nullptr) t[w] |= 1u << l;  // a list may be shorter
    return t;
  }();
  return table;
}

// Xapian::Unicode::is_wordchar and tolower of each ASCII byte, looked up
// rather than decoded: most of any text is ASCII.
struct AsciiWords {
  std::array<char, 128> lower{};  // 0: not a word character
  AsciiWords() {
    for (unsigned c = 1; c < 128; ++c)
      if (Xapian::Unicode::is_wordchar(c)) lower[c] = static_cast<char>(Xapian::Unicode::tolower(c));
  }
};

void count_words(std::string_view text, std::array<unsigned, kLanguagesVoting>& counts) {
  static const AsciiWords ascii;
  const WordVotes& votes = word_votes();
  std::string word;
  // Words longer than 8 bytes are in no list: only their first 9 bytes are kept.
  auto flush = [&] {
    if (!word.empty() && word.size() <= 8)
      if (auto found = votes.find(word); found != votes.end())
        for (std::size_t l = 0; l < kLanguagesVoting; ++l)
          if (found->second & (1u << l)) ++counts[l];
    word.clear();
  };
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p < end) {
    const unsigned char byte = static_cast<unsigned char>(*p);
    if (byte < 0x80) {
      ++p;
      if (const char lower = ascii.lower[byte]) {
        if (word.size() <= 8) word += lower;
      } else {
        flush();
      }
      continue;
    }
    // A character of several bytes (or a stray one): decoded as Xapian does.
    Xapian::Utf8Iterator it(p, static_cast<std::size_t>(end - p));
    const unsigned ch = *it;
    ++it;
    p = it.raw();  // one character further (at the end: `end`)
    if (Xapian::Unicode::is_wordchar(ch)) {
      if (word.size() <= 8) Xapian::Unicode::append_utf8(word, Xapian::Unicode::tolower(ch));
    } else {
      flush();
    }
  }
  flush();
}

}  // namespace

std::string detect_language(std::string_view title, std::string_view text) {
  std::array<unsigned, kLanguagesVoting> counts{};
  count_words(title, counts);
  std::size_t cut = std::min(text.size(), kSampleBytes);
  while (cut < text.size() && cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  count_words(text.substr(0, cut), counts);
  std::size_t best = 0;
  for (std::size_t l = 1; l < kLanguagesVoting; ++l)
    if (counts[l] > counts[best]) best = l;
  // Another language than English must win clearly: English words are
  // quoted everywhere, and a short text votes little.
  if (best != 0 && (counts[best] < 3 || counts[best] * 2 < counts[0] * 3)) best = 0;
  return kVotes[best].code;
}

std::string post_language(std::string_view declared, std::string_view title, std::string_view text) {
  std::string code = schema::language_code(declared);
  return code.empty() ? detect_language(title, text) : code;
}

}  // namespace blogsearch
