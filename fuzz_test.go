package robots_test

import (
	"math/rand/v2"
	"testing"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/syntax"
)

// FuzzDecide checks the compiled matcher against refDecide, and Parse
// against Compile(syntax.Parse), under every profile. It also checks that
// nothing panics.
func FuzzDecide(f *testing.F) {
	for _, c := range fuzzSeeds {
		f.Add([]byte(c.robots), c.agent, c.url)
	}
	f.Fuzz(func(t *testing.T, src []byte, agent, url string) {
		for _, p := range robots.Profiles() {
			r := robots.Parse(src, p)
			d := r.Decide(robots.Token(agent), url)
			if got := r.Allowed(agent, url); got != d.Allowed {
				t.Fatalf("[%v] Allowed = %v, Decide.Allowed = %v", p, got, d.Allowed)
			}
			wantAllowed, wantLine := refDecide(src, p, agent, url)
			if d.Allowed != wantAllowed || d.Line != wantLine {
				t.Fatalf("[%v] Decide(%q, %q) = (%v, line %d), reference says (%v, line %d)\nrobots.txt:\n%s",
					p, agent, url, d.Allowed, d.Line, wantAllowed, wantLine, src)
			}
			if d2 := robots.Compile(syntax.Parse("", src), p).Decide(robots.Token(agent), url); d2 != d {
				t.Fatalf("[%v] Compile decides %+v, Parse decides %+v", p, d2, d)
			}
			// Agent.WholeName changes nothing for a product token (RFC 9309
			// §2.2.1: [A-Za-z_-]+), and whole names decide as Compile's.
			w := robots.Agent{Tokens: []string{agent}, WholeName: true}
			dw := r.Decide(w, url)
			if isProductToken(agent) && dw != d {
				t.Fatalf("[%v] Decide(%q, %q) = %+v, with WholeName %+v", p, agent, url, d, dw)
			}
			if d2 := robots.Compile(syntax.Parse("", src), p).Decide(w, url); d2 != dw {
				t.Fatalf("[%v] with WholeName, Compile decides %+v, Parse decides %+v", p, d2, dw)
			}
		}
	})
}

var fuzzSeeds = []struct{ robots, agent, url string }{
	{"User-agent: *\nDisallow: /\nAllow: /a$\n", "FooBot", "http://x/a"},
	{"user-agent: FooBot\ndisallow /x*y$\nallow: /x/index.html\n", "foobot", "/x/"},
	{"\xEF\xBBUser-agent: *\rDisallow: /%e3%83%84\r\n", "x", "/ツ"},
	{"User-agent: * foo\nUser-agent: Bar\nDisalow: /p\nDisallow:\nAllow: /p\n", "bar", "/p?q"},
	{"Disallow: /\nUser-agent: a\nSitemap: /s\nUser-agent: b\nDisallow: /b*\n\nUser-agent: a\nAllow: /b/c$", "A", "//h/b/c"},
	{"User-agent: *\nDisallow: /a$\nDisallow: /*b\nAllow: /a/*\n", "x", "http://x/a#/a/b"},
	{"User-agent: *\nDisallow: /%7Ejoe\nAllow: /robots.txt\nDisallow: /*.gif$\n", "x", "/~joe/a.gif"},
	{"User-agent: Foo\n\nDisallow: /a\nUser-agent: FooBot/2\nDisallow:\nDisallow: /a*\n\nUser-agent: *\nAllow: /\nDisallow: /a\n", "FooBot-News", "/a*b"},
	// Names that are not product tokens, read whole with Agent.WholeName.
	{"User-agent: MJ12bot/v1.4\nDisallow: /a\n\nUser-agent: MJ\nAllow: /a\n\nUser-agent: archive.org_bot x\nDisallow: /\n", "MJ12bot", "/a"},
	{"User-agent: archive.org_bot\nDisallow: /\nUser-agent: *\nAllow: /\n", "archive", "/x"},
}

