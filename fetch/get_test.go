package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// clock is a settable time for the Fetcher's Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// switchable serves body with status code, both changeable, and counts
// requests.
type switchable struct {
	mu     sync.Mutex
	code   int
	body   string
	header http.Header
	hits   atomic.Int32
}

func (s *switchable) set(code int, body string) {
	s.mu.Lock()
	s.code, s.body = code, body
	s.mu.Unlock()
}

func (s *switchable) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.hits.Add(1)
	s.mu.Lock()
	code, body := s.code, s.body
	for k, v := range s.header {
		w.Header()[k] = v
	}
	s.mu.Unlock()
	w.WriteHeader(code)
	io.WriteString(w, body)
}

// TestOutageTimeline walks an outage through each policy's timeline:
// Google's robots.txt and crawl stats documentation (12 hours of disallow, the
// last good copy up to 30 days, then no restrictions), RFC 9309 §2.3.1.4
// (complete disallow, after about 30 days a cached copy).
func TestOutageTimeline(t *testing.T) {
	type step struct {
		after  time.Duration // since the outage began
		access Access
	}
	tests := []struct {
		p     Policy
		good  bool // a good copy was fetched before the outage
		steps []step
	}{
		{Google, true, []step{{0, AccessNone}, {11 * time.Hour, AccessNone}, {13 * time.Hour, AccessRules}, {29 * day, AccessRules}, {31 * day, AccessAll}}},
		{Google, false, []step{{0, AccessNone}, {11 * time.Hour, AccessNone}, {13 * time.Hour, AccessAll}, {31 * day, AccessAll}}},
		{RFC9309, true, []step{{0, AccessNone}, {29 * day, AccessNone}, {31 * day, AccessRules}, {90 * day, AccessRules}}},
		{RFC9309, false, []step{{0, AccessNone}, {29 * day, AccessNone}, {31 * day, AccessAll}}},
		{Mandelbot, true, []step{{0, AccessNone}, {31 * day, AccessRules}}},
		{Yandex, true, []step{{0, AccessAll}, {31 * day, AccessAll}}},
	}
	for _, tt := range tests {
		srv := &switchable{code: 200, body: body}
		s := serve(t, srv.ServeHTTP)
		c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
		f := &Fetcher{Policy: tt.p, Now: c.Now}
		ctx := context.Background()
		if tt.good {
			r, _ := f.Get(ctx, s.URL)
			if r.Access != AccessRules {
				t.Fatalf("%s: first fetch %s", tt.p, r.Access)
			}
			c.Add(2 * day) // the copy is stale: the next Get fetches
		}
		srv.set(503, "down")
		begin := c.Now()
		for _, st := range tt.steps {
			c.t = begin.Add(st.after)
			r, _ := f.Get(ctx, s.URL)
			if r.Access != st.access {
				t.Errorf("%s (good copy %v) %v into the outage: access %s (%s), want %s", tt.p, tt.good, st.after, r.Access, r.Reason, st.access)
			}
			if st.access == AccessRules && (r.Allowed("x", "/private") || r.GoodAt.IsZero()) {
				t.Errorf("%s: the last good copy is not what applies", tt.p)
			}
			if tt.p != Yandex && !r.ErrorSince.Equal(begin) {
				t.Errorf("%s: outage began %v, want %v", tt.p, r.ErrorSince, begin)
			}
		}
		// Recovery ends the outage.
		srv.set(200, "User-agent: *\nDisallow: /new\n")
		c.Add(2 * day)
		r, _ := f.Get(ctx, s.URL)
		if r.Access != AccessRules || r.Allowed("x", "/new") || !r.ErrorSince.IsZero() {
			t.Errorf("%s: after recovery access %s, since %v", tt.p, r.Access, r.ErrorSince)
		}
	}
}

