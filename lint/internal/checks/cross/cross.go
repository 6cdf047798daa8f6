// Package cross holds the checks of what robot families read differently
// in the same file (RB7xx, section G of docs/checks.md). The rule checks
// compare the two evaluators of package eval over each canonical group's
// rules: LM, longest match as Google, Bing, Yandex and RFC 9309 robots
// decide, and FM, the first matching rule in file order, as the 1996
// draft and old parsers do.
package cross

import (
	"fmt"
	"sort"
	"strings"
	"unsafe"

	"github.com/robotskit/robots/lint/internal/check"
	"github.com/robotskit/robots/lint/internal/eval"
	"github.com/robotskit/robots/lint/internal/tokens"
)

// Checks are the checks of the section, in code order.
var Checks = []*check.Check{rb701, rb702, rb703, rb704, rb705, rb706, rb707}

var rb701 = &check.Check{
	Code: "RB701", Name: "order-dependent-rules", Title: "result depends on rule order (first match vs longest match)",
	Severity: check.Warning, Affects: []check.Family{check.FirstMatch},
	Doc: "For some URL, robots that apply the first matching rule (the 1996 draft, " +
		"Baidu as documented, old CPython) reach the opposite verdict from robots that " +
		"apply the longest match (Google, Bing, Yandex, RFC 9309). In \"Disallow: /shop\" " +
		"then \"Allow: /shop/sale\", /shop/sale/1 is allowed by the latter and blocked " +
		"by the former. Put longer rules first (the fixer sorts the group by " +
		"specificity), and both kinds of robot agree.",
	Before: "User-agent: *\nDisallow: /shop\nAllow: /shop/sale\n",
	After:  "User-agent: *\nAllow: /shop/sale\nDisallow: /shop\n",
	Fix:    "FX30",
	Run: func(p *check.Pass) {
		for gi := range p.Groups {
			orderDependent(p, &p.Groups[gi])
		}
	},
}

// orderDependent reports the rules of group g on which FM and LM disagree.
func orderDependent(p *check.Pass, g *check.Group) {
	if len(g.Rules) < 2 {
		return
	}
	// FM and LM can only disagree when both kinds of rule are present and
	// the rules are not in specificity order already.
	allows, disallows := false, false
	for _, i := range g.Rules {
		if p.Lines[i].Dir == check.Allow {
			allows = true
		} else {
			disallows = true
		}
	}
	if !allows || !disallows {
		return
	}
	if st, _ := eval.SortOf(p, g); st == eval.Sorted {
		return
	}
	s := eval.GroupSet(p, g)
	if p.Spend(eval.CandidatesCost(s)) {
		return
	}
	cands := eval.Candidates(&p.Arena, s.Rules)
	if !eval.Affordable(s, len(cands)) || p.Spend(eval.DecideCost(s, len(cands))) {
		return
	}
	// Each pair of rules on which FM and LM disagree, in the order the
	// candidates first show it, with the plainest URL that shows it.
	type pair struct{ lm, fm int }
	url := map[pair]string{}
	var pairs []pair
	for _, u := range cands {
		lm, fm := s.LMFM(u)
		if lm < 0 || fm < 0 || lm == fm {
			continue
		}
		a, b := &s.Rules[lm], &s.Rules[fm]
		if a.Allow == b.Allow || a.Val == b.Val {
			continue // same verdict, or RB507's identical values
		}
		k := pair{lm, fm}
		if v, ok := url[k]; !ok {
			pairs = append(pairs, k)
			url[k] = u
		} else if plainer(u, v) {
			url[k] = u
		}
	}
	var sortEdit *check.Edit
	for _, k := range pairs {
		a, b := &s.Rules[k.lm], &s.Rules[k.fm]
		l, f := &p.Lines[a.Line], &p.Lines[b.Line]
		// LM's rule is the longer one, or as long and an Allow; FM's comes
		// first in the file.
		which := "the longer rule"
		if len(a.Val) == len(b.Val) {
			which = "the Allow rule, as long as the other,"
		}
		d := p.Report(l, "For %s, Google, Bing, Yandex and RFC 9309 robots use %s on line %d (%s); first-match robots use line %d (%s). Put line %d first if those robots matter to you",
			url[k], which, l.Num, verdictWord(a.Allow), f.Num, verdictWord(b.Allow), l.Num).
			Relate(f.Num, "first-match robots apply this rule")
		if sortEdit == nil {
			if e, ok := eval.SortEdit(p, g); ok {
				sortEdit = &e
			} else {
				sortEdit = &check.Edit{Start: -1}
			}
		}
		if sortEdit.Start >= 0 {
			d.Suggest("FX30", check.PreservingGoogle, "sort the group's rules by specificity", *sortEdit)
		}
	}
}

