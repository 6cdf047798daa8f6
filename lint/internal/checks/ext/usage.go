package ext

import (
	"fmt"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/internal/aipref"
	"github.com/robotskit/robots/lint/internal/check"
	"github.com/robotskit/robots/lint/internal/tokens"
)

// The checks of usage preferences (issue 29): Content-Usage rules
// (draft-ietf-aipref-attach-05 §3, the labels of
// draft-ietf-aipref-vocab-08), Cloudflare's Content-Signal lines
// (contentsignals.org; RB672 reads their values), RSL's License lines
// (rslstandard.org) and the usage control tokens of the agents registry
// (Google-Extended, Applebot-Extended, agents.Robot.Controls). Package
// aipref reads every value; these checks only say where its findings are
// and what the file's groups make of them.

// usageChecks are the checks of usage preferences, in code order; Checks
// has them after RB672.
var usageChecks = []*check.Check{rb673, rb674, rb675, rb676, rb677, rb678, rb679, rb680}

// --- Content-Usage (RB673–RB676) ---

// rb673 is check RB673 (content-usage-path-without-slash).
var rb673 = &check.Check{
	Code: "RB673", Name: "content-usage-path-without-slash", Title: `Content-Usage path without a leading "/"`,
	Severity: check.Warning, Affects: []check.Family{check.RFC},
	Doc: "A Content-Usage rule starts with something that looks like a path, such as " +
		"\"blog/\" or \"*.pdf\", but not with \"/\". draft-ietf-aipref-attach-05 (section 3.2) " +
		"reads a value that does not start with \"/\" as having no path, so the whole value " +
		"is taken as the preference, which then does not parse: the rule states no " +
		"preference for any path. Start the path with \"/\"; the intent fix does.",
	Before: "User-agent: *\nAllow: /\nContent-Usage: blog/ train-ai=n\n",
	After:  "User-agent: *\nAllow: /\nContent-Usage: /blog/ train-ai=n\n",
	Fix:    "FX39",
	Run: func(p *check.Pass) {
		each(p, check.ContentUsage, func(l *check.Line) {
			path, ok := relativeUsagePath(l.ValueText)
			if !ok {
				return
			}
			pref := strings.TrimLeft(l.ValueText[len(path):], " \t")
			d := p.ReportValue(l, "Content-Usage path %q does not start with \"/\": the rule is read as having no path and %q as its preference, which does not parse, so it states nothing (draft-ietf-aipref-attach-05 §3.2)", path, l.ValueText)
			if l.Value.IsValid() && aipref.ParseUsage(pref).Valid {
				at := l.Value.Start.Offset
				d.Suggest("FX39", check.Intent, `start the path with "/"`, check.Edit{Start: at, End: at, New: "/"})
			}
		})
	},
}

// rb674 is check RB674 (content-usage-preference).
var rb674 = &check.Check{
	Code: "RB674", Name: "content-usage-preference", Title: "unknown or misspelt Content-Usage preference",
	Severity: check.Warning, Affects: []check.Family{check.RFC},
	Doc: "The preference of a Content-Usage rule says less than it seems to. " +
		"draft-ietf-aipref-vocab-08 reads it as an RFC 9651 Dictionary whose labels are " +
		"train-ai, ai-use and search, each set to the Token y or n; anything else leaves the " +
		"preference unknown without an error: \"train-ai=no\", a quoted n or a bare " +
		"\"train-ai\", labels of earlier drafts (train-genai, ai-output, bots), Content " +
		"Signals names (ai-train), misspellings and unknown labels, upper-case keys (which " +
		"fail the whole value), members separated by \";\", and a rule with a path but no " +
		"preference. The message names what to write; when that is only another value for " +
		"the same label, the intent fix writes it.",
	Before: "User-agent: *\nAllow: /\nContent-Usage: train-ai=no\n",
	After:  "User-agent: *\nAllow: /\nContent-Usage: train-ai=n\n",
	Fix:    "FX41",
	Run: func(p *check.Pass) {
		for i := range p.Lines {
			l := &p.Lines[i]
			if l.Dir != check.ContentUsage {
				continue
			}
			if l.ValueText == "" {
				p.ReportValue(l, "Content-Usage has no value: it states no preference")
				continue
			}
			if _, ok := relativeUsagePath(l.ValueText); ok {
				continue // RB673
			}
			path, pref, at := splitUsage(l.ValueText)
			if pref == "" {
				p.ReportValue(l, "Content-Usage rule for %q states no preference: write the preference after the path, such as %q", path, path+" train-ai=n")
				continue
			}
			u := aipref.ParseUsage(pref)
			reportProblems(p, l, at, pref, u.Problems, u.Unknown, "FX41", func(s string) bool {
				n := aipref.ParseUsage(s)
				return n.Valid && len(n.Problems) < len(u.Problems)
			}, "is not a label of "+aipref.Vocabulary+" (train-ai, ai-use, search), which ignores unknown labels (§6.4)")
		}
	},
}

