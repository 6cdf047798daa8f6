package lint

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotskit/robots/lint/internal/testenv"
	"github.com/robotskit/robots/syntax"
)

// TestDocs keeps docs/checks.md equal to what the registry generates.
func TestDocs(t *testing.T) {
	var b bytes.Buffer
	writeDocs(&b)
	name := filepath.Join("..", "docs", "checks.md")
	if testenv.Update() {
		if err := os.WriteFile(name, b.Bytes(), 0o666); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Errorf("%s is stale: run go test ./lint -run TestDocs -update", name)
	}
}

// TestCatalogue holds the registry to the catalogue: every check
// has its code's severity, profile, families and fix, and every code of
// the catalogue is implemented or listed as not implemented with a reason.
func TestCatalogue(t *testing.T) {
	byCode := map[string]int{}
	for i, e := range catalogue {
		byCode[e.code] = i
	}
	names := map[string]string{}
	for _, c := range Checks() {
		i, ok := byCode[c.Code]
		if !ok {
			t.Errorf("%s is not in the catalogue", c.Code)
			continue
		}
		e := catalogue[i]
		if c.Severity.String() != e.severity {
			t.Errorf("%s: severity %s, catalogue %s", c.Code, c.Severity, e.severity)
		}
		if c.Thorough != e.thorough {
			t.Errorf("%s: thorough %v, catalogue %v", c.Code, c.Thorough, e.thorough)
		}
		var fams []string
		for _, f := range c.Affects {
			fams = append(fams, string(f))
		}
		if got := strings.Join(fams, " "); got != e.families && !(got == "" && e.families == "—") {
			t.Errorf("%s: affects %q, catalogue %q", c.Code, got, e.families)
		}
		if first, _, _ := strings.Cut(e.fix, ","); c.Fix != first {
			t.Errorf("%s: fix %q, catalogue %q", c.Code, c.Fix, e.fix)
		}
		if c.Title != e.title {
			t.Errorf("%s: title %q, catalogue %q", c.Code, c.Title, e.title)
		}
		if c.Name == "" || strings.ToLower(c.Name) != c.Name || strings.ContainsAny(c.Name, " _") {
			t.Errorf("%s: name %q is not kebab-case", c.Code, c.Name)
		}
		if other, dup := names[c.Name]; dup {
			t.Errorf("%s and %s share the name %q", c.Code, other, c.Name)
		}
		names[c.Name] = c.Code
		if c.Doc == "" {
			t.Errorf("%s has no explanation", c.Code)
		}
	}
	for _, e := range catalogue {
		if Lookup(e.code) == nil {
			t.Errorf("%s (%s) is in the catalogue and not implemented", e.code, e.title)
		}
	}
}

// TestExamples runs every check on its own examples: Before is reported,
// After is not.
func TestExamples(t *testing.T) {
	for _, c := range Checks() {
		if c.Section() == 'A' && c.Before == "" {
			continue // fetch checks have no file example
		}
		if c.Before == "" || c.After == "" {
			t.Errorf("%s has no examples", c.Code)
			continue
		}
		// The examples are read as served from example.com, so that the
		// checks that compare with the robots.txt URL (RB607) can show
		// what they report.
		cfg := &Config{Thorough: c.Thorough, URL: "https://example.com/robots.txt", AllRobots: true}
		if !reports(c, []byte(c.Before), cfg) {
			t.Errorf("%s does not report its Before example:\n%s", c.Code, c.Before)
		}
		if reports(c, []byte(c.After), cfg) {
			t.Errorf("%s reports its After example:\n%s", c.Code, c.After)
		}
	}
}

func reports(c *Check, src []byte, cfg *Config) bool {
	for _, d := range Run(syntax.Parse("", src), cfg) {
		if d.Check == c {
			return true
		}
	}
	return false
}
