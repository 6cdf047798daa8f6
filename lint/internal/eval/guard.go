package eval

import (
	"fmt"
	"sort"
	"strings"

	"github.com/robotskit/robots/internal/pattern"
	"github.com/robotskit/robots/lint/internal/check"
)

// A Guard answers KeepsLM for the checks of one run, keeping what it
// builds for each group: the evaluation set and its candidates.
type Guard struct {
	p      *check.Pass
	units  map[string]*unit // by the groups' indexes
	ofLine map[int][]*unit  // by group index
}

// unit is the cached evaluation set of the groups that decide for some
// robots.
type unit struct {
	s     *Set
	cands []string    // sorted
	at    map[int]int // line index → rule index in s
	// sg is s with Google's implicit index.html Allows, nil when it has
	// none.
	sg *Set
	// cheap is false when the group is too large to compare (see
	// Affordable): its guards answer false, whatever else changes, so
	// that every round of the fixer decides alike.
	cheap bool
}

// guardLimit bounds the work of one guard: candidate URLs that a version
// of the rule matches, times the wildcard rules each is matched against.
// Beyond it the guard answers false.
const guardLimit = 1_000_000

// NewGuard returns a guard for one run of a check over p.
func NewGuard(p *check.Pass) *Guard {
	return &Guard{p: p, units: map[string]*unit{}, ofLine: map[int][]*unit{}}
}

// unitsOf returns the cached sets that decide for the robots of group gi.
func (gd *Guard) unitsOf(gi int) []*unit {
	if us, ok := gd.ofLine[gi]; ok {
		return us
	}
	var us []*unit
	for _, gs := range units(gd.p, &gd.p.Groups[gi]) {
		if gd.p.Spend(len(gs) * 8) { // the signature below
			return nil
		}
		sig := fmt.Sprint(gs)
		u, ok := gd.units[sig]
		if !ok {
			u = gd.newUnit(setOf(gd.p, gs))
			gd.units[sig] = u
		}
		us = append(us, u)
	}
	gd.ofLine[gi] = us
	return us
}

// newUnit prepares the set s for the guard.
func (gd *Guard) newUnit(s *Set) *unit {
	u := &unit{s: s, at: map[int]int{}}
	if gd.p.Spend(CandidatesCost(s)) {
		return u // not cheap: its guards answer false
	}
	u.cands = append(Candidates(&gd.p.Arena, s.Rules), "/robots.txt")
	sort.Strings(u.cands)
	u.cheap = Affordable(s, len(u.cands))
	// The guard evaluates with Google's normalisation; where RFC 9309's
	// reads a value differently (a non-final "$", escapes of unreserved
	// characters, characters a URI may not hold) it cannot vouch for RFC
	// robots.
	for k := range s.Rules {
		if v := gd.p.Lines[s.Rules[k].Line].ValueText; v != "" && rfcDiffers(v) {
			u.cheap = false
			break
		}
	}
	for k := range s.Rules {
		u.at[s.Rules[k].Line] = k
	}
	// Google's view adds the implicit "Allow: dir/$" of index.htm(l)
	// Allows (RB523); RFC 9309's does not: the guard checks both.
	var imp []Rule
	for k := range s.Rules {
		if r := implicit(&s.Rules[k]); r != nil {
			imp = append(imp, *r)
		}
	}
	if len(imp) > 0 {
		u.sg = NewSet(append(append([]Rule(nil), s.Rules...), imp...))
		for i := range imp {
			u.cands = AppendCandidates(&gd.p.Arena, u.cands, imp[i].Val)
		}
		sort.Strings(u.cands)
	}
	return u
}

// implicit returns the Allow Google adds for an index.htm(l) Allow r
// ("dir/$" for "dir/index.html"), nil when there is none.
func implicit(r *Rule) *Rule {
	if !indexAllow(r) {
		return nil
	}
	i := strings.LastIndexByte(r.Val, '/')
	imp := NewRule(r.Line, true, r.Val[:i+1]+"$")
	return &imp
}

// indexAllow reports whether r is an Allow to which Google adds an
// implicit "Allow: dir/$": its last segment starts with "index.htm".
func indexAllow(r *Rule) bool {
	i := strings.LastIndexByte(r.Val, '/')
	return r.Allow && i >= 0 && strings.HasPrefix(r.Val[i:], "/index.htm")
}

// litPrefix is the part of a normalised value every path it matches
// starts with: up to the first "*", without a final "$".
func litPrefix(v string) string {
	if i := strings.IndexByte(v, '*'); i >= 0 {
		return v[:i]
	}
	return strings.TrimSuffix(v, "$")
}

// rfcDiffers reports whether RFC 9309's normalisation of the rule value v
// differs from Google's.
func rfcDiffers(v string) bool {
	if !pattern.NeedsRFC(v, pattern.Rule) && !pattern.NeedsGoogle(v) {
		return false
	}
	return string(pattern.AppendRFC(nil, v, pattern.Rule)) != Norm(v)
}

