package lint

import (
	"fmt"
	"sort"
	"strings"

	"github.com/robotskit/robots/internal/arena"
	"github.com/robotskit/robots/internal/pattern"
	"github.com/robotskit/robots/syntax"
)

// Helpers of the rule checks (RB5xx) and the cross-robot checks
// (RB7xx): the two evaluators LM and FM over one group's rules, the candidate
// URLs they are compared on, and the edits the rule fixes share.

// rulesMarker is appended to candidate URLs and stands in for "*": a path
// segment no rule names.
const rulesMarker = "/x-probe"

// rulesBudget bounds the pattern matches one evaluation set may spend on
// its wildcard rules over all its candidate URLs; a group beyond it (tens of
// thousands of wildcard rules) is not compared, so that a 500 KiB file
// stays cheap.
const rulesBudget = 4_000_000

// rulesCrossBudget bounds the wildcard-by-rule crossings rulesCandidates
// adds to a group's candidate URLs.
const rulesCrossBudget = 5_000

// rulesRule is an Allow or Disallow line as the evaluators read it.
type rulesRule struct {
	line  int    // index in pass.lines
	allow bool   // Allow, else Disallow
	val   string // the value after Google's normalisation
	// kind says how val matches: rulesPrefix (no "*", no final "$"),
	// rulesExact (no "*", final "$") or rulesWild (has "*").
	kind uint8
}

const (
	rulesPrefix uint8 = iota
	rulesExact
	rulesWild
)

// rulesNorm returns v after Google's normalisation: octets ≥ 0x80
// percent-encoded, %xx escapes upper-cased.
func rulesNorm(v string) string {
	if !pattern.NeedsGoogle(v) {
		return v
	}
	return string(pattern.AppendGoogle(nil, v))
}

// rulesMake reads line l as a rule.
func rulesMake(p *pass, i int) rulesRule {
	l := &p.lines[i]
	return rulesRuleOf(i, l.is(dAllow), rulesNorm(l.value))
}

// rulesRuleOf classifies a normalised value.
func rulesRuleOf(i int, allow bool, v string) rulesRule {
	r := rulesRule{line: i, allow: allow, val: v}
	switch {
	case strings.IndexByte(v, '*') >= 0:
		r.kind = rulesWild
	case strings.HasSuffix(v, "$"):
		r.kind = rulesExact
	}
	return r
}

// matches reports whether r matches the path u. Empty values match
// nothing: they never decide.
func (r *rulesRule) matches(u string) bool {
	switch {
	case r.val == "":
		return false
	case r.kind == rulesPrefix:
		return strings.HasPrefix(u, r.val)
	case r.kind == rulesExact:
		return u == r.val[:len(r.val)-1]
	}
	return pattern.Match(u, r.val)
}

// rulesSet is the rules of one group (or of several groups read as one),
// indexed so that the rules matching a URL are found without scanning
// every prefix rule.
type rulesSet struct {
	rules  []rulesRule
	prefix map[string][]int // prefix rules by value
	exact  map[string][]int // exact rules by value without "$"
	wild   []int
}

// rulesNewSet indexes rules.
func rulesNewSet(rules []rulesRule) *rulesSet {
	s := &rulesSet{rules: rules, prefix: map[string][]int{}, exact: map[string][]int{}}
	for i := range rules {
		r := &rules[i]
		switch {
		case r.val == "":
		case r.kind == rulesPrefix:
			s.prefix[r.val] = append(s.prefix[r.val], i)
		case r.kind == rulesExact:
			k := r.val[:len(r.val)-1]
			s.exact[k] = append(s.exact[k], i)
		default:
			s.wild = append(s.wild, i)
		}
	}
	return s
}

// rulesGroupSet returns the rules of group g.
func rulesGroupSet(p *pass, g *group) *rulesSet {
	rules := make([]rulesRule, len(g.rules))
	for k, i := range g.rules {
		rules[k] = rulesMake(p, i)
	}
	return rulesNewSet(rules)
}

