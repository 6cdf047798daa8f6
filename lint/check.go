package lint

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/robotskit/robots/lint/internal/check"
	"github.com/robotskit/robots/lint/internal/checks/cross"
	"github.com/robotskit/robots/lint/internal/checks/ext"
	"github.com/robotskit/robots/lint/internal/checks/fetch"
	"github.com/robotskit/robots/lint/internal/checks/file"
	"github.com/robotskit/robots/lint/internal/checks/groups"
	"github.com/robotskit/robots/lint/internal/checks/lines"
	"github.com/robotskit/robots/lint/internal/checks/rules"
)

// Severity says how much a diagnostic matters.
type Severity uint8

const (
	// Info is advice: no major robot reads the file differently.
	Info Severity = iota + 1
	// Warning marks a line some robots ignore or read differently, or one
	// that is very likely unintended.
	Warning
	// Error marks a file or line that a major robot misreads, or that no
	// robot can use.
	Error
)

var severityNames = [...]string{"", "info", "warning", "error"}

// String returns "info", "warning" or "error".
func (s Severity) String() string {
	if int(s) < len(severityNames) && s != 0 {
		return severityNames[s]
	}
	return fmt.Sprintf("Severity(%d)", uint8(s))
}

// ParseSeverity returns the severity named "info", "warning" or "error".
func ParseSeverity(name string) (Severity, error) {
	for s, n := range severityNames {
		if n != "" && n == name {
			return Severity(s), nil
		}
	}
	return 0, fmt.Errorf("unknown severity %q (want error, warning or info)", name)
}

// A Family is a group of robots that read robots.txt the same way. A
// diagnostic names the families it affects; its value is the short name
// docs/checks.md and the JSON and SARIF output use ("GOOG").
type Family string

// The robot families.
const (
	FamilyGoogle         Family = "GOOG" // Google's crawlers
	FamilyBing           Family = "BING" // Bingbot
	FamilyYandex         Family = "YNDX" // Yandex's robots
	FamilyRFC            Family = "RFC"  // other RFC 9309 longest-match crawlers
	FamilyFirstMatch     Family = "FM"   // first-match robots of the 1996 draft
	FamilyStrict1994     Family = "S94"  // the strict 1994 standard
	FamilyExtended       Family = "EXT"  // robots of the extended standard 2.0
	FamilyCrawlerCommons Family = "CC"   // crawler-commons (Nutch, StormCrawler)
	FamilyTemoto         Family = "GOT"  // temoto/robotstxt (Go) and its users
	FamilyAll            Family = "ALL"  // every robot
)

// Major reports whether f is one of the major families: Google, Bing,
// Yandex, the other RFC 9309 robots, or every robot. The checker reports
// by default only what affects one of them (Config.AllRobots).
func (f Family) Major() bool {
	switch f {
	case FamilyGoogle, FamilyBing, FamilyYandex, FamilyRFC, FamilyAll:
		return true
	}
	return false
}

// anyMajor reports whether fs names a major family.
func anyMajor(fs []Family) bool {
	for _, f := range fs {
		if f.Major() {
			return true
		}
	}
	return false
}

// A FixClass says what a fix may change.
type FixClass uint8

const (
	// Preserving fixes change what no robot does, or touch only lines no
	// robot obeys.
	Preserving FixClass = iota + 1
	// PreservingGoogle fixes keep what Google's and RFC 9309 robots do and
	// bring other robots to that reading.
	PreservingGoogle
	// Intent fixes restore what the author evidently meant; they change
	// what some robots do, so the fixer applies them only when asked by
	// name.
	Intent
)

var classNames = [...]string{"", "P", "PG", "I"}

// String returns "P", "PG" or "I", the names docs/checks.md uses.
func (c FixClass) String() string {
	if int(c) < len(classNames) && c != 0 {
		return classNames[c]
	}
	return fmt.Sprintf("FixClass(%d)", uint8(c))
}

// A Check is one rule of the checker: a code of the catalogue in
// docs/checks.md ("RB501"), what it looks for and how to fix what it finds.
type Check struct {
	// Code is the stable identifier, "RB" and three digits; its first digit
	// is the section of docs/checks.md (1 fetch … 7 cross-robot).
	Code string
	// Name is a short kebab-case name ("path-without-slash").
	Name string
	// Title is a few words on what the check finds.
	Title    string
	Severity Severity
	// Thorough checks run only when asked for (Config.Thorough).
	Thorough bool
	// Affects lists the families whose robots are harmed or disagree.
	Affects []Family
	// Doc explains, in a few sentences, what robots do and how to fix it.
	Doc string
	// Before is a robots.txt the check reports; After is a corrected one
	// it does not. Both are "" for checks of the fetch.
	Before, After string
	// Fix names the fixer transformation (see Fix) that resolves
	// what the check finds, "" when there is none.
	Fix string

	impl *check.Check // what runs; nil for a Check made by hand
}

// Section returns the letter of the check's section of docs/checks.md:
// 'A' (fetch and location) to 'G' (cross-robot differences).
func (c *Check) Section() byte {
	if len(c.Code) == 5 && '1' <= c.Code[2] && c.Code[2] <= '7' {
		return 'A' + c.Code[2] - '1'
	}
	return '?'
}

// sections holds the checks of each section of docs/checks.md, one
// package each, in the order of the sections.
var sections = [][]*check.Check{fetch.Checks, file.Checks, lines.Checks, groups.Checks, rules.Checks, ext.Checks, cross.Checks}

// registry holds the checks of every section, sorted by code, and the
// check of each implementation.
var registry = sync.OnceValue(func() (r struct {
	all    []*Check
	byImpl map[*check.Check]*Check
}) {
	r.byImpl = map[*check.Check]*Check{}
	for _, s := range sections {
		for _, c := range s {
			pc := newCheck(c)
			r.all = append(r.all, pc)
			r.byImpl[c] = pc
		}
	}
	sort.Slice(r.all, func(i, j int) bool { return r.all[i].Code < r.all[j].Code })
	return r
})

// newCheck returns the public check of the implementation c.
func newCheck(c *check.Check) *Check {
	return &Check{
		Code: c.Code, Name: c.Name, Title: c.Title,
		Severity: severityOf(c.Severity), Thorough: c.Thorough,
		Affects: familiesOf(c.Affects),
		Doc:     c.Doc, Before: c.Before, After: c.After, Fix: c.Fix,
		impl: c,
	}
}

// severityOf returns the severity of an implementation's.
func severityOf(s check.Severity) Severity {
	switch s {
	case check.Info:
		return Info
	case check.Warning:
		return Warning
	case check.Error:
		return Error
	}
	return 0
}

// classOf returns the fix class of an implementation's.
func classOf(c check.FixClass) FixClass {
	switch c {
	case check.Preserving:
		return Preserving
	case check.PreservingGoogle:
		return PreservingGoogle
	case check.Intent:
		return Intent
	}
	return 0
}

// familiesOf returns the families of an implementation's, nil for nil: a
// family is its name.
func familiesOf(fs []check.Family) []Family {
	if fs == nil {
		return nil
	}
	out := make([]Family, len(fs))
	for i, f := range fs {
		out[i] = Family(f)
	}
	return out
}

// Checks returns every check, sorted by code. The checks are shared: the
// caller must not modify them.
func Checks() []*Check { return registry().all }

// Lookup returns the check whose code ("RB501", any case) or name
// ("path-without-slash") is s, or nil.
func Lookup(s string) *Check {
	for _, c := range registry().all {
		if strings.EqualFold(c.Code, s) || c.Name == s {
			return c
		}
	}
	return nil
}
