package robots_test

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/syntax"
)

// TestAccess: what a file does to a robot as a whole. The precedence
// that decides each case is RFC 9309 §2.2.2's (longest match, Allow on
// ties) unless a profile says otherwise.
func TestAccess(t *testing.T) {
	bot := robots.Token("ExampleBot")
	for _, tt := range []struct {
		name  string
		body  string
		p     robots.Profile
		agent robots.Agent
		want  robots.Access
	}{
		{"tie goes to Allow", "User-agent: *\nDisallow: /a\nAllow: /a\n", robots.Google, bot,
			robots.Access{State: robots.Open, Via: robots.ViaStar, Group: 1}},
		{"site-wide", "User-agent: *\nDisallow: /\n", robots.Google, bot,
			robots.Access{State: robots.Blocked, Via: robots.ViaStar, Line: 2, Group: 1}},
		{"site-wide but one folder", "User-agent: *\nDisallow: /\nAllow: /public/\n", robots.Google, bot,
			robots.Access{State: robots.Partly, Via: robots.ViaStar, Line: 2, Group: 1}},
		{"home page only", "User-agent: *\nAllow: /$\nDisallow: /\n", robots.Google, bot,
			robots.Access{State: robots.Partly, Via: robots.ViaStar, Line: 2, Group: 1}},
		{"all but the home page", "User-agent: *\nDisallow: /$\n", robots.Google, bot,
			robots.Access{State: robots.Partly, Via: robots.ViaStar, Line: 2, Group: 1}},
		{"a folder", "User-agent: *\nDisallow: /private/\n", robots.Google, bot,
			robots.Access{State: robots.Partly, Via: robots.ViaStar, Group: 1}},
		{"an empty Disallow forbids nothing", "User-agent: *\nDisallow:\n", robots.Google, bot,
			robots.Access{State: robots.Open, Via: robots.ViaStar, Line: 2, Group: 1}},
		{"longer Allow covers the Disallow", "User-agent: *\nDisallow: /ab\nAllow: /a*\n", robots.Google, bot,
			robots.Access{State: robots.Open, Via: robots.ViaStar, Group: 1}},
		{"anchored Allow leaves longer paths", "User-agent: *\nDisallow: /a\nAllow: /a$\n", robots.Google, bot,
			robots.Access{State: robots.Partly, Via: robots.ViaStar, Group: 1}},
		{"a wildcard escapes an anchored Allow", "User-agent: *\nAllow: /ab$\nDisallow: /a*b$\n", robots.Google, bot,
			robots.Access{State: robots.Partly, Via: robots.ViaStar, Group: 1}},
		{"robots.txt counts for nothing", "User-agent: *\nAllow: /robots.txt$\nDisallow: /\n", robots.Google, bot,
			robots.Access{State: robots.Blocked, Via: robots.ViaStar, Line: 3, Group: 1}},
		// The rule also allows /robots.txt.bak.
		{"an Allow of /robots.txt allows more", "User-agent: *\nAllow: /robots.txt\nDisallow: /\n", robots.RFC9309, bot,
			robots.Access{State: robots.Partly, Via: robots.ViaStar, Line: 3, Group: 1}},
		{"robots.txt counts for nothing (RFC 9309)", "User-agent: *\nDisallow: /\n", robots.RFC9309, bot,
			robots.Access{State: robots.Blocked, Via: robots.ViaStar, Line: 2, Group: 1}},
		{"no group names it, no *", "User-agent: OtherBot\nDisallow: /\n", robots.Google, bot,
			robots.Access{State: robots.Open, Via: robots.ViaNone}},
		{"named", "User-agent: *\nDisallow: /\n\nUser-agent: ExampleBot\nDisallow: /x\n", robots.Google, bot,
			robots.Access{State: robots.Partly, Via: robots.ViaNamed, Group: 4}},
		{"fallback", "User-agent: Googlebot\nDisallow: /\n", robots.Google, robots.Token("Googlebot-News", "Googlebot"),
			robots.Access{State: robots.Blocked, Via: robots.ViaFallback, Line: 2, Group: 1}},
		{"ignores *", "User-agent: *\nDisallow: /\n", robots.Google, robots.Agent{Tokens: []string{"AdsBot-Google"}, IgnoreGlobal: true},
			robots.Access{State: robots.Open, Via: robots.ViaNone}},
		// 1994 standard: Allow lines are unknown lines.
		{"no Allow in 1994", "User-agent: *\nDisallow: /\nAllow: /public/\n", robots.Strict1994, bot,
			robots.Access{State: robots.Blocked, Via: robots.ViaStar, Line: 2, Group: 1}},
		// 1996 draft §3.2.2: the first matching rule decides.
		{"first match in 1996", "User-agent: *\nDisallow: /\nAllow: /public/\n", robots.Draft1996, bot,
			robots.Access{State: robots.Blocked, Via: robots.ViaStar, Line: 2, Group: 1}},
		{"first match in 1996, Allow first", "User-agent: *\nAllow: /public/\nDisallow: /\n", robots.Draft1996, bot,
			robots.Access{State: robots.Partly, Via: robots.ViaStar, Line: 3, Group: 1}},
		// No wildcards in the old texts: "/*" is the octets '/' and '*'.
		{"literal star in 1996", "User-agent: *\nDisallow: /*\n", robots.Draft1996, bot,
			robots.Access{State: robots.Partly, Via: robots.ViaStar, Group: 1}},
	} {
		got := robots.Parse([]byte(tt.body), tt.p).Access(tt.agent)
		if got != tt.want {
			t.Errorf("%s [%v]: Access = %+v, want %+v", tt.name, tt.p, got, tt.want)
		}
	}
	var nilRules *robots.Rules
	if got := nilRules.Access(bot); got != (robots.Access{State: robots.Open, Via: robots.ViaNone}) {
		t.Errorf("nil Rules: Access = %+v", got)
	}
}

