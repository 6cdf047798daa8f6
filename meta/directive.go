package meta

import (
	"strconv"
	"strings"
	"time"
)

// A Source is where a directive was written.
type Source uint8

// Sources of directives.
const (
	// Meta is an HTML <meta> element.
	Meta Source = iota + 1
	// XRobotsTag is an X-Robots-Tag response header.
	XRobotsTag
	// RobotsTag is a Robots-Tag response header (draft-illyes-repext-00).
	RobotsTag
)

var sourceNames = [...]string{"", "meta", "x-robots-tag", "robots-tag"}

// String returns "meta", "x-robots-tag" or "robots-tag".
func (s Source) String() string {
	if int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return "source(" + strconv.Itoa(int(s)) + ")"
}

// MarshalText returns the name of s.
func (s Source) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// A Directive is one rule of a robots meta tag or header, as written.
type Directive struct {
	// Name is the directive's name in lower case: "noindex",
	// "max-snippet", "unavailable_after", or an unknown name as written,
	// lower-cased.
	Name string `json:"name"`
	// Value is the value of a directive that takes one ("50" of
	// "max-snippet:50"), trimmed; "" otherwise.
	Value string `json:"value,omitempty"`
	// Robot is the product token the directive is addressed to, in lower
	// case; "" means every robot.
	Robot string `json:"robot,omitempty"`
	// Source is where it was written, and Field which header field or
	// <meta> element of that source, counting from 1.
	Source Source `json:"source"`
	Field  int    `json:"-"`
	// Line is the line of the <meta> element in the page, 0 for headers.
	Line int `json:"line,omitempty"`
	// Text is the directive as written.
	Text string `json:"text"`
	// Problem says why the directive is ignored or doubtful; "" when it is
	// a well-formed directive that robots know.
	Problem string `json:"problem,omitempty"`

	// Effect, filled at parse time.
	kind  kind
	num   int       // max-snippet, max-video-preview: -1 = no limit
	image Preview   // max-image-preview
	date  time.Time // unavailable_after, zero when unreadable
}

// Known reports whether robots know the directive and it is well formed
// enough to take effect.
func (d Directive) Known() bool { return d.kind != kUnknown && d.kind != kBroken }

// Date returns the time of a readable unavailable_after directive, and
// false for any other directive.
func (d Directive) Date() (time.Time, bool) {
	return d.date, d.kind == kUnavailable && !d.date.IsZero()
}

// A Preview is a max-image-preview setting, from the most restrictive.
type Preview uint8

// Settings of max-image-preview.
const (
	PreviewUnset Preview = iota // not given: the robot's default
	PreviewNone
	PreviewStandard
	PreviewLarge
)

var previewNames = [...]string{"", "none", "standard", "large"}

// String returns "none", "standard", "large", or "" when unset.
func (p Preview) String() string {
	if int(p) < len(previewNames) {
		return previewNames[p]
	}
	return ""
}

// MarshalText returns the name of p.
func (p Preview) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// kind is what a directive does.
type kind uint8

const (
	kUnknown kind = iota
	kBroken       // a known name with a value it cannot use
	kDefault      // all, index, follow: the default, no effect
	kNoIndex
	kNoFollow
	kNone // noindex + nofollow
	kNoArchive
	kNoCache // Bing's name for noarchive
	kNoSnippet
	kNoTranslate
	kNoImageIndex
	kIndexIfEmbedded
	kObsolete // noodp, noydir, nositelinkssearchbox, noyaca: known, no effect today
	kMaxSnippet
	kMaxImagePreview
	kMaxVideoPreview
	kUnavailable
)

// A spec is a known directive.
type spec struct {
	kind   kind
	valued bool
}

// known lists the directives robots document. Sources: the table of
// Google's robots meta tag documentation as older guides quote it (all,
// noindex, nofollow, none, noarchive, nosnippet, noodp, notranslate,
// noimageindex, unavailable_after); Google Search Central, "Robots meta tag,
// data-nosnippet, and X-Robots-Tag specifications" (index, follow,
// indexifembedded, max-snippet, max-image-preview, max-video-preview,
// nositelinkssearchbox, retired in 2024); Bing Webmaster Guidelines, "Robots
// meta tags" (nocache, noodp); Yahoo (noydir, retired with the directory);
// Yandex Webmaster, "Robots meta tag" (noyaca, retired).
var known = map[string]spec{
	"all":                  {kind: kDefault},
	"index":                {kind: kDefault},
	"follow":               {kind: kDefault},
	"noindex":              {kind: kNoIndex},
	"nofollow":             {kind: kNoFollow},
	"none":                 {kind: kNone},
	"noarchive":            {kind: kNoArchive},
	"nocache":              {kind: kNoCache},
	"nosnippet":            {kind: kNoSnippet},
	"notranslate":          {kind: kNoTranslate},
	"noimageindex":         {kind: kNoImageIndex},
	"indexifembedded":      {kind: kIndexIfEmbedded},
	"noodp":                {kind: kObsolete},
	"noydir":               {kind: kObsolete},
	"nositelinkssearchbox": {kind: kObsolete},
	"noyaca":               {kind: kObsolete},
	"max-snippet":          {kind: kMaxSnippet, valued: true},
	"max-image-preview":    {kind: kMaxImagePreview, valued: true},
	"max-video-preview":    {kind: kMaxVideoPreview, valued: true},
	"unavailable_after":    {kind: kUnavailable, valued: true},
}

