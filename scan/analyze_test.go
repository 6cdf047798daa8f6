package scan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
)

// outs returns the Outcomes of a row from the outcome under each policy,
// in the order of fetch.Policies: google, rfc9309, bing, yandex,
// draft1996, mandelbot.
func rowOutcomes(g, r, b, y, d, m string) []Outcome {
	return []Outcome{{"google", g}, {"rfc9309", r}, {"bing", b}, {"yandex", y}, {"draft1996", d}, {"mandelbot", m}}
}

func allOutcomes(o string) []Outcome { return rowOutcomes(o, o, o, o, o, o) }

// testRobots are the robots of the table tests: one of each way of
// reading a file that the tests exercise. OldBot is made here: no robot of
// the registry reads statuses as the 1996 draft does.
func testRobots(t testing.TB) []agents.Robot {
	t.Helper()
	rbs, err := SelectRobots("GPTBot,Googlebot,Googlebot-Image,AdsBot-Google,YandexBot,bingbot")
	if err != nil {
		t.Fatal(err)
	}
	return append(rbs, agents.Robot{Token: "OldBot", Profile: "draft1996", Fetch: "draft1996"})
}

// verdicts builds the Verdicts of testRobots from "state via line
// [group [crawl-delay|- [ai-train]]]" strings; ai-train is "none" unless
// given.
func testVerdicts(vs ...string) []Verdict {
	names := []string{"GPTBot", "Googlebot", "Googlebot-Image", "AdsBot-Google", "YandexBot", "bingbot", "OldBot"}
	out := make([]Verdict, len(vs))
	for i, s := range vs {
		v := Verdict{AITrain: "none"}
		f := strings.Fields(s)
		v.Robot, v.State, v.Via = names[i], f[0], f[1]
		v.Line, _ = strconv.Atoi(f[2])
		if len(f) > 3 {
			v.Group, _ = strconv.Atoi(f[3])
		}
		if len(f) > 4 && f[4] != "-" {
			d, err := time.ParseDuration(f[4])
			if err != nil {
				panic(err)
			}
			v.CrawlDelay = d.Seconds()
		}
		if len(f) > 5 {
			v.AITrain = f[5]
		}
		out[i] = v
	}
	return out
}

// The same verdict for every test robot.
func sameTestVerdicts(s string) []Verdict {
	return testVerdicts(s, s, s, s, s, s, s)
}

func keyCounts(pairs ...any) []KeyCount {
	var out []KeyCount
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, KeyCount{pairs[i].(string), pairs[i+1].(int)})
	}
	return out
}

func agentValue(value, lower, token string, line int) AgentValue {
	return AgentValue{Value: value, Lower: lower, Token: token, Line: line}
}

const testURL = "https://www.Example.co.uk/robots.txt"

