package server

import (
	"io"
	"net/http"
	"net/http/httptest"
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
// an amber "indexable" for a page robots.txt disallows, and no usage
// verdict for it; errors show in the page.
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
		`<p class="hint" id="page-usage-none">None: robots.txt keeps the robot from fetching the page, so no usage preference applies to it.</p>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(body, `"crawlable"`) {
		t.Error("the report is JSON")
	}
	// An allowed page is green; nothing states a usage preference to it.
	_, _, body = do(t, ts, "GET", "/?"+url.Values{"page": {site.URL + "/x"}}.Encode(), "", "")
	if !strings.Contains(body, `<span class="badge ok">✓ crawlable</span>`) || strings.Contains(body, "badge warn") {
		t.Errorf("an allowed page's badges: %s", body)
	}
	if strings.Count(body, `<td class="use-none">none</td><td>nothing stated</td>`) != 3 {
		t.Errorf("an allowed page's usage is not none for each purpose: %s", body)
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

// fetchSite is a site whose robots.txt moved (301 to /static/robots.txt,
// as in the user trial); /gone/robots.txt answers 403 and
// /down/robots.txt 503.
func fetchSite(t *testing.T) *httptest.Server {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.Redirect(w, r, "/static/robots.txt", http.StatusMovedPermanently)
		case "/static/robots.txt":
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "User-agent: *\nDisallow: /private\n")
		case "/gone/robots.txt":
			http.Error(w, "forbidden", http.StatusForbidden)
		default:
			http.Error(w, "down", http.StatusServiceUnavailable)
		}
	}))
	t.Cleanup(site.Close)
	return site
}

// fetchPanel returns the fetch panel of a rendered page, "" when there
// is none.
func fetchPanel(body string) string {
	_, panel, ok := strings.Cut(body, `id="fetch-report"`)
	if !ok {
		return ""
	}
	panel, _, _ = strings.Cut(panel, "</section>")
	return panel
}

// TestUIFetchPanel: the page without JavaScript shows the fetch of a
// site's robots.txt, and says each thing once: the outcome with what it
// means ("success: rules of the file apply", not also "the file's rules
// apply"), and, when the families in the check's scope read the answer
// alike, one sentence, not a row per family with a "Why" repeating it;
// Mandelbot, one crawler's fetch rules and no family of the checker's,
// has no row (issue 28, point #42 of the user trial).
func TestUIFetchPanel(t *testing.T) {
	site := fetchSite(t)
	_, ts := newTest(t, Config{AllowPrivate: true})
	post := func(v url.Values) (string, string) {
		t.Helper()
		status, _, body := do(t, ts, "POST", "/", "application/x-www-form-urlencoded", v.Encode())
		if status != 200 {
			t.Fatalf("POST / %v: %d", v, status)
		}
		if strings.Contains(strings.ToLower(body), "mandelbot") {
			t.Errorf("POST / %v: the page names mandelbot", v)
		}
		return body, fetchPanel(body)
	}

	_, panel := post(url.Values{"url": {site.URL + "/"}})
	for phrase, n := range map[string]int{
		"rules of the file apply": 1, "the file's rules apply": 0, "the rules apply": 0, "Why": 0,
		`<span id="fetch-outcome">success: rules of the file apply</span>`:       1,
		"Google, Bing, Yandex and other RFC 9309 robots read this answer alike.": 1,
		"1996": 0, site.URL + "/robots.txt</span>": 1, site.URL + "/static/robots.txt</span>": 1,
		"<dt>Final URL</dt><dd>" + site.URL + "/static/robots.txt</dd>": 1,
	} {
		if got := strings.Count(panel, phrase); got != n {
			t.Errorf("the fetch panel says %q %d times, want %d:\n%s", phrase, got, n, panel)
		}
	}

	// The compatibility option brings the 1996 draft's robots into the
	// scope: they read a 403 as forbidden, the major families as no file.
	_, panel = post(url.Values{"url": {site.URL + "/gone/robots.txt"}, "all_robots": {"1"}})
	for phrase, n := range map[string]int{
		"<th scope=\"row\">Google, Bing, Yandex, other RFC 9309 robots</th><td class=\"access-all\">no robots.txt: no restrictions</td>":          1,
		"<th scope=\"row\">first-match robots (1996 draft)</th><td class=\"access-none\">robots.txt forbidden: the whole site is off limits</td>": 1,
		"read this answer alike": 0,
	} {
		if got := strings.Count(panel, phrase); got != n {
			t.Errorf("403, all robots: %q %d times, want %d:\n%s", phrase, got, n, panel)
		}
	}
	// Without it, a 403 is read alike; a 503 is not: Yandex reads it as
	// no file.
	_, panel = post(url.Values{"url": {site.URL + "/gone/robots.txt"}})
	if !strings.Contains(panel, "read this answer alike.") || strings.Contains(panel, "1996") {
		t.Errorf("403: %s", panel)
	}
	_, panel = post(url.Values{"url": {site.URL + "/down/robots.txt"}})
	if !strings.Contains(panel, "<th scope=\"row\">Yandex</th>") || !strings.Contains(panel, "<th scope=\"row\">Google, Bing, other RFC 9309 robots</th>") {
		t.Errorf("503: %s", panel)
	}
	// Only the chosen profile's family.
	_, panel = post(url.Values{"url": {site.URL + "/down/robots.txt"}, "profile": {"yandex"}})
	if !strings.Contains(panel, "<th scope=\"row\">Yandex</th>") || strings.Contains(panel, "Bing") {
		t.Errorf("503, yandex: %s", panel)
	}
}

// TestUIPageVerdictOnce: the page inspector says once why robots.txt
// decided when its fetch did (a 503: complete disallow), in the verdict,
// with no "Why" row repeating it (issue 28, point #42).
func TestUIPageVerdictOnce(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<html><body>page</body></html>")
	}))
	t.Cleanup(site.Close)
	_, ts := newTest(t, Config{AllowPrivate: true})
	_, _, body := do(t, ts, "GET", "/?"+url.Values{"page": {site.URL + "/page"}}.Encode(), "", "")
	_, report, _ := strings.Cut(body, `id="page-report"`)
	const why = "robots.txt unreachable: complete disallow while it lasts"
	if !strings.Contains(report, "<dd>Disallowed: "+why+"</dd>") || strings.Contains(report, "<dt>Why</dt>") {
		t.Errorf("the verdict of a page whose robots.txt answers 503:\n%s", report)
	}
}

// TestUIBareHost: the check form's Site URL and the page inspector's
// URL take a bare host as robots check and robots page do
// (internal/target.Read): "127.0.0.1:PORT" is read as https://, the page
// says how it read it (and, for a local address, how to name a server
// without TLS), and the field holds the URL read. The fields are text
// fields with a URL keyboard, which the browser does not refuse for
// lacking a scheme (issue 28, point #18 of the user trial). Loopback
// only: a TLS test server the server's client trusts.
func TestUIBareHost(t *testing.T) {
	site := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: *\nDisallow: /private\n")
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<html><head><title>Hello</title></head><body>hi</body></html>")
	}))
	t.Cleanup(site.Close)
	s, ts := newTest(t, Config{AllowPrivate: true})
	s.client.Transport.(*http.Transport).TLSClientConfig = site.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	host := strings.TrimPrefix(site.URL, "https://") // 127.0.0.1:PORT

	_, _, body := do(t, ts, "GET", "/", "", "")
	for _, want := range []string{
		`<input id="url" name="url" type="text" inputmode="url" autocomplete="url"`,
		`<input id="page-url" name="page" type="text" inputmode="url" autocomplete="url"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the form lacks %q", want)
		}
	}
	if strings.Contains(body, `type="url"`) {
		t.Error(`a field is still type="url", which refuses a bare host`)
	}

	_, _, body = do(t, ts, "POST", "/", "application/x-www-form-urlencoded", url.Values{"url": {host}}.Encode())
	for _, want := range []string{
		`<p class="hint" id="url-reading">reading &#34;` + host + `&#34; as https://` + host + `/robots.txt (a local server without TLS: give http://` + host + `/robots.txt)</p>`,
		`value="https://` + host + `" aria-describedby="url-reading">`,
		`<h3 id="h-fetch">Fetch of https://` + host + `/robots.txt</h3>`,
		`<span id="fetch-outcome">success: rules of the file apply</span>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the check of %s lacks %q:\n%s", host, want, body)
		}
	}

	_, _, body = do(t, ts, "GET", "/?"+url.Values{"page": {host + "/x"}}.Encode(), "", "")
	for _, want := range []string{
		`<p class="hint" id="page-url-reading">reading &#34;` + host + `/x&#34; as https://` + host + `/x (a local server without TLS: give http://` + host + `/x)</p>`,
		`value="https://` + host + `/x" aria-describedby="page-url-reading">`,
		`<h3 id="h-page-report">Hello — https://` + host + `/x</h3>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the inspection of %s/x lacks %q:\n%s", host, want, body)
		}
	}

	// What is neither a URL nor a host is refused with what to give.
	_, _, body = do(t, ts, "POST", "/", "application/x-www-form-urlencoded", url.Values{"url": {"nonsense"}}.Encode())
	if !strings.Contains(body, "&#34;nonsense&#34; is not a URL: give one such as https://example.com/") {
		t.Errorf("url=nonsense:\n%s", body)
	}
	_, _, body = do(t, ts, "GET", "/?page=ftp://example.com/", "", "")
	if !strings.Contains(body, "robots fetch only http and https URLs") {
		t.Errorf("page=ftp://…:\n%s", body)
	}
}

// TestUIPageUsage: without JavaScript, the page inspector shows what the
// robot may do with the page, a row per purpose with the statement that
// says so: robots.txt's Content-Signal line and Google-Extended's
// Disallow for Googlebot, the page's Content-Usage header for GPTBot's
// ai-input; the License line of robots.txt; and for a page robots.txt
// disallows, why there is no usage verdict.
func TestUIPageUsage(t *testing.T) {
	site := usageSite(t)
	_, ts := newTest(t, Config{AllowPrivate: true})
	usageOf := func(path, robot string) string {
		t.Helper()
		_, _, body := do(t, ts, "GET", "/?"+url.Values{"page": {site.URL + path}, "robot": {robot}}.Encode(), "", "")
		_, report, ok := strings.Cut(body, `id="page-report"`)
		if !ok {
			t.Fatalf("%s as %s: no report:\n%s", path, robot, body)
		}
		_, block, _ := strings.Cut(report, "<h4>Usage</h4>")
		block, _, _ = strings.Cut(block, "<h4>Robots directives</h4>")
		return block
	}
	block := usageOf("/article", "Googlebot")
	for _, want := range []string{
		`<table id="page-usage">`,
		`<th scope="row">search <span class="hint">(search results)</span></th><td class="use-yes">yes</td><td>robots.txt: Content-Signal line 2</td>`,
		`<th scope="row">ai-input <span class="hint">(AI answers and grounding)</span></th><td class="use-no">no</td><td>robots.txt: robots token Google-Extended, line 6</td>`,
		`<th scope="row">ai-train <span class="hint">(training AI models)</span></th><td class="use-no">no</td><td>robots.txt: Content-Signal line 2</td>`,
		`<dt>Licence (robots.txt)</dt><dd><span class="url">https://example.com/licence.xml</span></dd>`,
	} {
		if !strings.Contains(block, want) {
			t.Errorf("Googlebot's usage lacks %q:\n%s", want, block)
		}
	}
	if block := usageOf("/article", "GPTBot"); !strings.Contains(block, `<td class="use-no">no</td><td>Content-Usage header</td>`) {
		t.Errorf("GPTBot's ai-input is not the page's Content-Usage header:\n%s", block)
	}
	if block := usageOf("/private/x", "GPTBot"); strings.Contains(block, "page-usage\"") || !strings.Contains(block, "None: robots.txt keeps the robot from fetching the page") {
		t.Errorf("the usage of a disallowed page:\n%s", block)
	}
}
