#include "query/query_builder.h"

#include <ctime>

#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>

#include "common/version_word.h"
#include "indexer/schema.h"
#include "record/post_history.h"

namespace blogsearch {

namespace {

// Every document. Not Xapian::Query::MatchAll: copies of that one static
// object share a reference count that is not atomic, and the searchers of a
// FastCGI process build queries on several threads at once (Xapian's
// query.h says to make a new one instead).
Xapian::Query match_all() { return Xapian::Query(std::string()); }

// Columns are shown to people, so they count characters, not bytes.
std::size_t chars_in(const std::string& s, std::size_t from, std::size_t bytes) {
  std::size_t n = 0;
  for (std::size_t i = from; i < from + bytes && i < s.size(); ++i)
    n += (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80;
  return n;
}

}  // namespace

QueryError::QueryError(const std::string& detail, const std::string& query, std::size_t byte_column,
                       std::size_t byte_length)
    : std::runtime_error(detail),
      detail_(detail),
      query_(query),
      column_(byte_column ? chars_in(query, 0, byte_column - 1) + 1 : 0),
      length_(byte_column ? std::max<std::size_t>(1, chars_in(query, byte_column - 1, byte_length)) : 1),
      message_(column_ ? "query error at column " + std::to_string(column_) + ": " + detail : detail) {}

namespace {

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

int to_int(std::string_view s) {
  int v = 0;
  for (char c : s) v = v * 10 + (c - '0');
  return v;
}

// timegm() normalises out-of-range fields; comparing the fields afterwards
// is how a date like 2026-02-30 is recognised as not a real date.
std::optional<UnixTime> utc_time(int year, int month, int day) {
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  std::time_t t = timegm(&tm);
  if (tm.tm_year != year - 1900 || tm.tm_mon != month - 1 || tm.tm_mday != day)
    return std::nullopt;
  return static_cast<UnixTime>(t);
}

int days_in_month(int year, int month) {
  static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : days[month - 1];
}

// A date value that a range or field processor could not read, kept so that
// build_query can point at it in the query text. The processors record it
// and return MatchNothing rather than throwing: an exception thrown through
// QueryParser::parse_query leaks the parser's partly built terms (found by
// fuzz/query_fuzz.cc), which would add up in a long-running FastCGI process.
struct BadDate {
  // Which part of a date: token `value` is, so that the caret can point at
  // that token rather than at the first place the same digits occur.
  enum Part { kValue, kRangeStart, kRangeEnd };
  std::string value;
  std::string detail;
  Part part = kValue;
};

// What the date processors saw while one query was parsed: the first bad
// date, and every time a range of the query starts or ends at (for
// describe_query).
struct DateNotes {
  std::optional<BadDate> first;
  std::vector<UnixTime> times;
  Xapian::Query record(BadDate bad) {
    if (!first) first = std::move(bad);
    return Xapian::Query::MatchNothing;
  }
};

const char* const kDateFormats = "use YYYY, YYYY-MM or YYYY-MM-DD";

// The weight per word of a query that is a post's exact title (see build).
constexpr double kExactTitleWeight = 40;

Xapian::Query published_between(std::optional<UnixTime> from, std::optional<UnixTime> to,
                                std::vector<UnixTime>& times) {
  using Q = Xapian::Query;
  const Xapian::valueno slot = schema::kSlotPublished;
  for (const auto& t : {from, to})
    if (t) times.push_back(*t);
  if (from && to)
    return Q(Q::OP_VALUE_RANGE, slot, Xapian::sortable_serialise(static_cast<double>(*from)),
             Xapian::sortable_serialise(static_cast<double>(*to)));
  if (from) return Q(Q::OP_VALUE_GE, slot, Xapian::sortable_serialise(static_cast<double>(*from)));
  if (to) return Q(Q::OP_VALUE_LE, slot, Xapian::sortable_serialise(static_cast<double>(*to)));
  return match_all();
}

// date:A..B, date:A.., date:..B; the edges are inclusive to the end of the
// day, month or year that B names.
class DateRangeProcessor : public Xapian::RangeProcessor {
 public:
  explicit DateRangeProcessor(DateNotes* notes)
      : Xapian::RangeProcessor(schema::kSlotPublished, "date:"), notes_(notes) {}

  Xapian::Query operator()(const std::string& begin, const std::string& end) override {
    std::optional<UnixTime> from, to;
    if (!begin.empty()) {
      from = parse_date(begin, false);
      if (!from)
        return notes_->record({begin, "'" + begin + "' is not a date (" + kDateFormats + ")", BadDate::kRangeStart});
    }
    if (!end.empty()) {
      to = parse_date(end, true);
      if (!to)
        return notes_->record({end, "'" + end + "' is not a date (" + kDateFormats + ")", BadDate::kRangeEnd});
    }
    if (from && to && *from > *to)
      return notes_->record(
          {begin + ".." + end, "the date range " + begin + ".." + end + " ends before it starts", BadDate::kRangeStart});
    return published_between(from, to, notes_->times);
  }

