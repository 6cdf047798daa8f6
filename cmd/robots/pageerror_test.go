package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// loopSite is a site whose pages cannot be read whole: /loop redirects
// to itself, /a and /b to each other, /cut declares more bytes than it
// sends.
func loopSite(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	mux.HandleFunc("/a", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/b", http.StatusFound) })
	mux.HandleFunc("/b", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/a", http.StatusMovedPermanently) })
	mux.HandleFunc("/cut", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Length", "1000")
		io.WriteString(w, `<html><head><meta name="robots" content="noindex"><title>Cut</title></head><body>`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestPageNotRead: robots page on a page whose fetch ends in a redirect
// loop prints no report (nothing of the page was read: no directives,
// no snippet limit, no verdict) and the error once, in text and in JSON
// (issue 28, points #32 and #13 of the user trial).
func TestPageNotRead(t *testing.T) {
	srv := loopSite(t)
	for _, format := range []string{"text", "json"} {
		out, errs, code := runCLI(t, srv, "page", "-format", format, srv.URL+"/loop")
		want := "robots page: redirect loop: $SERVER/loop leads back to $SERVER/loop\n"
		if code != exitError || out != "" || errs != want {
			t.Errorf("-format %s: exit %d, stdout %q, stderr %q; want exit 2, no stdout, stderr %q", format, code, out, errs, want)
		}
	}
	// A loop of two pages lists its requests under the error.
	out, errs, code := runCLI(t, srv, "page", srv.URL+"/a")
	want := "robots page: redirect loop: $SERVER/b leads back to $SERVER/a\n" +
		"  302 $SERVER/a → /b\n" +
		"  301 $SERVER/b → /a\n"
	if code != exitError || out != "" || errs != want {
		t.Errorf("/a: exit %d, stdout %q, stderr %q; want stderr %q", code, out, errs, want)
	}
}

// TestPageCutShort: a page read but cut short is reported with what was
// read, its error said once in the report (not again as a warning nor
// on standard error), and exit 2; the JSON is one value that holds the
// error.
func TestPageCutShort(t *testing.T) {
	srv := loopSite(t)
	out, errs, code := runCLI(t, srv, "page", srv.URL+"/cut")
	if code != exitError || errs != "" {
		t.Errorf("exit %d, stderr %q; want 2 and nothing", code, errs)
	}
	if n := strings.Count(out, "unexpected EOF"); n != 1 || !strings.Contains(out, "  error: reading $SERVER/cut: unexpected EOF\n") {
		t.Errorf("the error is said %d times, want once in the fetch section:\n%s", n, out)
	}
	if !strings.Contains(out, "meta line 1    noindex") {
		t.Errorf("the directive read before the cut is missing:\n%s", out)
	}
	out, errs, code = runCLI(t, srv, "page", "-format", "json", srv.URL+"/cut")
	var rep struct{ Error string }
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&rep); err != nil || dec.More() || code != exitError || errs != "" {
		t.Fatalf("-format json: %v, more %v, exit %d, stderr %q:\n%s", err, dec.More(), code, errs, out)
	}
	if !strings.Contains(rep.Error, "unexpected EOF") {
		t.Errorf("-format json: error %q", rep.Error)
	}
}
