package eval

import (
	"sort"
	"strings"

	"github.com/robotskit/robots/lint/internal/check"
	"github.com/robotskit/robots/syntax"
)

// SortState says whether a group's rules are in the order of FX30, where
// first-match robots pick what longest-match robots pick.
type SortState uint8

// The states of a group's rules.
const (
	Sorted   SortState = iota // already in order
	Sortable                  // out of order; SortEdit sorts them
	Blocked                   // out of order, and other lines sit among them
)

// SortOf returns the FX30 state of group g and, when sortable, the edit.
func SortOf(p *check.Pass, g *check.Group) (SortState, check.Edit) {
	if e, ok := SortEdit(p, g); ok {
		return Sortable, e
	}
	// Not sortable: either in order already, or blocked by other lines.
	prev := Rule{}
	for k, i := range g.Rules {
		r := RuleAt(p, i)
		if k > 0 && Better(&r, &prev) {
			return Blocked, check.Edit{}
		}
		prev = r
	}
	return Sorted, check.Edit{}
}

// SortEdit returns the FX30 edit of group g: its rules in a stable order
// of descending normalised length, Allow before Disallow on equal length,
// so that first-match robots pick what longest-match robots pick. A
// comment line between two rules moves with the rule below it. ok is
// false when the rules are already in that order or when another kind of
// line (blank, member, unknown) sits among them.
func SortEdit(p *check.Pass, g *check.Group) (e check.Edit, ok bool) {
	if len(g.Rules) < 2 {
		return check.Edit{}, false
	}
	first, last := g.Rules[0], g.Rules[len(g.Rules)-1]
	type unit struct {
		lines []int
		rule  Rule
	}
	var units []unit
	var pending []int
	for i := first; i <= last; i++ {
		l := &p.Lines[i]
		switch {
		case l.Dir.Rule():
			units = append(units, unit{lines: append(pending, i), rule: RuleAt(p, i)})
			pending = nil
		case l.Kind == syntax.CommentLine:
			pending = append(pending, i)
		default:
			return check.Edit{}, false
		}
	}
	sorted := make([]unit, len(units))
	copy(sorted, units)
	sort.SliceStable(sorted, func(a, b int) bool { return Better(&sorted[a].rule, &sorted[b].rule) })
	same := true
	for k := range units {
		same = same && units[k].rule.Line == sorted[k].rule.Line
	}
	if same {
		return check.Edit{}, false
	}
	// The text of the lines in the new order, with the terminators of the
	// old positions between them.
	var order []int
	for _, u := range sorted {
		order = append(order, u.lines...)
	}
	var b strings.Builder
	for k, i := range order {
		l := &p.Lines[i]
		b.WriteString(p.Src[l.Span.Start.Offset:l.Span.End.Offset])
		if k < len(order)-1 {
			pos := &p.Lines[first+k]
			end := pos.Span.End.Offset
			b.WriteString(p.Src[end : end+pos.EOL])
		}
	}
	return check.Edit{Start: p.Lines[first].Span.Start.Offset, End: p.Lines[last].Span.End.Offset, New: b.String()}, true
}
