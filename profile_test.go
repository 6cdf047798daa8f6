package robots_test

import (
	"slices"
	"testing"
	"time"

	"github.com/robotskit/robots"
)

// profileCases are the examples and robot-family statements of
// Mandelbot's robots.txt documentation (Fractle), Google's robots.txt
// documentation and Moderatobot's "Checking robots.txt theory", and what
// Yandex's and Bing's documentation say, each checked under every
// profile. want holds one letter per profile, in the order of
// robots.Profiles() (google, rfc9309, bing, yandex, draft1996, strict1994):
// A for allowed, D for disallowed.
var profileCases = []struct {
	source string
	body   string
	agent  robots.Agent
	url    string
	want   string
}{
	// Mandelbot's robots.txt documentation (Fractle; an RFC 9309
	// longest-match crawler).
	{"mandelbot specific group", "User-agent: Mandelbot\nDisallow: /private\n\nUser-agent: *\nDisallow: /secret\n",
		tok("Mandelbot"), "/private/x", "DDDDDD"},
	{"mandelbot specific group ignores *", "User-agent: Mandelbot\nDisallow: /private\n\nUser-agent: *\nDisallow: /secret\n",
		tok("Mandelbot"), "/secret/x", "AAAAAA"},
	{"mandelbot falls back to *", "User-agent: Anotherbot\nDisallow: /private\n\nUser-agent: *\nDisallow: /secret\n",
		tok("Mandelbot"), "/secret/x", "DDDDDD"},
	{"mandelbot no group applies", "User-agent: Anotherbot\nDisallow: /private\n",
		tok("Mandelbot"), "/private", "AAAAAA"},
	{"mandelbot shared group", "User-agent: Mandelbot\nUser-agent: Anotherbot\nDisallow: /private\n\nUser-agent: *\nDisallow: /secret\n",
		tok("Mandelbot"), "/private", "DDDDDD"},
	{"mandelbot block all", "User-agent: *\nDisallow: /\n", tok("Mandelbot"), "/any", "DDDDDD"},
	{"mandelbot prefix", "User-agent: Mandelbot\nDisallow: /secret\nDisallow: /hidden\n",
		tok("Mandelbot"), "/secret/doc.html", "DDDDDD"},
	{"mandelbot prefix only at the start", "User-agent: Mandelbot\nDisallow: /secret\nDisallow: /hidden\n",
		tok("Mandelbot"), "/private/secret/doc.html", "AAAAAA"},
	{"mandelbot empty Disallow overrides *", "User-agent: Mandelbot\nDisallow: \n\nUser-agent: *\nDisallow: /\n",
		tok("Mandelbot"), "/x", "AAAAAA"},
	{"mandelbot empty Disallow, other robots", "User-agent: Mandelbot\nDisallow: \n\nUser-agent: *\nDisallow: /\n",
		tok("Otherbot"), "/x", "DDDDDD"},
	// strict1994 knows no Allow; draft1996 takes the first match.
	{"mandelbot Allow exception", "User-agent: Mandelbot\nDisallow: /secret\nAllow: /secret/readme.txt\n",
		tok("Mandelbot"), "/secret/readme.txt?v=1", "AAAADD"},
	{"mandelbot Allow exception, rest blocked", "User-agent: Mandelbot\nDisallow: /secret\nAllow: /secret/readme.txt\n",
		tok("Mandelbot"), "/secret/doc.html", "DDDDDD"},
	// Wildcards are octets to the old standards.
	{"mandelbot /*/private/", "User-agent: Mandelbot\nDisallow: /*/private/\n",
		tok("Mandelbot"), "/secret/private/doc.html", "DDDDAA"},
	{"mandelbot /*/private/ not private-stuff", "User-agent: Mandelbot\nDisallow: /*/private/\n",
		tok("Mandelbot"), "/secret/private-stuff/doc.html", "AAAAAA"},
	{"mandelbot /*.pdf$", "User-agent: Mandelbot\nDisallow: /*.pdf$\n", tok("Mandelbot"), "/doc.pdf", "DDDDAA"},
	{"mandelbot /*.pdf$ not with a query", "User-agent: Mandelbot\nDisallow: /*.pdf$\n", tok("Mandelbot"), "/doc.pdf?load=1", "AAAAAA"},
	{"mandelbot precedence: /*.pdf beats /doc", "User-agent: Mandelbot\nDisallow: /*.pdf\nAllow: /files\nAllow: /doc\n",
		tok("Mandelbot"), "/doc.pdf", "DDDDAA"},
	{"mandelbot precedence: /files ties /*.pdf", "User-agent: Mandelbot\nDisallow: /*.pdf\nAllow: /files\nAllow: /doc\n",
		tok("Mandelbot"), "/files.pdf", "AAAAAA"},
	{"mandelbot /money$", "User-agent: Mandelbot\nDisallow: /money$\nDisallow: /earn$*\n", tok("Mandelbot"), "/money", "DDDDAA"},
	{"mandelbot /money$ is exact", "User-agent: Mandelbot\nDisallow: /money$\nDisallow: /earn$*\n", tok("Mandelbot"), "/money/x", "AAAAAA"},
	{"mandelbot /earn$* keeps the dollar", "User-agent: Mandelbot\nDisallow: /money$\nDisallow: /earn$*\n", tok("Mandelbot"), "/earn$1", "DDDDAA"},
	{"mandelbot extra * changes precedence", "User-agent: Mandelbot\nDisallow: /*.pdf*\nAllow: /files\nAllow: /doc****\n",
		tok("Mandelbot"), "/files.pdf", "DDDDAA"},
	{"mandelbot extra * changes precedence, /doc", "User-agent: Mandelbot\nDisallow: /*.pdf*\nAllow: /files\nAllow: /doc****\n",
		tok("Mandelbot"), "/doc.pdf", "AAAAAA"},
	{"mandelbot comments", "# A standalone comment\n\nUser-agent: Mandelbot\n# Whitespace\nDisallow: /secret# comment\n\nUser-agent: * # others\nDisallow: /   # all\n",
		tok("Mandelbot"), "/secret", "DDDDDD"},
	{"mandelbot comments, others", "# A standalone comment\n\nUser-agent: Mandelbot\n# Whitespace\nDisallow: /secret# comment\n\nUser-agent: * # others\nDisallow: /   # all\n",
		tok("Otherbot"), "/x", "DDDDDD"},

	// Google's robots.txt documentation, as an SEO guide quotes it.
	// The guide's sample flattens
	// "User-agent: Googlebot Disallow: /nogooglebot/" onto one line: Google reads a Googlebot group without rules, so the
	// folder the author meant to block is open. The old standards see a
	// value that contains "Googlebot" (draft1996) or none that is part of
	// the name (strict1994), and no rule line: no record.
	{"google flattened line", "User-agent: Googlebot Disallow: /nogooglebot/\n\nUser-agent: *\n\nDisallow: /onlygooglebot/\n",
		tok("Googlebot"), "/nogooglebot/x", "AAAAAA"},
	// Its "User-agent: *" is followed by a blank line: the rule is in no
	// record for Yandex and the old standards.
	{"google blank line after User-agent", "User-agent: Googlebot Disallow: /nogooglebot/\n\nUser-agent: *\n\nDisallow: /onlygooglebot/\n",
		tok("Otherbot"), "/onlygooglebot/x", "DDDAAA"},
	{"google photos", "User-agent: *\nDisallow: /photos\n", tok("Otherbot"), "/photos/1.jpg", "DDDDDD"},
	// "This would tell Googlebot that it can visit photos folder": only
	// for longest-match robots, where Allow wins the tie.
	{"google Disallow and Allow the same path", "User-agent: *\nDisallow: /photos\nAllow: /photos\n",
		tok("Googlebot"), "/photos/1.jpg", "AAAADD"},
	{"google allow all by empty Disallow", "User-agent: *\nDisallow:\n", tok("Otherbot"), "/x", "AAAAAA"},
	{"google allow all by Allow: /", "User-agent: *\nAllow: /\n", tok("Otherbot"), "/x", "AAAAAA"},
	{"google disallow all", "User-agent: *\nDisallow: /\n", tok("Otherbot"), "/x", "DDDDDD"},
	// "Disallow: /calendar/ Disallow: /junk/" on one line is one pattern
	// with spaces in it: it blocks neither folder.
	{"google two rules on one line", "User-agent: *\n\nDisallow: /calendar/ Disallow: /junk/\n", tok("Otherbot"), "/junk/", "AAAAAA"},
	// "Googlebot/1.2 and Googlebot* are equivalent to Googlebot" holds for
	// token readings and for the 1994 reading (value without version).
	{"google Googlebot/1.2", "User-agent: Googlebot/1.2\nDisallow: /x\n", tok("Googlebot"), "/x", "DDDDDD"},
	{"google Googlebot*", "User-agent: Googlebot*\nDisallow: /x\n", tok("Googlebot"), "/x", "DDDDDA"},
	// AdsBot-Google: "only directives for this user-agent are followed".
	{"google AdsBot-Google ignores *", "User-agent: *\nDisallow: /\n",
		robots.Agent{Tokens: []string{"AdsBot-Google"}, IgnoreGlobal: true}, "/landing", "AAAAAA"},
	{"google AdsBot-Google obeys its own group", "User-agent: *\nDisallow: /\n\nUser-agent: AdsBot-Google\nDisallow: /landing\n",
		robots.Agent{Tokens: []string{"AdsBot-Google"}, IgnoreGlobal: true}, "/landing", "DDDDDD"},

	// Moderatobot's "Checking robots.txt theory" (how robot families
	// differ).
	// "Blank lines inside the group are prohibited … it closes the
	// current group": the rule after the blank line is in no group.
	{"moderatobot blank line closes the group", "User-agent: *\nDisallow: /a\n\nDisallow: /x\n", tok("Otherbot"), "/x", "DDDAAA"},
	// "If it contains more then one group per a robot, the robot must take
	// into account only the first group." RFC 9309 §2.2.1 merges them.
	{"moderatobot only the first group", "User-agent: FooBot\nDisallow: /a\n\nUser-agent: FooBot\nDisallow: /b\n", tok("FooBot"), "/b", "DDDDAA"},
	// "the robot will search for the first User-Agent whose value contains
	// the name token of the robot as a substring": Googlebot takes the
	// Googlebot-News record under the 1996 draft.
	{"moderatobot first record containing the name", "User-agent: Googlebot-News\nDisallow: /news\n\nUser-agent: Googlebot\nDisallow: /web\n",
		tok("Googlebot"), "/news", "AAAADA"},
	// The 1994 reading goes the other way: "Google" is part of the name
	// Googlebot (RB705 of package lint).
	{"moderatobot value part of the name", "User-agent: Google\nDisallow: /\n", tok("Googlebot"), "/x", "AAAAAD"},
	// "Allow is not a standard directive and some robots that strictly
	// follow the standard will ignore it".
	{"moderatobot strict robots ignore Allow", "User-agent: *\nDisallow: /docs\nAllow: /docs/public\n", tok("Otherbot"), "/docs/public/a", "AAAADD"},
	// "only the first directive with the matching value will be used".
	{"moderatobot order matters to first-match robots", "User-agent: *\nAllow: /docs/public\nDisallow: /docs\n", tok("Otherbot"), "/docs/public/a", "AAAAAD"},
	// "The /robots.txt URL is always allowed" (also RFC 9309 §2.2.2);
	// Google's matcher leaves it to the crawler.
	{"moderatobot /robots.txt always allowed", "User-agent: *\nDisallow: /\n", tok("Otherbot"), "/robots.txt", "DAAAAA"},
	// "Some robots ignore Allow directives without values": all of ours.
	{"moderatobot empty Allow", "User-agent: *\nAllow:\nDisallow: /x\n", tok("Otherbot"), "/y", "AAAAAA"},
	// "The * and $ symbols in an URL are not standard": the old standards
	// match them as octets.
	{"moderatobot wildcard as octets", "User-agent: *\nDisallow: /*.pdf$\n", tok("Otherbot"), "/*.pdf$", "AAAADD"},
	// Googlebot-News looks for its own group, then Googlebot's, then "*".
	{"moderatobot Googlebot-News falls back to Googlebot", "User-agent: Googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /\n",
		tok("Googlebot-News", "Googlebot"), "/other", "AAAAAA"},

	// Yandex Webmaster help
	// (https://yandex.com/support/webmaster/controlling-robot/robots-txt.html):
	// YandexBot's group beats Yandex's, which beats "*"; rules sorted by
	// prefix length, Allow on ties; no blank lines inside a group. The 1994
	// reading takes the first record whose value is part of the name ("Yandex" for
	// YandexBot) and ignores Allow; the 1996 draft's first match is
	// "Allow: /".
	{"yandex YandexBot beats Yandex", "User-agent: Yandex\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n\nUser-agent: YandexBot\nDisallow: /c\n",
		tok("YandexBot", "Yandex"), "/a", "AAAAAD"},
	{"yandex YandexImages takes Yandex", "User-agent: Yandex\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n\nUser-agent: YandexBot\nDisallow: /c\n",
		tok("YandexImages", "Yandex"), "/a", "DDDDDD"},
	{"yandex longest prefix", "User-agent: Yandex\nAllow: /\nAllow: /catalog/auto\nDisallow: /catalog\n",
		tok("Yandex"), "/catalog/auto/1", "AAAAAD"},
	{"yandex longest prefix, blocked", "User-agent: Yandex\nAllow: /\nAllow: /catalog/auto\nDisallow: /catalog\n",
		tok("Yandex"), "/catalog/x", "DDDDAD"},
	{"yandex blank line after User-agent", "User-agent: Yandex\n\nDisallow: /\n", tok("Yandex"), "/x", "DDDAAA"},

	// Bing (Bing's webmaster guidance): a bingbot group overrides "*".
	{"bing bingbot overrides *", "User-agent: *\nDisallow: /a\n\nUser-agent: bingbot\nDisallow: /b\n", tok("bingbot"), "/a", "AAAAAA"},
	{"bing bingbot's own rule", "User-agent: *\nDisallow: /a\n\nUser-agent: bingbot\nDisallow: /b\n", tok("bingbot"), "/b", "DDDDDD"},
}

