package robots_test

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/syntax"
)

// whole is the Agent of a robot read by its whole name.
func whole(tokens ...string) robots.Agent { return robots.Agent{Tokens: tokens, WholeName: true} }

// Robots whose names are not RFC 9309 product tokens (§2.2.1: [A-Za-z_-]+)
// document User-agent lines with their whole names: "User-agent:
// archive.org_bot" (https://archive.org/details/archive.org_bot), "User-agent:
// MJ12bot" (https://mj12bot.com/). With Agent.WholeName they obey them;
// without it they read as Google's parser does, which compares "archive"
// and "MJ".
func TestWholeName(t *testing.T) {
	const (
		archive = "User-agent: archive.org_bot\nDisallow: /\n"
		// Majestic's groups, one with a version, merged; "*" apart.
		majestic = "User-agent: MJ12bot\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n\nUser-agent: mj12bot/v1.4\nDisallow: /b\n"
		// "archive" and "archive.org_bot" are two names to a robot read by
		// whole name, one to Google's parser.
		twoArchives = "User-agent: archive\nDisallow: /a\n\nUser-agent: ARCHIVE.ORG_BOT\nDisallow: /b\n\nUser-agent: *\nDisallow: /c\n"
		both        = "User-agent: ia_archiver\nDisallow: /ia\n\nUser-agent: archive.org_bot x\nDisallow: /org\n\nUser-agent: *\nDisallow: /\n"
		onlyFall    = "User-agent: ia_archiver\nDisallow: /ia\n\nUser-agent: *\nDisallow: /\n"
		numbers     = "User-agent: 360Spider\nDisallow: /360\n\nUser-agent: Channel\nDisallow: /channel\n\nUser-agent: *\nDisallow: /star\n"
	)
	// group 0: the "*" groups or none (see global); want: "A" allowed, "D"
	// disallowed.
	type check struct {
		url    string
		want   byte
		group  int
		global bool
	}
	for _, c := range []struct {
		name   string
		body   string
		agent  robots.Agent
		checks []check
	}{
		{"archive.org_bot by whole name", archive, whole("archive.org_bot"), []check{{"/x", 'D', 1, false}}},
		{"archive.org_bot by Google's reading", archive, tok("archive.org_bot"), []check{{"/x", 'A', 0, false}}},
		{"archive, a product token, either way", archive, whole("archive"), []check{{"/x", 'D', 1, false}}},
		{"case", archive, whole("Archive.Org_Bot"), []check{{"/x", 'D', 1, false}}},
		{"a longer name", archive, whole("archive.org_bot2"), []check{{"/x", 'A', 0, false}}},
		{"a shorter name", archive, whole("archive.org"), []check{{"/x", 'A', 0, false}}},
		{"MJ12bot merged with MJ12bot/v1.4", majestic, whole("MJ12bot"), []check{
			{"/a", 'D', 1, false}, {"/b", 'D', 1, false}, {"/c", 'A', 1, false}}},
		{"MJ12bot by Google's reading", majestic, tok("MJ12bot"), []check{
			{"/a", 'D', 4, true}, {"/c", 'D', 4, true}}},
		{"MJ, Google's token, keeps both groups", majestic, whole("MJ"), []check{
			{"/a", 'D', 1, false}, {"/b", 'D', 1, false}, {"/c", 'A', 1, false}}},
		{"whole name: its own group only", twoArchives, whole("archive.org_bot"), []check{
			{"/a", 'A', 4, false}, {"/b", 'D', 4, false}, {"/c", 'A', 4, false}}},
		{"product token: both groups", twoArchives, whole("archive"), []check{
			{"/a", 'D', 1, false}, {"/b", 'D', 1, false}, {"/c", 'A', 1, false}}},
		{"chain: the whole name first", both, whole("archive.org_bot", "ia_archiver"), []check{
			{"/org", 'D', 4, false}, {"/ia", 'A', 4, false}}},
		{"chain: falls back to a product token", onlyFall, whole("archive.org_bot", "ia_archiver"), []check{
			{"/ia", 'D', 1, false}, {"/x", 'A', 1, false}}},
		{"chain: a product token first", both, whole("ia_archiver", "archive.org_bot"), []check{
			{"/ia", 'D', 1, false}, {"/org", 'A', 1, false}}},
		{"chain: to \"*\"", onlyFall, whole("archive.org_bot", "MJ12bot"), []check{{"/x", 'D', 4, true}}},
		{"360Spider by whole name", numbers, whole("360Spider"), []check{{"/360", 'D', 1, false}, {"/star", 'A', 1, false}}},
		{"Channel3Bot: not Channel's", numbers, whole("Channel3Bot"), []check{{"/channel", 'A', 7, true}, {"/star", 'D', 7, true}}},
		{"Channel3Bot by Google's reading", numbers, tok("Channel3Bot"), []check{{"/channel", 'A', 7, true}}},
		{"an empty token names no group", numbers, whole(""), []check{{"/360", 'A', 7, true}}},
		{"an empty token by Google's reading", numbers, tok(""), []check{{"/360", 'D', 1, false}}},
		{"IgnoreGlobal", numbers, robots.Agent{Tokens: []string{"Crawl4AI"}, WholeName: true, IgnoreGlobal: true},
			[]check{{"/star", 'A', 0, false}}},
	} {
		for _, p := range []robots.Profile{robots.Google, robots.RFC9309, robots.Bing, robots.Yandex} {
			r := robots.Parse([]byte(c.body), p)
			rc := robots.Compile(syntax.Parse("", []byte(c.body)), p)
			for _, ck := range c.checks {
				d := r.Decide(c.agent, "https://example.com"+ck.url)
				if d.Allowed != (ck.want == 'A') || d.Group != ck.group || d.Global != ck.global {
					t.Errorf("%s [%v]: %q: %+v; want allowed %v, group %d, global %v\n%s",
						c.name, p, ck.url, d, ck.want == 'A', ck.group, ck.global, c.body)
				}
				if dc := rc.Decide(c.agent, "https://example.com"+ck.url); dc != d {
					t.Errorf("%s [%v]: %q: Compile decides %+v, Parse %+v", c.name, p, ck.url, dc, d)
				}
			}
			g, ok := r.Group(c.agent)
			if first := c.checks[0]; ok != (first.group != 0) || first.group != 0 && (g.Lines[0] != first.group || g.Global != first.global) {
				t.Errorf("%s [%v]: Group = %+v, %v; want group %d", c.name, p, g, ok, first.group)
			}
		}
	}
}

