package server

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/change"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/history"
	"github.com/robotskit/robots/internal/timeline"
	"github.com/robotskit/robots/internal/wire"
)

const (
	historySiteName = "https://example.com"
	historyV1       = "User-agent: *\nDisallow: /private/\n"
	historyV2       = "User-agent: *\nDisallow: /private/\nDisallow: /drafts/\n# <script>alert(1)</script>\n"
)

// historyT0 is the time of the first version of the test store.
var historyT0 = time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)

// newHistoryStore writes a store as robots watch would: version 1, the
// same file again a day later (no new version), version 2 with a new
// rule line, a 503 (version 3), and a last fetch that found the 503
// still. It returns the store's path.
func newHistoryStore(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "robots-history.db")
	st, err := history.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	day := 24 * time.Hour
	ok := func(at time.Time, body string) history.Version {
		return history.Version{Site: historySiteName, Time: at, URL: historySiteName + "/robots.txt", Status: 200,
			Outcome: "success", Body: []byte(body), Size: int64(len(body))}
	}
	down := func(at time.Time) history.Version {
		return history.Version{Site: historySiteName, Time: at, URL: historySiteName + "/robots.txt", Status: 503, Outcome: "unreachable"}
	}
	for i, tt := range []struct {
		v     history.Version
		added bool
	}{
		{ok(historyT0, historyV1), true},
		{ok(historyT0.Add(day), historyV1), false},
		{ok(historyT0.Add(2*day), historyV2), true},
		{down(historyT0.Add(5 * day)), true},
		{down(historyT0.Add(5*day + 2*time.Hour)), false},
	} {
		if _, added, err := st.Record(tt.v); err != nil || added != tt.added {
			t.Fatalf("record %d: added %v, %v", i, added, err)
		}
	}
	return path
}