func tok(tokens ...string) robots.Agent { return robots.Agent{Tokens: tokens} }

func TestProfileCases(t *testing.T) {
	profiles := robots.Profiles()
	for _, c := range profileCases {
		if len(c.want) != len(profiles) {
			t.Fatalf("%s: want %q needs %d letters", c.source, c.want, len(profiles))
		}
		for i, p := range profiles {
			d := robots.Parse([]byte(c.body), p).Decide(c.agent, "https://example.com"+c.url)
			want := c.want[i] == 'A'
			if d.Allowed != want {
				t.Errorf("%s [%v]: %v %s allowed = %v, want %v (decision %+v)\n%s",
					c.source, p, c.agent.Tokens, c.url, d.Allowed, want, d, c.body)
			}
			// The reference reads single tokens; compare where it can.
			if len(c.agent.Tokens) == 1 && !c.agent.IgnoreGlobal {
				ra, rl := refDecide([]byte(c.body), p, c.agent.Tokens[0], "https://example.com"+c.url)
				if ra != d.Allowed || rl != d.Line {
					t.Errorf("%s [%v]: Decide = (%v, %d), reference (%v, %d)", c.source, p, d.Allowed, d.Line, ra, rl)
				}
			}
		}
	}
}

// The group-selection example of Google's robots.txt documentation
// (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt):
// which group each Google crawler follows, as the line of the group's
// first User-agent line.
func TestGoogleGroupChoice(t *testing.T) {
	body := "user-agent: googlebot-news\ndisallow: /1\n\nuser-agent: *\ndisallow: /2\n\nuser-agent: googlebot\ndisallow: /3\n"
	rules := robots.Parse([]byte(body), robots.Google)
	for _, c := range []struct {
		crawler string
		agent   robots.Agent
		group   int
	}{
		{"Googlebot News", tok("Googlebot-News", "Googlebot"), 1},
		{"Googlebot (web)", tok("Googlebot"), 7},
		{"Googlebot Images", tok("Googlebot-Image", "Googlebot"), 7},
		{"Googlebot News (when crawling images)", tok("Googlebot-News", "Googlebot"), 1},
		{"Otherbot (web)", tok("Otherbot"), 4},
		{"Otherbot (News)", tok("Otherbot-News", "Otherbot"), 4},
	} {
		g, ok := rules.Group(c.agent)
		if !ok || len(g.Lines) != 1 || g.Lines[0] != c.group {
			t.Errorf("%s: groups %v (ok %v), want [%d]", c.crawler, g.Lines, ok, c.group)
		}
		if d := rules.Decide(c.agent, "/x"); d.Group != c.group {
			t.Errorf("%s: Decide group %d, want %d", c.crawler, d.Group, c.group)
		}
	}
}

