package agents_test

import (
	"fmt"
	"strings"

	"github.com/robotskit/robots/agents"
)

func ExampleLookup() {
	r, ok := agents.Lookup("googlebot-image")
	fmt.Println(ok, r.Token, r.Owner, r.Purpose, r.Profile)
	fmt.Println(r.Tokens())

	y, _ := agents.Lookup("YANDEXBOT")
	fmt.Println(y.Tokens())

	a, _ := agents.Lookup("applebot")
	fmt.Println(a.Tokens())
	// Output:
	// true Googlebot-Image Google search google
	// [Googlebot-Image Googlebot]
	// [YandexBot Yandex]
	// [Applebot Googlebot]
}

func ExampleHeaderToken() {
	for _, ua := range []string{
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		"Googlebot-Image/1.0",
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
		"MJ12bot/v1.4.8",
		"FooCrawler/1.0 (+http://foo.example)",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
	} {
		fmt.Printf("%q\n", agents.HeaderToken(ua))
	}
	// Output:
	// "Googlebot"
	// "Googlebot-Image"
	// "GPTBot"
	// "MJ12bot"
	// "FooCrawler"
	// ""
}

func ExampleFromUserAgent() {
	r, ok := agents.FromUserAgent("Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)")
	fmt.Println(ok, r.Token, r.Owner, r.Profile, r.Obeys)
	// Output: true bingbot Microsoft bing yes
}

func ExampleByPurpose() {
	for _, r := range agents.ByPurpose(agents.Social) {
		fmt.Println(r.Token, r.Obeys)
	}
	// Output:
	// facebookexternalhit no
	// LinkedInBot unknown
	// Twitterbot yes
}

func ExampleClosest() {
	name := "Gogglebot"
	if _, ok := agents.Lookup(name); !ok {
		if near := agents.Closest(name, 3); len(near) > 0 {
			fmt.Printf("unknown robot %q; did you mean %s?\n", name, strings.Join(near, " or "))
		}
	}
	// Output: unknown robot "Gogglebot"; did you mean Googlebot?
}

func ExampleRobot_WholeName() {
	for _, token := range []string{"Googlebot", "MJ12bot", "archive.org_bot"} {
		r, _ := agents.Lookup(token)
		fmt.Println(r.Token, r.WholeName(), r.Reads)
	}
	// Output:
	// Googlebot false product token
	// MJ12bot true whole name
	// archive.org_bot true whole name
}

func ExampleControlsFor() {
	for _, token := range []string{"Googlebot-Image", "Applebot", "GPTBot"} {
		for _, c := range agents.ControlsFor(token) {
			fmt.Println(token, "is governed by", c.Token, "withholding", c.Controls.Purposes)
		}
	}
	// Output:
	// Googlebot-Image is governed by Google-Extended withholding [ai-input ai-train]
	// Applebot is governed by Applebot-Extended withholding [ai-train]
}

func ExamplePurpose_Usage() {
	for _, token := range []string{"Googlebot", "GPTBot", "OAI-SearchBot", "ChatGPT-User", "AhrefsBot"} {
		r, _ := agents.Lookup(token)
		fmt.Println(r.Token, r.Purpose, r.Purpose.Usage())
	}
	// Output:
	// Googlebot search [search]
	// GPTBot ai-training [ai-train]
	// OAI-SearchBot ai-search [ai-input]
	// ChatGPT-User ai-user [ai-input]
	// AhrefsBot seo []
}
