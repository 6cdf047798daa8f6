package syntax

import (
	"bytes"
	"math"
	"unicode/utf8"

	"github.com/robotskit/robots/internal/lines"
)

// Parse reads a robots.txt body. It never fails: every line becomes a node,
// and lines that are not directives become [InvalidLine] nodes. name is used
// only in positions shown to people. Parse copies src.
func Parse(name string, src []byte) *File {
	f := &File{Name: name, src: string(src)}
	// One node per line, in an array of the right size: a Line is large,
	// and growing the array by appends would copy and discard it several
	// times over for a long file.
	f.Lines = make([]Line, 0, bytes.Count(src, []byte{'\n'})+1)
	var s lines.Scanner
	f.BOM = s.Init(f.src)
	var sl lines.Line
	for n := 1; s.Scan(&sl); n++ {
		f.Lines = append(f.Lines, Line{})
		l := &f.Lines[len(f.Lines)-1]
		l.set(&sl, n)
		if !utf8.ValidString(f.Text(l.Span)) {
			l.Flags |= InvalidUTF8
		}
	}
	return f
}

// set makes the zero l the node of sl, line n of its file: offsets stay,
// and each gets its line and its column, which counts bytes from the line's
// start (on line 1, from after a byte order mark, where its text starts).
// Spans sl lacks stay absent.
func (l *Line) set(sl *lines.Line, n int) {
	// Positions on this line: column = offset - col0. Spans are set field
	// by field: a Span value would be built on the stack with 8-byte stores
	// and copied with 16-byte loads, which cannot take their data from
	// those stores and wait for them.
	col0 := sl.Span.Start - 1
	ln := clamp32(n)
	span := func(s *Span, r lines.Range) {
		s.Start.Offset, s.Start.Line, s.Start.Col = r.Start, ln, clamp32(r.Start-col0)
		s.End.Offset, s.End.Line, s.End.Col = r.End, ln, clamp32(r.End-col0)
	}
	l.Kind, l.Field, l.Flags, l.EOL = sl.Kind, sl.Field, sl.Flags, sl.EOL
	span(&l.Span, sl.Span)
	if sl.Kind == lines.DirectiveLine {
		span(&l.Key, sl.Key)
		span(&l.Value, sl.Value)
	}
	if sl.HasComment() {
		span(&l.Comment, sl.Comment)
	}
}

// clamp32 is n as a line or column number: inputs of more than 2³¹−1
// lines, or lines of more than 2³¹−1 bytes, share the last number.
func clamp32(n int) int32 {
	return int32(min(n, math.MaxInt32))
}
