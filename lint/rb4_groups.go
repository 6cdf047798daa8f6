package lint

import (
	"strings"

	"github.com/robotskit/robots/syntax"
)

// Checks of group structure (RB4xx), on the canonical grouping (a
// User-agent line after a rule starts a new group; blank lines end
// nothing) unless a check says otherwise.
var groupChecks = []*Check{rb401, rb402, rb403, rb404, rb405, rb406, rb407, rb408, rb409, rb410, rb411, rb412, rb413, rb414, rb415, rb416}

var rb401 = &Check{
	Code: "RB401", Name: "orphan-member", Title: "rule or group directive before any User-agent",
	Severity: Error, Affects: []Family{ALL, GOT},
	Doc: "A group member (Allow, Disallow, Crawl-delay, …) comes before the first " +
		"User-agent line, so it belongs to no group. Every robot ignores it (RFC 9309 " +
		"says it SHOULD), and temoto/robotstxt rejects the whole file. Put a " +
		"User-agent line above it, or remove it.",
	Before: "Disallow: /tmp\nUser-agent: *\nDisallow: /private\n",
	After:  "User-agent: *\nDisallow: /tmp\nDisallow: /private\n",
	Fix:    "FX14",
	run: func(p *pass) {
		if len(p.groups) == 0 {
			// No User-agent line at all: every rule of the file is an
			// orphan. Commenting each one out would rewrite the whole file
			// and keep nothing worth keeping; what the author evidently
			// meant is a group for every robot, which changes what robots
			// do, so it is an intent fix, and one finding says it.
			n, first := 0, (*line)(nil)
			for i := range p.lines {
				if l := &p.lines[i]; l.orphan {
					if first == nil {
						first = l
					}
					n++
				}
			}
			if first != nil {
				at := first.Span.Start.Offset
				p.report(first, "the file has no User-agent line, so every robot ignores its %d group lines; add \"User-agent: *\" above them if they are meant for every robot", n).
					suggest("FX14", Intent, `insert "User-agent: *" above the first rule`, Edit{Start: at, End: at, New: "User-agent: *" + p.eol(first)})
			}
			return
		}
		for i := range p.lines {
			l := &p.lines[i]
			if !l.orphan {
				continue
			}
			p.report(l, "%q appears before any User-agent line and belongs to no group", l.key).
				suggest("FX14", Preserving, "comment out the orphan line", commentOut(l))
		}
	},
}

// rb402 is check RB402: see its Doc.
var rb402 = &Check{
	Code: "RB402", Name: "blank-after-user-agent", Title: "blank line between User-agent and its first rule",
	Severity: Error, Affects: []Family{S94, FM, YNDX},
	Doc: "A blank line separates a User-agent line from the rules below it. Google " +
		"and RFC 9309 robots ignore blank lines, but the 1994 standard, the 1996 " +
		"draft, Yandex and Moderatobot end the record there, so for them the group " +
		"is empty and its rules belong to nobody (old CPython even drops the half " +
		"record). Remove the blank line.",
	Before: "User-agent: *\n\nDisallow: /private\n",
	After:  "User-agent: *\nDisallow: /private\n",
	Fix:    "FX12",
	run:    func(p *pass) { p.groupsBlankInside(402) },
}

// rb403 is check RB403: see its Doc.
var rb403 = &Check{
	Code: "RB403", Name: "blank-between-rules", Title: "blank line between rules of one group",
	Severity: Warning, Affects: []Family{S94, FM, YNDX},
	Doc: "A blank line stands between two member lines of one group. Google and RFC " +
		"9309 robots read one group; robots that end a record at a blank line " +
		"(the old standards, Yandex, Moderatobot) see the lines after it as " +
		"belonging to no group and ignore them. Remove the blank line.",
	Before: "User-agent: *\nDisallow: /a\n\nDisallow: /b\n",
	After:  "User-agent: *\nDisallow: /a\nDisallow: /b\n",
	Fix:    "FX12",
	run:    func(p *pass) { p.groupsBlankInside(403) },
}