// plainer reports whether the candidate URL u reads more plainly in
// a message than v: without the marker that stands for "*" or an empty
// segment, then shorter.
func plainer(u, v string) bool {
	odd := func(s string) bool { return strings.Contains(s, eval.Marker) || strings.Contains(s, "//") }
	if odd(u) != odd(v) {
		return !odd(u)
	}
	return len(u) < len(v)
}

// verdictWord names the verdict of an Allow (allow set) or a Disallow.
func verdictWord(allow bool) string {
	if allow {
		return "allowed"
	}
	return "disallowed"
}

// plain reports whether the normalised value v has no wildcard.
func plain(v string) bool { return !strings.ContainsAny(v, "*$") }

var rb702 = &check.Check{
	Code: "RB702", Name: "allow-exception", Title: "exception needs Allow",
	Severity: check.Info, Thorough: true, Affects: []check.Family{check.Strict1994},
	Doc: "An Allow carves an exception out of an area a shorter Disallow blocks. " +
		"Robots of the 1994 standard do not know Allow, so for them the exception stays " +
		"blocked; everyone else fetches it. This errs on the safe side (the 1996 draft " +
		"accepted it), but if the exception matters to those robots, restructure the " +
		"Disallow rules so that they do not cover it.",
	Before: "User-agent: *\nDisallow: /docs\nAllow: /docs/public\n",
	After:  "User-agent: *\nDisallow: /docs/private\n",
	Run: func(p *check.Pass) {
		for gi := range p.Groups {
			g := &p.Groups[gi]
			blocked := map[string]bool{}
			for _, i := range g.Rules {
				l := &p.Lines[i]
				if n := eval.Norm(l.ValueText); l.Dir == check.Disallow && n != "" && plain(n) {
					blocked[n] = true
				}
			}
			if len(blocked) == 0 {
				continue
			}
			for _, i := range g.Rules {
				l := &p.Lines[i]
				n := eval.Norm(l.ValueText)
				if l.Dir != check.Allow || !plain(n) {
					continue
				}
				for k := 1; k < len(n); k++ {
					if blocked[n[:k]] {
						p.ReportValue(l, "Robots that don't know Allow keep %q blocked", l.ValueText)
						break
					}
				}
			}
		}
	},
}

var rb703 = &check.Check{
	Code: "RB703", Name: "substring-group-order", Title: "group order matters for substring user-agent matching",
	Severity: check.Warning, Affects: []check.Family{check.FirstMatch, check.Temoto},
	Doc: "A group for a name comes before a group for a longer name that contains it " +
		"(\"Googlebot\" before \"Googlebot-News\"). Google and RFC 9309 robots match the " +
		"exact token and pick the right group, but robots that take the first record " +
		"whose name is a substring of theirs (the 1996 draft, old CPython) use the " +
		"earlier group, and temoto/robotstxt matches by prefix. Put the more specific " +
		"group first.",
	Before: "User-agent: Googlebot\nDisallow: /a\n\nUser-agent: Googlebot-News\nDisallow: /b\n",
	After:  "User-agent: Googlebot-News\nDisallow: /b\n\nUser-agent: Googlebot\nDisallow: /a\n",
	Fix:    "FX18",
	Run: func(p *check.Pass) {
		type seenKey struct {
			key   string
			line  int
			group int
		}
		var earlier []seenKey // first line of each key, in file order
		known := map[string]bool{}
		for gi := range p.Groups {
			g := &p.Groups[gi]
			for _, i := range g.Agents {
				l := &p.Lines[i]
				y := l.Agent
				if y == "" || y == "*" {
					continue
				}
				seen := 0
				for _, x := range earlier {
					seen++
					if x.group < gi && x.key != y && strings.Contains(y, x.key) {
						xl := &p.Lines[x.line]
						p.ReportValue(l, "Robots that take the first group containing their name use %q (line %d) for %q",
							xl.ValueText[:len(x.key)], xl.Num, l.ValueText[:len(y)]).
							Relate(xl.Num, "the earlier group")
						break
					}
				}
				// Each agent is compared with the keys before it: a unit
				// for every few keys.
				if p.Spend(seen/pairsPerUnit + 1) {
					return
				}
			}
			// Keys join the list once their group is over, so that agents
			// of one group do not count as earlier than each other.
			for _, i := range g.Agents {
				l := &p.Lines[i]
				if l.Agent != "" && l.Agent != "*" && !known[l.Agent] {
					known[l.Agent] = true
					earlier = append(earlier, seenKey{l.Agent, i, gi})
				}
			}
		}
	},
}

