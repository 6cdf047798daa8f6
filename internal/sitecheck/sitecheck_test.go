package sitecheck

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/lint"
)

// routed returns a client whose every connection goes to the test server
// s, whatever the URL's host, so that a test can name hosts and their
// www twins.
func routed(s *httptest.Server) *http.Client {
	addr := s.Listener.Addr().String()
	return &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		},
	}}
}

// TestFetch: the one sequence of robots check and the API's check. A
// missing /robots.txt next to a /ROBOTS.TXT gets its case variant (RB131)
// only with a CaseClient; the www twin is fetched only with Siblings
// (RB132), by the same fetcher.
func TestFetch(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Host == "site.test" && r.URL.Path == "/robots.txt":
			http.NotFound(w, r)
		case r.Host == "site.test" && r.URL.Path == "/ROBOTS.TXT":
			io.WriteString(w, "User-agent: *\nDisallow: /upper\n")
		case r.Host == "www.site.test" && r.URL.Path == "/robots.txt":
			io.WriteString(w, "User-agent: *\nDisallow: /www\n")
		default:
			http.NotFound(w, r)
		}
	}))
	defer s.Close()
	c := routed(s)
	f := &fetch.Fetcher{Client: c, Timeout: 5 * time.Second, MaxRedirects: 10}
	ctx := context.Background()

	site, err := Fetch(ctx, f, "http://site.test/", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if site.URL != "http://site.test/robots.txt" || site.Result.Status != 404 || site.Body != nil {
		t.Errorf("plain: URL %q, status %d, body %q", site.URL, site.Result.Status, site.Body)
	}
	if site.Fetch.CaseVariant != "" || site.Fetch.Siblings != nil {
		t.Errorf("plain: case variant %q, siblings %v, want none", site.Fetch.CaseVariant, site.Fetch.Siblings)
	}
	if cfg := site.Config(); cfg.URL != site.URL || cfg.Fetch != site.Fetch {
		t.Errorf("Config() = %+v", cfg)
	}

	site, err = Fetch(ctx, f, "http://site.test/", Options{CaseClient: c, Siblings: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := "http://site.test/ROBOTS.TXT"; site.Fetch.CaseVariant != want {
		t.Errorf("case variant %q, want %q", site.Fetch.CaseVariant, want)
	}
	// The https sibling meets a plain HTTP server: no status.
	want := []lint.Sibling{
		{URL: "https://site.test/robots.txt"},
		{URL: "http://www.site.test/robots.txt", Status: 200, Body: "User-agent: *\nDisallow: /www\n"},
	}
	if !slices.Equal(site.Fetch.Siblings, want) {
		t.Errorf("siblings %+v, want %+v", site.Fetch.Siblings, want)
	}

	if _, err := Fetch(ctx, f, "ftp://site.test/", Options{}); err == nil {
		t.Error("ftp URL: no error")
	}
}

func TestSiblingURLs(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"https://example.com/robots.txt", []string{"http://example.com/robots.txt", "https://www.example.com/robots.txt"}},
		{"http://www.example.com/robots.txt", []string{"https://www.example.com/robots.txt", "http://example.com/robots.txt"}},
		{"http://example.com:8080/robots.txt", []string{"https://example.com/robots.txt", "http://www.example.com:8080/robots.txt"}},
		{"http://192.0.2.1/robots.txt", []string{"https://192.0.2.1/robots.txt"}},
		{"/robots.txt", nil},
		{"http://%zz/", nil},
	} {
		if got := SiblingURLs(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("SiblingURLs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestTraceTimedOut: the trace's TimedOut is the fetcher's typed finding,
// not the words of the error: a host named "timeout" that does not
// resolve is unreachable (RB101), and a client's own deadline is a
// timeout (RB103) whatever Err says.
func TestTraceTimedOut(t *testing.T) {
	words := &fetch.Result{
		Err:   "DNS: no such host (deadline.timeout.test)",
		Error: &net.DNSError{Err: "no such host", Name: "deadline.timeout.test", IsNotFound: true},
		Hops:  []fetch.Hop{{URL: "http://deadline.timeout.test/robots.txt", Err: "DNS: no such host (deadline.timeout.test)"}},
	}
	if tr := Trace(words); tr.TimedOut || tr.Err != words.Err {
		t.Errorf("DNS failure: TimedOut %v, Err %q", tr.TimedOut, tr.Err)
	}
	client := &fetch.Result{
		Err:      "net/http: request canceled",
		Error:    errors.New("net/http: request canceled"),
		TimedOut: true,
		Hops:     []fetch.Hop{{URL: "http://a.test/robots.txt", Status: 200, Err: "net/http: request canceled"}},
	}
	// A status arrived and the body ran out of time: a timeout, not a
	// broken body.
	if tr := Trace(client); !tr.TimedOut || tr.Broken != "" || tr.Err != "" {
		t.Errorf("timed-out body: TimedOut %v, Broken %q, Err %q", tr.TimedOut, tr.Broken, tr.Err)
	}
	broken := &fetch.Result{
		Err:   "unexpected EOF",
		Error: io.ErrUnexpectedEOF,
		Hops:  []fetch.Hop{{URL: "http://a.test/robots.txt", Status: 200, Err: "unexpected EOF"}},
	}
	if tr := Trace(broken); tr.TimedOut || tr.Broken != "unexpected EOF" {
		t.Errorf("broken body: TimedOut %v, Broken %q", tr.TimedOut, tr.Broken)
	}
}

// TestTraceHops: the hops, a loop found in them, and the final
// response's headers.
func TestTraceHops(t *testing.T) {
	res := &fetch.Result{
		Duration: time.Second, Size: 12,
		Hops: []fetch.Hop{
			{URL: "http://a.test/robots.txt", Status: 301, Header: map[string]string{"Location": "/x"}},
			{URL: "http://a.test/x", Status: 302, Header: map[string]string{"Location": "/robots.txt"}},
			{URL: "http://a.test/robots.txt", Status: 200, Header: map[string]string{
				"Content-Type": "text/plain", "Cache-Control": "max-age=60", "Expires": "0"}},
		},
	}
	tr := Trace(res)
	if !tr.Loop || len(tr.Hops) != 3 || tr.Hops[0].Location != "/x" || tr.Elapsed != time.Second || tr.Size != 12 {
		t.Errorf("trace %+v", tr)
	}
	if tr.ContentType != "text/plain" || tr.CacheControl != "max-age=60" || tr.Expires != "0" {
		t.Errorf("headers %q %q %q", tr.ContentType, tr.CacheControl, tr.Expires)
	}
}
