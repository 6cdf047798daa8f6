package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robotskit/robots/internal/textedit"
	"github.com/robotskit/robots/syntax"
)

// TestScope holds Run to Config.AllRobots: a finding that affects only
// first-match robots, the 1994 standard, single libraries or no robot at
// all is left out by default and reported with AllRobots.
func TestScope(t *testing.T) {
	tests := []struct {
		name, src, code string
		major           bool // reported by default
	}{
		{"BOM, first-match robots only", "\ufeffUser-agent: *\nDisallow: /x\n", "RB201", false},
		{"rule order, first-match robots only", "User-agent: *\nDisallow: /shop\nAllow: /shop/sale\n", "RB701", false},
		{"trailing star, 1994 standard", "User-agent: *\nDisallow: /tmp*\n", "RB509", false},
		{"duplicate rule, no robot", "User-agent: *\nDisallow: /a\nDisallow: /a\n", "RB513", false},
		{"version Google reads as the token", "User-agent: Googlebot/2.1\nDisallow: /x\n", "RB412", false},
		{"Name* that Google reads as the name", "User-agent: Googlebot*\nDisallow: /x\n", "RB410", false},
		{"user-agent string Google misreads", "User-agent: Mozilla/5.0 (compatible; Googlebot/2.1)\nDisallow: /x\n", "RB412", true},
		{"*bot that Google reads as nothing", "User-agent: *bot\nDisallow: /x\n", "RB410", true},
		{"blank line Yandex reads as the end", "User-agent: *\nDisallow: /a\n\nDisallow: /b\n", "RB403", true},
		{"path without slash", "User-agent: *\nDisallow: admin/\n", "RB501", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := syntax.Parse("", []byte(tt.src))
			if got := hasCode(Run(f, nil), tt.code); got != tt.major {
				t.Errorf("default: %s reported = %v, want %v", tt.code, got, tt.major)
			}
			if !hasCode(Run(f, &Config{AllRobots: true}), tt.code) {
				t.Errorf("AllRobots: %s not reported", tt.code)
			}
		})
	}
}

func hasCode(ds []Diagnostic, code string) bool {
	for _, d := range ds {
		if d.Check.Code == code {
			return true
		}
	}
	return false
}

// exampleFiles returns the robots.txt files of the repository's examples
// and golden cases, and the examples of the catalogue.
func exampleFiles(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, name := range []string{"../testdata/example-check.txt", "../testdata/example-robots.txt"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(name)] = b
	}
	for _, g := range readGoldens(t) {
		files[filepath.Base(g.name)] = g.input
	}
	for _, c := range Checks() {
		files[c.Code+" Before"] = []byte(c.Before)
	}
	return files
}

// TestDefaultScopeMajor checks that every diagnostic of the default scope
// names a major family, but those of the robots:ignore comments, which
// affect no robot, and that a diagnostic's own families are some of its
// check's.
func TestDefaultScopeMajor(t *testing.T) {
	for name, src := range exampleFiles(t) {
		f := syntax.Parse("", src)
		for _, thorough := range []bool{false, true} {
			for _, d := range Fold(Run(f, &Config{Thorough: thorough})) {
				if !anyMajor(d.Families()) && !d.Check.impl.Meta {
					t.Errorf("%s: %s affects %v, no major family", name, d.String(), d.Families())
				}
			}
			for _, d := range Run(f, &Config{Thorough: thorough, AllRobots: true}) {
				for _, fam := range d.Affects {
					if !slices.Contains(d.Check.Affects, fam) {
						t.Errorf("%s: %s affects %v, not among its check's %v", name, d.String(), d.Affects, d.Check.Affects)
					}
				}
			}
		}
	}
}

// orderDependent returns a group of n Disallow rules followed by the n
// longer Allow rules that each shorter rule covers: n places where
// first-match robots read the order differently (RB701).
func orderDependent(agent string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "User-agent: %s\n", agent)
	for i := range n {
		fmt.Fprintf(&b, "Disallow: /d%d\n", i)
	}
	for i := range n {
		fmt.Fprintf(&b, "Allow: /d%d/public\n", i)
	}
	return b.String()
}

func onlyCode(ds []Diagnostic, code string) []Diagnostic {
	var out []Diagnostic
	for _, d := range ds {
		if d.Check.Code == code {
			out = append(out, d)
		}
	}
	return out
}

