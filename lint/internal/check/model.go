package check

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/internal/arena"
	"github.com/robotskit/robots/internal/spell"
	"github.com/robotskit/robots/syntax"
)

// Directive is a directive the checker knows: the fields of package
// syntax (DirectiveOf maps them) and the names robots.txt authors use that
// no major robot honours. Its order breaks ties between likely
// misspellings and orders a group's other lines in the canonical layout.
type Directive uint8

// The directives.
const (
	None Directive = iota
	UserAgent
	Allow
	Disallow
	Sitemap
	CrawlDelay
	RequestRate
	VisitTime
	Host
	CleanParam
	RobotVersion
	Comment
	Noindex
	Nofollow
	Noarchive
	ContentSignal
	ContentUsage
	License
	numDirectives
)

// directiveNames holds the canonical spellings.
var directiveNames = [numDirectives]string{
	"", "User-agent", "Allow", "Disallow", "Sitemap", "Crawl-delay",
	"Request-rate", "Visit-time", "Host", "Clean-param", "Robot-version",
	"Comment", "Noindex", "Nofollow", "Noarchive", "Content-Signal",
	"Content-Usage", "License",
}

// DirectiveOf returns the directive of a field of package syntax, None
// for syntax.Unknown.
func DirectiveOf(f syntax.Field) Directive {
	switch f {
	case syntax.UserAgent:
		return UserAgent
	case syntax.Allow:
		return Allow
	case syntax.Disallow:
		return Disallow
	case syntax.Sitemap:
		return Sitemap
	case syntax.CrawlDelay:
		return CrawlDelay
	case syntax.RequestRate:
		return RequestRate
	case syntax.VisitTime:
		return VisitTime
	case syntax.Host:
		return Host
	case syntax.CleanParam:
		return CleanParam
	case syntax.RobotVersion:
		return RobotVersion
	case syntax.Comment:
		return Comment
	case syntax.ContentUsage:
		return ContentUsage
	case syntax.ContentSignal:
		return ContentSignal
	case syntax.License:
		return License
	}
	return None
}

// String returns the canonical spelling of d ("User-agent"), "" for None.
func (d Directive) String() string { return directiveNames[d] }

// Core reports whether d is one of the four directives of RFC 9309.
func (d Directive) Core() bool { return d >= UserAgent && d <= Sitemap }

// Rule reports whether d is Allow or Disallow.
func (d Directive) Rule() bool { return d == Allow || d == Disallow }

// Member reports whether d belongs to a group.
func (d Directive) Member() bool {
	switch d {
	case Allow, Disallow, CrawlDelay, RequestRate, VisitTime, RobotVersion,
		Comment, Noindex, Nofollow, Noarchive, ContentSignal, ContentUsage:
		return true
	}
	return false
}

// NonGroup reports whether d stands outside groups: Sitemap, Host,
// Clean-param and License (RSL 1.0: a line of the whole file).
func (d Directive) NonGroup() bool {
	return d == Sitemap || d == Host || d == CleanParam || d == License
}

// KeyMatch says how a line's key names its directive.
type KeyMatch uint8

// How keys match.
const (
	KeyNone       KeyMatch = iota // not a directive line
	KeyExact                      // the canonical name, any case
	KeyAccepted                   // a variant Google reads as the directive (RB305)
	KeyMisspelled                 // close to a name; nobody but CC reads it (RB304, RB306)
	KeyUnused                     // a known name nobody major uses (RB671)
	KeyUnknown                    // anything else (RB303)
)

// unusedNames are fields Google's reporting library recognises but no
// major robot uses (RB671); "acap-" is a prefix.
var unusedNames = []string{"revisit-after", "domain", "cache-delay"}

// A Line is a line of the file as the checker's model reads it. Unlike
// the compiled rules of package robots, the model keeps every line:
// blank lines, comments, invalid lines, misspelled keys and the rules
// before any User-agent line.
type Line struct {
	*syntax.Line
	// Num is the line's number, from 1.
	Num int
	// Dir is the directive the key names when it is exact or a variant
	// Google accepts; None otherwise. A line counts for group structure
	// only when Dir is set.
	Dir   Directive
	Match KeyMatch
	// Guess is the directive a misspelled key most likely means.
	Guess Directive
	// KeyText and ValueText are the directive's key and value as written
	// (white space trimmed).
	KeyText, ValueText string
	// Group is the canonical group the line belongs to or follows (the
	// last group opened before it), -1 before the first User-agent line.
	Group int
	// Orphan marks a group-member line before any User-agent line.
	Orphan bool
	// Agent is a User-agent line's identity key: "*", or the leading
	// [A-Za-z_-] run lower-cased, maybe "".
	Agent string
}

