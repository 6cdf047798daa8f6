// Package checktest runs the checks of a section on their own examples,
// for the tests of the packages under lint/internal/checks; the golden
// cases of every check, with their fixes, are lint's (testdata/checks).
package checktest

import (
	"context"
	"testing"

	"github.com/robotskit/robots/lint/internal/check"
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