// A robot read by whole name finds the groups, the extensions and the
// Crawl-delay of its own groups, merged.
func TestWholeNameGroup(t *testing.T) {
	body := []byte("User-agent: MJ12bot\nCrawl-delay: 5\nDisallow: /a\n\nUser-agent: Googlebot\nUser-agent: mj12bot/1.4 (+https://mj12bot.com/)\nDisallow: /b\n\nUser-agent: MJ\nCrawl-delay: 9\n\nUser-agent: *\nCrawl-delay: 1\nDisallow: /\n")
	for _, p := range []robots.Profile{robots.Google, robots.RFC9309, robots.Bing, robots.Yandex} {
		r := robots.Parse(body, p)
		g, ok := r.Group(whole("MJ12bot"))
		if !ok || g.Global || !slices.Equal(g.Lines, []int{1, 5}) ||
			!slices.Equal(g.Agents, []string{"MJ12bot", "Googlebot", "mj12bot/1.4 (+https://mj12bot.com/)"}) {
			t.Errorf("[%v] Group(MJ12bot) = %+v, %v", p, g, ok)
		}
		if d, ok := g.CrawlDelay(); !ok || d != 5*time.Second {
			t.Errorf("[%v] Crawl-delay %v, %v; want 5s", p, d, ok)
		}
		// Google's reading: "MJ" names the three.
		g, _ = r.Group(tok("MJ"))
		if !slices.Equal(g.Lines, []int{1, 5, 9}) {
			t.Errorf("[%v] Group(MJ) lines %v, want [1 5 9]", p, g.Lines)
		}
		if g, _ := r.Group(tok("MJ12bot")); !g.Global {
			t.Errorf("[%v] Group(MJ12bot) without WholeName = %+v, want the \"*\" group", p, g)
		}
	}
}

