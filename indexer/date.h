// date.h: parsing the dates that real feeds write, and printing RFC 3339.
//
// parse_date reads RFC 3339 / ISO 8601 (dc:date, atom:updated) on a fast
// path: extended or basic form, 'T' or a space before the time, with or
// without zone, fraction, seconds or time, and year-month forms. Everything
// else goes to a tolerant reader that splits the text into numbers, words and
// punctuation and knows the shapes feeds use (Miniflux's catalogue of date
// layouts among them):
//   - RFC 822/1123 (pubDate) and its variants: missing, wrong or full weekday,
//     one- or two-digit days, two- or four-digit years, missing seconds,
//     parenthesised comments, any case;
//   - month names, whole or cut to three or more letters ("Sept", "Mar."),
//     before or after the day ("March 7, 2025", "7 March 2025"), ordinal
//     days ("7th", "1st"), "at" or "T" before the time;
//   - German and French month and day names ("17. März 2025", "jeu. 7 août
//     2025 à 14h05"), as Miniflux reads them;
//   - the 12-hour clock ("2:05 PM", "2:05pm", "2 p.m.");
//   - numeric dates: year first ("2025-3-7", "2025/03/07"), or year last,
//     where a field above 12 decides which is the day; when both could be,
//     '/' and spaces are read month first (US: 03/07/2025 is 7 March), '.'
//     and '-' day first (07.03.2025 is 7 March); two-digit years last;
//   - zones: numeric ("-0500", "-05:00", "-05", "-500", "-05:00:00",
//     "GMT-0500", "--0500"), names from a table (North American, European,
//     Asian, Australian, New Zealand; RFC 822's military letters), or both
//     ("EST -05:00", "-0500 EST": the numbers win). IST is India (+05:30),
//     not Ireland or Israel; CST is US Central, BST British Summer Time, AST
//     Atlantic. A name not in the table, after the time, is read as UTC and
//     reported through *unknown_zone. Without any zone, UTC.
// Two-digit years follow RFC 2822 (00-49 are 20xx, 50-99 are 19xx); a year
// written with four digits is that year, so Hugo's "no date" (0001) is not
// 2001. Impossible dates (month 13, 30 February, hour 25) and instants before
// 1800-01-01T00:00:00Z or after 9999-12-31T23:59:59Z give std::nullopt, as
// does anything unparseable; before 1800 no blog post was written, and year
// 1 is a placeholder. It never throws.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "indexer/post.h"

namespace blogsearch {

std::optional<Time> parse_date(std::string_view text);

// As above; *unknown_zone (when not null) is set to whether a zone name the
// table does not know was read as UTC, so the caller can warn.
std::optional<Time> parse_date(std::string_view text, bool* unknown_zone);

// "2026-09-02T01:32:28Z". Never throws (except std::bad_alloc).
std::string format_rfc3339(Time t);

}  // namespace blogsearch