// rb404 is check RB404: see its Doc.
var rb404 = &Check{
	Code: "RB404", Name: "blank-between-user-agents", Title: "blank line between the User-agent lines of one group",
	Severity: Error, Affects: []Family{FM, GOOG, RFC},
	Doc: "A blank line separates two User-agent lines that Google and RFC 9309 " +
		"robots read as one group sharing the rules below. Old CPython discards " +
		"the first agent's half record, so that robot falls back to \"*\"; " +
		"Moderatobot closes the first group with an empty Disallow, allowing it " +
		"everything. Remove the blank line so all robots agree.",
	Before: "User-agent: a\n\nUser-agent: b\nDisallow: /x\n",
	After:  "User-agent: a\nUser-agent: b\nDisallow: /x\n",
	Fix:    "FX12",
	run:    func(p *pass) { p.groupsBlankInside(404) },
}

// groupsBlankInside reports blank lines inside a canonical group: after a
// User-agent line and before a member (402), between members (403), or
// between User-agent lines (404), at the line after the blank. The fix
// (FX12) removes the blank lines between the two.
func (p *pass) groupsBlankInside(code int) {
	prev := -1
	var blanks []int
	for i := range p.lines {
		l := &p.lines[i]
		if l.Kind == syntax.BlankLine {
			if prev >= 0 {
				blanks = append(blanks, i)
			}
			continue
		}
		if !syntaxSignificant(l) {
			continue
		}
		if len(blanks) > 0 {
			a := &p.lines[prev]
			same := a.group >= 0 && a.group == l.group && !a.orphan && !l.orphan
			var msg string
			switch {
			case !same:
			case code == 402 && a.dir == dUserAgent && l.dir.member():
				msg = "Blank line after User-agent: Yandex and robots of the 1994 and 1996 standards end the group here and ignore these rules"
			case code == 403 && a.dir.member() && l.dir.member():
				msg = "Blank line inside a group: Yandex and robots of the 1994 and 1996 standards ignore the rules after it"
			case code == 404 && a.dir == dUserAgent && l.dir == dUserAgent:
				msg = "Blank line between User-agent lines: Google and RFC 9309 robots give the agent above the rules below, first-match robots do not"
			}
			if msg != "" {
				edits := make([]Edit, len(blanks))
				for j, b := range blanks {
					edits[j] = p.deleteLine(&p.lines[b])
				}
				p.report(l, "%s", msg).
					suggest("FX12", PreservingGoogle, "remove the blank lines inside the group", edits...)
			}
		}
		prev, blanks = i, blanks[:0]
	}
}

// rb405 is check RB405: see its Doc.
var rb405 = &Check{
	Code: "RB405", Name: "group-without-blank-before", Title: "new group not preceded by a blank line",
	Severity: Info, Affects: []Family{S94, FM},
	Doc: "A User-agent line starts a new group right after the previous group's " +
		"lines. Google and RFC 9309 robots do not need a separator, but the 1994 " +
		"standard and the 1996 draft define records as separated by blank lines, " +
		"Yandex asks for one before every User-agent, and parsers that split at " +
		"blank lines would merge the two records. Insert a blank line.",
	Before: "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n",
	After:  "User-agent: a\nDisallow: /x\n\nUser-agent: b\nDisallow: /y\n",
	Fix:    "FX13",
	run: func(p *pass) {
		for gi := 1; gi < len(p.groups); gi++ {
			ua := p.groups[gi].first()
			j := ua - 1
			for j >= 0 && p.lines[j].Kind == syntax.CommentLine {
				j--
			}
			if j < 0 || p.lines[j].Kind == syntax.BlankLine {
				continue
			}
			// The blank line goes above the comments that introduce the
			// group, which belong to it.
			p.report(&p.lines[ua], "Insert a blank line before this group").
				suggest("FX13", Preserving, "insert a blank line", p.syntaxInsertBefore(&p.lines[j+1], ""))
		}
	},
}

