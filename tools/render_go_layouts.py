#!/usr/bin/env python3
"""render_go_layouts.py: renders Go time layouts for one instant, as the data
file tests/data/dates/miniflux_layouts.txt that tests/date_test.cc scores.

Miniflux (miniflux/v2, internal/reader/date/parser.go) lists the Go layouts it
has met in real feeds. This script reads such layouts, one a line, on stdin
(Go's named constants such as time.RFC1123Z may be given by name) and writes
one line per layout:

    rendered string <TAB> expected instant <TAB> the layout

The instant is 2025-03-17 14:05:09 in a zone named EST at -05:00. The day is
above 12 so that every numeric layout (01/02/2006 against 02/01/2006) is
decided by the bytes alone. The expected instant is RFC 3339 UTC when the
layout has a clock time (wall time read as UTC when it has no zone), else the
date only (YYYY-MM-DD).

Tokens follow Go's rules (time/format.go: nextStdChunk). Three departures
follow the layout's evident intent rather than Go's literal match, so that the
rendered string means the instant it is paired with:
  - "a.m." and "p.m." are a meridiem, like "PM" (Go matches them literally);
  - "-700" is a zone offset without the leading zero (Go: literal);
  - lower-case month and day names ("jan", "fri") are names, printed in
    lower case (Go: literal);
  - four slips in the catalogue are read as what they were meant to be (see
    SLIPS: seconds written for minutes, "14" for the hour "15", "6" for the
    two-digit year "06").

Regenerate with:
  cut -f3 tests/data/dates/miniflux_layouts.txt | tools/render_go_layouts.py \
      > /tmp/new.txt
"""
import datetime
import re
import sys

NAMED = {
    "time.ANSIC": "Mon Jan _2 15:04:05 2006",
    "time.UnixDate": "Mon Jan _2 15:04:05 MST 2006",
    "time.RubyDate": "Mon Jan 02 15:04:05 -0700 2006",
    "time.RFC822": "02 Jan 06 15:04 MST",
    "time.RFC822Z": "02 Jan 06 15:04 -0700",
    "time.RFC850": "Monday, 02-Jan-06 15:04:05 MST",
    "time.RFC1123": "Mon, 02 Jan 2006 15:04:05 MST",
    "time.RFC1123Z": "Mon, 02 Jan 2006 15:04:05 -0700",
    "time.RFC3339": "2006-01-02T15:04:05Z07:00",
}

SLIPS = {
    "Mon, 2th Jan 2006 15:05:05 MST": "Mon, 2th Jan 2006 15:04:05 MST",
    "Mon,02 January 2006 14:04:05 MST": "Mon,02 January 2006 15:04:05 MST",
    "6/1/2 15:04": "06/1/2 15:04",
    "6-1-2 15:04": "06-1-2 15:04",
}

LOCAL = datetime.datetime(2025, 3, 17, 14, 5, 9)
OFFSET_HOURS = -5
ZONE_NAME = "EST"

MONTHS = ["January", "February", "March", "April", "May", "June", "July",
          "August", "September", "October", "November", "December"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
        "Sunday"]

# Longest first where one token starts another.
ZONE_TOKENS = {
    "Z07:00:00": "-05:00:00", "-07:00:00": "-05:00:00",
    "Z070000": "-050000", "-070000": "-050000",
    "Z07:00": "-05:00", "-07:00": "-05:00",
    "Z0700": "-0500", "-0700": "-0500",
    "Z07": "-05", "-07": "-05",
    "-700": "-500",
}