// reportProblems reports the problems probs that a parser of package
// aipref found in the value pref of line l, which starts at byte at of the
// line's value, and each key of unknown that has no problem of its own
// (unknownMsg says why it is ignored). A problem whose suggestion is
// another value for the same key gets the fix fix (FX41; none when "")
// when fixed (the value with that one rewrite) passes.
func reportProblems(p *check.Pass, l *check.Line, at int, pref string, probs []aipref.Problem, unknown []string, fix string, fixed func(string) bool, unknownMsg string) {
	base := l.Span.Start.Offset
	if l.Value.IsValid() {
		base = l.Value.Start.Offset
	}
	base += at
	told := map[string]bool{}
	for _, pr := range probs {
		told[pr.Key] = true
		msg := pr.Msg
		if pr.Suggest != "" && !strings.Contains(msg, pr.Suggest+"?") {
			msg += fmt.Sprintf("; write %q", pr.Suggest)
		}
		d := p.ReportAt(l, base+min(pr.Offset, len(pref)), "%s", msg)
		if e, ok := valueRewrite(pref, pr); ok && fix != "" && l.Value.IsValid() && fixed(pref[:e.Start]+e.New+pref[e.End:]) {
			e.Start += base
			e.End += base
			d.Suggest(fix, check.Intent, fmt.Sprintf("write %s", pr.Suggest), e)
		}
	}
	for _, k := range unknown {
		if !told[k] {
			p.ReportAt(l, base+keyOffset(pref, k), "%s %s", k, unknownMsg)
		}
	}
}

// valueRewrite returns the edit, in offsets of pref, that makes problem
// pr's suggestion of the value pref: when the suggestion is pr's key with
// another value ("train-ai=n" for "train-ai=no"), the value as written is
// replaced with that one. ok is false for any other suggestion: a label, a
// key, or a rewrite of several members.
func valueRewrite(pref string, pr aipref.Problem) (e check.Edit, ok bool) {
	k, v, found := strings.Cut(pr.Suggest, "=")
	if !found || pr.Key == "" || pr.Value == "" || v == "" || !strings.EqualFold(k, pr.Key) || strings.ContainsAny(v, ",; \t") {
		return e, false
	}
	if pr.Offset < 0 || !strings.HasPrefix(pref[min(pr.Offset, len(pref)):], pr.Value) {
		return e, false
	}
	return check.Edit{Start: pr.Offset, End: pr.Offset + len(pr.Value), New: v}, true
}

// keyOffset returns where key stands as a key in the value v: at its
// start or after white space, a comma or a semicolon, and followed by
// "=", one of those or the end; 0 when it is nowhere so.
func keyOffset(v, key string) int {
	for i := 0; i+len(key) <= len(v); i++ {
		if v[i:i+len(key)] != key || i > 0 && !strings.ContainsRune(" \t,;", rune(v[i-1])) {
			continue
		}
		if j := i + len(key); j == len(v) || strings.ContainsRune("= \t,;", rune(v[j])) {
			return i
		}
	}
	return 0
}

