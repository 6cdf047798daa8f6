package lint

import (
	"testing"

	"github.com/robotskit/robots/internal/arena"
)

// TestCrossOverlap holds crossOverlap, which builds its cross candidates
// in a reused buffer, to the plain reading: some URL among both values'
// candidates and rulesAppendCross's matches both rules.
func TestCrossOverlap(t *testing.T) {
	vals := []string{"/docs", "/*.pdf", "/*.pdf$", "/a/*/b", "/*", "*x", "/docs/*.pdf", "/x*y*z",
		"/shop", "/shop$", "/*?sort=", "/*&sort=", "/p/*", "/", "/a", "/ab*", "*.PDF", "/docs.pdf"}
	var buf []byte
	n := 0
	for _, x := range vals {
		for _, y := range vals {
			a, b := rulesRuleOf(0, true, x), rulesRuleOf(1, false, y)
			want := false
			var ar arena.Arena
			cands := rulesCandidatesOf(&ar, rulesCandidatesOf(nil, nil, a.val), b.val)
			for _, u := range rulesAppendCross(&ar, cands, &a, &b) {
				want = want || a.matches(u) && b.matches(u)
			}
			got := crossOverlap(&a, &b, rulesCandidatesOf(&ar, nil, a.val), rulesCandidatesOf(nil, nil, b.val), &buf)
			if got != want {
				t.Errorf("crossOverlap(%q, %q) = %v, want %v", x, y, got, want)
			}
			if got {
				n++
			}
		}
	}
	if n == 0 || n == len(vals)*len(vals) {
		t.Fatalf("%d of %d pairs overlap: the table tests nothing", n, len(vals)*len(vals))
	}
}
