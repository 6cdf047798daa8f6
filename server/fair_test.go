package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robotskit/robots/internal/wire"
	"github.com/robotskit/robots/lint"
	"github.com/robotskit/robots/syntax"
)

// TestNoClientStarves: four clients that send their bodies a byte at a
// time and four page requests to a site that never answers hold no slot
// of the work: on a server with two slots, ten small tests are each
// answered 200 within 2 s (they take milliseconds; the bound is wide for
// a loaded machine), a fifth page request to the silent site waits its
// turn of the fetch pool and is refused, and each slow body gets 408 at
// its read deadline.
func TestNoClientStarves(t *testing.T) {
	silent := silentSite(t)
	s, ts := newTest(t, Config{AllowPrivate: true, RateLimit: -1, MaxActive: 2, QueueWait: time.Second,
		BodyTimeout: 3 * time.Second, RequestTimeout: time.Minute})
	addr := strings.TrimPrefix(ts.URL, "http://")

	// Four slow bodies, each declaring 1 MiB and sending a byte every
	// 200 ms.
	type answer struct {
		status string
		err    error
	}
	slow := make(chan answer, 4)
	for range 4 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		fmt.Fprintf(c, "POST /api/v1/test HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", addr, MaxBody)
		stop := make(chan struct{})
		go func() {
			for {
				select {
				case <-stop:
					return
				case <-time.After(200 * time.Millisecond):
					if _, err := c.Write([]byte(" ")); err != nil {
						return
					}
				}
			}
		}()
		go func() {
			defer close(stop)
			line, err := bufio.NewReader(c).ReadString('\n')
			slow <- answer{strings.TrimSpace(line), err}
		}()
	}

	// Four page requests to the silent site, which the fetch pool lets
	// wait, all four at once (DefaultMaxFetchesPerHost).
	ctx, cancel := context.WithCancel(context.Background())
	var pages sync.WaitGroup
	t.Cleanup(func() { cancel(); pages.Wait() })
	for i := range 4 {
		pages.Add(1)
		go func() {
			defer pages.Done()
			req, _ := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("%s/api/v1/page?url=http://%s/p%d", ts.URL, silent, i), nil)
			if resp, err := http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
		}()
	}
	waitFor(t, "four fetches of the silent site under way", func() bool { return s.fetches.active() == 4 })
	if n := s.gate.active(); n != 0 {
		t.Errorf("while the pages wait on the silent site, %d requests hold slots of the work, want 0", n)
	}

	// Ten small tests, one after the other.
	var slowest time.Duration
	defer func() { t.Logf("the slowest of the ten small tests took %v", slowest.Round(time.Microsecond)) }()
	for i := range 10 {
		start := time.Now()
		status, _, body := do(t, ts, "POST", "/api/v1/test", "application/json",
			`{"robots":"User-agent: *\nDisallow: /private/\n","urls":["/private/`+fmt.Sprint(i)+`","/"]}`)
		d := time.Since(start)
		slowest = max(slowest, d)
		if status != 200 || d > 2*time.Second {
			t.Errorf("small test %d: %d after %v, want 200 within 2 s: %s", i, status, d.Round(time.Millisecond), body)
		}
	}

	// A fifth page to the same site finds the host's four turns taken.
	status, h, body := do(t, ts, "GET", "/api/v1/page?url=http://"+silent+"/p5", "", "")
	if status != http.StatusServiceUnavailable || errorCode(body) != "overloaded" || h.Get("Retry-After") == "" ||
		!strings.Contains(body, "already waits on 4 answers from 127.0.0.1") {
		t.Errorf("fifth page to the silent site: %d %s (Retry-After %q), want 503 overloaded naming the host", status, body, h.Get("Retry-After"))
	}

	for range 4 {
		a := <-slow
		if a.err != nil || !strings.HasPrefix(a.status, "HTTP/1.1 408") {
			t.Errorf("slow body: %q %v, want HTTP/1.1 408", a.status, a.err)
		}
	}
}

