package lint

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"unsafe"

	"github.com/robotskit/robots/agents"
)

// Checks of what different robot families read differently in the same
// file (RB7xx). The rule checks compare two evaluators
// over each canonical group's rules (rules_util.go): LM, longest match as
// Google, Bing, Yandex and RFC 9309 robots decide, and FM, the first
// matching rule in file order, as the 1996 draft and old parsers do.
var crossChecks = []*Check{rb701, rb702, rb703, rb704, rb705, rb706, rb707}

var rb701 = &Check{
	Code: "RB701", Name: "order-dependent-rules", Title: "result depends on rule order (first match vs longest match)",
	Severity: Warning, Affects: []Family{FM},
	Doc: "For some URL, robots that apply the first matching rule (the 1996 draft, " +
		"Baidu as documented, old CPython) reach the opposite verdict from robots that " +
		"apply the longest match (Google, Bing, Yandex, RFC 9309). In \"Disallow: /shop\" " +
		"then \"Allow: /shop/sale\", /shop/sale/1 is allowed by the latter and blocked " +
		"by the former. Put longer rules first (the fixer sorts the group by " +
		"specificity), and both kinds of robot agree.",
	Before: "User-agent: *\nDisallow: /shop\nAllow: /shop/sale\n",
	After:  "User-agent: *\nAllow: /shop/sale\nDisallow: /shop\n",
	Fix:    "FX30",
	run: func(p *pass) {
		for gi := range p.groups {
			rb701Group(p, &p.groups[gi])
		}
	},
}

// rb701Group reports the rules of group g on which FM and LM disagree.
func rb701Group(p *pass, g *group) {
	if len(g.rules) < 2 {
		return
	}
	// FM and LM can only disagree when both kinds of rule are present and
	// the rules are not in specificity order already.
	kinds := [2]bool{}
	for _, i := range g.rules {
		kinds[b2i(p.lines[i].is(dAllow))] = true
	}
	if !kinds[0] || !kinds[1] {
		return
	}
	if st, _ := rulesSortOf(p, g); st == rulesSorted {
		return
	}
	s := rulesGroupSet(p, g)
	cands := rulesCandidates(&p.arena, s.rules)
	if !rulesAffordable(s, len(cands)) {
		return
	}
	// Each pair of rules on which FM and LM disagree, in the order the
	// candidates first show it, with the plainest URL that shows it.
	type pair struct{ lm, fm int }
	url := map[pair]string{}
	var pairs []pair
	for _, u := range cands {
		lm, fm := s.lmfm(u)
		if lm < 0 || fm < 0 || lm == fm {
			continue
		}
		a, b := &s.rules[lm], &s.rules[fm]
		if a.allow == b.allow || a.val == b.val {
			continue // same verdict, or RB507's identical values
		}
		k := pair{lm, fm}
		if v, ok := url[k]; !ok {
			pairs = append(pairs, k)
			url[k] = u
		} else if crossPlainer(u, v) {
			url[k] = u
		}
	}
	var sortEdit *Edit
	for _, k := range pairs {
		a, b := &s.rules[k.lm], &s.rules[k.fm]
		l, f := &p.lines[a.line], &p.lines[b.line]
		// LM's rule is the longer one, or as long and an Allow; FM's comes
		// first in the file.
		which := "the longer rule"
		if len(a.val) == len(b.val) {
			which = "the Allow rule, as long as the other,"
		}
		d := p.report(l, "For %s, Google, Bing, Yandex and RFC 9309 robots use %s on line %d (%s); first-match robots use line %d (%s). Put line %d first if those robots matter to you",
			url[k], which, l.num, crossVerdict(a.allow), f.num, crossVerdict(b.allow), l.num).
			related(f.num, "first-match robots apply this rule")
		if sortEdit == nil {
			if e, ok := rulesSortEdit(p, g); ok {
				sortEdit = &e
			} else {
				sortEdit = &Edit{Start: -1}
			}
		}
		if sortEdit.Start >= 0 {
			d.suggest("FX30", PreservingGoogle, "sort the group's rules by specificity", *sortEdit)
		}
	}
}

// crossPlainer reports whether the candidate URL u reads more plainly in
// a message than v: without the marker that stands for "*" or an empty
// segment, then shorter.
func crossPlainer(u, v string) bool {
	odd := func(s string) bool { return strings.Contains(s, rulesMarker) || strings.Contains(s, "//") }
	if odd(u) != odd(v) {
		return !odd(u)
	}
	return len(u) < len(v)
}