// rb675 is check RB675 (content-usage-conflict).
var rb675 = &check.Check{
	Code: "RB675", Name: "content-usage-conflict", Title: "conflicting Content-Usage rules for one path",
	Severity: check.Warning, Affects: []check.Family{check.RFC},
	Doc: "Two Content-Usage rules of one group have the same path and opposite " +
		"preferences for a use, one y and one n. draft-ietf-aipref-attach-05 (section 3.1) " +
		"applies both and the most restrictive wins (draft-ietf-aipref-vocab-08 section " +
		"5.1), unlike Allow and Disallow, where the more permissive wins a tie: the n " +
		"holds. Keep one rule per path.",
	Before: "User-agent: *\nAllow: /\nContent-Usage: /docs/ train-ai=y\nContent-Usage: /docs/ train-ai=n\n",
	After:  "User-agent: *\nAllow: /\nContent-Usage: /docs/ train-ai=n\n",
	Run: func(p *check.Pass) {
		for gi := range p.Groups {
			type rule struct {
				line  *check.Line
				prefs aipref.Prefs
			}
			byPath := map[string][]rule{}
			for _, m := range p.Groups[gi].Members {
				l := &p.Lines[m]
				if l.Dir != check.ContentUsage || l.ValueText == "" {
					continue
				}
				if _, ok := relativeUsagePath(l.ValueText); ok {
					continue // RB673: no path, and no preference either
				}
				path, pref, _ := splitUsage(l.ValueText)
				r := rule{l, aipref.ParseUsage(pref).Prefs}
				for _, earlier := range byPath[path] {
					if conflict := conflicts(earlier.prefs, r.prefs); conflict != "" {
						p.Report(l, "Content-Usage for %s %s line %d: the most restrictive preference applies (draft-ietf-aipref-attach-05 §3.1), so %s",
							pathPhrase(path), conflict, earlier.line.Num, restrictive(earlier.prefs, r.prefs)).
							Relate(earlier.line.Num, "the other Content-Usage rule for the path")
						break
					}
				}
				byPath[path] = append(byPath[path], r)
			}
		}
	},
}

// conflicts says which uses a and b, the preferences of an earlier and a
// later rule, set the other way ("says train-ai=n here and train-ai=y
// at"), or "" when none.
func conflicts(a, b aipref.Prefs) string {
	var here, there []string
	for pu := range aipref.NumPurposes {
		if a[pu] != aipref.None && b[pu] != aipref.None && a[pu] != b[pu] {
			here = append(here, member(pu, b[pu]))
			there = append(there, member(pu, a[pu]))
		}
	}
	if len(here) == 0 {
		return ""
	}
	return "says " + strings.Join(here, ", ") + " here and " + strings.Join(there, ", ") + " at"
}

// restrictive writes the preferences of a and b combined, the uses they
// set the other way only.
func restrictive(a, b aipref.Prefs) string {
	c := aipref.Combine(a, b)
	var out []string
	for pu := range aipref.NumPurposes {
		if a[pu] != aipref.None && b[pu] != aipref.None && a[pu] != b[pu] {
			out = append(out, member(pu, c[pu]))
		}
	}
	return strings.Join(out, ", ")
}

// member writes the preference v for purpose pu as a member of an AIPREF
// Dictionary: "train-ai=n".
func member(pu aipref.Purpose, v aipref.Value) string {
	tok := "y"
	if v == aipref.No {
		tok = "n"
	}
	return label(pu) + "=" + tok
}

// label returns the draft-ietf-aipref-vocab-08 label of purpose pu.
func label(pu aipref.Purpose) string {
	for _, l := range aipref.Labels() {
		if l.Current && l.Purpose == pu {
			return l.Name
		}
	}
	return pu.String()
}

// pathPhrase names the paths of a Content-Usage rule in a message.
func pathPhrase(path string) string {
	if path == "" {
		return "every path"
	}
	return fmt.Sprintf("%q", path)
}

