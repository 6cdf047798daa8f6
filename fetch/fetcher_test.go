package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotskit/robots"
)

const body = "User-agent: *\nDisallow: /private\n"

// serve starts a loopback server answering every request with h.
func serve(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s
}

func status(code int, text string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(code)
		io.WriteString(w, text)
	}
}

// TestStatus checks what each final status means under each policy, for a
// fresh fetch (the first of an outage for an unreachable file).
func TestStatus(t *testing.T) {
	type want struct {
		out    Outcome
		access Access
	}
	var (
		rules  = want{Success, AccessRules}
		all    = want{Unavailable, AccessAll}
		none   = want{Forbidden, AccessNone}
		outage = want{Unreachable, AccessNone}
	)
	tests := []struct {
		status int
		source string
		// google, rfc9309, bing, yandex, draft1996, mandelbot
		want [6]want
	}{
		{200, "Google: 2xx; RFC 9309 §2.3.1.1; Mandelbot", [6]want{rules, rules, rules, rules, rules, rules}},
		{203, "Yandex: only 200 (RB110)", [6]want{rules, rules, rules, all, rules, rules}},
		{206, "Yandex: only 200", [6]want{rules, rules, rules, all, rules, rules}},
		{400, "Google: all 4xx but 429 as no file", [6]want{all, all, all, all, all, all}},
		{401, "1996 draft: 401/403 forbid the site (Moderatobot); Mandelbot: even 401", [6]want{all, all, all, all, none, all}},
		{403, "Google: do not use 401/403 for crawl rate", [6]want{all, all, all, all, none, all}},
		{404, "RFC 9309 §2.3.1.3", [6]want{all, all, all, all, all, all}},
		{410, "RFC 9309 §2.3.1.3", [6]want{all, all, all, all, all, all}},
		{429, "Google: 5xx includes 429; RFC 9309: a 4xx", [6]want{outage, all, all, all, all, all}},
		{500, "Google: 5xx; RFC 9309 §2.3.1.4; Yandex: only 200", [6]want{outage, outage, outage, all, outage, outage}},
		{503, "Mandelbot: 503 stops it", [6]want{outage, outage, outage, all, outage, outage}},
		{599, "RFC 9309 §2.3.1.4: 500-599", [6]want{outage, outage, outage, all, outage, outage}},
		{304, "RB109: an unexpected status is an invalid response (Google: other errors)", [6]want{outage, outage, outage, all, outage, outage}},
		{101, "RB109", [6]want{outage, outage, outage, all, outage, outage}},
	}
	for _, tt := range tests {
		h := status(tt.status, body)
		if tt.status == 101 {
			// net/http answers 1xx to a client itself; a raw server
			// is needed.
			continue
		}
		s := serve(t, h)
		for i, p := range Policies() {
			t.Run(fmt.Sprintf("%d/%s", tt.status, p), func(t *testing.T) {
				f := &Fetcher{Policy: p}
				r, err := f.Fetch(context.Background(), s.URL+"/page")
				if err != nil {
					t.Fatal(err)
				}
				w := tt.want[i]
				if r.Outcome != w.out || r.Access != w.access {
					t.Errorf("HTTP %d under %s: outcome %s, access %s; want %s, %s (%s)",
						tt.status, p, r.Outcome, r.Access, w.out, w.access, tt.source)
				}
				if r.Status != tt.status {
					t.Errorf("Status = %d", r.Status)
				}
				if w.access == AccessRules {
					if r.Allowed("x", "/private/a") || !r.Allowed("x", "/public") {
						t.Errorf("rules of the body not applied")
					}
				}
			})
		}
	}
}

