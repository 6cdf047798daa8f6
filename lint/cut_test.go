package lint

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/change"
	"github.com/robotskit/robots/internal/textedit"
	"github.com/robotskit/robots/syntax"
)

// bigFile returns a robots.txt of about 2 MiB: 60,000 rules, in the "*"
// group or in a group for bulk, that run past the 500 KiB robots read,
// then a group for late that only a robot reading the whole file would
// see, and a few fixable lines before and after the cut: an orphan rule
// before the first group (FX14), a blank line inside a group (FX12), a
// line without a colon (FX07), a Clean-param line (FX33 moves it into a
// Yandex group: with late "Yandex", past the cut).
func bigFile(bulk, late string) []byte {
	var b strings.Builder
	b.WriteString("# a large file\nDisallow: /orphan\nUser-agent: *\nDisallow: /early/\n\nDisallow: /after-blank/\nDisallow /nocolon-early\nClean-param: sid /early/\n")
	if bulk != "*" {
		b.WriteString("\nUser-agent: " + bulk + "\n")
	}
	for i := 0; i < 60000; i++ {
		fmt.Fprintf(&b, "Disallow: /dir%05d/sub%02d/page.php\n", i, i%100)
	}
	b.WriteString("\n# late\nUser-agent: " + late + "\nDisallow: /late-rule/\n\nDisallow /late-nocolon\n")
	return []byte(b.String())
}

// readVerdicts returns the verdicts, for the google and rfc9309 profiles,
// Googlebot and another robot, of paths on both sides of the cut, as
// robots read src: its first 500 KiB (robots.Read).
func readVerdicts(t *testing.T, src []byte) []string {
	t.Helper()
	body, _, err := robots.Read(bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	f := syntax.Parse("", body)
	paths := []string{"/", "/orphan", "/early/x", "/after-blank/x", "/nocolon-early",
		"/dir00001/sub01/page.php", "/dir14000/sub00/page.php", // before the cut
		"/dir15000/sub00/page.php", "/dir59999/sub99/page.php", // after it
		"/late-rule/x", "/late-nocolon", "/late-star/x"}
	var out []string
	for _, prof := range []robots.Profile{robots.Google, robots.RFC9309} {
		r := robots.Compile(f, prof)
		for _, ag := range []string{"Googlebot", "OtherBot"} {
			for _, p := range paths {
				out = append(out, fmt.Sprintf("%v %s %s %v", prof, ag, p, r.Allowed(ag, p)))
			}
		}
	}
	return out
}

// TestFixLargeFile: on a file longer than the 500 KiB robots read, the
// fixer (default and AllRobots) and Format keep every google and rfc9309
// verdict on both sides of the cut, move no line across it (the fixes
// that would are refused, and say why), and the diff of the fix shows
// the changed lines alone.
func TestFixLargeFile(t *testing.T) {
	for _, tc := range []struct {
		bulk, late string
		refuse     [2]string // the fix refused for the cut: default, AllRobots
	}{
		{"*", "Googlebot", [2]string{"", "FX18"}},
		{"Googlebot", "Yandex", [2]string{"FX33", "FX18 FX33"}},
	} {
		src := bigFile(tc.bulk, tc.late)
		name := tc.bulk + "/" + tc.late
		if len(src) < 2<<20-200<<10 {
			t.Fatalf("%s: the file is %d bytes, want about 2 MiB", name, len(src))
		}
		want := readVerdicts(t, src)
		// The cut falls among the /dirN rules, and the late group is past it.
		if w := strings.Join(want, "\n"); !strings.Contains(w, "google Googlebot /dir14000/sub00/page.php false") ||
			!strings.Contains(w, "google Googlebot /dir15000/sub00/page.php true") ||
			!strings.Contains(w, "google Googlebot /late-rule/x true") {
			t.Fatalf("%s: the test file does not straddle the cut:\n%s", name, w)
		}
		for k, all := range []bool{false, true} {
			res := Fix(src, &FixOptions{Config: Config{AllRobots: all}})
			got := readVerdicts(t, res.Output)
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("%s, AllRobots %v: %s, want %s", name, all, got[i], want[i])
				}
			}
			if len(res.Applied) == 0 {
				t.Errorf("%s, AllRobots %v: nothing applied", name, all)
			}
			d := textedit.Unified("a", "b", string(src), string(res.Output))
			if n := strings.Count(d, "\n"); n > 40 {
				t.Errorf("%s, AllRobots %v: the diff is %d lines long:\n%.3000s", name, all, n, d)
			}
			var cut []string
			for _, r := range res.Refused {
				if r.Reason == CutReason {
					cut = append(cut, r.Fix.ID)
				}
			}
			if got := strings.Join(cut, " "); got != tc.refuse[k] {
				t.Errorf("%s, AllRobots %v: refused for the cut: %q, want %q", name, all, got, tc.refuse[k])
			}
		}
		out, err := Format(src)
		if err == nil || !strings.Contains(err.Error(), "500 KiB") || !bytes.Equal(out, src) {
			t.Errorf("%s: Format of a file whose layout moves lines across the cut: err %v, output changed %v", name, err, !bytes.Equal(out, src))
		}
	}
}

