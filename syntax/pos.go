package syntax

import "fmt"

// Pos is a position in a robots.txt file.
//
// Offset is 0-based and counts bytes from the start of the input (a byte
// order mark included). Line is 1-based; a line ends at LF, CR or CRLF.
// Col is 1-based and counts bytes from the start of the line; on line 1 the
// byte order mark is not counted. The zero Pos is invalid: see [Pos.IsValid].
//
// Line and Col are 32 bits wide: a tree holds four spans per line, and a
// file the robots read (500 KiB) has far fewer lines and columns. They
// stop at 2³¹−1 for an input of more lines, or a line of more bytes.
type Pos struct {
	Offset int
	Line   int32
	Col    int32
}

// IsValid reports whether p is a real position.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String returns "line:col", or "-" for an invalid position.
func (p Pos) String() string {
	if !p.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// Span is a half-open range of input [Start, End). The zero Span is absent:
// see [Span.IsValid].
type Span struct {
	Start, End Pos
}

// IsValid reports whether s is present.
func (s Span) IsValid() bool { return s.Start.IsValid() }

// Len returns the number of bytes in s.
func (s Span) Len() int { return s.End.Offset - s.Start.Offset }
