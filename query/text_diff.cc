// text_diff.cc: words, chunks of words, and dtl's edit scripts over them.
#include "query/text_diff.h"

#include <dtl/dtl.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <unordered_map>

namespace blogsearch {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

struct Token {
  std::string_view lead;  // whitespace before the word
  std::string_view word;
};

std::vector<Token> tokenize(std::string_view text) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t space = i;
    while (i < text.size() && is_space(text[i])) ++i;
    const std::size_t word = i;
    while (i < text.size() && !is_space(text[i])) ++i;
    if (word < i) out.push_back({text.substr(space, word - space), text.substr(word, i - word)});
  }
  return out;
}

// At most `max` bytes of `text`, ending at a space when there is one (else
// at a character boundary).
std::string_view cut_text(std::string_view text, std::size_t max, bool& cut) {
  if (text.size() <= max) return text;
  cut = true;
  std::size_t end = max;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  std::size_t space = end;
  while (space > 0 && !is_space(text[space - 1])) --space;
  return text.substr(0, space > 0 ? space : end);
}

// Equal strings get equal numbers, so dtl compares integers.
class Interner {
 public:
  std::uint32_t operator()(std::string_view s) {
    return ids_.emplace(s, static_cast<std::uint32_t>(ids_.size())).first->second;
  }

 private:
  std::unordered_map<std::string_view, std::uint32_t> ids_;
};

using Ids = std::vector<std::uint32_t>;
using Op = DiffPart::Op;

// dtl's shortest edit script of a -> b, one op per element.
template <typename F>
void edit_script(const Ids& a, const Ids& b, F each) {
  dtl::Diff<std::uint32_t, Ids> d(a, b);
  d.compose();
  for (const auto& [elem, info] : d.getSes().getSequence()) {
    (void)elem;
    each(info.type == dtl::SES_COMMON ? Op::kSame : info.type == dtl::SES_DELETE ? Op::kRemoved : Op::kAdded);
  }
}

// Collects the parts: a stretch of removed and added words between two
// common words becomes one removal and one addition.
class Parts {
 public:
  Parts(const std::vector<Token>& a, const std::vector<Token>& b, TextDiff& out) : a_(a), b_(b), out_(out) {}

  // Word ia of a, which is word ib of b. A common part's lead is a's,
  // unless the word starts a (then it is b's, which holds the space after
  // the addition before it).
  void same(std::size_t ia, std::size_t ib) {
    flush();
    append(Op::kSame, a_[ia].lead.empty() ? Token{b_[ib].lead, a_[ia].word} : a_[ia]);
  }
  void removed(std::size_t from, std::size_t to) {
    if (removed_from_ == removed_to_) removed_from_ = from;
    removed_to_ = to;
  }
  void added(std::size_t from, std::size_t to) {
    if (added_from_ == added_to_) added_from_ = from;
    added_to_ = to;
  }
  void flush() {
    for (std::size_t i = removed_from_; i < removed_to_; ++i) append(Op::kRemoved, a_[i]);
    out_.words_removed += removed_to_ - removed_from_;
    for (std::size_t i = added_from_; i < added_to_; ++i) append(Op::kAdded, b_[i]);
    out_.words_added += added_to_ - added_from_;
    removed_from_ = removed_to_ = added_from_ = added_to_ = 0;
  }

 private:
  void append(Op op, const Token& t) {
    if (out_.parts.empty() || out_.parts.back().op != op) {
      DiffPart& p = out_.parts.emplace_back();
      p.op = op;
      p.lead = t.lead;
      p.text = t.word;
    } else {
      DiffPart& p = out_.parts.back();
      p.text += t.lead;
      p.text += t.word;
    }
  }

  const std::vector<Token>& a_;
  const std::vector<Token>& b_;
  TextDiff& out_;
  std::size_t removed_from_ = 0, removed_to_ = 0, added_from_ = 0, added_to_ = 0;
};

class Differ {
 public:
  Differ(const std::vector<Token>& a, const std::vector<Token>& b, const DiffLimits& limits, TextDiff& out)
      : a_(a), b_(b), limits_(limits), out_(out), parts_(a, b, out) {
    Interner words;
    ia_.reserve(a.size());
    ib_.reserve(b.size());
    for (const Token& t : a) ia_.push_back(words(t.word));
    for (const Token& t : b) ib_.push_back(words(t.word));
  }

  void run() {
    diff(0, ia_.size(), 0, ib_.size());
    parts_.flush();
  }

 private:
  // Words [a_lo, a_hi) of a against [b_lo, b_hi) of b, written in order.
  void diff(std::size_t a_lo, std::size_t a_hi, std::size_t b_lo, std::size_t b_hi) {
    while (a_lo < a_hi && b_lo < b_hi && ia_[a_lo] == ib_[b_lo]) parts_.same(a_lo++, b_lo++);
    std::size_t suffix = 0;
    while (a_hi > a_lo && b_hi > b_lo && ia_[a_hi - 1] == ib_[b_hi - 1]) --a_hi, --b_hi, ++suffix;
    middle(a_lo, a_hi, b_lo, b_hi);
    for (std::size_t i = 0; i < suffix; ++i) parts_.same(a_hi + i, b_hi + i);
  }