// each calls fn with the index of every rule of s that matches u, in no
// particular order.
func (s *rulesSet) each(u string, fn func(int)) {
	for n := 1; n <= len(u); n++ {
		for _, i := range s.prefix[u[:n]] {
			fn(i)
		}
	}
	for _, i := range s.exact[u] {
		fn(i)
	}
	for _, i := range s.wild {
		if s.rules[i].matches(u) {
			fn(i)
		}
	}
}

// rulesBetter reports whether rule a beats rule b for LM: more octets, or
// as many and a is an Allow while b is not.
func rulesBetter(a, b *rulesRule) bool {
	if len(a.val) != len(b.val) {
		return len(a.val) > len(b.val)
	}
	return a.allow && !b.allow
}

// lm returns the rule LM applies to u — the longest match by octets, Allow
// on ties, the first such in file order — or -1 when none matches.
func (s *rulesSet) lm(u string) int {
	best := -1
	s.each(u, func(i int) {
		if best < 0 || rulesBetter(&s.rules[i], &s.rules[best]) ||
			!rulesBetter(&s.rules[best], &s.rules[i]) && i < best {
			best = i
		}
	})
	return best
}

// lmfm returns what lm and fm return, in one pass over the matches.
func (s *rulesSet) lmfm(u string) (lm, fm int) {
	lm, fm = -1, -1
	s.each(u, func(i int) {
		if lm < 0 || rulesBetter(&s.rules[i], &s.rules[lm]) ||
			!rulesBetter(&s.rules[lm], &s.rules[i]) && i < lm {
			lm = i
		}
		if fm < 0 || i < fm {
			fm = i
		}
	})
	return lm, fm
}

// fm returns the rule FM applies to u — the first matching rule in file
// order — or -1 when none matches.
func (s *rulesSet) fm(u string) int {
	first := -1
	s.each(u, func(i int) {
		if first < 0 || i < first {
			first = i
		}
	})
	return first
}