// rb676 is check RB676 (content-usage-disallowed).
var rb676 = &check.Check{
	Code: "RB676", Name: "content-usage-disallowed", Title: "Content-Usage rule for a disallowed path",
	Severity: check.Info, Affects: []check.Family{check.RFC},
	Doc: "A Content-Usage rule names a path that its group's robots may not crawl: every " +
		"URL under it is disallowed. draft-ietf-aipref-attach-05 (section 3.1) says usage " +
		"preferences apply only to what may be crawled and that \"no preferences are " +
		"implied for resources that are disallowed\", so the rule has no effect. Remove it, " +
		"or Allow the path if its content may be fetched under those preferences. Only " +
		"rules whose path has no wildcard are judged, with the rules of RFC 9309.",
	Before: "User-agent: *\nDisallow: /private/\nContent-Usage: /private/ train-ai=n\n",
	After:  "User-agent: *\nDisallow: /private/\nContent-Usage: /public/ train-ai=n\n",
	Run: func(p *check.Pass) {
		var rules *robots.Rules
		for gi := range p.Groups {
			g := &p.Groups[gi]
			for _, m := range g.Members {
				l := &p.Lines[m]
				if l.Dir != check.ContentUsage {
					continue
				}
				path, _, _ := splitUsage(l.ValueText)
				if !plainPath(path) {
					continue
				}
				if rules == nil {
					if rules = compile(p, robots.RFC9309); rules == nil {
						return
					}
				}
				if line, ok := disallowedFor(p, rules, g, path); ok {
					p.Report(l, "Content-Usage for %q has no effect: the group disallows every path under it (line %d), and preferences apply only to what may be crawled (draft-ietf-aipref-attach-05 §3.1)", path, line).
						Relate(line, "the Disallow rule")
				}
			}
		}
	},
}

// plainPath reports whether a Content-Usage path is a plain prefix RB676
// can judge: it starts with "/" and has no wildcard, no "$", no
// percent-escape and only ASCII, so that it compares with the compiled
// patterns as written.
func plainPath(path string) bool {
	if !strings.HasPrefix(path, "/") || strings.ContainsAny(path, "*$%") {
		return false
	}
	for i := 0; i < len(path); i++ {
		if path[i] < 0x21 || path[i] >= 0x7F {
			return false
		}
	}
	return true
}

// disallowedFor reports whether every path that starts with path is
// disallowed to each robot that reads group g (each of its agents, with
// the groups merged for it), and the line of the rule that disallows path
// for the first. Every such path is disallowed when path is, by a rule
// without "$" (which then matches every longer path too), and no Allow
// rule at least as long could match a longer path: its text up to its
// first "*" or "$" agrees with path as far as both go.
func disallowedFor(p *check.Pass, rules *robots.Rules, g *check.Group, path string) (line int, ok bool) {
	keys := p.GroupKeys(g)
	if len(keys) == 0 {
		return 0, false
	}
	for _, k := range keys {
		a := robots.Agent{}
		if k != "*" {
			a = robots.Token(k)
		}
		d := rules.Decide(a, path)
		if d.Allowed || d.Reason != robots.Matched || strings.Contains(d.Pattern, "$") {
			return 0, false
		}
		for _, ru := range rules.AgentRules(a) {
			if p.Stopped() {
				return 0, false
			}
			if ru.Allows() && len(ru.Pattern) >= len(d.Pattern) && agrees(ru.Pattern, path) {
				return 0, false
			}
		}
		if line == 0 {
			line = d.Line
		}
	}
	return line, true
}

// agrees reports whether a rule's pattern could match a path that starts
// with path: its literal head, up to its first "*" or "$", and path agree
// as far as both go.
func agrees(pattern, path string) bool {
	head := pattern
	if i := strings.IndexAny(pattern, "*$"); i >= 0 {
		head = pattern[:i]
	}
	n := min(len(head), len(path))
	return head[:n] == path[:n]
}

// compile returns the file's rules under profile prof, charging the pass
// for the compilation: a unit per line and half the units per byte of a
// proof, which compiles under two profiles. It returns nil when the run
// has stopped.
func compile(p *check.Pass, prof robots.Profile) *robots.Rules {
	if p.Spend(len(p.Lines) + compileByteUnits*len(p.Src)) {
		return nil
	}
	return robots.Compile(p.File, prof)
}

// compileByteUnits is a byte of the file compiled under one profile.
const compileByteUnits = 8

// --- Content-Signal (RB677) ---

