#include "query/query_bounds.h"

#include <string_view>
#include <vector>

#include "query/query_builder.h"

namespace blogsearch {

namespace {

bool word_byte(unsigned char c) {
  return c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// The term patterns of the wildcard leaves of `q` (with their field
// prefix), in query order. Xapian 1.4 has no accessor for a wildcard's
// pattern; its description is "WILDCARD <combiner> <pattern>", with
// control bytes written as \xNN. An OP_MAX joins the parses of one text
// in several languages (query_builder.h): wildcards are not stemmed, so
// each parse holds the same ones, and only the parse with the most counts
// (what the query costs is then at most the bound times the languages,
// twice that over several shards).
void wildcard_patterns(const Xapian::Query& q, std::vector<std::string>& out) {
  // Over several shards the parses' OP_MAX is filtered by the same parses
  // (query_builder.cc): its wildcards count once, and a filter's right side
  // holds no wildcard of its own.
  if (q.get_type() == Xapian::Query::OP_FILTER && q.get_num_subqueries() == 2 &&
      q.get_subquery(0).get_type() == Xapian::Query::OP_MAX) {
    wildcard_patterns(q.get_subquery(0), out);
    return;
  }
  if (q.get_type() == Xapian::Query::OP_MAX) {
    std::vector<std::string> most;
    for (std::size_t i = 0; i < q.get_num_subqueries(); ++i) {
      std::vector<std::string> part;
      wildcard_patterns(q.get_subquery(i), part);
      if (part.size() > most.size()) most = std::move(part);
    }
    out.insert(out.end(), most.begin(), most.end());
    return;
  }
  if (q.get_type() == Xapian::Query::OP_WILDCARD) {
    std::string d = q.get_description();  // "Query(WILDCARD SYNONYM pattern)"
    const std::string_view head = "Query(WILDCARD ";
    if (d.compare(0, head.size(), head) != 0 || d.back() != ')') return;
    const std::size_t space = d.find(' ', head.size());
    if (space == std::string::npos) return;
    const std::string escaped = d.substr(space + 1, d.size() - space - 2);
    std::string pattern;
    for (std::size_t i = 0; i < escaped.size(); ++i) {
      if (escaped[i] == '\\' && i + 3 < escaped.size() && escaped[i + 1] == 'x') {
        pattern += static_cast<char>(std::stoi(escaped.substr(i + 2, 2), nullptr, 16));
        i += 3;
      } else {
        pattern += escaped[i];
      }
    }
    out.push_back(std::move(pattern));
    return;
  }
  for (std::size_t i = 0; i < q.get_num_subqueries(); ++i) wildcard_patterns(q.get_subquery(i), out);
}

// The wildcard as typed: `pattern` without its term prefix, and "*".
std::string typed_wildcard(const std::string& pattern) {
  std::size_t letters = 0;
  while (letters < pattern.size() && pattern[letters] >= 'A' && pattern[letters] <= 'Z') ++letters;
  return pattern.substr(letters) + "*";
}

// The 1-based column of `word` (typed_wildcard) in `text`, matched
// without regard to ASCII case; 0 when not found.
std::size_t column_of(const std::string& text, const std::string& word) {
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  for (std::size_t at = 0; at + word.size() <= text.size(); ++at) {
    std::size_t k = 0;
    while (k < word.size() && lower(text[at + k]) == word[k]) ++k;
    if (k == word.size() && (at == 0 || !word_byte(static_cast<unsigned char>(text[at - 1])))) return at + 1;
  }
  return 0;
}

}  // namespace

std::size_t count_query_words(const std::string& text) {
  std::size_t words = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (!word_byte(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && word_byte(static_cast<unsigned char>(text[end]))) ++end;
    // The operators join words; they are not searched for.
    const std::string_view word(text.data() + i, end - i);
    if (word != "AND" && word != "OR" && word != "NOT" && word != "XOR" && word != "NEAR" && word != "ADJ") ++words;
    i = end;
  }
  return words;
}

void check_query_size(const std::string& text, const SearchBounds& bounds) {
  if (text.size() > bounds.max_query_bytes)
    throw QueryError("the query is " + std::to_string(text.size()) + " bytes long; at most " +
                     std::to_string(bounds.max_query_bytes) + " bytes are allowed");
  const std::size_t words = count_query_words(text);
  if (words > bounds.max_words)
    throw QueryError("the query has " + std::to_string(words) + " words; at most " +
                     std::to_string(bounds.max_words) + " are allowed");
}

void check_wildcard_total(const Xapian::Database& db, const Xapian::Query& query, const std::string& text,
                          Xapian::termcount max_terms) {
  std::vector<std::string> patterns;
  wildcard_patterns(query, patterns);
  if (patterns.empty()) return;
  Xapian::termcount total = 0;
  for (const std::string& pattern : patterns) {
    const Xapian::TermIterator end = db.allterms_end(pattern);
    for (Xapian::TermIterator t = db.allterms_begin(pattern); t != end; ++t) {
      if (++total <= max_terms) continue;
      const std::string word = typed_wildcard(pattern);
      const std::size_t column = column_of(text, word);
      throw QueryError(patterns.size() == 1
                           ? "'" + word + "' matches more than " + std::to_string(max_terms) +
                                 " words; give more letters before the *"
                           : "the " + std::to_string(patterns.size()) + " wildcards of the query match more than " +
                                 std::to_string(max_terms) + " words together; give more letters before each *",
                       text, column, word.size());
    }
  }
}

namespace {

void add_cost(const Xapian::Database& db, const Xapian::Query& q, std::uint64_t weight, std::uint64_t cap,
              std::uint64_t& total) {
  if (total > cap) return;
  using Q = Xapian::Query;
  switch (q.get_type()) {
    case Q::LEAF_MATCH_NOTHING:
      return;
    case Q::LEAF_TERM: {
      const Xapian::TermIterator t = q.get_terms_begin();
      total += weight * (t == q.get_terms_end() ? db.get_doccount() : db.get_termfreq(*t));
      return;
    }
    case Q::OP_WILDCARD: {
      std::vector<std::string> patterns;
      wildcard_patterns(q, patterns);
      if (patterns.empty()) total += weight * db.get_doccount();
      for (const std::string& pattern : patterns) {
        const Xapian::TermIterator end = db.allterms_end(pattern);
        for (Xapian::TermIterator t = db.allterms_begin(pattern); t != end && total <= cap; ++t)
          total += weight * t.get_termfreq();
      }
      return;
    }
    case Q::OP_PHRASE:
    case Q::OP_NEAR:
      weight *= kPositionsCost;
      break;
    case Q::OP_AND: case Q::OP_OR: case Q::OP_AND_NOT: case Q::OP_XOR: case Q::OP_AND_MAYBE:
    case Q::OP_FILTER: case Q::OP_SYNONYM: case Q::OP_ELITE_SET: case Q::OP_MAX: case Q::OP_SCALE_WEIGHT:
      break;
    default:  // value ranges, posting sources, MatchAll
      total += weight * db.get_doccount();
      return;
  }
  for (std::size_t i = 0; i < q.get_num_subqueries(); ++i) add_cost(db, q.get_subquery(i), weight, cap, total);
}

bool has_op(const Xapian::Query& q, Xapian::Query::op op) {
  if (q.get_type() == op) return true;
  for (std::size_t i = 0; i < q.get_num_subqueries(); ++i)
    if (has_op(q.get_subquery(i), op)) return true;
  return false;
}

}  // namespace

std::uint64_t match_cost_bound(const Xapian::Database& db, const Xapian::Query& query, std::uint64_t cap) {
  std::uint64_t total = 0;
  add_cost(db, query, 1, cap, total);
  return total;
}

bool reads_positions(const Xapian::Query& query) {
  return has_op(query, Xapian::Query::OP_PHRASE) || has_op(query, Xapian::Query::OP_NEAR);
}

void check_shard_operators(const Xapian::Database& db, const Xapian::Query& query, const std::string& text) {
  if (db.size() < 2 || !has_op(query, Xapian::Query::OP_XOR)) return;
  throw QueryError("XOR cannot be searched in a database of several shards (Xapian 1.4 fails on it); "
                   "write (a OR b) NOT (a AND b) instead",
                   text, column_of(text, "xor"), 3);
}

}  // namespace blogsearch
