package lint

import (
	"strings"
	"unicode/utf8"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/internal/arena"
	"github.com/robotskit/robots/internal/spell"
	"github.com/robotskit/robots/syntax"
)

// directive is a directive the checker knows: the
// fields of package syntax and the names robots.txt authors use that no
// major robot honours.
type directive uint8

const (
	dNone directive = iota
	dUserAgent
	dAllow
	dDisallow
	dSitemap
	dCrawlDelay
	dRequestRate
	dVisitTime
	dHost
	dCleanParam
	dRobotVersion
	dComment
	dNoindex
	dNofollow
	dNoarchive
	dContentSignal
	numDirectives
)

// directiveNames holds canonical spellings, in an order that also breaks
// ties between likely misspellings.
var directiveNames = [numDirectives]string{
	"", "User-agent", "Allow", "Disallow", "Sitemap", "Crawl-delay",
	"Request-rate", "Visit-time", "Host", "Clean-param", "Robot-version",
	"Comment", "Noindex", "Nofollow", "Noarchive", "Content-Signal",
}

func (d directive) String() string { return directiveNames[d] }

// core reports whether d is one of the four directives of RFC 9309.
func (d directive) core() bool { return d >= dUserAgent && d <= dSitemap }

// rule reports whether d is Allow or Disallow.
func (d directive) rule() bool { return d == dAllow || d == dDisallow }

// member reports whether d belongs to a group.
func (d directive) member() bool {
	switch d {
	case dAllow, dDisallow, dCrawlDelay, dRequestRate, dVisitTime, dRobotVersion,
		dComment, dNoindex, dNofollow, dNoarchive, dContentSignal:
		return true
	}
	return false
}

// nonGroup reports whether d stands outside groups: Sitemap, Host and
// Clean-param.
func (d directive) nonGroup() bool { return d == dSitemap || d == dHost || d == dCleanParam }

// keyMatch says how a line's key names its directive.
type keyMatch uint8

const (
	keyNone       keyMatch = iota // not a directive line
	keyExact                      // the canonical name, any case
	keyAccepted                   // a variant Google reads as the directive (RB305)
	keyMisspelled                 // close to a name; nobody but CC reads it (RB304, RB306)
	keyUnused                     // a known name nobody major uses (RB671)
	keyUnknown                    // anything else (RB303)
)

// unusedNames are fields Google's reporting library recognises but no
// major robot uses (RB671); "acap-" is a prefix.
var unusedNames = []string{"revisit-after", "domain", "content-usage", "cache-delay"}

// line is a line of the file as the checker's parse model reads it.
type line struct {
	*syntax.Line
	num int // 1-based

	// dir is the directive the key names when it is exact or a variant
	// Google accepts; dNone otherwise. A line counts for group structure
	// only when dir is set.
	dir   directive
	match keyMatch
	// guess is the directive a misspelled key most likely means.
	guess directive

	key, value string
	// group is the canonical group the line belongs to or follows (the
	// last group opened before it), -1 before the first User-agent line.
	group int
	// orphan marks a group-member line before any User-agent line.
	orphan bool
	// strict is the record of the strict view (a blank line ends a
	// record), -1 when the line is in none.
	strict int
	// agent is a User-agent line's identity key: "*", or the leading
	// [A-Za-z_-] run lower-cased, maybe "".
	agent string
}

// is reports whether l is a directive line naming d, exactly or as a
// Google-accepted variant.
func (l *line) is(d directive) bool { return l.dir == d }

// group is a canonical group: User-agent lines and the members that
// follow, up to the next User-agent line that follows a rule.
type group struct {
	index int
	// agents, members and rules index pass.lines; rules are the Allow and
	// Disallow lines among members.
	agents, members, rules []int
	// global reports that one of its agents is "*".
	global bool
}

// first returns the index of the group's first User-agent line.
func (g *group) first() int { return g.agents[0] }

// model reads f's lines into p.lines and p.groups.
func (p *pass) model() {
	f := p.file
	p.lines = make([]line, len(f.Lines))
	open, sawRule := -1, false // canonical view
	rec, recOpen := -1, false  // strict view
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
			g := &p.groups[open]
			g.agents = agents[at[0]:len(agents):len(agents)]
			g.members = members[at[1]:len(members):len(members)]
			g.rules = rules[at[2]:len(rules):len(rules)]
		}
		at = [3]int{len(agents), len(members), len(rules)}
	}
	for i := range f.Lines {
		l := &p.lines[i]
		l.Line = &f.Lines[i]
		l.num = i + 1
		l.group, l.strict = -1, -1
		if l.Kind == syntax.DirectiveLine {
			l.key, l.value = f.Text(l.Key), f.Text(l.Value)
			l.dir, l.match, l.guess = classifyKey(l.Line, l.key)
			if l.Flags&syntax.MissingColon != 0 && l.dir == dNone {
				// Only a known key makes a two-word line a directive
				// (RB302); the rest is unparseable.
				l.match = keyNone
			}
		}
		switch {
		case l.dir == dUserAgent:
			if open < 0 || sawRule {
				close()
				open, sawRule = len(p.groups), false
				p.groups = append(p.groups, group{index: open})
			}
			g := &p.groups[open]
			agents = append(agents, i)
			l.agent = agentKey(&p.arena, l.value)
			g.global = g.global || l.agent == "*"
			if !recOpen {
				rec, recOpen = rec+1, true
			}
		case l.dir.member():
			if open < 0 {
				l.orphan = true
			} else {
				members = append(members, i)
				if l.dir.rule() {
					rules = append(rules, i)
					sawRule = true
				}
			}
		case l.Kind == syntax.BlankLine:
			recOpen = false
		}
		l.group = open
		if recOpen {
			l.strict = rec
		}
	}
	close()
}

// classifyKey names the directive of key (RB304–RB306 report misspellings).
func classifyKey(l *syntax.Line, key string) (d directive, m keyMatch, guess directive) {
	for d := dUserAgent; d < numDirectives; d++ {
		if strings.EqualFold(key, directiveNames[d]) {
			return d, keyExact, d
		}
	}
	if l.Field != syntax.Unknown && l.Flags&syntax.Lenient != 0 {
		d := directive(l.Field) // the four Google fields share numbering
		return d, keyAccepted, d
	}
	k := strings.ToLower(key)
	for _, u := range unusedNames {
		if k == u {
			return dNone, keyUnused, dNone
		}
	}
	if strings.HasPrefix(k, "acap-") {
		return dNone, keyUnused, dNone
	}
	if g := misspelled(k); g != dNone {
		return dNone, keyMisspelled, g
	}
	return dNone, keyUnknown, dNone
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
func misspelled(k string) directive {
	sk := k
	if strings.ContainsAny(k, "-_ ") {
		sk = strings.Map(func(r rune) rune {
			if r == '-' || r == '_' || r == ' ' {
				return -1
			}
			return r
		}, k)
	}
	best, bestDist := dNone, 3
	for d := dUserAgent; d < numDirectives; d++ {
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
func (p *pass) column(l *line, off int) int {
	start := l.Span.Start.Offset
	if l.num == 1 {
		start = len(p.file.BOM)
	}
	if off < start {
		return 1
	}
	return utf8.RuneCountInString(p.src[start:off]) + 1
}
