package lint

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/robotskit/robots/syntax"
)

// WriteText writes ds in the compiler style of the CLI contract, one
// diagnostic per first line, "name:line:col: severity CODE message",
// followed for a diagnostic with a line by that line of f and a caret
// under the column, and by its related lines:
//
//	robots.txt:2:11: error RB501 Rule path "admin/" does not start with "/"; Google never matches it
//	    2 | Disallow: admin/
//	      |           ^
func WriteText(w io.Writer, f *syntax.File, ds []Diagnostic) error {
	name := f.Name
	if name == "" {
		name = "robots.txt"
	}
	var b strings.Builder
	for i := range ds {
		d := &ds[i]
		fmt.Fprintf(&b, "%s:%d:%d: %s %s %s\n", name, d.Line, d.Column, d.Check.Severity, d.Check.Code, d.Message)
		if d.Line > 0 && d.Line <= len(f.Lines) {
			text := displayLine(f.Text(f.Lines[d.Line-1].Span))
			gutter := fmt.Sprintf("%5d | ", d.Line)
			fmt.Fprintf(&b, "%s%s\n", gutter, text)
			caret := min(max(d.Column-1, 0), utf8.RuneCountInString(text))
			fmt.Fprintf(&b, "%s| %s^\n", strings.Repeat(" ", len(gutter)-2), strings.Repeat(" ", caret))
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
