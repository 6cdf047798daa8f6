package lint

import (
	"testing"

	"github.com/robotskit/robots/syntax"
)

// TestRulesEvaluators checks LM and FM on the examples of the cross-robot
// checks (RB7xx) and the fixer.
func TestRulesEvaluators(t *testing.T) {
	mk := func(spec ...string) *rulesSet {
		var rules []rulesRule
		for i, s := range spec {
			rules = append(rules, rulesRuleOf(i, s[0] == 'A', rulesNorm(s[2:])))
		}
		return rulesNewSet(rules)
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
		lm, fm := s.lmfm(c.url)
		if lm != c.lm || fm != c.fm || s.lm(c.url) != c.lm || s.fm(c.url) != c.fm {
			t.Errorf("%q on %s: lm %d fm %d, want %d %d", c.rules, c.url, lm, fm, c.lm, c.fm)
		}
	}
}

// TestRulesCandidates checks that the crossings find the URL two rules
// share when the plain candidates miss it.
func TestRulesCandidates(t *testing.T) {
	rules := []rulesRule{rulesRuleOf(0, false, "/*.pdf"), rulesRuleOf(1, true, "/docs")}
	found := false
	for _, u := range rulesCandidates(nil, rules) {
		found = found || u == "/docs.pdf"
	}
	if !found {
		t.Errorf("no /docs.pdf among %q", rulesCandidates(nil, rules))
	}
}

// TestRulesSortEdit checks FX30's edit: comments travel with the rule
// below them, line terminators stay where they were, other lines among
// the rules block the sort.
func TestRulesSortEdit(t *testing.T) {
	cases := []struct{ in, want string }{
		{"User-agent: *\r\nDisallow: /shop\r\n# sale\r\nAllow: /shop/sale\r\n",
			"User-agent: *\r\n# sale\r\nAllow: /shop/sale\r\nDisallow: /shop\r\n"},
		{"User-agent: *\nDisallow: /a\nAllow: /b\nDisallow: /cc", // ties: Allow first
			"User-agent: *\nDisallow: /cc\nAllow: /b\nDisallow: /a"},
		{"User-agent: *\nDisallow: /a\nCrawl-delay: 1\nAllow: /a/b\n", ""},
		{"User-agent: *\nAllow: /a/b\nDisallow: /a\n", ""}, // sorted already
	}
	for _, c := range cases {
		p := newPass(syntax.Parse("", []byte(c.in)), nil)
		e, ok := rulesSortEdit(p, &p.groups[0])
		got := ""
		if ok {
			got = p.src[:e.Start] + e.New + p.src[e.End:]
		}
		if got != c.want {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
	}
}

// TestRulesSplitURL checks how FX25 reads absolute URLs.
func TestRulesSplitURL(t *testing.T) {
	cases := []struct{ in, host, path string }{
		{"https://www.example.com/private/?q=1", "www.example.com", "/private/?q=1"},
		{"HTTP://user@example.com:8080", "example.com", "/"},
		{"http://example.com?x", "example.com", "/?x"},
		{"https://[::1]:443/a", "[::1]", "/a"},
	}
	for _, c := range cases {
		h, p, ok := rulesSplitURL(c.in)
		if !ok || h != c.host || p != c.path {
			t.Errorf("%q: %q %q %v", c.in, h, p, ok)
		}
	}
	for _, s := range []string{"admin/", "https://", "ftp://x/y"} {
		if _, _, ok := rulesSplitURL(s); ok {
			t.Errorf("%q read as a URL", s)
		}
	}
}