// rb406 is check RB406: see its Doc.
var rb406 = &Check{
	Code: "RB406", Name: "group-without-disallow", Title: "group without a Disallow line",
	Severity: Info, Affects: []Family{S94},
	Doc: "The group has no Disallow line. RFC 9309 allows that (no rule allows " +
		"everything), but the 1994 standard and the 1996 draft require at least one " +
		"Disallow per record (https://www.robotstxt.org/orig.html), and strict robots " +
		"may reject or misplace " +
		"the record. An empty \"Disallow:\" forbids nothing and satisfies them; " +
		"Moderatobot inserts one too.",
	Before: "User-agent: quxbot\nCrawl-delay: 5\n",
	After:  "User-agent: quxbot\nDisallow:\nCrawl-delay: 5\n",
	Fix:    "FX38",
	run: func(p *pass) {
		for gi := range p.groups {
			g := &p.groups[gi]
			has := false
			for _, m := range g.members {
				has = has || p.lines[m].is(dDisallow)
			}
			if has {
				continue
			}
			d := p.report(&p.lines[g.first()], "Group has no Disallow line")
			if p.groupsHasBlank(g) {
				continue // FX12 joins the group first; FX38 then adds "Disallow:" as Moderatobot does
			}
			if len(g.rules) > 0 {
				// Next to an Allow line, an empty Disallow is what RB504
				// reports and FX20 removes: the two fixes would undo each
				// other round after round.
				continue
			}
			d.suggest("FX38", Preserving, "add an empty Disallow line",
				p.syntaxInsertAfter(p.groupsAnchor(g), []string{"Disallow:"}))
		}
	},
}

// rb407 is check RB407: see its Doc.
var rb407 = &Check{
	Code: "RB407", Name: "several-groups-same-agent", Title: "the same robot has several groups",
	Severity: Warning, Affects: []Family{FM, RFC, GOOG},
	Doc: "The same robot is named in two or more groups. RFC 9309 robots and Google " +
		"merge all its groups; the 1996 draft, first-match robots and Moderatobot " +
		"obey only the first, and Mandelbot's robots.txt documentation (Fractle) " +
		"calls the file invalid. " +
		"Merge the groups into one; the fix does so when both groups name the same " +
		"robots.",
	Before: "User-agent: Googlebot\nDisallow: /a\n\nUser-agent: Googlebot\nDisallow: /b\n",
	After:  "User-agent: Googlebot\nDisallow: /a\nDisallow: /b\n",
	Fix:    "FX15",
	run:    func(p *pass) { p.groupsRepeated(false) },
}

// rb408 is check RB408: see its Doc.
var rb408 = &Check{
	Code: "RB408", Name: "several-global-groups", Title: "several `User-agent: *` groups",
	Severity: Error, Affects: []Family{YNDX, FM, S94},
	Doc: "More than one group is for \"*\". Google and RFC 9309 robots merge them, " +
		"but Yandex reports an error, the 1994 standard forbids it, and old CPython " +
		"keeps only the first, so a block prepended by a CDN can hide the site's " +
		"own rules. Merge the groups into one.",
	Before: "User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n",
	After:  "User-agent: *\nDisallow: /a\nDisallow: /b\n",
	Fix:    "FX15",
	run:    func(p *pass) { p.groupsRepeated(true) },
}