// A nil or zero Rules answers a robot read by whole name as any other.
func TestWholeNameZeroRules(t *testing.T) {
	for name, r := range map[string]*robots.Rules{"zero": new(robots.Rules), "nil": nil} {
		if d := r.Decide(whole("MJ12bot", ""), "/x"); !d.Allowed || d.Reason != robots.NoGroup {
			t.Errorf("%s: Decide = %+v", name, d)
		}
		if _, ok := r.Group(whole("MJ12bot")); ok {
			t.Errorf("%s: Group found", name)
		}
	}
}

// Google's robots have product tokens: WholeName changes none of their
// decisions, nor those of the record profiles, which compare whole values
// anyway.
func TestWholeNameGoogleUnchanged(t *testing.T) {
	bodies := []string{
		"User-agent: Googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /\n",
		"User-agent: googlebot-news\nDisallow: /1\n\nUser-agent: *\nDisallow: /2\n\nUser-agent: googlebot\nDisallow: /3\n",
		"User-agent: Googlebot/2.1\nUser-agent: MJ12bot\nDisallow: /a\nAllow: /a/b\n\nUser-agent: Googlebot.com\nDisallow: /c\n",
		"User-agent: archive.org_bot\nUser-agent: AdsBot-Google\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n",
	}
	agents := []robots.Agent{tok("Googlebot"), tok("Googlebot-News", "Googlebot"), tok("Googlebot-Image", "Googlebot"),
		{Tokens: []string{"AdsBot-Google"}, IgnoreGlobal: true}}
	urls := []string{"/", "/g", "/1", "/2", "/3", "/a", "/a/b", "/c", "/x", "/robots.txt"}
	for _, body := range bodies {
		for _, p := range robots.Profiles() {
			r := robots.Parse([]byte(body), p)
			for _, a := range agents {
				w := a
				w.WholeName = true
				for _, u := range urls {
					if d, dw := r.Decide(a, u), r.Decide(w, u); d != dw {
						t.Errorf("[%v] %v %s: %+v, with WholeName %+v\n%s", p, a.Tokens, u, d, dw, body)
					}
				}
				g, ok := r.Group(a)
				gw, okw := r.Group(w)
				if ok != okw || !reflect.DeepEqual(g, gw) {
					t.Errorf("[%v] %v: Group %+v, with WholeName %+v", p, a.Tokens, g, gw)
				}
			}
			// Under the record profiles every name is compared whole.
			if p == robots.Draft1996 || p == robots.Strict1994 {
				for _, name := range []string{"MJ12bot", "archive.org_bot", "Googlebot.com"} {
					for _, u := range urls {
						if d, dw := r.Decide(tok(name), u), r.Decide(whole(name), u); d != dw {
							t.Errorf("[%v] %s %s: %+v, with WholeName %+v", p, name, u, d, dw)
						}
					}
				}
			}
		}
	}
}

