package lint

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Checks of Allow and Disallow rules (RB5xx). The
// value checks read every Allow and Disallow line, orphans included; the
// relational ones read each canonical group's rules, their values
// compared after Google's normalisation (non-ASCII percent-encoded,
// %xx upper-cased).
var ruleChecks = []*Check{
	rb501, rb502, rb503, rb504, rb505, rb506, rb507, rb508, rb509, rb510, rb511,
	rb512, rb513, rb514, rb515, rb516, rb517, rb518, rb519, rb520, rb521, rb522, rb523,
}

// rulesEach calls fn for every Allow and Disallow line, until the run
// stops (pass.stopped): several checks compare each rule with the others.
func rulesEach(p *pass, fn func(l *line)) {
	for i := range p.lines {
		if l := &p.lines[i]; l.dir.rule() {
			if p.stopped() {
				return
			}
			fn(l)
		}
	}
}

// rulesValueEdit is the edit that replaces line l's value with v.
func rulesValueEdit(l *line, v string) Edit {
	return Edit{Start: l.Value.Start.Offset, End: l.Value.End.Offset, New: v}
}

var rb501 = &Check{
	Code: "RB501", Name: "path-without-slash", Title: `path does not start with "/"`,
	Severity: Error, Affects: []Family{GOOG, YNDX, RFC, GOT},
	Doc: "A rule's path starts with neither \"/\" nor \"*\". Google matches patterns " +
		"from the first octet of the URL path, which is always \"/\", so the rule never " +
		"matches; Yandex reports an error; temoto/robotstxt silently adds the \"/\", so " +
		"only its users obey the rule. Write the path from the root: \"/admin/\", or " +
		"only the path of a full URL of the site.",
	Before: "User-agent: *\nDisallow: admin/\n",
	After:  "User-agent: *\nDisallow: /admin/\n",
	Fix:    "FX25",
	run: func(p *pass) {
		rulesEach(p, func(l *line) {
			v := strings.TrimLeftFunc(l.value, rulesInvisible)
			if v == "" || v[0] == '/' || v[0] == '*' {
				// Empty, fine, or fine once the invisible characters
				// RB212 reports are gone.
				return
			}
			d := p.reportValue(l, "Rule path %q does not start with \"/\"; Google never matches it", l.value)
			if host, path, ok := rulesSplitURL(l.value); ok {
				if base := rulesHost(p.cfg.URL); base != "" && !strings.EqualFold(host, base) {
					d.suggest("FX25", Intent, "comment out the rule for another host", commentOut(l))
					return
				}
				d.suggest("FX25", Intent, "keep only the path of the URL", rulesValueEdit(l, path))
				return
			}
			d.suggest("FX25", Intent, "write the path from the root",
				Edit{Start: l.Value.Start.Offset, End: l.Value.Start.Offset, New: "/"})
		})
	},
}

// rulesSplitURL splits an absolute http or https URL into its host (without user information or port) and its path with any
// query ("/" when it has none). ok is false for anything else.
func rulesSplitURL(v string) (host, path string, ok bool) {
	rest := ""
	lower := strings.ToLower(v)
	switch {
	case strings.HasPrefix(lower, "http://"):
		rest = v[len("http://"):]
	case strings.HasPrefix(lower, "https://"):
		rest = v[len("https://"):]
	default:
		return "", "", false
	}
	auth, path := rest, "/"
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		auth, path = rest[:i], rest[i:]
		if path[0] == '?' {
			path = "/" + path
		}
	}
	if i := strings.LastIndexByte(auth, '@'); i >= 0 {
		auth = auth[i+1:]
	}
	if i := strings.LastIndexByte(auth, ':'); i >= 0 && !strings.Contains(auth[i:], "]") {
		auth = auth[:i]
	}
	if auth == "" {
		return "", "", false
	}
	return auth, path, true
}

// rulesHost returns the host of the robots.txt URL u, "" when there is
// none.
func rulesHost(u string) string {
	if h, _, ok := rulesSplitURL(u); ok {
		return h
	}
	return ""
}

// rulesInvisible reports whether r is one of the invisible or non-ASCII
// white-space characters of RB212.
func rulesInvisible(r rune) bool {
	switch {
	case r == 0xA0, r == 0x1680, r >= 0x2000 && r <= 0x200D, r == 0x202F,
		r == 0x205F, r == 0x2060, r == 0x3000, r == 0xFEFF:
		return true
	}
	return false
}

