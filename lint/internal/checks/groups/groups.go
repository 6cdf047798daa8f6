// Package groups holds the checks of group structure (RB4xx, section D
// of docs/checks.md), on the canonical grouping (a User-agent line after a
// rule starts a new group; blank lines end nothing) unless a check says
// otherwise: orphan rules, blank lines inside groups, groups for the same
// robot, the order of groups, and the User-agent values themselves.
package groups

import (
	"slices"
	"strings"

	"github.com/robotskit/robots/lint/internal/check"
	"github.com/robotskit/robots/lint/internal/tokens"
	"github.com/robotskit/robots/syntax"
)

// Checks are the checks of the section, in code order.
var Checks = []*check.Check{rb401, rb402, rb403, rb404, rb405, rb406, rb407, rb408, rb409, rb410, rb411, rb412, rb413, rb414, rb415, rb416}

var rb401 = &check.Check{
	Code: "RB401", Name: "orphan-member", Title: "rule or group directive before any User-agent",
	Severity: check.Error, Affects: []check.Family{check.All, check.Temoto},
	Doc: "A group member (Allow, Disallow, Crawl-delay, …) comes before the first " +
		"User-agent line, so it belongs to no group. Every robot ignores it (RFC 9309 " +
		"says it SHOULD), and temoto/robotstxt rejects the whole file. Put a " +
		"User-agent line above it, or remove it.",
	Before: "Disallow: /tmp\nUser-agent: *\nDisallow: /private\n",
	After:  "User-agent: *\nDisallow: /tmp\nDisallow: /private\n",
	Fix:    "FX14",
	Run: func(p *check.Pass) {
		if len(p.Groups) == 0 {
			// No User-agent line at all: every rule of the file is an
			// orphan. Commenting each one out would rewrite the whole file
			// and keep nothing worth keeping; what the author evidently
			// meant is a group for every robot, which changes what robots
			// do, so it is an intent fix, and one finding says it.
			n, first := 0, (*check.Line)(nil)
			for i := range p.Lines {
				if l := &p.Lines[i]; l.Orphan {
					if first == nil {
						first = l
					}
					n++
				}
			}
			if first != nil {
				at := first.Span.Start.Offset
				p.Report(first, "the file has no User-agent line, so every robot ignores its %d group lines; add \"User-agent: *\" above them if they are meant for every robot", n).
					Suggest("FX14", check.Intent, `insert "User-agent: *" above the first rule`, check.Edit{Start: at, End: at, New: "User-agent: *" + p.EOL(first)})
			}
			return
		}
		for i := range p.Lines {
			l := &p.Lines[i]
			if !l.Orphan {
				continue
			}
			p.Report(l, "%q appears before any User-agent line and belongs to no group", l.KeyText).
				Suggest("FX14", check.Preserving, "comment out the orphan line", check.CommentOut(l))
		}
	},
}

// rb402 is check RB402: see its Doc.
var rb402 = &check.Check{
	Code: "RB402", Name: "blank-after-user-agent", Title: "blank line between User-agent and its first rule",
	Severity: check.Error, Affects: []check.Family{check.Strict1994, check.FirstMatch, check.Yandex},
	Doc: "A blank line separates a User-agent line from the rules below it. Google " +
		"and RFC 9309 robots ignore blank lines, but the 1994 standard, the 1996 " +
		"draft, Yandex and Moderatobot end the record there, so for them the group " +
		"is empty and its rules belong to nobody (old CPython even drops the half " +
		"record). Remove the blank line.",
	Before: "User-agent: *\n\nDisallow: /private\n",
	After:  "User-agent: *\nDisallow: /private\n",
	Fix:    "FX12",
	Run:    func(p *check.Pass) { blankInside(p, 402) },
}

