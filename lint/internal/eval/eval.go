// Package eval reads a group's Allow and Disallow rules the two ways
// robots decide, for the checks of the rules (RB5xx) and of what robot
// families read differently (RB7xx):
//
//   - LM, the longest match by octets, Allow on ties, as Google, Bing,
//     Yandex and RFC 9309 robots decide;
//   - FM, the first matching rule in file order, as the 1996 draft and
//     old parsers do.
//
// Values are compared after Google's normalisation ([Norm]). The
// evaluators are compared on candidate URLs drawn from the rules
// themselves ([Candidates]); a [Guard] uses them to prove that a rule fix
// keeps every LM verdict.
package eval

import (
	"sort"
	"strconv"
	"strings"

	"github.com/robotskit/robots/internal/arena"
	"github.com/robotskit/robots/internal/pattern"
	"github.com/robotskit/robots/lint/internal/check"
)

// Marker is appended to candidate URLs and stands in for "*": a path
// segment no rule names.
const Marker = "/x-probe"

// budget bounds the pattern matches one evaluation set may spend on its
// wildcard rules over all its candidate URLs; a group beyond it (tens of
// thousands of wildcard rules) is not compared, so that a 500 KiB file
// stays cheap.
const budget = 4_000_000

// crossBudget bounds the wildcard-by-rule crossings Candidates adds to a
// group's candidate URLs.
const crossBudget = 5_000

// The units of work (check.Pass.Spend) of the evaluators' steps.
const (
	// matchUnits is a candidate URL matched against one rule.
	matchUnits = 32
	// lookupUnits is looking up the prefix and exact rules that match a
	// candidate URL, one map lookup for each of its lengths.
	lookupUnits = 180
	// crossUnits is a crossing of two rules (AppendCross) for
	// Candidates: up to six URLs built, added to a set and sorted;
	// appendCrossUnits is one that is only built.
	crossUnits       = 500
	appendCrossUnits = 64
	// candUnits is the candidate URLs of one value (AppendCandidates),
	// added to a set, and their share of sorting.
	candUnits = 400
)

// ruleMatchUnits is the units of matching a URL against r: a wildcard
// pattern, or a comparison of octets.
func ruleMatchUnits(r *Rule) int {
	if r.Kind == Wild {
		return matchUnits
	}
	return 2
}

// lmUnits is the units of deciding one candidate URL with s (LM, FM or
// LMFM): the prefix and exact rules of each of its lengths are looked up,
// and it is matched against each wildcard rule.
func lmUnits(s *Set) int { return lookupUnits + matchUnits*len(s.wild) }

// CandidatesCost is the units of work of Candidates over the rules of s:
// the candidates of each value, and the crossings of the wildcard rules
// with every rule when Candidates makes them.
func CandidatesCost(s *Set) int {
	n := len(s.Rules) * candUnits
	if cross := len(s.wild) * len(s.Rules); cross <= crossBudget {
		n += cross * crossUnits
	}
	return n
}

// DecideCost is the units of work of deciding so many candidate URLs
// with s, each once (LM, FM or LMFM).
func DecideCost(s *Set, candidates int) int {
	return candidates * lmUnits(s)
}

// A Rule is an Allow or Disallow line as the evaluators read it.
type Rule struct {
	Line  int    // index in Pass.Lines
	Allow bool   // Allow, else Disallow
	Val   string // the value after Google's normalisation
	// Kind says how Val matches.
	Kind Kind
}

// Kind says how a rule's value matches.
type Kind uint8

// The kinds of value.
const (
	Prefix Kind = iota // no "*", no final "$"
	Exact              // no "*", a final "$"
	Wild               // a "*"
)

// Norm returns v after Google's normalisation: octets ≥ 0x80
// percent-encoded, %xx escapes upper-cased.
func Norm(v string) string {
	if !pattern.NeedsGoogle(v) {
		return v
	}
	return string(pattern.AppendGoogle(nil, v))
}

// RuleAt reads line i of p as a rule.
func RuleAt(p *check.Pass, i int) Rule {
	l := &p.Lines[i]
	return NewRule(i, l.Dir == check.Allow, Norm(l.ValueText))
}

