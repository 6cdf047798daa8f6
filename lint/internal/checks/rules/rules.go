// Package rules holds the checks of Allow and Disallow rules (RB5xx,
// section E of docs/checks.md). The value checks read every Allow and
// Disallow line, orphans included; the relational ones read each
// canonical group's rules, their values compared after Google's
// normalisation (eval.Norm), and prove their fixes with an eval.Guard.
package rules

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/robotskit/robots/lint/internal/check"
	"github.com/robotskit/robots/lint/internal/eval"
	"github.com/robotskit/robots/lint/internal/tokens"
)

// Checks are the checks of the section, in code order.
var Checks = []*check.Check{
	rb501, rb502, rb503, rb504, rb505, rb506, rb507, rb508, rb509, rb510, rb511,
	rb512, rb513, rb514, rb515, rb516, rb517, rb518, rb519, rb520, rb521, rb522, rb523,
}

var rb501 = &check.Check{
	Code: "RB501", Name: "path-without-slash", Title: `path does not start with "/"`,
	Severity: check.Error, Affects: []check.Family{check.Google, check.Yandex, check.RFC, check.Temoto},
	Doc: "A rule's path starts with neither \"/\" nor \"*\". Google matches patterns " +
		"from the first octet of the URL path, which is always \"/\", so the rule never " +
		"matches; Yandex reports an error; temoto/robotstxt silently adds the \"/\", so " +
		"only its users obey the rule. Write the path from the root: \"/admin/\", or " +
		"only the path of a full URL of the site.",
	Before: "User-agent: *\nDisallow: admin/\n",
	After:  "User-agent: *\nDisallow: /admin/\n",
	Fix:    "FX25",
	Run: func(p *check.Pass) {
		p.EachRule(func(l *check.Line) {
			v := strings.TrimLeftFunc(l.ValueText, invisible)
			if v == "" || v[0] == '/' || v[0] == '*' {
				// Empty, fine, or fine once the invisible characters
				// RB212 reports are gone.
				return
			}
			d := p.ReportValue(l, "Rule path %q does not start with \"/\"; Google never matches it", l.ValueText)
			if host, path, ok := splitURL(l.ValueText); ok {
				if base := hostOf(p.URL); base != "" && !strings.EqualFold(host, base) {
					d.Suggest("FX25", check.Intent, "comment out the rule for another host", check.CommentOut(l))
					return
				}
				d.Suggest("FX25", check.Intent, "keep only the path of the URL", valueEdit(l, path))
				return
			}
			d.Suggest("FX25", check.Intent, "write the path from the root",
				check.Edit{Start: l.Value.Start.Offset, End: l.Value.Start.Offset, New: "/"})
		})
	},
}