// rb403 is check RB403: see its Doc.
var rb403 = &check.Check{
	Code: "RB403", Name: "blank-between-rules", Title: "blank line between rules of one group",
	Severity: check.Warning, Affects: []check.Family{check.Strict1994, check.FirstMatch, check.Yandex},
	Doc: "A blank line stands between two member lines of one group. Google and RFC " +
		"9309 robots read one group; robots that end a record at a blank line " +
		"(the old standards, Yandex, Moderatobot) see the lines after it as " +
		"belonging to no group and ignore them. Remove the blank line.",
	Before: "User-agent: *\nDisallow: /a\n\nDisallow: /b\n",
	After:  "User-agent: *\nDisallow: /a\nDisallow: /b\n",
	Fix:    "FX12",
	Run:    func(p *check.Pass) { blankInside(p, 403) },
}

// rb404 is check RB404: see its Doc.
var rb404 = &check.Check{
	Code: "RB404", Name: "blank-between-user-agents", Title: "blank line between the User-agent lines of one group",
	Severity: check.Error, Affects: []check.Family{check.FirstMatch, check.Google, check.RFC},
	Doc: "A blank line separates two User-agent lines that Google and RFC 9309 " +
		"robots read as one group sharing the rules below. Old CPython discards " +
		"the first agent's half record, so that robot falls back to \"*\"; " +
		"Moderatobot closes the first group with an empty Disallow, allowing it " +
		"everything. Remove the blank line so all robots agree.",
	Before: "User-agent: a\n\nUser-agent: b\nDisallow: /x\n",
	After:  "User-agent: a\nUser-agent: b\nDisallow: /x\n",
	Fix:    "FX12",
	Run:    func(p *check.Pass) { blankInside(p, 404) },
}

// blankInside reports blank lines inside a canonical group: after a
// User-agent line and before a member (402), between members (403), or
// between User-agent lines (404), at the line after the blank. The fix
// (FX12) removes the blank lines between the two.
func blankInside(p *check.Pass, code int) {
	prev := -1
	var blanks []int
	for i := range p.Lines {
		l := &p.Lines[i]
		if l.Kind == syntax.BlankLine {
			if prev >= 0 {
				blanks = append(blanks, i)
			}
			continue
		}
		if !l.Significant() {
			continue
		}
		if len(blanks) > 0 {
			a := &p.Lines[prev]
			same := a.Group >= 0 && a.Group == l.Group && !a.Orphan && !l.Orphan
			var msg string
			switch {
			case !same:
			case code == 402 && a.Dir == check.UserAgent && l.Dir.Member():
				msg = "Blank line after User-agent: Yandex and robots of the 1994 and 1996 standards end the group here and ignore these rules"
			case code == 403 && a.Dir.Member() && l.Dir.Member():
				msg = "Blank line inside a group: Yandex and robots of the 1994 and 1996 standards ignore the rules after it"
			case code == 404 && a.Dir == check.UserAgent && l.Dir == check.UserAgent:
				msg = "Blank line between User-agent lines: Google and RFC 9309 robots give the agent above the rules below, first-match robots do not"
			}
			if msg != "" {
				edits := make([]check.Edit, len(blanks))
				for j, b := range blanks {
					edits[j] = p.DeleteLine(&p.Lines[b])
				}
				p.Report(l, "%s", msg).
					Suggest("FX12", check.PreservingGoogle, "remove the blank lines inside the group", edits...)
			}
		}
		prev, blanks = i, blanks[:0]
	}
}

