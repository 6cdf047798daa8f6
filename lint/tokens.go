package lint

import (
	"sort"
	"strings"
	"sync"

	"github.com/robotskit/robots/agents"
)

// specTokens are the crawler tokens the checker knows whatever the
// registry holds: the tokens of the major search, SEO and AI crawlers.
var specTokens = []string{
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

// googleOnlyTokens are the Google tokens of RB645 besides
// those that start with "googlebot".
var googleOnlyTokens = []string{
	"storebot-google", "googleother", "google-inspectiontool", "google-extended",
	"adsbot-google", "adsbot-google-mobile", "mediapartners-google", "apis-google",
	"feedfetcher-google",
}

// knownTokens returns the product tokens of known crawlers, lower-cased,
// sorted and without duplicates: those of specTokens and those of the
// agents registry.
var knownTokens = sync.OnceValue(func() []string {
	set := map[string]bool{}
	for _, t := range specTokens {
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

// isKnownToken reports whether s (any case) is the token of a known
// crawler.
func isKnownToken(s string) bool {
	ts := knownTokens()
	s = strings.ToLower(s)
	i := sort.SearchStrings(ts, s)
	return i < len(ts) && ts[i] == s
}

// isGoogleOnly reports whether the agent key k (lower case) names only
// Google robots (RB645).
func isGoogleOnly(k string) bool {
	if strings.HasPrefix(k, "googlebot") {
		return true
	}
	for _, t := range googleOnlyTokens {
		if k == t {
			return true
		}
	}
	return false
}