// TestAnalyze checks every field of the row of small captures.
func TestAnalyze(t *testing.T) {
	rbs := testRobots(t)
	when := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	big := "User-agent: *\n" + strings.Repeat("Disallow: /x\n", robots.MaxBytes/13) + "Disallow: /\n"
	bigRules := strings.Count(big[:robots.MaxBytes], "\n") - 1 // the cut line and the User-agent line
	tests := []struct {
		name string
		c    Capture
		want Row // URL, Host, Domain, Time, Source and Offset are filled in
	}{{
		// RFC 9309 §2.2.1: a group that names the robot; the "*" group
		// for the others; Crawl-delay (Bing's and Yandex's
		// documentation); a byte order mark skipped (Google).
		name: "named, star, crawl-delay, BOM",
		c: Capture{Status: 200, Header: http.Header{"Content-Type": {"text/plain; charset=utf-8"}},
			Body: []byte("\ufeffUser-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\nCrawl-delay: 2.5\nSitemap: https://example.co.uk/s.xml\n")},
		want: Row{Status: 200, ContentType: "text/plain", Bytes: 123, Encoding: EncodingUTF8, BOM: true, Outcomes: allOutcomes("rules"),
			Directives: keyCounts("user-agent", 2, "disallow", 2, "crawl-delay", 1, "sitemap", 1),
			Groups:     2, Rules: 2, Sitemaps: 1,
			Agents: []AgentValue{agentValue("GPTBot", "gptbot", "GPTBot", 1), agentValue("*", "*", "", 4)},
			Robots: testVerdicts("blocked named 2 1", "partly star 0 4 2.5s", "partly star 0 4 2.5s", "open none 0 0", "partly star 0 4 2.5s", "partly star 0 4 2.5s", "partly star 0 4 2.5s")},
	}, {
		name: "blocked through *",
		c:    Capture{Status: 200, Body: []byte("User-agent: *\nDisallow: /\n")},
		want: Row{Status: 200, Bytes: 26, Outcomes: allOutcomes("rules"), Directives: keyCounts("user-agent", 1, "disallow", 1),
			Groups: 1, Rules: 1, Agents: []AgentValue{agentValue("*", "*", "", 1)},
			// AdsBot-Google obeys only groups that name it (Google's
			// crawler documentation).
			Robots: testVerdicts("blocked star 2 1", "blocked star 2 1", "blocked star 2 1", "open none 0 0", "blocked star 2 1", "blocked star 2 1", "blocked star 2 1")},
	}, {
		// Googlebot-Image obeys Googlebot's group when none names it
		// (Google's crawler documentation); an empty Disallow forbids
		// nothing (RFC 9309 §2.2.2). Google-Extended, named by no group,
		// follows "*" (Google's crawler documentation): its Disallow: /
		// withholds what Googlebot and Googlebot-Image may fetch from
		// training (usage.Decide).
		name: "fallback, empty disallow, partly",
		c: Capture{Status: 200, Body: []byte("User-agent: googlebot\nDisallow: /search\n\nUser-agent: *\nDisallow: /\n\n" +
			"User-agent: YandexBot\nDisallow:\n")},
		want: Row{Status: 200, Bytes: 100, Outcomes: allOutcomes("rules"), Directives: keyCounts("user-agent", 3, "disallow", 3),
			Groups: 3, Rules: 3,
			Agents: []AgentValue{agentValue("googlebot", "googlebot", "googlebot", 1), agentValue("*", "*", "", 4), agentValue("YandexBot", "yandexbot", "YandexBot", 7)},
			Robots: testVerdicts("blocked star 5 4", "partly named 0 1 - no", "partly fallback 0 1 - no", "open none 0 0", "open named 8 7", "blocked star 5 4", "blocked star 5 4")},
	}, {
		name: "AdsBot ignores *, named group",
		c:    Capture{Status: 200, Body: []byte("User-agent: *\nDisallow: /\n\nUser-agent: AdsBot-Google\nDisallow: /ads/\nAllow: /\n")},
		want: Row{Status: 200, Bytes: 78, Outcomes: allOutcomes("rules"), Directives: keyCounts("user-agent", 2, "disallow", 2, "allow", 1),
			Groups: 2, Rules: 3, Agents: []AgentValue{agentValue("*", "*", "", 1), agentValue("AdsBot-Google", "adsbot-google", "AdsBot-Google", 4)},
			Robots: testVerdicts("blocked star 2 1", "blocked star 2 1", "blocked star 2 1", "partly named 6 4", "blocked star 2 1", "blocked star 2 1", "blocked star 2 1")},
	}, {
		// RFC 9309 §2.3.1.3: no file, no restrictions.
		name: "404",
		c:    Capture{Status: 404, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("<html><body>User-agent: *<br>Disallow: /</body></html>")},
		want: Row{Status: 404, ContentType: "text/html", Bytes: 54, Outcomes: allOutcomes("unavailable"), Robots: sameTestVerdicts("open none 0 0")},
	}, {
		// The 1996 draft §3.1: 401 and 403 forbid the whole site; RFC
		// 9309 §2.3.1.3 and Google: no file.
		name: "403",
		c:    Capture{Status: 403},
		want: Row{Status: 403, Outcomes: rowOutcomes("unavailable", "unavailable", "unavailable", "unavailable", "forbidden", "unavailable"),
			Robots: testVerdicts("open none 0 0", "open none 0 0", "open none 0 0", "open none 0 0", "open none 0 0", "open none 0 0", "blocked none 0 0")},
	}, {
		// RFC 9309 §2.3.1.4: complete disallow; Yandex's robots.txt
		// help: only a 200 counts.
		name: "503",
		c:    Capture{Status: 503, Body: []byte("Service Unavailable")},
		want: Row{Status: 503, Bytes: 19, Outcomes: rowOutcomes("unreachable", "unreachable", "unreachable", "unavailable", "unreachable", "unreachable"),
			Robots: testVerdicts("blocked none 0 0", "blocked none 0 0", "blocked none 0 0", "blocked none 0 0", "open none 0 0", "blocked none 0 0", "blocked none 0 0")},
	}, {
		// Google's robots.txt documentation: a 5xx page that says the
		// file is not found is read as a 404.
		name: "503 not found",
		c:    Capture{Status: 503, Body: []byte("Error: File Not Found")},
		want: Row{Status: 503, Bytes: 21, Outcomes: rowOutcomes("unavailable", "unreachable", "unreachable", "unavailable", "unreachable", "unavailable"),
			Robots: testVerdicts("blocked none 0 0", "open none 0 0", "open none 0 0", "open none 0 0", "open none 0 0", "blocked none 0 0", "blocked none 0 0")},
	}, {
		// Google counts 429 with the 5xx; RFC 9309 reads it as a 4xx.
		name: "429",
		c:    Capture{Status: 429},
		want: Row{Status: 429, Outcomes: rowOutcomes("unreachable", "unavailable", "unavailable", "unavailable", "unavailable", "unavailable"),
			Robots: testVerdicts("open none 0 0", "blocked none 0 0", "blocked none 0 0", "blocked none 0 0", "open none 0 0", "open none 0 0", "open none 0 0")},
	}, {
		// A redirect whose target is another record: no file for every
		// policy (fetch.Policy.Classify); RFC 9110 §10.2.2.
		name: "301",
		c:    Capture{Status: 301, Header: http.Header{"Location": {"/robots-new.txt#x"}}, Body: []byte("moved")},
		want: Row{Status: 301, RedirectTo: "https://www.Example.co.uk/robots-new.txt#x", Bytes: 5, Outcomes: allOutcomes("unavailable"),
			Robots: sameTestVerdicts("open none 0 0")},
	}, {
		name: "301 without Location",
		c:    Capture{Status: 301},
		want: Row{Status: 301, Outcomes: rowOutcomes("unreachable", "unreachable", "unreachable", "unavailable", "unreachable", "unreachable"),
			Robots: testVerdicts("blocked none 0 0", "blocked none 0 0", "blocked none 0 0", "blocked none 0 0", "open none 0 0", "blocked none 0 0", "blocked none 0 0")},
	}, {
		// RB205: a soft 404 that serves an HTML page with 200 (WHATWG
		// MIME Sniffing §7.1). Robots read its lines and find no rule.
		name: "HTML page",
		c: Capture{Status: 200, Header: http.Header{"Content-Type": {"text/html; charset=UTF-8"}},
			Body: []byte("\n  <!DOCTYPE html>\n<html lang=en><head><title>Page not found</title></head></html>\n")},
		want: Row{Status: 200, ContentType: "text/html", HTML: true, Bytes: 83, Outcomes: allOutcomes("rules"),
			Robots: sameTestVerdicts("open none 0 0")},
	}, {
		name: "robots.txt served as text/html",
		c:    Capture{Status: 200, Header: http.Header{"Content-Type": {"Text/HTML"}}, Body: []byte("User-agent: *\nDisallow: /cgi-bin/ # <html>\n")},
		want: Row{Status: 200, ContentType: "text/html", Bytes: 43, Outcomes: allOutcomes("rules"), Directives: keyCounts("user-agent", 1, "disallow", 1),
			Groups: 1, Rules: 1, Agents: []AgentValue{agentValue("*", "*", "", 1)},
			Robots: testVerdicts("partly star 0 1", "partly star 0 1", "partly star 0 1", "open none 0 0", "partly star 0 1", "partly star 0 1", "partly star 0 1")},
	}, {
		name: "text/html page with text before the tag",
		c:    Capture{Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("Warning: include(): failed\n<html>\n<body>Hello</body></html>")},
		want: Row{Status: 200, ContentType: "text/html", HTML: true, Bytes: 59, Outcomes: allOutcomes("rules"),
			Directives: keyCounts("warning", 1), Robots: sameTestVerdicts("open none 0 0")},
	}, {
		// Google reads 500 KiB and ignores the rest and the line cut
		// there; Yandex ignores the whole file (RFC 9309 §2.5; Yandex's
		// robots.txt help).
		name: "over 500 KiB",
		c:    Capture{Status: 200, Body: []byte(big[:MaxBody]), Size: int64(len(big))},
		want: Row{Status: 200, Bytes: int64(len(big)), OverLimit: true,
			Outcomes:   rowOutcomes("rules", "rules", "rules", "unavailable", "rules", "rules"),
			Directives: keyCounts("user-agent", 1, "disallow", bigRules), Groups: 1, Rules: bigRules,
			Agents: []AgentValue{agentValue("*", "*", "", 1)},
			Robots: testVerdicts("partly star 0 1", "partly star 0 1", "partly star 0 1", "open none 0 0", "open none 0 0", "partly star 0 1", "partly star 0 1")},
	}, {
		// A file on disk: no status, read as 200.
		name: "no status",
		c:    Capture{Body: []byte("user-agent: BINGBOT\ndisallow: /\nNoindex: /x\nDisalow: /y\n")},
		want: Row{Status: 200, Bytes: 56, Outcomes: allOutcomes("rules"),
			Directives: keyCounts("user-agent", 1, "disallow", 1, "noindex", 1, "disalow", 1),
			// "Disalow" is a Disallow to Google only (google/robotstxt).
			Groups: 1, Rules: 2, Agents: []AgentValue{agentValue("BINGBOT", "bingbot", "BINGBOT", 1)},
			Robots: testVerdicts("open none 0 0", "open none 0 0", "open none 0 0", "open none 0 0", "open none 0 0", "blocked named 2 1", "open none 0 0")},
	}, {
		// Yandex's robots.txt help: a blank line ends a group, and
		// YandexBot falls back to Yandex's group.
		name: "yandex blank line",
		c:    Capture{Status: 200, Body: []byte("User-agent: Yandex\n\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /\nUser-agent: Googlebot-Image\nAllow: /\n")},
		want: Row{Status: 200, Bytes: 104, Outcomes: allOutcomes("rules"), Directives: keyCounts("user-agent", 3, "disallow", 2, "allow", 1),
			Groups: 3, Rules: 3,
			Agents: []AgentValue{agentValue("Yandex", "yandex", "Yandex", 1), agentValue("Googlebot", "googlebot", "Googlebot", 5), agentValue("Googlebot-Image", "googlebot-image", "Googlebot-Image", 7)},
			Robots: testVerdicts("open none 0 0", "blocked named 6 5", "open named 8 7", "open none 0 0", "open fallback 0 1", "open none 0 0", "open none 0 0")},
	}, {
		// Usage preferences (issue 29): the lines as written, in file
		// order, License outside any group included; ai-train for "/" as
		// usage.Decide gives it. GPTBot's own group says yes; the "*"
		// group's Content-Signal says no to Googlebot, which
		// Google-Extended's Disallow withholds from training as well, and
		// to Googlebot-Image; Googlebot's group, read through
		// Content-Usage's longest match, says nothing of "/" but
		// Google-Extended still says no. AdsBot-Google skips "*" and
		// Google-Extended does not govern it: none. A robot that may not
		// crawl "/" (bingbot) has no preference, and OldBot's 1996 reading
		// finds "*" with its Content-Signal.
		name: "usage lines",
		c: Capture{Status: 200, Body: []byte("License: https://example.co.uk/license.xml\n" +
			"User-agent: *\nContent-Signal: search=yes, ai-train=no\nDisallow: /private/\n\n" +
			"User-agent: GPTBot\nContent-Usage: train-ai=y\nAllow: /\n\n" +
			"User-agent: Googlebot\nContent-Usage: /news/ train-ai=y\nAllow: /\n\n" +
			"User-agent: Google-Extended\nDisallow: /\n\nUser-agent: bingbot\nContent-Signal: ai-train=yes\nDisallow: /\n" +
			"License: https://example.co.uk/more.xml\n")},
		want: Row{Status: 200, Bytes: 380, Outcomes: allOutcomes("rules"),
			Directives: keyCounts("license", 2, "user-agent", 5, "content-signal", 2, "disallow", 3, "content-usage", 2, "allow", 2),
			Groups:     5, Rules: 5,
			Agents: []AgentValue{agentValue("*", "*", "", 2), agentValue("GPTBot", "gptbot", "GPTBot", 6), agentValue("Googlebot", "googlebot", "Googlebot", 10),
				agentValue("Google-Extended", "google-extended", "Google-Extended", 14), agentValue("bingbot", "bingbot", "bingbot", 17)},
			ContentSignal: []string{"search=yes, ai-train=no", "ai-train=yes"},
			ContentUsage:  []string{"train-ai=y", "/news/ train-ai=y"},
			License:       []string{"https://example.co.uk/license.xml", "https://example.co.uk/more.xml"},
			Robots: testVerdicts("open named 8 6 - yes", "open named 12 10 - no", "open fallback 12 10 - no", "open none 0 0",
				"partly star 0 2 - no", "blocked named 19 17", "partly star 0 2 - no")},
	}, {
		// A file that names Google-Extended and not Googlebot: Googlebot
		// reads "*", which says yes, but the control token's group says
		// no for Google's crawlers (and not for AdsBot-Google, which it
		// does not govern); the "*" shortcut must not give Googlebot the
		// verdict of the robots the file does not name.
		name: "control token only",
		c:    Capture{Status: 200, Body: []byte("User-agent: Google-Extended\nDisallow: /\n\nUser-agent: *\nContent-Signal: ai-train=yes\nAllow: /\n")},
		want: Row{Status: 200, Bytes: 93, Outcomes: allOutcomes("rules"),
			Directives: keyCounts("user-agent", 2, "disallow", 1, "content-signal", 1, "allow", 1),
			Groups:     2, Rules: 2,
			Agents:        []AgentValue{agentValue("Google-Extended", "google-extended", "Google-Extended", 1), agentValue("*", "*", "", 4)},
			ContentSignal: []string{"ai-train=yes"},
			Robots: testVerdicts("open star 6 4 - yes", "open star 6 4 - no", "open star 6 4 - no", "open none 0 0",
				"open star 6 4 - yes", "open star 6 4 - yes", "open star 6 4 - yes")},
	}, {
		name: "revisit",
		c:    Capture{Status: 200, Revisit: true, Truncated: true},
		want: Row{Status: 200, Revisit: true, Truncated: true, Outcomes: allOutcomes("rules")},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.c
			c.URL, c.Time, c.Source, c.Offset = testURL, when, "test.warc.gz", 1234
			if c.Size == 0 {
				c.Size = int64(len(c.Body))
			}
			want := tt.want
			want.URL, want.Host, want.Domain, want.Time, want.Source, want.Offset = testURL, "www.example.co.uk", "example.co.uk", when, "test.warc.gz", 1234
			if want.Encoding == "" && len(c.Body) > 0 && want.Status/100 == 2 {
				want.Encoding = EncodingUTF8 // the bodies of the table are ASCII
			}
			got := Analyze(&c, &Options{Robots: rbs})
			for _, d := range rowDiff(&got, &want) {
				t.Error(d)
			}
			// Without the "*" shortcut, the same verdicts.
			if slow := analyzeSlow(&c, &Options{Robots: rbs}); !reflect.DeepEqual(slow.Robots, got.Robots) {
				t.Errorf("without the shortcut: %+v\nwith: %+v", slow.Robots, got.Robots)
			}
		})
	}
}