// TestEquivalentCut: Equivalent compares what robots read, the first
// 500 KiB: a change past the cut changes no verdict, a group brought
// before it does.
func TestEquivalentCut(t *testing.T) {
	src := bigFile("*", "Googlebot")
	late := []byte("\nUser-agent: Googlebot\nDisallow: /late-rule/\n")
	i := bytes.Index(src, late)
	if i < robots.MaxBytes {
		t.Fatal("the Googlebot group is not past the cut")
	}
	past := bytes.Replace(src, []byte("Disallow: /late-rule/"), []byte("Allow: /late-rule/"), 1)
	if d := change.Equivalent(src, past); d != nil {
		t.Errorf("a change past the cut: %+v", *d)
	}
	moved := append(append(append([]byte(nil), late[1:]...), '\n'), append(append([]byte(nil), src[:i]...), src[i+len(late):]...)...)
	if d := change.Equivalent(src, moved); d == nil {
		t.Errorf("the Googlebot group moved before the cut: no difference")
	}
	// A rule moved across the cut by one fix of many: the probes of the
	// rules that differ are tried even when the rest are sampled.
	j := bytes.Index(src, []byte("Disallow: /dir59999/"))
	one := append(append([]byte("User-agent: *\nDisallow: /dir59999/\n"), src[:j]...), src[j+len("Disallow: /dir59999/sub99/page.php\n"):]...)
	if d := change.Equivalent(src, one); d == nil {
		t.Errorf("a rule moved from past the cut: no difference")
	}
}

// TestEquivalentLineCut: Google reads the first syntax.MaxLineLen bytes of
// a line; a fix that shifts what falls within them changes a verdict.
func TestEquivalentLineCut(t *testing.T) {
	long := "/" + strings.Repeat("b", syntax.MaxLineLen)
	a := "User-agent: *\nDisallow " + long + "\n"
	b := "User-agent: *\nDisallow: " + long + "\n"
	if d := change.Equivalent([]byte(a), []byte(b)); d == nil {
		t.Errorf("inserting a colon moves the line cut by one byte: no difference found")
	}
	res := Fix([]byte(a), nil)
	if !bytes.Equal(res.Output, []byte(a)) {
		t.Errorf("the colon was inserted although it shifts the line cut")
	}
}

// TestCutGuard: a fix that removes text on one side of the cut and
// writes it on the other moves it; one that pushes a line across by
// growing the text before it does not keep the sides.
func TestCutGuard(t *testing.T) {
	src := bigFile("*", "Googlebot")
	f := syntax.Parse("", src)
	g := newCutGuard(f)
	if g.end >= len(src) || g.end > robots.MaxBytes {
		t.Fatalf("end %d of %d bytes", g.end, len(src))
	}
	lateAt := bytes.Index(src, []byte("Disallow: /late-rule/"))
	if !g.moves([]Edit{{Start: 10, End: 10, New: "Disallow: /late-rule/\n"}, {Start: lateAt, End: lateAt + 22}}) {
		t.Errorf("a rule moved from past the cut to the top: not a move")
	}
	if g.moves([]Edit{{Start: 10, End: 10, New: "x\n"}, {Start: 20, End: 22}}) {
		t.Errorf("edits before the cut: a move")
	}
	if g.moves([]Edit{{Start: g.end - 5, End: g.end + 5}}) {
		// one edit across the end
	} else {
		t.Errorf("an edit across the end: not a move")
	}
	grow := Diagnostic{Fix: &SuggestedFix{Edits: []Edit{{Start: 0, End: 0, New: strings.Repeat("#\n", 100)}}}}
	if g.keeps(string(src[:0])+strings.Repeat("#\n", 100)+string(src), []Diagnostic{grow}) {
		t.Errorf("100 lines inserted at the top push rules out of the read part: kept")
	}
	small := Diagnostic{Fix: &SuggestedFix{Edits: []Edit{{Start: lateAt, End: lateAt, New: "# x\n"}}}}
	next, _ := textedit.Apply(string(src), []textedit.Edit{{Start: lateAt, End: lateAt, New: "# x\n"}})
	if !g.keeps(next, []Diagnostic{small}) {
		t.Errorf("a comment inserted past the cut: not kept")
	}
}

