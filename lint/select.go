package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/robotskit/robots/internal/spell"
	"github.com/robotskit/robots/lint/internal/check"
	"github.com/robotskit/robots/syntax"
)

// sectionNames are the names of the sections of docs/checks.md, 'A' to
// 'G', as Config.Enable and Config.Disable take them: those of the
// packages of checks under lint/internal/checks.
var sectionNames = [...]string{"fetch", "file", "lines", "groups", "rules", "ext", "cross"}

// SectionName returns the name of the check's section, as Config.Enable
// and Config.Disable take it: "fetch" (RB1xx), "file" (RB2xx), "lines"
// (RB3xx), "groups" (RB4xx), "rules" (RB5xx), "ext" (RB6xx) or "cross"
// (RB7xx).
func (c *Check) SectionName() string {
	if s := c.Section(); s >= 'A' && int(s-'A') < len(sectionNames) {
		return sectionNames[s-'A']
	}
	return ""
}

// A selector's rank: a more specific selector beats a less specific one.
const (
	rankAll = iota + 1
	rankSeverity
	rankSection
	rankCheck
)

// rank returns how specifically sel names c (0 when it does not name it).
func rank(sel string, c *Check) int {
	switch {
	case strings.EqualFold(sel, "all"):
		return rankAll
	case strings.EqualFold(sel, c.Severity.String()):
		return rankSeverity
	case strings.EqualFold(sel, c.SectionName()):
		return rankSection
	case strings.EqualFold(sel, c.Code) || sel == c.Name:
		return rankCheck
	}
	return 0
}

// validSelector reports whether sel names checks: "all", a severity, a
// section name, a check's code or name.
func validSelector(sel string) bool {
	if strings.EqualFold(sel, "all") || Lookup(sel) != nil {
		return true
	}
	if _, err := ParseSeverity(strings.ToLower(sel)); err == nil {
		return true
	}
	return slices.Contains(sectionNames[:], strings.ToLower(sel))
}

// A SelectionError is an entry of Config.Enable or Config.Disable that
// names no check, or that names a check both lists name as specifically.
type SelectionError struct {
	// List is "enable" or "disable", the list Entry is in.
	List, Entry string
	// Closest are the codes and names of the checks closest to Entry,
	// for "did you mean"; nil when Entry names checks (Both).
	Closest []string
	// Both reports that Entry names a check that the other list names as
	// specifically: the same check (by code or name), section, severity,
	// or "all".
	Both bool
}

func (e *SelectionError) Error() string {
	if e.Both {
		return fmt.Sprintf("%q is both enabled and disabled", e.Entry)
	}
	msg := fmt.Sprintf("%s: %q is no check's code or name, section (%s), severity (error, warning, info) or all", e.List, e.Entry, strings.Join(sectionNames[:], ", "))
	if len(e.Closest) > 0 {
		msg += "; did you mean " + strings.Join(e.Closest, " or ") + "?"
	}
	return msg
}

// Validate reports the first entry of c.Enable or c.Disable that names
// no check (a *SelectionError with the closest codes and names), or
// that names a check the other list names as specifically, or nil.
// RunContext and FixContext return its error; Run and Fix, which have
// none to return, ignore an entry that names nothing and let Disable win
// a tie.
func (c *Config) Validate() error {
	if c == nil {
		return nil
	}
	for _, l := range []struct {
		name string
		sels []string
	}{{"enable", c.Enable}, {"disable", c.Disable}} {
		for _, s := range l.sels {
			if !validSelector(s) {
				return &SelectionError{List: l.name, Entry: s, Closest: Closest(s)}
			}
		}
	}
	for _, ch := range Checks() {
		en, dis := bestRank(c.Enable, ch), bestRank(c.Disable, ch)
		if en.rank > 0 && en.rank == dis.rank {
			return &SelectionError{List: "enable", Entry: en.sel, Both: true}
		}
	}
	return nil
}

// A match is the most specific selector of a list that names a check.
type match struct {
	rank int
	sel  string
}

func bestRank(sels []string, c *Check) match {
	var m match
	for _, s := range sels {
		if r := rank(s, c); r > m.rank {
			m = match{r, s}
		}
	}
	return m
}

// selected reports whether c runs under cfg, and whether it was named by
// code or name in cfg.Enable (forced: its findings are reported whatever
// the scope). A check runs by default unless it is thorough and
// cfg.Thorough is not set; the most specific entry of Enable or Disable
// that names it decides otherwise, Disable winning a tie.
func selected(cfg *Config, c *Check) (on, forced bool) {
	on = !c.Thorough || cfg.Thorough
	if len(cfg.Enable) == 0 && len(cfg.Disable) == 0 {
		return on, false
	}
	en, dis := bestRank(cfg.Enable, c), bestRank(cfg.Disable, c)
	switch {
	case dis.rank >= en.rank && dis.rank > 0:
		return false, false
	case en.rank > 0:
		return true, en.rank == rankCheck
	}
	return on, false
}