// rb677 is check RB677 (content-signal-repeated).
var rb677 = &check.Check{
	Code: "RB677", Name: "content-signal-repeated", Title: "Content-Signal repeated for the same robots",
	Severity: check.Warning, Affects: []check.Family{check.RFC, check.FirstMatch},
	Doc: "A robot reads more than one Content-Signal line: two in one group, or one in each " +
		"of two groups that name it, which RFC 9309 robots merge into one. This is how " +
		"Cloudflare's managed robots.txt often ends up: it puts its own \"User-agent: *\" " +
		"group with a Content-Signal line in front of the site's file, whose own " +
		"\"User-agent: *\" group may have another. The signals combine, the most " +
		"restrictive value of each winning (as draft-ietf-aipref-vocab-08 section 5.1 " +
		"combines statements), so a \"yes\" of the later line may be overridden; " +
		"first-match robots read only the first group and never see the later line. " +
		"Keep one Content-Signal line, in one group, for each robot.",
	Before: "User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n\nUser-agent: *\nContent-Signal: search=yes, ai-train=yes\nDisallow: /admin/\n",
	After:  "User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\nDisallow: /admin/\n",
	Run: func(p *check.Pass) {
		// For each agent key, its Content-Signal lines in file order
		// across the groups that name it.
		seen := map[*check.Line]bool{}
		byKey := map[string][]*check.Line{}
		var keys []string
		for gi := range p.Groups {
			g := &p.Groups[gi]
			for _, k := range p.GroupKeys(g) {
				if _, ok := byKey[k]; !ok {
					keys = append(keys, k)
					byKey[k] = nil
				}
				for _, m := range g.Members {
					if l := &p.Lines[m]; l.Dir == check.ContentSignal && l.ValueText != "" {
						byKey[k] = append(byKey[k], l)
					}
				}
			}
		}
		for _, k := range keys {
			ls := byKey[k]
			if len(ls) < 2 {
				continue
			}
			first := ls[0]
			prefs := aipref.ParseSignal(first.ValueText).Prefs
			for _, l := range ls[1:] {
				prefs = aipref.Combine(prefs, aipref.ParseSignal(l.ValueText).Prefs)
				if seen[l] {
					continue
				}
				seen[l] = true
				together := signals(prefs)
				if l.Group == first.Group {
					p.Report(l, "Content-Signal already given at line %d in this group: robots combine the two, the most restrictive value of each signal winning, and read %s", first.Num, together).
						Relate(first.Num, "the first Content-Signal")
					continue
				}
				p.Report(l, "Content-Signal for %s already given at line %d, in an earlier group: RFC 9309 robots merge the groups and combine the signals, the most restrictive winning, and read %s; first-match robots read only line %d", agentPhrase(k), first.Num, together, first.Num).
					Relate(first.Num, "the first Content-Signal")
			}
		}
	},
}

// signals writes preferences in the words of Content-Signal: "search=yes,
// ai-train=no", or "no signal" when none is given.
func signals(prefs aipref.Prefs) string {
	var out []string
	for pu := range aipref.NumPurposes {
		if v := prefs[pu]; v != aipref.None {
			out = append(out, pu.String()+"="+v.String())
		}
	}
	if len(out) == 0 {
		return "no signal"
	}
	return strings.Join(out, ", ")
}

// agentPhrase names the robots of an agent key in a message.
func agentPhrase(k string) string {
	if k == "*" {
		return `"*"`
	}
	if s, ok := tokens.Spelling(k); ok {
		return s
	}
	return k
}

// --- License (RB678) ---

// rb678 is check RB678 (license-not-absolute).
var rb678 = &check.Check{
	Code: "RB678", Name: "license-not-absolute", Title: "License URL not absolute http(s)",
	Severity: check.Warning, Affects: []check.Family{check.All},
	Doc: "A License line, which names the licence of the site's content for the Really " +
		"Simple Licensing standard (RSL 1.0), is empty or is not an absolute http or https " +
		"URL. RSL requires \"a fully qualified URL, including the protocol and host\", so " +
		"crawlers that look for the licence do not find it. Write the whole URL of the " +
		"licence file; when the robots.txt URL is known, the intent fix resolves a relative " +
		"one against it.",
	Before: "User-agent: *\nAllow: /\n\nLicense: /license.xml\n",
	After:  "User-agent: *\nAllow: /\n\nLicense: https://example.com/license.xml\n",
	Fix:    "FX42",
	Run: func(p *check.Pass) {
		for i := range p.Lines {
			l := &p.Lines[i]
			if l.Dir != check.License {
				continue
			}
			v := l.ValueText
			if v == "" {
				p.ReportValue(l, "License has no value: write the absolute URL of the licence (RSL 1.0)")
				continue
			}
			if n := schemeLen(v); n > 0 {
				if scheme := strings.ToLower(v[:n-3]); scheme != "http" && scheme != "https" {
					p.ReportValue(l, "License URL uses %s:, but RSL 1.0 wants an http or https URL", scheme)
				}
				continue
			}
			d := p.ReportValue(l, "License must be an absolute URL (\"https://host/…\", RSL 1.0), not %q", v)
			if abs, ok := resolveSitemap(p.URL, v); ok && l.Value.IsValid() {
				d.Suggest("FX42", check.Intent, "resolve the License URL against the robots.txt URL",
					check.Edit{Start: l.Value.Start.Offset, End: l.Value.End.Offset, New: abs})
			}
		}
	},
}