// rowDiff lists the fields in which two rows differ.
func rowDiff(got, want *Row) []string {
	var out []string
	g, w := reflect.ValueOf(got).Elem(), reflect.ValueOf(want).Elem()
	for i := range g.NumField() {
		if gf, wf := g.Field(i).Interface(), w.Field(i).Interface(); !reflect.DeepEqual(gf, wf) {
			gj, _ := json.Marshal(gf)
			wj, _ := json.Marshal(wf)
			out = append(out, fmt.Sprintf("%s:\n got %.2000s\nwant %.2000s", g.Type().Field(i).Name, gj, wj))
		}
	}
	return out
}

// analyzeSlow is Analyze without the "*" shortcut: every robot read by
// its own tokens.
func analyzeSlow(c *Capture, o *Options) Row {
	a := analyzer{c: c, o: o}
	a.run()
	return a.row
}

// TestAnalyzeHostDomain checks Host and Domain (the public suffix list:
// golang.org/x/net/publicsuffix).
func TestAnalyzeHostDomain(t *testing.T) {
	tests := []struct{ url, host, domain string }{
		{"https://www.example.com/robots.txt", "www.example.com", "example.com"},
		{"http://Sub.Example.CO.UK:8080/robots.txt", "sub.example.co.uk", "example.co.uk"},
		{"https://example.com./robots.txt", "example.com.", "example.com"},
		{"http://192.0.2.7/robots.txt", "192.0.2.7", ""},
		{"http://[2001:db8::1]:81/robots.txt", "2001:db8::1", ""},
		{"https://co.uk/robots.txt", "co.uk", ""},
		{"https://xn--bcher-kva.example/robots.txt", "xn--bcher-kva.example", "xn--bcher-kva.example"},
		{"not a url\x7f", "", ""},
		{"", "", ""},
		{"/robots.txt", "", ""},
	}
	for _, tt := range tests {
		r := Analyze(&Capture{URL: tt.url, Status: 404}, nil)
		if r.Host != tt.host || r.Domain != tt.domain {
			t.Errorf("%q: host %q, domain %q; want %q, %q", tt.url, r.Host, r.Domain, tt.host, tt.domain)
		}
	}
}