// groupsRepeated reports agent keys named in more than one canonical
// group, at each later group: "*" (RB408) or a robot's key (RB407). When
// the two groups name the same keys, the fix (FX15) merges into the first
// group every later group that names the same keys: one fix for them all,
// so that the fixer does not need a round per group.
func (p *pass) groupsRepeated(global bool) {
	type firstSeen struct{ group, line int }
	seen := map[string]firstSeen{}
	keys := make([][]string, len(p.groups))
	merges := map[int][]Edit{}
	for gi := range p.groups {
		g := &p.groups[gi]
		keys[gi] = p.groupsKeys(g)
		done := map[string]bool{}
		for _, a := range g.agents {
			l := &p.lines[a]
			k := l.agent
			if k == "" || done[k] || (k == "*") != global {
				continue
			}
			done[k] = true
			f, ok := seen[k]
			if !ok {
				seen[k] = firstSeen{gi, l.num}
				continue
			}
			var d *Diagnostic
			if global {
				d = p.report(l, "Another \"User-agent: *\" group (first at line %d)", f.line)
			} else {
				d = p.report(l, "%q already has a group at line %d; Google and RFC 9309 robots merge the two, first-match robots use only the first", l.value, f.line)
			}
			if !groupsSameKeys(keys[f.group], keys[gi]) {
				continue
			}
			edits, ok := merges[f.group]
			if !ok {
				var later []*group
				for j := f.group + 1; j < len(p.groups); j++ {
					if groupsSameKeys(keys[f.group], p.groupsKeys(&p.groups[j])) {
						later = append(later, &p.groups[j])
					}
				}
				edits = p.groupsMerge(&p.groups[f.group], later)
				merges[f.group] = edits
			}
			d.suggest("FX15", PreservingGoogle, "merge the groups into the first one", edits...)
		}
	}
}

// groupsMerge returns the edits of FX15 that merge the groups later into
// group a: their member lines (and comments among them) go after a's last
// rule, and each is deleted with the blank lines right above it.
func (p *pass) groupsMerge(a *group, later []*group) []Edit {
	anchor := p.groupsAnchor(a)
	var moved []string
	var dels []Edit
	for _, b := range later {
		for i := b.first(); i <= groupsLast(b); i++ {
			l := &p.lines[i]
			if l.dir == dUserAgent || l.Kind == syntax.BlankLine {
				continue
			}
			moved = append(moved, p.syntaxLineText(l))
		}
		start := b.first()
		for start > 0 && p.lines[start-1].Kind == syntax.BlankLine {
			start--
		}
		dels = append(dels, p.syntaxDeleteLines(start, groupsLast(b)))
	}
	if len(moved) == 0 {
		return dels
	}
	ins := p.syntaxInsertAfter(anchor, moved)
	for _, del := range dels {
		if del.Start < ins.Start && ins.Start < del.End {
			// The group ends the file without a terminator, so its
			// deletion takes the anchor's: the moved lines go right after
			// the anchor's text.
			eol := p.syntaxEOL(anchor)
			ins = Edit{Start: del.Start, End: del.Start, New: eol + strings.Join(moved, eol)}
		}
	}
	return append([]Edit{ins}, dels...)
}

// rb409 is check RB409: see its Doc.
var rb409 = &Check{
	Code: "RB409", Name: "named-group-hides-global", Title: "a named group without Allow/Disallow hides the `*` rules",
	Severity: Warning, Affects: []Family{GOOG, BING, YNDX, RFC, FM},
	Doc: "A group names a robot but holds no Allow or Disallow line (only " +
		"Crawl-delay or the like), while the \"*\" group disallows something. " +
		"Google, Bing, Yandex and RFC 9309 robots pick the robot's own group and " +
		"ignore \"*\" entirely, so the robot may crawl everything (Bing keeps only " +
		"the \"*\" Crawl-delay). Copy the rules it should obey into its group, or " +
		"remove the group.",
	Before: "User-agent: *\nDisallow: /private\n\nUser-agent: Googlebot\nCrawl-delay: 5\n",
	After:  "User-agent: *\nDisallow: /private\n\nUser-agent: Googlebot\nDisallow: /private\nCrawl-delay: 5\n",
	run: func(p *pass) {
		blocks := false
		for gi := range p.groups {
			g := &p.groups[gi]
			for _, r := range g.rules {
				blocks = blocks || g.global && p.lines[r].is(dDisallow) && p.lines[r].value != ""
			}
		}
		if !blocks {
			return
		}
		for gi := range p.groups {
			g := &p.groups[gi]
			if g.global || len(g.rules) > 0 {
				continue
			}
			for _, a := range g.agents {
				if l := &p.lines[a]; l.agent != "" {
					p.report(&p.lines[g.first()], "%q has its own group without rules, so it ignores every rule of the * group", l.value)
					break
				}
			}
		}
	},
}