// TestFreshness: a copy is kept 24 hours (Google), or as long as
// Cache-Control max-age says within the policy's bound; Mandelbot keeps
// 48 hours (Mandelbot's robots.txt documentation), the 1996 draft 7 days.
func TestFreshness(t *testing.T) {
	tests := []struct {
		p      Policy
		header map[string]string
		want   time.Duration
	}{
		{Google, nil, 24 * time.Hour},
		{Google, map[string]string{"Cache-Control": "public, max-age=3600"}, time.Hour},
		{Google, map[string]string{"Cache-Control": "max-age=3600", "Age": "600"}, 50 * time.Minute},
		{Google, map[string]string{"Cache-Control": "max-age=604800"}, 24 * time.Hour},
		{Google, map[string]string{"Cache-Control": "no-store"}, time.Minute},
		{Google, map[string]string{"Cache-Control": "max-age=0"}, time.Minute},
		{Google, map[string]string{"Expires": "Thu, 01 Jan 2026 02:00:00 GMT"}, 2 * time.Hour},
		{Google, map[string]string{"Expires": "garbage"}, time.Minute},
		{RFC9309, map[string]string{"Cache-Control": "max-age=172800"}, 24 * time.Hour},
		{Mandelbot, nil, 48 * time.Hour},
		{Draft1996, nil, 7 * 24 * time.Hour},
	}
	for _, tt := range tests {
		srv := &switchable{code: 200, body: body, header: http.Header{}}
		for k, v := range tt.header {
			srv.header.Set(k, v)
		}
		s := serve(t, srv.ServeHTTP)
		c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
		f := &Fetcher{Policy: tt.p, Now: c.Now}
		r, _ := f.Get(context.Background(), s.URL)
		if got := r.Expires.Sub(r.Fetched); got != tt.want {
			t.Errorf("%s %v: fresh for %v, want %v", tt.p, tt.header, got, tt.want)
		}
		c.Add(tt.want - time.Second)
		if r, _ := f.Get(context.Background(), s.URL); !r.FromCache || srv.hits.Load() != 1 {
			t.Errorf("%s %v: refetched before expiry", tt.p, tt.header)
		}
		c.Add(2 * time.Second)
		if r, _ := f.Get(context.Background(), s.URL); r.FromCache || srv.hits.Load() != 2 {
			t.Errorf("%s %v: not refetched after expiry", tt.p, tt.header)
		}
	}
}

// TestRetry: an unreachable file is fetched again soon, less often as the
// outage lasts, and when the server's Retry-After says.
func TestRetry(t *testing.T) {
	srv := &switchable{code: 503, body: "down", header: http.Header{}}
	s := serve(t, srv.ServeHTTP)
	c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	f := &Fetcher{Now: c.Now}
	r, _ := f.Get(context.Background(), s.URL)
	if d := r.Expires.Sub(r.Fetched); d != time.Minute {
		t.Errorf("first retry after %v, want 1m", d)
	}
	c.Add(3 * time.Hour)
	r, _ = f.Get(context.Background(), s.URL)
	if d := r.Expires.Sub(r.Fetched); d != time.Hour {
		t.Errorf("retry after %v three hours into the outage, want 1h", d)
	}
	srv.mu.Lock()
	srv.header.Set("Retry-After", "600")
	srv.mu.Unlock()
	c.Add(2 * time.Hour)
	r, _ = f.Get(context.Background(), s.URL)
	if d := r.Expires.Sub(r.Fetched); d != 10*time.Minute {
		t.Errorf("Retry-After 600: retry after %v", d)
	}
}

// TestSingleFlight: a thousand goroutines asking for one origin at once
// cause exactly one request. The server answers once the callers have
// missed the cache (or after 10 s), so that they wait for the one fetch
// rather than find its entry, however late a loaded machine starts them.
func TestSingleFlight(t *testing.T) {
	const callers = 1000
	var hits atomic.Int32
	c := &missCounter{Cache: NewMemoryCache(0), at: callers, reached: make(chan struct{})}
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		select {
		case <-c.reached:
		case <-time.After(10 * time.Second):
		}
		status(200, body)(w, r)
	})
	f := &Fetcher{Cache: c}
	var wg sync.WaitGroup
	results := make([]*Result, callers)
	for i := range results {
		wg.Go(func() {
			results[i], _ = f.Get(context.Background(), s.URL+"/page/"+string(rune('a'+i%26)))
		})
	}
	wg.Wait()
	if n := hits.Load(); n != 1 {
		t.Errorf("%d requests for %d concurrent callers, want 1", n, callers)
	}
	for i, r := range results {
		if r == nil || r.Access != AccessRules || r.Allowed("x", "/private") {
			t.Fatalf("caller %d: %+v", i, r)
		}
	}
}

// A missCounter is a Cache that closes reached when at Gets have missed.
type missCounter struct {
	Cache
	misses  atomic.Int64
	at      int64
	reached chan struct{}
}

func (c *missCounter) Get(ctx context.Context, key string) (*Entry, error) {
	e, err := c.Cache.Get(ctx, key)
	if e == nil && c.misses.Add(1) == c.at {
		close(c.reached)
	}
	return e, err
}

// TestCallerGivesUp: a caller whose context ends stops waiting, and the
// fetch it started still completes for the others; its cancellation is not
// recorded as an outage.
func TestCallerGivesUp(t *testing.T) {
	release := make(chan struct{})
	requested := make(chan struct{}, 1)
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case requested <- struct{}{}:
		default:
		}
		<-release
		status(200, body)(w, r)
	})
	f := &Fetcher{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := f.Get(ctx, s.URL)
		done <- err
	}()
	<-requested // the caller waits for the fetch it started
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled caller: err %v", err)
	}
	close(release)
	r, err := f.Get(context.Background(), s.URL)
	if err != nil || r.Access != AccessRules {
		t.Errorf("after a cancelled caller: %v, %+v", err, r)
	}
}

// failing is a Cache that always fails, as Redis does during an outage.
type failing struct{}

func (failing) Get(context.Context, string) (*Entry, error) { return nil, errors.New("cache down") }
func (failing) Put(context.Context, string, *Entry) error   { return errors.New("cache down") }

