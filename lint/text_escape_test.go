package lint

import (
	"strings"
	"testing"

	"github.com/robotskit/robots/syntax"
)

// TestDisplayLine: a source line is shown with remote text escaped as
// the command line escapes it (ESC as \x1b, a byte that is not UTF-8 as
// \xNN), a tab as a space, and the caret under the code point it names,
// escapes counted.
func TestDisplayLine(t *testing.T) {
	for _, tt := range []struct {
		line  string
		col   int // 0-based code point
		text  string
		caret int
	}{
		{"Disallow: /a", 10, "Disallow: /a", 10},
		{"# evil \x1b[31mRED", 7, `# evil \x1b[31mRED`, 7},
		{"# evil \x1b[31mRED", 8, `# evil \x1b[31mRED`, 11},
		{"Disallow: /\xff\x1b", 12, `Disallow: /\xff\x1b`, 15},
		{"Disallow:\t/é", 11, "Disallow: /é", 11},
		{"x", 5, "x", 1},
		{"x", -1, "x", 0},
		{strings.Repeat("a", 600), 550, strings.Repeat("a", 500) + "…", 501},
	} {
		text, caret := displayLine(tt.line, tt.col)
		if text != tt.text || caret != tt.caret {
			t.Errorf("displayLine(%q, %d) = %q, %d; want %q, %d", tt.line, tt.col, text, caret, tt.text, tt.caret)
		}
	}
}

// TestWriteTextEscapes: WriteText writes what came from the file safe
// for a terminal: no raw control character, no U+FFFD in its place.
func TestWriteTextEscapes(t *testing.T) {
	f := syntax.Parse("robots\x1b.txt", []byte("User-agent: *\n# \x1b[31mred\nDisallow: /x\x1b\n"))
	var b strings.Builder
	if err := WriteText(&b, f, Run(f, nil)); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "\x1b") || strings.ContainsRune(out, '\uFFFD') || !strings.Contains(out, `    2 | # \x1b[31mred`) || !strings.Contains(out, `robots\x1b.txt:2:3: `) {
		t.Errorf("WriteText:\n%s", out)
	}
}