// TestNetworkErrors: DNS, refused connections and broken responses are
// "other errors", treated as server errors (Google's robots.txt
// documentation; RFC 9309 §2.3.1.4),
// except by Yandex, which reads only a 200.
func TestNetworkErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/"
	ln.Close()

	garbage := rawServer(t, func(c net.Conn) { io.WriteString(c, "this is not HTTP\r\n\r\n") })
	cut := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000")
		io.WriteString(w, "User-agent: *\nDisallow: /")
		// The handler returns early: the client sees the body end
		// before Content-Length.
	})
	for _, u := range []string{refused, garbage, cut.URL, "http://no-such-host.invalid/"} {
		for _, p := range Policies() {
			r, err := (&Fetcher{Policy: p, Timeout: 3 * time.Second}).Fetch(context.Background(), u)
			if err != nil {
				t.Fatal(err)
			}
			want, access := Unreachable, AccessNone
			if p == Yandex {
				want, access = Unavailable, AccessAll
			}
			if r.Outcome != want || r.Access != access || r.Err == "" {
				t.Errorf("%s under %s: outcome %s, access %s, err %q; want %s, %s and an error", u, p, r.Outcome, r.Access, r.Err, want, access)
			}
		}
	}
}

// rawServer accepts connections and hands each to fn.
func rawServer(t *testing.T, fn func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				br := make([]byte, 4096)
				c.Read(br)
				fn(c)
			}()
		}
	}()
	return "http://" + ln.Addr().String() + "/"
}

// TestInformationalStatus: a final 1xx is an unexpected status.
func TestInformationalStatus(t *testing.T) {
	u := rawServer(t, func(c net.Conn) {
		io.WriteString(c, "HTTP/1.1 199 Odd\r\nContent-Length: 0\r\n\r\n")
	})
	r, _ := (&Fetcher{Timeout: 2 * time.Second}).Fetch(context.Background(), u)
	if r.Outcome != Unreachable {
		t.Errorf("HTTP 199: outcome %s (status %d, err %q), want unreachable", r.Outcome, r.Status, r.Err)
	}
}

// redirector serves /robots.txt through a chain of n redirects ending at
// /final/robots.txt.
func redirector(t *testing.T, n int, hits *atomic.Int32) *httptest.Server {
	return serve(t, func(w http.ResponseWriter, r *http.Request) {
		if hits != nil {
			hits.Add(1)
		}
		var i int
		switch {
		case r.URL.Path == "/robots.txt":
			i = 0
		case r.URL.Path == "/final/robots.txt":
			status(200, body)(w, r)
			return
		default:
			fmt.Sscanf(r.URL.Path, "/hop%d", &i)
		}
		if i >= n {
			http.Redirect(w, r, "/final/robots.txt", http.StatusFound)
			return
		}
		// Relative Location headers, as many servers send.
		http.Redirect(w, r, fmt.Sprintf("hop%d", i+1), http.StatusMovedPermanently)
	})
}

// TestRedirects: Google follows 5 redirects, then treats the file as a 404
// (Google's robots.txt documentation); RFC 9309 §2.3.1.2 asks for at least
// five and allows "unavailable" beyond; the checker follows 10 and warns
// beyond 5, as Moderatobot does.
func TestRedirects(t *testing.T) {
	tests := []struct {
		chain, max int // redirects in the chain; Fetcher.MaxRedirects
		want       Outcome
		warn       string
	}{
		{0, 0, Success, ""},
		{4, 0, Success, ""}, // 5 redirects: hop0..hop4 then final
		{5, 0, Unavailable, "gave up after 5 redirects"},
		{4, 10, Success, ""},
		{5, 10, Success, "reached after 6 redirects"},
		{9, 10, Success, "reached after 10 redirects"},
		{10, 10, Unavailable, "gave up after 10 redirects"},
	}
	for _, tt := range tests {
		for _, p := range []Policy{Google, RFC9309} {
			s := redirector(t, tt.chain, nil)
			f := &Fetcher{Policy: p, MaxRedirects: tt.max}
			r, _ := f.Fetch(context.Background(), s.URL)
			if r.Outcome != tt.want {
				t.Errorf("%s, chain %d, max %d: outcome %s, want %s (hops %d)", p, tt.chain, tt.max, r.Outcome, tt.want, len(r.Hops))
			}
			if tt.warn != "" && !strings.Contains(strings.Join(r.Warnings, "|"), tt.warn) {
				t.Errorf("%s, chain %d: warnings %q, want %q", p, tt.chain, r.Warnings, tt.warn)
			}
			if tt.want == Success {
				if !strings.HasSuffix(r.FinalURL, "/final/robots.txt") || r.Origin.RobotsURL() != s.URL+"/robots.txt" {
					t.Errorf("final %s, origin %s", r.FinalURL, r.Origin)
				}
				if r.Allowed("x", "/private") {
					t.Errorf("rules of the redirect target not applied")
				}
				if len(r.Hops) != tt.chain+2 {
					t.Errorf("chain %d: %d hops recorded", tt.chain, len(r.Hops))
				}
			}
		}
	}
}