// rb410 is check RB410: see its Doc.
var rb410 = &Check{
	Code: "RB410", Name: "star-in-agent-name", Title: "`*` mixed with other characters in User-agent",
	Severity: Warning, Affects: []Family{GOOG, FM},
	Doc: "A User-agent value mixes \"*\" with a name (\"Googlebot*\", \"*bot\"). No " +
		"standard makes \"*\" a wildcard there: Google reads \"Googlebot*\" as " +
		"Googlebot, \"*bot\" as an empty token that matches nobody, and \"* name\" " +
		"as \"*\", while substring matchers look for the literal text. Write the " +
		"plain product token, or \"*\" alone.",
	Before: "User-agent: Googlebot*\nDisallow: /private\n",
	After:  "User-agent: Googlebot\nDisallow: /private\n",
	Fix:    "FX17",
	run: func(p *pass) {
		for i := range p.lines {
			l := &p.lines[i]
			if l.dir != dUserAgent || p.groupsAgentNote(l) != 410 {
				continue
			}
			d := p.reportValue(l, "%q mixes \"*\" with a name; \"*\" is not a wildcard in User-agent", l.value)
			// Only "Name*" has an evident meaning, the one Google gives it:
			// then only substring matchers miss the robot.
			if name := strings.TrimRight(l.value, "*"); groupsRFCToken(name) {
				d.only(FM).suggest("FX17", PreservingGoogle, "keep the product token",
					Edit{Start: l.Value.Start.Offset, End: l.Value.End.Offset, New: name})
			}
		}
	},
}

// rb411 is check RB411: see its Doc.
var rb411 = &Check{
	Code: "RB411", Name: "global-group-not-last", Title: "`User-agent: *` group is not last",
	Severity: Info, Affects: []Family{FM},
	Doc: "The \"*\" group comes before groups for named robots. RFC 9309 robots, " +
		"Google and the 1996 draft pick a group regardless of order, but naive " +
		"parsers that stop at the first group matching a robot stop at \"*\" and " +
		"never see the robot's own group. Move the \"*\" group to the end, as " +
		"Moderatobot does.",
	Before: "User-agent: *\nDisallow: /private\n\nUser-agent: Googlebot\nDisallow: /tmp\n",
	After:  "User-agent: Googlebot\nDisallow: /tmp\n\nUser-agent: *\nDisallow: /private\n",
	Fix:    "FX18",
	run: func(p *pass) {
		var fix *groupsOrderFix
		for gi := range p.groups {
			g := &p.groups[gi]
			if !g.global {
				continue
			}
			later := false
			for j := gi + 1; j < len(p.groups); j++ {
				later = later || !p.groups[j].global
			}
			if !later {
				continue
			}
			var star *line
			for _, a := range g.agents {
				if p.lines[a].agent == "*" {
					star = &p.lines[a]
					break
				}
			}
			d := p.report(star, "Move the \"User-agent: *\" group after the specific groups")
			if fix == nil {
				fix = p.groupsReorder()
			}
			if fix.edits != nil {
				d.suggest("FX18", fix.class, "reorder the groups", fix.edits...)
			}
		}
	},
}

// groupsOrderFix is the FX18 fix of a file: the edits that put its
// groups in the order of groupsOrder, and their class.
type groupsOrderFix struct {
	edits []Edit
	class Class
}

// groupsMaxReorder bounds the groups FX18 reorders: the order is found in
// quadratic time.
const groupsMaxReorder = 500