var rb502 = &Check{
	Code: "RB502", Name: "path-starts-with-star", Title: `path starts with "*"`,
	Severity: Warning, Affects: []Family{S94, FM},
	Doc: "The rule's path begins with \"*\". Google, Bing, Yandex and other RFC 9309 " +
		"robots read it as \"any prefix\", so \"Disallow: *\" blocks the whole site, but " +
		"robots without wildcards (the 1994 standard, first-match parsers) compare it " +
		"literally and it matches nothing; RFC 9309's grammar wants patterns to start " +
		"with \"/\". Start the path with \"/\": \"/*.pdf$\", or \"/\" for \"*\".",
	Before: "User-agent: *\nDisallow: *.pdf$\n",
	After:  "User-agent: *\nDisallow: /*.pdf$\n",
	Fix:    "FX24",
	run: func(p *pass) {
		gd := rulesNewGuard(p)
		rulesEach(p, func(l *line) {
			if !strings.HasPrefix(l.value, "*") {
				return
			}
			d := p.reportValue(l, `Rule starts with "*"; robots without wildcards never match it`)
			nv := "/" + l.value
			if strings.Trim(l.value, "*") == "" {
				nv = "/" // "*" and "/" match the same paths with the same length
			}
			class := Preserving
			if !gd.keepsLM(l.num-1, nv, false, !strings.HasPrefix(strings.TrimLeft(l.value, "*"), "/")) {
				// The extra octet wins a tie the old pattern lost.
				class = Intent
			}
			d.suggest("FX24", class, "start the pattern with \"/\"", rulesValueEdit(l, nv))
		})
	},
}

var rb503 = &Check{
	Code: "RB503", Name: "empty-allow", Title: "empty Allow",
	Severity: Warning, Affects: []Family{YNDX, CC, FM},
	Doc: "An Allow line has no path. Google, RFC 9309 robots and Yandex today ignore " +
		"it, but Yandex once read it as \"Disallow: /\", legacy crawler-commons cleared " +
		"the rules collected before it, and old CPython made it a rule matching every " +
		"URL, so that first-match robots allow everything after it. Remove the line.",
	Before: "User-agent: *\nAllow:\nDisallow: /private\n",
	After:  "User-agent: *\nDisallow: /private\n",
	Fix:    "FX19",
	run: func(p *pass) {
		rulesEach(p, func(l *line) {
			if !l.is(dAllow) || l.value != "" {
				return
			}
			p.report(l, `"Allow:" without a path is ignored by most robots — and has meant "block everything" to some`).
				suggest("FX19", Preserving, "remove the empty Allow", rulesDrop(p, l))
		})
	},
}

var rb504 = &Check{
	Code: "RB504", Name: "empty-disallow-among-rules", Title: "empty Disallow mixed with other rules",
	Severity: Warning, Affects: []Family{FM, CC},
	Doc: "A group has an empty \"Disallow:\" (allow everything) next to real rules. " +
		"Google and RFC 9309 robots ignore it, but old CPython turns it into an " +
		"allow-everything rule — first in the group, no later rule ever applies — and " +
		"legacy crawler-commons dropped the rules before it. Remove the empty line; " +
		"\"Disallow:\" alone is only right in a group with no other rule.",
	Before: "User-agent: *\nDisallow:\nDisallow: /private\n",
	After:  "User-agent: *\nDisallow: /private\n",
	Fix:    "FX20",
	run: func(p *pass) {
		for gi := range p.groups {
			g := &p.groups[gi]
			other := false
			for _, i := range g.rules {
				other = other || p.lines[i].value != ""
			}
			if !other {
				continue
			}
			for _, i := range g.rules {
				if l := &p.lines[i]; l.is(dDisallow) && l.value == "" {
					p.report(l, `"Disallow:" (allow everything) next to other rules; some robots let it override them`).
						suggest("FX20", PreservingGoogle, "remove the empty Disallow", rulesDrop(p, l))
				}
			}
		}
	},
}

// rulesAllowRoot reports whether l is "Allow: /".
func rulesAllowRoot(l *line) bool { return l.is(dAllow) && l.value == "/" }

var rb505 = &Check{
	Code: "RB505", Name: "lone-allow-root", Title: "`Allow: /` as the only rule",
	Severity: Info, Affects: []Family{S94},
	Doc: "The group allows \"/\" and disallows nothing. Everything may be crawled by " +
		"default, so the line says nothing, and robots of the 1994 standard do not know " +
		"Allow at all. Write \"Disallow:\" (with no path), which every robot reads as " +
		"\"fetch anything\".",
	Before: "User-agent: *\nAllow: /\n",
	After:  "User-agent: *\nDisallow:\n",
	Fix:    "FX21",
	run: func(p *pass) {
		gd := rulesNewGuard(p)
		for gi := range p.groups {
			g := &p.groups[gi]
			root := -1
			blocks := false
			for _, i := range g.rules {
				l := &p.lines[i]
				if rulesAllowRoot(l) && root < 0 {
					root = i
				}
				blocks = blocks || l.is(dDisallow) && l.value != ""
			}
			if root < 0 || blocks {
				continue
			}
			l := &p.lines[root]
			nl := "Disallow:"
			if l.Comment.IsValid() {
				nl += " " + p.src[l.Comment.Start.Offset:l.Comment.End.Offset]
			}
			d := p.report(l, `"Allow: /" alone is the same as "Disallow:", which every robot understands`)
			// Another group of the same robot may hold a "Disallow: /" that
			// this Allow wins a tie against (RFC 9309 merges the groups).
			if gd.keepsLM(root, "", true, false) {
				d.suggest("FX21", Preserving, "write \"Disallow:\" instead", replaceLine(l, nl))
			}
		}
	},
}

