package check

import (
	"strconv"
	"strings"

	"github.com/robotskit/robots/internal/textedit"
)

// A Check is one rule of the checker, as the catalogue in docs/checks.md
// describes it: package lint publishes its fields as lint.Check.
type Check struct {
	Code, Name, Title string
	Severity          Severity
	Thorough          bool
	Affects           []Family
	Doc               string
	Before, After     string
	Fix               string
	// Meta marks a check of the checker's own robots:ignore comments
	// (RB314, RB315): it runs after every other check, over what they
	// found, its findings affect no robot and are reported whatever the
	// scope, and no comment silences them.
	Meta bool
	// Run looks at the pass and reports what it finds.
	Run func(*Pass)
}

// Severity says how much a finding matters (lint.Severity).
type Severity uint8

// The severities.
const (
	Info Severity = iota + 1
	Warning
	Error
)

// A Family is a group of robots that read robots.txt the same way
// (lint.Family); its value is the name docs/checks.md and the JSON
// output use.
type Family string

// The robot families.
const (
	Google         Family = "GOOG" // Google's crawlers
	Bing           Family = "BING" // Bingbot
	Yandex         Family = "YNDX" // Yandex's robots
	RFC            Family = "RFC"  // other RFC 9309 longest-match crawlers
	FirstMatch     Family = "FM"   // first-match robots of the 1996 draft
	Strict1994     Family = "S94"  // the strict 1994 standard
	Extended       Family = "EXT"  // robots of the extended standard 2.0
	CrawlerCommons Family = "CC"   // crawler-commons (Nutch, StormCrawler)
	Temoto         Family = "GOT"  // temoto/robotstxt (Go) and its users
	All            Family = "ALL"  // every robot
)

// A FixClass says what a fix may change (lint.FixClass).
type FixClass uint8

// The classes of fix.
const (
	// Preserving fixes change what no robot does.
	Preserving FixClass = iota + 1
	// PreservingGoogle fixes keep what Google's and RFC 9309 robots do.
	PreservingGoogle
	// Intent fixes change what some robots do, as the author meant.
	Intent
)

// A Diagnostic is one finding of a check at one place (lint.Diagnostic).
type Diagnostic struct {
	Check *Check
	// Line and Column are 1-based, Column in code points; Offset is the
	// byte offset of the place. All three are 0 (Offset -1) for a finding
	// of the whole file or its fetch.
	Line, Column, Offset int
	Message              string
	Related              []Related
	// Affects narrows the families of the check (Only); nil means the
	// check's.
	Affects []Family
	// Fix is the fix of the finding; its ID is "" when there is none.
	Fix Fix
	// Group is the canonical group of the line (Line.Group).
	Group int
}

// Related is another line a diagnostic refers to.
type Related struct {
	Line int
	Note string
}

// A Fix is a transformation of the fixer ("FX" and two digits) at one
// place: edits of the input, and the class of what they change.
type Fix struct {
	ID      string
	Class   FixClass
	Message string
	Edits   []Edit
}

// An Edit replaces the bytes [Start, End) of the input with New.
type Edit = textedit.Edit

// Relate adds a related line to d.
func (d *Diagnostic) Relate(line int, note string) *Diagnostic {
	d.Related = append(d.Related, Related{Line: line, Note: note})
	return d
}

// Only narrows the families d affects to fs, some of its check's: the
// case at hand spares the others.
func (d *Diagnostic) Only(fs ...Family) *Diagnostic {
	d.Affects = fs
	return d
}

// Suggest attaches a fix to d.
func (d *Diagnostic) Suggest(id string, class FixClass, msg string, edits ...Edit) *Diagnostic {
	d.Fix = Fix{ID: id, Class: class, Message: msg, Edits: edits}
	return d
}

// Families returns the families d affects: its own Affects, or its
// check's.
func (d *Diagnostic) Families() []Family {
	if d.Affects != nil {
		return d.Affects
	}
	return d.Check.Affects
}

// Thousands writes n with thousands separators, as the catalogue's
// messages write their limits ("512,000").
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
