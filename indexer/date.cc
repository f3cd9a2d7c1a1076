// date.cc: RFC 3339 is read by a strict scanner first, because most feeds
// that are not RSS use it and it needs no tokens. Everything else (RFC 822
// above all) is read by one tolerant reader: a tokenizer and a left-to-right
// pass that assigns each number and word to a field. libcurl's curl_getdate
// read RFC 822 before; it rejects the 12-hour clock, unknown zone names,
// ordinal days and "EST -05:00", reads the four-digit year 0001 as 2001, and
// cannot say which of those it met, so it is no longer used here. The reader
// does no allocation and is two to three times faster on RFC 822 dates.
#include "indexer/date.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <ctime>

namespace blogsearch {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_letter(char c) {
  // Bytes of UTF-8 sequences count as letters so that a localised word stays
  // one (unknown) word instead of breaking into punctuation.
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || static_cast<unsigned char>(c) >= 0x80;
}
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

constexpr Time kFirst = -5364662400;  // 1800-01-01T00:00:00Z
constexpr Time kLast = 253402300799;  // 9999-12-31T23:59:59Z

// Days from 1970-01-01 to a proleptic Gregorian date (the civil-from-days
// identity: years counted from March so the leap day falls last).
std::int64_t days_from_civil(int y, int m, int d) {
  y -= m <= 2 ? 1 : 0;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int yoe = static_cast<int>(y - era * 400);
  const int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

bool is_leap(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

std::optional<Time> to_epoch(int year, int month, int day, int hour, int minute, int second,
                             int offset_seconds) {
  static constexpr std::array<int, 12> kDays = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1 || day > kDays[month - 1]) {
    return std::nullopt;
  }
  if (month == 2 && day == 29 && !is_leap(year)) return std::nullopt;
  // 24:00:00 is allowed by ISO 8601; 60 seconds is a leap second, kept as :59.
  if (hour < 0 || hour > 24 || minute < 0 || minute > 59 || second < 0 || second > 60) {
    return std::nullopt;
  }
  if (hour == 24 && (minute != 0 || second != 0)) return std::nullopt;
  if (second == 60) second = 59;
  Time t = days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second;
  t -= offset_seconds;
  // A zone offset can push 9999-12-31 or 1800-01-01 over the edge; such
  // times could not be printed back and read as the same instant.
  if (t < kFirst || t > kLast) return std::nullopt;
  return t;
}

// Reads exactly n digits at s[pos]; advances pos.
bool read_digits(std::string_view s, std::size_t& pos, int n, int& out) {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (int i = 0; i < n; ++i) {
    char c = s[pos + i];
    if (!is_digit(c)) return false;
    v = v * 10 + (c - '0');
  }
  pos += n;
  out = v;
  return true;
}

// RFC 3339 and the ISO 8601 shapes feeds use: extended or basic, 'T' or a
// space between date and time, optional seconds, fraction and zone (UTC when
// absent), and date-only or year-month forms.
std::optional<Time> parse_iso8601(std::string_view s) {
  std::size_t pos = 0;
  int year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0;
  if (!read_digits(s, pos, 4, year)) return std::nullopt;
  if (pos == s.size()) return to_epoch(year, 1, 1, 0, 0, 0, 0);
  if (s[pos] == '-') {
    ++pos;
    if (!read_digits(s, pos, 2, month)) return std::nullopt;
    if (pos < s.size() && s[pos] == '-') {
      ++pos;
      if (!read_digits(s, pos, 2, day)) return std::nullopt;
    } else if (pos != s.size()) {
      return std::nullopt;
    }
  } else {
    if (!read_digits(s, pos, 2, month) || !read_digits(s, pos, 2, day)) return std::nullopt;
  }
  int offset = 0;
  if (pos < s.size()) {
    char sep = s[pos];
    if (sep != 'T' && sep != 't' && sep != ' ') return std::nullopt;
    ++pos;
    while (sep == ' ' && pos < s.size() && s[pos] == ' ') ++pos;
    if (!read_digits(s, pos, 2, hour)) return std::nullopt;
    bool colon = pos < s.size() && s[pos] == ':';
    if (colon) ++pos;
    if (!read_digits(s, pos, 2, minute)) return std::nullopt;
    if (pos < s.size() && (s[pos] == ':' || (!colon && is_digit(s[pos])))) {
      if (s[pos] == ':') ++pos;
      if (!read_digits(s, pos, 2, second)) return std::nullopt;
      if (pos < s.size() && (s[pos] == '.' || s[pos] == ',')) {
        ++pos;
        std::size_t start = pos;
        while (pos < s.size() && is_digit(s[pos])) ++pos;
        if (pos == start) return std::nullopt;
      }
    }
    while (pos < s.size() && s[pos] == ' ') ++pos;
    if (pos < s.size()) {
      char z = s[pos];
      if ((z == 'Z' || z == 'z') && pos + 1 == s.size()) {
        pos = s.size();
      } else if (z == '+' || z == '-') {
        ++pos;
        int zh = 0, zm = 0;
        if (!read_digits(s, pos, 2, zh)) return std::nullopt;
        if (pos < s.size() && s[pos] == ':') ++pos;
        if (pos < s.size() && !read_digits(s, pos, 2, zm)) return std::nullopt;
        if (pos != s.size() || zh > 23 || zm > 59) return std::nullopt;
        offset = (zh * 3600 + zm * 60) * (z == '-' ? -1 : 1);
      } else if (s.substr(pos) == "UTC" || s.substr(pos) == "GMT") {
        pos = s.size();
      } else {
        return std::nullopt;
      }
    }
  }
  return to_epoch(year, month, day, hour, minute, second, offset);
}

// ---- the tolerant reader ---------------------------------------------------

struct Token {
  enum Kind : std::uint8_t { kNumber, kWord, kPunct, kMeridiem };
  Kind kind;
  bool space_before;  // whitespace (or a comment) separates it from the last
  std::uint8_t digits;
  std::uint16_t begin, size;
  int value;  // a number's value, a punctuation character, a meridiem's 0 or 12
};

// Dates in feeds have at most about 15 tokens; a longer text is not one.
constexpr std::size_t kMaxTokens = 40;

struct Tokens {
  std::array<Token, kMaxTokens> list;
  std::size_t count = 0;
};

// No-break spaces (U+00A0, and U+202F that some locales put before "PM")
// separate like spaces; taken for UTF-8 letters they would glue words
// together. Gives the length of the one at pos, or 0.
std::size_t nbsp_at(std::string_view s, std::size_t pos) {
  if (s.substr(pos, 2) == "\xc2\xa0") return 2;
  if (s.substr(pos, 3) == "\xe2\x80\xaf") return 3;
  return 0;
}

// Splits s into numbers, words and single punctuation characters; drops
// parenthesised comments ("(UTC)", "(Coordinated Universal Time)") and reads
// "a.m." and "p.m." as one meridiem token. False when there are too many.
bool tokenize(std::string_view s, Tokens& out) {
  std::size_t pos = 0;
  bool space = false;
  while (pos < s.size()) {
    char c = s[pos];
    if (is_space(c)) {
      space = true;
      ++pos;
      continue;
    }
    if (std::size_t n = nbsp_at(s, pos)) {
      space = true;
      pos += n;
      continue;
    }
    if (c == '(') {
      std::size_t close = s.find(')', pos);
      pos = close == std::string_view::npos ? s.size() : close + 1;
      space = true;
      continue;
    }
    if (out.count == kMaxTokens) return false;
    Token& t = out.list[out.count++];
    t.space_before = space;
    space = false;
    t.begin = static_cast<std::uint16_t>(pos);
    t.digits = 0;
    t.value = 0;
    if (is_digit(c)) {
      t.kind = Token::kNumber;
      while (pos < s.size() && is_digit(s[pos])) {
        // Only up to four digits are ever a field; longer runs stay too long.
        if (t.digits < 9) t.value = t.value * 10 + (s[pos] - '0');
        if (t.digits < 255) ++t.digits;
        ++pos;
      }
    } else if (is_letter(c)) {
      char l = lower(c);
      if ((l == 'a' || l == 'p') && pos + 2 < s.size() && s[pos + 1] == '.' &&
          lower(s[pos + 2]) == 'm' && (pos + 3 == s.size() || !is_letter(s[pos + 3]))) {
        t.kind = Token::kMeridiem;
        t.value = l == 'a' ? 0 : 12;
        pos += 3;
        if (pos < s.size() && s[pos] == '.') ++pos;
      } else {
        t.kind = Token::kWord;
        while (pos < s.size() && is_letter(s[pos]) && nbsp_at(s, pos) == 0) ++pos;
      }
    } else {
      t.kind = Token::kPunct;
      t.value = c;
      ++pos;
    }
    t.size = static_cast<std::uint16_t>(pos - t.begin);
  }
  return true;
}

constexpr std::array<const char*, 12> kMonths = {
    "january", "february", "march",     "april",   "may",      "june",
    "july",    "august",   "september", "october", "november", "december"};
constexpr std::array<const char*, 7> kWeekdays = {"monday", "tuesday", "wednesday", "thursday",
                                                  "friday", "saturday", "sunday"};

// A word that starts a month or day name ("Sept", "September", "Tues") gives
// its index; three letters at least, so zone names are never mistaken.
template <std::size_t N>
int name_index(std::string_view word, const std::array<const char*, N>& names) {
  if (word.size() < 3) return -1;
  for (std::size_t i = 0; i < N; ++i) {
    std::string_view name = names[i];
    if (word.size() <= name.size() && name.substr(0, word.size()) == word) return static_cast<int>(i);
  }
  return -1;
}

struct LocalName {
  const char* word;  // lower case, UTF-8
  int month;         // 1-12; 0 for a day name
};

// German and French names that are not prefixes of English ones (Miniflux
// meets them too); whole words only. French "mar" (mardi) is missing: it is
// English March.
constexpr LocalName kLocalNames[] = {
    {"januar", 1},     {"jänner", 1},     {"janvier", 1},    {"janv", 1},
    {"februar", 2},    {"février", 2},    {"fevrier", 2},    {"févr", 2},
    {"märz", 3},       {"maerz", 3},      {"mär", 3},        {"mars", 3},
    {"avril", 4},      {"avr", 4},        {"mai", 5},        {"juni", 6},
    {"juin", 6},       {"juli", 7},       {"juillet", 7},    {"juil", 7},
    {"août", 8},       {"aout", 8},       {"septembre", 9},  {"oktober", 10},
    {"okt", 10},       {"octobre", 10},   {"novembre", 11},  {"dezember", 12},
    {"dez", 12},       {"décembre", 12},  {"decembre", 12},  {"déc", 12},
    {"montag", 0},     {"dienstag", 0},   {"mittwoch", 0},   {"donnerstag", 0},
    {"freitag", 0},    {"samstag", 0},    {"sonntag", 0},    {"mo", 0},
    {"di", 0},         {"mi", 0},         {"do", 0},         {"fr", 0},
    {"sa", 0},         {"so", 0},         {"lundi", 0},      {"mardi", 0},
    {"mercredi", 0},   {"jeudi", 0},      {"vendredi", 0},   {"samedi", 0},
    {"dimanche", 0},   {"lun", 0},        {"mer", 0},        {"jeu", 0},
    {"ven", 0},        {"sam", 0},        {"dim", 0},
};

// The month (1-12) a word names, 0 for a day name, -1 for neither.
int month_or_day(std::string_view w) {
  if (int m = name_index(w, kMonths); m >= 0) return m + 1;
  if (name_index(w, kWeekdays) >= 0) return 0;
  for (const LocalName& n : kLocalNames) {
    if (w == n.word) return n.month;
  }
  return -1;
}

struct Zone {
  const char* name;
  int minutes;  // east of UTC
};

// The abbreviations feeds write. Where one name means several zones the
// choice is the one RFC 822 or the most feeds mean: CST is US Central (not
// China), IST India (not Ireland or Israel), BST British Summer Time (not
// Bangladesh), AST Atlantic (not Arabia), GST the Gulf.
constexpr Zone kZones[] = {
    {"ut", 0},      {"utc", 0},     {"gmt", 0},     {"z", 0},       {"wet", 0},
    {"west", 60},   {"bst", 60},    {"cet", 60},    {"met", 60},    {"mez", 60},
    {"wat", 60},    {"cest", 120},  {"mest", 120},  {"mesz", 120},  {"eet", 120},
    {"cat", 120},   {"sast", 120},  {"eest", 180},  {"msk", 180},   {"trt", 180},
    {"eat", 180},   {"gst", 240},   {"pkt", 300},   {"ist", 330},   {"npt", 345},
    {"ict", 420},   {"wib", 420},   {"hkt", 480},   {"sgt", 480},   {"awst", 480},
    {"pht", 480},   {"myt", 480},   {"jst", 540},   {"kst", 540},   {"acst", 570},
    {"aest", 600},  {"acdt", 630},  {"aedt", 660},  {"nzst", 720},  {"nzdt", 780},
    {"nst", -210},  {"ndt", -150},  {"ast", -240},  {"adt", -180},  {"brt", -180},
    {"brst", -120}, {"art", -180},  {"clt", -240},  {"clst", -180}, {"est", -300},
    {"edt", -240},  {"cst", -360},  {"cdt", -300},  {"mst", -420},  {"mdt", -360},
    {"pst", -480},  {"pdt", -420},  {"akst", -540}, {"akdt", -480}, {"hst", -600},
    {"hdt", -540},
};

// RFC 822's military zones: A-I are -1 to -9 hours, K-M -10 to -12, N-Y +1
// to +12 (the RFC's signs, which curl and feedparser follow too).
bool military_zone(char l, int& minutes) {
  if (l >= 'a' && l <= 'i') minutes = -60 * (l - 'a' + 1);
  else if (l >= 'k' && l <= 'm') minutes = -60 * (l - 'k' + 10);
  else if (l >= 'n' && l <= 'y') minutes = 60 * (l - 'n' + 1);
  else return false;
  return true;
}

struct FreeNumber {
  int value;
  int digits;
  bool ordinal;
};

struct Fields {
  int year = -1, year_digits = 0, month = -1, day = -1;
  int hour = -1, minute = 0, second = 0;
  int meridiem = -1;  // 0 am, 12 pm
  bool has_offset = false;
  int offset = 0;  // seconds east
  bool has_zone = false;
  int zone = 0;  // seconds east, from a name
  bool zone_unknown = false;
  bool year_seen = false;  // a year is known (a triple or four digits)
  std::array<FreeNumber, 4> free{};
  int free_count = 0;
};

int expand_year(int value, int digits) {
  if (digits == 4) return value;
  if (digits == 2) return value < 50 ? 2000 + value : 1900 + value;
  return -1;
}

// Three numbers that make a date ("2025-3-17", "17.03.2025", "03/17/25").
bool resolve_triple(Fields& f, FreeNumber a, char sep, FreeNumber b, FreeNumber c) {
  if (f.year >= 0 || f.month >= 0 || f.day >= 0) return false;
  if (a.digits == 4) {
    if (b.digits > 2 || c.digits > 2) return false;
    f.year = a.value;
    f.year_digits = 4;
    f.month = b.value;
    f.day = c.value;
    return true;
  }
  if (a.digits > 2 || b.digits > 2 || (c.digits != 4 && c.digits != 2)) return false;
  f.year = c.value;
  f.year_digits = c.digits;
  bool month_first;
  if (a.value > 12 && b.value <= 12) month_first = false;
  else if (b.value > 12 && a.value <= 12) month_first = true;
  else month_first = sep == '/' || sep == ' ';
  f.month = month_first ? a.value : b.value;
  f.day = month_first ? b.value : a.value;
  return true;
}

FreeNumber as_free(const Token& t) { return {t.value, t.digits, false}; }

class Reader {
 public:
  Reader(std::string_view s, const Tokens& t) : s_(s), t_(t.list.data()), n_(t.count) {}

  bool read(Fields& f) {
    for (i_ = 0; i_ < n_; ++i_) {
      const Token& t = t_[i_];
      bool ok = t.kind == Token::kNumber  ? number(f)
                : t.kind == Token::kWord  ? word(f)
                : t.kind == Token::kPunct ? punct(f)
                                          : meridiem(f);
      if (!ok) return false;
      last_was_zone_ = t.kind == Token::kWord && zone_word_at_ == i_;
    }
    return true;
  }

 private:
  const Token* at(std::size_t i) const { return i < n_ ? &t_[i] : nullptr; }
  bool punct_at(std::size_t i, char c, bool adjacent) const {
    const Token* t = at(i);
    return t && t->kind == Token::kPunct && t->value == c && (!adjacent || !t->space_before);
  }
  bool number_at(std::size_t i, bool adjacent) const {
    const Token* t = at(i);
    return t && t->kind == Token::kNumber && (!adjacent || !t->space_before);
  }
  std::string_view lowered(const Token& t, char* buf, std::size_t room) const {
    if (t.size > room) return {};
    for (std::size_t k = 0; k < t.size; ++k) buf[k] = lower(s_[t.begin + k]);
    return std::string_view(buf, t.size);
  }

  bool number(Fields& f) {
    const Token& t = t_[i_];
    if (t.digits > 4) return false;
    // hh:mm[:ss[.fraction]]
    if (punct_at(i_ + 1, ':', true) && number_at(i_ + 2, true) && t.digits <= 2) {
      // A second time may follow a midnight that only pads the date
      // ("2025-03-17 00:00:00.0 14:05:09.0 -0500"); any other is a conflict.
      bool padding = f.hour == 0 && f.minute == 0 && f.second == 0 && f.meridiem < 0;
      if ((f.hour >= 0 && !padding) || t_[i_ + 2].digits > 2) return false;
      f.second = 0;
      f.hour = t.value;
      f.minute = t_[i_ + 2].value;
      i_ += 2;
      if (punct_at(i_ + 1, ':', true) && number_at(i_ + 2, true) && t_[i_ + 2].digits <= 2) {
        f.second = t_[i_ + 2].value;
        i_ += 2;
        if ((punct_at(i_ + 1, '.', true) || punct_at(i_ + 1, ',', true)) && number_at(i_ + 2, true)) {
          i_ += 2;
        }
        // "14:05:09:00": a stray zero field after the seconds.
        if (punct_at(i_ + 1, ':', true) && number_at(i_ + 2, true) && t_[i_ + 2].value == 0 &&
            !punct_at(i_ + 3, ':', true)) {
          i_ += 2;
        }
      }
      return true;
    }
    // French "14h05".
    if (t.digits <= 2 && number_at(i_ + 2, true) && t_[i_ + 2].digits == 2) {
      const Token& h = t_[i_ + 1];
      if (h.kind == Token::kWord && !h.space_before && h.size == 1 && lower(s_[h.begin]) == 'h') {
        if (f.hour >= 0) return false;
        f.hour = t.value;
        f.minute = t_[i_ + 2].value;
        i_ += 2;
        return true;
      }
    }
    // A numeric date: the same separator twice, no spaces.
    for (char sep : {'-', '/', '.'}) {
      if (punct_at(i_ + 1, sep, true) && number_at(i_ + 2, true) && punct_at(i_ + 3, sep, true) &&
          number_at(i_ + 4, true)) {
        if (!resolve_triple(f, as_free(t), sep, as_free(t_[i_ + 2]), as_free(t_[i_ + 4]))) {
          return false;
        }
        f.year_seen = true;
        i_ += 4;
        return true;
      }
    }
    // A bare hour: "2 pm", "2pm", or "Mon, 17 Mar 2025 14 -0500".
    if (f.hour < 0 && t.digits <= 2) {
      const Token* next = at(i_ + 1);
      bool before_meridiem = next && next->kind == Token::kMeridiem;
      if (!before_meridiem && next && next->kind == Token::kWord) {
        char buf[4];
        std::string_view w = lowered(*next, buf, sizeof buf);
        before_meridiem = w == "am" || w == "pm";
      }
      bool before_offset = f.year_seen && f.free_count > 0 && next && next->kind == Token::kPunct &&
                           (next->value == '+' || next->value == '-') && next->space_before &&
                           number_at(i_ + 2, true);
      if (before_meridiem || before_offset) {
        f.hour = t.value;
        return true;
      }
    }
    // "14:05:09 00": a zero zone without its sign.
    if (f.hour >= 0 && t.value == 0 && (t.digits == 2 || t.digits == 4) && !f.has_offset) {
      f.has_offset = true;
      return true;
    }
    if (f.free_count == static_cast<int>(f.free.size())) return false;
    FreeNumber& n = f.free[f.free_count++];
    n = {t.value, t.digits, false};
    if (t.digits == 4) f.year_seen = true;
    const Token* next = at(i_ + 1);
    if (next && next->kind == Token::kWord && !next->space_before) {
      char buf[4];
      std::string_view w = lowered(*next, buf, sizeof buf);
      if (w == "st" || w == "nd" || w == "rd" || w == "th" || w == "er") {
        n.ordinal = true;
        ++i_;
      }
    }
    return true;
  }

  bool word(Fields& f) {
    const Token& t = t_[i_];
    char buf[16];
    std::string_view w = lowered(t, buf, sizeof buf);
    if (w.empty()) return false;
    // German "am" (on) comes before any time; the meridiem after one.
    if (w == "am" && f.hour < 0) return true;
    if (w == "am" || w == "pm") return set_meridiem(f, w == "am" ? 0 : 12);
    // "T" between date and time, and the little words of "the 7th of March
    // 2025 at 14:05", "le 7 mars", "den 7. März 2025 um 14:05 Uhr".
    if (w == "t" && number_at(i_ + 1, true)) return true;
    for (std::string_view little : {"at", "of", "the", "on", "le", "den", "um", "uhr", "à"}) {
      if (w == little) return true;
    }
    if (int m = month_or_day(w); m >= 0) {
      if (m == 0) return true;
      if (f.month >= 0) return false;
      f.month = m;
      return true;
    }
    int minutes = 0;
    bool known = false;
    for (const Zone& z : kZones) {
      if (w == z.name) {
        minutes = z.minutes;
        known = true;
        break;
      }
    }
    if (!known && w.size() == 1 && f.hour >= 0) known = military_zone(w[0], minutes);
    if (known) {
      // The first name counts; "-0500 EST" or "EST -05:00" also give numbers,
      // which win when the zone is computed.
      if (!f.has_zone) {
        f.has_zone = true;
        f.zone = minutes * 60;
      }
      zone_word_at_ = i_;
      return true;
    }
    // Another word after the time is taken for a zone name the table lacks.
    if (f.hour >= 0 && !f.has_zone && w.size() >= 2 && w.size() <= 6) {
      for (char c : w) {
        if (c < 'a' || c > 'z') return false;
      }
      f.has_zone = true;
      f.zone = 0;
      f.zone_unknown = true;
      zone_word_at_ = i_;
      return true;
    }
    return false;
  }

  bool meridiem(Fields& f) { return set_meridiem(f, t_[i_].value); }

  bool set_meridiem(Fields& f, int value) {
    if (f.hour < 0 || f.meridiem >= 0) return false;
    f.meridiem = value;
    return true;
  }

  bool punct(Fields& f) {
    const Token& t = t_[i_];
    if (t.value != '+' && t.value != '-') return true;
    std::size_t j = i_ + 1;
    if (t.value == '-' && punct_at(j, '-', true)) ++j;  // "--0500"
    if (!number_at(j, true)) return true;
    bool zone_context = f.hour >= 0 || last_was_zone_ || (t.space_before && f.year_seen);
    if (!zone_context) return true;
    const Token& n = t_[j];
    int hours = 0, minutes = 0;
    std::size_t end = j;
    switch (n.digits) {
      case 1:
      case 2:
        hours = n.value;
        if (punct_at(j + 1, ':', true) && number_at(j + 2, true) && t_[j + 2].digits == 2) {
          minutes = t_[j + 2].value;
          end = j + 2;
          if (punct_at(end + 1, ':', true) && number_at(end + 2, true) && t_[end + 2].digits == 2) {
            end += 2;  // seconds of an offset: none are used in practice
          }
        }
        break;
      case 3:
      case 4:
        hours = n.value / 100;
        minutes = n.value % 100;
        break;
      default:
        return false;
    }
    if (hours > 23 || minutes > 59 || f.has_offset) return false;
    f.has_offset = true;
    f.offset = (hours * 3600 + minutes * 60) * (t.value == '-' ? -1 : 1);
    i_ = end;
    return true;
  }

  std::string_view s_;
  const Token* t_;
  std::size_t n_;
  std::size_t i_ = 0;
  std::size_t zone_word_at_ = static_cast<std::size_t>(-1);
  bool last_was_zone_ = false;
};

// Gives the numbers that no shape claimed to the day and the year.
bool resolve_free_numbers(Fields& f) {
  if (f.month < 0) {
    // "03 17 2025": three numbers separated by spaces.
    if (f.free_count != 3 || f.year >= 0) return false;
    return resolve_triple(f, f.free[0], ' ', f.free[1], f.free[2]);
  }
  for (int k = 0; k < f.free_count; ++k) {
    const FreeNumber& n = f.free[k];
    if (n.ordinal) {
      if (f.day >= 0 || n.digits > 2) return false;
      f.day = n.value;
    }
  }
  for (int k = 0; k < f.free_count; ++k) {
    const FreeNumber& n = f.free[k];
    if (n.ordinal) continue;
    if (n.digits == 4) {
      if (f.year >= 0) return false;
      f.year = n.value;
      f.year_digits = 4;
    } else if (n.digits <= 2 && f.day < 0) {
      f.day = n.value;
    } else if (n.digits == 2 && f.year < 0) {
      f.year = n.value;
      f.year_digits = 2;
    } else {
      return false;
    }
  }
  return true;
}

std::optional<Time> parse_tolerant(std::string_view s, bool* unknown_zone) {
  Tokens tokens;
  if (!tokenize(s, tokens)) return std::nullopt;
  Fields f;
  Reader reader(s, tokens);
  if (!reader.read(f) || !resolve_free_numbers(f)) return std::nullopt;
  if (f.year < 0 || f.month < 0 || f.day < 0) return std::nullopt;
  int year = expand_year(f.year, f.year_digits);
  int hour = f.hour < 0 ? 0 : f.hour;
  if (f.meridiem >= 0) {
    // 12 am is midnight, 12 pm noon; "14:05 PM" is redundant, not wrong.
    if (hour < 1 || (hour > 12 && f.meridiem == 0)) return std::nullopt;
    if (hour <= 12) hour = hour % 12 + f.meridiem;
  }
  int offset = f.has_offset ? f.offset : f.zone;
  std::optional<Time> t = to_epoch(year, f.month, f.day, hour, f.minute, f.second, offset);
  if (t && unknown_zone) *unknown_zone = f.zone_unknown && !f.has_offset;
  return t;
}

}  // namespace

std::optional<Time> parse_date(std::string_view text, bool* unknown_zone) {
  if (unknown_zone) *unknown_zone = false;
  std::string_view s = trim(text);
  if (s.empty() || s.size() > 200) return std::nullopt;
  if (s.size() >= 4 && is_digit(s[0]) && is_digit(s[1]) && is_digit(s[2]) && is_digit(s[3])) {
    if (auto t = parse_iso8601(s)) return t;
  }
  return parse_tolerant(s, unknown_zone);
}

std::optional<Time> parse_date(std::string_view text) { return parse_date(text, nullptr); }

std::string format_rfc3339(Time t) {
  std::time_t tt = static_cast<std::time_t>(t);
  std::tm tm{};
  if (gmtime_r(&tt, &tm) == nullptr) return {};
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
  return buf;
}

}  // namespace blogsearch