// crossVerdict names the verdict of an Allow (allow set) or a Disallow.
func crossVerdict(allow bool) string {
	if allow {
		return "allowed"
	}
	return "disallowed"
}

// crossPlain reports whether the normalised value v has no wildcard.
func crossPlain(v string) bool { return !strings.ContainsAny(v, "*$") }

var rb702 = &Check{
	Code: "RB702", Name: "allow-exception", Title: "exception needs Allow",
	Severity: Info, Thorough: true, Affects: []Family{S94},
	Doc: "An Allow carves an exception out of an area a shorter Disallow blocks. " +
		"Robots of the 1994 standard do not know Allow, so for them the exception stays " +
		"blocked; everyone else fetches it. This errs on the safe side (the 1996 draft " +
		"accepted it), but if the exception matters to those robots, restructure the " +
		"Disallow rules so that they do not cover it.",
	Before: "User-agent: *\nDisallow: /docs\nAllow: /docs/public\n",
	After:  "User-agent: *\nDisallow: /docs/private\n",
	run: func(p *pass) {
		for gi := range p.groups {
			g := &p.groups[gi]
			blocked := map[string]bool{}
			for _, i := range g.rules {
				l := &p.lines[i]
				if n := rulesNorm(l.value); l.is(dDisallow) && n != "" && crossPlain(n) {
					blocked[n] = true
				}
			}
			if len(blocked) == 0 {
				continue
			}
			for _, i := range g.rules {
				l := &p.lines[i]
				n := rulesNorm(l.value)
				if !l.is(dAllow) || !crossPlain(n) {
					continue
				}
				for k := 1; k < len(n); k++ {
					if blocked[n[:k]] {
						p.reportValue(l, "Robots that don't know Allow keep %q blocked", l.value)
						break
					}
				}
			}
		}
	},
}

var rb703 = &Check{
	Code: "RB703", Name: "substring-group-order", Title: "group order matters for substring user-agent matching",
	Severity: Warning, Affects: []Family{FM, GOT},
	Doc: "A group for a name comes before a group for a longer name that contains it " +
		"(\"Googlebot\" before \"Googlebot-News\"). Google and RFC 9309 robots match the " +
		"exact token and pick the right group, but robots that take the first record " +
		"whose name is a substring of theirs (the 1996 draft, old CPython) use the " +
		"earlier group, and temoto/robotstxt matches by prefix. Put the more specific " +
		"group first.",
	Before: "User-agent: Googlebot\nDisallow: /a\n\nUser-agent: Googlebot-News\nDisallow: /b\n",
	After:  "User-agent: Googlebot-News\nDisallow: /b\n\nUser-agent: Googlebot\nDisallow: /a\n",
	Fix:    "FX18",
	run: func(p *pass) {
		type seenKey struct {
			key   string
			line  int
			group int
		}
		var earlier []seenKey // first line of each key, in file order
		known := map[string]bool{}
		for gi := range p.groups {
			g := &p.groups[gi]
			for _, i := range g.agents {
				l := &p.lines[i]
				y := l.agent
				if y == "" || y == "*" {
					continue
				}
				for _, x := range earlier {
					if x.group < gi && x.key != y && strings.Contains(y, x.key) {
						xl := &p.lines[x.line]
						p.reportValue(l, "Robots that take the first group containing their name use %q (line %d) for %q",
							xl.value[:len(x.key)], xl.num, l.value[:len(y)]).
							related(xl.num, "the earlier group")
						break
					}
				}
			}
			// Keys join the list once their group is over, so that agents
			// of one group do not count as earlier than each other.
			for _, i := range g.agents {
				l := &p.lines[i]
				if l.agent != "" && l.agent != "*" && !known[l.agent] {
					known[l.agent] = true
					earlier = append(earlier, seenKey{l.agent, i, gi})
				}
			}
		}
	},
}

var rb704 = &Check{
	Code: "RB704", Name: "wildcard-used", Title: "wildcard used",
	Severity: Info, Thorough: true, Affects: []Family{S94, FM},
	Doc: "The pattern uses \"*\" inside it or \"$\" at its end. Google, Bing, Yandex " +
		"and RFC 9309 robots read them as wildcards, but they are not part of the 1994 " +
		"standard or the 1996 draft: strict robots and old CPython compare them " +
		"literally, and the rule matches nothing for them. Prefer plain prefixes where " +
		"they do the job.",
	Before: "User-agent: *\nDisallow: /*.pdf$\n",
	After:  "User-agent: *\nDisallow: /pdf/\n",
	run: func(p *pass) {
		rulesEach(p, func(l *line) {
			v := l.value
			if len(v) > 2 && strings.Contains(v[1:len(v)-1], "*") || len(v) > 1 && strings.HasSuffix(v, "$") {
				p.reportValue(l, `"*" and "$" are not part of the original standard`)
			}
		})
	},
}

