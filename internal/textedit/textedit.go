// Package textedit applies byte-offset edits to a text and shows the
// difference between two texts as a unified diff.
package textedit

import (
	"fmt"
	"sort"
	"strings"
)

// An Edit replaces the bytes [Start, End) of a text with New. Start == End
// inserts; an empty New deletes.
type Edit struct {
	Start, End int
	New        string
}

// Apply returns src with edits applied. The edits may come in any order; two
// edits that touch the same bytes, or an insertion inside a replaced range,
// are an error, as is an edit outside src. Insertions at the same offset are
// applied in the order given.
func Apply(src string, edits []Edit) (string, error) {
	es := sortEdits(edits)
	var b strings.Builder
	b.Grow(len(src))
	last := 0
	for i, e := range es {
		if e.Start < 0 || e.End < e.Start || e.End > len(src) {
			return "", fmt.Errorf("edit [%d,%d) outside the text of %d bytes", e.Start, e.End, len(src))
		}
		if e.Start < last {
			return "", fmt.Errorf("edit [%d,%d) overlaps edit %d", e.Start, e.End, i)
		}
		b.WriteString(src[last:e.Start])
		b.WriteString(e.New)
		last = e.End
	}
	b.WriteString(src[last:])
	return b.String(), nil
}

// Overlap reports whether a and b touch the same bytes: their ranges
// intersect, or one inserts strictly inside the other's range.
func Overlap(a, b Edit) bool {
	if a.Start > b.Start {
		a, b = b, a
	}
	return b.Start < a.End || a.Start == b.Start && a.End > a.Start && b.End > b.Start
}

// sortEdits returns the edits sorted by start; a stable sort keeps
// insertions at one offset in their given order, and puts them before a
// replacement that starts there.
func sortEdits(edits []Edit) []Edit {
	es := append([]Edit(nil), edits...)
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].Start != es[j].Start {
			return es[i].Start < es[j].Start
		}
		return es[i].End == es[i].Start && es[j].End != es[j].Start
	})
	return es
}