// Closest returns the checks closest to s, for "did you mean", each as
// "RB315 (unused-ignore)": for a code ("RB" and digits), the codes
// nearest in number, at most three (for a code of one or two digits,
// the section of its first digit, "rules (RB5xx)"); otherwise the checks whose name is
// fewest edits from s, if that is at most a third of the name's length
// (two edits for a short name), case folded; at most five. It returns
// nil when none is that close.
func Closest(s string) []string {
	if n, ok := codeNumber(s); ok && len(s) < 5 {
		// "RB5": a section, by the first digit of its codes.
		if k := s[2] - '1'; int(k) < len(sectionNames) {
			return []string{sectionNames[k] + " (RB" + s[2:3] + "xx)"}
		}
		return nil
	} else if ok {
		cs := slices.Clone(Checks())
		dist := func(c *Check) int {
			k, _ := codeNumber(c.Code)
			return max(k-n, n-k)
		}
		slices.SortStableFunc(cs, func(a, b *Check) int { return dist(a) - dist(b) })
		var out []string
		for _, c := range cs[:min(3, len(cs))] {
			out = append(out, c.Code+" ("+c.Name+")")
		}
		slices.Sort(out)
		return out
	}
	ls := strings.ToLower(s)
	best, out := -1, []string(nil)
	for _, c := range Checks() {
		d := spell.Distance(ls, c.Name, 0)
		if d > max(2, len(c.Name)/3) {
			continue
		}
		switch {
		case best < 0 || d < best:
			best, out = d, []string{c.Code + " (" + c.Name + ")"}
		case d == best && len(out) < 5:
			out = append(out, c.Code+" ("+c.Name+")")
		}
	}
	return out
}

// codeNumber returns the number of a code-like s: "RB" (any case) and
// one to four digits.
func codeNumber(s string) (int, bool) {
	if len(s) < 3 || len(s) > 6 || !strings.EqualFold(s[:2], "RB") {
		return 0, false
	}
	n := 0
	for _, c := range []byte(s[2:]) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// scope says which findings of a pass are reported: those that affect a
// major family, all of them when all is set, those of the checks named
// in force, and those of the checks of robots:ignore comments.
type scope struct {
	all   bool
	force map[*check.Check]bool
}

// keeps reports whether the finding d of a pass is reported.
func (s scope) keeps(d *check.Diagnostic) bool {
	if s.all || d.Check.Meta || s.force[d.Check] {
		return true
	}
	for _, f := range d.Families() {
		if Family(f).Major() {
			return true
		}
	}
	return false
}

// FixClass returns the class of the check's fix as the fixer gives it
// on the check's Before example (the most cautious class when the
// example has several places); 0 when the check has no fix, or no
// example to show it on (the checks of the fetch). A fix's class can
// depend on the place: see SuggestedFix.Class.
func (c *Check) FixClass() FixClass {
	if c.Fix == "" || c.Before == "" {
		return 0
	}
	cfg := &Config{Enable: []string{c.Code}, AllRobots: true, URL: "https://example.com/robots.txt"}
	var class FixClass
	for _, d := range Run(syntax.Parse("", []byte(c.Before)), cfg) {
		if d.Check == c && d.Fix != nil {
			class = max(class, d.Fix.Class)
		}
	}
	return class
}

// familyTitles are the families' names in words.
var familyTitles = map[Family]string{
	FamilyGoogle:         "Google's crawlers",
	FamilyBing:           "Bingbot",
	FamilyYandex:         "Yandex's robots",
	FamilyRFC:            "other RFC 9309 longest-match crawlers",
	FamilyFirstMatch:     "first-match robots of the 1996 draft",
	FamilyStrict1994:     "robots of the strict 1994 standard",
	FamilyExtended:       "robots of the extended standard 2.0",
	FamilyCrawlerCommons: "crawler-commons (Nutch, StormCrawler)",
	FamilyTemoto:         "temoto/robotstxt (Go) and its users",
	FamilyAll:            "every robot",
}

// Title returns the family's robots in a few words ("Google's
// crawlers"), "" for a family it does not know.
func (f Family) Title() string { return familyTitles[f] }

// Scope says which findings of the check the default scope reports:
// "major" when it affects a major family (Config.AllRobots is needed
// only for its findings that affect none), "all" when it affects no
// major family (reported only with Config.AllRobots, or when named in
// Config.Enable), "always" for the checks of robots:ignore comments
// (RB314, RB315), which affect no robot.
func (c *Check) Scope() string {
	switch {
	case c.impl != nil && c.impl.Meta:
		return "always"
	case anyMajor(c.Affects):
		return "major"
	}
	return "all"
}