var rb506 = &Check{
	Code: "RB506", Name: "allow-root-with-disallows", Title: "`Allow: /` next to Disallow rules",
	Severity: Warning, Affects: []Family{FM},
	Doc: "The group has \"Allow: /\" and Disallow rules. For Google and RFC 9309 robots " +
		"the one-octet \"/\" loses to every longer Disallow, so it does nothing; " +
		"first-match robots apply whichever comes first, and with \"Allow: /\" first the " +
		"whole site is open to them. Remove \"Allow: /\".",
	Before: "User-agent: *\nAllow: /\nDisallow: /private\n",
	After:  "User-agent: *\nDisallow: /private\n",
	Fix:    "FX22",
	run: func(p *pass) {
		gd := rulesNewGuard(p)
		for gi := range p.groups {
			g := &p.groups[gi]
			longer, short := false, false
			for _, i := range g.rules {
				l := &p.lines[i]
				if !l.is(dDisallow) {
					continue
				}
				n := rulesNorm(l.value)
				longer = longer || len(n) > 1
				short = short || n == "/" || n == "*"
			}
			if !longer {
				continue
			}
			for _, i := range g.rules {
				l := &p.lines[i]
				if !rulesAllowRoot(l) {
					continue
				}
				d := p.report(l, `"Allow: /" matches every URL: first-match robots ignore the Disallow rules after it`)
				// With a one-octet Disallow the "/" wins a tie (RB507):
				// removing it would block the site.
				if !short && gd.keepsLM(i, "", true, false) {
					d.suggest("FX22", PreservingGoogle, "remove \"Allow: /\"", rulesDrop(p, l))
				}
			}
		}
	},
}

var rb507 = &Check{
	Code: "RB507", Name: "allowed-and-disallowed", Title: "same path allowed and disallowed",
	Severity: Warning, Affects: []Family{FM, S94, GOT},
	Doc: "The same path is both allowed and disallowed in one group. Google, Bing, " +
		"Yandex and RFC 9309 robots let the Allow win the tie; first-match robots and " +
		"temoto/robotstxt apply whichever comes first; robots of the 1994 standard know " +
		"only the Disallow. Keep the rule you mean — the fix keeps the Allow, which is " +
		"what Google does.",
	Before: "User-agent: *\nDisallow: /photos\nAllow: /photos\n",
	After:  "User-agent: *\nAllow: /photos\n",
	Fix:    "FX23",
	run: func(p *pass) {
		for gi := range p.groups {
			g := &p.groups[gi]
			allowed := map[string]int{}
			for _, i := range g.rules {
				l := &p.lines[i]
				if n := rulesNorm(l.value); l.is(dAllow) && n != "" {
					if _, ok := allowed[n]; !ok {
						allowed[n] = i
					}
				}
			}
			for _, i := range g.rules {
				l := &p.lines[i]
				a, ok := allowed[rulesNorm(l.value)]
				if !l.is(dDisallow) || !ok {
					continue
				}
				if p.lines[a].match != keyExact && l.match == keyExact {
					continue // RFC 9309 robots do not read that Allow
				}
				p.reportValue(l, "%q is both allowed (line %d) and disallowed; robots disagree on which wins", l.value, a+1).
					related(a+1, "allowed here").
					suggest("FX23", PreservingGoogle, "remove the Disallow, as Google ignores it", rulesDrop(p, l))
			}
		}
	},
}

var rb508 = &Check{
	Code: "RB508", Name: "dollar-not-at-end", Title: `"$" not at the end`,
	Severity: Warning, Affects: []Family{GOOG, RFC},
	Doc: "A \"$\" means \"end of URL\" only as the last character of a pattern; " +
		"anywhere else Google compares it literally, and recent CPython drops the rule. " +
		"It is most often a typo. Move the \"$\" to the end, or encode a literal dollar " +
		"as \"%24\".",
	Before: "User-agent: *\nDisallow: /*.php$?\n",
	After:  "User-agent: *\nDisallow: /*.php$\n",
	run: func(p *pass) {
		rulesEach(p, func(l *line) {
			if i := strings.IndexByte(l.value, '$'); i >= 0 && i < len(l.value)-1 {
				p.reportValue(l, `"$" only means end-of-URL as the last character; here it is literal`)
			}
		})
	},
}

var rb509 = &Check{
	Code: "RB509", Name: "trailing-star", Title: `redundant trailing "*"`,
	Severity: Warning, Affects: []Family{S94, FM},
	Doc: "A pattern ends with \"*\". Robots with wildcards match by prefix anyway, so " +
		"\"/private/*\" means \"/private/\" for them (save that the extra octet raises " +
		"its precedence by one); robots without wildcards compare the \"*\" literally " +
		"and the rule matches nothing. Drop the trailing \"*\" — the fix does so only " +
		"when no longest-match verdict depends on the extra octet.",
	Before: "User-agent: *\nDisallow: /private/*\n",
	After:  "User-agent: *\nDisallow: /private/\n",
	Fix:    "FX27",
	run: func(p *pass) {
		gd := rulesNewGuard(p)
		rulesEach(p, func(l *line) {
			v := l.value
			if len(v) <= 1 || !strings.HasSuffix(v, "*") {
				return
			}
			d := p.reportValue(l, `Trailing "*" is implicit for wildcard robots and makes the rule match nothing for the others`)
			// A blank before the star would end the value once the star is
			// gone, and the pattern would change: no fix then.
			nv := v[:len(v)-1]
			// Nor when a "$" would become the last character: it would
			// start anchoring the pattern.
			if c := nv[len(nv)-1]; c != ' ' && c != '\t' && c != '$' && gd.keepsLM(l.num-1, nv, false, true) {
				d.suggest("FX27", Preserving, "drop the trailing \"*\"",
					Edit{Start: l.Value.End.Offset - 1, End: l.Value.End.Offset})
			}
		})
	},
}