// TestAnalyzeHTML checks the HTML sniffing (internal/sniff.HTML: WHATWG
// MIME Sniffing §7.1, and a tag with no User-agent line).
func TestAnalyzeHTML(t *testing.T) {
	tests := []struct {
		ct, body string
		want     bool
	}{
		{"", "<!doctype HTML><p>x", true},
		{"text/plain", "\ufeff \t\r\n<HTML>", true},
		{"", "<head>\n", true},
		{"", "<script src=x></script>", true},
		{"", "<!-- comment -->", true},
		{"", "<p>User-agent: *</p>", true},
		{"", "<htmlx>", false},
		{"", "<?xml version=\"1.0\"?><urlset/>", false},
		{"", "User-agent: *\nDisallow: /<html>\n", false},
		{"text/html", "User-agent: *\nDisallow: /\n<html>\n", false}, // directives: a robots.txt
		{"text/html", "oops\n<body>\n", true},
		{"application/xhtml+xml", "x <html>", true},
		{"text/plain", "oops\n<body>\n", true}, // the declared type plays no part
		{"text/html", "", false},
		{"", "<", false},
	}
	for _, tt := range tests {
		r := Analyze(&Capture{Status: 200, Header: http.Header{"Content-Type": {tt.ct}}, Body: []byte(tt.body)}, nil)
		if r.HTML != tt.want {
			t.Errorf("%q as %q: HTML = %v, want %v", tt.body, tt.ct, r.HTML, tt.want)
		}
	}
}

