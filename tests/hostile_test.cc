// hostile_test.cc: regression tests for the bugs the fuzz targets found
// (fuzz/regressions/ holds the raw inputs, replayed by fuzz_replay_*).
#include <gtest/gtest.h>

#include <ctime>
#include <string>

#include "indexer/date.h"
#include "query/query_builder.h"

namespace blogsearch {
namespace {

TEST(DateParser, FiveDigitYearIsNotADate) {
  // curl_getdate read the digit run as year 26100, which RFC 3339 cannot print.
  EXPECT_FALSE(parse_date("\xd6" "026100:00:00\v\vJan\v[\v21"));
  EXPECT_FALSE(parse_date("21 Jan 26100 00:00:00 GMT"));
  EXPECT_TRUE(parse_date("21 Jan 2610 00:00:00 GMT"));
}

TEST(DateParser, ZoneOffsetBeyondYear9999IsNotADate) {
  EXPECT_FALSE(parse_date("9999-12-31T23:00:00-05:00"));
  EXPECT_FALSE(parse_date("0001-01-01T00:00:00+01:00"));
  auto last = parse_date("9999-12-31T23:59:59Z");
  ASSERT_TRUE(last);
  EXPECT_EQ(format_rfc3339(*last), "9999-12-31T23:59:59Z");
}

TEST(DateParser, EveryAcceptedDatePrintsAndReadsBack) {
  for (const char* text : {"Tue, 1 Sep 26 08:00 EDT", "Thu, 29 Feb 2024 12:00:00 -1200",
                           "2026-09-02T01:32:28.5+05:30", "Sun, 31 Dec 1899 23:59:59 A"}) {
    auto t = parse_date(text);
    ASSERT_TRUE(t) << text;
    EXPECT_EQ(parse_date(format_rfc3339(*t)), t) << text;
  }
}

std::int64_t utc(int year, int month, int day) {
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  return static_cast<std::int64_t>(timegm(&tm));
}

TEST(QueryOptions, AgeReachingBefore1900MeansSince1900) {
  const UnixTime now = utc(2026, 11, 29);
  // "2026m" made the month negative and read outside the days-per-month table.
  EXPECT_EQ(parse_time_option("--since", "2026m", false, now), utc(1900, 1, 1));
  EXPECT_EQ(parse_time_option("--since", "999999y", false, now), utc(1900, 1, 1));
  EXPECT_EQ(parse_time_option("--since", "6m", false, now), utc(2026, 5, 29));
}

TEST(QueryBuilder, BadDateInQueryIsAQueryErrorWithColumn) {
  // Used to be thrown through Xapian's QueryParser, leaking its partly built
  // query (LeakSanitizer in fuzz/query_fuzz.cc).
  Xapian::WritableDatabase db(std::string(), Xapian::DB_BACKEND_INMEMORY);
  for (const char* text : {"date:.\x1a" "6+26", "kernels date:2026-13..", "date:2026-10..2026-09 x",
                           "a date:nope b"}) {
    QueryOptions o;
    o.text = text;
    try {
      build_query(db, o);
      ADD_FAILURE() << text << ": no error";
    } catch (const QueryError& e) {
      EXPECT_GT(e.column(), 0u) << text << ": " << e.what();
    }
  }
}

}  // namespace
}  // namespace blogsearch