// IsDirective reports whether l is a key/value line the model reads as
// one (a colon-less line counts only when its key is known).
func (l *Line) IsDirective() bool {
	return l.Kind == syntax.DirectiveLine && l.Match != KeyNone
}

// Significant reports whether l is neither blank nor a comment line.
func (l *Line) Significant() bool {
	return l.Kind != syntax.BlankLine && l.Kind != syntax.CommentLine
}

// A Group is a canonical group: User-agent lines and the members that
// follow, up to the next User-agent line that follows a rule.
type Group struct {
	Index int
	// Agents, Members and Rules index Pass.Lines; Rules are the Allow and
	// Disallow lines among Members.
	Agents, Members, Rules []int
	// Global reports that one of its agents is "*".
	Global bool
}

// First returns the index of the group's first User-agent line.
func (g *Group) First() int { return g.Agents[0] }

// Last returns the index of the group's last User-agent or member line:
// where the group's own lines end.
func (g *Group) Last() int {
	last := g.Agents[len(g.Agents)-1]
	if n := len(g.Members); n > 0 && g.Members[n-1] > last {
		last = g.Members[n-1]
	}
	return last
}

// model reads the file's lines into p.Lines and p.Groups.
func (p *Pass) model() {
	f := p.File
	p.Lines = make([]Line, len(f.Lines))
	open, sawRule := -1, false
	// The groups' agents, members and rules are slices of three arrays,
	// one for the whole file: groups do not interleave, so each group's
	// lines are a run of each array (cut when the next group opens).
	// Each array is made once, as large as the file's directive lines.
	n := 0
	for i := range f.Lines {
		if f.Lines[i].Kind == syntax.DirectiveLine {
			n++
		}
	}
	backing := make([]int, 0, 3*n)
	agents, members, rules := backing[0:0:n], backing[n:n:2*n], backing[2*n:2*n:3*n]
	var at [3]int // where the open group's runs start
	close := func() {
		if open >= 0 {
			g := &p.Groups[open]
			g.Agents = agents[at[0]:len(agents):len(agents)]
			g.Members = members[at[1]:len(members):len(members)]
			g.Rules = rules[at[2]:len(rules):len(rules)]
		}
		at = [3]int{len(agents), len(members), len(rules)}
	}
	for i := range f.Lines {
		l := &p.Lines[i]
		l.Line = &f.Lines[i]
		l.Num = i + 1
		l.Group = -1
		if l.Kind == syntax.DirectiveLine {
			l.KeyText, l.ValueText = f.Text(l.Key), f.Text(l.Value)
			l.Dir, l.Match, l.Guess = classifyKey(l.Line, l.KeyText)
			if l.Flags&syntax.MissingColon != 0 && l.Dir == None {
				// Only a known key makes a two-word line a directive
				// (RB302); the rest is unparseable.
				l.Match = KeyNone
			}
		}
		switch {
		case l.Dir == UserAgent:
			if open < 0 || sawRule {
				close()
				open, sawRule = len(p.Groups), false
				p.Groups = append(p.Groups, Group{Index: open})
			}
			g := &p.Groups[open]
			agents = append(agents, i)
			l.Agent = agentKey(&p.Arena, l.ValueText)
			g.Global = g.Global || l.Agent == "*"
		case l.Dir.Member():
			if open < 0 {
				l.Orphan = true
			} else {
				members = append(members, i)
				if l.Dir.Rule() {
					rules = append(rules, i)
					sawRule = true
				}
			}
		}
		l.Group = open
	}
	close()
}

// classifyKey names the directive of key (RB304–RB306 report misspellings).
func classifyKey(l *syntax.Line, key string) (d Directive, m KeyMatch, guess Directive) {
	for d := UserAgent; d < numDirectives; d++ {
		if strings.EqualFold(key, directiveNames[d]) {
			return d, KeyExact, d
		}
	}
	if l.Field != syntax.Unknown && l.Flags&syntax.Lenient != 0 {
		d := DirectiveOf(l.Field)
		return d, KeyAccepted, d
	}
	k := strings.ToLower(key)
	for _, u := range unusedNames {
		if k == u {
			return None, KeyUnused, None
		}
	}
	if strings.HasPrefix(k, "acap-") {
		return None, KeyUnused, None
	}
	if g := misspelled(k); g != None {
		return None, KeyMisspelled, g
	}
	return None, KeyUnknown, None
}

