package lint

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/change"
	"github.com/robotskit/robots/internal/probe"
	"github.com/robotskit/robots/lint/internal/testenv"
	"github.com/robotskit/robots/syntax"
)

// checkFixProperty asserts the fixer's two promises for src: the default
// fix keeps every google and rfc9309 verdict, and fixing the output again
// changes nothing. Its probes are wider than those the fixer verifies
// with: the fixer's own, each with a query and an upper-cased variant,
// for the agents of both files, each also in upper case (a token the
// files do not name reads the "*" groups, as the fixer's probe agent
// does).
func checkFixProperty(t *testing.T, name string, src []byte) {
	t.Helper()
	res := Fix(src, nil)
	if d := deepDifference(src, res.Output); d != nil {
		t.Errorf("%s: the default fix changes %s's verdict for %q under %v: %v → %v\ninput:\n%s\noutput:\n%s",
			name, d.Agent, d.URL, d.Profile, d.Before, d.After, src, res.Output)
		return
	}
	again := Fix(res.Output, nil).Output
	if !bytes.Equal(again, res.Output) {
		t.Errorf("%s: fixing twice differs from fixing once:\nonce:\n%q\ntwice:\n%q", name, res.Output, again)
	}
}

func deepDifference(a, b []byte) *change.Difference {
	fa, fb := syntax.Parse("", a), syntax.Parse("", b)
	// Bounded so that the corpus run stays in minutes: at most 16 agents
	// and an even sample of 4,096 URLs (the fixer itself checks up to
	// maxProbes URLs for every agent).
	var ags []string
	for _, a := range testAgents(fa, fb)[:min(8, len(testAgents(fa, fb)))] {
		ags = append(ags, a, strings.ToUpper(a))
	}
	var urls []string
	all, _ := probe.Paths(context.Background(), fa, fb)
	step := max(1, len(all)*3/4096)
	for i := 0; i < len(all); i += step {
		u := all[i]
		urls = append(urls, u, u+"?q=1", strings.ToUpper(u))
	}
	for _, prof := range []robots.Profile{robots.Google, robots.RFC9309} {
		ra, rb := robots.Compile(fa, prof), robots.Compile(fb, prof)
		for _, ag := range ags {
			for _, u := range urls {
				if x, y := ra.Allowed(ag, u), rb.Allowed(ag, u); x != y {
					return &change.Difference{Profile: prof, Agent: ag, URL: u, Before: x, After: y}
				}
			}
		}
	}
	return nil
}

// TestFixProperty checks the promises over every golden input and every
// check's examples.
func TestFixProperty(t *testing.T) {
	for _, g := range readGoldens(t) {
		checkFixProperty(t, g.name, g.input)
	}
	for _, c := range Checks() {
		if c.Before != "" {
			checkFixProperty(t, c.Code+" Before", []byte(c.Before))
			checkFixProperty(t, c.Code+" After", []byte(c.After))
		}
	}
}

// TestFixRefuses shows that the guard can fail: a fix that changes a
// verdict is refused and reported.
func TestFixRefuses(t *testing.T) {
	src := "User-agent: *\nDisallow: /a\n"
	d := Diagnostic{Check: Lookup("RB401"), Offset: 14, Fix: &SuggestedFix{ID: "FX99", Class: Preserving,
		Edits: []Edit{{Start: 14, End: 26, New: "Disallow: /b"}}}}
	var refusedDiff *change.Difference
	equivalent := func(a, b string) *change.Difference { return change.Equivalent([]byte(a), []byte(b)) }
	out, applied := applySafe(src, []Diagnostic{d}, equivalent, func(r Refusal) { refusedDiff = &r.Difference })
	if out != src || len(applied) != 0 {
		t.Errorf("applySafe applied a verdict-changing fix: %q", out)
	}
	if refusedDiff == nil || refusedDiff.URL == "" {
		t.Fatalf("applySafe did not report the difference")
	}
	if change.Equivalent([]byte(src), []byte("User-agent: *\nDisallow: /b\n")) == nil {
		t.Errorf("Equivalent misses a changed rule")
	}
}

// TestCorpus runs the checker, the fixer and Format over the -corpus
// folder of real files (.ci/run passes it when it has one): no panic, and
// the fix and the layout keep their promises for every file; and every
// file fits in DefaultMaxWork (checkCorpusWork).
func TestCorpus(t *testing.T) {
	names, srcs := testenv.Corpus(t)
	checkCorpusWork(t, names, srcs)
	for i, name := range names {
		src := srcs[i][:min(len(srcs[i]), 512000)]
		Run(syntax.Parse(name, src), &Config{Thorough: true})
		checkFixProperty(t, name, src)
		checkFormatProperty(t, name, src)
	}
	t.Logf("%d files", len(names))
}

// FuzzFix checks the promises and that nothing panics, for any input.
func FuzzFix(f *testing.F) {
	for _, c := range Checks() {
		if c.Before != "" {
			f.Add([]byte(c.Before))
		}
	}
	f.Add([]byte("User-agent: *\n\nDisallow: /x\nuser-agent: a\nAllow: /x/y\nDisallow: /x/\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 4096 {
			return
		}
		Run(syntax.Parse("", src), &Config{Thorough: true})
		checkFixProperty(t, "fuzz", src)
	})
}

// testAgents returns the product tokens of the User-agent lines of the
// files, in lower case, after one that no file names (it reads the "*"
// groups).
func testAgents(files ...*syntax.File) []string {
	seen := map[string]bool{}
	out := []string{"OtherBot-test"}
	for _, f := range files {
		for i := range f.Lines {
			l := &f.Lines[i]
			if l.Kind != syntax.DirectiveLine || l.Field != syntax.UserAgent {
				continue
			}
			k := strings.ToLower(robots.LineToken(f.Text(l.Value)))
			if k != "" && !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}