// TestAnalyzeDirectives checks the counts of keys: lower-cased as
// written, unknown keys and misspellings included, comments, blank and
// invalid lines left out; many distinct keys.
func TestAnalyzeDirectives(t *testing.T) {
	var b strings.Builder
	b.WriteString("# comment\n\nUSER-AGENT: *\nDisallow /a\nhello world\nno separator here\n: empty key\n")
	for i := range 40 {
		b.WriteString("X-Key-" + string(rune('A'+i%26)) + string(rune('a'+i/26)) + ": v\n")
	}
	b.WriteString("x-key-aa: again\nCrawl-Delay: 1 # c\nsite-map: /s.xml\n")
	r := Analyze(&Capture{Status: 200, Body: []byte(b.String())}, nil)
	want := keyCounts("user-agent", 1, "disallow", 1)
	for i := range 40 {
		k := "x-key-" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		n := 1
		if k == "x-key-aa" {
			n = 2
		}
		want = append(want, KeyCount{k, n})
	}
	want = append(want, keyCounts("crawl-delay", 1, "site-map", 1)...)
	if !reflect.DeepEqual(r.Directives, want) {
		t.Errorf("Directives = %v\nwant %v", r.Directives, want)
	}
	if r.Groups != 1 || r.Rules != 1 || r.Sitemaps != 1 {
		t.Errorf("groups %d, rules %d, sitemaps %d; want 1, 1, 1", r.Groups, r.Rules, r.Sitemaps)
	}
}

