package textedit

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestApply(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		edits     []Edit
		want      string
		err       bool
	}{
		{"none", "abc", nil, "abc", false},
		{"replace", "abcdef", []Edit{{1, 3, "X"}}, "aXdef", false},
		{"unordered", "abcdef", []Edit{{4, 5, "Y"}, {0, 1, ""}}, "bcdYf", false},
		{"insert twice in order", "ab", []Edit{{1, 1, "1"}, {1, 1, "2"}}, "a12b", false},
		{"insert before replace", "ab", []Edit{{1, 2, "X"}, {1, 1, "<"}}, "a<X", false},
		{"append", "ab", []Edit{{2, 2, "\n"}}, "ab\n", false},
		{"overlap", "abcdef", []Edit{{1, 3, ""}, {2, 4, ""}}, "", true},
		{"outside", "ab", []Edit{{1, 3, ""}}, "", true},
		{"reversed", "ab", []Edit{{2, 1, ""}}, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Apply(tc.src, tc.edits)
			if (err != nil) != tc.err {
				t.Fatalf("Apply error = %v, want error %v", err, tc.err)
			}
			if got != tc.want {
				t.Errorf("Apply = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestOverlap(t *testing.T) {
	for _, tc := range []struct {
		a, b Edit
		want bool
	}{
		{Edit{0, 2, ""}, Edit{2, 3, ""}, false},
		{Edit{0, 3, ""}, Edit{2, 3, ""}, true},
		{Edit{1, 1, "x"}, Edit{1, 1, "y"}, false},
		{Edit{1, 1, "x"}, Edit{0, 2, ""}, true},
		{Edit{2, 2, "x"}, Edit{0, 2, ""}, false},
		{Edit{1, 3, "x"}, Edit{1, 2, ""}, true},
	} {
		if got := Overlap(tc.a, tc.b); got != tc.want {
			t.Errorf("Overlap(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		if got := Overlap(tc.b, tc.a); got != tc.want {
			t.Errorf("Overlap(%v, %v) = %v, want %v", tc.b, tc.a, got, tc.want)
		}
	}
}

func TestUnifiedGolden(t *testing.T) {
	a := "User-agent: *\nDisallow: /a\nDisallow: /b\n\nSitemap: /s\n"
	b := "User-agent: *\nDisallow: /a\nAllow: /b\n\nSitemap: https://x.test/s\n"
	want := `--- a
+++ b
@@ -1,5 +1,5 @@
 User-agent: *
 Disallow: /a
-Disallow: /b
+Allow: /b
 
-Sitemap: /s
+Sitemap: https://x.test/s
`
	if got := Unified("a", "b", a, b); got != want {
		t.Errorf("Unified:\n%s\nwant:\n%s", got, want)
	}
	if got := Unified("a", "b", a, a); got != "" {
		t.Errorf("Unified of equal texts = %q, want empty", got)
	}
	got := Unified("a", "b", "x", "x\n")
	if want := "--- a\n+++ b\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+x\n"; got != want {
		t.Errorf("Unified without final newline:\n%q\nwant\n%q", got, want)
	}
}

// TestUnifiedRoundTrip applies each diff with a small patcher and expects
// the second text back, over texts with separated and adjacent changes.
func TestUnifiedRoundTrip(t *testing.T) {
	base := make([]string, 40)
	for i := range base {
		base[i] = fmt.Sprintf("line %d\n", i)
	}
	cases := [][2]string{
		{"", "a\n"}, {"a\n", ""}, {"a\nb\n", "b\na\n"},
		{strings.Join(base, ""), strings.Join(base[1:], "")},
	}
	edited := append([]string(nil), base...)
	edited[3], edited[20] = "changed\n", "changed too\n"
	edited = append(edited[:30], append([]string{"new\n"}, edited[30:]...)...)
	cases = append(cases, [2]string{strings.Join(base, ""), strings.Join(edited, "")})
	for i, c := range cases {
		d := Unified("a", "b", c[0], c[1])
		got, err := patch(c[0], d)
		if err != nil || got != c[1] {
			t.Errorf("case %d: patch = %q, %v; want %q\ndiff:\n%s", i, got, err, c[1], d)
		}
	}
}

// TestUnifiedLarge: on a long text with a few changed lines, far apart,
// the diff shows those lines and their context alone (the hand-written
// diff it replaced fell back to the whole text past 4,000 × 4,000 lines),
// and it applies.
func TestUnifiedLarge(t *testing.T) {
	lines := make([]string, 60000)
	for i := range lines {
		lines[i] = fmt.Sprintf("Disallow: /dir%05d/page.php\n", i)
	}
	a := strings.Join(lines, "")
	lines[10] = "# changed\n"
	lines = append(lines[:30000], lines[30001:]...)
	lines = append(lines, "Allow: /new\n")
	b := strings.Join(lines, "")
	d := Unified("a", "b", a, b)
	if n := strings.Count(d, "\n"); n > 30 {
		t.Errorf("the diff of 3 changes is %d lines long:\n%.2000s", n, d)
	}
	if got, err := patch(a, d); err != nil || got != b {
		t.Errorf("patch: %v", err)
	}
}

func FuzzUnified(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nc\nd")
	f.Add("", "x")
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(a) > 2000 || len(b) > 2000 {
			return
		}
		d := Unified("a", "b", a, b)
		if got, err := patch(a, d); err != nil || got != b {
			t.Fatalf("patch = %q, %v; want %q\ndiff:\n%s", got, err, b, d)
		}
	})
}

// patch applies a unified diff made by Unified to a.
func patch(a, diff string) (string, error) {
	if diff == "" {
		return a, nil
	}
	x := splitLines(a)
	lines := strings.SplitAfter(diff, "\n")
	var out []string
	next := 0 // next unread line of x
	for i := 2; i < len(lines) && lines[i] != ""; {
		h := lines[i]
		var as, an int
		if _, err := fmt.Sscanf(h, "@@ -%s", new(string)); err != nil {
			return "", fmt.Errorf("bad hunk header %q", h)
		}
		r := strings.Fields(h)[1][1:]
		s, n, ok := strings.Cut(r, ",")
		as, _ = strconv.Atoi(s)
		an = 1
		if ok {
			an, _ = strconv.Atoi(n)
		}
		if an > 0 {
			as--
		}
		out = append(out, x[next:as]...)
		next = as
		i++
		for i < len(lines) && lines[i] != "" && !strings.HasPrefix(lines[i], "@@") {
			l := lines[i]
			noEOL := i+1 < len(lines) && strings.HasPrefix(lines[i+1], `\`)
			text := l[1:]
			if noEOL {
				text = strings.TrimSuffix(text, "\n")
			}
			switch l[0] {
			case ' ':
				out = append(out, text)
				next++
			case '-':
				next++
			case '+':
				out = append(out, text)
			}
			i++
			if noEOL {
				i++
			}
		}
	}
	out = append(out, x[next:]...)
	return strings.Join(out, ""), nil
}

// splitLines splits s after every '\n'; the last element lacks it when s
// does not end with one.
func splitLines(s string) []string {
	var lines []string
	for s != "" {
		i := strings.IndexByte(s, '\n') + 1
		if i == 0 {
			i = len(s)
		}
		lines = append(lines, s[:i])
		s = s[i:]
	}
	return lines
}

// TestLineMap: the lines the line diff keeps are matched in order; added
// and removed lines map to 0; a final line without '\n' counts.
func TestLineMap(t *testing.T) {
	a := "u: *\nd: /a\nd: /b\nx\n"
	b := "u: *\nd: /new\nd: /b\nx\nd: /end"
	aToB, bToA := LineMap(a, b)
	if want := []int{1, 0, 3, 4}; !slices.Equal(aToB, want) {
		t.Errorf("a to b %v, want %v", aToB, want)
	}
	if want := []int{1, 0, 3, 4, 0}; !slices.Equal(bToA, want) {
		t.Errorf("b to a %v, want %v", bToA, want)
	}
	aToB, bToA = LineMap("same\n", "same\n")
	if !slices.Equal(aToB, []int{1}) || !slices.Equal(bToA, []int{1}) {
		t.Errorf("equal texts: %v %v", aToB, bToA)
	}
	aToB, bToA = LineMap("", "one\n")
	if len(aToB) != 0 || !slices.Equal(bToA, []int{0}) {
		t.Errorf("from empty: %v %v", aToB, bToA)
	}
}

// TestLineMapRandom: on random texts, matched lines are equal, in order,
// and the two maps are inverse.
func TestLineMapRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"a", "b", "c", "d", ""}
	for n := 0; n < 2000; n++ {
		gen := func() []string {
			var ls []string
			for i := rng.IntN(12); i > 0; i-- {
				ls = append(ls, words[rng.IntN(len(words))])
			}
			return ls
		}
		la, lb := gen(), gen()
		a, b := strings.Join(la, "\n"), strings.Join(lb, "\n")
		if len(la) > 0 && rng.IntN(2) == 0 {
			a += "\n"
		}
		aToB, bToA := LineMap(a, b)
		if len(aToB) != lineCount(a) || len(bToA) != lineCount(b) {
			t.Fatalf("%q → %q: %d and %d entries", a, b, len(aToB), len(bToA))
		}
		last := 0
		for i, j := range aToB {
			if j == 0 {
				continue
			}
			if j <= last || bToA[j-1] != i+1 || la[i] != lb[j-1] {
				t.Fatalf("%q → %q: line %d ↦ %d (maps %v %v)", a, b, i+1, j, aToB, bToA)
			}
			last = j
		}
	}
}