// lowerNames are directiveNames in lower case, and squashedNames the same
// without '-' (see misspelled).
var lowerNames, squashedNames = func() (lower, squashed [numDirectives]string) {
	for d, n := range directiveNames {
		lower[d] = strings.ToLower(n)
		squashed[d] = strings.ReplaceAll(lower[d], "-", "")
	}
	return lower, squashed
}()

// misspelled returns the directive whose name k probably misspells: equal
// once '-', '_' and spaces are removed, or within Damerau-Levenshtein
// distance 2 of a name of at least five letters; the first in list order
// wins ties.
func misspelled(k string) Directive {
	sk := k
	if strings.ContainsAny(k, "-_ ") {
		sk = strings.Map(func(r rune) rune {
			if r == '-' || r == '_' || r == ' ' {
				return -1
			}
			return r
		}, k)
	}
	best, bestDist := None, 3
	for d := UserAgent; d < numDirectives; d++ {
		if sk == squashedNames[d] {
			return d
		}
		name := lowerNames[d]
		if len(name) < 5 {
			continue
		}
		if dist := spell.Distance(k, name, bestDist); dist < bestDist {
			best, bestDist = d, dist
		}
	}
	return best
}

// agentKey returns the identity key of a User-agent value: "*" for "*"
// and "* anything", else its product token (robots.LineToken) in lower
// case, which may be "", built in a (which may be nil).
func agentKey(a *arena.Arena, v string) string {
	if v == "*" || len(v) > 1 && v[0] == '*' && (v[1] == ' ' || v[1] == '\t') {
		return "*"
	}
	return a.Lower(robots.LineToken(v))
}

// column returns the 1-based column, in code points, of the byte at off on
// line l.
func (p *Pass) column(l *Line, off int) int {
	start := l.Span.Start.Offset
	if l.Num == 1 {
		start = len(p.File.BOM)
	}
	if off < start {
		return 1
	}
	return utf8.RuneCountInString(p.Src[start:off]) + 1
}

// GroupKeys returns the non-empty agent keys of g, sorted and without
// duplicates. The keys of every group are made on the first call, in one
// array shared by the pass.
func (p *Pass) GroupKeys(g *Group) []string {
	if p.groupKeys == nil {
		n := 0
		for gi := range p.Groups {
			n += len(p.Groups[gi].Agents)
		}
		all := make([]string, 0, n)
		p.groupKeys = make([][]string, len(p.Groups))
		for gi := range p.Groups {
			start := len(all)
			for _, a := range p.Groups[gi].Agents {
				if k := p.Lines[a].Agent; k != "" {
					all = append(all, k)
				}
			}
			ks := all[start:]
			slices.Sort(ks)
			ks = slices.Compact(ks)
			all = all[:start+len(ks)]
			p.groupKeys[gi] = ks[:len(ks):len(ks)]
		}
	}
	return p.groupKeys[g.Index]
}

// SecondKey finds a second directive inside the value of a User-agent,
// Allow, Disallow or Sitemap line (RB313): after a space or TAB, a known
// or Google-accepted name followed by ':'. It returns the byte offset of
// that name in the input and the name, or -1.
func (p *Pass) SecondKey(l *Line) (int, string) {
	if !(l.Dir == UserAgent || l.Dir.Rule() || l.Dir == Sitemap) || l.Flags&syntax.MissingColon != 0 {
		return -1, ""
	}
	v := l.ValueText
	for i := 1; i < len(v); i++ {
		if v[i-1] != ' ' && v[i-1] != '\t' || v[i] == ' ' || v[i] == '\t' {
			continue
		}
		// The longest name Google accepts, with a suffix, stays short;
		// looking only a little way ahead keeps this linear.
		c := strings.IndexByte(v[i:min(len(v), i+24)], ':')
		if c <= 0 {
			continue
		}
		key := strings.TrimRight(v[i:i+c], " \t")
		f := syntax.Parse("", []byte(key+": x"))
		if len(f.Lines) != 1 || f.Lines[0].Kind != syntax.DirectiveLine {
			continue
		}
		if d, _, _ := classifyKey(&f.Lines[0], key); d != None {
			return l.Value.Start.Offset + i, key
		}
	}
	return -1, ""
}
