// Dates as real feeds write them, each with the instant it names.
#include "indexer/date.h"

#include <gtest/gtest.h>

#include <string>

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
      "Wed, 02 Sep 2026 01:32:28 XYZ",
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

}  // namespace
}  // namespace blogsearch
