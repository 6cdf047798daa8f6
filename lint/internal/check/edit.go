package check

import "strings"

// The edits the fixes of the checks are made of. Offsets are those of
// Pass.Src; a line's text is its Span, without its terminator.

// LineText returns the text of line l, without its terminator.
func (p *Pass) LineText(l *Line) string {
	return p.Src[l.Span.Start.Offset:l.Span.End.Offset]
}

// EOL returns the terminator to use for text inserted near line l: l's
// own, or "\n" when it has none.
func (p *Pass) EOL(l *Line) string {
	if l.EOL == 2 {
		return "\r\n"
	}
	if l.EOL == 1 {
		end := l.Span.End.Offset
		return p.Src[end : end+1]
	}
	return "\n"
}

// NearEOL returns the terminator for lines inserted next to l: l's own,
// or for a last line without one, the previous line's (so that a CRLF
// file stays CRLF).
func (p *Pass) NearEOL(l *Line) string {
	if l.EOL == 0 && l.Num > 1 {
		return p.EOL(&p.Lines[l.Num-2])
	}
	return p.EOL(l)
}

// ReplaceLine is an edit that replaces the text of line l (not its
// terminator) with s.
func ReplaceLine(l *Line, s string) Edit {
	return Edit{Start: l.Span.Start.Offset, End: l.Span.End.Offset, New: s}
}

// CommentOut is an edit that turns line l into a comment.
func CommentOut(l *Line) Edit {
	return Edit{Start: l.Span.Start.Offset, End: l.Span.Start.Offset, New: "# "}
}

// DeleteLine is an edit that removes line l and its terminator. The last
// line of a file without a final terminator takes the preceding
// terminator with it, so no empty line is left behind.
func (p *Pass) DeleteLine(l *Line) Edit {
	start, end := l.Span.Start.Offset, l.Span.End.Offset+l.EOL
	if l.EOL == 0 && l.Num > 1 {
		prev := &p.Lines[l.Num-2]
		start = prev.Span.End.Offset
	}
	return Edit{Start: start, End: end}
}

// DeleteLines is an edit that removes the lines first..last (indexes of
// Lines, inclusive) with their terminators; like DeleteLine, a block that
// ends the file without a terminator takes the preceding one.
func (p *Pass) DeleteLines(first, last int) Edit {
	a, b := &p.Lines[first], &p.Lines[last]
	start, end := a.Span.Start.Offset, b.Span.End.Offset+b.EOL
	if b.EOL == 0 && first > 0 {
		start = p.Lines[first-1].Span.End.Offset
	}
	return Edit{Start: start, End: end}
}

// InsertBefore is an edit that inserts the line s before line l, ended as
// NearEOL says.
func (p *Pass) InsertBefore(l *Line, s string) Edit {
	return Edit{Start: l.Span.Start.Offset, End: l.Span.Start.Offset, New: s + p.NearEOL(l)}
}

// InsertAfter is an edit that inserts the lines ls after line l, each
// ended as NearEOL says.
func (p *Pass) InsertAfter(l *Line, ls []string) Edit {
	eol := p.NearEOL(l)
	end := l.Span.End.Offset + l.EOL
	if l.EOL == 0 {
		return Edit{Start: end, End: end, New: eol + strings.Join(ls, eol)}
	}
	return Edit{Start: end, End: end, New: strings.Join(ls, eol) + eol}
}