// --- Usage control tokens (RB679, RB680) ---

// control returns the registry robot of agent key k when it is a usage
// control token: its group says what the operator may do with what its
// other robots fetched, not what a robot may fetch (agents.Robot.Controls:
// Google-Extended, Applebot-Extended; not Yandex, a token with no crawler
// of its own that Yandex's robots fall back to).
func control(k string) (agents.Robot, bool) {
	if k == "" || k == "*" {
		return agents.Robot{}, false
	}
	r, ok := agents.Lookup(k)
	return r, ok && r.Controls != nil
}

// governed returns the registry robots whose fetches control c governs
// (Control.Governs), those the registry knows.
func governed(c agents.Robot) []agents.Robot {
	var out []agents.Robot
	for _, t := range c.Controls.Governs {
		if r, ok := agents.Lookup(t); ok {
			out = append(out, r)
		}
	}
	return out
}

// rb679 is check RB679 (control-token-crawl-line).
var rb679 = &check.Check{
	Code: "RB679", Name: "control-token-crawl-line", Title: "crawl setting for a usage control token",
	Severity: check.Info, Affects: []check.Family{check.All},
	Doc: "A group whose only agents are usage control tokens, such as Google-Extended or " +
		"Applebot-Extended, sets Crawl-delay, Request-rate or Visit-time. A control token " +
		"has no crawler of its own: Google's and Apple's crawlers fetch under their own " +
		"names and groups, and the token's group only says what may be done with what " +
		"they fetched. No robot fetches by these lines, so they have no effect; set the " +
		"crawl rate in the group of the robot that fetches. The Crawl-delay of " +
		"Google-Extended is RB645's: Google ignores Crawl-delay altogether.",
	Before: "User-agent: Applebot-Extended\nDisallow: /\nCrawl-delay: 10\n",
	After:  "User-agent: Applebot-Extended\nDisallow: /\n\nUser-agent: Applebot\nAllow: /\nCrawl-delay: 10\n",
	Run: func(p *check.Pass) {
		for gi := range p.Groups {
			g := &p.Groups[gi]
			ctl, google := controlGroup(p, g)
			if ctl == nil {
				continue
			}
			for _, m := range g.Members {
				l := &p.Lines[m]
				switch l.Dir {
				case check.CrawlDelay:
					if google {
						continue // RB645
					}
				case check.RequestRate, check.VisitTime:
				default:
					continue
				}
				p.Report(l, "%s has no effect: %s", l.Dir.String(), fetchesNothing(*ctl))
			}
		}
	},
}

// controlGroup returns a usage control token of group g when every agent
// of g is one, and whether they are all Google's (RB645 reports their
// Crawl-delay); nil otherwise.
func controlGroup(p *check.Pass, g *check.Group) (*agents.Robot, bool) {
	var first *agents.Robot
	google := true
	for _, a := range g.Agents {
		k := p.Lines[a].Agent
		r, ok := control(k)
		if !ok {
			return nil, false
		}
		if first == nil {
			first = &r
		}
		google = google && tokens.GoogleOnly(k)
	}
	return first, google
}

// fetchesNothing says that no robot fetches as control token c, and
// which does.
func fetchesNothing(c agents.Robot) string {
	msg := "no robot fetches as " + c.Token + ", a usage control token"
	if rs := governed(c); len(rs) > 0 {
		msg += "; " + rs[0].Token + " fetches under its own group"
	}
	return msg
}

