// date.cc: ISO 8601 is read here; RFC 822 forms are normalised and handed to
// libcurl's curl_getdate, which already knows the zone names and the sloppy
// variants (missing weekday or seconds, two-digit years, one-digit days).
#include "indexer/date.h"

#include <curl/curl.h>

#include <array>
#include <cctype>
#include <cstdio>
#include <ctime>

namespace blogsearch {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
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

std::optional<Time> to_epoch(int year, int month, int day, int hour, int minute, int second,
                             int offset_seconds) {
  static constexpr std::array<int, 12> kDays = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > kDays[month - 1]) return std::nullopt;
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (month == 2 && day == 29 && !leap) return std::nullopt;
  // 24:00:00 is allowed by ISO 8601; 60 seconds is a leap second, kept as :59.
  if (hour > 24 || minute > 59 || second > 60) return std::nullopt;
  if (hour == 24 && (minute != 0 || second != 0)) return std::nullopt;
  if (second == 60) second = 59;
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  Time t = static_cast<Time>(timegm(&tm));
  return t - offset_seconds;
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

constexpr std::array<const char*, 12> kMonths = {
    "january", "february", "march",     "april",   "may",      "june",
    "july",    "august",   "september", "october", "november", "december"};
constexpr std::array<const char*, 7> kWeekdays = {"monday", "tuesday", "wednesday", "thursday",
                                                  "friday", "saturday", "sunday"};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A word that starts a month or day name ("Sept", "September", "Tues") gives
// its index; three letters at least, so zone names are never mistaken.
int name_index(const std::string& word, const char* const* names, std::size_t count) {
  if (word.size() < 3) return -1;
  for (std::size_t i = 0; i < count; ++i) {
    std::string_view name = names[i];
    if (word.size() <= name.size() && name.substr(0, word.size()) == word) return static_cast<int>(i);
  }
  return -1;
}

// Rewrites an RFC 822 date into the shape curl_getdate reads: weekday and
// parenthesised comments dropped (curl rejects a full weekday after a comma
// and any comment), month names cut to three letters, "+00:00" zones without
// the colon.
std::string normalise_rfc822(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t pos = 0;
  while (pos < s.size()) {
    char c = s[pos];
    if (is_space(c) || c == ',') {
      ++pos;
      continue;
    }
    if (c == '(') {
      std::size_t close = s.find(')', pos);
      pos = close == std::string_view::npos ? s.size() : close + 1;
      continue;
    }
    std::size_t start = pos;
    while (pos < s.size() && !is_space(s[pos]) && s[pos] != ',' && s[pos] != '(') ++pos;
    std::string_view word = s.substr(start, pos - start);
    std::string token(word);
    if (is_alpha(word.front())) {
      std::string w = lower(word);
      if (!w.empty() && w.back() == '.') w.pop_back();
      int month = name_index(w, kMonths.data(), kMonths.size());
      if (month >= 0) {
        token = std::string(kMonths[month], 3);
      } else if (name_index(w, kWeekdays.data(), kWeekdays.size()) >= 0) {
        continue;
      }
    } else if ((word.front() == '+' || word.front() == '-') && word.size() == 6 && word[3] == ':') {
      token = std::string(word.substr(0, 3)) + std::string(word.substr(4));
    }
    if (!out.empty()) out += ' ';
    out += token;
  }
  return out;
}

// RFC 3339 years have four digits. curl_getdate reads longer digit runs as
// years (fuzz/date_fuzz.cc found "26100"), and a zone offset can push a
// 9999-12-31 or 0001-01-01 date over the edge: such times could not be
// printed back as RFC 3339, so they are not dates.
std::optional<Time> in_rfc3339_range(std::optional<Time> t) {
  constexpr Time kFirst = -62135596800;  // 0001-01-01T00:00:00Z
  constexpr Time kLast = 253402300799;   // 9999-12-31T23:59:59Z
  if (t && (*t < kFirst || *t > kLast)) return std::nullopt;
  return t;
}

std::optional<Time> parse_date_any_year(std::string_view text) {
  std::string_view s = trim(text);
  if (s.empty() || s.size() > 200) return std::nullopt;
  if (s.size() >= 4 && is_digit(s[0]) && is_digit(s[1]) && is_digit(s[2]) && is_digit(s[3])) {
    if (auto t = parse_iso8601(s)) return t;
  }
  std::string normalised = normalise_rfc822(s);
  // curl_getdate wants a day, a month and a year; a bare number or year is
  // not a date here.
  bool has_alpha = false;
  for (char c : normalised) has_alpha = has_alpha || is_alpha(c);
  if (!has_alpha) return std::nullopt;
  time_t t = curl_getdate(normalised.c_str(), nullptr);
  if (t == static_cast<time_t>(-1)) return std::nullopt;
  return static_cast<Time>(t);
}

}  // namespace

std::optional<Time> parse_date(std::string_view text) {
  return in_rfc3339_range(parse_date_any_year(text));
}

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