// TestBodyTimeoutPage: the page's own form, sent slower than the body's
// deadline, is answered 408 with the page, not JSON.
func TestBodyTimeoutPage(t *testing.T) {
	_, ts := newTest(t, Config{RateLimit: -1, BodyTimeout: time.Second})
	addr := strings.TrimPrefix(ts.URL, "http://")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nrobots=", addr)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(resp.Header.Get("Content-Type"), "text/html") ||
		!strings.Contains(string(b), "did not arrive within 1s") {
		t.Errorf("slow form: %d %s, want 408 and the page saying why:\n%.300s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
}

// TestBodiesBounded: a body is still cut at MaxBody while it is read
// before admission.
func TestBodiesBounded(t *testing.T) {
	_, ts := newTest(t, Config{RateLimit: -1})
	status, _, body := do(t, ts, "POST", "/api/v1/check", "application/json", `{"robots":"`+strings.Repeat("a", MaxBody)+`"}`)
	if status != http.StatusRequestEntityTooLarge {
		t.Errorf("body past MaxBody: %d %s, want 413", status, body)
	}
}

// silentSite is a loopback address that accepts connections and never
// answers; they close at the end of the test.
func silentSite(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return ln.Addr().String()
}

// waitFor polls cond until it holds, for as long as a loaded machine
// may need.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not after 30 s", what)
		}
	}
}