// TestAnalyzeGroups checks the counts of groups and rules as Google's
// parser makes groups (RFC 9309 §2.1; google/robotstxt): consecutive
// User-agent lines share a group, blank lines do not end one, rules
// before the first User-agent line belong to none.
func TestAnalyzeGroups(t *testing.T) {
	tests := []struct {
		body          string
		groups, rules int
	}{
		{"Disallow: /\nUser-agent: a\nUser-agent: b\n\nDisallow: /x\nAllow: /y\n", 1, 2},
		{"User-agent: a\nDisallow: /\nUser-agent: b\nDisallow: /\n", 2, 2},
		{"User-agent: a\nCrawl-delay: 1\nUser-agent: b\nDisallow: /\n", 1, 1},
		{"User-agent: a\nUser-agent: b\n", 1, 0},
		{"Sitemap: /s\nDisallow: /\n", 0, 0},
	}
	for _, tt := range tests {
		r := Analyze(&Capture{Status: 200, Body: []byte(tt.body)}, nil)
		if r.Groups != tt.groups || r.Rules != tt.rules {
			t.Errorf("%q: %d groups, %d rules; want %d, %d", tt.body, r.Groups, r.Rules, tt.groups, tt.rules)
		}
	}
}

// TestAnalyzeWholeName checks a robot whose token is not an RFC 9309
// product token, read by its whole name as its operator documents
// (https://mj12bot.com/), and a value's product token (RFC 9309 §2.2.1).
func TestAnalyzeWholeName(t *testing.T) {
	rbs, err := SelectRobots("MJ12bot,GPTBot")
	if err != nil {
		t.Fatal(err)
	}
	c := &Capture{Status: 200, Body: []byte("User-agent: MJ12bot/v1.4\nDisallow: /\n\nUser-agent: gptbot/1.0 (+https://openai.com/gptbot)\nDisallow: /x\n")}
	r := Analyze(c, &Options{Robots: rbs})
	want := []Verdict{{Robot: "MJ12bot", State: "blocked", Via: "named", Line: 2, Group: 1, AITrain: "none"},
		{Robot: "GPTBot", State: "partly", Via: "named", Group: 4, AITrain: "none"}}
	if !reflect.DeepEqual(r.Robots, want) {
		t.Errorf("Robots = %+v, want %+v", r.Robots, want)
	}
	if r.Agents[0].Token != "MJ" || r.Agents[1].Token != "gptbot" || r.Agents[1].Lower != "gptbot/1.0 (+https://openai.com/gptbot)" {
		t.Errorf("Agents = %+v", r.Agents)
	}
}

// TestAnalyzeShared checks that robots that read the file alike share
// one verdict and that a repeated robot gets the same verdict twice.
func TestAnalyzeShared(t *testing.T) {
	rbs, err := SelectRobots("YandexBot,YandexImages,GPTBot,ClaudeBot")
	if err != nil {
		t.Fatal(err)
	}
	rbs = append(rbs, rbs[0])
	c := &Capture{Status: 200, Body: []byte("User-agent: Yandex\nDisallow: /a\nCrawl-delay: 3\n\nUser-agent: *\nDisallow: /\n")}
	r := Analyze(c, &Options{Robots: rbs})
	want := []Verdict{
		{Robot: "YandexBot", State: "partly", Via: "fallback", Group: 1, CrawlDelay: 3, AITrain: "none"},
		{Robot: "YandexImages", State: "partly", Via: "fallback", Group: 1, CrawlDelay: 3, AITrain: "none"},
		{Robot: "GPTBot", State: "blocked", Via: "star", Line: 6, Group: 5, AITrain: "none"},
		{Robot: "ClaudeBot", State: "blocked", Via: "star", Line: 6, Group: 5, AITrain: "none"},
		{Robot: "YandexBot", State: "partly", Via: "fallback", Group: 1, CrawlDelay: 3, AITrain: "none"},
	}
	if !reflect.DeepEqual(r.Robots, want) {
		t.Errorf("Robots = %+v\nwant %+v", r.Robots, want)
	}
}

// TestAnalyzeLint checks the codes of the checker and its budget.
func TestAnalyzeLint(t *testing.T) {
	c := &Capture{URL: "https://example.com/robots.txt", Status: 200,
		Body: []byte("User-agent: *\nDisalow: /x\nDisallow: /x\nFoo: bar\n")}
	r := Analyze(c, &Options{Lint: true})
	if r.LintTimeout || len(r.Lint) == 0 {
		t.Fatalf("Lint = %v, timeout %v", r.Lint, r.LintTimeout)
	}
	for i := 1; i < len(r.Lint); i++ {
		if r.Lint[i-1] >= r.Lint[i] {
			t.Errorf("codes not sorted and distinct: %v", r.Lint)
		}
	}
	if r2 := Analyze(c, nil); r2.Lint != nil {
		t.Errorf("Lint without Options.Lint: %v", r2.Lint)
	}
	// A 404 is checked as a fetch: its body is no robots.txt.
	r404 := Analyze(&Capture{URL: "https://example.com/robots.txt", Status: 404, Body: []byte("Disalow: /x\n")}, &Options{Lint: true})
	for _, code := range r404.Lint {
		if code >= "RB300" {
			t.Errorf("content check %s on a 404", code)
		}
	}
	// A work budget too small for any check; the same capture fits in
	// the default at every run.
	rt := Analyze(c, &Options{Lint: true, LintWork: 1})
	if !rt.LintTimeout || rt.Lint != nil {
		t.Errorf("with LintWork 1: Lint = %v, timeout %v", rt.Lint, rt.LintTimeout)
	}
	for range 3 {
		if again := Analyze(c, &Options{Lint: true}); again.LintTimeout || !reflect.DeepEqual(again.Lint, r.Lint) {
			t.Errorf("again: Lint = %v, timeout %v; first %v", again.Lint, again.LintTimeout, r.Lint)
		}
	}
}