// NewRule classifies the normalised value v of line i.
func NewRule(i int, allow bool, v string) Rule {
	r := Rule{Line: i, Allow: allow, Val: v}
	switch {
	case strings.IndexByte(v, '*') >= 0:
		r.Kind = Wild
	case strings.HasSuffix(v, "$"):
		r.Kind = Exact
	}
	return r
}

// Matches reports whether r matches the path u. Empty values match
// nothing: they never decide.
func (r *Rule) Matches(u string) bool {
	switch {
	case r.Val == "":
		return false
	case r.Kind == Prefix:
		return strings.HasPrefix(u, r.Val)
	case r.Kind == Exact:
		return u == r.Val[:len(r.Val)-1]
	}
	return pattern.Match(u, r.Val)
}

// Better reports whether rule a beats rule b for LM, and so whether a
// comes before b in the order where FM decides as LM does (FX30): more
// octets, or as many and a is an Allow while b is not.
func Better(a, b *Rule) bool {
	if len(a.Val) != len(b.Val) {
		return len(a.Val) > len(b.Val)
	}
	return a.Allow && !b.Allow
}

// A Set is the rules of one group (or of several groups read as one),
// indexed so that the rules matching a URL are found without scanning
// every prefix rule.
type Set struct {
	Rules  []Rule
	prefix map[string][]int // prefix rules by value
	exact  map[string][]int // exact rules by value without "$"
	wild   []int
}

// NewSet indexes rules.
func NewSet(rules []Rule) *Set {
	s := &Set{Rules: rules, prefix: map[string][]int{}, exact: map[string][]int{}}
	for i := range rules {
		r := &rules[i]
		switch {
		case r.Val == "":
		case r.Kind == Prefix:
			s.prefix[r.Val] = append(s.prefix[r.Val], i)
		case r.Kind == Exact:
			k := r.Val[:len(r.Val)-1]
			s.exact[k] = append(s.exact[k], i)
		default:
			s.wild = append(s.wild, i)
		}
	}
	return s
}

// GroupSet returns the rules of group g.
func GroupSet(p *check.Pass, g *check.Group) *Set {
	rules := make([]Rule, len(g.Rules))
	for k, i := range g.Rules {
		rules[k] = RuleAt(p, i)
	}
	return NewSet(rules)
}

// setOf returns the rules of the groups gs, in file order.
func setOf(p *check.Pass, gs []int) *Set {
	var rules []Rule
	for _, gi := range gs {
		for _, i := range p.Groups[gi].Rules {
			rules = append(rules, RuleAt(p, i))
		}
	}
	return NewSet(rules)
}

// each calls fn with the index of every rule of s that matches u, in no
// particular order.
func (s *Set) each(u string, fn func(int)) {
	for n := 1; n <= len(u); n++ {
		for _, i := range s.prefix[u[:n]] {
			fn(i)
		}
	}
	for _, i := range s.exact[u] {
		fn(i)
	}
	for _, i := range s.wild {
		if s.Rules[i].Matches(u) {
			fn(i)
		}
	}
}

// LM returns the rule LM applies to u — the longest match by octets,
// Allow on ties, the first such in file order — or -1 when none matches.
func (s *Set) LM(u string) int {
	best := -1
	s.each(u, func(i int) {
		if best < 0 || Better(&s.Rules[i], &s.Rules[best]) ||
			!Better(&s.Rules[best], &s.Rules[i]) && i < best {
			best = i
		}
	})
	return best
}

// LMFM returns what LM and FM return, in one pass over the matches.
func (s *Set) LMFM(u string) (lm, fm int) {
	lm, fm = -1, -1
	s.each(u, func(i int) {
		if lm < 0 || Better(&s.Rules[i], &s.Rules[lm]) ||
			!Better(&s.Rules[lm], &s.Rules[i]) && i < lm {
			lm = i
		}
		if fm < 0 || i < fm {
			fm = i
		}
	})
	return lm, fm
}

// FM returns the rule FM applies to u — the first matching rule in file
// order — or -1 when none matches.
func (s *Set) FM(u string) int {
	first := -1
	s.each(u, func(i int) {
		if first < 0 || i < first {
			first = i
		}
	})
	return first
}