// TestFixScope: by default the fixer leaves the layout fixes for
// first-match robots (FX15 for a named robot, FX18, FX30) to AllRobots,
// and the fixes for major robots still apply.
func TestFixScope(t *testing.T) {
	src := "User-agent: *\nDisallow: /a\nDisallow: /a/b/c\n\nUser-agent: Googlebot\nDisallow: /g\n\nUser-agent: Googlebot\nDisallow: /h\n\nDisallow /x\nDisallow: /orphan-later\n"
	res := Fix([]byte(src), nil)
	for _, d := range res.Applied {
		if LayoutFix(&d) {
			t.Errorf("default: layout fix %s %s applied", d.Fix.ID, d.Check.Code)
		}
	}
	deferred := map[string]bool{}
	for _, d := range res.Deferred {
		deferred[d.Fix.ID] = true
	}
	if !deferred["FX15"] {
		t.Errorf("default: FX15 of RB407 not deferred: %v", res.Deferred)
	}
	all := Fix([]byte(src), &FixOptions{Config: Config{AllRobots: true}})
	applied := map[string]bool{}
	for _, d := range all.Applied {
		applied[d.Fix.ID] = true
	}
	if !applied["FX15"] || !applied["FX18"] {
		t.Errorf("AllRobots: FX15 and FX18 not both applied: %v\n%s", applied, all.Output)
	}
	if len(all.Deferred) != 0 {
		t.Errorf("AllRobots: deferred %v", all.Deferred)
	}
}

// TestFixCarriesComments: a comment line right above a line a fix moves
// goes with it; the comments at the top of the file stay.
func TestFixCarriesComments(t *testing.T) {
	cases := []struct {
		name, src, want string
		all             bool
	}{{
		name: "Clean-param into the Yandex group (FX33)",
		src:  "User-agent: *\nDisallow: /a\n# session ids\nClean-param: sid\n\nUser-agent: Yandex\nDisallow: /y\n",
		want: "User-agent: *\nDisallow: /a\n\nUser-agent: Yandex\nDisallow: /y\n# session ids\nClean-param: sid\n",
	}, {
		name: "\"*\" groups merged (FX15 for RB408)",
		all:  true,
		src:  "User-agent: *\nDisallow: /a\n\n# ruwiki:\nUser-agent: *\nDisallow: /b\n",
		want: "User-agent: *\nDisallow: /a\n# ruwiki:\nDisallow: /b\n",
	}, {
		name: "rules sorted (FX30)",
		all:  true,
		src:  "User-agent: *\nDisallow: /a\n# ruwiki:\nAllow: /a/b\nDisallow: /c\n",
		want: "User-agent: *\n# ruwiki:\nAllow: /a/b\nDisallow: /a\nDisallow: /c\n",
	}}
	for _, c := range cases {
		res := Fix([]byte(c.src), &FixOptions{Config: Config{AllRobots: c.all}})
		if string(res.Output) != c.want {
			t.Errorf("%s:\n%s\nwant:\n%s", c.name, res.Output, c.want)
		}
	}
	// The header stays on top when the first group moves (FX18).
	src := "# header\nUser-agent: *\nDisallow: /a\n\nUser-agent: Googlebot\nDisallow: /g\n"
	res := Fix([]byte(src), &FixOptions{Config: Config{AllRobots: true}})
	if !strings.HasPrefix(string(res.Output), "# header\nUser-agent: Googlebot\n") {
		t.Errorf("header:\n%s", res.Output)
	}
}
