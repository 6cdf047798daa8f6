package usage_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/meta"
	"github.com/robotskit/robots/usage"
)

func robot(t *testing.T, name string) usage.Robot {
	rb, ok := agents.Lookup(name)
	if !ok {
		t.Fatalf("no robot %s in the registry", name)
	}
	a, _ := rb.Reader()
	return usage.Robot{Name: rb.Token, Agent: a}
}

func show(v usage.Verdicts) string {
	var s string
	for p := range robots.NumPurposes {
		x := v.For(p)
		s += fmt.Sprintf("%s=%s", p, x.Value)
		if x.Source != "" {
			s += "(" + x.Source + ")"
		}
		if p < robots.NumPurposes-1 {
			s += " "
		}
	}
	return s
}

// TestDecide holds the combination to its sources: any No wins over a
// Yes and a Yes over none (draft-ietf-aipref-vocab-08 §5.1); a URL the
// robot may not crawl has no verdict (draft-ietf-aipref-attach-05 §3.1);
// a Disallow for Google-Extended withholds Googlebot's fetches from
// Gemini's training and grounding, and one for Applebot-Extended
// Applebot's from Apple's training (Google's and Apple's crawler pages,
// through the registry's Controls); a noimageai speaks of the images
// only.
func TestDecide(t *testing.T) {
	const file = "User-agent: *\nContent-Signal: search=yes, ai-train=yes\nDisallow: /private/\n\n" +
		"User-agent: Google-Extended\nDisallow: /\n\nUser-agent: Applebot-Extended\nDisallow: /news/\n"
	rules := robots.Parse([]byte(file), robots.Google)
	for _, c := range []struct {
		name, robot, url string
		resp             *usage.Response
		crawl            bool
		want             string
	}{
		{"robots.txt alone", "GPTBot", "https://example.com/a", nil, true,
			"search=yes(Content-Signal line 2) ai-input=none ai-train=yes(Content-Signal line 2)"},
		{"Google-Extended governs Googlebot", "Googlebot", "https://example.com/a", nil, true,
			"search=yes(Content-Signal line 2) ai-input=no(robots token Google-Extended) ai-train=no(robots token Google-Extended)"},
		{"Applebot-Extended: training only, its paths only", "Applebot", "https://example.com/news/1", nil, true,
			"search=yes(Content-Signal line 2) ai-input=none ai-train=no(robots token Applebot-Extended)"},
		{"Applebot elsewhere", "Applebot", "https://example.com/a", nil, true,
			"search=yes(Content-Signal line 2) ai-input=none ai-train=yes(Content-Signal line 2)"},
		{"a header's no wins", "GPTBot", "https://example.com/a",
			&usage.Response{Header: http.Header{"Content-Usage": {"train-ai=n, ai-use=y"}}}, true,
			"search=yes(Content-Signal line 2) ai-input=yes(Content-Usage header) ai-train=no(Content-Usage header)"},
		{"tdm-reservation", "GPTBot", "https://example.com/a",
			&usage.Response{Header: http.Header{"Tdm-Reservation": {"1"}}}, true,
			"search=yes(Content-Signal line 2) ai-input=none ai-train=no(tdm-reservation header)"},
		{"noimageai: the images only", "GPTBot", "https://example.com/a",
			&usage.Response{Directives: meta.FromHeader(http.Header{"X-Robots-Tag": {"noimageai"}})}, true,
			"search=yes(Content-Signal line 2) ai-input=none ai-train=yes(Content-Signal line 2)"},
		{"noai", "GPTBot", "https://example.com/a",
			&usage.Response{Directives: meta.FromHeader(http.Header{"X-Robots-Tag": {"noai"}})}, true,
			"search=yes(Content-Signal line 2) ai-input=none ai-train=no(X-Robots-Tag)"},
		{"not crawlable: no verdict", "GPTBot", "https://example.com/private/x",
			&usage.Response{Header: http.Header{"Content-Usage": {"train-ai=n"}}}, false,
			"search=none ai-input=none ai-train=none"},
	} {
		r := usage.Decide(rules, robot(t, c.robot), c.url, c.resp)
		if got := show(r.Usage); r.Crawl.Allowed != c.crawl || got != c.want {
			t.Errorf("%s: crawl %v %s\nwant crawl %v %s", c.name, r.Crawl.Allowed, got, c.crawl, c.want)
		}
	}
}

// TestDecideNoFile: without a robots.txt everything may be crawled and
// only the response speaks.
func TestDecideNoFile(t *testing.T) {
	r := usage.Decide(nil, usage.Robot{Name: "x", Agent: robots.Token("x")}, "https://example.com/",
		&usage.Response{Header: http.Header{"Content-Signal": {"search=yes, ai-input=no"}}})
	if got := show(r.Usage); !r.Crawl.Allowed || got != "search=yes(Content-Signal header) ai-input=no(Content-Signal header) ai-train=none" {
		t.Errorf("no robots.txt: %v %s", r.Crawl.Allowed, got)
	}
}

// TestTDMRank: of the TDMRep statements, the page's meta tags win over
// its header fields and the header fields over the site's tdmrep.json
// (TDMRep #sec-tdm-html, #sec-tdm-file), before the sources combine.
func TestTDMRank(t *testing.T) {
	file, _ := meta.TDMReservation(1, "", "tdmrep.json")
	doc, err := meta.ReadHTML(strings.NewReader(`<html><head><meta name="tdm-reservation" content="1"><meta name="tdm-policy" content="https://example.com/p.json"></head></html>`), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	tag, ok := doc.TDM()
	if !ok || tag.Policy != "https://example.com/p.json" {
		t.Fatalf("the TDMRep meta tags: %+v, %v", tag, ok)
	}
	rb := usage.Robot{Name: "x", Agent: robots.Token("x")}
	for _, c := range []struct {
		name string
		resp *usage.Response
		want string
	}{
		{"the file alone", &usage.Response{TDMRep: &file}, "no(tdmrep.json)"},
		{"the header over the file", &usage.Response{Header: http.Header{"Tdm-Reservation": {"0"}}, TDMRep: &file}, "yes(tdm-reservation header)"},
		{"the meta tags over the header", &usage.Response{Header: http.Header{"Tdm-Reservation": {"0"}}, TDMTag: &tag}, "no(tdm-reservation meta tag)"},
	} {
		v := usage.Decide(nil, rb, "https://example.com/", c.resp).Usage.AITrain
		if got := v.Value + "(" + v.Source + ")"; got != c.want {
			t.Errorf("%s: ai-train %s, want %s", c.name, got, c.want)
		}
	}
}