// rb405 is check RB405: see its Doc.
var rb405 = &check.Check{
	Code: "RB405", Name: "group-without-blank-before", Title: "new group not preceded by a blank line",
	Severity: check.Info, Affects: []check.Family{check.Strict1994, check.FirstMatch},
	Doc: "A User-agent line starts a new group right after the previous group's " +
		"lines. Google and RFC 9309 robots do not need a separator, but the 1994 " +
		"standard and the 1996 draft define records as separated by blank lines, " +
		"Yandex asks for one before every User-agent, and parsers that split at " +
		"blank lines would merge the two records. Insert a blank line.",
	Before: "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n",
	After:  "User-agent: a\nDisallow: /x\n\nUser-agent: b\nDisallow: /y\n",
	Fix:    "FX13",
	Run: func(p *check.Pass) {
		for gi := 1; gi < len(p.Groups); gi++ {
			ua := p.Groups[gi].First()
			j := ua - 1
			for j >= 0 && p.Lines[j].Kind == syntax.CommentLine {
				j--
			}
			if j < 0 || p.Lines[j].Kind == syntax.BlankLine {
				continue
			}
			// The blank line goes above the comments that introduce the
			// group, which belong to it.
			p.Report(&p.Lines[ua], "Insert a blank line before this group").
				Suggest("FX13", check.Preserving, "insert a blank line", p.InsertBefore(&p.Lines[j+1], ""))
		}
	},
}

// rb406 is check RB406: see its Doc.
var rb406 = &check.Check{
	Code: "RB406", Name: "group-without-disallow", Title: "group without a Disallow line",
	Severity: check.Info, Affects: []check.Family{check.Strict1994},
	Doc: "The group has no Disallow line. RFC 9309 allows that (no rule allows " +
		"everything), but the 1994 standard and the 1996 draft require at least one " +
		"Disallow per record (https://www.robotstxt.org/orig.html), and strict robots " +
		"may reject or misplace " +
		"the record. An empty \"Disallow:\" forbids nothing and satisfies them; " +
		"Moderatobot inserts one too.",
	Before: "User-agent: quxbot\nCrawl-delay: 5\n",
	After:  "User-agent: quxbot\nDisallow:\nCrawl-delay: 5\n",
	Fix:    "FX38",
	Run: func(p *check.Pass) {
		for gi := range p.Groups {
			g := &p.Groups[gi]
			has := false
			for _, m := range g.Members {
				has = has || p.Lines[m].Dir == check.Disallow
			}
			if has {
				continue
			}
			d := p.Report(&p.Lines[g.First()], "Group has no Disallow line")
			if hasBlank(p, g) {
				continue // FX12 joins the group first; FX38 then adds "Disallow:" as Moderatobot does
			}
			if len(g.Rules) > 0 {
				// Next to an Allow line, an empty Disallow is what RB504
				// reports and FX20 removes: the two fixes would undo each
				// other round after round.
				continue
			}
			d.Suggest("FX38", check.Preserving, "add an empty Disallow line",
				p.InsertAfter(anchor(p, g), []string{"Disallow:"}))
		}
	},
}

// rb407 is check RB407: see its Doc.
var rb407 = &check.Check{
	Code: "RB407", Name: "several-groups-same-agent", Title: "the same robot has several groups",
	Severity: check.Warning, Affects: []check.Family{check.FirstMatch, check.RFC, check.Google},
	Doc: "The same robot is named in two or more groups. RFC 9309 robots and Google " +
		"merge all its groups; the 1996 draft, first-match robots and Moderatobot " +
		"obey only the first, and Mandelbot's robots.txt documentation (Fractle) " +
		"calls the file invalid. " +
		"Merge the groups into one; the fix does so when both groups name the same " +
		"robots.",
	Before: "User-agent: Googlebot\nDisallow: /a\n\nUser-agent: Googlebot\nDisallow: /b\n",
	After:  "User-agent: Googlebot\nDisallow: /a\nDisallow: /b\n",
	Fix:    "FX15",
	Run:    func(p *check.Pass) { repeated(p, false) },
}

// rb408 is check RB408: see its Doc.
var rb408 = &check.Check{
	Code: "RB408", Name: "several-global-groups", Title: "several `User-agent: *` groups",
	Severity: check.Error, Affects: []check.Family{check.Yandex, check.FirstMatch, check.Strict1994},
	Doc: "More than one group is for \"*\". Google and RFC 9309 robots merge them, " +
		"but Yandex reports an error, the 1994 standard forbids it, and old CPython " +
		"keeps only the first, so a block prepended by a CDN can hide the site's " +
		"own rules. Merge the groups into one.",
	Before: "User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n",
	After:  "User-agent: *\nDisallow: /a\nDisallow: /b\n",
	Fix:    "FX15",
	Run:    func(p *check.Pass) { repeated(p, true) },
}

