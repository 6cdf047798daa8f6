package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/robotskit/robots/internal/wire"
)

// site serves a small web: a robots.txt, a redirect to it, a 503 and a 404.
func site(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Cache-Control", "max-age=3600")
		w.Write([]byte("User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: https://example.com/sitemap.xml\n"))
	})
	mux.HandleFunc("/old/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/robots.txt", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/down/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "maintenance", http.StatusServiceUnavailable)
	})
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

var timings = regexp.MustCompile(`[0-9.]+ ms|\d{4}-\d\d-\d\dT[0-9:]+Z|Last-Modified: .*|Date: .*`)

func runCLI(t testing.TB, srv *httptest.Server, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errb)
	scrub := func(s string) string {
		if srv != nil {
			s = strings.ReplaceAll(s, srv.URL, "$SERVER")
		}
		return timings.ReplaceAllString(s, "…")
	}
	checkOutputShape(t, "stdout", out.String())
	checkOutputShape(t, "stderr", errb.String())
	return scrub(out.String()), scrub(errb.String()), code
}

// TestFetchCommand: `robots fetch URL` prints the trace, the outcome, how
// every family reads it and a summary of the file (the documented contract of robots fetch -format json).
func TestFetchCommand(t *testing.T) {
	srv := site(t)
	out, errs, code := runCLI(t, srv, "fetch", srv.URL+"/old/robots.txt")
	want := `robots.txt of $SERVER, as google robots fetch it
  GET $SERVER/old/robots.txt
      HTTP 301, …
      Location: /robots.txt
      Content-Type: text/html; charset=utf-8
      Content-Length: 46
  GET $SERVER/robots.txt
      HTTP 200, …, 107 bytes
      Content-Type: text/plain
      Content-Length: 107
      Cache-Control: max-age=3600
outcome: success: rules of the file apply
size: 107 bytes
fresh until: …
every robot family reads this answer alike
file: 7 lines, 2 groups, 2 rules, 1 sitemap
  line 1: * (1 rule)
  line 4: GPTBot (1 rule)
  sitemap: https://example.com/sitemap.xml
`
	if out != want || errs != "" || code != 0 {
		t.Errorf("robots fetch: exit %d, stderr %q, stdout:\n%s\nwant:\n%s", code, errs, out, want)
	}

	out, _, code = runCLI(t, srv, "fetch", "-format", "json", srv.URL+"/down/robots.txt")
	var j wire.FetchTrace
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	if code != 1 || j.Status != 503 || j.Outcome != "unreachable" || j.Access != "none" || len(j.Hops) != 1 || len(j.Readings) != 6 {
		t.Errorf("503 as json: exit %d, %+v", code, j)
	}
	for _, r := range j.Readings {
		if want := map[string]string{"yandex": "all"}[r.Policy]; want == "" && r.Access != "none" || want != "" && r.Access != want {
			t.Errorf("503 under %s: %s", r.Policy, r.Access)
		}
	}

	// -robot brings the robot's status rules: Yandex reads a 503 as no
	// file (Yandex's robots.txt documentation: 5xx answers are read as no file).
	out, _, code = runCLI(t, srv, "fetch", "-robot", "YandexBot", srv.URL+"/down/robots.txt")
	if code != 0 || !strings.Contains(out, "as yandex robots fetch it") || !strings.Contains(out, "outcome: unavailable") {
		t.Errorf("-robot YandexBot: exit %d\n%s", code, out)
	}
	_, errs, code = runCLI(t, srv, "fetch", "ftp://example.com/")
	if code != 2 || !strings.Contains(errs, "only http and https URLs") {
		t.Errorf("ftp: exit %d, %q", code, errs)
	}
	_, errs, code = runCLI(t, srv, "fetch", "-cache", "nonsense", srv.URL)
	if code != 2 || !strings.Contains(errs, "-cache") {
		t.Errorf("bad -cache: exit %d, %q", code, errs)
	}
}

// TestTestURL: `robots test -url` fetches with the robot's status rules and
// says how the fetch ended on each line.
func TestTestURL(t *testing.T) {
	srv := site(t)
	out, errs, code := runCLI(t, srv, "test", "-url", srv.URL+"/any/page", "/private/a", srv.URL+"/public")
	want := "disallowed /private/a  (line 2: Disallow: /private; robots.txt HTTP 200, google)\n" +
		"allowed $SERVER/public  (no rule matches in the group at line 1; robots.txt HTTP 200, google)\n"
	if out != want || errs != "" || code != 1 {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errs, out)
	}
	out, _, code = runCLI(t, srv, "test", "-robot", "GPTBot", "-url", srv.URL, "/public")
	if code != 1 || !strings.Contains(out, "line 5: Disallow: /; robots.txt HTTP 200, rfc9309") {
		t.Errorf("-robot GPTBot: exit %d: %s", code, out)
	}
	_, errs, code = runCLI(t, srv, "test", "-url", srv.URL, "https://elsewhere.example/x")
	if code != 2 || !strings.Contains(errs, "only its own origin") {
		t.Errorf("another origin: exit %d, %q", code, errs)
	}
	_, errs, code = runCLI(t, srv, "test", "-url", srv.URL, "-file", "x", "/x")
	if code != 2 || !strings.Contains(errs, "give one") {
		t.Errorf("-url and -file: exit %d, %q", code, errs)
	}
}

// TestCacheFlag: with -cache disk:PATH a second run answers from the file
// written by the first, without a request.
func TestCacheFlag(t *testing.T) {
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		w.Write([]byte("User-agent: *\nDisallow: /x\n"))
	}))
	defer srv.Close()
	spec := "disk:" + filepath.Join(t.TempDir(), "robots.db")
	for i := 0; i < 2; i++ {
		out, errs, code := runCLI(t, srv, "test", "-cache", spec, "-url", srv.URL, "/x")
		if code != 1 || errs != "" {
			t.Fatalf("run %d: exit %d, %q", i, code, errs)
		}
		if from := strings.Contains(out, "from the cache"); from != (i == 1) {
			t.Errorf("run %d: %s", i, out)
		}
	}
	if hits != 1 {
		t.Errorf("%d requests for two runs over one disk cache", hits)
	}
}

// TestCompareAuditURL: compare and audit fetch a URL's robots.txt.
func TestCompareAuditURL(t *testing.T) {
	srv := site(t)
	out, errs, code := runCLI(t, srv, "compare", "-robot", "Googlebot", "-robot", "GPTBot", srv.URL, "/private", "/")
	if code != 1 || !strings.Contains(out, "GPTBot") || !strings.Contains(errs, "robots.txt HTTP 200") {
		t.Errorf("compare URL: exit %d, stderr %q\n%s", code, errs, out)
	}
	out, _, code = runCLI(t, srv, "audit", "-format", "json", srv.URL)
	if code != 0 || !strings.Contains(out, `"GPTBot"`) {
		t.Errorf("audit URL: exit %d\n%s", code, out)
	}
	out, _, code = runCLI(t, srv, "audit", srv.URL+"/down/robots.txt")
	if code != 1 || !strings.Contains(out, "no file to read (robots.txt HTTP 503, google)") || !strings.Contains(out, "yandex     all") {
		t.Errorf("audit of a 503: exit %d\n%s", code, out)
	}
}
