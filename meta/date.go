package meta

import (
	"strings"
	"time"
)

// dateLayouts are the forms of unavailable_after read, each with a numeric
// zone: parseDate first rewrites a zone name into an offset. Older guides
// quoting Google ask for RFC 850; Google's documentation also accepts
// "widely adopted formats including RFC 822, RFC 850 and ISO 8601", and
// its own example is "25 Jun 2010 15:00:00 PST".
var dateLayouts = []string{
	"Monday, 2-Jan-06 15:04:05 -0700",   // RFC 850
	"Monday, 2-Jan-2006 15:04:05 -0700", // RFC 850 with a four-digit year, common in practice
	"Mon, 2-Jan-06 15:04:05 -0700",
	"Mon, 2-Jan-2006 15:04:05 -0700",
	"Mon, 2 Jan 2006 15:04:05 -0700", // RFC 1123 (RFC 822 with a four-digit year)
	"Mon, 2 Jan 06 15:04:05 -0700",   // RFC 822
	"Mon, 2 Jan 2006 15:04 -0700",
	"Mon, 2 Jan 06 15:04 -0700",
	"2 Jan 2006 15:04:05 -0700", // Google's example, weekday left out
	"2 Jan 06 15:04:05 -0700",
	"2 Jan 2006 15:04 -0700",
	"2 Jan 06 15:04 -0700",
	"2-Jan-2006 15:04:05 -0700",
	"2-Jan-06 15:04:05 -0700",
	"Mon Jan _2 15:04:05 -0700 2006", // ANSI C asctime, with the zone moved (see below)
	"2006-01-02T15:04:05.999999999-07:00",
	"2006-01-02T15:04:05-07:00", // ISO 8601 / RFC 3339
	"2006-01-02T15:04-07:00",
	"2006-01-02 15:04:05-07:00",
	"2006-01-02 15:04:05 -0700",
	"2006-01-02 15:04-07:00",
}

// zoneOffsets are the zone names of RFC 822 §5.1, plus the few European
// names seen in practice, as "-0700" offsets. Go's time.Parse would read
// an unknown name such as "PST" as UTC.
var zoneOffsets = map[string]string{
	"UT": "+0000", "UTC": "+0000", "GMT": "+0000", "Z": "+0000",
	"EST": "-0500", "EDT": "-0400", "CST": "-0600", "CDT": "-0500",
	"MST": "-0700", "MDT": "-0600", "PST": "-0800", "PDT": "-0700",
	"WET": "+0000", "WEST": "+0100", "BST": "+0100",
	"CET": "+0100", "CEST": "+0200", "EET": "+0200", "EEST": "+0300",
}

// parseDate reads an unavailable_after value. A date with no zone is read
// as UTC, and note says so.
func parseDate(s string) (t time.Time, note string, ok bool) {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 64 {
		return time.Time{}, "", false
	}
	zoned, noted := withOffset(s)
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, zoned); err == nil {
			return t.UTC(), noted, true
		}
	}
	// ISO 8601 dates and times with no zone at all.
	for _, layout := range []string{"2006-01-02", "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02 15:04"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, "no time zone in " + `"` + s + `"` + "; read as UTC", true
		}
	}
	return time.Time{}, "", false
}

// withOffset rewrites a date's zone into a numeric offset: a trailing zone
// name, a trailing "Z" or "±hh:mm" of ISO 8601 kept as is, a missing zone
// as UTC with a note. asctime's year after the time moves the zone before
// it.
func withOffset(s string) (string, string) {
	if strings.Contains(s, "T") && strings.HasSuffix(s, "Z") && len(s) >= 11 && s[4] == '-' {
		return s[:len(s)-1] + "+00:00", ""
	}
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return s, ""
	}
	last := fields[len(fields)-1]
	if off, ok := zoneOffsets[strings.ToUpper(last)]; ok {
		fields[len(fields)-1] = off
		return strings.Join(fields, " "), ""
	}
	if isOffset(last) || len(last) >= 6 && (last[len(last)-6] == '+' || last[len(last)-6] == '-') && last[len(last)-3] == ':' {
		return s, ""
	}
	// asctime: "Mon Jan _2 15:04:05 2006" has its year last.
	if len(fields) == 5 && len(last) == 4 && strings.Count(fields[3], ":") == 2 {
		return strings.Join(append(fields[:4:4], "+0000", last), " "), "no time zone in \"" + s + "\"; read as UTC"
	}
	if len(fields) >= 2 && strings.Contains(last, ":") {
		return s + " +0000", "no time zone in \"" + s + "\"; read as UTC"
	}
	if len(last) >= 3 && isLetters(last) {
		// A zone name we do not know, such as "IST" (India? Israel?
		// Ireland?): read as UTC rather than guess.
		fields[len(fields)-1] = "+0000"
		return strings.Join(fields, " "), "unknown time zone \"" + last + "\"; read as UTC"
	}
	return s, ""
}

// isOffset reports whether s is "+hhmm" or "-hhmm".
func isOffset(s string) bool {
	if len(s) != 5 || s[0] != '+' && s[0] != '-' {
		return false
	}
	for i := 1; i < 5; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}