// groupsReorder returns FX18 for the file: the groups
// reordered so that no group precedes one whose agent key contains one of
// its keys, and the "*" groups come last, otherwise in their order. Each
// group moves with the comment lines right above it; the lines between
// groups (blank lines, Sitemap, comments) keep their places. The class is
// Preserving when only "*" groups move relative to others, PreservingGoogle
// when named groups are reordered too. RB703 can attach the same fix.
// It has no edits when the order is right, when the constraints form a
// cycle, when a group without rules would end up before another (it would
// absorb the next group's agents), or when the file has too many groups.
func (p *pass) groupsReorder() *groupsOrderFix {
	order := p.groupsOrder()
	n := len(order)
	if n == 0 {
		return &groupsOrderFix{}
	}
	first, last := -1, -1
	for k, gi := range order {
		if gi != k {
			if first < 0 {
				first = k
			}
			last = k
		}
	}
	if first < 0 {
		return &groupsOrderFix{}
	}
	for k, gi := range order {
		if k < n-1 && len(p.groups[gi].rules) == 0 {
			return &groupsOrderFix{} // FX38 gives it a rule first
		}
	}
	// Block k: lines start[k]..end[k]; gap k: the lines after it, up to
	// the next block.
	start, end := make([]int, n), make([]int, n)
	for gi := range p.groups {
		g := &p.groups[gi]
		start[gi], end[gi] = g.first(), groupsLast(g)
		// The comments right above a group introduce it, except above
		// the first: the file's leading comment block stays on top (the
		// canonical layout of Format).
		for gi > 0 && start[gi] > end[gi-1]+1 && p.lines[start[gi]-1].Kind == syntax.CommentLine {
			start[gi]--
		}
	}
	lastLine := &p.lines[end[last]]
	eol := p.syntaxEOL(&p.lines[end[first]])
	var b strings.Builder
	for k := first; k <= last; k++ {
		b.WriteString(p.groupsBlock(start[order[k]], end[order[k]], eol))
		if k < last {
			b.WriteString(p.groupsBlock(end[k]+1, start[k+1]-1, eol))
		}
	}
	text := b.String()
	if lastLine.EOL == 0 {
		text = strings.TrimSuffix(text, eol)
	}
	from := p.lines[start[first]].Span.Start.Offset
	to := lastLine.Span.End.Offset + lastLine.EOL
	class := Preserving
	var named []int
	for _, gi := range order {
		if !p.groups[gi].global {
			named = append(named, gi)
		}
	}
	for k := 1; k < len(named); k++ {
		if named[k] < named[k-1] {
			class = PreservingGoogle
		}
	}
	return &groupsOrderFix{edits: []Edit{{Start: from, End: to, New: text}}, class: class}
}

// groupsOrder returns the group indexes in FX18 order: repeatedly the
// first group in file order that no remaining group must precede. A group
// must precede another when one of its keys contains one of the other's
// (neither "*"), or when the other is a "*" group and it is not. It
// returns nil for a cycle or for more than groupsMaxReorder groups.
func (p *pass) groupsOrder() []int {
	n := len(p.groups)
	if n > groupsMaxReorder {
		return nil
	}
	keys := make([][]string, n)
	for gi := range p.groups {
		for _, k := range p.groupsKeys(&p.groups[gi]) {
			if k != "*" {
				keys[gi] = append(keys[gi], k)
			}
		}
	}
	// before(a, b): group a must come before group b.
	before := func(a, b int) bool {
		if p.groups[b].global && !p.groups[a].global {
			return true
		}
		if p.groups[a].global && !p.groups[b].global {
			return false
		}
		for _, y := range keys[a] {
			for _, x := range keys[b] {
				if x != y && strings.Contains(y, x) {
					return true
				}
			}
		}
		return false
	}
	// A stable topological sort: indeg counts the groups that must still
	// be placed before each one.
	indeg := make([]int, n)
	after := make([][]int, n)
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			if a != b && before(a, b) {
				indeg[b]++
				after[a] = append(after[a], b)
			}
		}
	}
	placed := make([]bool, n)
	order := make([]int, 0, n)
	for len(order) < n {
		pick := -1
		for c := 0; c < n; c++ {
			if !placed[c] && indeg[c] == 0 {
				pick = c
				break
			}
		}
		if pick < 0 {
			return nil
		}
		placed[pick] = true
		order = append(order, pick)
		for _, b := range after[pick] {
			indeg[b]--
		}
	}
	return order
}