// Candidates returns the candidate URLs of the values of rules: each
// value without a final "$", with every "*" read as nothing and as a
// marker segment, each also followed by the marker, and the crossings of
// the wildcard rules with the others (AppendCross) while they are few;
// only paths (starting with "/"), sorted and without duplicates. They are
// built in a (which may be nil).
func Candidates(a *arena.Arena, rules []Rule) []string {
	set := map[string]bool{}
	var buf []string
	for i := range rules {
		buf = AppendCandidates(a, buf[:0], rules[i].Val)
		for _, c := range buf {
			set[c] = true
		}
	}
	// The crossings of each wildcard rule with every rule, while there
	// are few enough of them.
	var wild []int
	for i := range rules {
		if rules[i].Kind == Wild {
			wild = append(wild, i)
		}
	}
	if len(wild)*len(rules) <= crossBudget {
		for _, w := range wild {
			for i := range rules {
				buf = AppendCross(a, buf[:0], &rules[w], &rules[i])
				for _, u := range buf {
					set[u] = true
				}
			}
		}
	}
	out := make([]string, 0, len(set))
	for u := range set {
		out = append(out, u)
	}
	sort.Strings(out)
	return out
}

// AppendCandidates appends to dst the candidate URLs of one normalised
// value, built in a (which may be nil).
func AppendCandidates(a *arena.Arena, dst []string, v string) []string {
	v = strings.TrimSuffix(v, "$")
	add := func(u string) {
		if strings.HasPrefix(u, "/") {
			dst = append(dst, u, a.Concat(u, Marker))
		}
	}
	lit := a.ReplaceStars(v, "", "")
	add(lit)
	if strings.IndexByte(v, '*') >= 0 {
		add(a.ReplaceStars(v, Marker, ""))
	}
	if strings.HasPrefix(v, "*") {
		// A leading "*" also stands for a path: "/" before the rest.
		add(a.Concat("/", lit))
	}
	return dst
}

// Affordable reports whether comparing evaluators over so many candidate
// URLs of s stays within the budget of one set.
func Affordable(s *Set, candidates int) bool {
	return len(s.wild)*candidates <= budget
}

// literal is a normalised value without its final "$" and its "*".
func literal(a *arena.Arena, v string) string {
	return a.ReplaceStars(strings.TrimSuffix(v, "$"), "", "")
}

// AppendCross appends to cands the URLs where a wildcard of one rule lets
// it reach the other's path: each value's literal text followed by what
// the other has after its first "*" ("/docs" and "/*.pdf" give
// "/docs.pdf", which the candidates of each value miss), that followed by
// the marker, and the two with the marker between them, out of reach of
// a third rule that happens to match where the two meet. The URLs are
// built in ar (which may be nil).
func AppendCross(ar *arena.Arena, cands []string, a, b *Rule) []string {
	for _, xy := range [2][2]*Rule{{a, b}, {b, a}} {
		x, y := xy[0], xy[1]
		if i := strings.IndexByte(y.Val, '*'); i >= 0 && x.Val != "" {
			lx, ty := literal(ar, x.Val), literal(ar, y.Val[i:])
			if lx == "" && !strings.HasPrefix(ty, "/") || lx != "" && lx[0] != '/' {
				continue
			}
			u := ar.Concat(lx, ty)
			cands = append(cands, u, ar.Concat(u, Marker), ar.Concat3(lx, Marker, ty))
		}
	}
	return cands
}

// units returns the rule sets that decide for the robots of group g, one
// per distinct set: for each agent of g, the groups naming that agent,
// whose rules RFC 9309 merges. It returns nil when the pass has stopped.
func units(p *check.Pass, g *check.Group) [][]int {
	var out [][]int
	seen := map[string]bool{}
	for _, i := range g.Agents {
		key := p.Lines[i].Agent
		var groups []int
		var sig []byte
		for gi := range p.Groups {
			// Each agent of the group is compared with the key.
			if p.Spend(1 + len(p.Groups[gi].Agents)) {
				return nil
			}
			for _, j := range p.Groups[gi].Agents {
				if p.Lines[j].Agent == key {
					groups = append(groups, gi)
					sig = strconv.AppendInt(sig, int64(gi), 10)
					sig = append(sig, ',')
					break
				}
			}
		}
		if !seen[string(sig)] {
			seen[string(sig)] = true
			out = append(out, groups)
		}
	}
	return out
}
