package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/robotskit/robots/internal/txtar"
	"github.com/robotskit/robots/lint/internal/testenv"
	"github.com/robotskit/robots/syntax"
)

// A golden case is testdata/checks/RBnnn[-what].txtar. Its comment says
// what the case shows; a comment line "thorough" enables thorough checks,
// "url: U" sets Config.URL, and "major robots" checks and fixes with the
// default scope (the cases run with Config.AllRobots otherwise, so that
// every check shows what it finds). Sections:
//
//	input       the robots.txt (or input.q: a Go-quoted string, for bytes
//	            a txtar cannot hold: CR, a missing final newline, NUL)
//	fetch.json  a Fetch, for the checks of the fetch (RB1xx)
//	diagnostics the diagnostics of check RBnnn, one per line, folded
//	            (Fold) as the CLI shows them
//	fixed       the output of Fix with the default options (or fixed.q)
//	fixed-intent (optional) the output of Fix with the check's fix enabled
type golden struct {
	name    string
	archive *txtar.Archive
	code    string
	input   []byte
	cfg     Config
}

func readGoldens(t *testing.T) []golden {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", "checks", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	var gs []golden
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		a := txtar.Parse(data)
		g := golden{name: name, archive: a, code: strings.SplitN(strings.TrimSuffix(filepath.Base(name), ".txtar"), "-", 2)[0]}
		g.cfg.AllRobots = true
		if Lookup(g.code) == nil {
			t.Fatalf("%s: no check %s", name, g.code)
		}
		if in, ok := a.Get("input"); ok {
			g.input = in
		} else if q, ok := a.Get("input.q"); ok {
			s, err := strconv.Unquote(strings.TrimSpace(string(q)))
			if err != nil {
				t.Fatalf("%s: input.q: %v", name, err)
			}
			g.input = []byte(s)
		} else {
			t.Fatalf("%s: no input section", name)
		}
		for _, l := range strings.Split(string(a.Comment), "\n") {
			switch {
			case strings.TrimSpace(l) == "thorough":
				g.cfg.Thorough = true
			case strings.TrimSpace(l) == "major robots":
				g.cfg.AllRobots = false
			case strings.HasPrefix(l, "url: "):
				g.cfg.URL = strings.TrimSpace(strings.TrimPrefix(l, "url: "))
			}
		}
		if fj, ok := a.Get("fetch.json"); ok {
			g.cfg.Fetch = new(Fetch)
			if err := json.Unmarshal(fj, g.cfg.Fetch); err != nil {
				t.Fatalf("%s: fetch.json: %v", name, err)
			}
		}
		gs = append(gs, g)
	}
	return gs
}

// TestGolden checks every golden case: the diagnostics of its check, the
// default fix, and the fix with the check's own fix enabled.
func TestGolden(t *testing.T) {
	for _, g := range readGoldens(t) {
		t.Run(strings.TrimSuffix(filepath.Base(g.name), ".txtar"), func(t *testing.T) {
			if len(bytes.TrimSpace(g.archive.Comment)) == 0 {
				t.Errorf("%s: the comment must say what the case shows", g.name)
			}
			f := syntax.Parse("robots.txt", g.input)
			var lines []string
			for _, d := range Fold(Run(f, &g.cfg)) {
				if d.Check.Code == g.code {
					lines = append(lines, goldenLine(&d))
				}
			}
			gotDiags := strings.Join(lines, "")
			ch := Lookup(g.code)
			fixCfg := g.cfg
			fixCfg.Fetch = nil
			fixed := Fix(g.input, &FixOptions{Config: fixCfg}).Output
			var intent []byte
			if _, ok := g.archive.Get("fixed-intent"); ok && ch.Fix != "" {
				intent = Fix(g.input, &FixOptions{Config: fixCfg, Enable: []string{ch.Fix}}).Output
			}
			if testenv.Update() {
				a := g.archive
				a.Set("diagnostics", []byte(gotDiags))
				setText(a, "fixed", fixed)
				if intent != nil {
					a.Set("fixed-intent", intent)
				}
				if err := os.WriteFile(g.name, a.Format(), 0o666); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, _ := g.archive.Get("diagnostics")
			if gotDiags != string(want) {
				t.Errorf("%s: diagnostics:\n%s\nwant:\n%s", g.name, gotDiags, want)
			}
			if wantFixed := getText(t, g.archive, "fixed"); string(fixed) != wantFixed {
				t.Errorf("%s: fixed:\n%q\nwant:\n%q", g.name, fixed, wantFixed)
			}
			if intent != nil {
				if want, _ := g.archive.Get("fixed-intent"); !bytes.Equal(intent, want) {
					t.Errorf("%s: fixed-intent:\n%s\nwant:\n%s", g.name, intent, want)
				}
			}
		})
	}
}

// goldenLine formats a diagnostic for a golden file.
func goldenLine(d *Diagnostic) string {
	s := d.String()
	if d.Affects != nil {
		s += fmt.Sprintf(" {affects %v}", d.Affects)
	}
	if d.Lines != nil {
		s += fmt.Sprintf(" (lines %v)", d.Lines)
	}
	for _, r := range d.Related {
		s += fmt.Sprintf(" (related %d: %s)", r.Line, r.Note)
	}
	if d.Fix != nil {
		s += fmt.Sprintf(" [%s %s]", d.Fix.ID, d.Fix.Class)
	}
	return s + "\n"
}

// setText stores data in section name, or quoted in name.q when the text
// would not survive a txtar file.
func setText(a *txtar.Archive, name string, data []byte) {
	if len(data) == 0 || data[len(data)-1] == '\n' && !bytes.ContainsAny(data, "\r\x00") && strconv.CanBackquote(strings.ReplaceAll(string(data), "\n", "")) {
		a.Set(name, data)
		a.Delete(name + ".q")
		return
	}
	a.Set(name+".q", []byte(strconv.Quote(string(data))+"\n"))
	a.Delete(name)
}

func getText(t *testing.T, a *txtar.Archive, name string) string {
	if d, ok := a.Get(name); ok {
		return string(d)
	}
	if q, ok := a.Get(name + ".q"); ok {
		s, err := strconv.Unquote(strings.TrimSpace(string(q)))
		if err != nil {
			t.Fatalf("%s.q: %v", name, err)
		}
		return s
	}
	t.Fatalf("no section %s", name)
	return ""
}