 private:
  DateNotes* notes_;
};

// date:2026-09 (without "..") means the whole period it names.
class DateFieldProcessor : public Xapian::FieldProcessor {
 public:
  explicit DateFieldProcessor(DateNotes* notes) : notes_(notes) {}
  Xapian::Query operator()(const std::string& value) override {
    auto from = parse_date(value, false);
    auto to = parse_date(value, true);
    if (!from || !to)
      return notes_->record({value, "'" + value + "' is not a date or date range (" +
                                         kDateFormats + ", or A..B with either end left open)"});
    return published_between(from, to, notes_->times);
  }

 private:
  DateNotes* notes_;
};

// category:, feed: — the writer stores these lowercased (schema::exact_term).
class ExactFieldProcessor : public Xapian::FieldProcessor {
 public:
  explicit ExactFieldProcessor(std::string prefix) : prefix_(std::move(prefix)) {}
  Xapian::Query operator()(const std::string& value) override {
    return Xapian::Query(schema::exact_term(prefix_, value));
  }

 private:
  std::string prefix_;
};

// lang:de (or lang:de-AT, lang:german) matches the posts stemmed as German.
class LanguageFieldProcessor : public Xapian::FieldProcessor {
 public:
  Xapian::Query operator()(const std::string& value) override {
    std::string code = schema::language_code(value);
    const std::string lower = schema::lowercase_utf8(value);
    for (const auto& l : schema::kLanguages)
      if (code.empty() && lower == l.stemmer) code = l.code;
    return Xapian::Query(schema::make_term(schema::kLanguage, code.empty() ? lower : code));
  }
};

// site:example.org matches the host and its subdomains (www.example.org,
// blog.example.org), since people rarely know which one a feed links to.
class SiteFieldProcessor : public Xapian::FieldProcessor {
 public:
  SiteFieldProcessor(Xapian::Database db, std::string prefix)
      : db_(std::move(db)), prefix_(std::move(prefix)) {}

  Xapian::Query operator()(const std::string& raw) override {
    std::string host = schema::lowercase_utf8(raw);
    if (auto scheme = host.find("://"); scheme != std::string::npos) host.erase(0, scheme + 3);
    if (auto slash = host.find('/'); slash != std::string::npos) host.erase(slash);
    std::vector<Xapian::Query> terms;
    const std::string dotted = "." + host;
    for (auto it = db_.allterms_begin(prefix_); it != db_.allterms_end(prefix_); ++it) {
      const std::string term = *it;
      std::string_view h = std::string_view(term).substr(prefix_.size());
      if (h == host || (h.size() > dotted.size() &&
                        h.compare(h.size() - dotted.size(), dotted.size(), dotted) == 0))
        terms.emplace_back(term);
    }
    if (terms.empty()) return Xapian::Query(schema::make_term(prefix_, host));
    return Xapian::Query(Xapian::Query::OP_OR, terms.begin(), terms.end());
  }

 private:
  Xapian::Database db_;
  std::string prefix_;
};

Xapian::Query any_of(const char* prefix, const std::vector<std::string>& values) {
  std::vector<Xapian::Query> terms;
  for (const auto& v : values) terms.emplace_back(schema::exact_term(prefix, v));
  return Xapian::Query(Xapian::Query::OP_OR, terms.begin(), terms.end());
}

bool is_blank(const std::string& s) {
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) return false;
  return true;
}

// Field names are matched as typed; accepting the usual capitalisations
// makes them case-insensitive in practice.
std::vector<std::string> name_variants(const std::string& name) {
  std::string cap = name, upper = name;
  cap[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(cap[0])));
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return {name, cap, upper};
}

}  // namespace

std::optional<UnixTime> parse_date(const std::string& text, bool end_of_period) {
  std::string_view s = text;
  int year = 0, month = 0, day = 0;
  if (s.size() == 4 && all_digits(s)) {
    year = to_int(s);
  } else if (s.size() == 7 && s[4] == '-' && all_digits(s.substr(0, 4)) && all_digits(s.substr(5))) {
    year = to_int(s.substr(0, 4));
    month = to_int(s.substr(5));
  } else if (s.size() == 10 && s[4] == '-' && s[7] == '-' && all_digits(s.substr(0, 4)) &&
             all_digits(s.substr(5, 2)) && all_digits(s.substr(8))) {
    year = to_int(s.substr(0, 4));
    month = to_int(s.substr(5, 2));
    day = to_int(s.substr(8));
  } else {
    return std::nullopt;
  }
  // Posts older than 1970 exist (archives of old newsletters, posts dated
  // by hand): timegm() gives their negative times.
  if (year < 1 || (month && month > 12) || (s.size() > 4 && month < 1)) return std::nullopt;
  if (day && (day < 1 || day > days_in_month(year, month))) return std::nullopt;
  if (s.size() == 10 && day < 1) return std::nullopt;

  auto start = utc_time(year, month ? month : 1, day ? day : 1);
  if (!start) return std::nullopt;
  if (!end_of_period) return start;
  std::optional<UnixTime> next;
  if (day)
    return *start + 86400 - 1;
  if (month)
    next = month == 12 ? utc_time(year + 1, 1, 1) : utc_time(year, month + 1, 1);
  else
    next = utc_time(year + 1, 1, 1);
  if (!next) return std::nullopt;
  return *next - 1;
}

