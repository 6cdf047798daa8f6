package robots_test

import (
	"fmt"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/syntax"
)

const exampleRobots = `User-agent: *
Disallow: /private/
Allow: /private/press/
Crawl-delay: 2

User-agent: Googlebot
Disallow: /*.pdf$

Sitemap: https://example.com/sitemap.xml
`

func ExampleParse() {
	rules := robots.Parse([]byte(exampleRobots), robots.Google)
	fmt.Println(rules.Allowed("ExampleBot", "https://example.com/private/a"))
	fmt.Println(rules.Allowed("ExampleBot", "https://example.com/private/press/b"))
	fmt.Println(rules.Allowed("Googlebot", "https://example.com/private/a"))
	fmt.Println(rules.Allowed("Googlebot", "https://example.com/doc.pdf"))
	// Output:
	// false
	// true
	// true
	// false
}

func ExampleRules_Decide() {
	rules := robots.Parse([]byte(exampleRobots), robots.Google)
	d := rules.Decide(robots.Token("ExampleBot"), "https://example.com/private/press/b")
	fmt.Println(d.Allowed, d.Line, d.Rule, d.Pattern, d.Group, d.Global)
	// Output: true 3 Allow /private/press/ 1 true
}

// A robot with fallback tokens obeys the first that has a group of its
// own: Googlebot-News has none here, so it obeys Googlebot's.
func ExampleToken() {
	rules := robots.Parse([]byte(exampleRobots), robots.Google)
	d := rules.Decide(robots.Token("Googlebot-News", "Googlebot"), "/x.pdf")
	fmt.Println(d.Allowed, d.Line)
	// Output: false 7
}

// Access says what a file does to a robot as a whole, in the words every
// report of this module uses.
func ExampleRules_Access() {
	rules := robots.Parse([]byte(exampleRobots), robots.Google)
	for _, a := range []robots.Agent{
		robots.Token("ExampleBot"),
		robots.Token("Googlebot-News", "Googlebot"),
		{Tokens: []string{"AdsBot-Google"}, IgnoreGlobal: true},
	} {
		acc := rules.Access(a)
		fmt.Println(a.Tokens[0], acc.State, acc.Via, acc.Line, acc.Group)
	}
	// Output:
	// ExampleBot partly star 0 1
	// Googlebot-News partly fallback 0 6
	// AdsBot-Google open none 0 0
}

func ExampleRules_Group() {
	rules := robots.Parse([]byte(exampleRobots), robots.Google)
	g, _ := rules.Group(robots.Token("ExampleBot"))
	delay, ok := g.CrawlDelay()
	fmt.Println(g.Lines, g.Global, delay, ok)
	fmt.Println(rules.Sitemaps())
	// Output:
	// [1] true 2s true
	// [https://example.com/sitemap.xml]
}

func ExampleCompile() {
	f := syntax.Parse("robots.txt", []byte("User-agent: *\nDisallow: /%7Ejoe/\n"))
	for _, p := range robots.Profiles() {
		fmt.Println(p, robots.Compile(f, p).Allowed("x", "/~joe/index.html"))
	}
	// Output:
	// google true
	// rfc9309 false
	// bing false
	// yandex false
	// draft1996 false
	// strict1994 true
}

// The same file means different things to different robot families: the
// longest match decides for most, the first match in file order for the
// 1996 draft, and the 1994 standard knows no Allow (Moderatobot's
// "Checking robots.txt theory", "Disallow vs. Allow"; RB701 of package lint).
func ExampleProfile() {
	body := []byte("User-agent: *\nDisallow: /shop\nAllow: /shop/sale\n")
	for _, p := range robots.Profiles() {
		d := robots.Parse(body, p).Decide(robots.Token("ExampleBot"), "https://example.com/shop/sale/1")
		fmt.Printf("%-10s allowed=%v line=%d\n", p, d.Allowed, d.Line)
	}
	// Output:
	// google     allowed=true line=3
	// rfc9309    allowed=true line=3
	// bing       allowed=true line=3
	// yandex     allowed=true line=3
	// draft1996  allowed=false line=2
	// strict1994 allowed=false line=2
}

func ExamplePathOf() {
	fmt.Println(robots.PathOf("https://example.com/a/b;p?q=1#frag"))
	fmt.Println(robots.PathOf("https://example.com"))
	// Output:
	// /a/b;p?q=1
	// /
}

// One parse serves every robot: each reads the file with its own profile
// and its own chain of product tokens.
func ExampleReadings() {
	f := syntax.Parse("robots.txt", []byte("User-agent: Googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /shop\nAllow: /shop/sale\n"))
	rs := robots.CompileAll(f)
	for _, c := range []struct {
		p     robots.Profile
		agent robots.Agent
	}{
		{robots.Google, robots.Agent{Tokens: []string{"Googlebot-Image", "Googlebot"}}},
		{robots.Google, robots.Agent{Tokens: []string{"AdsBot-Google"}, IgnoreGlobal: true}},
		{robots.Bing, robots.Agent{Tokens: []string{"bingbot"}}},
		{robots.Draft1996, robots.Agent{Tokens: []string{"Baiduspider"}}},
	} {
		d := rs.Decide(c.p, c.agent, "https://example.com/shop/sale/1")
		fmt.Println(c.agent.Tokens[0], d.Allowed, d.Line, d.Reason)
	}
	// Output:
	// Googlebot-Image true 0 no-match
	// AdsBot-Google true 0 no-group
	// bingbot true 6 matched
	// Baiduspider false 5 matched
}

// LineToken gives the token a User-agent line names: the leading letters,
// '-' and '_' of its value (RFC 9309 §2.2.1).
func ExampleLineToken() {
	fmt.Println(robots.LineToken("Googlebot/2.1"))
	fmt.Println(robots.LineToken("MJ12bot"))
	fmt.Printf("%q\n", robots.LineToken("360Spider"))
	// Output:
	// Googlebot
	// MJ
	// ""
}
