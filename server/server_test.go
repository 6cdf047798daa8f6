package server

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotskit/robots/internal/netguard"
	"github.com/robotskit/robots/internal/wire"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// newTest returns a server as `robots serve` makes it, on loopback.
func newTest(t *testing.T, cfg Config) (*Server, *httptest.Server) {
	t.Helper()
	cfg.Addr = "127.0.0.1:0"
	s := New(cfg)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts
}

func do(t *testing.T, ts *httptest.Server, method, path, contentType, body string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

const sample = "User-agent: *\nDisallow: /private\nDisalow: /tmp\n\nUser-agent: GPTBot\nDisallow: /\n"

func jsonString(s string) string { b, _ := json.Marshal(s); return string(b) }

// intentSample has findings whose fixes change what some robots do: a
// path without "/" (FX25) and a misspelt Disallow that only Google reads
// (FX08).
const intentSample = "User-agent: *\nDisallow: admin/\nDissallow: /tmp/\nDisallow: /private/\n"

// TestRoutes: every route and error path answers per the contract, with
// golden JSON in testdata (go test ./server -run TestRoutes -update).
func TestRoutes(t *testing.T) {
	// Many quick requests from one address: no rate limit.
	_, ts := newTest(t, Config{Version: "test", RateLimit: -1})
	tests := []struct {
		name, method, path, body string
		status                   int
	}{
		{"check_robots", "POST", "/api/v1/check", `{"robots": ` + jsonString(sample) + `}`, 200},
		{"check_profile", "POST", "/api/v1/check", `{"robots": ` + jsonString(sample) + `, "profile": "rfc9309"}`, 200},
		{"check_all_robots", "POST", "/api/v1/check", `{"robots": ` + jsonString(sample) + `, "all_robots": true}`, 200},
		{"check_profile_draft1996", "POST", "/api/v1/check", `{"robots": ` + jsonString(sample) + `, "profile": "draft1996"}`, 200},
		{"check_empty", "POST", "/api/v1/check", `{"robots": ""}`, 200},
		{"check_enable", "POST", "/api/v1/check", `{"robots": ` + jsonString(intentSample) + `, "enable": ["all"]}`, 200},
		{"check_enable_unknown", "POST", "/api/v1/check", `{"robots": "", "enable": ["FX99"]}`, 400},
		{"check_neither", "POST", "/api/v1/check", `{}`, 400},
		{"check_both", "POST", "/api/v1/check", `{"robots": "", "url": "https://example.com/"}`, 400},
		{"check_bad_json", "POST", "/api/v1/check", `{"robots": `, 400},
		{"check_unknown_field", "POST", "/api/v1/check", `{"robot": "x"}`, 400},
		{"check_two_values", "POST", "/api/v1/check", `{"robots": ""} {}`, 400},
		{"check_bad_profile", "POST", "/api/v1/check", `{"robots": "", "profile": "altavista"}`, 400},
		{"check_bad_url", "POST", "/api/v1/check", `{"url": "not a url"}`, 400},
		{"check_loopback", "POST", "/api/v1/check", `{"url": "http://127.0.0.1:9/"}`, 403},
		{"check_metadata", "POST", "/api/v1/check", `{"url": "http://169.254.169.254/latest/meta-data/"}`, 403},
		{"check_get", "GET", "/api/v1/check", ``, 405},
		{"test_robots", "POST", "/api/v1/test", `{"robots": ` + jsonString(sample) + `, "robots_list": ["Googlebot", "GPTBot", "AdsBot-Google"], "urls": ["/private/x", "/tmp/y", "/"]}`, 200},
		{"test_default_robot", "POST", "/api/v1/test", `{"robots": ` + jsonString(sample) + `, "urls": ["https://example.com/private"]}`, 200},
		{"test_no_urls", "POST", "/api/v1/test", `{"robots": ""}`, 400},
		{"test_unknown_robot", "POST", "/api/v1/test", `{"robots": ` + jsonString(sample) + `, "robots_list": ["Gogglebot"], "urls": ["/"]}`, 400},
		{"test_plain_agent", "POST", "/api/v1/test", `{"robots": ` + jsonString(sample) + `, "robots_list": ["GPTBot"], "agents": ["NoSuchBot"], "urls": ["/private/x"]}`, 200},
		{"page_unknown_robot", "GET", "/api/v1/page?robot=Gogglebot&url=" + url.QueryEscape("http://[::1]/x"), ``, 400},
		{"test_private_url", "POST", "/api/v1/test", `{"url": "http://10.0.0.1/", "urls": ["/"]}`, 403},
		{"page_no_url", "GET", "/api/v1/page", ``, 400},
		{"page_private", "GET", "/api/v1/page?url=" + url.QueryEscape("http://[::1]/x"), ``, 403},
		{"page_post", "POST", "/api/v1/page", ``, 405},
		{"healthz", "GET", "/healthz", ``, 200},
		{"api_unknown", "GET", "/api/v2/check", ``, 404},
	}
	for _, tt := range tests {
		status, h, body := do(t, ts, tt.method, tt.path, "application/json", tt.body)
		if status != tt.status {
			t.Errorf("%s: status %d, want %d: %s", tt.name, status, tt.status, body)
		}
		if ct := h.Get("Content-Type"); ct != "application/json; charset=utf-8" {
			t.Errorf("%s: Content-Type %q", tt.name, ct)
		}
		if h.Get("Content-Security-Policy") == "" || h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: security headers missing: %v", tt.name, h)
		}
		if status >= 400 {
			var e wire.ErrorResponse
			if err := json.Unmarshal([]byte(body), &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
				t.Errorf("%s: error body is not {\"error\": {code, message}}: %s", tt.name, body)
			}
		}
		golden(t, tt.name, body)
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v (run with -update)", name, err)
	}
	if got != string(want) {
		t.Errorf("%s: differs from %s:\n%s", name, path, got)
	}
}