std::string describe_query(const Xapian::Query& query, const std::vector<UnixTime>& dates) {
  std::string text = query.get_description();
  const std::string head = "Query(VALUE_GE " + std::to_string(schema::kSlotPublished) + " ";
  for (UnixTime t : dates) {
    // The value as Xapian's description writes it (its escapes included),
    // cut out of the description of a query of that value alone.
    const std::string alone =
        Xapian::Query(Xapian::Query::OP_VALUE_GE, schema::kSlotPublished,
                      Xapian::sortable_serialise(static_cast<double>(t)))
            .get_description();
    if (alone.size() <= head.size() + 1 || alone.compare(0, head.size(), head) != 0) continue;
    const std::string bytes = " " + alone.substr(head.size(), alone.size() - head.size() - 1);
    const std::string utc = " " + format_time(t);
    for (std::size_t at = text.find(bytes); at != std::string::npos; at = text.find(bytes, at + 1))
      text.replace(at, bytes.size(), utc);
  }
  return text;
}

UnixTime parse_time_option(const std::string& option, const std::string& value,
                           bool end_of_period, UnixTime now) {
  if (auto t = parse_date(value, end_of_period)) return *t;
  std::string_view v = value;
  if (v.size() >= 2 && all_digits(v.substr(0, v.size() - 1)) && v.size() <= 7) {
    long n = to_int(v.substr(0, v.size() - 1));
    char unit = v.back();
    if (unit == 'd') return now - n * 86400;
    if (unit == 'w') return now - n * 7 * 86400;
    if (unit == 'm' || unit == 'y') {
      std::time_t tt = static_cast<std::time_t>(now);
      std::tm tm{};
      gmtime_r(&tt, &tm);
      long months = tm.tm_year * 12L + tm.tm_mon - (unit == 'm' ? n : n * 12);
      // Ages reaching back before 1900 ("2026m", found by fuzz/date_fuzz.cc)
      // made tm_mon negative and days_in_month read outside its table; no
      // feed has posts that old, so they mean "since 1900-01-01".
      if (months < 0) return *utc_time(1900, 1, 1);
      tm.tm_year = static_cast<int>(months / 12);
      tm.tm_mon = static_cast<int>(months % 12);
      // 31 March minus one month is the last day of February, not 3 March.
      int last = days_in_month(tm.tm_year + 1900, tm.tm_mon + 1);
      if (tm.tm_mday > last) tm.tm_mday = last;
      return static_cast<UnixTime>(timegm(&tm));
    }
  }
  throw QueryError(option + ": '" + value +
                   "' is not a date (YYYY, YYYY-MM, YYYY-MM-DD) or an age (30d, 6m, 1y)");
}