// TestAnalyzeNil checks the nil capture and options.
func TestAnalyzeNil(t *testing.T) {
	if r := Analyze(nil, nil); !reflect.DeepEqual(r, Row{}) {
		t.Errorf("Analyze(nil) = %+v", r)
	}
	r := Analyze(&Capture{}, nil)
	if r.Status != 200 || r.Robots != nil || len(r.Outcomes) != 6 {
		t.Errorf("Analyze(empty) = %+v", r)
	}
}

// TestAnalyzePure checks that Analyze changes neither its capture nor
// its options.
func TestAnalyzePure(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /x\n")
	c := &Capture{URL: testURL, Status: 200, Header: http.Header{"Content-Type": {"text/plain"}}, Body: body, Size: int64(len(body))}
	o := &Options{Robots: testRobots(t), Lint: true}
	c0, o0 := *c, *o
	c0.Body = bytes.Clone(body)
	o0.Robots = append([]agents.Robot(nil), o.Robots...)
	Analyze(c, o)
	if !reflect.DeepEqual(*c, c0) || !reflect.DeepEqual(*o, o0) {
		t.Error("Analyze changed its arguments")
	}
}

// TestSelectRobots checks the selections of the -robots flag.
func TestSelectRobots(t *testing.T) {
	count := func(ps ...agents.Purpose) int {
		n := 0
		for _, p := range ps {
			n += len(agents.ByPurpose(p))
		}
		return n
	}
	tests := []struct {
		spec string
		n    int
	}{
		{"", count(agents.Search, agents.AITraining, agents.AISearch, agents.AIUser)},
		{"all", len(agents.All())},
		{"ALL", len(agents.All())},
		{"search", count(agents.Search)},
		{"ai", count(agents.AITraining, agents.AISearch, agents.AIUser)},
		{"gptbot, GPTBot,ClaudeBot,", 2},
		{"search,GPTBot,Googlebot", count(agents.Search) + 1},
	}
	for _, tt := range tests {
		rbs, err := SelectRobots(tt.spec)
		if err != nil || len(rbs) != tt.n {
			t.Errorf("SelectRobots(%q): %d robots, %v; want %d", tt.spec, len(rbs), err, tt.n)
		}
	}
	rbs, _ := SelectRobots("")
	if rbs[0].Purpose != agents.Search || rbs[len(rbs)-1].Purpose == agents.Search {
		t.Errorf("default: search robots first, then AI robots")
	}
	_, err := SelectRobots("GPTBot,Gogglebot,nosuchbotatallxyz")
	if err == nil || !strings.Contains(err.Error(), `"Gogglebot"`) || !strings.Contains(err.Error(), "Googlebot") ||
		!strings.Contains(err.Error(), `"nosuchbotatallxyz"`) {
		t.Errorf("unknown tokens: %v", err)
	}
}

