package eval

import (
	"context"
	"testing"

	"github.com/robotskit/robots/lint/internal/check"
	"github.com/robotskit/robots/lint/internal/testenv"
	"github.com/robotskit/robots/syntax"
)

// TestEvaluators checks LM and FM on the examples of the cross-robot
// checks (RB7xx) and the fixer.
func TestEvaluators(t *testing.T) {
	mk := func(spec ...string) *Set {
		var rules []Rule
		for i, s := range spec {
			rules = append(rules, NewRule(i, s[0] == 'A', Norm(s[2:])))
		}
		return NewSet(rules)
	}
	cases := []struct {
		rules  []string
		url    string
		lm, fm int
	}{
		{[]string{"D /shop", "A /shop/sale"}, "/shop/sale/1", 1, 0},
		{[]string{"D /a/private", "A /a"}, "/a/private/x", 0, 0},
		{[]string{"D /p", "A /p"}, "/p", 1, 0},                      // Allow wins the tie
		{[]string{"D /*.pdf", "A /docs"}, "/docs.pdf", 0, 0},        // 6 octets beat 5
		{[]string{"D /*.pdf$", "A /"}, "/a.pdfx", 1, 1},             // "$" anchors
		{[]string{"D ", "A /x"}, "/y", -1, -1},                      // empty values never decide
		{[]string{"D /caf%c3%a9", "A /café/"}, "/caf%C3%A9/", 1, 0}, // normalised
		{[]string{"D admin", "A /"}, "/admin", 1, 1},                // no leading "/": never matches
	}
	for _, c := range cases {
		s := mk(c.rules...)
		lm, fm := s.LMFM(c.url)
		if lm != c.lm || fm != c.fm || s.LM(c.url) != c.lm || s.FM(c.url) != c.fm {
			t.Errorf("%q on %s: lm %d fm %d, want %d %d", c.rules, c.url, lm, fm, c.lm, c.fm)
		}
	}
}

// TestCandidates checks that the crossings find the URL two rules share
// when the plain candidates miss it.
func TestCandidates(t *testing.T) {
	rules := []Rule{NewRule(0, false, "/*.pdf"), NewRule(1, true, "/docs")}
	found := false
	for _, u := range Candidates(nil, rules) {
		found = found || u == "/docs.pdf"
	}
	if !found {
		t.Errorf("no /docs.pdf among %q", Candidates(nil, rules))
	}
}

// TestSortEdit checks FX30's edit: comments travel with the rule below
// them, line terminators stay where they were, other lines among the
// rules block the sort.
func TestSortEdit(t *testing.T) {
	cases := []struct{ in, want string }{
		{"User-agent: *\r\nDisallow: /shop\r\n# sale\r\nAllow: /shop/sale\r\n",
			"User-agent: *\r\n# sale\r\nAllow: /shop/sale\r\nDisallow: /shop\r\n"},
		{"User-agent: *\nDisallow: /a\nAllow: /b\nDisallow: /cc", // ties: Allow first
			"User-agent: *\nDisallow: /cc\nAllow: /b\nDisallow: /a"},
		{"User-agent: *\nDisallow: /a\nCrawl-delay: 1\nAllow: /a/b\n", ""},
		{"User-agent: *\nAllow: /a/b\nDisallow: /a\n", ""}, // sorted already
	}
	for _, c := range cases {
		p := check.NewPass(context.Background(), syntax.Parse("", []byte(c.in)), "", nil)
		e, ok := SortEdit(p, &p.Groups[0])
		got := ""
		if ok {
			got = p.Src[:e.Start] + e.New + p.Src[e.End:]
		}
		if got != c.want {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
	}
}

// TestCorpus reads the groups of every file of the -corpus folder: LMFM
// answers what LM and FM answer on every candidate URL, and the FX30 sort
// of a group leaves it sorted.
func TestCorpus(t *testing.T) {
	names, srcs := testenv.Corpus(t)
	for i, name := range names {
		src := srcs[i][:min(len(srcs[i]), 512000)]
		p := check.NewPass(context.Background(), syntax.Parse(name, src), "", nil)
		for gi := range p.Groups {
			g := &p.Groups[gi]
			s := GroupSet(p, g)
			if cands := Candidates(&p.Arena, s.Rules); Affordable(s, len(cands)) {
				for _, u := range cands {
					if lm, fm := s.LMFM(u); lm != s.LM(u) || fm != s.FM(u) {
						t.Errorf("%s: group %d, %s: LMFM %d %d, LM %d, FM %d", name, gi, u, lm, fm, s.LM(u), s.FM(u))
					}
				}
			}
			st, e := SortOf(p, g)
			if st != Sortable {
				continue
			}
			sorted := string(src[:e.Start]) + e.New + string(src[e.End:])
			q := check.NewPass(context.Background(), syntax.Parse(name, []byte(sorted)), "", nil)
			if gi >= len(q.Groups) {
				t.Errorf("%s: group %d is gone once sorted", name, gi)
			} else if again, _ := SortOf(q, &q.Groups[gi]); again != Sorted {
				t.Errorf("%s: group %d is not sorted once sorted (%d)", name, gi, again)
			}
		}
	}
}