// rulesCandidates returns the candidate URLs of the values of rules
// (RB7xx): each value without a final "$", with every "*" read
// as nothing and as a marker segment, each also followed by the marker;
// only paths (starting with "/"), sorted and without duplicates.
func rulesCandidates(a *arena.Arena, rules []rulesRule) []string {
	set := map[string]bool{}
	var buf []string
	for i := range rules {
		buf = rulesCandidatesOf(a, buf[:0], rules[i].val)
		for _, c := range buf {
			set[c] = true
		}
	}
	// The crossings of each wildcard rule with every rule, while there
	// are few enough of them.
	var wild []int
	for i := range rules {
		if rules[i].kind == rulesWild {
			wild = append(wild, i)
		}
	}
	if len(wild)*len(rules) <= rulesCrossBudget {
		for _, w := range wild {
			for i := range rules {
				buf = rulesAppendCross(a, buf[:0], &rules[w], &rules[i])
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

// rulesCandidatesOf appends to dst the candidate URLs of one normalised
// value, built in a (which may be nil).
func rulesCandidatesOf(a *arena.Arena, dst []string, v string) []string {
	v = strings.TrimSuffix(v, "$")
	add := func(u string) {
		if strings.HasPrefix(u, "/") {
			dst = append(dst, u, a.Concat(u, rulesMarker))
		}
	}
	lit := a.ReplaceStars(v, "", "")
	add(lit)
	if strings.IndexByte(v, '*') >= 0 {
		add(a.ReplaceStars(v, rulesMarker, ""))
	}
	if strings.HasPrefix(v, "*") {
		// A leading "*" also stands for a path: "/" before the rest.
		add(a.Concat("/", lit))
	}
	return dst
}

// rulesAffordable reports whether comparing evaluators over s's candidate
// URLs stays within rulesBudget.
func rulesAffordable(s *rulesSet, candidates int) bool {
	return len(s.wild)*candidates <= rulesBudget
}

// rulesUnits returns the rule sets that decide for the robots of group g,
// one per distinct set: for each agent of g, the rules of every group
// naming that agent, as RFC 9309 merges them.
func rulesUnits(p *pass, g *group) [][]int {
	var out [][]int
	seen := map[string]bool{}
	for _, i := range g.agents {
		key := p.lines[i].agent
		var groups []int
		sig := ""
		for gi := range p.groups {
			for _, j := range p.groups[gi].agents {
				if p.lines[j].agent == key {
					groups = append(groups, gi)
					sig += fmt.Sprint(gi, ",")
					break
				}
			}
		}
		if !seen[sig] {
			seen[sig] = true
			out = append(out, groups)
		}
	}
	return out
}

// rulesSetOf returns the rules of the groups gs, in file order.
func rulesSetOf(p *pass, gs []int) *rulesSet {
	var rules []rulesRule
	for _, gi := range gs {
		for _, i := range p.groups[gi].rules {
			rules = append(rules, rulesMake(p, i))
		}
	}
	return rulesNewSet(rules)
}

// rulesGuard answers keepsLM for the checks of one run, keeping what it
// builds for each group: the evaluation set and its candidates.
type rulesGuard struct {
	p      *pass
	units  map[string]*rulesGuardUnit // by the groups' indexes
	ofLine map[int][]*rulesGuardUnit  // by group index
}

// rulesGuardUnit is the cached evaluation set of one group.
type rulesGuardUnit struct {
	s     *rulesSet
	cands []string    // sorted
	at    map[int]int // line index → rule index in s
	// sg is s with Google's implicit index.html Allows, nil when it has
	// none.
	sg *rulesSet
	// cheap is false when the group is too large to compare (see
	// rulesAffordable): its guards answer false, whatever else changes,
	// so that every round of the fixer decides alike.
	cheap bool
}

// rulesGuardLimit bounds the work of one guard: candidate URLs that a
// version of the rule matches, times the wildcard rules each is matched
// against. Beyond it the guard answers false.
const rulesGuardLimit = 1_000_000

// rulesNewGuard returns a guard for one run of a check over p.
func rulesNewGuard(p *pass) *rulesGuard {
	return &rulesGuard{p: p, units: map[string]*rulesGuardUnit{}, ofLine: map[int][]*rulesGuardUnit{}}
}

// unitsOf returns the cached sets that decide for the robots of group gi.
func (gd *rulesGuard) unitsOf(gi int) []*rulesGuardUnit {
	if us, ok := gd.ofLine[gi]; ok {
		return us
	}
	var us []*rulesGuardUnit
	for _, gs := range rulesUnits(gd.p, &gd.p.groups[gi]) {
		sig := fmt.Sprint(gs)
		u, ok := gd.units[sig]
		if !ok {
			u = gd.newUnit(rulesSetOf(gd.p, gs))
			gd.units[sig] = u
		}
		us = append(us, u)
	}
	gd.ofLine[gi] = us
	return us
}

// newUnit prepares the set s for the guard.
func (gd *rulesGuard) newUnit(s *rulesSet) *rulesGuardUnit {
	u := &rulesGuardUnit{s: s, at: map[int]int{}}
	u.cands = append(rulesCandidates(&gd.p.arena, s.rules), "/robots.txt")
	sort.Strings(u.cands)
	u.cheap = rulesAffordable(s, len(u.cands))
	// The guard evaluates with Google's normalisation; where RFC 9309's
	// reads a value differently (a non-final "$", escapes of unreserved
	// characters, characters a URI may not hold) it cannot vouch for RFC
	// robots.
	for k := range s.rules {
		if v := gd.p.lines[s.rules[k].line].value; v != "" && rulesRFCDiffers(v) {
			u.cheap = false
			break
		}
	}
	for k := range s.rules {
		u.at[s.rules[k].line] = k
	}
	// Google's view adds the implicit "Allow: dir/$" of index.htm(l)
	// Allows (RB523); RFC 9309's does not: the guard checks both.
	var imp []rulesRule
	for k := range s.rules {
		if r := rulesImplicit(&s.rules[k]); r != nil {
			imp = append(imp, *r)
		}
	}
	if len(imp) > 0 {
		u.sg = rulesNewSet(append(append([]rulesRule(nil), s.rules...), imp...))
		for i := range imp {
			u.cands = rulesCandidatesOf(&gd.p.arena, u.cands, imp[i].val)
		}
		sort.Strings(u.cands)
	}
	return u
}

// rulesImplicit returns the Allow Google adds for an index.htm(l) Allow
// r ("dir/$" for "dir/index.html"), nil when there is none.
func rulesImplicit(r *rulesRule) *rulesRule {
	if !rulesIndexAllow(r) {
		return nil
	}
	i := strings.LastIndexByte(r.val, '/')
	imp := rulesRuleOf(r.line, true, r.val[:i+1]+"$")
	return &imp
}

// rulesLitPrefix is the part of a normalised value every path it matches
// starts with: up to the first "*", without a final "$".
func rulesLitPrefix(v string) string {
	if i := strings.IndexByte(v, '*'); i >= 0 {
		return v[:i]
	}
	return strings.TrimSuffix(v, "$")
}

// keepsLM reports whether replacing the value of rule line i with
// newVal (or removing the rule, when remove is set) leaves every LM verdict
// of the robots that read it unchanged, on the candidate URLs of their
// rules, of the new value, and of the crossings of the rule with the
// wildcard rules (plus "/robots.txt", which Google does not exempt). A rule
// outside any group decides nothing: any change keeps the verdicts. When
// the comparison would cost too much it answers false.
//
// sameMatch tells that the new value matches exactly the paths the old one
// does (a trailing "*" dropped, "**" collapsed, "/" put before "*x" where x
// does not start with "/"): then only its length changes, and a verdict can
// change only where a rule of the other kind has a length between the old
// and the new one.
func (gd *rulesGuard) keepsLM(i int, newVal string, remove, sameMatch bool) bool {
	if gd.p.stopped() {
		return false // the run's context ended: nothing is proved
	}
	l := &gd.p.lines[i]
	if l.orphan || l.group < 0 || !l.dir.rule() {
		return true
	}
	for _, u := range gd.unitsOf(l.group) {
		if !gd.keepsLMIn(u, i, newVal, remove, sameMatch) {
			return false
		}
	}
	return true
}

// keepsLMIn is keepsLM for the robots that read the set u.
func (gd *rulesGuard) keepsLMIn(u *rulesGuardUnit, i int, newVal string, remove, sameMatch bool) bool {
	at, ok := u.at[i]
	if !ok {
		return true
	}
	if !u.cheap {
		return false
	}
	s := u.s
	old := s.rules[at]
	repl := rulesRuleOf(i, old.allow, rulesNorm(newVal))
	if remove {
		repl.val = ""
	}
	if sameMatch && rulesImplicit(&old) == nil && rulesImplicit(&repl) == nil {
		lo, hi := min(len(old.val), len(repl.val)), max(len(old.val), len(repl.val))
		near := false
		ns := s // Google's implicit Allows count too
		if u.sg != nil {
			ns = u.sg
		}
		for k := range ns.rules {
			r := &ns.rules[k]
			near = near || r.allow != old.allow && r.val != "" && lo <= len(r.val) && len(r.val) <= hi
		}
		if !near {
			return true
		}
	}
	// The versions of the rule, and of its implicit Allow: only paths one
	// of them matches can change verdict.
	versions := []*rulesRule{&old, &repl}
	for _, r := range []*rulesRule{rulesImplicit(&old), rulesImplicit(&repl)} {
		if r != nil {
			versions = append(versions, r)
		}
	}
	var cands []string
	for _, r := range versions {
		if r.val == "" {
			continue
		}
		// Only paths a version of the rule matches can change verdict,
		// and they all start with its literal prefix.
		pre := rulesLitPrefix(r.val)
		lo := sort.SearchStrings(u.cands, pre)
		for k := lo; k < len(u.cands) && strings.HasPrefix(u.cands[k], pre); k++ {
			cands = append(cands, u.cands[k])
		}
		cands = rulesCandidatesOf(&gd.p.arena, cands, r.val)
		cs := s // crossed with Google's implicit Allows too
		if u.sg != nil {
			cs = u.sg
		}
		if r.kind == rulesWild {
			for k := range cs.rules {
				cands = rulesAppendCross(&gd.p.arena, cands, &cs.rules[k], r)
			}
		} else {
			for _, k := range cs.wild {
				cands = rulesAppendCross(&gd.p.arena, cands, &cs.rules[k], r)
			}
		}
	}
	n := 0
	for _, c := range cands {
		for _, r := range versions {
			if r.matches(c) {
				cands[n] = c
				n++
				break
			}
		}
	}
	if n*(1+len(s.wild)) > rulesGuardLimit {
		return false
	}
	var replG []*rulesRule // the new version in Google's view
	if repl.val != "" {
		replG = append(replG, &repl)
		if r := rulesImplicit(&repl); r != nil {
			replG = append(replG, r)
		}
	}
	// Copies of the rule go with it: FX16 may remove them in the same
	// round, and what the copies kept must not be counted on.
	gone := map[int]bool{}
	for k := range s.rules {
		if r := &s.rules[k]; r.allow == old.allow && r.val == old.val {
			gone[r.line] = true
		}
	}
	var replS []*rulesRule
	if repl.val != "" {
		replS = replG[:1]
	}
	for _, c := range cands[:n] {
		if rulesVerdict(s, s.lm(c)) != s.lmLine(c, gone, replS) {
			return false
		}
		if u.sg != nil && rulesVerdict(u.sg, u.sg.lm(c)) != u.sg.lmLine(c, gone, replG) {
			return false
		}
	}
	return true
}

// lmLine returns LM's verdict for u when the rules of the lines gone are
// replaced by repl.
func (s *rulesSet) lmLine(u string, gone map[int]bool, repl []*rulesRule) bool {
	var best *rulesRule
	consider := func(r *rulesRule) {
		if best == nil || rulesBetter(r, best) {
			best = r
		}
	}
	s.each(u, func(k int) {
		if !gone[s.rules[k].line] {
			consider(&s.rules[k])
		}
	})
	for _, r := range repl {
		if r.matches(u) {
			consider(r)
		}
	}
	return best == nil || best.allow
}

// rulesVerdict returns whether rule k of s allows (true when no rule
// decides).
func rulesVerdict(s *rulesSet, k int) bool { return k < 0 || s.rules[k].allow }

// rulesDrop is the edit that removes rule line l. A comment on the line is
// kept on its own. When l is the only rule of a group that another group
// follows, removing it would join the two groups' agents (a User-agent
// line after a rule starts a new group), so
// it becomes "Disallow:" instead, which allows everything for every robot.
func rulesDrop(p *pass, l *line) Edit {
	if !l.orphan && l.group >= 0 && l.group < len(p.groups)-1 && len(p.groups[l.group].rules) == 1 {
		if l.Comment.IsValid() {
			return replaceLine(l, "Disallow: "+p.src[l.Comment.Start.Offset:l.Comment.End.Offset])
		}
		return replaceLine(l, "Disallow:")
	}
	if l.Comment.IsValid() {
		return replaceLine(l, p.src[l.Comment.Start.Offset:l.Comment.End.Offset])
	}
	return p.deleteLine(l)
}

// rulesSortEdit returns the FX30 edit of group g: its rules in a stable
// order of descending normalised length, Allow before Disallow on equal
// length, so that first-match robots pick what longest-match robots pick.
// A comment line between two rules moves with the rule below it. ok is
// false when the rules are already in that order or when another kind of
// line (blank, member, unknown) sits among them.
func rulesSortEdit(p *pass, g *group) (e Edit, ok bool) {
	if len(g.rules) < 2 {
		return Edit{}, false
	}
	first, last := g.rules[0], g.rules[len(g.rules)-1]
	type unit struct {
		lines []int
		rule  rulesRule
	}
	var units []unit
	var pending []int
	for i := first; i <= last; i++ {
		l := &p.lines[i]
		switch {
		case l.dir.rule():
			units = append(units, unit{lines: append(pending, i), rule: rulesMake(p, i)})
			pending = nil
		case l.Kind == syntax.CommentLine:
			pending = append(pending, i)
		default:
			return Edit{}, false
		}
	}
	sorted := make([]unit, len(units))
	copy(sorted, units)
	sort.SliceStable(sorted, func(a, b int) bool {
		x, y := &sorted[a].rule, &sorted[b].rule
		if len(x.val) != len(y.val) {
			return len(x.val) > len(y.val)
		}
		return x.allow && !y.allow
	})
	same := true
	for k := range units {
		same = same && units[k].rule.line == sorted[k].rule.line
	}
	if same {
		return Edit{}, false
	}
	// The text of the lines in the new order, with the terminators of the
	// old positions between them.
	var order []int
	for _, u := range sorted {
		order = append(order, u.lines...)
	}
	var b strings.Builder
	for k, i := range order {
		l := &p.lines[i]
		b.WriteString(p.src[l.Span.Start.Offset:l.Span.End.Offset])
		if k < len(order)-1 {
			pos := &p.lines[first+k]
			end := pos.Span.End.Offset
			b.WriteString(p.src[end : end+pos.EOL])
		}
	}
	return Edit{Start: p.lines[first].Span.Start.Offset, End: p.lines[last].Span.End.Offset, New: b.String()}, true
}

// rulesLiteral is a normalised value without its final "$" and its "*".
func rulesLiteral(a *arena.Arena, v string) string {
	return a.ReplaceStars(strings.TrimSuffix(v, "$"), "", "")
}

// rulesAppendCross appends to cands the URLs where a wildcard of one rule
// lets it reach the other's path: each value's literal text followed by
// what the other has after its first "*" ("/docs" and "/*.pdf" give
// "/docs.pdf", which rulesCandidates misses). The URLs are built in ar
// (which may be nil).
func rulesAppendCross(ar *arena.Arena, cands []string, a, b *rulesRule) []string {
	for _, xy := range [2][2]*rulesRule{{a, b}, {b, a}} {
		x, y := xy[0], xy[1]
		if i := strings.IndexByte(y.val, '*'); i >= 0 && x.val != "" {
			// Also with the marker between them, out of reach of a third
			// rule that happens to match where the two meet.
			lx, ty := rulesLiteral(ar, x.val), rulesLiteral(ar, y.val[i:])
			if lx == "" && !strings.HasPrefix(ty, "/") || lx != "" && lx[0] != '/' {
				continue
			}
			u := ar.Concat(lx, ty)
			cands = append(cands, u, ar.Concat(u, rulesMarker), ar.Concat3(lx, rulesMarker, ty))
		}
	}
	return cands
}

// rulesRFCDiffers reports whether RFC 9309's normalisation of the rule
// value v differs from Google's.
func rulesRFCDiffers(v string) bool {
	if !pattern.NeedsRFC(v, pattern.Rule) && !pattern.NeedsGoogle(v) {
		return false
	}
	return string(pattern.AppendRFC(nil, v, pattern.Rule)) != rulesNorm(v)
}

// rulesIndexAllow reports whether r is an Allow to which Google adds an
// implicit "Allow: dir/$": its last segment starts with "index.htm".
func rulesIndexAllow(r *rulesRule) bool {
	i := strings.LastIndexByte(r.val, '/')
	return r.allow && i >= 0 && strings.HasPrefix(r.val[i:], "/index.htm")
}

// rulesHasUpper reports whether v has an ASCII upper-case letter.
func rulesHasUpper(v string) bool {
	for i := 0; i < len(v); i++ {
		if 'A' <= v[i] && v[i] <= 'Z' {
			return true
		}
	}
	return false
}

// rulesFoldHash is the 64-bit FNV-1a hash of v in ASCII lower case: equal
// for values that differ only in the case of ASCII letters.
func rulesFoldHash(v string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(v); i++ {
		c := v[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}