func TestRedirectLoopAndCrossHost(t *testing.T) {
	loop := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.Redirect(w, r, "/a", http.StatusFound)
			return
		}
		http.Redirect(w, r, "/robots.txt", http.StatusFound)
	})
	r, _ := (&Fetcher{}).Fetch(context.Background(), loop.URL)
	if r.Outcome != Unavailable || !strings.Contains(strings.Join(r.Warnings, "|"), "redirect loop") || len(r.Hops) != 2 {
		t.Errorf("loop: outcome %s, warnings %q, %d hops", r.Outcome, r.Warnings, len(r.Hops))
	}

	// RFC 9309 §2.3.1.2: redirects are followed "even across
	// authorities", and the rules apply to the initial authority.
	target := serve(t, status(200, body))
	from := serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/robots.txt", http.StatusMovedPermanently)
	})
	r, _ = (&Fetcher{}).Fetch(context.Background(), from.URL+"/some/page")
	if r.Outcome != Success || r.FinalURL != target.URL+"/robots.txt" || r.Origin.String() != from.URL {
		t.Errorf("cross-host: outcome %s, final %s, origin %s", r.Outcome, r.FinalURL, r.Origin)
	}

	// A 3xx without a usable Location is an invalid response.
	bad := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "ftp://example.com/robots.txt")
		w.WriteHeader(http.StatusFound)
	})
	r, _ = (&Fetcher{}).Fetch(context.Background(), bad.URL)
	if r.Outcome != Unreachable || !strings.Contains(r.Err, "Location") {
		t.Errorf("bad Location: outcome %s, err %q", r.Outcome, r.Err)
	}
}

// TestTimeouts: a server that never answers ends at the timeout as an
// unreachable file (Google's robots.txt documentation: network timeouts
// are server errors); a slow one earns a warning (Moderatobot warns after
// 5 s). The fetches go over loopback with the default client, timed by
// the wall clock: the bound (5 s for a 0.3 s timeout) only tells the
// fetcher's Timeout from its DefaultTimeout (10 s), which a loaded machine
// cannot blur; TestResultTimedOut holds the deadline exactly, on
// synctest's fake clock.
func TestTimeouts(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	hang := serve(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	start := time.Now()
	r, _ := (&Fetcher{Timeout: 300 * time.Millisecond}).Fetch(context.Background(), hang.URL)
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("hanging server: took %v", el)
	}
	if r.Outcome != Unreachable || r.Access != AccessNone || !strings.Contains(r.Err, "no complete response") {
		t.Errorf("hanging server: outcome %s, access %s, err %q", r.Outcome, r.Access, r.Err)
	}

	// Headers at once, then a body that never ends: the body read is
	// bounded by the same timeout.
	trickle := serve(t, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	start = time.Now()
	r, _ = (&Fetcher{Timeout: 300 * time.Millisecond}).Fetch(context.Background(), trickle.URL)
	if el := time.Since(start); el > 5*time.Second || r.Outcome != Unreachable {
		t.Errorf("stalled body: %v, outcome %s", el, r.Outcome)
	}

	// The answer comes 150 ms late at least: a loaded machine makes it
	// only later.
	slow := serve(t, func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(150 * time.Millisecond)
		status(200, body)(w, r)
	})
	r, _ = (&Fetcher{SlowAfter: 100 * time.Millisecond}).Fetch(context.Background(), slow.URL)
	if r.Outcome != Success || !strings.Contains(strings.Join(r.Warnings, "|"), "to download (more than 0.1 s)") {
		t.Errorf("slow server: outcome %s, warnings %q", r.Outcome, r.Warnings)
	}
}