var rb704 = &check.Check{
	Code: "RB704", Name: "wildcard-used", Title: "wildcard used",
	Severity: check.Info, Thorough: true, Affects: []check.Family{check.Strict1994, check.FirstMatch},
	Doc: "The pattern uses \"*\" inside it or \"$\" at its end. Google, Bing, Yandex " +
		"and RFC 9309 robots read them as wildcards, but they are not part of the 1994 " +
		"standard or the 1996 draft: strict robots and old CPython compare them " +
		"literally, and the rule matches nothing for them. Prefer plain prefixes where " +
		"they do the job.",
	Before: "User-agent: *\nDisallow: /*.pdf$\n",
	After:  "User-agent: *\nDisallow: /pdf/\n",
	Run: func(p *check.Pass) {
		p.EachRule(func(l *check.Line) {
			v := l.ValueText
			if len(v) > 2 && strings.Contains(v[1:len(v)-1], "*") || len(v) > 1 && strings.HasSuffix(v, "$") {
				p.ReportValue(l, `"*" and "$" are not part of the original standard`)
			}
		})
	},
}

// containing returns up to max known tokens that contain k, in their
// documented spelling, and how many there are.
func containing(k string, max int) ([]string, int) {
	var all []string
	for _, t := range tokens.Known() {
		if t != k && strings.Contains(t, k) {
			all = append(all, t)
		}
	}
	// Tokens that start with k first, then the shortest: the robots the
	// author most likely meant.
	sort.SliceStable(all, func(i, j int) bool {
		pi, pj := strings.HasPrefix(all[i], k), strings.HasPrefix(all[j], k)
		if pi != pj {
			return pi
		}
		return len(all[i]) < len(all[j])
	})
	var out []string
	for _, t := range all[:min(max, len(all))] {
		name, _ := tokens.Spelling(t)
		out = append(out, name)
	}
	return out, len(all)
}

var rb705 = &check.Check{
	Code: "RB705", Name: "partial-robot-name", Title: "User-agent is part of a real robot's name",
	Severity: check.Warning, Affects: []check.Family{check.FirstMatch, check.Temoto, check.Google, check.RFC},
	Doc: "The User-agent is not a robot's token but a piece of one (\"Google\", " +
		"\"bot\", \"msn\"). Google and RFC 9309 robots compare whole tokens, so the group " +
		"applies to no robot; robots that match substrings (old CPython, the 1996 " +
		"draft) or prefixes (temoto/robotstxt) apply it to every robot whose name " +
		"contains it. Write the exact token of each robot you mean.",
	Before: "User-agent: Google\nDisallow: /\n",
	After:  "User-agent: Googlebot\nDisallow: /\n",
	Run: func(p *check.Pass) {
		for i := range p.Lines {
			l := &p.Lines[i]
			k := l.Agent
			// Only values that are a bare token: anything else is RB410,
			// RB412 or RB413's.
			if l.Dir != check.UserAgent || k == "" || k == "*" || len(k) != len(l.ValueText) || tokens.IsKnown(k) {
				continue
			}
			letters := 0
			for j := 0; j < len(k); j++ {
				if k[j] >= 'a' && k[j] <= 'z' {
					letters++
				}
			}
			if letters < 3 {
				continue
			}
			if p.Spend(len(tokens.Known()) * knownUnits) {
				return
			}
			ex, n := containing(k, 3)
			if n == 0 {
				continue
			}
			list := strings.Join(ex, ", ")
			if n > len(ex) {
				list += fmt.Sprintf(" and %d more", n-len(ex))
			}
			p.ReportValue(l, "%q is not a robot token; only substring-matching robots apply it to %s", l.ValueText, list)
		}
	},
}