namespace {

struct Token {
  std::string text;
  std::size_t pos;
};

std::vector<Token> tokenize(const std::string& q) {
  std::vector<Token> tokens;
  bool in_quote = false;
  std::size_t i = 0;
  while (i < q.size()) {
    char c = q[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (!in_quote && (c == '(' || c == ')')) {
      tokens.push_back({std::string(1, c), i});
      ++i;
    } else {
      std::size_t start = i;
      while (i < q.size() && !std::isspace(static_cast<unsigned char>(q[i])) &&
             (in_quote || (q[i] != '(' && q[i] != ')'))) {
        if (q[i] == '"') in_quote = !in_quote;
        ++i;
      }
      tokens.push_back({q.substr(start, i - start), start});
    }
  }
  return tokens;
}

bool is_binary_op(const std::string& t) {
  if (t == "AND" || t == "OR" || t == "XOR") return true;
  for (const char* op : {"NEAR", "ADJ"}) {
    std::string_view o(op);
    if (t.compare(0, o.size(), o) == 0 &&
        (t.size() == o.size() || (t[o.size()] == '/' && all_digits(std::string_view(t).substr(o.size() + 1)))))
      return true;
  }
  return false;
}

// Xapian reads "-" or "+" before a space or punctuation ("Warelay -> OpenClaw")
// as an operator on the next word; people mean it as text.
std::string detach_stray_signs(std::string q) {
  for (std::size_t i = 0; i < q.size(); ++i) {
    if (q[i] != '-' && q[i] != '+') continue;
    bool starts_token = i == 0 || std::isspace(static_cast<unsigned char>(q[i - 1])) || q[i - 1] == '(';
    unsigned char next = i + 1 < q.size() ? static_cast<unsigned char>(q[i + 1]) : ' ';
    bool attached = std::isalnum(next) || next >= 0x80 || next == '"' || next == '(';
    if (starts_token && !attached) q[i] = ' ';
  }
  return q;
}

// Words typed without any syntax, as when pasting a title.
bool is_plain_words(const std::vector<Token>& tokens) {
  if (tokens.size() < 2) return false;
  for (const auto& t : tokens) {
    if (is_binary_op(t.text) || t.text == "NOT" || t.text[0] == '+' || t.text[0] == '-' ||
        t.text.find_first_of("\"():*") != std::string::npos)
      return false;
  }
  return true;
}

// Text that may be a pasted title: no operator, +/- sign, field prefix or
// wildcard (quotes, colons and parentheses are common in titles, "2025:
// The year in LLMs", and are allowed).
bool is_title_like(const std::vector<Token>& tokens) {
  if (tokens.empty()) return false;
  for (const auto& t : tokens) {
    const std::string& w = t.text;
    if (is_binary_op(w) || w == "NOT" || w[0] == '+' || w[0] == '-' || w.back() == '*')
      return false;
    const auto colon = w.find(':');
    if (colon != std::string::npos && colon + 1 < w.size()) {
      const std::string field = schema::lowercase_utf8(w.substr(w[0] == '"' ? 1 : 0, colon - (w[0] == '"' ? 1 : 0)));
      if (field == "date") return false;
      for (const auto& f : schema::kFieldPrefixes)
        if (field == f.field) return false;
    }
  }
  return true;
}

// A query that uses the query language on purpose: an operator or a
// parenthesis. Its syntax errors are reported; any other text that Xapian
// cannot parse (a pasted title such as "Wait...what?") is searched as words.
bool uses_operators(const std::vector<Token>& tokens) {
  for (const auto& t : tokens)
    if (is_binary_op(t.text) || t.text == "NOT" || t.text == "(" || t.text == ")") return true;
  return false;
}

// Every token is a negated word or phrase ("-python", "-python -rust"):
// Xapian drops the negation when nothing is wanted, people mean "all posts
// except".
bool only_negations(const std::vector<Token>& tokens) {
  if (tokens.empty()) return false;
  for (const auto& t : tokens)
    if (t.text.size() < 2 || t.text[0] != '-') return false;
  return true;
}

// The query with the first letter of each word lowercased, except for the
// operators. Xapian's QueryParser does not stem a capitalised word (it
// takes it for a name), but phone keyboards capitalise the first word, and
// a pasted title capitalises most: "Agents" must find what "agents" finds.
// Every term is lowercased anyway, so nothing else changes. A version
// number loses its "v" ("v0.5.0" -> "0.5.0"): the indexer gives each
// such word its number too (common/version_word.h).
std::string lowercase_word_starts(const std::string& q, const std::vector<Token>& tokens) {
  std::string out;
  out.reserve(q.size());
  std::size_t copied = 0;
  auto word_char = [](unsigned ch) { return Xapian::Unicode::is_wordchar(ch); };
  for (const auto& t : tokens) {
    if (is_binary_op(t.text) || t.text == "NOT") continue;
    out.append(q, copied, t.pos - copied);
    copied = t.pos;
    // A field name is kept as typed ("AUTHOR:writer").
    std::string_view rest = t.text;
    if (const auto colon = rest.find(':'); colon != std::string_view::npos) {
      const std::string name = schema::lowercase_utf8(rest.substr(0, colon));
      bool field = name == "date";
      for (const auto& f : schema::kFieldPrefixes) field = field || name == f.field;
      if (field) {
        out.append(rest.substr(0, colon + 1));
        rest.remove_prefix(colon + 1);
      }
    }
    bool in_word = false;
    for (Xapian::Utf8Iterator it(rest.data(), rest.size()); it != Xapian::Utf8Iterator(); ++it) {
      const unsigned ch = *it;
      if (!in_word && (ch == 'v' || ch == 'V')) {
        // The word's ASCII letters, digits and dots, without trailing dots.
        const std::string_view from(it.raw(), rest.data() + rest.size() - it.raw());
        std::size_t end = 0;
        while (end < from.size() && (std::isalnum(static_cast<unsigned char>(from[end])) || from[end] == '.')) ++end;
        while (end > 0 && from[end - 1] == '.') --end;
        const bool word_ends = end == from.size() || !word_char(static_cast<unsigned char>(from[end]));
        if (word_ends && is_version_with_v(from.substr(0, end))) {
          in_word = false;
          continue;
        }
      }
      // "A.I." stays: Xapian reads capitals with dots as one acronym ("ai").
      Xapian::Utf8Iterator next = it;
      const bool acronym = ++next != Xapian::Utf8Iterator() && *next == '.';
      if (!in_word && !acronym && word_char(ch) &&
          Xapian::Unicode::get_category(ch) == Xapian::Unicode::UPPERCASE_LETTER) {
        Xapian::Unicode::append_utf8(out, Xapian::Unicode::tolower(ch));
      } else {
        Xapian::Unicode::append_utf8(out, ch);
      }
      in_word = word_char(ch);
    }
    copied = t.pos + t.text.size();
  }
  out.append(q, copied, std::string::npos);
  return out;
}

// The text of a query that could not be parsed, as words only: runs of
// dots (which Xapian reads as a range), quotes and parentheses become spaces.
std::string as_words(const std::string& q) {
  std::string out = q;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] == '"' || out[i] == '(' || out[i] == ')') out[i] = ' ';
    if (out[i] == '.' && i + 1 < out.size() && out[i + 1] == '.') {
      while (i < out.size() && out[i] == '.') out[i++] = ' ';
      --i;
    }
  }
  return out;
}

