package lint

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/change"
	"github.com/robotskit/robots/internal/txtar"
	"github.com/robotskit/robots/lint/internal/testenv"
)

// TestFormatGolden checks Format against testdata/fmt/*.txtar: the
// section "output" is Format's layout of "input", and "sorted" that of
// FormatWith with SortRules, when it differs; -update rewrites both.
func TestFormatGolden(t *testing.T) {
	names, _ := filepath.Glob(filepath.Join("testdata", "fmt", "*.txtar"))
	if len(names) == 0 {
		t.Fatal("no cases")
	}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		a := txtar.Parse(data)
		in, _ := a.Get("input")
		got, err := Format(in)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		sorted, err := FormatWith(in, FormatOptions{SortRules: true})
		if err != nil {
			t.Errorf("%s: SortRules: %v", name, err)
		}
		if testenv.Update() {
			a.Set("output", got)
			if bytes.Equal(sorted, got) {
				a.Delete("sorted")
			} else {
				a.Set("sorted", sorted)
			}
			if err := os.WriteFile(name, a.Format(), 0o666); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, _ := a.Get("output")
		if string(got) != string(want) {
			t.Errorf("%s:\n%s\nwant:\n%s", name, got, want)
		}
		if w, ok := a.Get("sorted"); ok {
			want = w
		}
		if string(sorted) != string(want) {
			t.Errorf("%s, SortRules:\n%s\nwant:\n%s", name, sorted, want)
		}
	}
}

// formatOrderCases are the rule orders of TestFormatRuleOrder: keep is
// Format's output, sorted that of FormatWith with SortRules.
var formatOrderCases = []struct {
	name, src, keep, sorted string
}{{
	name:   "written order kept, sorted longest first",
	src:    "User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /\n",
	keep:   "User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /\n",
	sorted: "User-agent: *\nAllow: /a/b\nDisallow: /a\nDisallow: /\n",
}, {
	name:   "a tie: Allow first only when sorted",
	src:    "User-agent: *\nDisallow: /x\nAllow: /x\n",
	keep:   "User-agent: *\nDisallow: /x\nAllow: /x\n",
	sorted: "User-agent: *\nAllow: /x\nDisallow: /x\n",
}, {
	name:   "the length is that of the pattern as Google encodes it",
	src:    "User-agent: *\nDisallow: /é\nAllow: /abc\n",
	keep:   "User-agent: *\nDisallow: /é\nAllow: /abc\n",
	sorted: "User-agent: *\nDisallow: /é\nAllow: /abc\n",
}, {
	name:   "the rest of the layout still applies",
	src:    "user-agent: *\ndisallow: /a\ncrawl-delay: 2\n\nallow: /a/b\nSitemap: https://example.com/s.xml\nUser-agent: Googlebot\nDisallow: /g\n",
	keep:   "User-agent: Googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /a\nAllow: /a/b\nCrawl-delay: 2\n\nSitemap: https://example.com/s.xml\n",
	sorted: "User-agent: Googlebot\nDisallow: /g\n\nUser-agent: *\nAllow: /a/b\nDisallow: /a\nCrawl-delay: 2\n\nSitemap: https://example.com/s.xml\n",
}, {
	name:   "a comment goes with its rule",
	src:    "# top\nUser-agent: *\nDisallow: /\n# the shop is open\nAllow: /shop/\n",
	keep:   "# top\n\nUser-agent: *\nDisallow: /\n# the shop is open\nAllow: /shop/\n",
	sorted: "# top\n\nUser-agent: *\n# the shop is open\nAllow: /shop/\nDisallow: /\n",
}}

// TestFormatRuleOrder: Format keeps the rules of a group in the order
// they are written; SortRules sorts them longest first, Allow first on a
// tie (FX30). Each output is a fixed point of its mode, and each mode
// keeps the other's output as it is when the rule order is already its
// own: Format leaves sorted rules sorted.
func TestFormatRuleOrder(t *testing.T) {
	sortRules := FormatOptions{SortRules: true}
	for _, c := range formatOrderCases {
		keep, err := Format([]byte(c.src))
		if err != nil || string(keep) != c.keep {
			t.Errorf("%s: Format: %v\n%s\nwant:\n%s", c.name, err, keep, c.keep)
		}
		sorted, err := FormatWith([]byte(c.src), sortRules)
		if err != nil || string(sorted) != c.sorted {
			t.Errorf("%s: SortRules: %v\n%s\nwant:\n%s", c.name, err, sorted, c.sorted)
		}
		if again, _ := Format([]byte(c.keep)); string(again) != c.keep {
			t.Errorf("%s: Format is not idempotent:\n%s", c.name, again)
		}
		if again, _ := FormatWith([]byte(c.sorted), sortRules); string(again) != c.sorted {
			t.Errorf("%s: SortRules is not idempotent:\n%s", c.name, again)
		}
		if again, _ := Format([]byte(c.sorted)); string(again) != c.sorted {
			t.Errorf("%s: Format reorders sorted rules:\n%s", c.name, again)
		}
	}
}

