package lint

import (
	"strings"
	"testing"

	"github.com/robotskit/robots/syntax"
)

// TestWriteTextMaxSame checks that WriteTextWith writes MaxSame
// diagnostics of a check, then one line for the rest.
func TestWriteTextMaxSame(t *testing.T) {
	src := "User-agent: *\nDisallow: a\n\nUser-agent: b\nDisallow: c\n\nUser-agent: d\nDisallow: e\n"
	f := syntax.Parse("r.txt", []byte(src))
	ds := Fold(Run(f, nil))
	var b strings.Builder
	if err := WriteTextWith(&b, f, ds, TextOptions{MaxSame: 2, SameNote: "note"}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "error RB501"); n != 2 {
		t.Errorf("%d RB501 written, want 2:\n%s", n, b.String())
	}
	if !strings.Contains(b.String(), "… and 1 more RB501 (note)\n") {
		t.Errorf("no line for the rest:\n%s", b.String())
	}
	b.Reset()
	WriteTextWith(&b, f, ds, TextOptions{})
	if n := strings.Count(b.String(), "error RB501"); n != 3 {
		t.Errorf("MaxSame 0 wrote %d RB501, want 3", n)
	}
}

// TestWriteTextColor checks that colours surround only our words: a
// control character of the file is escaped as without colours.
func TestWriteTextColor(t *testing.T) {
	f := syntax.Parse("r.txt", []byte("User-agent: *\nDisallow: a\x1b[31m\n"))
	ds := Fold(Run(f, nil))
	var plain, color strings.Builder
	WriteTextWith(&plain, f, ds, TextOptions{})
	WriteTextWith(&color, f, ds, TextOptions{Color: true})
	if strings.Contains(plain.String(), "\x1b") {
		t.Errorf("plain text has an escape:\n%q", plain.String())
	}
	stripped := color.String()
	for _, c := range []string{colorReset, colorCode, colorCaret, colorDim, sevColors[Info], sevColors[Warning], sevColors[Error]} {
		stripped = strings.ReplaceAll(stripped, c, "")
	}
	if stripped != plain.String() || !strings.Contains(color.String(), sevColors[Error]+"error"+colorReset) {
		t.Errorf("coloured:\n%q\nplain:\n%q", color.String(), plain.String())
	}
}