// Where in `q` the bad date value of a date: token is: the byte offset of
// the value in the first date: token holding it in that place, else of its
// first occurrence, else npos.
std::size_t find_bad_date(const std::string& q, const BadDate& bad) {
  for (const auto& t : tokenize(q)) {
    if (t.text.size() < 5 || schema::lowercase_utf8(t.text.substr(0, 5)) != "date:") continue;
    std::size_t at = 5;
    if (bad.part == BadDate::kRangeEnd) {
      at = t.text.find("..", 5);
      if (at == std::string::npos) continue;
      at += 2;
      // Xapian passes the end with its "date:" when it was typed again.
      if (t.text.size() >= at + 5 && schema::lowercase_utf8(t.text.substr(at, 5)) == "date:" &&
          schema::lowercase_utf8(bad.value.substr(0, 5)) != "date:")
        at += 5;
    }
    if (t.text.compare(at, bad.value.size(), bad.value) == 0) return t.pos + at;
  }
  return q.find(bad.value);
}

}  // namespace

QueryError locate_syntax_error(const std::string& query, const std::string& xapian_message) {
  const std::vector<Token> tokens = tokenize(query);
  const auto n = tokens.size();
  for (std::size_t i = 0; i < n; ++i) {
    const std::string& t = tokens[i].text;
    const bool binary = is_binary_op(t);
    if (!binary && t != "NOT") continue;
    bool left_ok = i > 0 && tokens[i - 1].text != "(" && !is_binary_op(tokens[i - 1].text) &&
                   tokens[i - 1].text != "NOT";
    bool right_ok = i + 1 < n && tokens[i + 1].text != ")" && !is_binary_op(tokens[i + 1].text);
    if (binary && !(left_ok && right_ok))
      return QueryError("'" + t + "' needs a word or phrase on both sides", query, tokens[i].pos + 1,
                        t.size());
    if (!binary && !right_ok)
      return QueryError("'NOT' needs a word or phrase after it", query, tokens[i].pos + 1, 3);
  }
  // Xapian itself closes what a query leaves open, so an unbalanced
  // parenthesis is only named when Xapian could not parse the query.
  std::vector<const Token*> open;  // "(" not closed yet
  for (const auto& t : tokens) {
    if (t.text == "(") {
      open.push_back(&t);
    } else if (t.text == ")") {
      if (open.empty()) return QueryError("')' has no '(' before it", query, t.pos + 1, 1);
      open.pop_back();
    }
  }
  if (!open.empty()) return QueryError("'(' is never closed: add ')'", query, open.back()->pos + 1, 1);
  for (const auto& t : tokens)
    if (auto dots = t.text.find(".."); dots != std::string::npos)
      return QueryError("'" + t.text + "' is not a range this search knows (dates: date:A..B, " +
                            kDateFormats + ")",
                        query, t.pos + 1, t.text.size());
  return QueryError("cannot parse the query (" + xapian_message + ")", query, 0);
}

// The QueryParsers set up with every field prefix and processor, one per
// language the database's posts are stemmed in (schema::kLanguage terms;
// the one with the most posts first), and what their date processors
// report into.
struct QueryBuilder::Parser {
  DateNotes date_notes;  // declared first: the date processors point at it
  Xapian::Database db;
  std::vector<std::string> codes;  // the languages, never empty
  std::vector<Xapian::Stem> stems;  // theirs
  // Their parsers, made when first needed: most queries have no word that
  // the other languages stem otherwise, and setting a parser up costs about
  // as much as parsing with it.
  std::vector<std::optional<Xapian::QueryParser>> languages;
  Xapian::QueryParser titles;  // for title_phrase