// splitURL splits an absolute http or https URL into its host (without user information or port) and its path with any
// query ("/" when it has none). ok is false for anything else.
func splitURL(v string) (host, path string, ok bool) {
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

// hostOf returns the host of the robots.txt URL u, "" when there is
// none.
func hostOf(u string) string {
	if h, _, ok := splitURL(u); ok {
		return h
	}
	return ""
}

// invisible reports whether r is one of the invisible or non-ASCII
// white-space characters of RB212.
func invisible(r rune) bool {
	switch {
	case r == 0xA0, r == 0x1680, r >= 0x2000 && r <= 0x200D, r == 0x202F,
		r == 0x205F, r == 0x2060, r == 0x3000, r == 0xFEFF:
		return true
	}
	return false
}

var rb502 = &check.Check{
	Code: "RB502", Name: "path-starts-with-star", Title: `path starts with "*"`,
	Severity: check.Warning, Affects: []check.Family{check.Strict1994, check.FirstMatch},
	Doc: "The rule's path begins with \"*\". Google, Bing, Yandex and other RFC 9309 " +
		"robots read it as \"any prefix\", so \"Disallow: *\" blocks the whole site, but " +
		"robots without wildcards (the 1994 standard, first-match parsers) compare it " +
		"literally and it matches nothing; RFC 9309's grammar wants patterns to start " +
		"with \"/\". Start the path with \"/\": \"/*.pdf$\", or \"/\" for \"*\".",
	Before: "User-agent: *\nDisallow: *.pdf$\n",
	After:  "User-agent: *\nDisallow: /*.pdf$\n",
	Fix:    "FX24",
	Run: func(p *check.Pass) {
		gd := eval.NewGuard(p)
		p.EachRule(func(l *check.Line) {
			if !strings.HasPrefix(l.ValueText, "*") {
				return
			}
			d := p.ReportValue(l, `Rule starts with "*"; robots without wildcards never match it`)
			nv := "/" + l.ValueText
			if strings.Trim(l.ValueText, "*") == "" {
				nv = "/" // "*" and "/" match the same paths with the same length
			}
			class := check.Preserving
			if !gd.KeepsLM(l.Num-1, nv, false, !strings.HasPrefix(strings.TrimLeft(l.ValueText, "*"), "/")) {
				// The extra octet wins a tie the old pattern lost.
				class = check.Intent
			}
			d.Suggest("FX24", class, "start the pattern with \"/\"", valueEdit(l, nv))
		})
	},
}

var rb503 = &check.Check{
	Code: "RB503", Name: "empty-allow", Title: "empty Allow",
	Severity: check.Warning, Affects: []check.Family{check.Yandex, check.CrawlerCommons, check.FirstMatch},
	Doc: "An Allow line has no path. Google, RFC 9309 robots and Yandex today ignore " +
		"it, but Yandex once read it as \"Disallow: /\", legacy crawler-commons cleared " +
		"the rules collected before it, and old CPython made it a rule matching every " +
		"URL, so that first-match robots allow everything after it. Remove the line.",
	Before: "User-agent: *\nAllow:\nDisallow: /private\n",
	After:  "User-agent: *\nDisallow: /private\n",
	Fix:    "FX19",
	Run: func(p *check.Pass) {
		p.EachRule(func(l *check.Line) {
			if l.Dir != check.Allow || l.ValueText != "" {
				return
			}
			p.Report(l, `"Allow:" without a path is ignored by most robots — and has meant "block everything" to some`).
				Suggest("FX19", check.Preserving, "remove the empty Allow", drop(p, l))
		})
	},
}

var rb504 = &check.Check{
	Code: "RB504", Name: "empty-disallow-among-rules", Title: "empty Disallow mixed with other rules",
	Severity: check.Warning, Affects: []check.Family{check.FirstMatch, check.CrawlerCommons},
	Doc: "A group has an empty \"Disallow:\" (allow everything) next to real rules. " +
		"Google and RFC 9309 robots ignore it, but old CPython turns it into an " +
		"allow-everything rule — first in the group, no later rule ever applies — and " +
		"legacy crawler-commons dropped the rules before it. Remove the empty line; " +
		"\"Disallow:\" alone is only right in a group with no other rule.",
	Before: "User-agent: *\nDisallow:\nDisallow: /private\n",
	After:  "User-agent: *\nDisallow: /private\n",
	Fix:    "FX20",
	Run: func(p *check.Pass) {
		for gi := range p.Groups {
			g := &p.Groups[gi]
			other := false
			for _, i := range g.Rules {
				other = other || p.Lines[i].ValueText != ""
			}
			if !other {
				continue
			}
			for _, i := range g.Rules {
				if l := &p.Lines[i]; l.Dir == check.Disallow && l.ValueText == "" {
					p.Report(l, `"Disallow:" (allow everything) next to other rules; some robots let it override them`).
						Suggest("FX20", check.PreservingGoogle, "remove the empty Disallow", drop(p, l))
				}
			}
		}
	},
}

// allowRoot reports whether l is "Allow: /".
func allowRoot(l *check.Line) bool { return l.Dir == check.Allow && l.ValueText == "/" }

var rb505 = &check.Check{
	Code: "RB505", Name: "lone-allow-root", Title: "`Allow: /` as the only rule",
	Severity: check.Info, Affects: []check.Family{check.Strict1994},
	Doc: "The group allows \"/\" and disallows nothing. Everything may be crawled by " +
		"default, so the line says nothing, and robots of the 1994 standard do not know " +
		"Allow at all. Write \"Disallow:\" (with no path), which every robot reads as " +
		"\"fetch anything\".",
	Before: "User-agent: *\nAllow: /\n",
	After:  "User-agent: *\nDisallow:\n",
	Fix:    "FX21",
	Run: func(p *check.Pass) {
		gd := eval.NewGuard(p)
		for gi := range p.Groups {
			g := &p.Groups[gi]
			root := -1
			blocks := false
			for _, i := range g.Rules {
				l := &p.Lines[i]
				if allowRoot(l) && root < 0 {
					root = i
				}
				blocks = blocks || l.Dir == check.Disallow && l.ValueText != ""
			}
			if root < 0 || blocks {
				continue
			}
			l := &p.Lines[root]
			nl := "Disallow:"
			if l.Comment.IsValid() {
				nl += " " + p.Src[l.Comment.Start.Offset:l.Comment.End.Offset]
			}
			d := p.Report(l, `"Allow: /" alone is the same as "Disallow:", which every robot understands`)
			// Another group of the same robot may hold a "Disallow: /" that
			// this Allow wins a tie against (RFC 9309 merges the groups).
			if gd.KeepsLM(root, "", true, false) {
				d.Suggest("FX21", check.Preserving, "write \"Disallow:\" instead", check.ReplaceLine(l, nl))
			}
		}
	},
}

var rb506 = &check.Check{
	Code: "RB506", Name: "allow-root-with-disallows", Title: "`Allow: /` next to Disallow rules",
	Severity: check.Warning, Affects: []check.Family{check.FirstMatch},
	Doc: "The group has \"Allow: /\" and Disallow rules. For Google and RFC 9309 robots " +
		"the one-octet \"/\" loses to every longer Disallow, so it does nothing; " +
		"first-match robots apply whichever comes first, and with \"Allow: /\" first the " +
		"whole site is open to them. Remove \"Allow: /\".",
	Before: "User-agent: *\nAllow: /\nDisallow: /private\n",
	After:  "User-agent: *\nDisallow: /private\n",
	Fix:    "FX22",
	Run: func(p *check.Pass) {
		gd := eval.NewGuard(p)
		for gi := range p.Groups {
			g := &p.Groups[gi]
			longer, short := false, false
			for _, i := range g.Rules {
				l := &p.Lines[i]
				if l.Dir != check.Disallow {
					continue
				}
				n := eval.Norm(l.ValueText)
				longer = longer || len(n) > 1
				short = short || n == "/" || n == "*"
			}
			if !longer {
				continue
			}
			for _, i := range g.Rules {
				l := &p.Lines[i]
				if !allowRoot(l) {
					continue
				}
				d := p.Report(l, `"Allow: /" matches every URL: first-match robots ignore the Disallow rules after it`)
				// With a one-octet Disallow the "/" wins a tie (RB507):
				// removing it would block the site.
				if !short && gd.KeepsLM(i, "", true, false) {
					d.Suggest("FX22", check.PreservingGoogle, "remove \"Allow: /\"", drop(p, l))
				}
			}
		}
	},
}

var rb507 = &check.Check{
	Code: "RB507", Name: "allowed-and-disallowed", Title: "same path allowed and disallowed",
	Severity: check.Warning, Affects: []check.Family{check.FirstMatch, check.Strict1994, check.Temoto},
	Doc: "The same path is both allowed and disallowed in one group. Google, Bing, " +
		"Yandex and RFC 9309 robots let the Allow win the tie; first-match robots and " +
		"temoto/robotstxt apply whichever comes first; robots of the 1994 standard know " +
		"only the Disallow. Keep the rule you mean — the fix keeps the Allow, which is " +
		"what Google does.",
	Before: "User-agent: *\nDisallow: /photos\nAllow: /photos\n",
	After:  "User-agent: *\nAllow: /photos\n",
	Fix:    "FX23",
	Run: func(p *check.Pass) {
		for gi := range p.Groups {
			g := &p.Groups[gi]
			allowed := map[string]int{}
			for _, i := range g.Rules {
				l := &p.Lines[i]
				if n := eval.Norm(l.ValueText); l.Dir == check.Allow && n != "" {
					if _, ok := allowed[n]; !ok {
						allowed[n] = i
					}
				}
			}
			for _, i := range g.Rules {
				l := &p.Lines[i]
				a, ok := allowed[eval.Norm(l.ValueText)]
				if l.Dir != check.Disallow || !ok {
					continue
				}
				if p.Lines[a].Match != check.KeyExact && l.Match == check.KeyExact {
					continue // RFC 9309 robots do not read that Allow
				}
				p.ReportValue(l, "%q is both allowed (line %d) and disallowed; robots disagree on which wins", l.ValueText, a+1).
					Relate(a+1, "allowed here").
					Suggest("FX23", check.PreservingGoogle, "remove the Disallow, as Google ignores it", drop(p, l))
			}
		}
	},
}

var rb508 = &check.Check{
	Code: "RB508", Name: "dollar-not-at-end", Title: `"$" not at the end`,
	Severity: check.Warning, Affects: []check.Family{check.Google, check.RFC},
	Doc: "A \"$\" means \"end of URL\" only as the last character of a pattern; " +
		"anywhere else Google compares it literally, and recent CPython drops the rule. " +
		"It is most often a typo. Move the \"$\" to the end, or encode a literal dollar " +
		"as \"%24\".",
	Before: "User-agent: *\nDisallow: /*.php$?\n",
	After:  "User-agent: *\nDisallow: /*.php$\n",
	Run: func(p *check.Pass) {
		p.EachRule(func(l *check.Line) {
			if i := strings.IndexByte(l.ValueText, '$'); i >= 0 && i < len(l.ValueText)-1 {
				p.ReportValue(l, `"$" only means end-of-URL as the last character; here it is literal`)
			}
		})
	},
}

var rb509 = &check.Check{
	Code: "RB509", Name: "trailing-star", Title: `redundant trailing "*"`,
	Severity: check.Warning, Affects: []check.Family{check.Strict1994, check.FirstMatch},
	Doc: "A pattern ends with \"*\". Robots with wildcards match by prefix anyway, so " +
		"\"/private/*\" means \"/private/\" for them (save that the extra octet raises " +
		"its precedence by one); robots without wildcards compare the \"*\" literally " +
		"and the rule matches nothing. Drop the trailing \"*\" — the fix does so only " +
		"when no longest-match verdict depends on the extra octet.",
	Before: "User-agent: *\nDisallow: /private/*\n",
	After:  "User-agent: *\nDisallow: /private/\n",
	Fix:    "FX27",
	Run: func(p *check.Pass) {
		gd := eval.NewGuard(p)
		p.EachRule(func(l *check.Line) {
			v := l.ValueText
			if len(v) <= 1 || !strings.HasSuffix(v, "*") {
				return
			}
			d := p.ReportValue(l, `Trailing "*" is implicit for wildcard robots and makes the rule match nothing for the others`)
			// A blank before the star would end the value once the star is
			// gone, and the pattern would change: no fix then.
			nv := v[:len(v)-1]
			// Nor when a "$" would become the last character: it would
			// start anchoring the pattern.
			if c := nv[len(nv)-1]; c != ' ' && c != '\t' && c != '$' && gd.KeepsLM(l.Num-1, nv, false, true) {
				d.Suggest("FX27", check.Preserving, "drop the trailing \"*\"",
					check.Edit{Start: l.Value.End.Offset - 1, End: l.Value.End.Offset})
			}
		})
	},
}

var rb510 = &check.Check{
	Code: "RB510", Name: "double-star", Title: `consecutive "*"`,
	Severity: check.Info, Affects: []check.Family{check.Google},
	Doc: "A pattern holds \"**\". Several stars match exactly what one does; the only " +
		"difference is that Google counts every octet toward a rule's precedence. " +
		"Write a single \"*\" — the fix does so only when no longest-match verdict " +
		"depends on the extra octets.",
	Before: "User-agent: *\nDisallow: /**.pdf\n",
	After:  "User-agent: *\nDisallow: /*.pdf\n",
	Fix:    "FX27",
	Run: func(p *check.Pass) {
		gd := eval.NewGuard(p)
		p.EachRule(func(l *check.Line) {
			if !strings.Contains(l.ValueText, "**") {
				return
			}
			d := p.ReportValue(l, `"**" is the same as "*"`)
			nv := l.ValueText
			for strings.Contains(nv, "**") {
				nv = strings.ReplaceAll(nv, "**", "*")
			}
			if gd.KeepsLM(l.Num-1, nv, false, true) {
				d.Suggest("FX27", check.Preserving, "collapse the stars", valueEdit(l, nv))
			}
		})
	},
}

// severalValues reports whether an Allow or Disallow value is a list
// of paths (RB309 b): two or more parts, split at white space and commas,
// each starting with "/" or "*".
func severalValues(v string) bool {
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

var rb511 = &check.Check{
	Code: "RB511", Name: "space-in-path", Title: "unencoded whitespace inside a path",
	Severity: check.Warning, Affects: []check.Family{check.All},
	Doc: "A rule's path holds a space or a TAB. Google keeps it in the pattern, but " +
		"crawlers match against request URLs, where a space is always written \"%20\", " +
		"so the rule never matches. Percent-encode the space (\"%20\") — an intent fix, " +
		"since it makes robots start obeying the rule.",
	Before: "User-agent: *\nDisallow: /my folder/\n",
	After:  "User-agent: *\nDisallow: /my%20folder/\n",
	Fix:    "FX26",
	Run: func(p *check.Pass) {
		p.EachRule(func(l *check.Line) {
			if !strings.ContainsAny(l.ValueText, " \t") || severalValues(l.ValueText) {
				return
			}
			nv := strings.NewReplacer(" ", "%20", "\t", "%09").Replace(l.ValueText)
			p.ReportValue(l, `Space in a path: request URLs contain "%%20", so this rule never matches`).
				Suggest("FX26", check.Intent, "percent-encode the white space", valueEdit(l, nv))
		})
	},
}

var rb512 = &check.Check{
	Code: "RB512", Name: "covered-rule", Title: "rule covered by a broader rule of the same kind",
	Severity: check.Info, Affects: nil,
	Doc: "A rule is already implied by a shorter rule of the same kind in the group, " +
		"and no rule of the other kind sits between them in precedence, so longest-match " +
		"robots reach the same verdict without it. First-match robots agree only once the " +
		"rules are sorted by specificity, so the fixer sorts the group (FX30) and then " +
		"removes the redundant rule (FX29).",
	Before: "User-agent: *\nDisallow: /a\nDisallow: /a/b\n",
	After:  "User-agent: *\nDisallow: /a\n",
	Fix:    "FX30",
	Run: func(p *check.Pass) {
		gd := eval.NewGuard(p)
		for gi := range p.Groups {
			coveredRules(p, gd, &p.Groups[gi])
		}
	},
}

// coveredRules reports the covered rules of group g (RB512).
func coveredRules(p *check.Pass, gd *eval.Guard, g *check.Group) {
	type key struct {
		allow bool
		val   string
	}
	first := map[key]int{} // plain (no "*", no "$") rules by type and value
	wild := [2]bool{}      // [allow] some rule of that type uses "*" or "$"
	rules := make([]eval.Rule, len(g.Rules))
	for k, i := range g.Rules {
		r := eval.RuleAt(p, i)
		rules[k] = r
		if strings.ContainsAny(r.Val, "*$") {
			wild[b2i(r.Allow)] = true
			continue
		}
		if _, ok := first[key{r.Allow, r.Val}]; !ok && r.Val != "" {
			first[key{r.Allow, r.Val}] = i
		}
	}
	var state eval.SortState
	var sortEdit check.Edit
	stateDone := false
	for k := range rules {
		r := &rules[k]
		if r.Val == "" || strings.ContainsAny(r.Val, "*$") || wild[b2i(!r.Allow)] {
			continue
		}
		// Two lookups for each prefix of the value.
		if p.Spend(len(r.Val) * prefixUnits) {
			return
		}
		// The longest opposite rule that is a prefix of p (p included).
		opp := -1
		for n := 1; n <= len(r.Val); n++ {
			if _, ok := first[key{!r.Allow, r.Val[:n]}]; ok {
				opp = n
			}
		}
		// The longest same-type proper prefix that still beats it.
		cover := -1
		for n := len(r.Val) - 1; n >= 1; n-- {
			i, ok := first[key{r.Allow, r.Val[:n]}]
			if !ok {
				continue
			}
			if (opp < n || r.Allow && opp == n) && (p.Lines[i].Match == check.KeyExact || p.Lines[r.Line].Match != check.KeyExact) {
				cover = i
			}
			break
		}
		if cover < 0 {
			continue
		}
		l := &p.Lines[r.Line]
		d := p.ReportValue(l, "%q is already covered by %q (line %d)", l.ValueText, p.Lines[cover].ValueText, cover+1).
			Relate(cover+1, "covering rule")
		if !stateDone {
			state, sortEdit = eval.SortOf(p, g)
			stateDone = true
		}
		switch state {
		case eval.Sorted:
			// Another group of the same robot may hold a rule that only
			// this one outranks (RFC 9309 merges the groups).
			if gd.KeepsLM(r.Line, "", true, false) {
				d.Suggest("FX29", check.Preserving, "remove the covered rule", drop(p, l))
			}
		case eval.Sortable:
			d.Suggest("FX30", check.PreservingGoogle, "sort the group's rules by specificity first", sortEdit)
		}
	}
}

// prefixUnits is the units of work (check.Pass.Spend) of coveredRules'
// lookups of the rules of one prefix of a value, of either kind.
const prefixUnits = 16

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

var rb513 = &check.Check{
	Code: "RB513", Name: "duplicate-rule", Title: "duplicate rule",
	Severity: check.Info, Affects: nil,
	Doc: "The same rule appears twice in one group. The second copy changes nothing " +
		"for any robot: longest-match robots see the same pattern, first-match robots " +
		"reach the first copy first. Remove the duplicate.",
	Before: "User-agent: *\nDisallow: /a\nDisallow: /a\n",
	After:  "User-agent: *\nDisallow: /a\n",
	Fix:    "FX16",
	Run: func(p *check.Pass) {
		type key struct {
			allow bool
			val   string
		}
		for gi := range p.Groups {
			seen := map[key]int{}
			for _, i := range p.Groups[gi].Rules {
				l := &p.Lines[i]
				k := key{l.Dir == check.Allow, eval.Norm(l.ValueText)}
				if k.val == "" {
					continue
				}
				// A variant only Google reads (RB305) does not make an exact
				// line redundant for RFC 9309 robots.
				if j, ok := seen[k]; ok && (p.Lines[j].Match == check.KeyExact || l.Match != check.KeyExact) {
					p.Report(l, "Duplicate of line %d", j+1).
						Relate(j+1, "first occurrence").
						Suggest("FX16", check.Preserving, "remove the duplicate rule", drop(p, l))
					continue
				}
				if j, ok := seen[k]; !ok || p.Lines[j].Match != check.KeyExact {
					seen[k] = i
				}
			}
		}
	},
}

var rb514 = &check.Check{
	Code: "RB514", Name: "robots-txt-rule", Title: "rule about /robots.txt",
	Severity: check.Warning, Affects: []check.Family{check.All},
	Doc: "A rule names /robots.txt itself. RFC 9309 and the 1996 draft say robots may " +
		"always fetch /robots.txt and that it must not appear in the rules, so the rule " +
		"has no effect on it. Remove it; the fixer does so by default only when no " +
		"longest-match verdict changes (a prefix rule also covers \"/robots.txt.bak\").",
	Before: "User-agent: *\nDisallow: /robots.txt\nDisallow: /\n",
	After:  "User-agent: *\nDisallow: /\n",
	Fix:    "FX28",
	Run: func(p *check.Pass) {
		gd := eval.NewGuard(p)
		p.EachRule(func(l *check.Line) {
			if strings.TrimSuffix(l.ValueText, "$") != "/robots.txt" {
				return
			}
			class := check.Preserving
			if !gd.KeepsLM(l.Num-1, "", true, false) {
				// Google's library has no /robots.txt exemption, and a
				// prefix rule also matches longer paths.
				class = check.Intent
			}
			p.ReportValue(l, "/robots.txt is always allowed; this rule has no effect").
				Suggest("FX28", class, "remove the rule about /robots.txt", drop(p, l))
		})
	},
}

var rb515 = &check.Check{
	Code: "RB515", Name: "case-only-difference", Title: "opposite rules differ only in letter case",
	Severity: check.Info, Affects: []check.Family{check.All},
	Doc: "An Allow and a Disallow of one group differ only in letter case. Robots " +
		"compare paths case-sensitively (RFC 9309 recommends it, Google does), so the " +
		"two rules target different URLs, and one of them probably does not cover what " +
		"its author thinks. Write both with the case the site's URLs use.",
	Before: "User-agent: *\nDisallow: /Images/\nAllow: /images/\n",
	After:  "User-agent: *\nDisallow: /images/\nAllow: /images/logo.png\n",
	Run: func(p *check.Pass) {
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
		for gi := range p.Groups {
			// Two values that differ only in case: one of them has an
			// upper-case letter.
			upper := false
			for _, i := range p.Groups[gi].Rules {
				if hasUpper(p.Lines[i].ValueText) {
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
			rules := p.Groups[gi].Rules
			if cap(pool) < len(rules) {
				pool = make([]priors, 0, len(rules))
			}
			pool = pool[:0]
			for _, i := range rules {
				l := &p.Lines[i]
				n := eval.Norm(l.ValueText)
				if n == "" {
					continue
				}
				low := foldHash(n)
				allow := l.Dir == check.Allow
				ps := seen[low]
				if ps == nil {
					pool = append(pool, priors{})
					ps = &pool[len(pool)-1]
					seen[low] = ps
				}
				for _, q := range ps.of[:ps.n] {
					if q.allow != allow && q.val != n && strings.EqualFold(q.val, n) {
						p.ReportValue(l, "%q and %q differ only in case; paths are case-sensitive", p.Lines[q.line].ValueText, l.ValueText).
							Relate(q.line+1, "the other rule")
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

// otherCheck reports whether r is a character that another check
// reports in a path (RB211, RB212, RB213), which RB516 leaves to it.
func otherCheck(r rune) bool {
	switch r {
	case 0x85, 0x2028, 0x2029, 0x2018, 0x2019, 0x201C, 0x201D, 0x2013, 0x2014, 0x2026:
		return true
	}
	return invisible(r)
}

// encode percent-encodes, as UTF-8 with upper-case hex, the runes of
// v for which enc is true.
func encode(v string, enc func(rune) bool) string {
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

var rb516 = &check.Check{
	Code: "RB516", Name: "non-ascii-path", Title: "non-ASCII characters in a path",
	Severity: check.Warning, Affects: []check.Family{check.Strict1994, check.FirstMatch},
	Doc: "A rule's path holds non-ASCII characters. Google and RFC 9309 robots " +
		"percent-encode the pattern as UTF-8 before matching, so it works for them, but " +
		"robots that compare the raw text against the encoded request URL never match " +
		"it (Mandelbot asks for encoded special characters). Write the path " +
		"percent-encoded: \"/caf%C3%A9\".",
	Before: "User-agent: *\nDisallow: /café\n",
	After:  "User-agent: *\nDisallow: /caf%C3%A9\n",
	Fix:    "FX26",
	Run: func(p *check.Pass) {
		p.EachRule(func(l *check.Line) {
			if !utf8.ValidString(p.Src[l.Span.Start.Offset:l.Span.End.Offset]) {
				return // RB203's line
			}
			enc := func(r rune) bool { return r >= 0x80 && !otherCheck(r) }
			if strings.IndexFunc(l.ValueText, enc) < 0 {
				return
			}
			nv := encode(l.ValueText, enc)
			p.ReportValue(l, "Non-ASCII path %q; write it percent-encoded (%q)", l.ValueText, nv).
				Suggest("FX26", check.Preserving, "percent-encode the path", valueEdit(l, nv))
		})
	},
}

// isHex reports whether c is a hexadecimal digit.
func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

var rb517 = &check.Check{
	Code: "RB517", Name: "lower-case-escape", Title: "lower-case percent-encoding",
	Severity: check.Info, Thorough: true, Affects: []check.Family{check.Strict1994, check.FirstMatch},
	Doc: "A percent-encoding in a path uses lower-case hex (\"%2f\", \"%e2%80%99\"). " +
		"Google upper-cases it before matching and the 1996 draft compares escapes " +
		"case-insensitively, but parsers that compare bytes miss the URL, whose escapes " +
		"are normally upper-case. Write upper-case hex digits.",
	Before: "User-agent: *\nDisallow: /caf%c3%a9\n",
	After:  "User-agent: *\nDisallow: /caf%C3%A9\n",
	Fix:    "FX26",
	Run: func(p *check.Pass) {
		p.EachRule(func(l *check.Line) {
			v := l.ValueText
			b := []byte(v)
			found := false
			for i := 0; i+2 < len(b); i++ {
				if b[i] != '%' || !isHex(b[i+1]) || !isHex(b[i+2]) {
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
				p.ReportValue(l, "Prefer upper-case hex in percent-encodings").
					Suggest("FX26", check.Preserving, "upper-case the hex digits", valueEdit(l, string(b)))
			}
		})
	},
}

var rb518 = &check.Check{
	Code: "RB518", Name: "encoded-separator", Title: `encoded "/" or "?" in a path`,
	Severity: check.Info, Thorough: true, Affects: []check.Family{check.All},
	Doc: "A path holds \"%2F\" or \"%3F\". Neither the 1996 draft nor RFC 9309 decode " +
		"reserved characters before matching, so \"/a%2Fb\" does not match the URL " +
		"\"/a/b\". Write the character itself unless the site's URLs really carry the " +
		"escape.",
	Before: "User-agent: *\nDisallow: /a%2Fb\n",
	After:  "User-agent: *\nDisallow: /a/b\n",
	Run: func(p *check.Pass) {
		p.EachRule(func(l *check.Line) {
			up := strings.ToUpper(l.ValueText)
			switch {
			case strings.Contains(up, "%2F"):
				p.ReportValue(l, `"%%2F" is not the same as "/" for robots`)
			case strings.Contains(up, "%3F"):
				p.ReportValue(l, `"%%3F" is not the same as "?" for robots`)
			}
		})
	},
}

// param returns the name of the first "?name=" in v, "" when there is
// none.
func param(v string) string {
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

var rb519 = &check.Check{
	Code: "RB519", Name: "first-parameter-only", Title: "query parameter blocked only in first position",
	Severity: check.Info, Affects: []check.Family{check.All},
	Doc: "A rule matches a query parameter only right after the \"?\", so the same " +
		"parameter later in the query string (\"/list?page=2&sort=asc\") escapes it. " +
		"Add a rule with \"&name=\" (or use \"*name=\"); for Yandex, Clean-param is the " +
		"tool for tracking parameters.",
	Before: "User-agent: *\nDisallow: /*?sort=\n",
	After:  "User-agent: *\nDisallow: /*?sort=\nDisallow: /*&sort=\n",
	Run: func(p *check.Pass) {
		// The names each rule of a group covers in any position: every
		// "&name=" and "*name=" in its value, read once per group.
		type cover struct {
			dir  check.Directive
			name string
		}
		var covered map[cover]bool
		for gi := range p.Groups {
			g := &p.Groups[gi]
			clear(covered)
			read := false
			for _, i := range g.Rules {
				l := &p.Lines[i]
				name := param(l.ValueText)
				if name == "" {
					continue
				}
				if !read {
					if covered == nil {
						covered = map[cover]bool{}
					}
					for _, j := range g.Rules {
						o := &p.Lines[j]
						for k := 0; k < len(o.ValueText); k++ {
							if c := o.ValueText[k]; c != '&' && c != '*' {
								continue
							}
							if eq := strings.IndexByte(o.ValueText[k+1:], '='); eq >= 0 {
								covered[cover{o.Dir, o.ValueText[k+1 : k+1+eq]}] = true
							}
						}
					}
					read = true
				}
				if !covered[cover{l.Dir, name}] {
					p.ReportValue(l, "Rule catches \"?%s=\" but not \"&%s=\" (parameter in another position)", name, name)
				}
			}
		}
	},
}

var rb520 = &check.Check{
	Code: "RB520", Name: "site-blocked", Title: "whole site blocked for all robots",
	Severity: check.Warning, Affects: []check.Family{check.All},
	Doc: "The \"*\" group disallows the whole site and allows nothing back, so every " +
		"robot without a group of its own stays out. This is often a leftover from a " +
		"staging or maintenance setup; note that blocked URLs can still be indexed, " +
		"without their content. Remove the rule if the site should be crawled.",
	Before: "User-agent: *\nDisallow: /\n",
	After:  "User-agent: *\nDisallow: /private/\n",
	Run: func(p *check.Pass) {
		for gi := range p.Groups {
			g := &p.Groups[gi]
			if !g.Global {
				continue
			}
			allows := false
			for _, i := range g.Rules {
				allows = allows || p.Lines[i].Dir == check.Allow && p.Lines[i].ValueText != ""
			}
			if allows {
				continue
			}
			for _, i := range g.Rules {
				l := &p.Lines[i]
				if n := eval.Norm(l.ValueText); l.Dir == check.Disallow && (n == "/" || n == "/*" || n == "*") {
					p.ReportValue(l, "Every robot without its own group is blocked from the entire site")
				}
			}
		}
	},
}

// blocksType returns "CSS" or "JavaScript" when the Disallow value v
// blocks style sheets or scripts, "" otherwise.
func blocksType(v string) string {
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

var rb521 = &check.Check{
	Code: "RB521", Name: "css-js-blocked", Title: "CSS or JavaScript blocked",
	Severity: check.Info, Affects: []check.Family{check.Google},
	Doc: "A group that Google reads (\"*\" or a Google token) disallows style sheets or " +
		"scripts. Google renders pages like a browser and needs those files to see " +
		"them as users do; it recommends not blocking them. Remove the rule, or allow " +
		"the resources the pages need.",
	Before: "User-agent: *\nDisallow: /*.css$\n",
	After:  "User-agent: *\nDisallow: /private/\n",
	Run: func(p *check.Pass) {
		for gi := range p.Groups {
			g := &p.Groups[gi]
			google := g.Global
			for _, i := range g.Agents {
				google = google || tokens.GoogleOnly(p.Lines[i].Agent)
			}
			if !google {
				continue
			}
			for _, i := range g.Rules {
				l := &p.Lines[i]
				if t := blocksType(l.ValueText); l.Dir == check.Disallow && t != "" {
					p.ReportValue(l, "Blocking %s prevents Google from rendering pages", t)
				}
			}
		}
	},
}

// sensitive are the words RB522 looks for in Disallow paths.
var sensitive = []string{"admin", "backup", ".git", ".env", ".sql", "config", "install", "secret", "password", "private"}

var rb522 = &check.Check{
	Code: "RB522", Name: "sensitive-path", Title: "path looks sensitive",
	Severity: check.Info, Thorough: true, Affects: []check.Family{check.All},
	Doc: "A Disallow path names something that looks private (admin, backup, config, " +
		"secret…). robots.txt is public and is not access control (RFC 9309 §3, the " +
		"1996 draft): listing the path tells everyone where to look. Protect it with " +
		"authentication, and use noindex to keep pages out of search results.",
	Before: "User-agent: *\nDisallow: /admin/\n",
	After:  "User-agent: *\nDisallow: /search\n",
	Run: func(p *check.Pass) {
		p.EachRule(func(l *check.Line) {
			if l.Dir != check.Disallow {
				return
			}
			v := strings.ToLower(l.ValueText)
			for _, w := range sensitive {
				if strings.Contains(v, w) {
					p.ReportValue(l, "robots.txt is public: listing %q advertises it", l.ValueText)
					return
				}
			}
		})
	},
}

var rb523 = &check.Check{
	Code: "RB523", Name: "index-html-allow", Title: "Google's index.html shortcut",
	Severity: check.Info, Thorough: true, Affects: []check.Family{check.Google},
	Doc: "An Allow ends with \"/index.htm\" or \"/index.html\". Google also allows the " +
		"directory itself (an implicit \"Allow: /dir/$\"), since servers usually answer " +
		"both with the same page; no other robot does. Add \"Allow: /dir/$\" if every " +
		"robot should fetch the directory URL.",
	Before: "User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n",
	After:  "User-agent: *\nDisallow: /d/\nAllow: /d/$\n",
	Run: func(p *check.Pass) {
		p.EachRule(func(l *check.Line) {
			if l.Dir != check.Allow {
				return
			}
			for _, f := range []string{"/index.html", "/index.htm"} {
				if strings.HasSuffix(l.ValueText, f) {
					dir := strings.TrimSuffix(l.ValueText, f[1:])
					p.ReportValue(l, "Google also allows %q itself; other robots only the file", dir)
					return
				}
			}
		})
	},
}