// TestLocalhostName: a name that resolves to loopback is refused after
// resolution (which address /etc/hosts gives first varies by machine).
func TestLocalhostName(t *testing.T) {
	_, ts := newTest(t, Config{})
	status, _, body := do(t, ts, "POST", "/api/v1/check", "application/json", `{"url": "http://localhost:9/robots.txt"}`)
	if status != 403 || !strings.Contains(body, "localhost resolves to") || !strings.Contains(body, "a loopback address") {
		t.Errorf("%d %s", status, body)
	}
}

func TestBodyLimits(t *testing.T) {
	_, ts := newTest(t, Config{})
	big := `{"robots": "` + strings.Repeat("a", MaxBody) + `"}`
	status, _, body := do(t, ts, "POST", "/api/v1/check", "application/json", big)
	if status != http.StatusRequestEntityTooLarge || !strings.Contains(body, "body_too_large") {
		t.Errorf("big body: %d %s", status, body)
	}
	status, _, body = do(t, ts, "POST", "/api/v1/check", "text/plain", `{"robots": ""}`)
	if status != http.StatusUnsupportedMediaType || !strings.Contains(body, "bad_content_type") {
		t.Errorf("text/plain: %d %s", status, body)
	}
}

// TestHostAndOrigin: a loopback server answers only to localhost names
// (DNS rebinding), and refuses cross-origin writes.
func TestHostAndOrigin(t *testing.T) {
	_, ts := newTest(t, Config{})
	req, _ := http.NewRequest("GET", ts.URL+"/healthz", nil)
	req.Host = "evil.example:8080"
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("foreign Host: %d", resp.StatusCode)
	}
	req, _ = http.NewRequest("POST", ts.URL+"/api/v1/check", strings.NewReader(`{"robots": ""}`))
	req.Header.Set("Origin", "https://evil.example")
	resp, err = ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("foreign Origin: %d", resp.StatusCode)
	}
	req, _ = http.NewRequest("POST", ts.URL+"/api/v1/check", strings.NewReader(`{"robots": ""}`))
	req.Header.Set("Origin", ts.URL)
	resp, _ = ts.Client().Do(req)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("same Origin: %d", resp.StatusCode)
	}
}

