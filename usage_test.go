package robots_test

import (
	"fmt"
	"testing"

	"github.com/robotskit/robots"
)

// TestUsage holds Rules.Usage to its sources: the example of
// draft-ietf-aipref-attach-05 §3.4 (longest match; nothing for a
// disallowed path), Content-Signal lines applying to every path
// (contentsignals.org), and any No winning over a Yes
// (draft-ietf-aipref-vocab-08 §5.1).
func TestUsage(t *testing.T) {
	const attach = "User-agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n"
	const signals = "User-Agent: *\nContent-signal: search=yes,ai-train=no\nAllow: /\n\n" +
		"User-agent: *\nContent-Signal: search=yes, ai-input=no\nContent-Usage: /blog/ train-ai=y search=n\nDisallow: /private/\n"
	star := robots.Token("ExampleBot")
	for _, c := range []struct {
		name, file, url string
		crawl           bool
		want            string // search, ai-input, ai-train: value@line
	}{
		{"attach §3.4 /test", attach, "https://example.com/test", true, "none@0 none@0 no@4"},
		{"attach §3.4 /never/test", attach, "https://example.com/never/test", false, "none@0 none@0 none@0"},
		{"attach §3.4 /ai-ok/test", attach, "https://example.com/ai-ok/test", true, "none@0 none@0 yes@5"},
		{"path-less rule, any path", "User-agent: *\nContent-Usage: train-ai=n, ai-use=y\n", "https://example.com/x?q", true, "none@0 yes@2 no@2"},
		{"merged * groups", signals, "https://example.com/", true, "yes@2 no@6 no@2"},
		{"no wins over yes", "User-agent: *\nContent-Signal: ai-train=yes\nContent-Usage: train-ai=n\n", "https://example.com/", true, "none@0 none@0 no@3"},
		{"first line of the winning value", "User-agent: *\nContent-Signal: ai-train=no\nContent-Usage: train-ai=n\n", "https://example.com/", true, "none@0 none@0 no@2"},
		{"disallowed: no usage verdict", signals, "https://example.com/private/x", false, "none@0 none@0 none@0"},
		{"other robot's group", "User-agent: GPTBot\nDisallow: /x\nContent-Usage: train-ai=n\n\nUser-agent: *\nAllow: /\n", "https://example.com/", true, "none@0 none@0 none@0"},
	} {
		r := robots.Parse([]byte(c.file), robots.Google)
		u := r.Usage(star, c.url)
		var got string
		for p := range robots.NumPurposes {
			if p > 0 {
				got += " "
			}
			got += fmt.Sprintf("%s@%d", u.Purposes[p].Value, u.Purposes[p].Line)
		}
		if u.Crawl.Allowed != c.crawl || got != c.want {
			t.Errorf("%s: crawl %v, usage %s; want crawl %v, %s", c.name, u.Crawl.Allowed, got, c.crawl, c.want)
		}
	}
}

func TestLicenses(t *testing.T) {
	r := robots.Parse([]byte("License: https://example.com/license.xml\nUser-agent: *\nDisallow: /x\nLicense: https://example.com/other.xml\n"), robots.Google)
	if got := fmt.Sprint(r.Licenses()); got != "[https://example.com/license.xml https://example.com/other.xml]" {
		t.Errorf("Licenses: %s", got)
	}
}