// crossTokenNames maps each known token, lower-cased, to its documented
// spelling.
var crossTokenNames = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, r := range agents.All() {
		m[strings.ToLower(r.Token)] = r.Token
	}
	for _, t := range specTokens {
		m[strings.ToLower(t)] = t
	}
	return m
})

// crossContaining returns up to max known tokens that contain k, in their
// documented spelling, and how many there are.
func crossContaining(k string, max int) ([]string, int) {
	var all []string
	for _, t := range knownTokens() {
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
		out = append(out, crossTokenNames()[t])
	}
	return out, len(all)
}

var rb705 = &Check{
	Code: "RB705", Name: "partial-robot-name", Title: "User-agent is part of a real robot's name",
	Severity: Warning, Affects: []Family{FM, GOT, GOOG, RFC},
	Doc: "The User-agent is not a robot's token but a piece of one (\"Google\", " +
		"\"bot\", \"msn\"). Google and RFC 9309 robots compare whole tokens, so the group " +
		"applies to no robot; robots that match substrings (old CPython, the 1996 " +
		"draft) or prefixes (temoto/robotstxt) apply it to every robot whose name " +
		"contains it. Write the exact token of each robot you mean.",
	Before: "User-agent: Google\nDisallow: /\n",
	After:  "User-agent: Googlebot\nDisallow: /\n",
	run: func(p *pass) {
		for i := range p.lines {
			l := &p.lines[i]
			k := l.agent
			// Only values that are a bare token: anything else is RB410,
			// RB412 or RB413's.
			if !l.is(dUserAgent) || k == "" || k == "*" || len(k) != len(l.value) || isKnownToken(k) {
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
			ex, n := crossContaining(k, 3)
			if n == 0 {
				continue
			}
			list := strings.Join(ex, ", ")
			if n > len(ex) {
				list += fmt.Sprintf(" and %d more", n-len(ex))
			}
			p.reportValue(l, "%q is not a robot token; only substring-matching robots apply it to %s", l.value, list)
		}
	},
}

// crossLiteralLen is the length of a normalised value without its "*"
// and its final "$".
func crossLiteralLen(v string) int {
	return len(strings.TrimSuffix(v, "$")) - strings.Count(strings.TrimSuffix(v, "$"), "*")
}

// crossPairBudget bounds the rule pairs RB706 compares in one group.
const crossPairBudget = 1_000_000

var rb706 = &Check{
	Code: "RB706", Name: "wildcard-precedence", Title: "wildcard precedence depends on how length is counted",
	Severity: Info, Affects: []Family{YNDX, RFC},
	Doc: "An Allow and a Disallow, one of them with \"*\", both match some URL, and " +
		"which one wins depends on whether \"*\" counts toward a rule's length. Google " +
		"and RFC 9309 count every octet of the pattern; Yandex documents only \"prefix " +
		"length\", and some parsers count literal characters. Make the intended rule " +
		"clearly longer, or avoid the overlap.",
	Before: "User-agent: *\nDisallow: /*.pdf\nAllow: /docs\n",
	After:  "User-agent: *\nDisallow: /*.pdf\nAllow: /docs/\n",
	run: func(p *pass) {
		var buf []byte
		for gi := range p.groups {
			g := &p.groups[gi]
			rules := make([]rulesRule, len(g.rules))
			wild := 0
			for k, i := range g.rules {
				rules[k] = rulesMake(p, i)
				if rules[k].kind == rulesWild {
					wild++
				}
			}
			if wild == 0 || wild*len(rules) > crossPairBudget {
				continue
			}
			cands := make([][]string, len(rules)) // rulesCandidatesOf, when first needed
			candsOf := func(k int) []string {
				if cands[k] == nil {
					cands[k] = rulesCandidatesOf(&p.arena, nil, rules[k].val)
				}
				return cands[k]
			}
			for x := range rules {
				for y := x + 1; y < len(rules); y++ {
					a, b := &rules[x], &rules[y]
					if a.allow == b.allow || a.val == "" || b.val == "" || a.kind != rulesWild && b.kind != rulesWild {
						continue
					}
					al, dl := a, b
					if !al.allow {
						al, dl = b, a
					}
					octet := len(al.val) >= len(dl.val)
					literal := crossLiteralLen(al.val) >= crossLiteralLen(dl.val)
					if octet == literal || !crossOverlap(a, b, candsOf(x), candsOf(y), &buf) {
						continue
					}
					later := &p.lines[b.line]
					p.report(later, "Precedence between line %d and line %d depends on whether \"*\" counts toward rule length", a.line+1, b.line+1).
						related(a.line+1, "the other rule")
				}
			}
		}
	},
}

// crossOverlap reports whether some candidate URL matches both a and b:
// the candidates of each value (rulesCandidatesOf; ca and cb), and each
// value's literal text followed by what the other value has after its
// first "*" ("/docs" and "/*.pdf" give "/docs.pdf"), as rulesAppendCross
// makes them. Those are built in *buf, which it reuses: RB706 asks about
// every pair of a group's rules, and a string per pair would make the
// check's garbage grow with the square of the group.
func crossOverlap(a, b *rulesRule, ca, cb []string, buf *[]byte) bool {
	for _, cs := range [2][]string{ca, cb} {
		for _, u := range cs {
			if a.matches(u) && b.matches(u) {
				return true
			}
		}
	}
	for _, xy := range [2][2]*rulesRule{{a, b}, {b, a}} {
		x, y := xy[0], xy[1]
		i := strings.IndexByte(y.val, '*')
		if i < 0 || x.val == "" {
			continue
		}
		lx := appendLiteral((*buf)[:0], x.val)
		if len(lx) == 0 || lx[0] != '/' {
			continue
		}
		// lx+ty, lx+ty+marker and lx+marker+ty (rulesAppendCross's
		// candidates), one after the other in buf.
		n := len(lx)
		b1 := appendLiteral(lx, y.val[i:])
		t := len(b1) - n // the length of ty
		b1 = append(b1, rulesMarker...)
		b1 = append(b1, b1[:n]...)
		b1 = append(b1, rulesMarker...)
		b1 = append(b1, b1[n:n+t]...)
		*buf = b1
		m := len(rulesMarker)
		all := unsafe.String(unsafe.SliceData(b1), len(b1))
		u1, u2, u3 := all[:n+t], all[:n+t+m], all[n+t+m:]
		for _, u := range [3]string{u1, u2, u3} {
			if a.matches(u) && b.matches(u) {
				return true
			}
		}
	}
	return false
}

// appendLiteral appends to buf the normalised value v without its final
// "$" and its "*": rulesLiteral(v).
func appendLiteral(buf []byte, v string) []byte {
	v = strings.TrimSuffix(v, "$")
	for i := 0; i < len(v); i++ {
		if v[i] != '*' {
			buf = append(buf, v[i])
		}
	}
	return buf
}

var rb707 = &Check{
	Code: "RB707", Name: "bing-star-crawl-delay", Title: "Bing keeps the `*` Crawl-delay",
	Severity: Info, Affects: []Family{BING},
	Doc: "The \"*\" group sets a Crawl-delay and Bing's own group sets none. A robot " +
		"with its own group normally ignores the \"*\" group entirely, but Bingbot still " +
		"honours the \"*\" Crawl-delay. Give the Bing group its own Crawl-delay line so " +
		"that the file says what Bing does.",
	Before: "User-agent: *\nCrawl-delay: 10\nDisallow: /tmp\n\nUser-agent: bingbot\nDisallow: /private\n",
	After:  "User-agent: *\nCrawl-delay: 10\nDisallow: /tmp\n\nUser-agent: bingbot\nCrawl-delay: 10\nDisallow: /private\n",
	run: func(p *pass) {
		delay := ""
		for gi := range p.groups {
			g := &p.groups[gi]
			if !g.global || delay != "" {
				continue
			}
			for _, i := range g.members {
				if l := &p.lines[i]; l.is(dCrawlDelay) {
					delay = l.value
					break
				}
			}
		}
		if delay == "" {
			return
		}
		for _, key := range []string{"bingbot", "msnbot"} {
			first, has := -1, false
			for gi := range p.groups {
				g := &p.groups[gi]
				named := false
				for _, i := range g.agents {
					if p.lines[i].agent == key {
						named = true
						if first < 0 {
							first = i
						}
					}
				}
				if !named {
					continue
				}
				for _, i := range g.members {
					has = has || p.lines[i].is(dCrawlDelay)
				}
			}
			if first >= 0 && !has {
				p.reportValue(&p.lines[first], "Bingbot still applies the * Crawl-delay (%s); other robots with their own group do not", delay)
			}
		}
	},
}
