package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/robotskit/robots/internal/txtar"
	"github.com/robotskit/robots/lint/internal/testenv"
)

// TestFormatGolden checks Format against testdata/fmt/*.txtar (input,
// output); -update rewrites the outputs.
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
		if testenv.Update() {
			a.Set("output", got)
			if err := os.WriteFile(name, a.Format(), 0o666); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if want, _ := a.Get("output"); string(got) != string(want) {
			t.Errorf("%s:\n%s\nwant:\n%s", name, got, want)
		}
	}
}

// checkFormatProperty asserts that Format keeps every verdict (with the
// wider probes of the fixer's property test) and is idempotent.
func checkFormatProperty(t *testing.T, name string, src []byte) {
	t.Helper()
	out, err := Format(src)
	if err != nil {
		t.Errorf("%s: %v\ninput:\n%q", name, err, src)
		return
	}
	if d := deepDifference(src, out); d != nil {
		t.Errorf("%s: Format changes %s's verdict for %q under %v\ninput:\n%s\noutput:\n%s", name, d.Agent, d.URL, d.Profile, src, out)
		return
	}
	if again, _ := Format(out); string(again) != string(out) {
		t.Errorf("%s: Format is not idempotent:\nonce:\n%q\ntwice:\n%q", name, out, again)
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