var rb510 = &Check{
	Code: "RB510", Name: "double-star", Title: `consecutive "*"`,
	Severity: Info, Affects: []Family{GOOG},
	Doc: "A pattern holds \"**\". Several stars match exactly what one does; the only " +
		"difference is that Google counts every octet toward a rule's precedence. " +
		"Write a single \"*\" — the fix does so only when no longest-match verdict " +
		"depends on the extra octets.",
	Before: "User-agent: *\nDisallow: /**.pdf\n",
	After:  "User-agent: *\nDisallow: /*.pdf\n",
	Fix:    "FX27",
	run: func(p *pass) {
		gd := rulesNewGuard(p)
		rulesEach(p, func(l *line) {
			if !strings.Contains(l.value, "**") {
				return
			}
			d := p.reportValue(l, `"**" is the same as "*"`)
			nv := l.value
			for strings.Contains(nv, "**") {
				nv = strings.ReplaceAll(nv, "**", "*")
			}
			if gd.keepsLM(l.num-1, nv, false, true) {
				d.suggest("FX27", Preserving, "collapse the stars", rulesValueEdit(l, nv))
			}
		})
	},
}

// rulesSeveralValues reports whether an Allow or Disallow value is a list
// of paths (RB309 b): two or more parts, split at white space and commas,
// each starting with "/" or "*".
func rulesSeveralValues(v string) bool {
	parts := strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' })
	if len(parts) < 2 {
		return false
	}
	for _, s := range parts {
		if s[0] != '/' && s[0] != '*' {
			return false
		}
	}
	return true
}

var rb511 = &Check{
	Code: "RB511", Name: "space-in-path", Title: "unencoded whitespace inside a path",
	Severity: Warning, Affects: []Family{ALL},
	Doc: "A rule's path holds a space or a TAB. Google keeps it in the pattern, but " +
		"crawlers match against request URLs, where a space is always written \"%20\", " +
		"so the rule never matches. Percent-encode the space (\"%20\") — an intent fix, " +
		"since it makes robots start obeying the rule.",
	Before: "User-agent: *\nDisallow: /my folder/\n",
	After:  "User-agent: *\nDisallow: /my%20folder/\n",
	Fix:    "FX26",
	run: func(p *pass) {
		rulesEach(p, func(l *line) {
			if !strings.ContainsAny(l.value, " \t") || rulesSeveralValues(l.value) {
				return
			}
			nv := strings.NewReplacer(" ", "%20", "\t", "%09").Replace(l.value)
			p.reportValue(l, `Space in a path: request URLs contain "%%20", so this rule never matches`).
				suggest("FX26", Intent, "percent-encode the white space", rulesValueEdit(l, nv))
		})
	},
}

// rulesSortState says whether a group's rules are in FX30 order.
type rulesSortState uint8

const (
	rulesSorted   rulesSortState = iota // already in order
	rulesSortable                       // out of order; the edit sorts them
	rulesBlocked                        // out of order, and other lines sit among them
)

// rulesSortOf returns the FX30 state of group g and, when sortable, the edit.
func rulesSortOf(p *pass, g *group) (rulesSortState, Edit) {
	if e, ok := rulesSortEdit(p, g); ok {
		return rulesSortable, e
	}
	// Not sortable: either in order already, or blocked by other lines.
	prev := rulesRule{}
	for k, i := range g.rules {
		r := rulesMake(p, i)
		if k > 0 && rulesBetterSort(&r, &prev) {
			return rulesBlocked, Edit{}
		}
		prev = r
	}
	return rulesSorted, Edit{}
}

// rulesBetterSort reports whether a must come before b in FX30 order.
func rulesBetterSort(a, b *rulesRule) bool {
	if len(a.val) != len(b.val) {
		return len(a.val) > len(b.val)
	}
	return a.allow && !b.allow
}

var rb512 = &Check{
	Code: "RB512", Name: "covered-rule", Title: "rule covered by a broader rule of the same kind",
	Severity: Info, Affects: nil,
	Doc: "A rule is already implied by a shorter rule of the same kind in the group, " +
		"and no rule of the other kind sits between them in precedence, so longest-match " +
		"robots reach the same verdict without it. First-match robots agree only once the " +
		"rules are sorted by specificity, so the fixer sorts the group (FX30) and then " +
		"removes the redundant rule (FX29).",
	Before: "User-agent: *\nDisallow: /a\nDisallow: /a/b\n",
	After:  "User-agent: *\nDisallow: /a\n",
	Fix:    "FX30",
	run: func(p *pass) {
		gd := rulesNewGuard(p)
		for gi := range p.groups {
			rb512Group(p, gd, &p.groups[gi])
		}
	},
}