// isProductToken reports whether s is an RFC 9309 §2.2.1 product token.
func isProductToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; !('a' <= c && c <= 'z' || s[i] == '-' || s[i] == '_') {
			return false
		}
	}
	return s != ""
}

// TestDecideRandom runs the same comparison as FuzzDecide over generated
// files, so that `go test` exercises it without -fuzz.
func TestDecideRandom(t *testing.T) { decideRandom(t, 1) }

// TestDecideRandomSorted is TestDecideRandom with every bucket of two rules
// or more given a sorted literal part, which only large files have.
func TestDecideRandomSorted(t *testing.T) {
	defer robots.SetSubMin(2)()
	decideRandom(t, 3)
}

func decideRandom(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 2))
	keys := []string{"User-agent", "user-agent", "Allow", "Disallow", "disalow", "Sitemap", "Crawl-delay", "useragent", "foo"}
	vals := []string{"*", "FooBot", "foobot", "Bar-Bot", "* x", "/", "", "/a", "/a*", "/a$", "/*b", "/a/index.html", "/%61", "/%7e", "/ä", "*", "$", "/a*b$",
		"/b/", "/ba", "/b*a$", "/$", "b", "/?", "/*?x", "/a?x=1", "/ab$", "/bb",
		// third octets, for buckets split in two levels
		"/ab", "/ac", "/abc", "/a/b", "/ab*", "/ac$", "/a*c", "/bab", "/bc", "/a?",
		// record profiles: User-agent values inside a robot's name
		"Foo", "FooBot/2.1", "Bar-Bot Baz", "bot",
		// literal prefixes of each other, for sorted literal parts
		"/ab/", "/ab/c", "/a/b/c", "/abc/d", "/ab?x", "/abcdefghij", "/abcdefghijk", "/abcdefghik"}
	seps := []string{": ", ":", " ", " : "}
	eols := []string{"\n", "\r\n", "\r", "\n\n"}
	paths := []string{"/", "/a", "/ab", "/a/", "/a/index.html", "/b", "/%61", "/a", "/~", "/ä", "/robots.txt", "?a", "/a$", "/a*b",
		"/b/a", "/ba", "/bb?x", "/a?x=1", "/a?y", "/ab", "/ac", "/abc", "/ab/x", "/bc", "/bab", "/acc",
		// the path ends before a fragment, and at a NUL under google
		"/a#b", "/ab#/ab", "/b\x00a", "/#a",
		"/ab/c", "/ab/cd", "/a/b/c/d", "/abc/d", "/abc/", "/ab?x=1", "/abcdefghijk", "/abcdefghijkl", "/abcdefghiz", "/abc#/abcdefghijk"}
	agents := []string{"FooBot", "foobot", "Bar-Bot", "Baz", "", "*", "FooBot-News", "XFooBotY"}
	for n := 0; n < 6000; n++ {
		var b []byte
		lines := rng.IntN(8)
		if n%2 == 0 {
			lines = 10 + rng.IntN(60) // large rulesets take the indexed path
		}
		for i := lines; i >= 0; i-- {
			b = append(b, keys[rng.IntN(len(keys))]...)
			b = append(b, seps[rng.IntN(len(seps))]...)
			b = append(b, vals[rng.IntN(len(vals))]...)
			b = append(b, eols[rng.IntN(len(eols))]...)
		}
		agent := agents[rng.IntN(len(agents))]
		url := "http://example.com" + paths[rng.IntN(len(paths))]
		for _, p := range robots.Profiles() {
			r := robots.Parse(b, p)
			d := r.Decide(robots.Token(agent), url)
			if got := r.Allowed(agent, url); got != d.Allowed {
				t.Fatalf("[%v] Allowed(%q, %q) = %v, Decide.Allowed = %v\n%q", p, agent, url, got, d.Allowed, b)
			}
			wa, wl := refDecide(b, p, agent, url)
			if d.Allowed != wa || d.Line != wl {
				t.Fatalf("[%v] Decide(%q, %q) = (%v, %d), reference (%v, %d)\n%q", p, agent, url, d.Allowed, d.Line, wa, wl, b)
			}
		}
	}
}
