package lint

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/robotskit/robots/internal/termtext"
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
//
// What came from the file (its line, a message quoting it, its name) is
// written safe for a terminal, as the command line writes all remote
// text: a control character as a Go escape (ESC as \x1b), with the caret
// still under its column.
func WriteText(w io.Writer, f *syntax.File, ds []Diagnostic) error {
	return WriteTextWith(w, f, ds, TextOptions{})
}

// TextOptions are the choices of WriteTextWith; the zero value is
// WriteText's output.
type TextOptions struct {
	// MaxSame is how many diagnostics of one check are written, 0 for
	// all of them. After the MaxSame-th of a check comes one line that
	// says how many more there are, "… and 200 more RB407", followed by
	// " (SameNote)" when SameNote is not "". Only the text is cut short:
	// JSON and SARIF keep every diagnostic.
	MaxSame  int
	SameNote string
	// Color writes the severities, the codes and the carets in ANSI
	// colours (SGR escapes), for a terminal. Nothing that came from the
	// file is coloured, and its escaping is the same either way.
	Color bool
}

// The colours of WriteTextWith: bold red errors, bold yellow warnings,
// bold cyan infos, bold codes, green carets.
var (
	sevColors = [...]string{Info: "\x1b[1;36m", Warning: "\x1b[1;33m", Error: "\x1b[1;31m"}
)

const (
	colorCode  = "\x1b[1m"
	colorCaret = "\x1b[32m"
	colorDim   = "\x1b[2m"
	colorReset = "\x1b[0m"
)

// WriteTextWith is WriteText with options: at most opt.MaxSame
// diagnostics of a check, and colours.
func WriteTextWith(w io.Writer, f *syntax.File, ds []Diagnostic, opt TextOptions) error {
	paint := func(color, s string) string {
		if !opt.Color || s == "" {
			return s
		}
		return color + s + colorReset
	}
	var total, shown map[string]int
	if opt.MaxSame > 0 {
		total, shown = map[string]int{}, map[string]int{}
		for i := range ds {
			total[ds[i].Check.Code]++
		}
	}
	name := f.Name
	if name == "" {
		name = "robots.txt"
	}
	name = termtext.Escape(name)
	var b strings.Builder
	for i := range ds {
		d := &ds[i]
		code := d.Check.Code
		if shown != nil {
			shown[code]++
			if shown[code] > opt.MaxSame {
				continue
			}
		}
		msg := termtext.Escape(d.Message)
		sev := paint(sevColors[min(int(d.Check.Severity), len(sevColors)-1)], d.Check.Severity.String())
		if d.Line > 0 {
			fmt.Fprintf(&b, "%s:%d:%d: %s %s %s\n", name, d.Line, d.Column, sev, paint(colorCode, code), msg)
		} else {
			// A finding on the whole file (its encoding, its fetch) has no
			// line to point at, as a compiler writes "name: message".
			fmt.Fprintf(&b, "%s: %s %s %s\n", name, sev, paint(colorCode, code), msg)
		}
		if d.Line > 0 && d.Line <= len(f.Lines) {
			text, caret := displayLine(f.Text(f.Lines[d.Line-1].Span), d.Column-1)
			gutter := fmt.Sprintf("%5d | ", d.Line)
			fmt.Fprintf(&b, "%s%s\n", gutter, text)
			fmt.Fprintf(&b, "%s| %s%s\n", strings.Repeat(" ", len(gutter)-2), strings.Repeat(" ", caret), paint(colorCaret, "^"))
			if len(d.Lines) > 1 {
				fmt.Fprintf(&b, "%s= %s\n", strings.Repeat(" ", len(gutter)-2), moreLines(d.Lines[1:]))
			}
		}
		for _, r := range d.Related {
			fmt.Fprintf(&b, "%s:%d: note: %s\n", name, r.Line, termtext.Escape(r.Note))
		}
		if shown != nil && shown[code] == opt.MaxSame && total[code] > opt.MaxSame {
			more := fmt.Sprintf("… and %d more %s", total[code]-opt.MaxSame, code)
			if opt.SameNote != "" {
				more += " (" + opt.SameNote + ")"
			}
			fmt.Fprintf(&b, "%s\n", paint(colorDim, more))
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

// maxShown is how many code points of a line WriteText shows.
const maxShown = 500

// displayLine makes a line safe to show on a terminal, as
// termtext.Escape writes remote text (ESC as \x1b, a byte that is not
// UTF-8 as \xNN), and returns it with the caret's place under code point
// col (0-based) of the line, counted in the code points shown, escapes
// included. A tab becomes a space, so that the caret line, of spaces,
// stays aligned. A line is cut at maxShown code points, with "…".
func displayLine(s string, col int) (text string, caret int) {
	col = max(col, 0)
	var b strings.Builder
	n, shown := 0, 0 // code points of s read; code points written
	caret = -1
	for i := 0; i < len(s); n++ {
		if n == col {
			caret = shown
		}
		if n == maxShown {
			b.WriteString("…")
			shown++
			break
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		piece := s[i : i+size]
		if piece == "\t" {
			piece = " "
		}
		piece = termtext.Escape(piece)
		b.WriteString(piece)
		shown += utf8.RuneCountInString(piece)
		i += size
	}
	if caret < 0 {
		caret = shown
	}
	return b.String(), caret
}