// obsoleteNote explains the directives kept for the record only.
var obsoleteNote = map[string]string{
	"noodp":                "noodp has no effect: the Open Directory (DMOZ) closed in 2017",
	"noydir":               "noydir has no effect: the Yahoo! Directory closed in 2014",
	"nositelinkssearchbox": "nositelinkssearchbox has no effect: Google retired the sitelinks search box in 2024",
	"noyaca":               "noyaca has no effect: Yandex retired the Yandex.Catalog",
}

// isDirectiveName reports whether name (lower case) is any known directive.
func isDirectiveName(name string) bool {
	_, ok := known[name]
	return ok
}

// newDirective reads one list element, already split off its list and
// trimmed, as a directive for robot.
func newDirective(text, robot string, src Source, field, line int) Directive {
	d := Directive{Robot: robot, Source: src, Field: field, Line: line, Text: text}
	name, value, hasValue := strings.Cut(text, ":")
	name = strings.ToLower(strings.TrimSpace(name))
	value = strings.TrimSpace(value)
	d.Name = name
	sp, ok := known[name]
	switch {
	case !ok:
		d.Problem = "unknown directive " + strconv.Quote(name) + "; robots ignore it"
		if hasValue {
			d.Value = value
		}
		return d
	case sp.valued && !hasValue, sp.valued && value == "":
		d.kind = kBroken
		d.Problem = name + " needs a value after \":\"; robots ignore it"
		return d
	case !sp.valued && hasValue:
		d.kind = kBroken
		d.Value = value
		d.Problem = name + " takes no value; robots do not recognise " + strconv.Quote(text)
		return d
	}
	d.Value = value
	d.kind = sp.kind
	switch sp.kind {
	case kObsolete:
		d.Problem = obsoleteNote[name]
	case kMaxSnippet, kMaxVideoPreview:
		// Google: a number of characters (max-snippet) or seconds
		// (max-video-preview); 0 is none, -1 no limit.
		n, err := strconv.Atoi(value)
		if err != nil || n < -1 {
			d.kind = kBroken
			d.Problem = name + " needs a whole number, -1 or more; robots ignore " + strconv.Quote(value)
			break
		}
		d.num = n
	case kMaxImagePreview:
		switch strings.ToLower(value) {
		case "none":
			d.image = PreviewNone
		case "standard":
			d.image = PreviewStandard
		case "large":
			d.image = PreviewLarge
		default:
			d.kind = kBroken
			d.Problem = "max-image-preview must be none, standard or large; robots ignore " + strconv.Quote(value)
		}
	case kUnavailable:
		t, note, ok := parseDate(value)
		if !ok {
			d.kind = kBroken
			d.Problem = "unreadable date " + strconv.Quote(value) + "; robots ignore unavailable_after (Google asks for a widely adopted format such as RFC 850, e.g. \"Monday, 25-Jun-2035 15:00:00 GMT\")"
			break
		}
		d.date = t
		d.Problem = note
	}
	return d
}

// parseList reads a comma-separated list of directives. A "token:" prefix
// that is not itself a directive addresses the rest of the list to that
// robot when prefixes is set (X-Robots-Tag); robot is the robot the list
// starts with.
func parseList(list, robot string, src Source, field, line int, prefixes bool) []Directive {
	var out []Directive
	parts := strings.Split(list, ",")
	for i := 0; i < len(parts); i++ {
		el := strings.TrimSpace(parts[i])
		if prefixes {
			if tok, rest, ok := robotPrefix(el); ok {
				robot = tok
				el = rest
			}
		}
		// An RFC 850 or RFC 1123 date has a comma after the day name:
		// "unavailable_after: Monday, 25-Jun-2035 15:00:00 GMT". Join
		// the list element that follows it back on.
		if i+1 < len(parts) && isBareDayName(el) {
			i++
			el += "," + parts[i]
			el = strings.TrimSpace(el)
		}
		if el == "" {
			continue
		}
		out = append(out, newDirective(el, robot, src, field, line))
	}
	return out
}

// robotPrefix splits "googlebot: noindex" into the robot's lower-case token
// and the rest. A prefix that is a directive name ("unavailable_after:",
// "max-snippet:") or not a product token is no robot's.
func robotPrefix(el string) (token, rest string, ok bool) {
	name, rest, found := strings.Cut(el, ":")
	if !found {
		return "", "", false
	}
	name = strings.ToLower(strings.TrimSpace(name))
	if name == "" || isDirectiveName(name) || !isProductToken(name) {
		return "", "", false
	}
	return name, strings.TrimSpace(rest), true
}

// isProductToken reports whether s is a robot name: letters, digits, "_",
// "-" and "." (RFC 9309 §2.2.1 allows letters, "_" and "-"; real robot
// names add digits and dots, as in "MJ12bot").
func isProductToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return s != ""
}

// isBareDayName reports whether el is "unavailable_after:" followed by only
// a day name, as when a list split cut a date at its comma.
func isBareDayName(el string) bool {
	name, value, ok := strings.Cut(el, ":")
	if !ok || strings.ToLower(strings.TrimSpace(name)) != "unavailable_after" {
		return false
	}
	_, ok = dayNames[strings.ToLower(strings.TrimSpace(value))]
	return ok
}

var dayNames = map[string]bool{
	"mon": true, "tue": true, "wed": true, "thu": true, "fri": true, "sat": true, "sun": true,
	"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true, "saturday": true, "sunday": true,
}
