package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
)

// site is an in-memory web: robots.txt bodies by host, and a log of the
// other requests with the (fake) time they were sent.
type site struct {
	mu     sync.Mutex
	robots map[string]string // host → body; a body "503" answers 503
	sent   []sent
}

type sent struct {
	url string
	at  time.Time
}

func (s *site) RoundTrip(req *http.Request) (*http.Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	resp := &http.Response{StatusCode: 200, Header: http.Header{}, Request: req, Body: io.NopCloser(strings.NewReader("page"))}
	if req.URL.Path == "/robots.txt" {
		b, ok := s.robots[req.URL.Host]
		switch {
		case !ok:
			resp.StatusCode = 404
		case b == "503":
			resp.StatusCode = 503
		default:
			resp.Body = io.NopCloser(strings.NewReader(b))
		}
		return resp, nil
	}
	s.sent = append(s.sent, sent{req.URL.String(), time.Now()})
	return resp, nil
}

func (s *site) log() []sent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]sent(nil), s.sent...)
}

func newSite(robots map[string]string) (*site, *Transport) {
	s := &site{robots: robots}
	t := &Transport{Base: s, Agent: robots_Agent("ExampleBot")}
	return s, t
}

func robots_Agent(tokens ...string) robots.Agent { return robots.Agent{Tokens: tokens} }

func get(c *http.Client, url string) error {
	resp, err := c.Get(url)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

// TestTransportRefuses: a disallowed URL is never sent, and the error
// names the rule.
func TestTransportRefuses(t *testing.T) {
	s, tr := newSite(map[string]string{
		"a.test": "User-agent: *\nAllow: /\n\nUser-agent: ExampleBot\nDisallow: /private\n",
		"b.test": "503",
	})
	c := &http.Client{Transport: tr}
	if err := get(c, "http://a.test/public"); err != nil {
		t.Fatal(err)
	}
	err := get(c, "http://a.test/private/x")
	var de *DisallowedError
	if !errors.As(err, &de) {
		t.Fatalf("disallowed URL: err %v", err)
	}
	if de.Verdict.Decision.Line != 5 || de.Verdict.Decision.Pattern != "/private" || de.Agent != "ExampleBot" ||
		!strings.Contains(err.Error(), "line 5: Disallow: /private") {
		t.Errorf("error %q, verdict %+v", err, de.Verdict)
	}
	// An unreachable robots.txt keeps a Google-policy robot out (Google's
	// robots.txt documentation).
	err = get(c, "http://b.test/x")
	if !errors.As(err, &de) || de.Verdict.Access != AccessNone || !strings.Contains(err.Error(), "unreachable") {
		t.Errorf("unreachable robots.txt: err %v", err)
	}
	// No robots.txt: everything may be fetched.
	if err := get(c, "http://c.test/x"); err != nil {
		t.Errorf("no robots.txt: %v", err)
	}
	// robots.txt itself passes.
	if err := get(c, "http://b.test/robots.txt"); err != nil {
		t.Errorf("robots.txt request: %v", err)
	}
	got := s.log()
	if len(got) != 2 || got[0].url != "http://a.test/public" || got[1].url != "http://c.test/x" {
		t.Errorf("sent %v", got)
	}
}

// TestTransportPacing: requests to one origin are spaced by Crawl-delay
// (Bing's and Yandex's documentation) or Request-rate (Sean Conner's
// extended standard: "1/30" is one request every 30 s); other origins do not wait. Time is synctest's fake clock.
func TestTransportPacing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, tr := newSite(map[string]string{
			"slow.test": "User-agent: *\nCrawl-delay: 5\n",
			"rate.test": "User-agent: *\nRequest-rate: 1/30s\nCrawl-delay: 2\n",
			"free.test": "User-agent: *\nDisallow: /no\n",
		})
		c := &http.Client{Transport: tr}
		start := time.Now()
		var wg sync.WaitGroup
		for _, h := range []string{"slow.test", "rate.test", "free.test"} {
			wg.Go(func() {
				for i := 0; i < 3; i++ {
					if err := get(c, "http://"+h+"/p"); err != nil {
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
		last := map[string]time.Duration{}
		for _, r := range s.log() {
			last[strings.Split(r.url, "/")[2]] = r.at.Sub(start)
		}
		// Three requests: the first at once, then two waits.
		if last["slow.test"] != 10*time.Second || last["rate.test"] != 60*time.Second || last["free.test"] != 0 {
			t.Errorf("last request times %v; want slow 10s, rate 60s, free 0s", last)
		}
	})
}

func TestTransportPacingBounds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, tr := newSite(map[string]string{"x.test": "User-agent: *\nCrawl-delay: 86400\n"})
		tr.MaxDelay = 3 * time.Second
		c := &http.Client{Transport: tr}
		start := time.Now()
		get(c, "http://x.test/1")
		get(c, "http://x.test/2")
		if el := time.Since(start); el != 3*time.Second {
			t.Errorf("capped delay: %v", el)
		}
		// A context that ends before the turn comes gives an error,
		// without waiting.
		tr.MaxDelay = time.Hour
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		get(c, "http://x.test/3")
		req, _ := http.NewRequestWithContext(ctx, "GET", "http://x.test/4", nil)
		if _, err := c.Do(req); err == nil || !strings.Contains(err.Error(), "pacing") {
			t.Errorf("deadline before the turn: %v", err)
		}
	})
}

// TestTransportVisitTime: outside a Visit-time window (Sean Conner's
// extended standard: "Visit-time: 0600-0845") the request is refused with the next opening.
func TestTransportVisitTime(t *testing.T) {
	_, tr := newSite(map[string]string{"v.test": "User-agent: *\nVisit-time: 0600-0845\n"})
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tr.Now = func() time.Time { return now }
	c := &http.Client{Transport: tr}
	err := get(c, "http://v.test/x")
	var ve *VisitTimeError
	if !errors.As(err, &ve) || !ve.Next.Equal(time.Date(2026, 3, 2, 6, 0, 0, 0, time.UTC)) ||
		!strings.Contains(err.Error(), "between 06:00 and 08:45 UTC") {
		t.Fatalf("outside the window: %v", err)
	}
	now = time.Date(2026, 3, 1, 7, 0, 0, 0, time.UTC)
	if err := get(c, "http://v.test/x"); err != nil {
		t.Errorf("inside the window: %v", err)
	}
}

// TestNewTransport: a registry robot brings its token chain
// (Googlebot-Image falls back to Googlebot: Google's robots.txt
// documentation).
func TestNewTransport(t *testing.T) {
	r, ok := agents.Lookup("Googlebot-Image")
	if !ok {
		t.Fatal("no Googlebot-Image in the registry")
	}
	s := &site{robots: map[string]string{"g.test": "User-agent: Googlebot\nDisallow: /img\n"}}
	tr, err := NewTransport(r, s)
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Transport: tr}
	var de *DisallowedError
	if err := get(c, "http://g.test/img/a.png"); !errors.As(err, &de) || de.Agent != "Googlebot-Image" {
		t.Errorf("Googlebot-Image under a Googlebot group: %v", err)
	}
	if err := get(c, "http://g.test/other"); err != nil {
		t.Error(err)
	}
}