// repeated reports agent keys named in more than one canonical
// group, at each later group: "*" (RB408) or a robot's key (RB407). When
// the two groups name the same keys, the fix (FX15) merges into the first
// group every later group that names the same keys: one fix for them all,
// so that the fixer does not need a round per group.
func repeated(p *check.Pass, global bool) {
	type firstSeen struct{ group, line int }
	seen := map[string]firstSeen{}
	keys := make([][]string, len(p.Groups))
	merges := map[int][]check.Edit{}
	for gi := range p.Groups {
		g := &p.Groups[gi]
		keys[gi] = p.GroupKeys(g)
		done := map[string]bool{}
		for _, a := range g.Agents {
			l := &p.Lines[a]
			k := l.Agent
			if k == "" || done[k] || (k == "*") != global {
				continue
			}
			done[k] = true
			f, ok := seen[k]
			if !ok {
				seen[k] = firstSeen{gi, l.Num}
				continue
			}
			var d *check.Diagnostic
			if global {
				d = p.Report(l, "Another \"User-agent: *\" group (first at line %d)", f.line)
			} else {
				d = p.Report(l, "%q already has a group at line %d; Google and RFC 9309 robots merge the two, first-match robots use only the first", l.ValueText, f.line)
			}
			if !slices.Equal(keys[f.group], keys[gi]) {
				continue
			}
			edits, ok := merges[f.group]
			if !ok {
				// Each later group's keys are compared with the first's.
				if p.Spend(len(p.Groups) - f.group) {
					return
				}
				var later []*check.Group
				for j := f.group + 1; j < len(p.Groups); j++ {
					if slices.Equal(keys[f.group], p.GroupKeys(&p.Groups[j])) {
						later = append(later, &p.Groups[j])
					}
				}
				edits = merge(p, &p.Groups[f.group], later)
				merges[f.group] = edits
			}
			d.Suggest("FX15", check.PreservingGoogle, "merge the groups into the first one", edits...)
		}
	}
}

var rb409 = &check.Check{
	Code: "RB409", Name: "named-group-hides-global", Title: "a named group without Allow/Disallow hides the `*` rules",
	Severity: check.Warning, Affects: []check.Family{check.Google, check.Bing, check.Yandex, check.RFC, check.FirstMatch},
	Doc: "A group names a robot but holds no Allow or Disallow line (only " +
		"Crawl-delay or the like), while the \"*\" group disallows something. " +
		"Google, Bing, Yandex and RFC 9309 robots pick the robot's own group and " +
		"ignore \"*\" entirely, so the robot may crawl everything (Bing keeps only " +
		"the \"*\" Crawl-delay). Copy the rules it should obey into its group, or " +
		"remove the group.",
	Before: "User-agent: *\nDisallow: /private\n\nUser-agent: Googlebot\nCrawl-delay: 5\n",
	After:  "User-agent: *\nDisallow: /private\n\nUser-agent: Googlebot\nDisallow: /private\nCrawl-delay: 5\n",
	Run: func(p *check.Pass) {
		blocks := false
		for gi := range p.Groups {
			g := &p.Groups[gi]
			for _, r := range g.Rules {
				blocks = blocks || g.Global && p.Lines[r].Dir == check.Disallow && p.Lines[r].ValueText != ""
			}
		}
		if !blocks {
			return
		}
		for gi := range p.Groups {
			g := &p.Groups[gi]
			if g.Global || len(g.Rules) > 0 {
				continue
			}
			for _, a := range g.Agents {
				if l := &p.Lines[a]; l.Agent != "" {
					p.Report(&p.Lines[g.First()], "%q has its own group without rules, so it ignores every rule of the * group", l.ValueText)
					break
				}
			}
		}
	},
}

