package groups

import (
	"strings"

	"github.com/robotskit/robots/lint/internal/check"
	"github.com/robotskit/robots/syntax"
)

// The fixes of the group checks that move whole groups: FX15 merges the
// groups of one robot (RB407, RB408), FX18 reorders the groups (RB411).

// hasBlank reports whether a blank line stands between g's first
// User-agent line and its last own line.
func hasBlank(p *check.Pass, g *check.Group) bool {
	for i := g.First(); i <= g.Last(); i++ {
		if p.Lines[i].Kind == syntax.BlankLine {
			return true
		}
	}
	return false
}

// anchor returns the line after which text joins group g: its last
// rule, or its last User-agent line when it has no rule.
func anchor(p *check.Pass, g *check.Group) *check.Line {
	if n := len(g.Rules); n > 0 {
		return &p.Lines[g.Rules[n-1]]
	}
	return &p.Lines[g.Agents[len(g.Agents)-1]]
}

// merge returns the edits of FX15 that merge the groups later into
// group a: their member lines (and comments among them) go after a's last
// rule, and each is deleted with the blank lines right above it.
func merge(p *check.Pass, a *check.Group, later []*check.Group) []check.Edit {
	at := anchor(p, a)
	var moved []string
	var dels []check.Edit
	for _, b := range later {
		for i := b.First(); i <= b.Last(); i++ {
			l := &p.Lines[i]
			if l.Dir == check.UserAgent || l.Kind == syntax.BlankLine {
				continue
			}
			moved = append(moved, p.LineText(l))
		}
		start := b.First()
		for start > 0 && p.Lines[start-1].Kind == syntax.BlankLine {
			start--
		}
		dels = append(dels, p.DeleteLines(start, b.Last()))
	}
	if len(moved) == 0 {
		return dels
	}
	ins := p.InsertAfter(at, moved)
	for _, del := range dels {
		if del.Start < ins.Start && ins.Start < del.End {
			// The group ends the file without a terminator, so its
			// deletion takes the anchor's: the moved lines go right after
			// the anchor's text.
			eol := p.NearEOL(at)
			ins = check.Edit{Start: del.Start, End: del.Start, New: eol + strings.Join(moved, eol)}
		}
	}
	return append([]check.Edit{ins}, dels...)
}

// rb409 is check RB409: see its Doc.
// orderFix is the FX18 fix of a file: the edits that put its
// groups in the order of sortedGroups, and their class.
type orderFix struct {
	edits []check.Edit
	class check.FixClass
}

// maxReorder bounds the groups FX18 reorders: the order is found in
// quadratic time.
const maxReorder = 500

// reorder returns FX18 for the file: the groups
// reordered so that no group precedes one whose agent key contains one of
// its keys, and the "*" groups come last, otherwise in their order. Each
// group moves with the comment lines right above it; the lines between
// groups (blank lines, Sitemap, comments) keep their places. The class is
// Preserving when only "*" groups move relative to others, PreservingGoogle
// when named groups are reordered too. RB703 can attach the same fix.
// It has no edits when the order is right, when the constraints form a
// cycle, when a group without rules would end up before another (it would
// absorb the next group's agents), or when the file has too many groups.
func reorder(p *check.Pass) *orderFix {
	order := sortedGroups(p)
	n := len(order)
	if n == 0 {
		return &orderFix{}
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
		return &orderFix{}
	}
	for k, gi := range order {
		if k < n-1 && len(p.Groups[gi].Rules) == 0 {
			return &orderFix{} // FX38 gives it a rule first
		}
	}
	// Block k: lines start[k]..end[k]; gap k: the lines after it, up to
	// the next block.
	start, end := make([]int, n), make([]int, n)
	for gi := range p.Groups {
		g := &p.Groups[gi]
		start[gi], end[gi] = g.First(), g.Last()
		// The comments right above a group introduce it, except above
		// the first: the file's leading comment block stays on top (the
		// canonical layout of Format).
		for gi > 0 && start[gi] > end[gi-1]+1 && p.Lines[start[gi]-1].Kind == syntax.CommentLine {
			start[gi]--
		}
	}
	lastLine := &p.Lines[end[last]]
	eol := p.NearEOL(&p.Lines[end[first]])
	var b strings.Builder
	for k := first; k <= last; k++ {
		b.WriteString(block(p, start[order[k]], end[order[k]], eol))
		if k < last {
			b.WriteString(block(p, end[k]+1, start[k+1]-1, eol))
		}
	}
	text := b.String()
	if lastLine.EOL == 0 {
		text = strings.TrimSuffix(text, eol)
	}
	from := p.Lines[start[first]].Span.Start.Offset
	to := lastLine.Span.End.Offset + lastLine.EOL
	class := check.Preserving
	var named []int
	for _, gi := range order {
		if !p.Groups[gi].Global {
			named = append(named, gi)
		}
	}
	for k := 1; k < len(named); k++ {
		if named[k] < named[k-1] {
			class = check.PreservingGoogle
		}
	}
	return &orderFix{edits: []check.Edit{{Start: from, End: to, New: text}}, class: class}
}

// sortedGroups returns the group indexes in FX18 order: repeatedly the
// first group in file order that no remaining group must precede. A group
// must precede another when one of its keys contains one of the other's
// (neither "*"), or when the other is a "*" group and it is not. It
// returns nil for a cycle or for more than maxReorder groups.
func sortedGroups(p *check.Pass) []int {
	n := len(p.Groups)
	if n > maxReorder {
		return nil
	}
	// Each pair of groups is compared, and the sort looks at each group
	// for each place.
	if p.Spend(2 * n * n) {
		return nil
	}
	keys := make([][]string, n)
	for gi := range p.Groups {
		for _, k := range p.GroupKeys(&p.Groups[gi]) {
			if k != "*" {
				keys[gi] = append(keys[gi], k)
			}
		}
	}
	// before(a, b): group a must come before group b.
	before := func(a, b int) bool {
		if p.Groups[b].Global && !p.Groups[a].Global {
			return true
		}
		if p.Groups[a].Global && !p.Groups[b].Global {
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

// block returns the text of lines first..last, each with its own
// terminator, the last one with eol when it has none.
func block(p *check.Pass, first, last int, eol string) string {
	var b strings.Builder
	for i := first; i <= last; i++ {
		l := &p.Lines[i]
		b.WriteString(p.LineText(l))
		if l.EOL == 0 {
			b.WriteString(eol)
		} else {
			b.WriteString(p.Src[l.Span.End.Offset : l.Span.End.Offset+l.EOL])
		}
	}
	return b.String()
}
