// language.cc: a post's language, declared or voted for by its common words.
#include "indexer/language.h"

#include <xapian.h>

#include <array>
#include <cstring>

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

void count_words(std::string_view text, std::array<unsigned, kLanguagesVoting>& counts) {
  std::string word;
  auto flush = [&] {
    if (!word.empty() && word.size() <= 8)
      for (std::size_t l = 0; l < kLanguagesVoting; ++l)
        for (const char* w : kVotes[l].words)
          if (w != nullptr && word == w) ++counts[l];  // a list may be shorter
    word.clear();
  };
  for (Xapian::Utf8Iterator it(text.data(), text.size()); it != Xapian::Utf8Iterator(); ++it) {
    const unsigned ch = *it;
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