// rb410 is check RB410: see its Doc.
var rb410 = &check.Check{
	Code: "RB410", Name: "star-in-agent-name", Title: "`*` mixed with other characters in User-agent",
	Severity: check.Warning, Affects: []check.Family{check.Google, check.FirstMatch},
	Doc: "A User-agent value mixes \"*\" with a name (\"Googlebot*\", \"*bot\"). No " +
		"standard makes \"*\" a wildcard there: Google reads \"Googlebot*\" as " +
		"Googlebot, \"*bot\" as an empty token that matches nobody, and \"* name\" " +
		"as \"*\", while substring matchers look for the literal text. Write the " +
		"plain product token, or \"*\" alone.",
	Before: "User-agent: Googlebot*\nDisallow: /private\n",
	After:  "User-agent: Googlebot\nDisallow: /private\n",
	Fix:    "FX17",
	Run: func(p *check.Pass) {
		for i := range p.Lines {
			l := &p.Lines[i]
			if l.Dir != check.UserAgent || agentNote(p, l) != 410 {
				continue
			}
			d := p.ReportValue(l, "%q mixes \"*\" with a name; \"*\" is not a wildcard in User-agent", l.ValueText)
			// Only "Name*" has an evident meaning, the one Google gives it:
			// then only substring matchers miss the robot.
			if name := strings.TrimRight(l.ValueText, "*"); rfcToken(name) {
				d.Only(check.FirstMatch).Suggest("FX17", check.PreservingGoogle, "keep the product token",
					check.Edit{Start: l.Value.Start.Offset, End: l.Value.End.Offset, New: name})
			}
		}
	},
}

// rb411 is check RB411: see its Doc.
var rb411 = &check.Check{
	Code: "RB411", Name: "global-group-not-last", Title: "`User-agent: *` group is not last",
	Severity: check.Info, Affects: []check.Family{check.FirstMatch},
	Doc: "The \"*\" group comes before groups for named robots. RFC 9309 robots, " +
		"Google and the 1996 draft pick a group regardless of order, but naive " +
		"parsers that stop at the first group matching a robot stop at \"*\" and " +
		"never see the robot's own group. Move the \"*\" group to the end, as " +
		"Moderatobot does.",
	Before: "User-agent: *\nDisallow: /private\n\nUser-agent: Googlebot\nDisallow: /tmp\n",
	After:  "User-agent: Googlebot\nDisallow: /tmp\n\nUser-agent: *\nDisallow: /private\n",
	Fix:    "FX18",
	Run: func(p *check.Pass) {
		var fix *orderFix
		for gi := range p.Groups {
			g := &p.Groups[gi]
			if !g.Global {
				continue
			}
			// Each "*" group looks at every group after it.
			if p.Spend((len(p.Groups)-gi)/8 + 1) {
				return
			}
			later := false
			for j := gi + 1; j < len(p.Groups); j++ {
				later = later || !p.Groups[j].Global
			}
			if !later {
				continue
			}
			var star *check.Line
			for _, a := range g.Agents {
				if p.Lines[a].Agent == "*" {
					star = &p.Lines[a]
					break
				}
			}
			d := p.Report(star, "Move the \"User-agent: *\" group after the specific groups")
			if fix == nil {
				fix = reorder(p)
			}
			if fix.edits != nil {
				d.Suggest("FX18", fix.class, "reorder the groups", fix.edits...)
			}
		}
	},
}