// literalLen is the length of a normalised value without its "*"
// and its final "$".
func literalLen(v string) int {
	return len(strings.TrimSuffix(v, "$")) - strings.Count(strings.TrimSuffix(v, "$"), "*")
}

// knownUnits is the units of work (check.Pass.Spend) of comparing an
// agent name with one known token (containing).
const knownUnits = 8

// pairsPerUnit is how many of the rule pairs RB706 compares make a unit
// of work (check.Pass.Spend), those it must look into (overlap) aside.
const pairsPerUnit = 4

// overlapUnits is the units of work (check.Pass.Spend) of one call of
// overlap: some twenty matches, and the crossings built.
const overlapUnits = 150

// pairBudget bounds the rule pairs RB706 compares in one group.
const pairBudget = 1_000_000

var rb706 = &check.Check{
	Code: "RB706", Name: "wildcard-precedence", Title: "wildcard precedence depends on how length is counted",
	Severity: check.Info, Affects: []check.Family{check.Yandex, check.RFC},
	Doc: "An Allow and a Disallow, one of them with \"*\", both match some URL, and " +
		"which one wins depends on whether \"*\" counts toward a rule's length. Google " +
		"and RFC 9309 count every octet of the pattern; Yandex documents only \"prefix " +
		"length\", and some parsers count literal characters. Make the intended rule " +
		"clearly longer, or avoid the overlap.",
	Before: "User-agent: *\nDisallow: /*.pdf\nAllow: /docs\n",
	After:  "User-agent: *\nDisallow: /*.pdf\nAllow: /docs/\n",
	Run: func(p *check.Pass) {
		var buf []byte
		for gi := range p.Groups {
			g := &p.Groups[gi]
			rules := make([]eval.Rule, len(g.Rules))
			wild := 0
			for k, i := range g.Rules {
				rules[k] = eval.RuleAt(p, i)
				if rules[k].Kind == eval.Wild {
					wild++
				}
			}
			if wild == 0 || wild*len(rules) > pairBudget {
				continue
			}
			cands := make([][]string, len(rules)) // eval.AppendCandidates, when first needed
			candsOf := func(k int) []string {
				if cands[k] == nil {
					cands[k] = eval.AppendCandidates(&p.Arena, nil, rules[k].Val)
				}
				return cands[k]
			}
			for x := range rules {
				// A unit for each pair the row compares, and more for
				// those whose candidates it matches (overlap).
				if p.Spend((len(rules)-x)/pairsPerUnit + 1) {
					return
				}
				for y := x + 1; y < len(rules); y++ {
					a, b := &rules[x], &rules[y]
					if a.Allow == b.Allow || a.Val == "" || b.Val == "" || a.Kind != eval.Wild && b.Kind != eval.Wild {
						continue
					}
					al, dl := a, b
					if !al.Allow {
						al, dl = b, a
					}
					octet := len(al.Val) >= len(dl.Val)
					literal := literalLen(al.Val) >= literalLen(dl.Val)
					if octet == literal {
						continue
					}
					if p.Spend(overlapUnits) {
						return
					}
					if !overlap(a, b, candsOf(x), candsOf(y), &buf) {
						continue
					}
					later := &p.Lines[b.Line]
					p.Report(later, "Precedence between line %d and line %d depends on whether \"*\" counts toward rule length", a.Line+1, b.Line+1).
						Relate(a.Line+1, "the other rule")
				}
			}
		}
	},
}

