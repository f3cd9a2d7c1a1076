// Dates as real feeds write them, each with the instant it names.
#include "indexer/date.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace blogsearch {
namespace {

struct DateCase {
  const char* input;
  const char* want;  // RFC 3339 UTC
};

// 2026-09-02T01:32:28Z is a Wednesday; "Tue" below is a wrong weekday that
// real feeds do write and that must not matter.
const DateCase kDates[] = {
    // RFC 822 / RFC 1123 (pubDate) and their common variants.
    {"Wed, 02 Sep 2026 01:32:28 +0000", "2026-09-02T01:32:28Z"},
    {"02 Sep 2026 01:32:28 +0000", "2026-09-02T01:32:28Z"},
    {"Tue, 02 Sep 2026 01:32:28 +0000", "2026-09-02T01:32:28Z"},
    {"Wed, 2 Sep 2026 01:32:28 +0000", "2026-09-02T01:32:28Z"},
    {"Wed, 02 Sep 26 01:32:28 +0000", "2026-09-02T01:32:28Z"},
    {"Wed, 02 Sep 2026 01:32 +0000", "2026-09-02T01:32:00Z"},
    {"Wed, 02 Sep 2026 1:32:28 +0000", "2026-09-02T01:32:28Z"},
    {"Wed, 02 Sep 2026 01:32:28 GMT", "2026-09-02T01:32:28Z"},
    {"Wed, 02 Sep 2026 01:32:28 UT", "2026-09-02T01:32:28Z"},
    {"Wed, 02 Sep 2026 01:32:28 UTC", "2026-09-02T01:32:28Z"},
    {"Wed, 02 Sep 2026 01:32:28 Z", "2026-09-02T01:32:28Z"},
    {"Wed, 02 Sep 2026 01:32:28 EST", "2026-09-02T06:32:28Z"},
    {"Wed, 02 Sep 2026 01:32:28 EDT", "2026-09-02T05:32:28Z"},
    {"Wed, 02 Sep 2026 01:32:28 CST", "2026-09-02T07:32:28Z"},
    {"Wed, 02 Sep 2026 01:32:28 CDT", "2026-09-02T06:32:28Z"},
    {"Wed, 02 Sep 2026 01:32:28 MST", "2026-09-02T08:32:28Z"},
    {"Wed, 02 Sep 2026 01:32:28 MDT", "2026-09-02T07:32:28Z"},
    {"Wed, 02 Sep 2026 01:32:28 PST", "2026-09-02T09:32:28Z"},
    {"Wed, 02 Sep 2026 01:32:28 PDT", "2026-09-02T08:32:28Z"},
    // Military zones as RFC 822 defines them (A = -1h, M = -12h, N = +1h).
    {"Wed, 02 Sep 2026 01:32:28 A", "2026-09-02T02:32:28Z"},
    {"Wed, 02 Sep 2026 01:32:28 M", "2026-09-02T13:32:28Z"},
    {"Wed, 02 Sep 2026 01:32:28 N", "2026-09-02T00:32:28Z"},
    {"Wed, 02 Sep 2026 01:32:28 +00:00", "2026-09-02T01:32:28Z"},
    {"Wed, 02 Sep 2026 01:32:28 -0700", "2026-09-02T08:32:28Z"},
    {"Wed, 02 Sep 2026 01:32:28 +05:30", "2026-09-01T20:02:28Z"},
    {"Wednesday, 02 September 2026 01:32:28 +0000", "2026-09-02T01:32:28Z"},
    {"Wed, 02 Sept 2026 01:32:28 +0000", "2026-09-02T01:32:28Z"},
    {"  Wed, 02 Sep 2026 01:32:28 GMT \n", "2026-09-02T01:32:28Z"},
    {"Wed,02 Sep 2026 01:32:28 GMT", "2026-09-02T01:32:28Z"},
    {"Wed, 02 Sep 2026 01:32:28 +0000 (UTC)", "2026-09-02T01:32:28Z"},
    {"wed, 02 sep 2026 01:32:28 gmt", "2026-09-02T01:32:28Z"},
    {"Wed, 02 Sep 2026", "2026-09-02T00:00:00Z"},
    {"Tue, 29 Feb 2028 12:00:00 GMT", "2028-02-29T12:00:00Z"},
    {"Sat, 01 Jan 2000 00:00:00 GMT", "2000-01-01T00:00:00Z"},
    {"Thu, 31 Dec 98 23:59:59 GMT", "1998-12-31T23:59:59Z"},
    // RFC 3339 / ISO 8601 (dc:date, atom:updated).
    {"2026-09-02T01:32:28Z", "2026-09-02T01:32:28Z"},
    {"2026-09-02T01:32:28+00:00", "2026-09-02T01:32:28Z"},
    {"2026-09-02T03:32:28+02:00", "2026-09-02T01:32:28Z"},
    {"2026-09-01T21:32:28-04:00", "2026-09-02T01:32:28Z"},
    {"2026-09-02T03:32:28+0200", "2026-09-02T01:32:28Z"},
    {"2026-09-02T03:32:28+02", "2026-09-02T01:32:28Z"},
    {"2026-09-02T01:32:28.123Z", "2026-09-02T01:32:28Z"},
    {"2026-09-02T01:32:28.123456789+00:00", "2026-09-02T01:32:28Z"},
    {"2026-09-02T01:32:28", "2026-09-02T01:32:28Z"},
    {"2026-09-02T01:32Z", "2026-09-02T01:32:00Z"},
    {"2026-09-02", "2026-09-02T00:00:00Z"},
    {"2026-09", "2026-09-01T00:00:00Z"},
    {"20260902T013228Z", "2026-09-02T01:32:28Z"},
    {"2026-09-02 01:32:28", "2026-09-02T01:32:28Z"},
    {"2026-09-02 01:32:28 +0000", "2026-09-02T01:32:28Z"},
    {"2026-09-02t01:32:28z", "2026-09-02T01:32:28Z"},
    {"2026-09-02T24:00:00Z", "2026-09-03T00:00:00Z"},
    {"\t2026-09-02T01:32:28Z\n", "2026-09-02T01:32:28Z"},
    {"1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z"},
};

TEST(Date, ParsesRealWorldVariants) {
  EXPECT_GE(sizeof kDates / sizeof kDates[0], 40u);
  for (const auto& c : kDates) {
    std::optional<Time> t = parse_date(c.input);
    ASSERT_TRUE(t.has_value()) << "unparsed: \"" << c.input << "\"";
    EXPECT_EQ(format_rfc3339(*t), c.want) << "input: \"" << c.input << "\"";
  }
}

TEST(Date, RejectsJunk) {
  const char* junk[] = {
      "",
      "   ",
      "hello",
      "not a date at all",
      "1788312748",
      "Sep 2026",
      "2026-13-02T00:00:00Z",
      "2026-02-30",
      "2027-02-29",
      "2026-09-02T25:00:00Z",
      "2026-09-02T01:61:00Z",
      "2026-09-02Tjunk",
      "2026-09-02T01:32:28+99:00",
      "Wed, 32 Sep 2026 01:32:28 GMT",
      "Mon, 1 Jan 0001 00:00:00 +0000",
      "0001-01-01T00:00:00Z",
      "1799-12-31T23:59:59Z",
      "Mon, 01 Jan 1800 00:30:00 +0100",
      "Fri, 07 Mar 2025 25:05:09 GMT",
      "Fri, 07 Mar 2025 14:60:00 GMT",
      "Sun, 30 Feb 2025 12:00:00 GMT",
      "Fri, 07 Mar 2025 13:05 AM",
      "Fri, 07 Mar 2025 0:05 PM",
      "PM 07 Mar 2025",
      "March 2025 at 14:05",
      "14:05:09",
      "Fri, 07 Mar 2025 14:05:09 15:00:00",
      "Fri, 07 Mar 2025 14:05:09 +2500",
      "Fri, 07 Mar 2025 14:05:09 -0500 +0100",
      "Fri, 07 Mar 02025 14:05:09 GMT",
      "Fri, 07 Mar 025 14:05:09 GMT",
      "7 Mar 2025 unknownword 14:05",
      "yesterday",
  };
  for (const char* s : junk) {
    EXPECT_FALSE(parse_date(s).has_value()) << "accepted: \"" << s << "\"";
  }
}

TEST(Date, FormatsRfc3339) {
  EXPECT_EQ(format_rfc3339(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(format_rfc3339(1788312748), "2026-09-02T01:32:28Z");
  EXPECT_EQ(format_rfc3339(-1), "1969-12-31T23:59:59Z");
}

TEST(Date, RoundTripsItsOwnOutput) {
  for (Time t : {Time{0}, Time{951782400}, Time{1788312748}, Time{4102444799}}) {
    std::optional<Time> back = parse_date(format_rfc3339(t));
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(*back, t);
  }
}

void expect_dates(const std::vector<DateCase>& cases) {
  for (const auto& c : cases) {
    std::optional<Time> t = parse_date(c.input);
    ASSERT_TRUE(t.has_value()) << "unparsed: \"" << c.input << "\"";
    EXPECT_EQ(format_rfc3339(*t), c.want) << "input: \"" << c.input << "\"";
  }
}

// Issue 14, section 6: the forms that were not read. 2025-03-07 is a Friday;
// 14:05:09 EST is 19:05:09Z.
TEST(Date, TwelveHourClock) {
  expect_dates({
      {"Fri, 07 Mar 2025 2:05 PM EST", "2025-03-07T19:05:00Z"},
      {"Fri, 07 Mar 2025 02:05:09 PM -0500", "2025-03-07T19:05:09Z"},
      {"March 7, 2025 2:05 PM", "2025-03-07T14:05:00Z"},
      {"March 7, 2025 2:05pm", "2025-03-07T14:05:00Z"},
      {"March 7, 2025 2:05 pm", "2025-03-07T14:05:00Z"},
      {"Friday, March 7, 2025 - 2:05pm", "2025-03-07T14:05:00Z"},
      {"Mar 07 2025 02:05:09PM", "2025-03-07T14:05:09Z"},
      {"Mar. 7, 2025, 2:05 p.m.", "2025-03-07T14:05:00Z"},
      {"Mar. 7, 2025, 9:15 a.m.", "2025-03-07T09:15:00Z"},
      {"March 7, 2025 2 PM", "2025-03-07T14:00:00Z"},
      {"March 7, 2025 at 2pm", "2025-03-07T14:00:00Z"},
      {"Fri, March 7, 2025 at 02:05 PM EST", "2025-03-07T19:05:00Z"},
      {"3/7/2025 2:05:09 PM EST", "2025-03-07T19:05:09Z"},
      {"March 7, 2025 12:05 AM", "2025-03-07T00:05:00Z"},
      {"March 7, 2025 12:05 PM", "2025-03-07T12:05:00Z"},
      {"March 7, 2025 11:59 PM", "2025-03-07T23:59:00Z"},
      // A redundant PM on a 24-hour time is not an error.
      {"March 7, 2025 14:05 PM", "2025-03-07T14:05:00Z"},
      // No-break spaces: U+00A0, and U+202F before the meridiem.
      {"March\u00a07, 2025 2:05\u202fPM", "2025-03-07T14:05:00Z"},
  });
}

TEST(Date, ZoneForms) {
  expect_dates({
      {"Fri, 07 Mar 2025 14:05:09 EST -05:00", "2025-03-07T19:05:09Z"},
      {"Fri, 07 Mar 2025 14:05:09 EST-05:00", "2025-03-07T19:05:09Z"},
      {"Fri, 07 Mar 2025 14:05:09 -0500 EST", "2025-03-07T19:05:09Z"},
      {"Fri, 07 Mar 2025 14:05:09 GMT-0500", "2025-03-07T19:05:09Z"},
      {"Fri, 07 Mar 2025 14:05:09 GMT+0100", "2025-03-07T13:05:09Z"},
      {"Fri, 07 Mar 2025 14:05:09 UTC+1", "2025-03-07T13:05:09Z"},
      {"Fri, 07 Mar 2025 14:05:09 -05", "2025-03-07T19:05:09Z"},
      {"Fri, 07 Mar 2025 14:05:09 -500", "2025-03-07T19:05:09Z"},
      {"Fri, 07 Mar 2025 14:05:09 +530", "2025-03-07T08:35:09Z"},
      {"Fri, 07 Mar 2025 14:05:09 -05:00", "2025-03-07T19:05:09Z"},
      {"Fri, 07 Mar 2025 14:05:09 --0500", "2025-03-07T19:05:09Z"},
      {"Fri, 07 Mar 2025 14:05:09-0500", "2025-03-07T19:05:09Z"},
      {"Fri, 07 Mar 2025 14:05:09EST", "2025-03-07T19:05:09Z"},
      {"Fri, 07 Mar 2025 14:05:09 -0500 GMT", "2025-03-07T19:05:09Z"},
      {"Fri, 07 Mar 2025 14:05:09 GMT+0000 (Coordinated Universal Time)", "2025-03-07T14:05:09Z"},
      {"Fri, 07 Mar 2025 14:05:09 00", "2025-03-07T14:05:09Z"},
      {"Fri, 07 Mar 2025 14 -0500", "2025-03-07T19:00:00Z"},
      {"Fri Mar 07 14:05:09 -0500 2025", "2025-03-07T19:05:09Z"},
      {"Fri Mar  7 14:05:09 EST 2025", "2025-03-07T19:05:09Z"},
      {"2025-03-07T14:05:09-05:00:00", "2025-03-07T19:05:09Z"},
      {"2025-03-07T14:05:09:-0500", "2025-03-07T19:05:09Z"},
      {"2025-03-07T14:05:09-05:00Z", "2025-03-07T19:05:09Z"},
      {"07.03.2025 -0500", "2025-03-07T05:00:00Z"},
  });
}

// Each abbreviation of the table, and what it is taken to mean.
TEST(Date, ZoneAbbreviations) {
  struct Zone {
    const char* name;
    const char* want;  // for 12:00:00 local time on 2025-03-07
  };
  const Zone zones[] = {
      {"GMT", "2025-03-07T12:00:00Z"},  {"UTC", "2025-03-07T12:00:00Z"},
      {"UT", "2025-03-07T12:00:00Z"},   {"Z", "2025-03-07T12:00:00Z"},
      {"WET", "2025-03-07T12:00:00Z"},  {"WEST", "2025-03-07T11:00:00Z"},
      {"BST", "2025-03-07T11:00:00Z"},  {"CET", "2025-03-07T11:00:00Z"},
      {"CEST", "2025-03-07T10:00:00Z"}, {"MET", "2025-03-07T11:00:00Z"},
      {"MEST", "2025-03-07T10:00:00Z"}, {"EET", "2025-03-07T10:00:00Z"},
      {"EEST", "2025-03-07T09:00:00Z"}, {"MSK", "2025-03-07T09:00:00Z"},
      {"IST", "2025-03-07T06:30:00Z"},  {"PKT", "2025-03-07T07:00:00Z"},
      {"NPT", "2025-03-07T06:15:00Z"},  {"ICT", "2025-03-07T05:00:00Z"},
      {"HKT", "2025-03-07T04:00:00Z"},  {"SGT", "2025-03-07T04:00:00Z"},
      {"AWST", "2025-03-07T04:00:00Z"}, {"JST", "2025-03-07T03:00:00Z"},
      {"KST", "2025-03-07T03:00:00Z"},  {"ACST", "2025-03-07T02:30:00Z"},
      {"ACDT", "2025-03-07T01:30:00Z"}, {"AEST", "2025-03-07T02:00:00Z"},
      {"AEDT", "2025-03-07T01:00:00Z"}, {"NZST", "2025-03-07T00:00:00Z"},
      {"NZDT", "2025-03-06T23:00:00Z"}, {"HST", "2025-03-07T22:00:00Z"},
      {"AKST", "2025-03-07T21:00:00Z"}, {"AKDT", "2025-03-07T20:00:00Z"},
      {"PST", "2025-03-07T20:00:00Z"},  {"PDT", "2025-03-07T19:00:00Z"},
      {"MST", "2025-03-07T19:00:00Z"},  {"MDT", "2025-03-07T18:00:00Z"},
      {"CST", "2025-03-07T18:00:00Z"},  {"CDT", "2025-03-07T17:00:00Z"},
      {"EST", "2025-03-07T17:00:00Z"},  {"EDT", "2025-03-07T16:00:00Z"},
      {"AST", "2025-03-07T16:00:00Z"},  {"ADT", "2025-03-07T15:00:00Z"},
      {"NST", "2025-03-07T15:30:00Z"},  {"BRT", "2025-03-07T15:00:00Z"},
      {"SAST", "2025-03-07T10:00:00Z"}, {"EAT", "2025-03-07T09:00:00Z"},
      {"cest", "2025-03-07T10:00:00Z"},
  };
  for (const auto& z : zones) {
    std::string input = std::string("Fri, 07 Mar 2025 12:00:00 ") + z.name;
    bool unknown = true;
    std::optional<Time> t = parse_date(input, &unknown);
    ASSERT_TRUE(t.has_value()) << "unparsed: \"" << input << "\"";
    EXPECT_EQ(format_rfc3339(*t), z.want) << "zone " << z.name;
    EXPECT_FALSE(unknown) << "zone " << z.name;
  }
}

TEST(Date, UnknownZoneIsUtcAndReported) {
  const DateCase cases[] = {
      {"Wed, 02 Sep 2026 01:32:28 XYZ", "2026-09-02T01:32:28Z"},
      {"Fri, 07 Mar 2025 14:05:09 CHADT", "2025-03-07T14:05:09Z"},
      {"2025-03-07 14:05:09 FOO", "2025-03-07T14:05:09Z"},
      {"March 7, 2025 2:05 PM QQT", "2025-03-07T14:05:00Z"},
  };
  for (const auto& c : cases) {
    bool unknown = false;
    std::optional<Time> t = parse_date(c.input, &unknown);
    ASSERT_TRUE(t.has_value()) << "unparsed: \"" << c.input << "\"";
    EXPECT_EQ(format_rfc3339(*t), c.want) << "input: \"" << c.input << "\"";
    EXPECT_TRUE(unknown) << "input: \"" << c.input << "\"";
  }
  // Numbers beside the unknown name decide the zone: nothing to report.
  bool unknown = true;
  std::optional<Time> t = parse_date("Fri, 07 Mar 2025 14:05:09 -0500 XYZ", &unknown);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(format_rfc3339(*t), "2025-03-07T19:05:09Z");
  EXPECT_FALSE(unknown);
  // The flag is cleared for a date without any zone, or no date at all.
  unknown = true;
  ASSERT_TRUE(parse_date("Fri, 07 Mar 2025 14:05:09", &unknown).has_value());
  EXPECT_FALSE(unknown);
  unknown = true;
  EXPECT_FALSE(parse_date("not a date", &unknown).has_value());
  EXPECT_FALSE(unknown);
  // A name before the time is not a zone, it is not a date.
  EXPECT_FALSE(parse_date("Fri, 07 XYZ Mar 2025 14:05:09").has_value());
}

TEST(Date, OrdinalDays) {
  expect_dates({
      {"Fri, 7th Mar 2025 14:05:09 GMT", "2025-03-07T14:05:09Z"},
      {"Sat, 1st Mar 2025 14:05:09 GMT", "2025-03-01T14:05:09Z"},
      {"Sat, 22nd Mar 2025 14:05:09 GMT", "2025-03-22T14:05:09Z"},
      {"Mon, 3rd Mar 2025 14:05:09 GMT", "2025-03-03T14:05:09Z"},
      {"March 7th, 2025", "2025-03-07T00:00:00Z"},
      {"7th March 2025", "2025-03-07T00:00:00Z"},
      {"the 7th of March, 2025", "2025-03-07T00:00:00Z"},
      {"Friday, 7TH March 2025 2:05 PM", "2025-03-07T14:05:00Z"},
  });
}

TEST(Date, IsoVariants) {
  expect_dates({
      {"2025-3-7", "2025-03-07T00:00:00Z"},
      {"2025-3-07T14:05:09Z", "2025-03-07T14:05:09Z"},
      {"2025-3-7 14:05:09", "2025-03-07T14:05:09Z"},
      {"2025/03/07", "2025-03-07T00:00:00Z"},
      {"2025/3/7 14:05", "2025-03-07T14:05:00Z"},
      {"2025-03-07 14:05:09 EST", "2025-03-07T19:05:09Z"},
      {"2025-03-07 14:05:09 -05:00", "2025-03-07T19:05:09Z"},
      {"2025-03-07T14:05:09 -0500", "2025-03-07T19:05:09Z"},
      {"2025-03-07 at 14:05:09", "2025-03-07T14:05:09Z"},
      {"2025-03-07T14:05:09:00", "2025-03-07T14:05:09Z"},
      {"2025-03-07T14:05-05:00", "2025-03-07T19:05:00Z"},
      {"Fri, 2025-03-07 14:05", "2025-03-07T14:05:00Z"},
      {"2025 March 07", "2025-03-07T00:00:00Z"},
      // A midnight that pads the date, then the time.
      {"2025-03-07 00:00:00.0 14:05:09.0 -0500", "2025-03-07T19:05:09Z"},
  });
}

// Numeric dates with the year last: a field above 12 is the day; when both
// could be, a slash or space is read month first and a dot or dash day first.
TEST(Date, NumericDayAndMonth) {
  expect_dates({
      {"17/03/2025", "2025-03-17T00:00:00Z"},
      {"03/17/2025", "2025-03-17T00:00:00Z"},
      {"03/07/2025", "2025-03-07T00:00:00Z"},
      {"07.03.2025 14:05", "2025-03-07T14:05:00Z"},
      {"07-03-2025", "2025-03-07T00:00:00Z"},
      {"7.3.2025", "2025-03-07T00:00:00Z"},
      {"17.03.25", "2025-03-17T00:00:00Z"},
      {"03/17/25 14:05:09", "2025-03-17T14:05:09Z"},
      {"14:05 07.03.2025 -0500", "2025-03-07T19:05:00Z"},
      {"Fri, 03 07 2025 14:05:09 -0500", "2025-03-07T19:05:09Z"},
  });
}

// German and French names, which Miniflux also reads.
TEST(Date, GermanAndFrenchNames) {
  expect_dates({
      {"Mo, 17 Mär 2025 14:05:09 +0100", "2025-03-17T13:05:09Z"},
      {"Di, 07 Okt 2025 14:05:09 +0200", "2025-10-07T12:05:09Z"},
      {"Dienstag, 7. Oktober 2025 um 14:05 Uhr", "2025-10-07T14:05:00Z"},
      {"am 7. März 2025", "2025-03-07T00:00:00Z"},
      {"Fr, 19 Dez 2025 08:00:00 GMT", "2025-12-19T08:00:00Z"},
      {"vendredi 7 mars 2025", "2025-03-07T00:00:00Z"},
      {"le 7 mars 2025 à 14h05", "2025-03-07T14:05:00Z"},
      {"jeu. 7 août 2025 14:05 CEST", "2025-08-07T12:05:00Z"},
      {"7 déc. 2025", "2025-12-07T00:00:00Z"},
      {"1er mai 2025", "2025-05-01T00:00:00Z"},
  });
}

// RFC 2822's two-digit years, and four digits taken as written.
TEST(Date, Years) {
  expect_dates({
      {"07 Mar 25", "2025-03-07T00:00:00Z"},
      {"Fri, 07 Mar 25 14:05 GMT", "2025-03-07T14:05:00Z"},
      {"Sat, 07 Mar 49 14:05 GMT", "2049-03-07T14:05:00Z"},
      {"Mon, 07 Mar 50 14:05 GMT", "1950-03-07T14:05:00Z"},
      {"Friday, 07-Mar-25 14:05:09 GMT", "2025-03-07T14:05:09Z"},
      // Before 1970: negative times (issue 16 needs them).
      {"Tue, 04 May 1965 10:00:00 GMT", "1965-05-04T10:00:00Z"},
      {"1965-05-04", "1965-05-04T00:00:00Z"},
      {"May 4, 1965 10:00 AM", "1965-05-04T10:00:00Z"},
      {"Wed, 01 Jan 1800 00:00:00 GMT", "1800-01-01T00:00:00Z"},
      {"9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z"},
  });
  std::optional<Time> t = parse_date("Tue, 04 May 1965 10:00:00 GMT");
  ASSERT_TRUE(t.has_value());
  EXPECT_LT(*t, 0);
}

// Hugo writes year 1 for "no date"; read as a two-digit year it became 2001.
TEST(Date, ImpossibleYearsAreNoDate) {
  for (const char* s : {"Mon, 1 Jan 0001 00:00:00 +0000", "Mon, 01 Jan 0001 00:00:00 UTC",
                        "0001-01-01T00:00:00Z", "0001-01-01", "Sat, 01 Jan 0099 00:00:00 GMT",
                        "Jan 1, 0001", "1/1/0001", "Mon, 1 Jan 1066 12:00:00 GMT"}) {
    EXPECT_FALSE(parse_date(s).has_value()) << "accepted: \"" << s << "\"";
  }
}

// tests/data/dates/miniflux_layouts.txt: every layout of Miniflux's date
// parser rendered for one instant by tools/render_go_layouts.py (rendered
// text, tab, the expected instant or date, tab, the Go layout).
TEST(Date, MinifluxCatalogue) {
  std::ifstream in(std::string(BLOGSEARCH_SOURCE_DIR) + "/tests/data/dates/miniflux_layouts.txt");
  ASSERT_TRUE(in) << "missing tests/data/dates/miniflux_layouts.txt";
  std::string line;
  int total = 0, right = 0;
  std::string failures;
  while (std::getline(in, line)) {
    std::size_t tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << "bad line: " << line;
    std::size_t tab2 = line.find('\t', tab + 1);
    std::string input = line.substr(0, tab);
    std::string want = line.substr(tab + 1, tab2 == std::string::npos ? tab2 : tab2 - tab - 1);
    ++total;
    std::optional<Time> t = parse_date(input);
    std::string got = t ? format_rfc3339(*t) : "(none)";
    // A layout without a clock time names a day: only the date is compared.
    bool ok = t && (want.size() == 10 ? got.compare(0, 10, want) == 0 : got == want);
    if (ok) {
      ++right;
    } else {
      failures += "  \"" + input + "\" -> " + got + ", want " + want + "\n";
    }
  }
  ASSERT_GE(total, 200) << "the catalogue has about 209 layouts";
  double score = 100.0 * right / total;
  std::printf("Miniflux date layouts: %d of %d read right (%.1f%%)\n%s", right, total, score,
              failures.c_str());
  EXPECT_GE(score, 95.0) << failures;
}

}  // namespace
}  // namespace blogsearch