// rb680 is check RB680 (control-token-redundant).
var rb680 = &check.Check{
	Code: "RB680", Name: "control-token-redundant", Title: "usage control token disallowed while its crawlers are blocked",
	Severity: check.Info, Affects: []check.Family{check.All},
	Doc: "The file disallows a usage control token, Google-Extended or Applebot-Extended, " +
		"while the crawlers whose fetches it governs (Googlebot, Googlebot-Image, " +
		"Googlebot-News and Googlebot-Video; Applebot) are themselves blocked from the " +
		"whole site. Those crawlers fetch nothing, so there is nothing for the token to " +
		"withhold from AI training or grounding, and its group changes nothing today. It " +
		"does no harm and keeps the AI opt-out should the crawlers be let in again; remove " +
		"it only if that is not wanted.",
	Before: "User-agent: Applebot\nDisallow: /\n\nUser-agent: Applebot-Extended\nDisallow: /\n",
	After:  "User-agent: Applebot\nAllow: /\n\nUser-agent: Applebot-Extended\nDisallow: /\n",
	Run: func(p *check.Pass) {
		done := map[string]bool{}
		compiled := map[robots.Profile]*robots.Rules{}
		rulesFor := func(prof robots.Profile) *robots.Rules {
			if compiled[prof] == nil {
				compiled[prof] = compile(p, prof)
			}
			return compiled[prof]
		}
		access := func(a robots.Agent, prof robots.Profile) (robots.Access, bool) {
			r := rulesFor(prof)
			if r == nil {
				return robots.Access{}, false
			}
			return r.Access(a), true
		}
		for i := range p.Lines {
			l := &p.Lines[i]
			if l.Dir != check.UserAgent || done[l.Agent] {
				continue
			}
			c, ok := control(l.Agent)
			if !ok {
				continue
			}
			done[l.Agent] = true
			rs := governed(c)
			if len(rs) == 0 {
				continue
			}
			own, ok := access(c.Reader())
			if !ok {
				return
			}
			if own.Via != robots.ViaNamed || own.State == robots.Open {
				continue
			}
			blocked, line := true, 0
			var names []string
			for _, r := range rs {
				acc, ok := access(r.Reader())
				if !ok {
					return
				}
				if acc.State != robots.Blocked {
					blocked = false
					break
				}
				if line == 0 {
					line = acc.Line
				}
				names = append(names, r.Token)
			}
			if !blocked {
				continue
			}
			how := "disallowed"
			if own.State != robots.Blocked {
				how = "partly disallowed"
			}
			d := p.Report(l, "%s is %s, but %s, whose fetches it governs, %s blocked from the whole site: nothing is fetched for it to withhold from %s",
				c.Token, how, andList(names), isAre(len(names)), andList(c.Controls.Purposes))
			if line > 0 {
				d.Relate(line, "the rule that blocks "+names[0])
			}
		}
	},
}

// andList writes names as "a", "a and b" or "a, b and c".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// isAre is "is" for one, "are" for more.
func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// --- Reading Content-Usage rules ---

// splitUsage splits a Content-Usage value into its path and its
// preference, and returns the byte offset of the preference in v: a value
// that starts with "/" has a path up to the first space or tab; any other
// value has none (draft-ietf-aipref-attach-05 §3.2, as
// robots.Rules.UsageStatements reads it).
func splitUsage(v string) (path, pref string, at int) {
	if !strings.HasPrefix(v, "/") {
		return "", v, 0
	}
	i := strings.IndexAny(v, " \t")
	if i < 0 {
		return v, "", len(v)
	}
	rest := strings.TrimLeft(v[i:], " \t")
	return v[:i], rest, len(v) - len(rest)
}

// relativeUsagePath returns the first field of a Content-Usage value that
// looks like a path without its leading "/": the value does not start with
// "/", has a preference after white space, and its first field has no "=",
// "," or ";" and holds a "/" or starts with "*" ("blog/", "*.pdf").
func relativeUsagePath(v string) (string, bool) {
	if v == "" || v[0] == '/' || v[0] == '.' {
		return "", false
	}
	i := strings.IndexAny(v, " \t")
	if i < 0 || strings.TrimLeft(v[i:], " \t") == "" {
		return "", false
	}
	f := v[:i]
	if strings.ContainsAny(f, "=,;") || !strings.Contains(f, "/") && f[0] != '*' {
		return "", false
	}
	return f, true
}