// overlap reports whether some candidate URL matches both a and b:
// the candidates of each value (eval.AppendCandidates; ca and cb), and each
// value's literal text followed by what the other value has after its
// first "*" ("/docs" and "/*.pdf" give "/docs.pdf"), as eval.AppendCross
// makes them. Those are built in *buf, which it reuses: RB706 asks about
// every pair of a group's rules, and a string per pair would make the
// check's garbage grow with the square of the group.
func overlap(a, b *eval.Rule, ca, cb []string, buf *[]byte) bool {
	for _, cs := range [2][]string{ca, cb} {
		for _, u := range cs {
			if a.Matches(u) && b.Matches(u) {
				return true
			}
		}
	}
	for _, xy := range [2][2]*eval.Rule{{a, b}, {b, a}} {
		x, y := xy[0], xy[1]
		i := strings.IndexByte(y.Val, '*')
		if i < 0 || x.Val == "" {
			continue
		}
		lx := appendLiteral((*buf)[:0], x.Val)
		if len(lx) == 0 || lx[0] != '/' {
			continue
		}
		// lx+ty, lx+ty+marker and lx+marker+ty (eval.AppendCross's
		// candidates), one after the other in buf.
		n := len(lx)
		b1 := appendLiteral(lx, y.Val[i:])
		t := len(b1) - n // the length of ty
		b1 = append(b1, eval.Marker...)
		b1 = append(b1, b1[:n]...)
		b1 = append(b1, eval.Marker...)
		b1 = append(b1, b1[n:n+t]...)
		*buf = b1
		m := len(eval.Marker)
		all := unsafe.String(unsafe.SliceData(b1), len(b1))
		u1, u2, u3 := all[:n+t], all[:n+t+m], all[n+t+m:]
		for _, u := range [3]string{u1, u2, u3} {
			if a.Matches(u) && b.Matches(u) {
				return true
			}
		}
	}
	return false
}

// appendLiteral appends to buf the normalised value v without its final
// "$" and its "*", as eval builds it for its candidates.
func appendLiteral(buf []byte, v string) []byte {
	v = strings.TrimSuffix(v, "$")
	for i := 0; i < len(v); i++ {
		if v[i] != '*' {
			buf = append(buf, v[i])
		}
	}
	return buf
}

var rb707 = &check.Check{
	Code: "RB707", Name: "bing-star-crawl-delay", Title: "Bing keeps the `*` Crawl-delay",
	Severity: check.Info, Affects: []check.Family{check.Bing},
	Doc: "The \"*\" group sets a Crawl-delay and Bing's own group sets none. A robot " +
		"with its own group normally ignores the \"*\" group entirely, but Bingbot still " +
		"honours the \"*\" Crawl-delay. Give the Bing group its own Crawl-delay line so " +
		"that the file says what Bing does.",
	Before: "User-agent: *\nCrawl-delay: 10\nDisallow: /tmp\n\nUser-agent: bingbot\nDisallow: /private\n",
	After:  "User-agent: *\nCrawl-delay: 10\nDisallow: /tmp\n\nUser-agent: bingbot\nCrawl-delay: 10\nDisallow: /private\n",
	Run: func(p *check.Pass) {
		delay := ""
		for gi := range p.Groups {
			g := &p.Groups[gi]
			if !g.Global || delay != "" {
				continue
			}
			for _, i := range g.Members {
				if l := &p.Lines[i]; l.Dir == check.CrawlDelay {
					delay = l.ValueText
					break
				}
			}
		}
		if delay == "" {
			return
		}
		for _, key := range []string{"bingbot", "msnbot"} {
			first, has := -1, false
			for gi := range p.Groups {
				g := &p.Groups[gi]
				named := false
				for _, i := range g.Agents {
					if p.Lines[i].Agent == key {
						named = true
						if first < 0 {
							first = i
						}
					}
				}
				if !named {
					continue
				}
				for _, i := range g.Members {
					has = has || p.Lines[i].Dir == check.CrawlDelay
				}
			}
			if first >= 0 && !has {
				p.ReportValue(&p.Lines[first], "Bingbot still applies the * Crawl-delay (%s); other robots with their own group do not", delay)
			}
		}
	},
}
