package robots_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/lint"
	"github.com/robotskit/robots/syntax"
)

// privateRefs name the project's private planning documents and their
// numbered "seed" texts. Users have none of them, so no text they read
// may cite one: check explanations, page warnings, the registry's sources,
// the documentation and the godoc cite the public source instead (RFC
// 9309, Google's, Bing's or Yandex's documentation, the 1994 standard, the
// 1996 draft, ai.robots.txt …) or this repository's docs/checks.md.
var privateRefs = []string{
	"../shared",
	"seed 0",
	"(seed",
	"seeds/",
	"checker-rules",
	"crawlers.md",
	"design.md",
	"user-asks",
	"peers.md",
	"perf-anchors",
}

// privateRef returns the first of privateRefs that s contains, ignoring
// case, or "".
func privateRef(s string) string {
	s = strings.ToLower(s)
	for _, p := range privateRefs {
		if strings.Contains(s, p) {
			return p
		}
	}
	return ""
}

func TestCitationsMatcher(t *testing.T) {
	for _, tt := range []struct {
		text, want string
	}{
		{"allow crawling for noindex to take effect (seed 004)", "seed 0"},
		{"Seed 004's per-robot example", "seed 0"},
		{"as seed 003 says", "seed 0"},
		{"requires at least one Disallow (seed 001)", "seed 0"},
		{"(seeds 000, 001)", "(seed"},
		{"/work/shared/seeds/004_x.txt", "seeds/"},
		{"see ../shared/DESIGN.md", "../shared"},
		{"the layering of DESIGN.md", "design.md"},
		{"checks of checker-rules §A", "checker-rules"},
		{"crawlers.md §4 [ai.rt]", "crawlers.md"},
		{"research/peers.md", "peers.md"},
		{"research/user-asks.md", "user-asks"},
		{"research/perf-anchors.md", "perf-anchors"},
		{"RFC 9309 §2.2.1", ""},
		{"Google's robots meta tag documentation", ""},
		{"ai.robots.txt (https://github.com/ai-robots-txt/ai.robots.txt)", ""},
		{"a Go fuzz test's seed corpus", ""},
		{"docs/checks.md, generated from package lint", ""},
	} {
		if got := privateRef(tt.text); got != tt.want {
			t.Errorf("privateRef(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// stringsOf returns the exported string fields of struct v, and the
// strings of its exported string slices, by field name.
func stringsOf(v any) map[string][]string {
	out := map[string][]string{}
	rv := reflect.Indirect(reflect.ValueOf(v))
	for i := 0; i < rv.NumField(); i++ {
		f := rv.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		switch fv := rv.Field(i); {
		case fv.Kind() == reflect.String:
			out[f.Name] = append(out[f.Name], fv.String())
		case fv.Kind() == reflect.Slice && fv.Type().Elem().Kind() == reflect.String:
			for j := 0; j < fv.Len(); j++ {
				out[f.Name] = append(out[f.Name], fv.Index(j).String())
			}
		}
	}
	return out
}

// TestCitationsChecks holds every text of the lint catalogue, and the
// messages of what each check reports on its own example, to public
// sources.
func TestCitationsChecks(t *testing.T) {
	checks := lint.Checks()
	if len(checks) == 0 {
		t.Fatal("lint.Checks() is empty")
	}
	for _, c := range checks {
		for field, vs := range stringsOf(c) {
			for _, v := range vs {
				if p := privateRef(v); p != "" {
					t.Errorf("%s.%s names %q: %s", c.Code, field, p, v)
				}
			}
		}
		if c.Before == "" {
			continue
		}
		src := []byte(c.Before)
		for _, d := range lint.Run(syntax.Parse("robots.txt", src), &lint.Config{Thorough: true, URL: "https://example.com/robots.txt"}) {
			texts := []string{d.Message}
			for _, r := range d.Related {
				texts = append(texts, r.Note)
			}
			if d.Fix != nil {
				texts = append(texts, d.Fix.Message)
			}
			for _, v := range texts {
				if p := privateRef(v); p != "" {
					t.Errorf("%s reports %q on the example of %s: %s", d.Check.Code, p, c.Code, v)
				}
			}
		}
	}
}

// TestCitationsAgents holds every text of the registry, Source, Notes and
// Doc included, to public sources.
func TestCitationsAgents(t *testing.T) {
	all := agents.All()
	if len(all) == 0 {
		t.Fatal("agents.All() is empty")
	}
	for _, r := range all {
		for field, vs := range stringsOf(r) {
			for _, v := range vs {
				if p := privateRef(v); p != "" {
					t.Errorf("%s: %s names %q: %s", r.Token, field, p, v)
				}
			}
		}
	}
}

// citationsSkip are the folders TestCitationsFiles does not read: the CI
// script and the maintainers' tools, which take the private folder as a
// flag, and benchmark results.
var citationsSkip = []string{".ci", "internal/tools", "bench/results"}

// citationsText are the extensions of user-facing text files, read
// wherever they are; every file of docs/ and server/ui/ is read too,
// unless it is binary.
var citationsText = []string{".md", ".json", ".html", ".js", ".css", ".svg", ".txt", ".tmpl", ".yaml", ".yml"}

// TestCitationsFiles reads the user-facing files of the module — README.md
// and the other Markdown files, docs/, the server's UI assets, the
// registry's data and every Go file but tests (godoc and messages) — and
// fails on each line that cites a private document.
func TestCitationsFiles(t *testing.T) {
	var hits []string
	read := 0
	err := filepath.WalkDir(".", func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		slash := filepath.ToSlash(path)
		if e.IsDir() {
			name := e.Name()
			if path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || slices.Contains(citationsSkip, slash)) {
				return filepath.SkipDir
			}
			return nil
		}
		if !e.Type().IsRegular() || !userFacing(slash) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.IndexByte(b, 0) >= 0 {
			return nil // binary: an image
		}
		read++
		for i, line := range strings.Split(string(b), "\n") {
			if p := privateRef(line); p != "" {
				hits = append(hits, fmt.Sprintf("%s:%d: names %q: %s", slash, i+1, p, strings.TrimSpace(line)))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if read < 50 {
		t.Fatalf("read only %d files: is the test running in the module root?", read)
	}
	for _, h := range hits {
		t.Error(h)
	}
}

// userFacing reports whether the file at slash-separated path is one
// TestCitationsFiles reads.
func userFacing(path string) bool {
	ext := filepath.Ext(path)
	switch {
	case ext == ".go":
		return !strings.HasSuffix(path, "_test.go")
	case strings.HasPrefix(path, "docs/"), strings.HasPrefix(path, "server/ui/"):
		return true
	}
	return slices.Contains(citationsText, ext)
}