// rb412 is check RB412: see its Doc.
var rb412 = &check.Check{
	Code: "RB412", Name: "user-agent-string", Title: "full user-agent string or version in User-agent",
	Severity: check.Warning, Affects: []check.Family{check.Google, check.FirstMatch},
	Doc: "The User-agent value is a version (\"Googlebot/2.1\") or a whole HTTP " +
		"user-agent string. Google matches only the leading run of letters, \"-\" " +
		"and \"_\": \"Googlebot/2.1\" still means Googlebot, but \"Mozilla/5.0 " +
		"(compatible; Googlebot/2.1)\" means \"Mozilla\", which no robot is; old " +
		"substring matchers never find the versioned text in a robot's name. Write " +
		"the product token alone.",
	Before: "User-agent: Googlebot/2.1\nDisallow: /private\n",
	After:  "User-agent: Googlebot\nDisallow: /private\n",
	Fix:    "FX17",
	Run: func(p *check.Pass) {
		for i := range p.Lines {
			l := &p.Lines[i]
			if l.Dir != check.UserAgent || agentNote(p, l) != 412 {
				continue
			}
			edit := func(tok string) check.Edit {
				return check.Edit{Start: l.Value.Start.Offset, End: l.Value.End.Offset, New: tok}
			}
			if name, ok := versioned(l.ValueText); ok {
				// Google reads the name before the "/": only substring
				// matchers miss the robot.
				p.ReportValue(l, "Use the product token (%q), not %q", name, l.ValueText).
					Only(check.FirstMatch).
					Suggest("FX17", check.PreservingGoogle, "keep the product token", edit(name))
				continue
			}
			tok := knownIn(l.ValueText)
			if tok == "" {
				lead := l.ValueText[:len(l.Agent)]
				p.ReportValue(l, "Use the product token (%q), not %q", lead, l.ValueText)
				continue
			}
			// Google already reads the token when the string starts with
			// it; otherwise the fix gives the group to another robot.
			d := p.ReportValue(l, "Use the product token (%q), not %q", tok, l.ValueText)
			class := check.Intent
			if strings.EqualFold(tok, l.Agent) {
				class = check.PreservingGoogle
				d.Only(check.FirstMatch)
			}
			d.Suggest("FX17", class, "keep the product token", edit(tok))
		}
	},
}

// rb413 is check RB413: see its Doc.
var rb413 = &check.Check{
	Code: "RB413", Name: "token-outside-rfc-alphabet", Title: "product token outside the RFC alphabet",
	Severity: check.Info, Affects: []check.Family{check.Google, check.RFC},
	Doc: "The User-agent value holds characters RFC 9309 does not allow in a " +
		"product token (digits, \".\", \"!\"; only letters, \"-\" and \"_\" are). " +
		"Google cuts the token at the first such character, so \"MJ12bot\" reads as " +
		"\"mj\" and \"360Spider\" as nothing; the robot's own parser usually copes. " +
		"Nothing to fix unless the robot documents another token.",
	Before: "User-agent: Yahoo!\nDisallow: /private\n",
	After:  "User-agent: Slurp\nDisallow: /private\n",
	Run: func(p *check.Pass) {
		for i := range p.Lines {
			l := &p.Lines[i]
			if l.Dir == check.UserAgent && agentNote(p, l) == 413 {
				p.ReportValue(l, "%q is not an RFC 9309 product token; Google reads it as %q", l.ValueText, l.Agent)
			}
		}
	},
}

// rb414 is check RB414: see its Doc.
var rb414 = &check.Check{
	Code: "RB414", Name: "misspelled-robot-name", Title: "probably misspelled robot name",
	Severity: check.Warning, Affects: []check.Family{check.All},
	Doc: "The User-agent value is no known crawler token but is within two typing " +
		"errors of one (\"Googelbot\", \"Bingbott\"). A misspelt token matches no " +
		"robot, so the robot it was meant for silently obeys the \"*\" group " +
		"instead. Check the spelling against the robot's documentation.",
	Before: "User-agent: Googelbot\nDisallow: /private\n",
	After:  "User-agent: Googlebot\nDisallow: /private\n",
	Run: func(p *check.Pass) {
		near := map[string]string{}
		for i := range p.Lines {
			l := &p.Lines[i]
			k := l.Agent
			if l.Dir != check.UserAgent || k == "" || k == "*" || tokens.IsKnown(k) || agentNote(p, l) != 0 {
				continue
			}
			known, ok := near[k]
			if !ok {
				// Both read every known token; nearest's answers are
				// kept for the process, but charged all the same, so
				// that the count does not depend on what the process
				// checked before.
				if p.Spend(len(tokens.Known()) * (containUnits + distanceUnits)) {
					return
				}
				if !partOfKnown(k) { // else RB705's case
					known = nearest(k)
				}
				near[k] = known
			}
			if known != "" {
				p.ReportValue(l, "Unknown robot %q — did you mean %q?", l.ValueText, known)
			}
		}
	},
}