// rb512Group reports the covered rules of group g.
func rb512Group(p *pass, gd *rulesGuard, g *group) {
	type key struct {
		allow bool
		val   string
	}
	first := map[key]int{} // plain (no "*", no "$") rules by type and value
	wild := [2]bool{}      // [allow] some rule of that type uses "*" or "$"
	rules := make([]rulesRule, len(g.rules))
	for k, i := range g.rules {
		r := rulesMake(p, i)
		rules[k] = r
		if strings.ContainsAny(r.val, "*$") {
			wild[b2i(r.allow)] = true
			continue
		}
		if _, ok := first[key{r.allow, r.val}]; !ok && r.val != "" {
			first[key{r.allow, r.val}] = i
		}
	}
	var state rulesSortState
	var sortEdit Edit
	stateDone := false
	for k := range rules {
		r := &rules[k]
		if r.val == "" || strings.ContainsAny(r.val, "*$") || wild[b2i(!r.allow)] {
			continue
		}
		// The longest opposite rule that is a prefix of p (p included).
		opp := -1
		for n := 1; n <= len(r.val); n++ {
			if _, ok := first[key{!r.allow, r.val[:n]}]; ok {
				opp = n
			}
		}
		// The longest same-type proper prefix that still beats it.
		cover := -1
		for n := len(r.val) - 1; n >= 1; n-- {
			i, ok := first[key{r.allow, r.val[:n]}]
			if !ok {
				continue
			}
			if (opp < n || r.allow && opp == n) && (p.lines[i].match == keyExact || p.lines[r.line].match != keyExact) {
				cover = i
			}
			break
		}
		if cover < 0 {
			continue
		}
		l := &p.lines[r.line]
		d := p.reportValue(l, "%q is already covered by %q (line %d)", l.value, p.lines[cover].value, cover+1).
			related(cover+1, "covering rule")
		if !stateDone {
			state, sortEdit = rulesSortOf(p, g)
			stateDone = true
		}
		switch state {
		case rulesSorted:
			// Another group of the same robot may hold a rule that only
			// this one outranks (RFC 9309 merges the groups).
			if gd.keepsLM(r.line, "", true, false) {
				d.suggest("FX29", Preserving, "remove the covered rule", rulesDrop(p, l))
			}
		case rulesSortable:
			d.suggest("FX30", PreservingGoogle, "sort the group's rules by specificity first", sortEdit)
		}
	}
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

var rb513 = &Check{
	Code: "RB513", Name: "duplicate-rule", Title: "duplicate rule",
	Severity: Info, Affects: nil,
	Doc: "The same rule appears twice in one group. The second copy changes nothing " +
		"for any robot: longest-match robots see the same pattern, first-match robots " +
		"reach the first copy first. Remove the duplicate.",
	Before: "User-agent: *\nDisallow: /a\nDisallow: /a\n",
	After:  "User-agent: *\nDisallow: /a\n",
	Fix:    "FX16",
	run: func(p *pass) {
		type key struct {
			allow bool
			val   string
		}
		for gi := range p.groups {
			seen := map[key]int{}
			for _, i := range p.groups[gi].rules {
				l := &p.lines[i]
				k := key{l.is(dAllow), rulesNorm(l.value)}
				if k.val == "" {
					continue
				}
				// A variant only Google reads (RB305) does not make an exact
				// line redundant for RFC 9309 robots.
				if j, ok := seen[k]; ok && (p.lines[j].match == keyExact || l.match != keyExact) {
					p.report(l, "Duplicate of line %d", j+1).
						related(j+1, "first occurrence").
						suggest("FX16", Preserving, "remove the duplicate rule", rulesDrop(p, l))
					continue
				}
				if j, ok := seen[k]; !ok || p.lines[j].match != keyExact {
					seen[k] = i
				}
			}
		}
	},
}

var rb514 = &Check{
	Code: "RB514", Name: "robots-txt-rule", Title: "rule about /robots.txt",
	Severity: Warning, Affects: []Family{ALL},
	Doc: "A rule names /robots.txt itself. RFC 9309 and the 1996 draft say robots may " +
		"always fetch /robots.txt and that it must not appear in the rules, so the rule " +
		"has no effect on it. Remove it; the fixer does so by default only when no " +
		"longest-match verdict changes (a prefix rule also covers \"/robots.txt.bak\").",
	Before: "User-agent: *\nDisallow: /robots.txt\nDisallow: /\n",
	After:  "User-agent: *\nDisallow: /\n",
	Fix:    "FX28",
	run: func(p *pass) {
		gd := rulesNewGuard(p)
		rulesEach(p, func(l *line) {
			if strings.TrimSuffix(l.value, "$") != "/robots.txt" {
				return
			}
			class := Preserving
			if !gd.keepsLM(l.num-1, "", true, false) {
				// Google's library has no /robots.txt exemption, and a
				// prefix rule also matches longer paths.
				class = Intent
			}
			p.reportValue(l, "/robots.txt is always allowed; this rule has no effect").
				suggest("FX28", class, "remove the rule about /robots.txt", rulesDrop(p, l))
		})
	},
}

var rb515 = &Check{
	Code: "RB515", Name: "case-only-difference", Title: "opposite rules differ only in letter case",
	Severity: Info, Affects: []Family{ALL},
	Doc: "An Allow and a Disallow of one group differ only in letter case. Robots " +
		"compare paths case-sensitively (RFC 9309 recommends it, Google does), so the " +
		"two rules target different URLs, and one of them probably does not cover what " +
		"its author thinks. Write both with the case the site's URLs use.",
	Before: "User-agent: *\nDisallow: /Images/\nAllow: /images/\n",
	After:  "User-agent: *\nDisallow: /images/\nAllow: /images/logo.png\n",
	run: func(p *pass) {
		type prior struct {
			line  int
			allow bool
			val   string
		}
		// Up to four earlier rules for each value in lower case, in a
		// fixed array: no allocation per value.
		type priors struct {
			n  int
			of [4]prior
		}
		// Values are keyed by a hash of their ASCII lower case (the
		// values are normalised: non-ASCII octets are percent-encoded),
		// and EqualFold tells a collision from a match.
		var seen map[uint64]*priors
		var pool []priors
		for gi := range p.groups {
			// Two values that differ only in case: one of them has an
			// upper-case letter.
			upper := false
			for _, i := range p.groups[gi].rules {
				if rulesHasUpper(p.lines[i].value) {
					upper = true
					break
				}
			}
			if !upper {
				continue
			}
			if seen == nil {
				seen = map[uint64]*priors{}
			}
			clear(seen)
			rules := p.groups[gi].rules
			if cap(pool) < len(rules) {
				pool = make([]priors, 0, len(rules))
			}
			pool = pool[:0]
			for _, i := range rules {
				l := &p.lines[i]
				n := rulesNorm(l.value)
				if n == "" {
					continue
				}
				low := rulesFoldHash(n)
				allow := l.is(dAllow)
				ps := seen[low]
				if ps == nil {
					pool = append(pool, priors{})
					ps = &pool[len(pool)-1]
					seen[low] = ps
				}
				for _, q := range ps.of[:ps.n] {
					if q.allow != allow && q.val != n && strings.EqualFold(q.val, n) {
						p.reportValue(l, "%q and %q differ only in case; paths are case-sensitive", p.lines[q.line].value, l.value).
							related(q.line+1, "the other rule")
						break
					}
				}
				if ps.n < len(ps.of) {
					ps.of[ps.n] = prior{i, allow, n}
					ps.n++
				}
			}
		}
	},
}

// rulesOwnCheck reports whether r is a character that another check
// reports in a path (RB211, RB212, RB213), which RB516 leaves to it.
func rulesOwnCheck(r rune) bool {
	switch r {
	case 0x85, 0x2028, 0x2029, 0x2018, 0x2019, 0x201C, 0x201D, 0x2013, 0x2014, 0x2026:
		return true
	}
	return rulesInvisible(r)
}

// rulesEncode percent-encodes, as UTF-8 with upper-case hex, the runes of
// v for which enc is true.
func rulesEncode(v string, enc func(rune) bool) string {
	var b strings.Builder
	for _, r := range v {
		if !enc(r) {
			b.WriteRune(r)
			continue
		}
		var buf [utf8.UTFMax]byte
		n := utf8.EncodeRune(buf[:], r)
		for _, c := range buf[:n] {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

var rb516 = &Check{
	Code: "RB516", Name: "non-ascii-path", Title: "non-ASCII characters in a path",
	Severity: Warning, Affects: []Family{S94, FM},
	Doc: "A rule's path holds non-ASCII characters. Google and RFC 9309 robots " +
		"percent-encode the pattern as UTF-8 before matching, so it works for them, but " +
		"robots that compare the raw text against the encoded request URL never match " +
		"it (Mandelbot asks for encoded special characters). Write the path " +
		"percent-encoded: \"/caf%C3%A9\".",
	Before: "User-agent: *\nDisallow: /café\n",
	After:  "User-agent: *\nDisallow: /caf%C3%A9\n",
	Fix:    "FX26",
	run: func(p *pass) {
		rulesEach(p, func(l *line) {
			if !utf8.ValidString(p.src[l.Span.Start.Offset:l.Span.End.Offset]) {
				return // RB203's line
			}
			enc := func(r rune) bool { return r >= 0x80 && !rulesOwnCheck(r) }
			if strings.IndexFunc(l.value, enc) < 0 {
				return
			}
			nv := rulesEncode(l.value, enc)
			p.reportValue(l, "Non-ASCII path %q; write it percent-encoded (%q)", l.value, nv).
				suggest("FX26", Preserving, "percent-encode the path", rulesValueEdit(l, nv))
		})
	},
}

// rulesIsHex reports whether c is a hexadecimal digit.
func rulesIsHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

var rb517 = &Check{
	Code: "RB517", Name: "lower-case-escape", Title: "lower-case percent-encoding",
	Severity: Info, Thorough: true, Affects: []Family{S94, FM},
	Doc: "A percent-encoding in a path uses lower-case hex (\"%2f\", \"%e2%80%99\"). " +
		"Google upper-cases it before matching and the 1996 draft compares escapes " +
		"case-insensitively, but parsers that compare bytes miss the URL, whose escapes " +
		"are normally upper-case. Write upper-case hex digits.",
	Before: "User-agent: *\nDisallow: /caf%c3%a9\n",
	After:  "User-agent: *\nDisallow: /caf%C3%A9\n",
	Fix:    "FX26",
	run: func(p *pass) {
		rulesEach(p, func(l *line) {
			v := l.value
			b := []byte(v)
			found := false
			for i := 0; i+2 < len(b); i++ {
				if b[i] != '%' || !rulesIsHex(b[i+1]) || !rulesIsHex(b[i+2]) {
					continue
				}
				for _, j := range []int{i + 1, i + 2} {
					if 'a' <= b[j] && b[j] <= 'f' {
						b[j] -= 'a' - 'A'
						found = true
					}
				}
				i += 2
			}
			if found {
				p.reportValue(l, "Prefer upper-case hex in percent-encodings").
					suggest("FX26", Preserving, "upper-case the hex digits", rulesValueEdit(l, string(b)))
			}
		})
	},
}

var rb518 = &Check{
	Code: "RB518", Name: "encoded-separator", Title: `encoded "/" or "?" in a path`,
	Severity: Info, Thorough: true, Affects: []Family{ALL},
	Doc: "A path holds \"%2F\" or \"%3F\". Neither the 1996 draft nor RFC 9309 decode " +
		"reserved characters before matching, so \"/a%2Fb\" does not match the URL " +
		"\"/a/b\". Write the character itself unless the site's URLs really carry the " +
		"escape.",
	Before: "User-agent: *\nDisallow: /a%2Fb\n",
	After:  "User-agent: *\nDisallow: /a/b\n",
	run: func(p *pass) {
		rulesEach(p, func(l *line) {
			up := strings.ToUpper(l.value)
			switch {
			case strings.Contains(up, "%2F"):
				p.reportValue(l, `"%%2F" is not the same as "/" for robots`)
			case strings.Contains(up, "%3F"):
				p.reportValue(l, `"%%3F" is not the same as "?" for robots`)
			}
		})
	},
}

// rulesParam returns the name of the first "?name=" in v, "" when there is
// none.
func rulesParam(v string) string {
	i := strings.IndexByte(v, '?')
	if i < 0 {
		return ""
	}
	rest := v[i+1:]
	j := strings.IndexByte(rest, '=')
	if j <= 0 || strings.ContainsAny(rest[:j], "&*$/?#") {
		return ""
	}
	return rest[:j]
}

var rb519 = &Check{
	Code: "RB519", Name: "first-parameter-only", Title: "query parameter blocked only in first position",
	Severity: Info, Affects: []Family{ALL},
	Doc: "A rule matches a query parameter only right after the \"?\", so the same " +
		"parameter later in the query string (\"/list?page=2&sort=asc\") escapes it. " +
		"Add a rule with \"&name=\" (or use \"*name=\"); for Yandex, Clean-param is the " +
		"tool for tracking parameters.",
	Before: "User-agent: *\nDisallow: /*?sort=\n",
	After:  "User-agent: *\nDisallow: /*?sort=\nDisallow: /*&sort=\n",
	run: func(p *pass) {
		// The names each rule of a group covers in any position: every
		// "&name=" and "*name=" in its value, read once per group.
		type cover struct {
			dir  directive
			name string
		}
		var covered map[cover]bool
		for gi := range p.groups {
			g := &p.groups[gi]
			clear(covered)
			read := false
			for _, i := range g.rules {
				l := &p.lines[i]
				name := rulesParam(l.value)
				if name == "" {
					continue
				}
				if !read {
					if covered == nil {
						covered = map[cover]bool{}
					}
					for _, j := range g.rules {
						o := &p.lines[j]
						for k := 0; k < len(o.value); k++ {
							if c := o.value[k]; c != '&' && c != '*' {
								continue
							}
							if eq := strings.IndexByte(o.value[k+1:], '='); eq >= 0 {
								covered[cover{o.dir, o.value[k+1 : k+1+eq]}] = true
							}
						}
					}
					read = true
				}
				if !covered[cover{l.dir, name}] {
					p.reportValue(l, "Rule catches \"?%s=\" but not \"&%s=\" (parameter in another position)", name, name)
				}
			}
		}
	},
}

var rb520 = &Check{
	Code: "RB520", Name: "site-blocked", Title: "whole site blocked for all robots",
	Severity: Warning, Affects: []Family{ALL},
	Doc: "The \"*\" group disallows the whole site and allows nothing back, so every " +
		"robot without a group of its own stays out. This is often a leftover from a " +
		"staging or maintenance setup; note that blocked URLs can still be indexed, " +
		"without their content. Remove the rule if the site should be crawled.",
	Before: "User-agent: *\nDisallow: /\n",
	After:  "User-agent: *\nDisallow: /private/\n",
	run: func(p *pass) {
		for gi := range p.groups {
			g := &p.groups[gi]
			if !g.global {
				continue
			}
			allows := false
			for _, i := range g.rules {
				allows = allows || p.lines[i].is(dAllow) && p.lines[i].value != ""
			}
			if allows {
				continue
			}
			for _, i := range g.rules {
				l := &p.lines[i]
				if n := rulesNorm(l.value); l.is(dDisallow) && (n == "/" || n == "/*" || n == "*") {
					p.reportValue(l, "Every robot without its own group is blocked from the entire site")
				}
			}
		}
	},
}

// rulesBlocksType returns "CSS" or "JavaScript" when the Disallow value v
// blocks style sheets or scripts, "" otherwise.
func rulesBlocksType(v string) string {
	if strings.IndexByte(v, '.') < 0 {
		return "" // no extension: spare the copy in lower case
	}
	v = strings.ToLower(v)
	for _, t := range []struct{ ext, name string }{{".css", "CSS"}, {".js", "JavaScript"}} {
		if strings.HasSuffix(v, t.ext) || strings.HasSuffix(v, t.ext+"$") {
			return t.name
		}
		// "*.js" but not "*.json": the extension must end there.
		for s := v; ; {
			i := strings.Index(s, "*"+t.ext)
			if i < 0 {
				break
			}
			s = s[i+1+len(t.ext):]
			if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= '0' && s[0] <= '9') {
				return t.name
			}
		}
	}
	return ""
}

var rb521 = &Check{
	Code: "RB521", Name: "css-js-blocked", Title: "CSS or JavaScript blocked",
	Severity: Info, Affects: []Family{GOOG},
	Doc: "A group that Google reads (\"*\" or a Google token) disallows style sheets or " +
		"scripts. Google renders pages like a browser and needs those files to see " +
		"them as users do; it recommends not blocking them. Remove the rule, or allow " +
		"the resources the pages need.",
	Before: "User-agent: *\nDisallow: /*.css$\n",
	After:  "User-agent: *\nDisallow: /private/\n",
	run: func(p *pass) {
		for gi := range p.groups {
			g := &p.groups[gi]
			google := g.global
			for _, i := range g.agents {
				google = google || isGoogleOnly(p.lines[i].agent)
			}
			if !google {
				continue
			}
			for _, i := range g.rules {
				l := &p.lines[i]
				if t := rulesBlocksType(l.value); l.is(dDisallow) && t != "" {
					p.reportValue(l, "Blocking %s prevents Google from rendering pages", t)
				}
			}
		}
	},
}

// rulesSensitive are the words RB522 looks for in Disallow paths.
var rulesSensitive = []string{"admin", "backup", ".git", ".env", ".sql", "config", "install", "secret", "password", "private"}

var rb522 = &Check{
	Code: "RB522", Name: "sensitive-path", Title: "path looks sensitive",
	Severity: Info, Thorough: true, Affects: []Family{ALL},
	Doc: "A Disallow path names something that looks private (admin, backup, config, " +
		"secret…). robots.txt is public and is not access control (RFC 9309 §3, the " +
		"1996 draft): listing the path tells everyone where to look. Protect it with " +
		"authentication, and use noindex to keep pages out of search results.",
	Before: "User-agent: *\nDisallow: /admin/\n",
	After:  "User-agent: *\nDisallow: /search\n",
	run: func(p *pass) {
		rulesEach(p, func(l *line) {
			if !l.is(dDisallow) {
				return
			}
			v := strings.ToLower(l.value)
			for _, w := range rulesSensitive {
				if strings.Contains(v, w) {
					p.reportValue(l, "robots.txt is public: listing %q advertises it", l.value)
					return
				}
			}
		})
	},
}

var rb523 = &Check{
	Code: "RB523", Name: "index-html-allow", Title: "Google's index.html shortcut",
	Severity: Info, Thorough: true, Affects: []Family{GOOG},
	Doc: "An Allow ends with \"/index.htm\" or \"/index.html\". Google also allows the " +
		"directory itself (an implicit \"Allow: /dir/$\"), since servers usually answer " +
		"both with the same page; no other robot does. Add \"Allow: /dir/$\" if every " +
		"robot should fetch the directory URL.",
	Before: "User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n",
	After:  "User-agent: *\nDisallow: /d/\nAllow: /d/$\n",
	run: func(p *pass) {
		rulesEach(p, func(l *line) {
			if !l.is(dAllow) {
				return
			}
			for _, f := range []string{"/index.html", "/index.htm"} {
				if strings.HasSuffix(l.value, f) {
					dir := strings.TrimSuffix(l.value, f[1:])
					p.reportValue(l, "Google also allows %q itself; other robots only the file", dir)
					return
				}
			}
		})
	},
}