// endless writes n bytes of robots.txt-like lines.
func endless(n int64) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		line := []byte("Disallow: /a-long-path-that-repeats/for/ever\n")
		// Each request counts down its own copy: a request that is still
		// writing when the next one comes must not share it.
		for left := n; left > 0; left -= int64(len(line)) {
			if _, err := w.Write(line); err != nil {
				return
			}
		}
	}
}

// TestOversize: a 100 MB body is read only to the 500 KiB limit (Google's
// robots.txt documentation; RFC 9309 §2.5), in bounded time and memory;
// Yandex ignores such a file whole (RB122).
func TestOversize(t *testing.T) {
	s := serve(t, endless(100<<20))
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	r, _ := (&Fetcher{}).Fetch(context.Background(), s.URL)
	el := time.Since(start)
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	// Reading to the limit takes milliseconds, a loaded machine's
	// scheduling included; a fetcher that waited for the rest of the body
	// would wait for its DefaultTimeout (10 s).
	if el > 5*time.Second {
		t.Errorf("100 MB body took %v", el)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("100 MB body allocated %d bytes", grew)
	}
	if r.Outcome != Success || !r.Truncated || r.Size != robots.MaxBytes+1 || len(r.Body) > robots.MaxBytes || r.Body[len(r.Body)-1] != '\n' {
		t.Errorf("outcome %s, truncated %v, size %d, body %d", r.Outcome, r.Truncated, r.Size, len(r.Body))
	}
	r, _ = (&Fetcher{Policy: Yandex}).Fetch(context.Background(), s.URL)
	if r.Outcome != Unavailable || r.Access != AccessAll {
		t.Errorf("yandex: outcome %s, access %s", r.Outcome, r.Access)
	}
}

func gzipped(t *testing.T, s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	io.WriteString(zw, s)
	zw.Close()
	return b.Bytes()
}

// TestGzip: Content-Encoding gzip is decoded; a 10 MB gzip bomb (a
// thousand members of 10 MB of zeros each: 10 GB decoded) is read only
// to the limit.
func TestGzip(t *testing.T) {
	plain := gzipped(t, body)
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(plain)
	})
	r, _ := (&Fetcher{}).Fetch(context.Background(), s.URL)
	if r.Outcome != Success || string(r.Body) != body || r.Encoding != "gzip" {
		t.Fatalf("gzip: outcome %s, body %q", r.Outcome, r.Body)
	}

	member := gzipped(t, string(make([]byte, 10<<20)))
	bomb := bytes.Repeat(member, (10<<20)/len(member))
	s = serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(bomb)
	})
	start := time.Now()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r, _ = (&Fetcher{}).Fetch(context.Background(), s.URL)
	runtime.ReadMemStats(&after)
	// Decoding to the limit takes milliseconds, a loaded machine's
	// scheduling included; decoding the 10 GB takes 6 s on an idle
	// machine, and the DefaultTimeout (10 s) on a loaded one.
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("gzip bomb took %v", el)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("gzip bomb allocated %d bytes", grew)
	}
	if r.Outcome != Success || !r.Truncated || r.Size != robots.MaxBytes+1 {
		t.Errorf("bomb: outcome %s, truncated %v, size %d", r.Outcome, r.Truncated, r.Size)
	}

	broken := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		io.WriteString(w, "not gzip at all")
	})
	r, _ = (&Fetcher{}).Fetch(context.Background(), broken.URL)
	if r.Outcome != Unreachable || r.Err == "" {
		t.Errorf("broken gzip: outcome %s, err %q", r.Outcome, r.Err)
	}
}

