package main

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// fetchJSON is what these tests read of robots fetch -format json (the
// times are scrubbed by runCLI, so wire.FetchTrace would not decode).
type fetchJSON struct {
	Status   int               `json:"status"`
	Outcome  string            `json:"outcome"`
	Access   string            `json:"access"`
	Hops     []json.RawMessage `json:"hops"`
	Warnings []string          `json:"warnings"`
}

// rawSite answers every request with raw, the bytes of an HTTP response
// written on the hijacked connection, and then closes the connection:
// with reset, abruptly (a TCP reset), so that a body it cuts short breaks
// off as it does when a server or a proxy fails mid-answer.
func rawSite(t *testing.T, raw string, reset bool) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		buf.WriteString(raw)
		buf.Flush()
		if tc, ok := conn.(*net.TCPConn); ok && reset {
			tc.SetLinger(0)
		}
		conn.Close()
	}))
	t.Cleanup(srv.Close)
	return srv
}

// checkDiagnostics runs robots check -format json and returns its
// diagnostics by code.
func checkDiagnostics(t *testing.T, srv *httptest.Server) (map[string]string, int) {
	t.Helper()
	out, errs, code := runCLI(t, srv, "check", "-format", "json", srv.URL+"/robots.txt")
	var r struct {
		Diagnostics []struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("robots check: %v\nstdout:\n%s\nstderr:\n%s", err, out, errs)
	}
	ds := map[string]string{}
	for _, d := range r.Diagnostics {
		ds[d.Code] = d.Message
	}
	return ds, code
}

// TestFetchOutcomesAgree: a 200 answer whose body breaks off (a reset
// connection, fewer bytes than Content-Length, a gzip body that does not
// decode) is an invalid response, which Google reads as a server error
// (Google's robots.txt documentation: "invalid responses, reset or
// interrupted connections" count as server errors) and RFC 9309 §2.3.1.4
// as an unreachable file: complete disallow. robots fetch, robots test
// -url and robots check read the same answer alike: fetch says so and
// exits 1, test -url disallows, and check reports RB124 with that verdict
// rather than an empty file that allows everything (RB123).
func TestFetchOutcomesAgree(t *testing.T) {
	const head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n"
	for _, tt := range []struct {
		name  string
		raw   string
		reset bool
	}{
		{"reset", head + "Content-Length: 200\r\n\r\nUser-agent: *\nDisallow: /private\n", true},
		{"short body", head + "Content-Length: 200\r\n\r\nUser-agent: *\nDisallow: /private\n", false},
		{"broken gzip", head + "Content-Encoding: gzip\r\nContent-Length: 34\r\n\r\nUser-agent: *\nDisallow: /private\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := rawSite(t, tt.raw, tt.reset)

			out, errs, code := runCLI(t, srv, "fetch", "-format", "json", srv.URL)
			var tr fetchJSON
			if err := json.Unmarshal([]byte(out), &tr); err != nil {
				t.Fatalf("robots fetch: %v\n%s%s", err, out, errs)
			}
			if code != exitFinding || tr.Status != 200 || tr.Outcome != "unreachable" || tr.Access != "none" {
				t.Errorf("robots fetch: exit %d, status %d, outcome %s, access %s, want exit 1, 200, unreachable, none", code, tr.Status, tr.Outcome, tr.Access)
			}

			out, errs, code = runCLI(t, srv, "test", "-url", srv.URL, "/public")
			if code != exitFinding || !strings.HasPrefix(out, "disallowed /public  (robots.txt unreachable: complete disallow") || !strings.Contains(out, "HTTP 200, body broke off (") {
				t.Errorf("robots test -url: exit %d, stdout %q, stderr %q; want the URL disallowed, as robots fetch reads the answer", code, out, errs)
			}

			ds, code := checkDiagnostics(t, srv)
			msg, ok := ds["RB124"]
			if !ok || !strings.Contains(msg, "google robots: robots.txt unreachable: complete disallow") {
				t.Errorf("robots check: RB124 %q (reported %v), want the fetcher's verdict, complete disallow", msg, ok)
			}
			for _, c := range []string{"RB123", "RB101", "RB104", "RB109"} {
				if m, ok := ds[c]; ok {
					t.Errorf("robots check: %s %q on a body that broke off", c, m)
				}
			}
			if code != exitFinding {
				t.Errorf("robots check: exit %d, want 1 (RB124 is an error)", code)
			}
		})
	}
}

// TestSelfRedirect: a robots.txt that redirects to itself is a redirect
// loop after one hop. robots fetch and robots test -url read it as no
// file (Google: a chain that does not end is read as a 404), and robots
// check says "redirects to itself" (RB113), not that it gave up after 10
// redirects (RB112).
func TestSelfRedirect(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/robots.txt", http.StatusMovedPermanently)
	}))
	defer srv.Close()

	out, errs, code := runCLI(t, srv, "fetch", "-format", "json", srv.URL)
	var tr fetchJSON
	if err := json.Unmarshal([]byte(out), &tr); err != nil {
		t.Fatalf("robots fetch: %v\n%s%s", err, out, errs)
	}
	if code != exitOK || len(tr.Hops) != 1 || tr.Outcome != "unavailable" || tr.Access != "all" ||
		!strings.Contains(strings.Join(tr.Warnings, "\n"), "redirects to itself") {
		t.Errorf("robots fetch: exit %d, %d hops, outcome %s, access %s, warnings %q", code, len(tr.Hops), tr.Outcome, tr.Access, tr.Warnings)
	}

	out, _, code = runCLI(t, srv, "test", "-url", srv.URL, "/public")
	if code != exitOK || !strings.HasPrefix(out, "allowed /public  (redirect loop; no robots.txt: no restrictions") {
		t.Errorf("robots test -url: exit %d, %q", code, out)
	}

	ds, _ := checkDiagnostics(t, srv)
	if m := ds["RB113"]; m != "Redirect loop: $SERVER/robots.txt redirects to itself" {
		t.Errorf("robots check: RB113 %q, want a loop that redirects to itself (all: %v)", m, ds)
	}
	if m, ok := ds["RB112"]; ok {
		t.Errorf("robots check: RB112 %q after one hop", m)
	}
}