// historyTimeline is the test store's timeline, to compare the pages
// with what package timeline says.
func historyTimeline(t *testing.T, path string) *timeline.Timeline {
	t.Helper()
	st, err := history.Open(path, &history.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	vs, err := st.Versions(historySiteName)
	if err != nil {
		t.Fatal(err)
	}
	return timeline.New(vs)
}

// historyPath is the page of the test site, with more query pairs
// (name, value, …).
func historyPath(query ...string) string {
	q := url.Values{"site": {historySiteName}}
	for i := 0; i+1 < len(query); i += 2 {
		q.Set(query[i], query[i+1])
	}
	return "/history?" + q.Encode()
}

// TestHistoryPages: the list of sites, a site's timeline (a segment per
// version, in order, coloured by outcome) and table (with what Googlebot
// read, as robots history says it), a version's body escaped with its
// line numbers and the families' readings, and the diffs: v1 → v2 in
// the files' own rules, v2 → v3 in the families' readings, the other
// way, and the same version.
func TestHistoryPages(t *testing.T) {
	path := newHistoryStore(t)
	tl := historyTimeline(t, path)
	_, ts := newTest(t, Config{Store: path, RateLimit: -1})

	status, h, body := do(t, ts, "GET", "/history", "", "")
	if status != 200 || !strings.HasPrefix(h.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /history: %d %s", status, h.Get("Content-Type"))
	}
	for _, want := range []string{`id="history-sites"`, `href="/history?site=https%3A%2F%2Fexample.com"`, ">https://example.com</a>",
		"<td>3</td>", "<td>2026-11-01T09:00:00Z</td>", "<td>2026-11-06T09:00:00Z</td>", "<td>2026-11-06T11:00:00Z</td>"} {
		if !strings.Contains(body, want) {
			t.Errorf("the list of sites lacks %q", want)
		}
	}

	status, _, body = do(t, ts, "GET", historyPath(), "", "")
	if status != 200 {
		t.Fatalf("site page: %d\n%s", status, body)
	}
	segs := regexp.MustCompile(`<rect class="seg o-(\w+)" data-version="(\d+)" data-outcome="(\w+)" x="([\d.]+)%" y="0" width="([\d.]+)%"`).FindAllStringSubmatch(body, -1)
	want := []string{"1 success", "2 success", "3 unreachable"}
	if len(segs) != len(want) {
		t.Fatalf("%d segments, want %d:\n%s", len(segs), len(want), body)
	}
	x := 0.0
	for i, m := range segs {
		if got := m[2] + " " + m[3]; got != want[i] || m[1] != m[3] {
			t.Errorf("segment %d: %s (class %s), want %s", i, got, m[1], want[i])
		}
		var sx, sw float64
		json.Unmarshal([]byte(m[4]), &sx)
		json.Unmarshal([]byte(m[5]), &sw)
		if sx < x-0.01 || sw <= 0 {
			t.Errorf("segment %d at %v+%v, after %v", i, sx, sw, x)
		}
		x = sx + sw
	}
	if x < 99.9 || x > 100.1 {
		t.Errorf("the segments end at %v%%, not the band's end", x)
	}
	// Version 2 lasted three days of the five and two hours drawn: the
	// longest segment.
	if !strings.Contains(body, `aria-label="version 2: 200 success, from 2026-11-03T09:00:00Z to 2026-11-06T09:00:00Z"`) ||
		!strings.Contains(body, `aria-label="version 3: 503 unreachable, from 2026-11-06T09:00:00Z, still in force at the last fetch, 2026-11-06T11:00:00Z"`) {
		t.Errorf("segment labels:\n%s", body)
	}
	for i, v := range tl.Versions() {
		read := timeline.Describe(tl.Read(v.Time, fetch.Google, robots.Google))
		if !strings.Contains(body, "<td>"+read+"</td>") {
			t.Errorf("version %d: the table lacks Googlebot's reading %q", i+1, read)
		}
	}
	for _, want := range []string{`id="history-versions"`, `<tr id="v3"><td>3</td><td><span class="nw">2026-11-06T</span><wbr>09:00:00Z</td><td><span class="swatch o-unreachable"></span> 503 unreachable</td>`,
		"<code>" + tl.Versions()[0].Hash[:12] + "</code>", `<td>34 bytes</td>`, `href="/history?site=https%3A%2F%2Fexample.com&amp;v=2"`,
		`id="diff-form"`, `name="a" min="1" max="3" value="2"`, `name="b" min="1" max="3" value="3"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the site page lacks %q", want)
		}
	}
	if strings.Contains(body, "<script") || strings.Contains(body, " style=") {
		t.Error("the site page has a script or an inline style")
	}

	// A version: its body, escaped, with line numbers; how the families
	// read it.
	_, _, body = do(t, ts, "GET", historyPath("v", "2"), "", "")
	for _, want := range []string{`id="version-body"`, `<li id="L3"><span class="ln">3</span><span class="src">Disallow: /drafts/</span></li>`,
		"# &lt;script&gt;alert(1)&lt;/script&gt;", "<th scope=\"row\">google</th><td>the rules of version 2 apply</td>",
		`rel="prev">← version 1</a>`, `rel="next">version 3 →</a>`, "<dt>Until</dt><dd>2026-11-06T09:00:00Z (version 3)</dd>"} {
		if !strings.Contains(body, want) {
			t.Errorf("version 2's page lacks %q", want)
		}
	}
	if strings.Contains(body, "<script>") {
		t.Error("the body's <script> is not escaped")
	}
	_, _, body = do(t, ts, "GET", historyPath("v", "3"), "", "")
	if !strings.Contains(body, `id="version-nobody"`) || !strings.Contains(body, "<dd>503 unreachable</dd>") {
		t.Errorf("version 3's page:\n%s", body)
	}

	// v1 → v2: the files' own rules, as robots diff says them.
	_, _, body = do(t, ts, "GET", historyPath("a", "1", "b", "2"), "", "")
	for _, want := range []string{`id="diff-report"`, `<code class="rule">&#43; line 3: Disallow: /drafts/ (added)</code>`,
		"/drafts/ and everything under it: <strong>now disallowed</strong>", "Googlebot [google]", "* (other robots) [every family]",
		"bingbot [bing]", "YandexBot [yandex]", "1 rule line changes what 4 robots may crawl:", "compared: google, bing, yandex and rfc9309 robots"} {
		if !strings.Contains(body, want) {
			t.Errorf("the diff 1 → 2 lacks %q", want)
		}
	}
	if strings.Contains(body, `id="diff-families"`) {
		t.Error("the diff of two successes has the families' readings: the report says it")
	}

	// v2 → v3: the families' readings, as timeline.Change says them.
	fams, rep := tl.Change(t.Context(), 1, 2)
	if rep != nil || len(fams) == 0 {
		t.Fatalf("timeline.Change(2, 3): %v %v", fams, rep)
	}
	_, _, body = do(t, ts, "GET", historyPath("a", "2", "b", "3"), "", "")
	for _, f := range fams {
		row := "<tr><th scope=\"row\">" + f.Family.String() + " robots</th><td>" + f.Before + "</td><td>" + f.After + "</td></tr>"
		if !strings.Contains(body, row) {
			t.Errorf("the diff 2 → 3 lacks %s", row)
		}
	}
	for _, want := range []string{"<th scope=\"row\">google robots</th><td>the rules of version 2 apply</td><td>robots.txt unreachable: complete disallow",
		"<th scope=\"row\">yandex robots</th><td>the rules of version 2 apply</td><td>", "no restrictions"} {
		if !strings.Contains(body, want) {
			t.Errorf("the diff 2 → 3 lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, `id="diff-report"`) {
		t.Error("the diff 2 → 3 has a report of the files' rules: version 3 has none")
	}

	// The other way, and the same version.
	_, _, body = do(t, ts, "GET", historyPath("a", "2", "b", "1"), "", "")
	if !strings.Contains(body, `id="diff-back"`) || !strings.Contains(body, `<code class="rule">- line 3: Disallow: /drafts/ (removed)</code>`) ||
		!strings.Contains(body, "now allowed") {
		t.Errorf("the diff 2 → 1:\n%s", body)
	}
	_, _, body = do(t, ts, "GET", historyPath("a", "2", "b", "2"), "", "")
	if !strings.Contains(body, `id="diff-same"`) || !strings.Contains(body, "The same version") || strings.Contains(body, `id="diff-report"`) {
		t.Errorf("the diff 2 → 2:\n%s", body)
	}

	// Unknown sites and versions, and bad parameters.
	for _, tt := range []struct {
		path   string
		status int
		want   string
	}{
		{"/history?site=" + url.QueryEscape("https://nowhere.example"), 404, "has no version in this server&#39;s history"},
		{historyPath("v", "9"), 404, "has no version 9: it has 3 versions"},
		{historyPath("a", "1", "b", "4"), 404, "has no version 4"},
		{historyPath("v", "x"), 400, "give a version number"},
		{historyPath("a", "1"), 400, "give both versions"},
		{"/history?site=" + strings.Repeat("a", 2049), 400, "at most 2048"},
	} {
		status, _, body := do(t, ts, "GET", tt.path, "", "")
		if status != tt.status || !strings.Contains(body, tt.want) || !strings.Contains(body, `id="history-error"`) {
			t.Errorf("GET %.80s: %d, want %d with %q:\n%s", tt.path, status, tt.status, tt.want, body)
		}
	}
	// A bare host is the site robots watch keys by its origin.
	if status, _, body := do(t, ts, "GET", "/history?site=example.com", "", ""); status != 200 || !strings.Contains(body, `id="timeline"`) {
		t.Errorf("?site=example.com: %d", status)
	}

	// The main page links to the history.
	_, _, body = do(t, ts, "GET", "/", "", "")
	if !strings.Contains(body, `<a href="/history" id="history-link">`) {
		t.Error("the main page does not link to /history")
	}
}

// TestHistoryAPI: GET /api/v1/history lists the sites, a site's versions
// with what Googlebot read, a version, and the change between two, in
// the shapes of package history, timeline and change; errors are the
// API's.
func TestHistoryAPI(t *testing.T) {
	path := newHistoryStore(t)
	tl := historyTimeline(t, path)
	_, ts := newTest(t, Config{Store: path, RateLimit: -1})
	get := func(path string, status int, v any) string {
		t.Helper()
		got, h, body := do(t, ts, "GET", path, "", "")
		if got != status || h.Get("Content-Type") != "application/json; charset=utf-8" {
			t.Fatalf("GET %s: %d %s, want %d: %s", path, got, h.Get("Content-Type"), status, body)
		}
		if v != nil {
			if err := json.Unmarshal([]byte(body), v); err != nil {
				t.Fatalf("GET %s: %v: %s", path, err, body)
			}
		}
		return body
	}

	var list struct {
		Sites []history.Site `json:"sites"`
	}
	get("/api/v1/history", 200, &list)
	if len(list.Sites) != 1 || list.Sites[0].Site != historySiteName || list.Sites[0].Versions != 3 ||
		!list.Sites[0].Checked.Equal(historyT0.Add(5*24*time.Hour+2*time.Hour)) {
		t.Errorf("sites: %+v", list.Sites)
	}

	var site struct {
		Site     string `json:"site"`
		Versions []struct {
			history.Version
			Googlebot string `json:"googlebot"`
		} `json:"versions"`
	}
	raw := get("/api/v1/history?site="+url.QueryEscape(historySiteName), 200, &site)
	if site.Site != historySiteName || len(site.Versions) != 3 {
		t.Fatalf("site: %s", raw)
	}
	for i, v := range site.Versions {
		want := tl.Versions()[i]
		if v.Seq != i+1 || v.Outcome != want.Outcome || v.Status != want.Status || v.Hash != want.Hash || !v.Time.Equal(want.Time) {
			t.Errorf("version %d: %+v", i+1, v.Version)
		}
		if read := timeline.Describe(tl.Read(want.Time, fetch.Google, robots.Google)); v.Googlebot != read {
			t.Errorf("version %d: googlebot %q, want %q", i+1, v.Googlebot, read)
		}
	}
	if !strings.Contains(raw, `"sha256": "`) || !strings.Contains(raw, `"outcome": "unreachable"`) {
		t.Errorf("the versions lack the store's keys: %s", raw)
	}

	var one struct {
		Site    string `json:"site"`
		Version struct {
			Seq       int    `json:"seq"`
			Googlebot string `json:"googlebot"`
		} `json:"version"`
		Until    string `json:"until"`
		Body     string `json:"body"`
		Families []struct {
			Family string `json:"family"`
			Reads  string `json:"reads"`
		} `json:"families"`
	}
	get(historyAPIPath("v", "2"), 200, &one)
	if one.Version.Seq != 2 || one.Body != historyV2 || one.Until != "2026-11-06T09:00:00Z" || len(one.Families) != len(timeline.Families) ||
		one.Families[0].Family != "google" || one.Families[0].Reads != "the rules of version 2 apply" {
		t.Errorf("version 2: %+v", one)
	}

	type diff struct {
		Site     string                  `json:"site"`
		A        int                     `json:"a"`
		B        int                     `json:"b"`
		Families []timeline.FamilyChange `json:"families"`
		Report   *change.Report          `json:"report"`
	}
	var d diff
	raw = get(historyAPIPath("a", "1", "b", "2"), 200, &d)
	if d.Site != historySiteName || d.A != 1 || d.B != 2 || d.Families == nil || len(d.Families) != 0 || d.Report == nil || !d.Report.Changed {
		t.Fatalf("diff 1 → 2: %s", raw)
	}
	if len(d.Report.Rules) != 1 || d.Report.Rules[0].Change != change.Added || d.Report.Rules[0].Line != 3 || d.Report.Rules[0].Rule != "Disallow: /drafts/" {
		t.Errorf("diff 1 → 2 rules: %+v", d.Report.Rules)
	}
	d = diff{}
	raw = get(historyAPIPath("a", "2", "b", "3"), 200, &d)
	fams, _ := tl.Change(t.Context(), 1, 2)
	if d.Report != nil || len(d.Families) != len(fams) || !strings.Contains(raw, `"report": null`) {
		t.Fatalf("diff 2 → 3: %s", raw)
	}
	for i, f := range fams {
		if d.Families[i] != f {
			t.Errorf("diff 2 → 3 family %d: %+v, want %+v", i, d.Families[i], f)
		}
	}
	d = diff{}
	raw = get(historyAPIPath("a", "3", "b", "3"), 200, &d)
	if d.Report != nil || len(d.Families) != 0 || !strings.Contains(raw, `"families": []`) {
		t.Errorf("diff 3 → 3: %s", raw)
	}

	for _, tt := range []struct {
		path, code string
		status     int
	}{
		{"/api/v1/history?site=" + url.QueryEscape("https://nowhere.example"), "not_found", 404},
		{historyAPIPath("v", "4"), "not_found", 404},
		{historyAPIPath("a", "0", "b", "1"), "bad_request", 400},
		{historyAPIPath("a", "1"), "bad_request", 400},
		{"/api/v1/history?site=", "bad_request", 400},
		{"/api/v1/history?v=1", "bad_request", 400},
	} {
		var e wire.ErrorResponse
		get(tt.path, tt.status, &e)
		if e.Error.Code != tt.code || e.Error.Message == "" {
			t.Errorf("GET %s: %+v, want %s", tt.path, e, tt.code)
		}
	}
	status, h, _ := do(t, ts, "POST", "/api/v1/history", "application/json", "{}")
	if status != 405 || h.Get("Allow") != "GET" {
		t.Errorf("POST /api/v1/history: %d, Allow %q", status, h.Get("Allow"))
	}
}

// historyAPIPath is historyPath's API route.
func historyAPIPath(query ...string) string {
	return "/api/v1" + historyPath(query...)
}

// TestHistoryNoStore: a server without a store has no history pages
// (404, and the main page does not link to them); one whose store file
// does not exist yet says that no site has been watched, and how to
// start.
func TestHistoryNoStore(t *testing.T) {
	_, ts := newTest(t, Config{RateLimit: -1})
	status, _, body := do(t, ts, "GET", "/history", "", "")
	if status != 404 || !strings.Contains(body, "robots serve -store PATH") {
		t.Errorf("GET /history without a store: %d\n%s", status, body)
	}
	var e wire.ErrorResponse
	status, _, body = do(t, ts, "GET", "/api/v1/history", "", "")
	if err := json.Unmarshal([]byte(body), &e); status != 404 || err != nil || e.Error.Code != "no_store" || !strings.Contains(e.Error.Message, "robots serve -store PATH") {
		t.Errorf("GET /api/v1/history without a store: %d %s", status, body)
	}
	if _, _, body = do(t, ts, "GET", "/", "", ""); strings.Contains(body, `href="/history"`) {
		t.Error("the main page links to /history without a store")
	}

	missing := filepath.Join(t.TempDir(), "not-yet.db")
	_, ts = newTest(t, Config{Store: missing, RateLimit: -1})
	status, _, body = do(t, ts, "GET", "/history", "", "")
	if status != 200 || !strings.Contains(body, "No site has been watched yet") || !strings.Contains(body, `<pre id="watch-command">robots watch -store PATH SITE</pre>`) {
		t.Errorf("GET /history, no file yet: %d\n%s", status, body)
	}
	if strings.Contains(body, missing) {
		t.Error("the page names the server's file")
	}
	status, _, body = do(t, ts, "GET", "/history?site=example.com", "", "")
	if status != 404 || !strings.Contains(body, "No site has been watched yet") {
		t.Errorf("GET /history?site=, no file yet: %d\n%s", status, body)
	}
	status, _, body = do(t, ts, "GET", "/api/v1/history", "", "")
	if status != 200 || strings.TrimSpace(body) != "{\n  \"sites\": []\n}" {
		t.Errorf("GET /api/v1/history, no file yet: %d %s", status, body)
	}
	status, _, body = do(t, ts, "GET", "/api/v1/history?site=example.com", "", "")
	if err := json.Unmarshal([]byte(body), &e); status != 404 || err != nil || e.Error.Code != "not_found" || !strings.Contains(e.Error.Message, "no site has been watched yet") {
		t.Errorf("GET /api/v1/history?site=, no file yet: %d %s", status, body)
	}
}