// KeepsLM reports whether replacing the value of rule line i with newVal
// (or removing the rule, when remove is set) leaves every LM verdict of
// the robots that read it unchanged, on the candidate URLs of their
// rules, of the new value, and of the crossings of the rule with the
// wildcard rules (plus "/robots.txt", which Google does not exempt). A
// rule outside any group decides nothing: any change keeps the verdicts.
// When the comparison would cost too much, or the run has stopped, it
// answers false.
//
// sameMatch tells that the new value matches exactly the paths the old
// one does (a trailing "*" dropped, "**" collapsed, "/" put before "*x"
// where x does not start with "/"): then only its length changes, and a
// verdict can change only where a rule of the other kind has a length
// between the old and the new one.
func (gd *Guard) KeepsLM(i int, newVal string, remove, sameMatch bool) bool {
	if gd.p.Stopped() {
		return false // the run's context ended: nothing is proved
	}
	l := &gd.p.Lines[i]
	if l.Orphan || l.Group < 0 || !l.Dir.Rule() {
		return true
	}
	for _, u := range gd.unitsOf(l.Group) {
		if !gd.keepsLMIn(u, i, newVal, remove, sameMatch) {
			return false
		}
	}
	return true
}

// keepsLMIn is KeepsLM for the robots that read the set u.
func (gd *Guard) keepsLMIn(u *unit, i int, newVal string, remove, sameMatch bool) bool {
	at, ok := u.at[i]
	if !ok {
		return true
	}
	if !u.cheap {
		return false
	}
	s := u.s
	if gd.p.Spend(len(s.Rules)) { // the rules read below
		return false
	}
	old := s.Rules[at]
	repl := NewRule(i, old.Allow, Norm(newVal))
	if remove {
		repl.Val = ""
	}
	if sameMatch && implicit(&old) == nil && implicit(&repl) == nil {
		lo, hi := min(len(old.Val), len(repl.Val)), max(len(old.Val), len(repl.Val))
		near := false
		ns := s // Google's implicit Allows count too
		if u.sg != nil {
			ns = u.sg
		}
		for k := range ns.Rules {
			r := &ns.Rules[k]
			near = near || r.Allow != old.Allow && r.Val != "" && lo <= len(r.Val) && len(r.Val) <= hi
		}
		if !near {
			return true
		}
	}
	// The versions of the rule, and of its implicit Allow: only paths one
	// of them matches can change verdict.
	versions := []*Rule{&old, &repl}
	for _, r := range []*Rule{implicit(&old), implicit(&repl)} {
		if r != nil {
			versions = append(versions, r)
		}
	}
	cs := s // crossed with Google's implicit Allows too
	if u.sg != nil {
		cs = u.sg
	}
	crosses := 0
	for _, r := range versions {
		if r.Kind == Wild {
			crosses += len(cs.Rules)
		} else if r.Val != "" {
			crosses += len(cs.wild)
		}
	}
	if gd.p.Spend(crosses * appendCrossUnits) {
		return false
	}
	var cands []string
	for _, r := range versions {
		if r.Val == "" {
			continue
		}
		// Only paths a version of the rule matches can change verdict,
		// and they all start with its literal prefix.
		pre := litPrefix(r.Val)
		lo := sort.SearchStrings(u.cands, pre)
		for k := lo; k < len(u.cands) && strings.HasPrefix(u.cands[k], pre); k++ {
			cands = append(cands, u.cands[k])
		}
		cands = AppendCandidates(&gd.p.Arena, cands, r.Val)
		if r.Kind == Wild {
			for k := range cs.Rules {
				cands = AppendCross(&gd.p.Arena, cands, &cs.Rules[k], r)
			}
		} else {
			for _, k := range cs.wild {
				cands = AppendCross(&gd.p.Arena, cands, &cs.Rules[k], r)
			}
		}
	}
	match := 0 // the units of matching a candidate against every version
	for _, r := range versions {
		match += ruleMatchUnits(r)
	}
	if gd.p.Spend(len(cands) * match) {
		return false
	}
	n := 0
	for _, c := range cands {
		for _, r := range versions {
			if r.Matches(c) {
				cands[n] = c
				n++
				break
			}
		}
	}
	if n*(1+len(s.wild)) > guardLimit {
		return false
	}
	var replG []*Rule // the new version in Google's view
	if repl.Val != "" {
		replG = append(replG, &repl)
		if r := implicit(&repl); r != nil {
			replG = append(replG, r)
		}
	}
	// Copies of the rule go with it: FX16 may remove them in the same
	// round, and what the copies kept must not be counted on.
	gone := map[int]bool{}
	for k := range s.Rules {
		if r := &s.Rules[k]; r.Allow == old.Allow && r.Val == old.Val {
			gone[r.Line] = true
		}
	}
	var replS []*Rule
	if repl.Val != "" {
		replS = replG[:1]
	}
	// Each candidate is decided twice (LM, and LM without the rule) in
	// each view, until one tells them apart.
	cost := 2 * lmUnits(s)
	if u.sg != nil {
		cost += 2 * lmUnits(u.sg)
	}
	for _, c := range cands[:n] {
		if gd.p.Spend(cost) {
			return false
		}
		if verdict(s, s.LM(c)) != s.lmLine(c, gone, replS) {
			return false
		}
		if u.sg != nil && verdict(u.sg, u.sg.LM(c)) != u.sg.lmLine(c, gone, replG) {
			return false
		}
	}
	return true
}

// lmLine returns LM's verdict for u when the rules of the lines gone are
// replaced by repl.
func (s *Set) lmLine(u string, gone map[int]bool, repl []*Rule) bool {
	var best *Rule
	consider := func(r *Rule) {
		if best == nil || Better(r, best) {
			best = r
		}
	}
	s.each(u, func(k int) {
		if !gone[s.Rules[k].Line] {
			consider(&s.Rules[k])
		}
	})
	for _, r := range repl {
		if r.Matches(u) {
			consider(r)
		}
	}
	return best == nil || best.Allow
}

// verdict returns whether rule k of s allows (true when no rule decides).
func verdict(s *Set, k int) bool { return k < 0 || s.Rules[k].Allow }
