package lint

import (
	"sort"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/syntax"
)

// readEnd returns the length of the part of src that robots read
// (robots.Cut): Google reads only the first 500 KiB
// (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt),
// and RFC 9309 section 2.5 lets robots stop there.
func readEnd(src string) int { return len(robots.Cut(src)) }

// cutGuard checks that fixes keep every line on its side of the end of
// the part of the text that robots read. change.Equivalent compares that part
// only; the guard makes sure that no line crosses its end, which would
// change what robots read even where no verdict shows it (a Sitemap line,
// a rule that repeats another).
type cutGuard struct {
	f   *syntax.File // src parsed; nil until keeps needs it
	src string
	end int // readEnd(src)
}

func newCutGuard(f *syntax.File) *cutGuard {
	src := f.String()
	return &cutGuard{f: f, src: src, end: readEnd(src)}
}

// moves reports whether edits, the edits of one fix, move text across the
// end of the read part: one of them spans it, or the fix removes text on
// one side and inserts text on the other.
func (g *cutGuard) moves(edits []Edit) bool {
	if g.end == len(g.src) {
		return false
	}
	var removes, inserts [2]bool // [after the end]
	for _, e := range edits {
		if e.Start < g.end && e.End > g.end {
			return true
		}
		side := 0
		if e.Start >= g.end {
			side = 1
		}
		if e.End > e.Start {
			removes[side] = true
		}
		if e.New != "" {
			inserts[side] = true
		}
	}
	return removes[0] && inserts[1] || removes[1] && inserts[0]
}

// keeps reports whether next, the text after the fixes ds, keeps every
// line of the guard's text on its side of the end of the read part: a
// line that no edit touches, read before, is read after, and the other
// way round; and the text an edit writes is read when the text it
// replaces was, and not read when it was not.
func (g *cutGuard) keeps(next string, ds []Diagnostic) bool {
	if len(g.src) <= robots.MaxBytes && len(next) <= robots.MaxBytes {
		return true
	}
	if g.f == nil {
		g.f = syntax.Parse("", []byte(g.src))
	}
	end := readEnd(next)
	var edits []Edit
	for _, d := range ds {
		edits = append(edits, d.Fix.Edits...)
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
	// The edits' new text.
	delta := 0
	for _, e := range edits {
		from := e.Start + delta
		delta += len(e.New) - (e.End - e.Start)
		if strings.TrimSpace(e.New) == "" {
			continue
		}
		was := e.End <= g.end && e.Start < g.end
		if was && from+len(e.New) > end || !was && from < end {
			return false
		}
	}
	// The lines no edit touches.
	k, delta := 0, 0
	for i := range g.f.Lines {
		l := &g.f.Lines[i]
		if l.Kind == syntax.BlankLine || l.Kind == syntax.CommentLine {
			continue
		}
		s, e := l.Span.Start.Offset, l.Span.End.Offset+l.EOL
		for k < len(edits) && edits[k].End <= s {
			delta += len(edits[k].New) - (edits[k].End - edits[k].Start)
			k++
		}
		if k < len(edits) && edits[k].Start < e {
			continue // touched
		}
		if (e <= g.end) != (e+delta <= end) {
			return false
		}
	}
	return true
}