// TestAccessJSON: the words of the JSON form, and back.
func TestAccessJSON(t *testing.T) {
	a := robots.Access{State: robots.Partly, Via: robots.ViaFallback, Line: 3, Group: 2}
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"state":"partly","via":"fallback","line":3,"group":2}`; got != want {
		t.Errorf("JSON %s, want %s", got, want)
	}
	var back robots.Access
	if err := json.Unmarshal(b, &back); err != nil || back != a {
		t.Errorf("Unmarshal = %+v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"state":"closed"}`), &back); err == nil {
		t.Error("an unknown state was accepted")
	}
	if b, err := json.Marshal(robots.Access{}); err != nil || string(b) != `{"state":"","via":"","line":0,"group":0}` {
		t.Errorf("the zero Access: %s, %v", b, err)
	}
	if _, err := json.Marshal(robots.Access{State: 9}); err == nil {
		t.Error("State(9) marshalled")
	}
}

// TestAccessRandom holds Access to its definition over generated files:
// the verdicts of "/" and of many instantiations of every pattern of the
// file (more than Access itself tries) are all allowed for an open robot,
// all disallowed for a blocked one, and both for a partly blocked one;
// /robots.txt counts for none.
func TestAccessRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	keys := []string{"User-agent", "Allow", "Disallow", "Disallow", "Allow", "Sitemap"}
	vals := []string{"*", "FooBot", "Bar-Bot", "/", "", "/a", "/a*", "/a$", "/*b", "/ab$", "/a*b$", "/a/", "/a/index.html",
		"/$", "/*", "/*$", "/b/", "/ab", "/abc", "/a?x", "/*?", "/%61", "/robots.txt", "/*.pdf$", "/a*b*c", "*", "/ba"}
	agents := []robots.Agent{robots.Token("FooBot"), robots.Token("Bar-Bot", "FooBot"), robots.Token("Other"),
		{Tokens: []string{"FooBot"}, IgnoreGlobal: true}}
	for n := 0; n < 3000; n++ {
		var b strings.Builder
		for i := rng.IntN(10); i >= 0; i-- {
			b.WriteString(keys[rng.IntN(len(keys))] + ": " + vals[rng.IntN(len(vals))] + "\n")
			if rng.IntN(6) == 0 {
				b.WriteString("\n")
			}
		}
		src := []byte(b.String())
		probes := instantiations(syntax.Parse("", src))
		for _, p := range robots.Profiles() {
			rules := robots.Parse(src, p)
			for _, a := range agents {
				acc := rules.Access(a)
				if d := rules.Decide(a, "/"); d.Line != acc.Line {
					t.Fatalf("[%v] %v: Access.Line %d, Decide(/) %+v\n%s", p, a.Tokens, acc.Line, d, src)
				}
				var allowed, disallowed string
				for _, u := range probes {
					if robots.PathOf(u) == "/robots.txt" || strings.HasPrefix(robots.PathOf(u), "/robots.txt?") {
						continue
					}
					if rules.Decide(a, u).Allowed {
						allowed = u
					} else {
						disallowed = u
					}
				}
				bad := false
				switch acc.State {
				case robots.Open:
					bad = disallowed != ""
				case robots.Blocked:
					bad = allowed != ""
				case robots.Partly:
					bad = allowed == "" || disallowed == ""
				}
				if bad {
					t.Fatalf("[%v] %v: Access %+v, but %q allowed and %q disallowed\n%s", p, a.Tokens, acc, allowed, disallowed, src)
				}
			}
		}
	}
}

// instantiations returns "/" and each Allow and Disallow value of f with
// its wildcards read as several strings and several endings added.
func instantiations(f *syntax.File) []string {
	set := map[string]bool{"/": true}
	for i := range f.Lines {
		l := &f.Lines[i]
		if l.Kind != syntax.DirectiveLine || l.Field != syntax.Allow && l.Field != syntax.Disallow {
			continue
		}
		v := f.Text(l.Value)
		for _, raw := range []bool{false, true} {
			pat := v
			if !raw {
				pat = strings.TrimSuffix(v, "$")
			}
			for _, star := range []string{"", "x", "/", "zz9", "q"} {
				p := pat
				if !raw {
					p = strings.ReplaceAll(pat, "*", star)
				}
				for _, end := range []string{"", "x", "/", "q9", "b"} {
					u := p + end
					if !strings.HasPrefix(u, "/") {
						u = "/" + u
					}
					set[u] = true
				}
			}
		}
	}
	out := make([]string, 0, len(set))
	for u := range set {
		out = append(out, u)
	}
	return out
}