// FuzzAnalyze checks that Analyze never panics, whatever the bytes and
// the status, that its rows keep their invariants, and that the "*"
// shortcut gives every robot the verdict it gets when read by its own
// tokens.
func FuzzAnalyze(f *testing.F) {
	bodies := []string{
		"",
		"User-agent: *\nDisallow: /\n",
		"\ufeffUser-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\nCrawl-delay: 2.5\n",
		"User-agent: googlebot\nDisallow: /search\n\nUser-agent: *\nDisallow: /\n",
		"User-agent: Yandex\n\nDisallow: /\nUser-agent: MJ12bot/v1.4\nDisallow: /x\n",
		"User-agent: Baiduspider-image\nDisallow: /\nUser-agent: baidu\nAllow: /\n",
		"User-agent: AdsBot-Google\nUser-agent: *\nDisallow: /ads\nAllow: /\n",
		"<!DOCTYPE html><html><body>User-agent: *<br>Disallow: /</body></html>",
		"useragent: applebot\ndisalow: /\nUser agent googlebot-news\nDisallow /n\n",
		"User-agent: *\r\nDisallow: /*.php$\r\nAllow: /a/index.html\r\nSitemap: x\rFoo: bar\x00baz\n",
		"User-agent: Google-Extended\nDisallow: /\n\nUser-agent: Applebot-Extended\nDisallow: /x\n\nUser-agent: *\nContent-Signal: ai-train=yes\n",
		"License: https://a.example/l\nUser-agent: GPTBot\nContent-Usage: /a train-ai=n\nContent-Usage: train-ai=y\nUser-agent: *\nContent-Signal: search=no\nCONTENT-SIGNAL ai-train=no\nlicense:\n",
	}
	for i, s := range bodies {
		f.Add([]byte(s), []int{200, 404, 503, 301, 0, 403, 429, 203, 500, 200, 200, 200}[i], "text/plain", "/moved", i%3 == 0)
	}
	rbs, err := SelectRobots("")
	if err != nil {
		f.Fatal(err)
	}
	extra, err := SelectRobots("AdsBot-Google,MJ12bot,archive.org_bot,Applebot")
	if err != nil {
		f.Fatal(err)
	}
	rbs = append(rbs, extra...)
	rbs = append(rbs, agents.Robot{Token: "OldBot", Profile: "draft1996", Fetch: "draft1996"},
		agents.Robot{Token: "Strict", Profile: "strict1994", Fetch: "nosuchpolicy"})
	o := &Options{Robots: rbs}
	states := map[string]bool{"blocked": true, "partly": true, "open": true}
	usages := map[string]bool{"yes": true, "no": true, "none": true}
	vias := map[string]bool{"named": true, "fallback": true, "star": true, "none": true}
	f.Fuzz(func(t *testing.T, body []byte, status int, ct, loc string, lint bool) {
		if len(body) > MaxBody {
			body = body[:MaxBody]
		}
		c := &Capture{URL: "https://fuzz.example/robots.txt", Status: status, Body: body, Size: int64(len(body)),
			Header: http.Header{"Content-Type": {ct}, "Location": {loc}}}
		oo := o
		if lint {
			oo = &Options{Robots: rbs, Lint: true}
		}
		r := Analyze(c, oo)
		if len(r.Outcomes) != 6 {
			t.Fatalf("%d outcomes", len(r.Outcomes))
		}
		if len(r.Robots) != len(rbs) {
			t.Fatalf("%d verdicts for %d robots", len(r.Robots), len(rbs))
		}
		lines := strings.Count(string(body), "\n") + strings.Count(string(body), "\r") + 1
		for i, v := range r.Robots {
			if v.Robot != rbs[i].Token || !states[v.State] || !vias[v.Via] || v.Line < 0 || v.Line > lines || v.CrawlDelay < 0 {
				t.Fatalf("verdict %+v", v)
			}
			if (v.Via == "none") != (v.Group == 0) || v.Via == "none" && v.Line != 0 {
				t.Fatalf("verdict %+v: a line without a group, or a group without a line", v)
			}
			if !usages[v.AITrain] || v.State == "blocked" && v.AITrain != "none" {
				t.Fatalf("verdict %+v: ai_train", v)
			}
		}
		n := 0
		for _, d := range r.Directives {
			if d.Count <= 0 || hasUpper(d.Key) {
				t.Fatalf("directive %+v", d)
			}
			n += d.Count
		}
		if r.Rules+r.Sitemaps+len(r.Agents) > n || r.Groups > len(r.Agents) {
			t.Fatalf("%d rules, %d sitemaps, %d agents, %d groups for %d directive lines", r.Rules, r.Sitemaps, len(r.Agents), r.Groups, n)
		}
		// The usage lines are those the directive counts count under
		// their keys, which the summary's usage-line table reads.
		for key, list := range map[string][]string{"content-signal": r.ContentSignal, "content-usage": r.ContentUsage, "license": r.License} {
			count := 0
			for _, d := range r.Directives {
				if d.Key == key {
					count = d.Count
				}
			}
			if count != len(list) {
				t.Fatalf("%d %s lines, %d values: %q", count, key, len(list), list)
			}
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatal(err)
		}
		if slow := analyzeSlow(c, o); !reflect.DeepEqual(slow.Robots, Analyze(c, o).Robots) {
			t.Fatalf("the shortcut changes verdicts:\n%+v\n%+v", Analyze(c, o).Robots, slow.Robots)
		}
	})
}

// TestEncodingOf: the encoding of a body by its bytes, and its byte
// order mark (Unicode 15, §23.8; RFC 3629 for UTF-8).
func TestEncodingOf(t *testing.T) {
	tests := []struct {
		name, body string
		enc        string
		bom        bool
	}{
		{"empty", "", "", false},
		{"ascii", "User-agent: *\nDisallow: /x\n", EncodingUTF8, false},
		{"utf-8 with bom", "\xEF\xBB\xBFUser-agent: *\n", EncodingUTF8, true},
		{"utf-8 accents", "# café\nUser-agent: *\n", EncodingUTF8, false},
		{"utf-16le with bom", "\xFF\xFEU\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00:\x00 \x00*\x00\n\x00", EncodingUTF16LE, true},
		{"utf-16be without bom", "\x00U\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00:\x00 \x00*\x00\n", EncodingUTF16BE, false},
		{"latin-1", "# caf\xe9\nUser-agent: *\nDisallow: /r\xe9sum\xe9\n", EncodingOther, false},
		{"gzip", "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x0b\xc9\xc8,V\x00\xa2D\x85\x92\xd4\xe2\x12\x00", EncodingBinary, false},
	}
	for _, tt := range tests {
		enc, bom := encodingOf([]byte(tt.body))
		if enc != tt.enc || bom != tt.bom {
			t.Errorf("%s: %q %v, want %q %v", tt.name, enc, bom, tt.enc, tt.bom)
		}
	}
	// In a row: a UTF-16 file says so.
	body := []byte("\xFF\xFEU\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00:\x00 \x00*\x00\n\x00D\x00i\x00s\x00a\x00l\x00l\x00o\x00w\x00:\x00 \x00/\x00\n\x00")
	row := Analyze(&Capture{URL: testURL, Status: 200, Body: body, Size: int64(len(body))}, nil)
	if row.Encoding != EncodingUTF16LE || !row.BOM {
		t.Errorf("UTF-16 row: encoding %q, bom %v", row.Encoding, row.BOM)
	}
}