// TestFormatSortCut: a sort that would bring a rule from past the first
// 500 KiB to the top of its group is refused as any layout that moves a
// line across the cut; Format, which keeps the order, lays the file out.
func TestFormatSortCut(t *testing.T) {
	var b strings.Builder
	b.WriteString("user-agent: *\n")
	for i := 0; b.Len() <= robots.MaxBytes; i++ {
		fmt.Fprintf(&b, "Disallow: /dir%05d/\n", i)
	}
	b.WriteString("Allow: /dir00001/a-longer-rule-past-the-cut/\n")
	src := []byte(b.String())
	out, err := Format(src)
	if err != nil || !bytes.HasPrefix(out, []byte("User-agent: *\nDisallow: /dir00000/\n")) {
		t.Errorf("Format: %v\n%.60q", err, out)
	}
	out, err = FormatWith(src, FormatOptions{SortRules: true})
	if err == nil || !strings.Contains(err.Error(), "500 KiB") || !bytes.Equal(out, src) {
		t.Errorf("SortRules across the cut: err %v, output changed %v", err, !bytes.Equal(out, src))
	}
}

// checkFormatProperty asserts that Format, and FormatWith with SortRules,
// keep every verdict (with the wider probes of the fixer's property
// test) and are idempotent, and that Format leaves sorted rules sorted.
func checkFormatProperty(t *testing.T, name string, src []byte) {
	t.Helper()
	var sorted []byte
	for _, opt := range []FormatOptions{{}, {SortRules: true}} {
		out, err := FormatWith(src, opt)
		if err != nil {
			t.Errorf("%s, %+v: %v\ninput:\n%q", name, opt, err, src)
			return
		}
		if d := deepDifference(src, out); d != nil {
			t.Errorf("%s, %+v: FormatWith changes %s's verdict for %q under %v\ninput:\n%s\noutput:\n%s", name, opt, d.Agent, d.URL, d.Profile, src, out)
			return
		}
		if again, _ := FormatWith(out, opt); string(again) != string(out) {
			t.Errorf("%s, %+v: FormatWith is not idempotent:\nonce:\n%q\ntwice:\n%q", name, opt, out, again)
		}
		sorted = out
	}
	if again, _ := Format(sorted); string(again) != string(sorted) {
		t.Errorf("%s: Format changes the sorted layout:\nsorted:\n%q\nFormat:\n%q", name, sorted, again)
	}
}

func TestFormatProperty(t *testing.T) {
	for _, g := range readGoldens(t) {
		checkFormatProperty(t, g.name, g.input)
	}
	for _, c := range Checks() {
		if c.Before != "" {
			checkFormatProperty(t, c.Code, []byte(c.Before))
		}
	}
}

func FuzzFormat(f *testing.F) {
	f.Add([]byte("# c\n\nUser-agent: a\nDisallow: /x\n# d\nUser-agent: *\nAllow: /y\nSitemap: /s\n"))
	f.Add([]byte("User-agent: a\nUser-agent: ab\nDisallow: /\nUser-agent: abc\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 4096 {
			return
		}
		checkFormatProperty(t, "fuzz", src)
	})
}

// TestFormatGroupOrderFallback: a group whose only line lacks its colon
// has a rule for Google (which reads "Disallow /" as a Disallow) and
// none for RFC 9309 robots (§2.2: a rule line is "key: value"); put
// before "User-agent: *", as the canonical order would put it, it would
// join that group for RFC 9309 robots (consecutive User-agent lines form
// one group). Format keeps the groups in the file's order then, and the
// rest of the layout is still done; idempotent, and no verdict changes.
func TestFormatGroupOrderFallback(t *testing.T) {
	src := "user-agent: *\ndisallow: /a b Disallow: /c\n\n\n\nUser-agent: GPTBot\nDisallow /\n"
	want := "User-agent: *\nDisallow: /a b Disallow: /c\n\nUser-agent: GPTBot\nDisallow /\n"
	got, err := Format([]byte(src))
	if err != nil || string(got) != want {
		t.Fatalf("Format: %v\n%s\nwant:\n%s", err, got, want)
	}
	if again, err := Format(got); err != nil || string(again) != want {
		t.Errorf("not idempotent: %v\n%s", err, again)
	}
	if d := change.Equivalent([]byte(src), got); d != nil {
		t.Errorf("a verdict changes: %+v", d)
	}
	// The canonical order alone is refused, as before.
	if _, err := formatWith([]byte(src), FormatOptions{}, false); err == nil || !strings.Contains(err.Error(), "gptbot's verdict") {
		t.Errorf("the canonical order: %v", err)
	}
}
