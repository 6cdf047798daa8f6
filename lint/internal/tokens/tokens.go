// Package tokens knows the product tokens of real crawlers, for the
// checks that ask whether a User-agent line names one: the tokens of the
// major search, SEO and AI crawlers, whatever the agents registry holds,
// and the registry's own.
package tokens

import (
	"sort"
	"strings"
	"sync"

	"github.com/robotskit/robots/agents"
)

// spec are the crawler tokens the checker knows whatever the registry
// holds: the tokens of the major search, SEO and AI crawlers.
var spec = []string{
	"Googlebot", "Googlebot-Image", "Googlebot-News", "Googlebot-Video",
	"Storebot-Google", "GoogleOther", "Google-InspectionTool", "Google-Extended",
	"AdsBot-Google", "AdsBot-Google-Mobile", "Mediapartners-Google", "APIs-Google",
	"FeedFetcher-Google", "Bingbot", "msnbot", "AdIdxBot", "BingPreview", "Slurp",
	"DuckDuckBot", "Baiduspider", "Baiduspider-image", "Yandex", "YandexBot",
	"YandexImages", "YandexMobileBot", "SeznamBot", "Applebot", "Applebot-Extended",
	"facebookexternalhit", "Twitterbot", "LinkedInBot", "AhrefsBot", "SemrushBot",
	"MJ12bot", "DotBot", "PetalBot", "Sogou", "360Spider", "Yeti", "Exabot", "CCBot",
	"GPTBot", "ChatGPT-User", "OAI-SearchBot", "ClaudeBot", "anthropic-ai",
	"PerplexityBot", "Bytespider", "Amazonbot", "ia_archiver",
}

// googleOnly are the Google tokens of RB645 besides those that start with
// "googlebot".
var googleOnly = []string{
	"storebot-google", "googleother", "google-inspectiontool", "google-extended",
	"adsbot-google", "adsbot-google-mobile", "mediapartners-google", "apis-google",
	"feedfetcher-google",
}

// Known returns the product tokens of known crawlers, lower-cased, sorted
// and without duplicates. The slice is shared: the caller must not modify
// it.
var Known = sync.OnceValue(func() []string {
	set := map[string]bool{}
	for _, t := range spec {
		set[strings.ToLower(t)] = true
	}
	for _, r := range agents.All() {
		set[strings.ToLower(r.Token)] = true
	}
	out := make([]string, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
})

// spellings maps each known token, lower-cased, to the spelling its
// operator uses.
var spellings = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, r := range agents.All() {
		m[strings.ToLower(r.Token)] = r.Token
	}
	for _, t := range spec {
		m[strings.ToLower(t)] = t
	}
	return m
})

// Spelling returns the spelling its operator uses of the known token
// whose lower case is k, and false when k is no known token.
func Spelling(k string) (string, bool) {
	s, ok := spellings()[k]
	return s, ok
}

// IsKnown reports whether s (any case) is the token of a known crawler.
func IsKnown(s string) bool {
	ts := Known()
	s = strings.ToLower(s)
	i := sort.SearchStrings(ts, s)
	return i < len(ts) && ts[i] == s
}

// GoogleOnly reports whether the agent key k (lower case) names only
// Google robots (RB521, RB645).
func GoogleOnly(k string) bool {
	if strings.HasPrefix(k, "googlebot") {
		return true
	}
	for _, t := range googleOnly {
		if k == t {
			return true
		}
	}
	return false
}