  // The same, their first and last words different. dtl's cost grows with
  // the product of the lengths (quadratically for unrelated texts), so it
  // only ever sees sequences whose product is at most max_cells: longer
  // stretches are cut into about a hundred chunks a side, diffed as
  // chunks, and the changed chunks diffed again, down to words.
  void middle(std::size_t a_lo, std::size_t a_hi, std::size_t b_lo, std::size_t b_hi) {
    const std::size_t m = a_hi - a_lo, n = b_hi - b_lo;
    if (m == 0 || n == 0) return words(a_lo, a_hi, b_lo, b_hi);
    if (m * n <= limits_.max_cells) {  // m, n <= max_bytes: no overflow
      if (!spend(m * n)) return whole(a_lo, a_hi, b_lo, b_hi);
      return words(a_lo, a_hi, b_lo, b_hi);
    }
    // A chunk ends after a word whose hash says so, one word in `every`:
    // where chunks end depends on the words only, so after an edit the
    // chunks of both texts line up again.
    std::size_t every = std::max<std::size_t>(2, std::max(m, n) / 100);
    std::vector<Chunk> ca, cb;
    for (std::uint64_t seed = 1;; ++seed, every *= 2) {
      chunks(a_, a_lo, a_hi, every, seed, ca);
      chunks(b_, b_lo, b_hi, every, seed, cb);
      if (ca.size() * cb.size() <= limits_.max_cells) break;
    }
    if (!spend(ca.size() * cb.size())) return whole(a_lo, a_hi, b_lo, b_hi);
    // A chunk is its text from its first word to its last (the source text
    // is contiguous), so equal chunks have equal words and spaces.
    Interner texts;
    auto ids_of = [&texts](const std::vector<Token>& t, const std::vector<Chunk>& cs) {
      Ids ids;
      ids.reserve(cs.size());
      for (const Chunk& c : cs) {
        const char* begin = t[c.from].word.data();
        const char* end = t[c.to - 1].word.data() + t[c.to - 1].word.size();
        ids.push_back(texts(std::string_view(begin, static_cast<std::size_t>(end - begin))));
      }
      return ids;
    };
    const Ids ida = ids_of(a_, ca), idb = ids_of(b_, cb);
    std::vector<Op> script;
    edit_script(ida, idb, [&script](Op op) { script.push_back(op); });
    // No chunk in common: nothing narrows the stretch down.
    if (std::find(script.begin(), script.end(), Op::kSame) == script.end()) return whole(a_lo, a_hi, b_lo, b_hi);
    std::size_t i = 0, j = 0, ra = a_lo, rb = b_lo;  // the changed chunks since the last common one
    for (Op op : script) {
      if (op == Op::kSame) {
        if (ra < ca[i].from || rb < cb[j].from) diff(ra, ca[i].from, rb, cb[j].from);
        for (std::size_t w = 0; w < ca[i].to - ca[i].from; ++w) parts_.same(ca[i].from + w, cb[j].from + w);
        ra = ca[i++].to;
        rb = cb[j++].to;
      } else if (op == Op::kRemoved) {
        ++i;
      } else {
        ++j;
      }
    }
    if (ra < a_hi || rb < b_hi) diff(ra, a_hi, rb, b_hi);
  }

  struct Chunk {
    std::size_t from, to;
  };

  void chunks(const std::vector<Token>& t, std::size_t lo, std::size_t hi, std::size_t every, std::uint64_t seed,
              std::vector<Chunk>& out) {
    out.clear();
    std::size_t from = lo;
    for (std::size_t i = lo; i < hi; ++i) {
      std::uint64_t h = (std::hash<std::string_view>()(t[i].word) ^ seed) * 0x9E3779B97F4A7C15ull;
      if ((h >> 32) % every == 0 || i + 1 == hi) {
        out.push_back({from, i + 1});
        from = i + 1;
      }
    }
  }

  // Each call of dtl is charged at least kCallCells, so the number of calls
  // is bounded too.
  static constexpr std::size_t kCallCells = 1024;
  bool spend(std::size_t cells) {
    cells = std::max(cells, kCallCells);
    if (spent_ + cells > limits_.max_total_cells) return false;
    spent_ += cells;
    return true;
  }

  void words(std::size_t a_lo, std::size_t a_hi, std::size_t b_lo, std::size_t b_hi) {
    if (a_lo == a_hi || b_lo == b_hi) {
      parts_.removed(a_lo, a_hi);
      parts_.added(b_lo, b_hi);
      return;
    }
    const Ids a(ia_.begin() + static_cast<std::ptrdiff_t>(a_lo), ia_.begin() + static_cast<std::ptrdiff_t>(a_hi));
    const Ids b(ib_.begin() + static_cast<std::ptrdiff_t>(b_lo), ib_.begin() + static_cast<std::ptrdiff_t>(b_hi));
    std::size_t i = a_lo, j = b_lo;
    edit_script(a, b, [&](Op op) {
      if (op == Op::kSame) parts_.same(i++, j++);
      else if (op == Op::kRemoved) parts_.removed(i, i + 1), ++i;
      else parts_.added(j, j + 1), ++j;
    });
  }

  void whole(std::size_t a_lo, std::size_t a_hi, std::size_t b_lo, std::size_t b_hi) {
    out_.coarse = true;
    parts_.removed(a_lo, a_hi);
    parts_.added(b_lo, b_hi);
  }

  const std::vector<Token>& a_;
  const std::vector<Token>& b_;
  const DiffLimits& limits_;
  TextDiff& out_;
  Parts parts_;
  Ids ia_, ib_;
  std::size_t spent_ = 0;
};

}  // namespace

TextDiff diff_words(std::string_view older, std::string_view newer, const DiffLimits& limits) {
  TextDiff out;
  older = cut_text(older, limits.max_bytes, out.cut);
  newer = cut_text(newer, limits.max_bytes, out.cut);
  const std::vector<Token> a = tokenize(older), b = tokenize(newer);
  Differ(a, b, limits, out).run();
  return out;
}

}  // namespace blogsearch