// TestSoftNotFound: an HTML page served as robots.txt has no rules (Google
// extracts what rules it can and ignores the rest), and a 5xx page that
// says "not found" is read as 404 (Google's robots.txt documentation;
// Mandelbot's).
func TestSoftNotFound(t *testing.T) {
	html := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<!DOCTYPE html>\n<html><head><title>Welcome</title></head><body>Disallow: nothing</body></html>")
	})
	r, _ := (&Fetcher{}).Fetch(context.Background(), html.URL)
	if r.Outcome != Success || !r.HTML || r.MediaType != "text/html" || !r.Allowed("x", "/anything") {
		t.Errorf("HTML page: outcome %s, html %v, type %q", r.Outcome, r.HTML, r.MediaType)
	}
	if w := strings.Join(r.Warnings, "|"); !strings.Contains(w, "HTML page") || !strings.Contains(w, `expected text/plain`) {
		t.Errorf("warnings %q", w)
	}

	nf := serve(t, status(500, "<html><title>Page Not Found</title></html>"))
	for _, tt := range []struct {
		p    Policy
		want Outcome
	}{{Google, Unavailable}, {Mandelbot, Unavailable}, {RFC9309, Unreachable}} {
		r, _ := (&Fetcher{Policy: tt.p}).Fetch(context.Background(), nf.URL)
		if r.Outcome != tt.want {
			t.Errorf("500 'not found' under %s: %s, want %s", tt.p, r.Outcome, tt.want)
		}
	}
	r, _ = (&Fetcher{}).Fetch(context.Background(), serve(t, status(503, "Service Unavailable")).URL)
	if r.Outcome != Unreachable {
		t.Errorf("plain 503: %s", r.Outcome)
	}
}

func TestCharset(t *testing.T) {
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=windows-1251")
		io.WriteString(w, "User-agent: *\nDisallow: /\xef\xf0\xe8\n")
	})
	r, _ := (&Fetcher{}).Fetch(context.Background(), s.URL)
	if r.Charset != "windows-1251" || !strings.Contains(strings.Join(r.Warnings, "|"), "charset windows-1251") {
		t.Errorf("charset %q, warnings %q", r.Charset, r.Warnings)
	}
	// The bytes are read as UTF-8, as Google reads them: the
	// octets are escaped and still match the same octets in a URL.
	if r.Allowed("x", "/%EF%F0%E8") || !r.Allowed("x", "/other") {
		t.Errorf("the body's bytes are not compared as written")
	}
}

// TestUnder: one fetch read by every policy, as `robots compare` shows it.
func TestUnder(t *testing.T) {
	type row struct {
		name string
		h    http.HandlerFunc
		want [6]Access // google, rfc9309, bing, yandex, draft1996, mandelbot
	}
	rules, all, none := AccessRules, AccessAll, AccessNone
	six := redirector(t, 5, nil) // 6 redirects
	rows := []row{
		{"401", status(401, ""), [6]Access{all, all, all, all, none, all}},
		{"429", status(429, ""), [6]Access{none, all, all, all, all, all}},
		{"503 not found page", status(503, "Not Found"), [6]Access{all, none, none, all, none, all}},
		{"203", status(203, body), [6]Access{rules, rules, rules, all, rules, rules}},
		{"6 redirects", six.Config.Handler.ServeHTTP, [6]Access{all, all, all, all, all, all}},
	}
	for _, tt := range rows {
		s := serve(t, tt.h)
		r, _ := (&Fetcher{MaxRedirects: 10}).Fetch(context.Background(), s.URL)
		for i, p := range Policies() {
			u := r.Under(p)
			if u.Access != tt.want[i] || u.Policy != p {
				t.Errorf("%s under %s: %s (%s), want %s", tt.name, p, u.Access, u.Reason, tt.want[i])
			}
			if u.Access == AccessRules && u.Allowed("x", "/private") {
				t.Errorf("%s under %s: rules not applied", tt.name, p)
			}
		}
		if tt.name == "6 redirects" && r.Access != AccessRules {
			t.Errorf("the fetch itself followed 10 redirects: access %s", r.Access)
		}
	}
}

// serveB is serve for benchmarks.
func serveB(b *testing.B) string {
	s := httptest.NewServer(status(200, body))
	b.Cleanup(s.Close)
	return s.URL
}