  explicit Parser(const Xapian::Database& database) : db(database) {
    // A look-up per language, in the order of their codes (the order of
    // their terms), not a walk over the L terms: glass walks every key of
    // a term's posting list, and over a million posts `Len` alone has
    // hundreds of chunks (43% of a cheap CLI search's profile).
    std::vector<std::string> known;
    for (const auto& l : schema::kLanguages) known.push_back(l.code);
    std::sort(known.begin(), known.end());
    std::vector<std::pair<Xapian::doccount, std::string>> present;
    for (const auto& code : known)
      if (const Xapian::doccount n = db.get_termfreq(schema::kLanguage + code); n > 0) present.emplace_back(n, code);
    std::stable_sort(present.begin(), present.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    if (present.empty()) present.emplace_back(0, schema::kStemLanguage);  // an empty or older database
    for (const auto& l : present) {
      codes.push_back(l.second);
      stems.push_back(schema::make_stemmer(l.second));
    }
    languages.resize(codes.size());
    titles.add_prefix("title", schema::kTitle);
    if (schema::postings_layout().stems_only) {  // title words are ZS stems only
      titles.set_stemmer(schema::make_stemmer(codes[0]));
      titles.set_stemming_strategy(Xapian::QueryParser::STEM_ALL_Z);
    }
  }

  Xapian::QueryParser& parser(std::size_t i) {
    if (!languages[i]) languages[i] = make(codes[i]);
    return *languages[i];
  }

  Xapian::QueryParser make(const std::string& language) {
    Xapian::QueryParser qp;
    qp.set_database(db);
    qp.set_stemmer(schema::make_stemmer(language));
    qp.set_stemming_strategy(schema::postings_layout().stems_only ? Xapian::QueryParser::STEM_ALL_Z
                                                                  : Xapian::QueryParser::STEM_SOME);
    qp.set_default_op(default_op);
    if (max_expansion)
      qp.set_max_expansion(max_expansion, Xapian::Query::WILDCARD_LIMIT_ERROR,
                           Xapian::QueryParser::FLAG_WILDCARD | Xapian::QueryParser::FLAG_PARTIAL);
    for (const auto& field : schema::kFieldPrefixes) {
      const std::string group = field.field;
      for (const auto& name : name_variants(field.field)) {
        if (!field.boolean) {
          qp.add_prefix(name, field.prefix);
        } else if (std::string_view(field.prefix) == schema::kHost) {
          qp.add_boolean_prefix(name, (new SiteFieldProcessor(db, field.prefix))->release(), &group);
        } else if (std::string_view(field.prefix) == schema::kLanguage) {
          qp.add_boolean_prefix(name, (new LanguageFieldProcessor())->release(), &group);
        } else {
          qp.add_boolean_prefix(name, (new ExactFieldProcessor(field.prefix))->release(), &group);
        }
      }
    }
    const std::string date_group = "date";
    for (const auto& name : name_variants("date"))
      qp.add_boolean_prefix(name, (new DateFieldProcessor(&date_notes))->release(), &date_group);
    qp.add_rangeprocessor((new DateRangeProcessor(&date_notes))->release());
    return qp;
  }

  Xapian::QueryParser& primary() { return parser(0); }

  // Whether language i stems a word of `text` otherwise than the primary
  // (words in quotes are not stemmed).
  bool stems_otherwise(std::size_t i, const std::string& text) {
    std::string word;
    bool differs = false, quoted = false;
    auto flush = [&] {
      if (!word.empty() && !quoted && stems[0](word) != stems[i](word)) differs = true;
      word.clear();
    };
    for (Xapian::Utf8Iterator it(text.data(), text.size()); it != Xapian::Utf8Iterator() && !differs; ++it) {
      if (Xapian::Unicode::is_wordchar(*it)) {
        Xapian::Unicode::append_utf8(word, Xapian::Unicode::tolower(*it));
      } else {
        flush();
        if (*it == '"') quoted = !quoted;
      }
    }
    flush();
    return differs;
  }

  // `text` parsed in every language: a post is stemmed in one, so it
  // matches the parse of its own language; each post weighs as its best
  // parse (OP_MAX), so a word whose stems agree is not counted twice; a
  // post matches when it matches any parse, which is also what an
  // exclusion needs. Only this join uses OP_MAX (query_bounds.cc counts
  // the wildcards of one parse, also when over shards the OP_MAX is the
  // left side of an OP_FILTER by the same parts). Spelling correction is asked of the
  // primary parser only. Throws Xapian::QueryParserError as parse_query
  // does.
  Xapian::Query parse(const std::string& text, unsigned flags) {
    Xapian::Query q = primary().parse_query(text, flags);
    if (languages.size() == 1) return q;
    std::vector<Xapian::Query> parts{q};
    std::vector<std::string> seen{q.get_description()};
    for (std::size_t i = 1; i < languages.size(); ++i) {
      if (!stems_otherwise(i, text)) continue;  // the same parse
      Xapian::Query other =
          parser(i).parse_query(text, flags & ~Xapian::QueryParser::FLAG_SPELLING_CORRECTION);
      std::string d = other.get_description();
      if (std::find(seen.begin(), seen.end(), d) != seen.end()) continue;
      seen.push_back(std::move(d));
      parts.push_back(std::move(other));
    }
    if (parts.size() == 1) return q;
    if (db.size() < 2) return Xapian::Query(Xapian::Query::OP_MAX, parts.begin(), parts.end());
    // Over several shards, Xapian 1.4.22 crashes (MaxPostList::
    // recalc_maxweight) once a page is full when one shard holds none of
    // an OP_MAX's terms. A weightless match-all among its parts keeps every
    // shard's OP_MAX alive; the filter by the parts keeps the matches and
    // the weights exactly those of the parts alone (query_bounds.cc counts
    // the wildcards of the OP_MAX only).
    Xapian::Query any(Xapian::Query::OP_OR, parts.begin(), parts.end());
    parts.emplace_back(Xapian::Query::OP_SCALE_WEIGHT, match_all(), 0.0);
    return Xapian::Query(Xapian::Query::OP_FILTER, Xapian::Query(Xapian::Query::OP_MAX, parts.begin(), parts.end()),
                         any);
  }

  void set_default_op(Xapian::Query::op op) {
    default_op = op;
    for (auto& qp : languages)
      if (qp) qp->set_default_op(op);
  }
  void set_max_expansion(Xapian::termcount n) {
    max_expansion = n;
    for (auto& qp : languages)
      if (qp) qp->set_max_expansion(n, Xapian::Query::WILDCARD_LIMIT_ERROR,
                                    Xapian::QueryParser::FLAG_WILDCARD | Xapian::QueryParser::FLAG_PARTIAL);
  }
  // What set_default_op and set_max_expansion last set: parsers made later get them too.
  Xapian::Query::op default_op = Xapian::Query::OP_AND;
  Xapian::termcount max_expansion = 0;
};

// For words with a diacritic, the posts that write them so rank before
// those that match them only folded ("jürgen" before "Jurgen"): the
// unstemmed words as typed, to weigh in (OP_AND_MAYBE) but not to match.
Xapian::Query exact_accented_words(const std::string& text) {
  std::vector<Xapian::Query> terms;
  std::string word;
  auto flush = [&] {
    if (!word.empty() && fold::has_foldable(word) && word.size() <= schema::kMaxTermBytes) terms.emplace_back(word);
    word.clear();
  };
  for (Xapian::Utf8Iterator it(text.data(), text.size()); it != Xapian::Utf8Iterator(); ++it) {
    if (Xapian::Unicode::is_wordchar(*it)) Xapian::Unicode::append_utf8(word, Xapian::Unicode::tolower(*it));
    else flush();
  }
  flush();
  return terms.empty() ? Xapian::Query() : Xapian::Query(Xapian::Query::OP_OR, terms.begin(), terms.end());
}

QueryBuilder::QueryBuilder(const Xapian::Database& db) : db_(db) {}
QueryBuilder::~QueryBuilder() = default;

BuiltQuery build_query(const Xapian::Database& db, const QueryOptions& options) {
  return QueryBuilder(db).build(options);
}

BuiltQuery QueryBuilder::build(const QueryOptions& options) {
  const Filters& f = options.filters;
  const bool has_filters = !f.categories.empty() || !f.authors.empty() || !f.feeds.empty() ||
                           !f.posts.empty() || f.since || f.until;
  const bool has_text = !is_blank(options.text);
  if (!has_text && !has_filters)
    throw QueryError("empty query: give search words or a filter (--category, --author, --feed, --since, --until)");
  if (f.since && f.until && *f.since > *f.until)
    throw QueryError("--since is later than --until: no post can match");

  BuiltQuery built{match_all(), ""};
  if (has_text) {
    if (!parser_) parser_ = std::make_unique<Parser>(db_);
    Parser& qp = *parser_;
    DateNotes& date_notes = parser_->date_notes;
    date_notes.first.reset();
    date_notes.times.clear();
    qp.set_max_expansion(options.max_wildcard_expansion);
    built.languages = qp.codes;

    // Boolean operators only in upper case: "cats or dogs" searches for the
    // word "or" rather than surprising anyone who typed a title.
    unsigned flags = Xapian::QueryParser::FLAG_BOOLEAN | Xapian::QueryParser::FLAG_PHRASE |
                     Xapian::QueryParser::FLAG_LOVEHATE | Xapian::QueryParser::FLAG_WILDCARD |
                     Xapian::QueryParser::FLAG_PURE_NOT;
    if (options.spelling) flags |= Xapian::QueryParser::FLAG_SPELLING_CORRECTION;
    const std::string stray_free = detach_stray_signs(options.text);
    const std::vector<Token> tokens = tokenize(stray_free);
    const std::string text = lowercase_word_starts(stray_free, tokens);
    bool plain = is_plain_words(tokens);
    built.plain_words = plain;
    std::string words_text = text;  // the query's words, for the title boosts
    // Parses with `op` between the words; the parser, kept for the next
    // query, is left joining them with AND again, also when it throws.
    auto parse = [&qp](const std::string& s, auto parse_flags, Xapian::Query::op op) {
      struct AndAgain {
        Parser& qp;
        ~AndAgain() { qp.set_default_op(Xapian::Query::OP_AND); }
      } and_again{qp};
      qp.set_default_op(op);
      return qp.parse(s, parse_flags);
    };
    const Xapian::Query::op join = options.any_word ? Xapian::Query::OP_OR : Xapian::Query::OP_AND;
    try {
      built.query = parse(text, flags, join);
    } catch (const Xapian::QueryParserError& e) {
      if (uses_operators(tokens)) throw locate_syntax_error(options.text, e.get_msg());
      words_text = as_words(text);
      try {
        built.query = parse(words_text, flags & Xapian::QueryParser::FLAG_SPELLING_CORRECTION, join);
      } catch (const Xapian::QueryParserError&) {
        throw locate_syntax_error(options.text, e.get_msg());
      }
      built.as_words = locate_syntax_error(options.text, e.get_msg()).detail();
      plain = true;
    }
    if (const auto& bad = date_notes.first) {
      std::size_t at = find_bad_date(options.text, *bad);
      throw QueryError(bad->detail, options.text, at == std::string::npos ? 0 : at + 1,
                       bad->value.size());
    }
    if (only_negations(tokens)) {
      // Xapian joins "-a -b" into "a AND b" (the default operator): what is
      // excluded is a post with any of them.
      std::string wanted = stray_free;
      for (auto t = tokens.rbegin(); t != tokens.rend(); ++t) wanted.erase(t->pos, 1);
      wanted = lowercase_word_starts(wanted, tokenize(wanted));
      // When the query only parsed as plain words, so must what it excludes
      // ("-a..b" is not a range either).
      if (!built.as_words.empty()) wanted = as_words(wanted);
      Xapian::Query any;
      try {
        any = parse(wanted, flags & ~Xapian::QueryParser::FLAG_SPELLING_CORRECTION, Xapian::Query::OP_OR);
      } catch (const Xapian::QueryParserError& e) {
        throw locate_syntax_error(options.text, e.get_msg());
      }
      built.query = Xapian::Query(Xapian::Query::OP_AND_NOT, match_all(), any);
    }
    built.unboosted = built.query;
    if (const Xapian::Query exact = exact_accented_words(words_text); !exact.empty())
      built.query = Xapian::Query(Xapian::Query::OP_AND_MAYBE, built.query, exact);
    const bool title_like = plain || is_title_like(tokens);
    // For plain words, posts whose title holds them in the typed order rank
    // higher: the difference between "datasette-llm 0.1a4" and
    // "datasette-llm-accountant 0.1a4", or "The state of React" and
    // "Persisting React State".
    if (title_like) {
      std::string phrase = words_text;
      for (char& c : phrase)
        if (c == '"' || c == '(' || c == ')') c = ' ';
      if (tokenize(phrase).size() >= 2) {
        const Xapian::Query title_phrase =
            parser_->titles.parse_query("title:\"" + phrase + "\"", Xapian::QueryParser::FLAG_PHRASE);
        built.query = Xapian::Query(Xapian::Query::OP_AND_MAYBE, built.query, title_phrase);
      }
    }
    // A query that is a post's whole title brings that post first: a fixed
    // weight, more than the words of a query of that length can weigh in
    // any other post (BM25 gives a term at most about 2 * log(posts)), for
    // the posts holding its kTitleExact term. "Api" otherwise loses to long
    // posts that use the word often, and "Nix Remote Builders" to "Nix
    // Remote Builders on non-standard OpenSSH ports". Posts sharing the
    // title keep their order (BM25, then newest first).
    if (title_like) {
      const std::string term = schema::title_term(words_text);
      if (!term.empty() && db_.term_exists(term)) {
        const auto words = static_cast<double>(std::count(term.begin(), term.end(), ' ') + 1);
        Xapian::Query boost(Xapian::Query::OP_FILTER,
                            Xapian::Query((new Xapian::FixedWeightPostingSource(kExactTitleWeight * words))->release()),
                            Xapian::Query(term));
        built.query = Xapian::Query(Xapian::Query::OP_OR, built.query, boost);
      }
    }
    built.dates = date_notes.times;
    if (options.spelling) {
      std::string corrected = qp.primary().get_corrected_query_string();
      if (!corrected.empty() && corrected != text && corrected != words_text) built.suggestion = corrected;
    }
  }

  auto filter = [&built](const Xapian::Query& by) {
    built.query = Xapian::Query(Xapian::Query::OP_FILTER, built.query, by);
  };
  if (!f.categories.empty()) filter(any_of(schema::kCategory, f.categories));
  if (!f.authors.empty()) filter(any_of(schema::kAuthorExact, f.authors));
  if (!f.feeds.empty()) filter(any_of(schema::kFeed, f.feeds));
  if (!f.posts.empty()) {
    std::vector<Xapian::Query> ids;
    for (const auto& id : f.posts) ids.emplace_back(schema::id_term(id));
    filter(Xapian::Query(Xapian::Query::OP_OR, ids.begin(), ids.end()));
  }
  if (f.since || f.until) filter(published_between(f.since, f.until, built.dates));
  return built;
}

}  // namespace blogsearch