// TestFold checks that repeats of one check in one group are one
// diagnostic that lists their lines and carries the edits of all, and
// that repeats in two groups stay two.
func TestFold(t *testing.T) {
	all := &Config{AllRobots: true}
	src := orderDependent("*", 6)
	ds := Run(syntax.Parse("", []byte(src)), all)
	if n := len(onlyCode(ds, "RB701")); n != 6 {
		t.Fatalf("Run: %d RB701, want 6 (one per place)", n)
	}
	folded := onlyCode(Fold(ds), "RB701")
	if len(folded) != 1 {
		t.Fatalf("Fold: %d RB701, want 1", len(folded))
	}
	d := folded[0]
	if want := []int{8, 9, 10, 11, 12, 13}; !slices.Equal(d.Lines, want) || d.Line != 8 {
		t.Errorf("Fold: line %d, lines %v; want 8, %v", d.Line, d.Lines, want)
	}
	// Every place has the same edit, the sort of the group: it is there
	// once.
	if d.Fix == nil || len(d.Fix.Edits) != 1 {
		t.Errorf("Fold: fix %+v, want the one sort edit", d.Fix)
	}
	if ds[0].Lines != nil {
		t.Error("Fold modified its input")
	}

	two := orderDependent("a", 3) + "\n" + orderDependent("b", 3)
	folded = onlyCode(Fold(Run(syntax.Parse("", []byte(two)), all)), "RB701")
	if len(folded) != 2 || len(folded[0].Lines) != 3 || len(folded[1].Lines) != 3 {
		t.Errorf("two groups: %d RB701 (%v), want 2 of 3 lines each", len(folded), folded)
	}

	// The edits of every place: applied together, they fix them all.
	stars := "User-agent: *\nDisallow: /a*\nDisallow: /b*\nDisallow: /c*\n"
	folded = onlyCode(Fold(Run(syntax.Parse("", []byte(stars)), all)), "RB509")
	if len(folded) != 1 || len(folded[0].Fix.Edits) != 3 {
		t.Fatalf("trailing stars: %+v, want one RB509 with 3 edits", folded)
	}
	var edits []textedit.Edit
	for _, e := range folded[0].Fix.Edits {
		edits = append(edits, textedit.Edit(e))
	}
	got, err := textedit.Apply(stars, edits)
	if want := "User-agent: *\nDisallow: /a\nDisallow: /b\nDisallow: /c\n"; err != nil || got != want {
		t.Errorf("trailing stars: edits give %q, %v; want %q", got, err, want)
	}
	if out := string(Fix([]byte(stars), &FixOptions{Config: *all}).Output); out != got {
		t.Errorf("Fix gives %q, the folded edits %q", out, got)
	}
}

// TestFoldConflict checks that a place whose edit overlaps another
// place's differently adds no edit (Fix applies it in a later round), and
// that several findings on one line list no lines.
func TestFoldConflict(t *testing.T) {
	c := Lookup("RB509")
	fix := func(es ...Edit) *SuggestedFix { return &SuggestedFix{ID: "FX27", Class: Preserving, Edits: es} }
	ds := []Diagnostic{
		{Check: c, Line: 2, Column: 1, Fix: fix(Edit{Start: 10, End: 12})},
		{Check: c, Line: 2, Column: 5, Fix: fix(Edit{Start: 10, End: 12})},
		{Check: c, Line: 3, Column: 1, Fix: fix(Edit{Start: 11, End: 13, New: "x"})},
		{Check: c, Line: 4, Column: 1, Fix: fix(Edit{Start: 20, End: 21}, Edit{Start: 22, End: 22, New: "y"})},
	}
	got := Fold(ds)
	if len(got) != 1 {
		t.Fatalf("Fold: %d diagnostics, want 1", len(got))
	}
	if want := []Edit{{10, 12, ""}, {20, 21, ""}, {22, 22, "y"}}; !slices.Equal(got[0].Fix.Edits, want) {
		t.Errorf("edits %v, want %v", got[0].Fix.Edits, want)
	}
	if want := []int{2, 3, 4}; !slices.Equal(got[0].Lines, want) {
		t.Errorf("lines %v, want %v", got[0].Lines, want)
	}
	if len(ds[0].Fix.Edits) != 1 {
		t.Error("Fold modified the fix of its input")
	}
	one := Fold(ds[:2])
	if len(one) != 1 || one[0].Lines != nil {
		t.Errorf("two findings on one line: %+v, want one without lines", one)
	}
}

// TestWriteTextLines checks the line that lists the other places of a
// problem: at most five, then "…".
func TestWriteTextLines(t *testing.T) {
	src := "User-agent: *\n" + strings.Repeat("Disallow: /a*\n", 8)
	f := syntax.Parse("robots.txt", []byte(src))
	d := Diagnostic{Check: Lookup("RB509"), Line: 2, Column: 11, Message: "m", Lines: []int{2, 3, 4, 5, 6, 7, 8, 9}}
	var b strings.Builder
	if err := WriteText(&b, f, []Diagnostic{d}); err != nil {
		t.Fatal(err)
	}
	want := "robots.txt:2:11: warning RB509 m\n" +
		"    2 | Disallow: /a*\n" +
		"      |           ^\n" +
		"      = and 7 more (lines 3, 4, 5, 6, 7, …)\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	d.Lines = []int{2, 9}
	b.Reset()
	WriteText(&b, f, []Diagnostic{d})
	if !strings.Contains(b.String(), "      = and 1 more (line 9)\n") {
		t.Errorf("one more line: got\n%s", b.String())
	}
}

// TestWriteTextFile: a finding on the whole file has no line: it is
// written "name: severity CODE message", without ":0:0" and without a
// quoted line.
func TestWriteTextFile(t *testing.T) {
	src := "\xFF\xFEU\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00:\x00 \x00*\x00\n\x00"
	f := syntax.Parse("store.example", []byte(src))
	var b strings.Builder
	if err := WriteText(&b, f, Run(f, nil)); err != nil {
		t.Fatal(err)
	}
	want := "store.example: error RB202 robots.txt is encoded as UTF-16LE; robots expect UTF-8\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}
