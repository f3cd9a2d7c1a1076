// date.h: parsing the dates that real feeds write, and printing RFC 3339.
//
// parse_date accepts RFC 822/1123 (pubDate) with its common variants: missing
// weekday, wrong weekday, one- or two-digit days, two- or four-digit years,
// missing seconds, zone names (GMT, UT, UTC, EST, EDT, CST, CDT, MST, MDT, PST,
// PDT, Z, military letters), numeric zones with or without a colon, full month
// and day names; and RFC 3339 / ISO 8601 (dc:date, atom:updated) with or
// without zone, fraction, seconds or time, and the basic (no dashes) form.
// It never throws; an unparseable string gives std::nullopt.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "indexer/post.h"

namespace blogsearch {

std::optional<Time> parse_date(std::string_view text);

// "2026-09-02T01:32:28Z". Never throws (except std::bad_alloc).
std::string format_rfc3339(Time t);

}  // namespace blogsearch