def name_token(rest):
    """A month or day name at the start of rest: (token, text, field)."""
    t = LOCAL
    for token, text, field in (("January", MONTHS[t.month - 1], "month"),
                               ("Jan", MONTHS[t.month - 1][:3], "month"),
                               ("Monday", DAYS[t.weekday()], None),
                               ("Mon", DAYS[t.weekday()][:3], None)):
        if rest.startswith(token):
            return token, text, field
    # Lower-case names, of any month or day (the catalogue has "fri", "jan").
    word = re.match(r"[a-z]+", rest)
    if word:
        w = word.group(0)
        for names, text, field in ((MONTHS, MONTHS[t.month - 1], "month"),
                                   (DAYS, DAYS[t.weekday()], None)):
            for full in names:
                if w in (full.lower(), full.lower()[:3]):
                    short = len(w) == 3
                    return w, (text[:3] if short else text).lower(), field
    return None


def render(layout):
    """Returns (rendered text, set of fields the layout carries)."""
    t = LOCAL
    hour12 = t.hour % 12 or 12
    out = []
    fields = set()
    i = 0
    n = len(layout)
    while i < n:
        rest = layout[i:]

        def take(token, text, field=None):
            nonlocal i
            out.append(text)
            if field:
                fields.add(field)
            i += len(token)

        name = name_token(rest)
        if name:
            token, text, field = name
            take(token, text, field)
        elif rest.startswith("MST"):
            take("MST", ZONE_NAME, "zone")
        elif rest.startswith("2006"):
            take("2006", "%04d" % t.year, "year")
        elif rest.startswith("_2"):
            take("_2", "%2d" % t.day, "day")
        elif rest.startswith("15"):
            take("15", "%d" % t.hour, "hour")
        elif rest[:2] in ("01", "02", "03", "04", "05", "06"):
            code = rest[:2]
            value = {"01": ("%02d" % t.month, "month"),
                     "02": ("%02d" % t.day, "day"),
                     "03": ("%02d" % hour12, "hour"),
                     "04": ("%02d" % t.minute, "minute"),
                     "05": ("%02d" % t.second, "second"),
                     "06": ("%02d" % (t.year % 100), "year")}[code]
            take(code, value[0], value[1])
        elif rest[0] == "1":
            take("1", "%d" % t.month, "month")
        elif rest[0] == "2":
            take("2", "%d" % t.day, "day")
        elif rest[0] == "3":
            take("3", "%d" % hour12, "hour")
        elif rest[0] == "4":
            take("4", "%d" % t.minute, "minute")
        elif rest[0] == "5":
            take("5", "%d" % t.second, "second")
        elif rest.startswith("PM"):
            take("PM", "PM" if t.hour >= 12 else "AM")
        elif rest.startswith("pm"):
            take("pm", "pm" if t.hour >= 12 else "am")
        elif rest.startswith("a.m.") or rest.startswith("p.m."):
            take("a.m.", "p.m." if t.hour >= 12 else "a.m.")
        elif rest[0] in ".," and len(rest) > 1 and rest[1] in "09":
            j = 1
            while j < len(rest) and rest[j] == rest[1]:
                j += 1
            if j < len(rest) and rest[j].isdigit():
                take(rest[0], rest[0])
            else:
                # The instant has no fraction: zeros, or nothing for 9s.
                text = rest[0] + "0" * (j - 1) if rest[1] == "0" else ""
                take(rest[:j], text)
        else:
            for token, text in ZONE_TOKENS.items():
                if rest.startswith(token):
                    take(token, text, "zone")
                    break
            else:
                take(rest[0], rest[0])
    return "".join(out), fields


def expected(fields):
    if "hour" not in fields:
        day = LOCAL.day if "day" in fields else 1
        return "%04d-%02d-%02d" % (LOCAL.year, LOCAL.month, day)
    t = LOCAL.replace(minute=LOCAL.minute if "minute" in fields else 0,
                      second=LOCAL.second if "second" in fields else 0)
    if "zone" in fields:
        t -= datetime.timedelta(hours=OFFSET_HOURS)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def main():
    for line in sys.stdin:
        layout = line.rstrip("\n")
        if not layout:
            continue
        go = NAMED.get(layout, layout)
        go = SLIPS.get(go, go)
        text, fields = render(go)
        print("%s\t%s\t%s" % (text, expected(fields), layout))


if __name__ == "__main__":
    main()