func TestRateLimit(t *testing.T) {
	_, ts := newTest(t, Config{RateLimit: 2})
	codes := map[int]int{}
	var retry string
	for range 10 {
		status, h, _ := do(t, ts, "GET", "/api/v1/agents?robots=GPTBot", "", "")
		codes[status]++
		if status == 429 {
			retry = h.Get("Retry-After")
		}
	}
	if codes[200] < 1 || codes[200] > 5 || codes[429] < 5 || retry == "" {
		t.Errorf("10 quick requests at 2/s: %v, Retry-After %q", codes, retry)
	}
	// The health check and the metrics are polled by monitors: never
	// limited, even for a client past its limit.
	for _, path := range []string{"/healthz", "/metrics"} {
		for range 10 {
			if status, _, _ := do(t, ts, "GET", path, "", ""); status != 200 {
				t.Fatalf("%s of a client past its limit: %d, want 200", path, status)
			}
		}
	}
}

func TestBlockedReason(t *testing.T) {
	for _, a := range []string{"127.0.0.1", "127.1.2.3", "::1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254",
		"fe80::1", "fc00::1", "fd12::1", "224.0.0.1", "ff02::1", "0.0.0.0", "::", "100.64.0.1", "::ffff:127.0.0.1",
		"::ffff:10.0.0.1", "64:ff9b::7f00:1", "2002:7f00:1::", "255.255.255.255"} {
		if netguard.Reason(netip.MustParseAddr(a)) == "" {
			t.Errorf("%s allowed", a)
		}
	}
	for _, a := range []string{"8.8.8.8", "93.184.216.34", "2001:4860:4860::8888", "1.1.1.1"} {
		if why := netguard.Reason(netip.MustParseAddr(a)); why != "" {
			t.Errorf("%s refused: %s", a, why)
		}
	}
}

// TestSSRFRedirect: a site the guard allows redirects to one it refuses;
// the server never connects to the second, for robots.txt (check) and
// for a page.
func TestSSRFRedirect(t *testing.T) {
	var privateHits atomic.Int32
	private := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		privateHits.Add(1)
		io.WriteString(w, "User-agent: *\nDisallow: /\n")
	}))
	defer private.Close()
	public := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, private.URL+r.URL.Path, http.StatusFound)
	}))
	defer public.Close()
	publicPort := netip.MustParseAddrPort(strings.TrimPrefix(public.URL, "http://")).Port()

	s, ts := newTest(t, Config{})
	// In this test only the public server's port counts as public.
	s.guard.Blocked = func(ap netip.AddrPort) string {
		if ap.Port() == publicPort {
			return ""
		}
		return "a private address"
	}
	status, _, body := do(t, ts, "POST", "/api/v1/check", "application/json", `{"url": "`+public.URL+`/"}`)
	if status != 200 || !strings.Contains(body, "refusing to connect to 127.0.0.1") {
		t.Errorf("check via redirect: %d %s", status, body)
	}
	status, _, body = do(t, ts, "GET", "/api/v1/page?url="+url.QueryEscape(public.URL+"/page"), "", "")
	if status != 502 || errorCode(body) != "page_unreachable" || !strings.Contains(body, "refusing to connect to 127.0.0.1") {
		t.Errorf("page via redirect: %d %s, want 502 page_unreachable", status, body)
	}
	// The private server itself is refused before any request.
	status, _, body = do(t, ts, "POST", "/api/v1/check", "application/json", `{"url": "`+private.URL+`/"}`)
	if status != 403 || !strings.Contains(body, "forbidden_target") {
		t.Errorf("private direct: %d %s", status, body)
	}
	if n := privateHits.Load(); n != 0 {
		t.Errorf("the private server got %d requests", n)
	}
}