// rb412 is check RB412: see its Doc.
var rb412 = &Check{
	Code: "RB412", Name: "user-agent-string", Title: "full user-agent string or version in User-agent",
	Severity: Warning, Affects: []Family{GOOG, FM},
	Doc: "The User-agent value is a version (\"Googlebot/2.1\") or a whole HTTP " +
		"user-agent string. Google matches only the leading run of letters, \"-\" " +
		"and \"_\": \"Googlebot/2.1\" still means Googlebot, but \"Mozilla/5.0 " +
		"(compatible; Googlebot/2.1)\" means \"Mozilla\", which no robot is; old " +
		"substring matchers never find the versioned text in a robot's name. Write " +
		"the product token alone.",
	Before: "User-agent: Googlebot/2.1\nDisallow: /private\n",
	After:  "User-agent: Googlebot\nDisallow: /private\n",
	Fix:    "FX17",
	run: func(p *pass) {
		for i := range p.lines {
			l := &p.lines[i]
			if l.dir != dUserAgent || p.groupsAgentNote(l) != 412 {
				continue
			}
			edit := func(tok string) Edit {
				return Edit{Start: l.Value.Start.Offset, End: l.Value.End.Offset, New: tok}
			}
			if name, ok := groupsVersioned(l.value); ok {
				// Google reads the name before the "/": only substring
				// matchers miss the robot.
				p.reportValue(l, "Use the product token (%q), not %q", name, l.value).
					only(FM).
					suggest("FX17", PreservingGoogle, "keep the product token", edit(name))
				continue
			}
			tok := groupsKnownIn(l.value)
			if tok == "" {
				lead := l.value[:len(l.agent)]
				p.reportValue(l, "Use the product token (%q), not %q", lead, l.value)
				continue
			}
			// Google already reads the token when the string starts with
			// it; otherwise the fix gives the group to another robot.
			d := p.reportValue(l, "Use the product token (%q), not %q", tok, l.value)
			class := Intent
			if strings.EqualFold(tok, l.agent) {
				class = PreservingGoogle
				d.only(FM)
			}
			d.suggest("FX17", class, "keep the product token", edit(tok))
		}
	},
}

// rb413 is check RB413: see its Doc.
var rb413 = &Check{
	Code: "RB413", Name: "token-outside-rfc-alphabet", Title: "product token outside the RFC alphabet",
	Severity: Info, Affects: []Family{GOOG, RFC},
	Doc: "The User-agent value holds characters RFC 9309 does not allow in a " +
		"product token (digits, \".\", \"!\"; only letters, \"-\" and \"_\" are). " +
		"Google cuts the token at the first such character, so \"MJ12bot\" reads as " +
		"\"mj\" and \"360Spider\" as nothing; the robot's own parser usually copes. " +
		"Nothing to fix unless the robot documents another token.",
	Before: "User-agent: Yahoo!\nDisallow: /private\n",
	After:  "User-agent: Slurp\nDisallow: /private\n",
	run: func(p *pass) {
		for i := range p.lines {
			l := &p.lines[i]
			if l.dir == dUserAgent && p.groupsAgentNote(l) == 413 {
				p.reportValue(l, "%q is not an RFC 9309 product token; Google reads it as %q", l.value, l.agent)
			}
		}
	},
}

