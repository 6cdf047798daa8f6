package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestFetchNotRobotsTxt: robots fetch says plainly what a body that is
// not a robots.txt is (an HTML page, binary data, UTF-16 text), as the
// checker reads it, instead of counting its lines, groups and rules, and
// says it once; a robots.txt's count of ignored lines is in good English
// (issue 28, point #33 of the user trial).
func TestFetchNotRobotsTxt(t *testing.T) {
	bodies := map[string]string{
		"/html/robots.txt":  "<!DOCTYPE html><html><head><title>Not found</title></head><body>Page not found</body></html>",
		"/gzip/robots.txt":  "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03+-N-\xd2MLO\xcd+\xb1R\xd0\xe2r\xc9,N\xcc\xc9\xc9/\xb7R\xd0\xe7\x02\x00",
		"/utf16/robots.txt": "\xff\xfeU\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00:\x00 \x00*\x00\n\x00",
		"/one/robots.txt":   "User-agent: *\nDisallow: /x\nnot a directive\n",
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := bodies[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if strings.HasPrefix(body, "<!") {
			w.Header().Set("Content-Type", "text/html")
		} else {
			w.Header().Set("Content-Type", "text/plain")
		}
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	for _, tt := range []struct{ path, want string }{
		{"/html/robots.txt", "file: an HTML page, not a robots.txt (robots check: RB205)\n"},
		{"/gzip/robots.txt", "file: binary data (gzip), not a robots.txt: robots find no rules in it (robots check: RB204)\n"},
		{"/utf16/robots.txt", "file: UTF-16LE text, not UTF-8: robots find no rules in it (robots check: RB202; robots fix -enable FX02 transcodes it)\n"},
		{"/one/robots.txt", "file: 3 lines, 1 group, 1 rule, 0 sitemaps, 1 line robots ignore\n"},
	} {
		out, errs, code := runCLI(t, srv, "fetch", srv.URL+tt.path)
		if code != 0 || !strings.Contains(out, tt.want) {
			t.Errorf("%s: exit %d, stderr %q; no %q in\n%s", tt.path, code, errs, tt.want, out)
		}
		if tt.path != "/one/robots.txt" && (strings.Contains(out, " groups") || strings.Contains(out, "robots ignore")) {
			t.Errorf("%s: the body is counted as a robots.txt:\n%s", tt.path, out)
		}
		if n := strings.Count(out, "HTML page"); tt.path == "/html/robots.txt" && n != 1 {
			t.Errorf("%s: \"HTML page\" said %d times, want once:\n%s", tt.path, n, out)
		}
	}
}