func TestClientKey(t *testing.T) {
	for _, c := range []struct{ addr, key string }{
		{"192.0.2.1", "192.0.2.1/32"},
		{"::ffff:192.0.2.1", "192.0.2.1/32"},
		{"2001:db8:1:2::1", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"},
		{"2001:db8:1:3::1", "2001:db8:1:3::/64"},
		{"fe80::1%eth0", "fe80::/64"},
	} {
		if got := clientKey(netip.MustParseAddr(c.addr)).String(); got != c.key {
			t.Errorf("clientKey(%s) = %s, want %s", c.addr, got, c.key)
		}
	}
}

// limited is a server with a rate limit of 1 a second (a burst of 2) on
// a clock that does not move, and the status of a GET of a cheap route
// from a peer, with an X-Forwarded-For header if xff is not empty.
func limited(cfg Config) (*Server, func(peer, xff string) int) {
	cfg.RateLimit = 1
	s := New(cfg)
	now := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	s.limiter.now = func() time.Time { return now }
	return s, func(peer, xff string) int {
		r := httptest.NewRequest("GET", "/api/v1/agents?robots=GPTBot", nil)
		r.RemoteAddr = peer
		if xff != "" {
			r.Header.Set("X-Forwarded-For", xff)
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		return w.Code
	}
}

// TestRateLimitIPv6Prefix: the addresses of one IPv6 /64 share one
// bucket; another /64, and each IPv4 address, have their own.
func TestRateLimitIPv6Prefix(t *testing.T) {
	_, get := limited(Config{})
	for i, peer := range []string{"[2001:db8:1:2::1]:1000", "[2001:db8:1:2::2]:1000"} {
		if code := get(peer, ""); code != 200 {
			t.Fatalf("request %d of the /64: %d, want 200 (the burst is 2)", i, code)
		}
	}
	if code := get("[2001:db8:1:2:abcd::9]:2000", ""); code != http.StatusTooManyRequests {
		t.Errorf("third address of the same /64: %d, want 429", code)
	}
	if code := get("[2001:db8:1:3::1]:1000", ""); code != 200 {
		t.Errorf("an address of the next /64: %d, want 200", code)
	}
	get("192.0.2.1:1000", "")
	get("192.0.2.1:1001", "")
	if code := get("192.0.2.1:1002", ""); code != http.StatusTooManyRequests {
		t.Errorf("third request of one IPv4 address: %d, want 429", code)
	}
	if code := get("192.0.2.2:1000", ""); code != 200 {
		t.Errorf("the next IPv4 address: %d, want 200", code)
	}
}

// TestTrustProxy: X-Forwarded-For names the client only when the peer is
// a proxy of Config.TrustProxy, and then its rightmost address that no
// trusted proxy holds (the client's own claims, to its left, are not
// believed).
func TestTrustProxy(t *testing.T) {
	const proxy = "10.0.0.7:5000"
	// Without -trust-proxy, every client behind the proxy is the proxy.
	_, get := limited(Config{})
	get(proxy, "203.0.113.1")
	get(proxy, "203.0.113.2")
	if code := get(proxy, "203.0.113.3"); code != http.StatusTooManyRequests {
		t.Errorf("untrusted proxy, third client: %d, want 429 (the header is not read)", code)
	}

	var logs syncBuffer
	_, get = limited(Config{TrustProxy: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")},
		Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	for _, client := range []string{"203.0.113.1", "203.0.113.2", "203.0.113.3"} {
		for i := range 2 {
			if code := get(proxy, client); code != 200 {
				t.Errorf("trusted proxy, client %s request %d: %d, want 200 (each has its own bucket)", client, i, code)
			}
		}
	}
	if code := get(proxy, "203.0.113.1"); code != http.StatusTooManyRequests {
		t.Errorf("trusted proxy, client 203.0.113.1's third request: %d, want 429", code)
	}
	// A client that forges addresses to the left of its own is still
	// itself; so is one behind two trusted proxies.
	for _, xff := range []string{"198.51.100.1, 203.0.113.1", "203.0.113.1, 10.9.9.9", "198.51.100.2, 203.0.113.1,10.1.1.1"} {
		if code := get(proxy, xff); code != http.StatusTooManyRequests {
			t.Errorf("trusted proxy, X-Forwarded-For %q: %d, want 429 (client 203.0.113.1)", xff, code)
		}
	}
	// A header from a peer outside the trusted range is ignored.
	if code := get("192.0.2.50:1", "203.0.113.9"); code != 200 {
		t.Errorf("peer outside the trusted range: %d", code)
	}
	if !strings.Contains(logs.String(), `"client":"203.0.113.2"`) {
		t.Errorf("the log does not name the client behind the trusted proxy:\n%.500s", logs.String())
	}
}

// TestLimiterEviction: a client idle for a minute is dropped; when the
// table is full, each newcomer pushes out the one client seen least
// recently, and the others keep their buckets.
func TestLimiterEviction(t *testing.T) {
	l := newLimiter(0.001) // a burst of 1, and hardly a refill
	now := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	l.now = func() time.Time { return now }
	key := func(i int) netip.Prefix {
		return clientKey(netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)}))
	}
	for i := range maxClients {
		l.allow(key(i))
		now = now.Add(time.Millisecond)
	}
	// Client 1 spent its burst; it is seen again after the others.
	if l.allow(key(1)) {
		t.Fatal("client 1 past its burst was allowed")
	}
	if l.allow(key(maxClients)) != true || l.size() != maxClients {
		t.Fatalf("a newcomer to a full table: size %d, want %d", l.size(), maxClients)
	}
	l.mu.Lock()
	_, has0 := l.clients[key(0)]
	_, has1 := l.clients[key(1)]
	_, has2 := l.clients[key(2)]
	l.mu.Unlock()
	if has0 || !has1 || !has2 {
		t.Errorf("after one newcomer: client 0 kept %v (want false), 1 kept %v, 2 kept %v (want true)", has0, has1, has2)
	}
	if l.allow(key(1)) {
		t.Error("client 1 got a fresh bucket: the newcomer cleared more than the oldest entry")
	}
	now = now.Add(2 * time.Minute)
	l.allow(key(0))
	if n := l.size(); n != 1 {
		t.Errorf("after two idle minutes: %d clients, want 1", n)
	}
}

// TestUnknownFieldHint: a field name the route does not take is answered
// 400 bad_json naming the field most likely meant, and the route's
// fields.
func TestUnknownFieldHint(t *testing.T) {
	_, ts := newTest(t, Config{RateLimit: -1})
	for _, c := range []struct{ path, body, want string }{
		{"/api/v1/test", `{"robots":"","robot":["GPTBot"],"urls":["/"]}`, `field "robot", which this route does not take: did you mean "robots_list"?`},
		{"/api/v1/test", `{"robots":"","robotsList":["GPTBot"],"urls":["/"]}`, `did you mean "robots_list"?`},
		{"/api/v1/test", `{"robots":"","user-agent":["GPTBot"],"urls":["/"]}`, `did you mean "agents"?`},
		{"/api/v1/test", `{"robots":"","agnets":["GPTBot"],"urls":["/"]}`, `did you mean "agents"?`},
		{"/api/v1/test", `{"robots":"","paths":["/"]}`, `did you mean "urls"?`},
		{"/api/v1/check", `{"file":"User-agent: *"}`, `did you mean "robots"?`},
		{"/api/v1/check", `{"robots":"","thorogh":true}`, `did you mean "thorough"?`},
		{"/api/v1/check", `{"robots":"","robot":"GPTBot"}`, `field "robot", which this route does not take. It takes "robots", "url", "thorough", "all_robots", "profile", "enable".`},
	} {
		status, _, body := do(t, ts, "POST", c.path, "application/json", c.body)
		if status != 400 || errorCode(body) != "bad_json" || !strings.Contains(body, strings.ReplaceAll(c.want, `"`, `\"`)) {
			t.Errorf("%s %s: %d %s\nwant 400 bad_json with %s", c.path, c.body, status, body, c.want)
		}
	}
}

// BenchmarkAnswerTooLarge is the work of refusing a check whose answer
// would pass MaxAnswer: a file of 30,000 groups, each for a robot of its
// own (the attacker's file of the server's review), some 60 MB of
// answer.
func BenchmarkAnswerTooLarge(b *testing.B) {
	s := New(Config{RateLimit: -1})
	var file strings.Builder
	for i := range 30000 {
		fmt.Fprintf(&file, "User-agent: a%d\nDisallow: /\n", i)
	}
	body := string(mustJSON(map[string]any{"robots": file.String()}))
	b.ResetTimer()
	for b.Loop() {
		r := httptest.NewRequest("POST", "/api/v1/check", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code != http.StatusUnprocessableEntity {
			b.Fatalf("%d %.200s", w.Code, w.Body.String())
		}
	}
}

// TestMaxReportUnderAnswer: the bound the check's meter adds up
// (lint.Config.MaxReport) stays under the JSON of the findings the
// server sends, so that no answer that fits is refused: a MaxReport of
// exactly that JSON's size lets every file through.
func TestMaxReportUnderAnswer(t *testing.T) {
	files := []string{sample, intentSample, messyRobots(64 << 10), realRobots(64 << 10)}
	var groups strings.Builder
	for i := range 500 {
		fmt.Fprintf(&groups, "User-agent: a%d\nDisallow: /\n", i)
	}
	files = append(files, groups.String())
	for i, src := range files {
		for _, all := range []bool{false, true} {
			f := syntax.Parse("", []byte(src))
			ds, err := lint.RunContext(context.Background(), f, &lint.Config{AllRobots: all})
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(wire.Diagnostics(lint.Fold(ds)))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := lint.RunContext(context.Background(), f, &lint.Config{AllRobots: all, MaxReport: int64(len(b))}); err != nil {
				t.Errorf("file %d (all %v): a bound of the %d octets of its findings' JSON: %v", i, all, len(b), err)
			}
		}
	}
}

// TestPageUnanswered: a page of which no response arrives (here a
// redirect loop) is a 502 page_unreachable that names the loop and lists
// the requests, as robots page prints it, not a report of guesses; the
// page inspector of the web page shows that error and no badges.
func TestPageUnanswered(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
		case "/a":
			http.Redirect(w, r, "/b", http.StatusFound)
		case "/b":
			http.Redirect(w, r, "/a", http.StatusMovedPermanently)
		}
	}))
	defer site.Close()
	_, ts := newTest(t, Config{AllowPrivate: true, RateLimit: -1})
	status, _, body := do(t, ts, "GET", "/api/v1/page?url="+site.URL+"/a", "", "")
	if status != http.StatusBadGateway || errorCode(body) != "page_unreachable" ||
		!strings.Contains(body, "redirect loop") || !strings.Contains(body, "302 "+site.URL+"/a → /b, 301 "+site.URL+"/b → /a") {
		t.Errorf("page of a redirect loop: %d %s", status, body)
	}
	status, _, body = do(t, ts, "GET", "/?page="+site.URL+"/a", "", "")
	if status != http.StatusBadGateway || !strings.Contains(body, "redirect loop") || strings.Contains(body, `class="badges"`) {
		t.Errorf("inspector on a redirect loop: %d, want the error and no badges:\n%.2000s", status, body)
	}
}

// TestAPIBareHost: the url of a check, a test or a page may be a bare
// host, read as the CLI reads one: https://host.
func TestAPIBareHost(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer site.Close()
	host := strings.TrimPrefix(site.URL, "http://")
	_, ts := newTest(t, Config{AllowPrivate: true, RateLimit: -1})
	// The site speaks plain HTTP, so the https:// reading fails to
	// connect; the trace shows what was read.
	status, _, body := do(t, ts, "POST", "/api/v1/check", "application/json", `{"url":"`+host+`"}`)
	if status != 200 || !strings.Contains(body, `"https://`+host+`/robots.txt"`) {
		t.Errorf("check of %s: %d %.600s", host, status, body)
	}
	status, _, body = do(t, ts, "POST", "/api/v1/test", "application/json", `{"url":"`+host+`","urls":["/"]}`)
	if status != 200 || !strings.Contains(body, `"https://`+host+`/robots.txt"`) {
		t.Errorf("test of %s: %d %.600s", host, status, body)
	}
}