// TestWholeNameRandom checks two properties over generated files, under
// every profile:
//   - for a product token, WholeName changes nothing;
//   - under the profiles that merge groups, a name that is not a product
//     token decides as a product token would if the file's User-agent lines
//     named it so: renaming the whole name in every value that has it
//     ("mj12bot/1.4" → "Placeholder/1.4") and asking for the new name
//     without WholeName gives the same decision.
//
// Parse and Compile agree on all of it.
func TestWholeNameRandom(t *testing.T) {
	const placeholder = "Placeholder"
	rng := rand.New(rand.NewPCG(7, 9))
	uaKeys := []string{"User-agent", "user-agent", "useragent"}
	keys := []string{"Allow", "Disallow", "Crawl-delay", "foo"}
	uaVals := []string{"*", "* x", "*/1.0", "MJ12bot", "mj12bot/v1.4", "MJ12bot x", "MJ", "mj", "archive.org_bot", "archive",
		"ARCHIVE.ORG_BOT/2", "360Spider", "360spider", "Googlebot", "googlebot/2.1", "Googlebot.com", "Crawl4AI", "", "/x"}
	ruleVals := []string{"/", "", "/a", "/a*", "/b$", "/ab", "/b", "/a/b", "3"}
	seps := []string{": ", ":", " "}
	eols := []string{"\n", "\n\n"}
	paths := []string{"/", "/a", "/ab", "/b", "/a/b", "/c", "/robots.txt"}
	agents := []string{"MJ12bot", "mj12BOT", "archive.org_bot", "360Spider", "Googlebot.com", "Crawl4AI", "*", "",
		"MJ", "archive", "Googlebot", "Placeholder2"}
	for n := 0; n < 3000; n++ {
		name := agents[rng.IntN(len(agents))]
		var src, renamed []byte
		for i := 4 + rng.IntN(16); i >= 0; i-- {
			key, val := keys[rng.IntN(len(keys))], ruleVals[rng.IntN(len(ruleVals))]
			ua := rng.IntN(3) == 0
			if ua {
				key, val = uaKeys[rng.IntN(len(uaKeys))], uaVals[rng.IntN(len(uaVals))]
			}
			line := key + seps[rng.IntN(len(seps))]
			eol := eols[rng.IntN(len(eols))]
			src = append(src, line+val+eol...)
			w := val
			if j := strings.IndexAny(val, "/ "); j >= 0 {
				w = val[:j]
			}
			if ua && name != "" && strings.EqualFold(w, name) && !(val == "*" || strings.HasPrefix(val, "* ")) {
				val = placeholder + val[len(w):]
			}
			renamed = append(renamed, line+val+eol...)
		}
		u := "https://example.com" + paths[rng.IntN(len(paths))]
		for _, p := range robots.Profiles() {
			r := robots.Parse(src, p)
			rc := robots.Compile(syntax.Parse("", src), p)
			a, w := tok(name, "archive"), whole(name, "archive")
			d, dw := r.Decide(a, u), r.Decide(w, u)
			if dc := rc.Decide(w, u); dc != dw {
				t.Fatalf("[%v] %q %s: Compile decides %+v, Parse %+v\n%q", p, name, u, dc, dw, src)
			}
			valid := name != "" && strings.Trim(strings.ToLower(name), "abcdefghijklmnopqrstuvwxyz_-") == ""
			record := p == robots.Draft1996 || p == robots.Strict1994
			if valid || record {
				if d != dw {
					t.Fatalf("[%v] %q %s: %+v, with WholeName %+v\n%q", p, name, u, d, dw, src)
				}
				g, ok := r.Group(a)
				gw, okw := r.Group(w)
				if ok != okw || !reflect.DeepEqual(g, gw) {
					t.Fatalf("[%v] %q: Group %+v, with WholeName %+v\n%q", p, name, g, gw, src)
				}
				continue
			}
			rr := robots.Parse(renamed, p)
			if want := rr.Decide(tok(placeholder, "archive"), u); dw != want {
				t.Fatalf("[%v] %q %s: %+v; renamed to %s: %+v\n%q\n%q", p, name, u, dw, placeholder, want, src, renamed)
			}
			g, ok := r.Group(w)
			gr, okr := rr.Group(tok(placeholder, "archive"))
			if ok != okr || g.Global != gr.Global || !slices.Equal(g.Lines, gr.Lines) || !reflect.DeepEqual(g.Extensions, gr.Extensions) {
				t.Fatalf("[%v] %q: Group %+v; renamed: %+v\n%q", p, name, g, gr, src)
			}
		}
	}
}

// Checking with a robot read by whole name does not allocate.
func TestWholeNameAllocs(t *testing.T) {
	body := []byte(allocRobots + "\nUser-agent: MJ12bot\nUser-agent: archive.org_bot/2\nDisallow: /mj\n")
	for _, p := range robots.Profiles() {
		r := robots.Parse(body, p)
		for _, a := range []robots.Agent{whole("MJ12bot"), whole("archive.org_bot", "Googlebot"), whole("Crawl4AI"), whole("Googlebot")} {
			if n := testing.AllocsPerRun(100, func() { r.Decide(a, "https://example.com/mj/x") }); n != 0 {
				t.Errorf("[%v] Decide(%v): %v allocations, want 0", p, a.Tokens, n)
			}
		}
	}
}