// TestAllowPrivate: -allow-private lifts the guard, and a URL check then
// reads the site's robots.txt with its fetch trace.
func TestAllowPrivate(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, sample)
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("X-Robots-Tag", "googlebot: noindex")
			io.WriteString(w, `<html><head><title>T</title></head><body><a href="/private/a" rel=nofollow>a</a></body></html>`)
		}
	}))
	defer site.Close()
	_, ts := newTest(t, Config{AllowPrivate: true})
	status, _, body := do(t, ts, "POST", "/api/v1/check", "application/json", `{"url": "`+site.URL+`/"}`)
	var cr struct {
		Diagnostics []wire.Diagnostic `json:"diagnostics"`
		Fixed       string            `json:"fixed"`
		Fetch       wire.FetchTrace   `json:"fetch"`
		Robots      string            `json:"robots"`
	}
	if err := json.Unmarshal([]byte(body), &cr); err != nil || status != 200 {
		t.Fatalf("check: %d %v %s", status, err, body)
	}
	if cr.Fetch.Status != 200 || !strings.Contains(cr.Fixed, "User-agent: GPTBot") || len(cr.Diagnostics) == 0 || cr.Robots != sample {
		t.Errorf("check: fetch %+v fixed %q diagnostics %d", cr.Fetch, cr.Fixed, len(cr.Diagnostics))
	}
	status, _, body = do(t, ts, "POST", "/api/v1/test", "application/json",
		`{"url": "`+site.URL+`/", "robots_list": ["Googlebot", "GPTBot"], "urls": ["/private/x", "/ok"]}`)
	var tr wire.TestResponse
	if err := json.Unmarshal([]byte(body), &tr); err != nil || status != 200 || len(tr.Results) != 4 {
		t.Fatalf("test: %d %v %s", status, err, body)
	}
	want := []bool{false, true, false, false}
	for i, r := range tr.Results {
		if r.Allowed != want[i] {
			t.Errorf("test result %d %+v, want allowed %v", i, r, want[i])
		}
	}
	status, _, body = do(t, ts, "GET", "/api/v1/page?robot=Googlebot&url="+url.QueryEscape(site.URL+"/x"), "", "")
	var pr map[string]any
	if err := json.Unmarshal([]byte(body), &pr); err != nil || status != 200 {
		t.Fatalf("page: %d %v %s", status, err, body)
	}
	if pr["crawlable"] != true || pr["indexable"] != false || pr["title"] != "T" {
		t.Errorf("page: %s", body)
	}
	// The metrics saw it all.
	_, _, m := do(t, ts, "GET", "/metrics", "", "")
	for _, series := range []string{`robots_http_requests_total{code="200",route="check"} 1`, `robots_fetches_total{kind="page",outcome="ok"} 1`,
		`robots_cache_total{result="miss"} 1`, `robots_http_request_duration_seconds_bucket{route="test"`} {
		if !strings.Contains(m, series) {
			t.Errorf("metrics lack %s", series)
		}
	}
}

// TestUI: the page works without JavaScript (a form post) and escapes
// what the user typed.
func TestUI(t *testing.T) {
	_, ts := newTest(t, Config{})
	status, h, body := do(t, ts, "GET", "/", "", "")
	if status != 200 || !strings.Contains(body, `<form method="post" action="/"`) || !strings.Contains(h.Get("Content-Security-Policy"), "script-src 'self'") {
		t.Fatalf("GET /: %d", status)
	}
	// Under no-referrer, browsers post the form with "Origin: null", which
	// the Origin check refuses (TestBrowserNoJS drives a real one).
	if rp := h.Get("Referrer-Policy"); rp != "same-origin" {
		t.Errorf("Referrer-Policy %q", rp)
	}
	status, _, css := do(t, ts, "GET", "/static/style.css", "", "")
	if status != 200 || !strings.Contains(css, "font") {
		t.Errorf("style.css: %d", status)
	}
	// The CSP allows no inline script or style: the page loads app.js and
	// has neither.
	status, jsh, js := do(t, ts, "GET", "/static/app.js", "", "")
	if status != 200 || !strings.Contains(jsh.Get("Content-Type"), "javascript") || !strings.Contains(js, "/api/v1/check") {
		t.Errorf("app.js: %d %s", status, jsh.Get("Content-Type"))
	}
	if !strings.Contains(body, `<script src="/static/app.js" defer></script>`) {
		t.Error("the page does not load app.js")
	}
	for _, inline := range []string{"<script>", "<style", " style=", "javascript:", " onclick=", " onsubmit="} {
		if strings.Contains(body, inline) {
			t.Errorf("the page has inline %q", inline)
		}
	}
	evil := "User-agent: *\nDisalow: /<script>alert(1)</script>\n"
	form := url.Values{"robots": {evil}}.Encode()
	status, _, body = do(t, ts, "POST", "/", "application/x-www-form-urlencoded", form)
	if status != 200 || !strings.Contains(body, `id="diagnostics"`) || !strings.Contains(body, "RB") || !strings.Contains(body, `id="fixed"`) {
		t.Errorf("POST /: %d\n%s", status, body)
	}
	if strings.Contains(body, "<script>alert(1)</script>") || !strings.Contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Errorf("user input rendered unescaped")
	}
	// The profile select narrows the findings to one profile's robots.
	form = url.Values{"robots": {sample}, "profile": {"google"}}.Encode()
	_, _, body = do(t, ts, "POST", "/", "application/x-www-form-urlencoded", form)
	if !strings.Contains(body, `<option value="google" selected>`) || strings.Contains(body, "RB411") {
		t.Errorf("profile google: RB411 (first-match robots only) shown, or the select lost its value")
	}
	form = url.Values{"url": {"http://127.0.0.1:9/"}}.Encode()
	_, _, body = do(t, ts, "POST", "/", "application/x-www-form-urlencoded", form)
	if !strings.Contains(body, `class="error"`) || !strings.Contains(body, "private targets") {
		t.Errorf("private URL in the form: %s", body)
	}
}