// rb415 is check RB415: see its Doc.
var rb415 = &check.Check{
	Code: "RB415", Name: "agent-repeated-in-group", Title: "same agent twice in one group",
	Severity: check.Info,
	Doc: "The same robot is listed twice in one group. It changes nothing for any " +
		"robot, but it is noise that hides what the group is for. Remove the second " +
		"line.",
	Before: "User-agent: Googlebot\nUser-agent: googlebot\nDisallow: /private\n",
	After:  "User-agent: Googlebot\nDisallow: /private\n",
	Fix:    "FX16",
	Run: func(p *check.Pass) {
		for gi := range p.Groups {
			seen := map[string]bool{}
			for _, a := range p.Groups[gi].Agents {
				l := &p.Lines[a]
				if l.Agent == "" {
					continue
				}
				if seen[l.Agent] {
					p.Report(l, "%q is already listed in this group", l.ValueText).
						Suggest("FX16", check.Preserving, "remove the repeated agent", p.DeleteLine(l))
				}
				seen[l.Agent] = true
			}
		}
	},
}

// rb416 is check RB416: see its Doc.
var rb416 = &check.Check{
	Code: "RB416", Name: "user-agent-after-member", Title: "User-agent after non-rule lines of the same group",
	Severity: check.Warning, Affects: []check.Family{check.FirstMatch, check.CrawlerCommons},
	Doc: "Another line (Crawl-delay, Sitemap, an unknown directive, …) stands " +
		"between two User-agent lines of one group. RFC 9309 says such lines must " +
		"not end a group, so Google reads one group for both robots; old CPython " +
		"and legacy crawler-commons start a new record there, leaving the first " +
		"robot with only its Crawl-delay. List all User-agent lines first and put " +
		"the other lines after the rules.",
	Before: "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /\n",
	After:  "User-agent: a\nUser-agent: b\nDisallow: /\nCrawl-delay: 5\n",
	Fix:    "FX36",
	Run: func(p *check.Pass) {
		for gi := range p.Groups {
			g := &p.Groups[gi]
			var between []int // every such line of the group, for the fix
			type hit struct{ ua, first int }
			var hits []hit
			for k := 1; k < len(g.Agents); k++ {
				first := -1
				for i := g.Agents[k-1] + 1; i < g.Agents[k]; i++ {
					l := &p.Lines[i]
					if l.Significant() && l.Dir != check.UserAgent {
						between = append(between, i)
						if first < 0 {
							first = i
						}
					}
				}
				if first >= 0 {
					hits = append(hits, hit{g.Agents[k], first})
				}
			}
			if len(hits) == 0 {
				continue
			}
			var moved []string
			var edits []check.Edit
			for _, i := range between {
				moved = append(moved, p.LineText(&p.Lines[i]))
				edits = append(edits, p.DeleteLine(&p.Lines[i]))
			}
			edits = append(edits, p.InsertAfter(anchor(p, g), moved))
			for _, h := range hits {
				text := strings.TrimSpace(p.LineText(&p.Lines[h.first]))
				p.Report(&p.Lines[h.ua], "%q between User-agent lines makes the grouping ambiguous", text).
					Suggest("FX36", check.PreservingGoogle, "move the line after the group's rules", edits...)
			}
		}
	},
}