// TestCacheOutage: a failing cache costs a fetch, never a disallow
// (the package documentation: "A failing cache costs a fetch, never a
// disallow").
func TestCacheOutage(t *testing.T) {
	s := serve(t, status(200, body))
	f := &Fetcher{Cache: failing{}}
	r, err := f.Get(context.Background(), s.URL)
	if err != nil || r.Access != AccessRules || r.CacheErr == nil || !r.Allowed("x", "/public") {
		t.Errorf("failing cache: err %v, access %s, cache err %v", err, r.Access, r.CacheErr)
	}
}

func TestOrigin(t *testing.T) {
	tests := []struct {
		in, want, robots string
		ip               bool
	}{
		{"https://Example.COM/a/b?c#d", "https://example.com", "https://example.com/robots.txt", false},
		{"https://example.com:443/", "https://example.com", "", false},
		{"http://example.com:80", "http://example.com", "", false},
		{"https://example.com:8181/x", "https://example.com:8181", "https://example.com:8181/robots.txt", false},
		{"https://example.com:0443/", "https://example.com", "", false},
		{"http://example.com:443/", "http://example.com:443", "", false},
		{"https://user:pw@example.com/", "https://example.com", "", false},
		{"https://bücher.example/", "https://xn--bcher-kva.example", "", false},
		{"https://XN--BCHER-KVA.example/", "https://xn--bcher-kva.example", "", false},
		{"https://ПРИМЕР.рф/", "https://xn--e1afmkfd.xn--p1ai", "", false},
		{"https://212.96.82.21/robots.txt", "https://212.96.82.21", "", true},
		{"http://[::1]:8080/", "http://[::1]:8080", "http://[::1]:8080/robots.txt", true},
		{"HTTPS://example.com", "https://example.com", "", false},
	}
	for _, tt := range tests {
		o, err := ParseOrigin(tt.in)
		if err != nil {
			t.Errorf("ParseOrigin(%q): %v", tt.in, err)
			continue
		}
		if o.String() != tt.want || o.IsIP() != tt.ip {
			t.Errorf("ParseOrigin(%q) = %s (ip %v), want %s", tt.in, o, o.IsIP(), tt.want)
		}
		if tt.robots != "" && o.RobotsURL() != tt.robots {
			t.Errorf("RobotsURL = %s", o.RobotsURL())
		}
	}
	if u := (Origin{Scheme: "https", Host: "xn--bcher-kva.example"}).Unicode(); u != "bücher.example" {
		t.Errorf("Unicode = %q", u)
	}
	for _, bad := range []string{"ftp://example.com/", "example.com/robots.txt", "/robots.txt", "https:///x", "mailto:a@b.c", "https://xn--a.example/", "http://exa mple.com/"} {
		if o, err := ParseOrigin(bad); err == nil {
			t.Errorf("ParseOrigin(%q) = %s, want an error", bad, o)
		}
	}
	if _, err := ParseOrigin("ftp://example.com/"); !errors.Is(err, ErrScheme) {
		t.Errorf("ftp: %v, want ErrScheme", err)
	}
}

// TestRobotsTarget: Fetch requests a robots.txt URL as given (the checker
// examines misplaced files), any other URL's origin /robots.txt; Get always
// the origin's.
func TestRobotsTarget(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"https://example.com/blog/post", "https://example.com/robots.txt"},
		{"https://example.com/blog/robots.txt", "https://example.com/blog/robots.txt"},
		{"https://EXAMPLE.com:443/robots.txt#x", "https://EXAMPLE.com:443/robots.txt"},
		{"https://example.com", "https://example.com/robots.txt"},
	} {
		got, _, err := robotsTarget(tt.in, true)
		if err != nil || got != tt.want {
			t.Errorf("robotsTarget(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// TestSimpleOrigin: the fast path agrees with ParseOrigin wherever it
// answers.
func TestSimpleOrigin(t *testing.T) {
	for _, u := range []string{
		"https://example.com/a", "http://example.com", "http://example.com:8080/x?y", "https://a.b.c:443/",
		"http://example.com:80", "https://Example.com/", "https://bücher.example/", "https://xn--bcher-kva.example/",
		"http://[::1]:8080/", "http://1.2.3.4/x", "https://user@example.com/", "https://example.com:/x",
		"https://example.com:0443/", "https://example.com:44a/", "ftp://example.com/", "https://example.com#f",
		"https://example.com?q", "https://", "https:///x", "http://-a.com/", "https://example.com:8080:1/",
	} {
		want, werr := ParseOrigin(u)
		got, ok := simpleOrigin(u)
		if ok && (werr != nil || got != want) {
			t.Errorf("simpleOrigin(%q) = %+v; ParseOrigin = %+v, %v", u, got, want, werr)
		}
	}
	if _, ok := simpleOrigin("https://example.com/a"); !ok {
		t.Error("the common case is not on the fast path")
	}
}