// rb414 is check RB414: see its Doc.
var rb414 = &Check{
	Code: "RB414", Name: "misspelled-robot-name", Title: "probably misspelled robot name",
	Severity: Warning, Affects: []Family{ALL},
	Doc: "The User-agent value is no known crawler token but is within two typing " +
		"errors of one (\"Googelbot\", \"Bingbott\"). A misspelt token matches no " +
		"robot, so the robot it was meant for silently obeys the \"*\" group " +
		"instead. Check the spelling against the robot's documentation.",
	Before: "User-agent: Googelbot\nDisallow: /private\n",
	After:  "User-agent: Googlebot\nDisallow: /private\n",
	run: func(p *pass) {
		near := map[string]string{}
		for i := range p.lines {
			l := &p.lines[i]
			k := l.agent
			if l.dir != dUserAgent || k == "" || k == "*" || isKnownToken(k) || p.groupsAgentNote(l) != 0 {
				continue
			}
			known, ok := near[k]
			if !ok {
				if !groupsPartOfKnown(k) { // else RB705's case
					known = groupsNearest(k)
				}
				near[k] = known
			}
			if known != "" {
				p.reportValue(l, "Unknown robot %q — did you mean %q?", l.value, known)
			}
		}
	},
}

// rb415 is check RB415: see its Doc.
var rb415 = &Check{
	Code: "RB415", Name: "agent-repeated-in-group", Title: "same agent twice in one group",
	Severity: Info,
	Doc: "The same robot is listed twice in one group. It changes nothing for any " +
		"robot, but it is noise that hides what the group is for. Remove the second " +
		"line.",
	Before: "User-agent: Googlebot\nUser-agent: googlebot\nDisallow: /private\n",
	After:  "User-agent: Googlebot\nDisallow: /private\n",
	Fix:    "FX16",
	run: func(p *pass) {
		for gi := range p.groups {
			seen := map[string]bool{}
			for _, a := range p.groups[gi].agents {
				l := &p.lines[a]
				if l.agent == "" {
					continue
				}
				if seen[l.agent] {
					p.report(l, "%q is already listed in this group", l.value).
						suggest("FX16", Preserving, "remove the repeated agent", p.deleteLine(l))
				}
				seen[l.agent] = true
			}
		}
	},
}

// rb416 is check RB416: see its Doc.
var rb416 = &Check{
	Code: "RB416", Name: "user-agent-after-member", Title: "User-agent after non-rule lines of the same group",
	Severity: Warning, Affects: []Family{FM, CC},
	Doc: "Another line (Crawl-delay, Sitemap, an unknown directive, …) stands " +
		"between two User-agent lines of one group. RFC 9309 says such lines must " +
		"not end a group, so Google reads one group for both robots; old CPython " +
		"and legacy crawler-commons start a new record there, leaving the first " +
		"robot with only its Crawl-delay. List all User-agent lines first and put " +
		"the other lines after the rules.",
	Before: "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /\n",
	After:  "User-agent: a\nUser-agent: b\nDisallow: /\nCrawl-delay: 5\n",
	Fix:    "FX36",
	run: func(p *pass) {
		for gi := range p.groups {
			g := &p.groups[gi]
			var between []int // every such line of the group, for the fix
			type hit struct{ ua, first int }
			var hits []hit
			for k := 1; k < len(g.agents); k++ {
				first := -1
				for i := g.agents[k-1] + 1; i < g.agents[k]; i++ {
					l := &p.lines[i]
					if syntaxSignificant(l) && l.dir != dUserAgent {
						between = append(between, i)
						if first < 0 {
							first = i
						}
					}
				}
				if first >= 0 {
					hits = append(hits, hit{g.agents[k], first})
				}
			}
			if len(hits) == 0 {
				continue
			}
			var moved []string
			var edits []Edit
			for _, i := range between {
				moved = append(moved, p.syntaxLineText(&p.lines[i]))
				edits = append(edits, p.deleteLine(&p.lines[i]))
			}
			edits = append(edits, p.syntaxInsertAfter(p.groupsAnchor(g), moved))
			for _, h := range hits {
				text := strings.TrimSpace(p.syntaxLineText(&p.lines[h.first]))
				p.report(&p.lines[h.ua], "%q between User-agent lines makes the grouping ambiguous", text).
					suggest("FX36", PreservingGoogle, "move the line after the group's rules", edits...)
			}
		}
	},
}
