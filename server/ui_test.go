package server

import (
	"net/url"
	"strings"
	"testing"
)

// TestUIAllRobots: the form's compatibility option adds the findings of
// the older robots, and keeps its value; a finding on several lines
// says so.
func TestUIAllRobots(t *testing.T) {
	_, ts := newTest(t, Config{})
	_, _, body := do(t, ts, "POST", "/", "application/x-www-form-urlencoded", url.Values{"robots": {sample}}.Encode())
	// The scope's default says what it covers: the major families, as
	// the check of an empty "profile" reports them (RB411 is not theirs).
	if !strings.Contains(body, ">major robot families</option>") {
		t.Errorf("the scope's default option does not name the major robot families")
	}
	if !strings.Contains(body, "RB305") || strings.Contains(body, "RB411") || strings.Contains(body, `name="all_robots" value="1" aria-describedby="all-robots-hint" checked`) {
		t.Errorf("without the option: RB305 missing, RB411 (first-match robots only) shown, or the box checked")
	}
	_, _, body = do(t, ts, "POST", "/", "application/x-www-form-urlencoded", url.Values{"robots": {sample}, "all_robots": {"1"}}.Encode())
	if !strings.Contains(body, "RB411") || !strings.Contains(body, `name="all_robots" value="1" aria-describedby="all-robots-hint" checked`) {
		t.Errorf("with the option: RB411 missing or the box unchecked")
	}
	_, _, body = do(t, ts, "POST", "/", "application/x-www-form-urlencoded", url.Values{"robots": {"User-agent: *\nDisalow: /a\nDisalow: /b\nDisalow: /c\n"}}.Encode())
	if !strings.Contains(body, "<td>2 and 2 more</td>") {
		t.Errorf("a finding on lines 2, 3 and 4 is not shown as \"2 and 2 more\"")
	}
}

// TestUIPage: the page inspector's form works without JavaScript: GET
// /?page= renders the report of GET /api/v1/page as HTML, escaped, with
// an amber "indexable" for a page robots.txt disallows; errors show in
// the page.
func TestUIPage(t *testing.T) {
	site := browserSite(t)
	_, ts := newTest(t, Config{AllowPrivate: true})
	status, h, body := do(t, ts, "GET", "/?"+url.Values{"page": {site.URL + "/private/p"}, "robot": {"Googlebot"}}.Encode(), "", "")
	if status != 200 || !strings.HasPrefix(h.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /?page=: %d %s", status, h.Get("Content-Type"))
	}
	for _, want := range []string{
		`id="page-report"`, `<span class="badge no">✗ not crawlable</span>`,
		`<span class="badge warn" title="robots.txt blocks the crawl`, `⚠ indexable from links only`,
		`id="page-badge-note"`, "Disallowed by line 2: Disallow: /private", `id="page-directives"`,
		"disallowed (line 2)", "T &lt;b&gt; — ", `value="` + site.URL + `/private/p"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(body, `"crawlable"`) {
		t.Error("the report is JSON")
	}
	// An allowed page is green.
	_, _, body = do(t, ts, "GET", "/?"+url.Values{"page": {site.URL + "/x"}}.Encode(), "", "")
	if !strings.Contains(body, `<span class="badge ok">✓ crawlable</span>`) || strings.Contains(body, "badge warn") {
		t.Errorf("an allowed page's badges: %s", body)
	}
	for _, tt := range []struct{ query, want string }{
		{"page=", "give the URL of a page"},
		{url.Values{"page": {site.URL + "/x"}, "robot": {"Gogglebot"}}.Encode(), "did you mean"},
	} {
		status, _, body := do(t, ts, "GET", "/?"+tt.query, "", "")
		if status != 200 || !strings.Contains(body, tt.want) || strings.Contains(body, `id="page-report"`) {
			t.Errorf("GET /?%s: %d, no %q", tt.query, status, tt.want)
		}
	}
	_, ts = newTest(t, Config{})
	_, _, body = do(t, ts, "GET", "/?page="+url.QueryEscape("http://127.0.0.1:9/"), "", "")
	if !strings.Contains(body, "private targets") {
		t.Errorf("a private page: %s", body)
	}
}