// Bing keeps the "*" Crawl-delay for bingbot when its own group sets none
// (Bing's webmaster guidance; RB707 of package lint); other profiles do
// not.
func TestBingCrawlDelay(t *testing.T) {
	// The "*" group needs a rule: otherwise Google's reading puts the next
	// User-agent line in the same group (RFC 9309 §2.1; RB416 of package lint).
	body := []byte("User-agent: *\nCrawl-delay: 5\nDisallow: /p\n\nUser-agent: bingbot\nDisallow: /b\n\nUser-agent: slowbot\nCrawl-delay: 9\n")
	for _, c := range []struct {
		p     robots.Profile
		agent string
		want  time.Duration
		ok    bool
	}{
		{robots.Bing, "bingbot", 5 * time.Second, true},
		{robots.Bing, "slowbot", 9 * time.Second, true},
		{robots.Bing, "other", 5 * time.Second, true},
		{robots.Google, "bingbot", 0, false},
		{robots.RFC9309, "bingbot", 0, false},
		{robots.Yandex, "bingbot", 0, false},
	} {
		g, _ := robots.Parse(body, c.p).Group(robots.Token(c.agent))
		d, ok := g.CrawlDelay()
		if d != c.want || ok != c.ok {
			t.Errorf("[%v] %s: CrawlDelay = %v, %v; want %v, %v", c.p, c.agent, d, ok, c.want, c.ok)
		}
	}
}

// Under the record profiles a robot's group is the one record it obeys.
func TestRecordGroup(t *testing.T) {
	body := []byte("User-agent: FooBot\nCrawl-delay: 1\nDisallow: /a\n\nUser-agent: FooBot\nCrawl-delay: 2\nDisallow: /b\n\nUser-agent: *\nDisallow: /\n")
	for _, c := range []struct {
		p     robots.Profile
		lines []int
	}{
		{robots.Google, []int{1, 5}},
		{robots.Draft1996, []int{1}},
		{robots.Strict1994, []int{1}},
	} {
		g, ok := robots.Parse(body, c.p).Group(robots.Token("FooBot"))
		if !ok || !slices.Equal(g.Lines, c.lines) {
			t.Errorf("[%v] Group lines %v, want %v", c.p, g.Lines, c.lines)
		}
	}
	// A record without rule lines is no record: the robot takes "*".
	g, _ := robots.Parse([]byte("User-agent: FooBot\n\nUser-agent: *\nDisallow: /\n"), robots.Draft1996).Group(robots.Token("FooBot"))
	if !g.Global || !slices.Equal(g.Lines, []int{3}) {
		t.Errorf("rule-less record: %+v", g)
	}
}