// TestLoad holds 200 concurrent clients on loopback for a few seconds:
// no errors, bounded memory. Its figures are in the README. Each request
// waits for its slot as long as it takes: a loaded machine serves the
// queue of 200 more slowly than the default 5 s queue wait allows (p99
// 7 s with four CPU burners on two cores), and the queue's limits are
// TestOverloaded's.
func TestLoad(t *testing.T) {
	// Every client has the same address: no rate limit.
	_, ts := newTest(t, Config{RateLimit: -1, QueueWait: 5 * time.Minute, RequestTimeout: 5 * time.Minute})
	const clients = 200
	dur := 3 * time.Second
	tr := &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}
	c := &http.Client{Transport: tr, Timeout: 5 * time.Minute}
	defer tr.CloseIdleConnections()
	body := []byte(`{"robots": ` + jsonString(sample) + `}`)
	var ok, fails atomic.Int64
	var firstErr atomic.Value
	var peak atomic.Uint64
	stop := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > peak.Load() {
					peak.Store(ms.HeapInuse)
				}
			}
		}
	}()
	var lat sync.Mutex
	var latencies []time.Duration
	deadline := time.Now().Add(dur)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for time.Now().Before(deadline) {
				start := time.Now()
				var resp *http.Response
				var err error
				if i%4 == 3 {
					resp, err = c.Post(ts.URL+"/api/v1/test", "application/json", strings.NewReader(`{"robots": `+jsonString(sample)+`, "robots_list": ["Googlebot", "GPTBot"], "urls": ["/private/x", "/"]}`))
				} else {
					resp, err = c.Post(ts.URL+"/api/v1/check", "application/json", bytes.NewReader(body))
				}
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 {
						err = fmt.Errorf("status %d", resp.StatusCode)
					}
				}
				if err != nil {
					fails.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
					continue
				}
				ok.Add(1)
				lat.Lock()
				latencies = append(latencies, time.Since(start))
				lat.Unlock()
			}
		}(i)
	}
	wg.Wait()
	close(stop)
	if n := fails.Load(); n > 0 {
		t.Errorf("%d failed requests, first: %v", n, firstErr.Load())
	}
	if ok.Load() == 0 {
		t.Fatal("no request succeeded")
	}
	p50, p99 := percentile(latencies, 50), percentile(latencies, 99)
	t.Logf("load: %d clients, %v: %d requests, %.0f/s, p50 %v, p99 %v, peak heap in use %.1f MiB",
		clients, dur, ok.Load(), float64(ok.Load())/dur.Seconds(), p50, p99, float64(peak.Load())/(1<<20))
	if peak.Load() > 512<<20 {
		t.Errorf("peak heap in use %d bytes", peak.Load())
	}
}

func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[(len(s)-1)*p/100]
}
