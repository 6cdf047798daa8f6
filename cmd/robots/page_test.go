package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pageSite is a small shop: a robots.txt, pages with meta tags and
// X-Robots-Tag headers, a redirect.
func pageSite(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /private/\nDisallow: /cart\n")
	})
	page := func(body string, headers ...string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			for _, h := range headers {
				k, v, _ := strings.Cut(h, ": ")
				w.Header().Add(k, v)
			}
			io.WriteString(w, body)
		}
	}
	mux.HandleFunc("/", page(`<!DOCTYPE html>
<html><head><title>Shop</title>
<meta name="robots" content="max-snippet:120">
<link rel="canonical" href="/">
</head><body>
<p>Welcome to the shop.</p>
<div data-nosnippet>Prices change daily.</div>
<a href="/item">Item</a> <a href="/cart?add=1" rel="nofollow">Add to cart</a>
</body></html>`, "X-Robots-Tag: googlebot: noarchive"))
	mux.HandleFunc("/private/report", page(`<html><head><meta name="robots" content="noindex"></head><body>secret</body></html>`))
	mux.HandleFunc("/news", page(`<html><head><meta name="robots" content="nofollow"><meta name="googlebot" content="noindex"></head><body>news</body></html>`))
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/expired", page(`<html><body>old offer</body></html>`, "X-Robots-Tag: unavailable_after: Monday, 25-Jun-2018 15:00:00 GMT"))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

var durations = regexp.MustCompile(`"duration_ns": \d+`)

// TestPageCommand compares `robots page` with golden files in
// testdata/page (go test ./cmd/robots -run TestPageCommand -update).
func TestPageCommand(t *testing.T) {
	srv := pageSite(t)
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"home", []string{"/"}, 0},
		{"home_links", []string{"-links", "/"}, 0},
		{"disallowed_noindex", []string{"/private/report"}, exitFinding},
		{"per_robot_googlebot", []string{"/news"}, exitFinding},
		{"per_robot_bingbot", []string{"-robot", "bingbot", "/news"}, 0},
		{"redirect", []string{"/old"}, 0},
		{"expired", []string{"/expired"}, exitFinding},
		{"home_json", []string{"-format", "json", "/"}, 0},
		{"disallowed_json", []string{"-format", "json", "/private/report"}, exitFinding},
	}
	for _, tt := range tests {
		args := append([]string{"page"}, tt.args...)
		args[len(args)-1] = srv.URL + args[len(args)-1]
		out, errs, code := runCLI(t, srv, args...)
		out = durations.ReplaceAllString(out, `"duration_ns": 0`)
		if code != tt.code {
			t.Errorf("%s: exit %d, want %d; stderr %q", tt.name, code, tt.code, errs)
		}
		golden := filepath.Join("testdata", "page", tt.name+".golden")
		if *update {
			os.MkdirAll(filepath.Dir(golden), 0o755)
			if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%s: %v (run with -update)", tt.name, err)
		}
		if out != string(want) {
			t.Errorf("%s: stdout differs from %s:\n%s", tt.name, golden, out)
		}
	}
}

// TestPageJSONContract: the JSON of `robots page` has the fields
// the documented contract's names, with the right types.
func TestPageJSONContract(t *testing.T) {
	srv := pageSite(t)
	out, _, _ := runCLI(t, srv, "page", "-format", "json", srv.URL+"/private/report")
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	for key, kind := range map[string]string{
		"url": "string", "final_url": "string", "status": "float64", "crawlable": "bool", "indexable": "bool",
		"follow": "bool", "snippet": "bool", "robots_txt": "map", "directives": "slice", "warnings": "slice",
	} {
		v, ok := m[key]
		if !ok {
			t.Errorf("no %q", key)
			continue
		}
		got := map[bool]string{true: "ok"}[false]
		switch v.(type) {
		case string:
			got = "string"
		case float64:
			got = "float64"
		case bool:
			got = "bool"
		case map[string]any:
			got = "map"
		case []any:
			got = "slice"
		}
		if got != kind {
			t.Errorf("%q is %T, want %s", key, v, kind)
		}
	}
	rt := m["robots_txt"].(map[string]any)
	if rt["allowed"] != false || rt["line"] != float64(2) {
		t.Errorf("robots_txt %v", rt)
	}
	if m["crawlable"] != false || m["indexable"] != true {
		t.Errorf("crawlable %v indexable %v", m["crawlable"], m["indexable"])
	}
}

func TestPageErrors(t *testing.T) {
	srv := pageSite(t)
	for _, tt := range []struct {
		args []string
		msg  string
	}{
		{[]string{"page"}, "give one page URL"},
		{[]string{"page", "ftp://example.com/x"}, "only http and https URLs"},
		{[]string{"page", "nonsense"}, `"nonsense" is not a URL`},
		{[]string{"page", ""}, "empty URL"},
		{[]string{"page", "-robot", "Gogglebot", "http://x"}, `unknown robot "Gogglebot"; did you mean Googlebot`},
		{[]string{"page", "-format", "xml", "http://x"}, "-format must be text or json"},
		{[]string{"page", "-max-bytes", "-1", "http://x"}, "-max-bytes"},
		{[]string{"page", "-timeout", "0s", "http://x"}, "-timeout"},
		{[]string{"page", "http://127.0.0.1:1/"}, "connection refused"},
	} {
		_, errs, code := runCLI(t, srv, tt.args...)
		if code != exitError || !strings.Contains(errs, tt.msg) {
			t.Errorf("%q: exit %d, stderr %q, want %q", tt.args, code, errs, tt.msg)
		}
	}
}
