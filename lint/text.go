package lint

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/robotskit/robots/syntax"
)

// WriteText writes ds in the compiler style of the CLI contract, one
// diagnostic per first line, "name:line:col: severity CODE message" ("name:
// severity CODE message" for a finding on the whole file, which has no
// line),
// followed for a diagnostic with a line by that line of f and a caret
// under the column, by the other lines of the same problem (Lines, see
// Fold), and by its related lines:
//
//	robots.txt:2:11: error RB501 Rule path "admin/" does not start with "/"; Google never matches it
//	    2 | Disallow: admin/
//	      |           ^
//	      = and 2 more (lines 5, 9)
func WriteText(w io.Writer, f *syntax.File, ds []Diagnostic) error {
	name := f.Name
	if name == "" {
		name = "robots.txt"
	}
	var b strings.Builder
	for i := range ds {
		d := &ds[i]
		if d.Line > 0 {
			fmt.Fprintf(&b, "%s:%d:%d: %s %s %s\n", name, d.Line, d.Column, d.Check.Severity, d.Check.Code, d.Message)
		} else {
			// A finding on the whole file (its encoding, its fetch) has no
			// line to point at, as a compiler writes "name: message".
			fmt.Fprintf(&b, "%s: %s %s %s\n", name, d.Check.Severity, d.Check.Code, d.Message)
		}
		if d.Line > 0 && d.Line <= len(f.Lines) {
			text := displayLine(f.Text(f.Lines[d.Line-1].Span))
			gutter := fmt.Sprintf("%5d | ", d.Line)
			fmt.Fprintf(&b, "%s%s\n", gutter, text)
			caret := min(max(d.Column-1, 0), utf8.RuneCountInString(text))
			fmt.Fprintf(&b, "%s| %s^\n", strings.Repeat(" ", len(gutter)-2), strings.Repeat(" ", caret))
			if len(d.Lines) > 1 {
				fmt.Fprintf(&b, "%s= %s\n", strings.Repeat(" ", len(gutter)-2), moreLines(d.Lines[1:]))
			}
		}
		for _, r := range d.Related {
			fmt.Fprintf(&b, "%s:%d: note: %s\n", name, r.Line, r.Note)
		}
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
		b.Reset()
	}
	return nil
}

// maxMoreLines bounds the other lines of a problem that WriteText lists.
const maxMoreLines = 5

// moreLines says "and N more (lines a, b, c)", listing at most
// maxMoreLines of the lines.
func moreLines(lines []int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "and %d more (line", len(lines))
	if len(lines) > 1 {
		b.WriteByte('s')
	}
	for i, n := range lines[:min(len(lines), maxMoreLines)] {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, " %d", n)
	}
	if len(lines) > maxMoreLines {
		b.WriteString(", …")
	}
	b.WriteByte(')')
	return b.String()
}

// displayLine makes a line safe to show on a terminal, keeping one code
// point per code point so that the caret stays aligned: a tab becomes a
// space, other control characters and bytes that are not UTF-8 become
// U+FFFD. Long lines are cut at 500 code points.
func displayLine(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == 500 {
			b.WriteString("…")
			break
		}
		switch {
		case r == '\t':
			r = ' '
		case r < 0x20 || r == 0x7F || r >= 0x80 && r < 0xA0:
			r = utf8.RuneError
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}
