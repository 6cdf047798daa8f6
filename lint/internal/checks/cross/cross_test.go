package cross

import (
	"testing"

	"github.com/robotskit/robots/internal/arena"
	"github.com/robotskit/robots/lint/internal/eval"
)

// TestOverlap holds overlap, which builds its cross candidates in a
// reused buffer, to the plain reading: some URL among both values'
// candidates and eval.AppendCross's matches both rules.
func TestOverlap(t *testing.T) {
	vals := []string{"/docs", "/*.pdf", "/*.pdf$", "/a/*/b", "/*", "*x", "/docs/*.pdf", "/x*y*z",
		"/shop", "/shop$", "/*?sort=", "/*&sort=", "/p/*", "/", "/a", "/ab*", "*.PDF", "/docs.pdf"}
	var buf []byte
	n := 0
	for _, x := range vals {
		for _, y := range vals {
			a, b := eval.NewRule(0, true, x), eval.NewRule(1, false, y)
			want := false
			var ar arena.Arena
			cands := eval.AppendCandidates(&ar, eval.AppendCandidates(nil, nil, a.Val), b.Val)
			for _, u := range eval.AppendCross(&ar, cands, &a, &b) {
				want = want || a.Matches(u) && b.Matches(u)
			}
			got := overlap(&a, &b, eval.AppendCandidates(&ar, nil, a.Val), eval.AppendCandidates(nil, nil, b.Val), &buf)
			if got != want {
				t.Errorf("overlap(%q, %q) = %v, want %v", x, y, got, want)
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
