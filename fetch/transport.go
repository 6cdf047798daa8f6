package fetch

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
)

// A Transport is an http.RoundTripper that makes any HTTP client obey
// robots.txt as one robot: before each request it gets the robots.txt of
// the URL's origin (through its Fetcher, so once a day per origin),
// refuses a disallowed URL with a *DisallowedError, keeps out of a
// Visit-time window with a *VisitTimeError, and spaces the requests to
// each origin by the file's Crawl-delay (Bing's and Yandex's
// documentation) and Request-rate (the Extended Standard for Robot
// Exclusion) with golang.org/x/time/rate.
//
//	t := &fetch.Transport{Agent: robots.Agent{Tokens: []string{"ExampleBot"}}}
//	client := &http.Client{Transport: t}
//	resp, err := client.Get("https://example.com/page") // obeys example.com/robots.txt
//
// Requests for /robots.txt itself pass through unchecked. A Transport is
// safe for concurrent use; set its fields before first use.
type Transport struct {
	// Base sends the requests that are allowed; nil means
	// http.DefaultTransport.
	Base http.RoundTripper
	// Fetcher gets robots.txt; nil means a Fetcher with the default
	// policy whose client uses Base. A Fetcher's Client must not use this
	// Transport.
	Fetcher *Fetcher
	// Agent is the robot the rules are read for. With no tokens, the
	// robot obeys only the "*" groups.
	Agent robots.Agent
	// MinDelay is the least time between two requests to one origin,
	// whatever robots.txt says; 0 means none.
	MinDelay time.Duration
	// MaxDelay caps the delay a file can impose (a Crawl-delay of a day
	// would stall a client); 0 means no cap.
	MaxDelay time.Duration
	// Now returns the current time for Visit-time windows; nil means
	// time.Now.
	Now func() time.Time

	once     sync.Once
	fetcher  *Fetcher
	mu       sync.Mutex
	limiters map[string]*pace
}

// pace is the limiter of one origin and the interval it was made for.
type pace struct {
	every time.Duration
	lim   *rate.Limiter
}

// NewTransport returns a Transport that acts as the registry robot r:
// its product tokens and quirks, its reading of the file (Profile) and its
// handling of statuses (Fetch policy). base may be nil.
func NewTransport(r agents.Robot, base http.RoundTripper) (*Transport, error) {
	if _, err := robots.ParseProfile(r.Profile); err != nil {
		return nil, err
	}
	pol, err := ParsePolicy(r.Fetch)
	if err != nil {
		return nil, err
	}
	agent, p := r.Reader()
	t := &Transport{Base: base, Agent: agent}
	t.Fetcher = &Fetcher{Policy: pol, Profile: p, Client: &http.Client{Transport: t.base()}}
	return t, nil
}

// A DisallowedError is returned by Transport.RoundTrip for a URL that
// robots.txt does not let the robot fetch.
type DisallowedError struct {
	// URL is the refused URL, Agent the robot's first token.
	URL, Agent string
	// Verdict says what decided: the rule (its line and pattern), or the
	// state of robots.txt (unreachable, forbidden).
	Verdict Verdict
	// RobotsURL is the robots.txt that decided.
	RobotsURL string
}

func (e *DisallowedError) Error() string {
	var b strings.Builder
	b.WriteString("robots.txt disallows ")
	b.WriteString(e.URL)
	b.WriteString(" for ")
	b.WriteString(e.Agent)
	if e.Verdict.Access == AccessRules {
		d := e.Verdict.Decision
		b.WriteString(" (" + e.RobotsURL + " line " + strconv.Itoa(d.Line) + ": " + d.Rule.String() + ": " + d.Pattern + ")")
	} else {
		b.WriteString(" (" + e.RobotsURL + ": " + e.Verdict.Reason + ")")
	}
	return b.String()
}

// A VisitTimeError is returned by Transport.RoundTrip outside the daily
// window a Visit-time line (or a Request-rate window) sets.
type VisitTimeError struct {
	URL    string
	Window robots.VisitTime
	// Next is when the window opens next.
	Next time.Time
}

func (e *VisitTimeError) Error() string {
	return "robots.txt allows visits to " + e.URL + " only between " + hhmm(e.Window.From) + " and " +
		hhmm(e.Window.To) + " UTC; next at " + e.Next.UTC().Format(time.RFC3339)
}

func hhmm(d time.Duration) string {
	h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
	return strconv.Itoa(h/10) + strconv.Itoa(h%10) + ":" + strconv.Itoa(m/10) + strconv.Itoa(m%10)
}

func (t *Transport) base() http.RoundTripper {
	if t.Base != nil {
		return t.Base
	}
	return http.DefaultTransport
}

func (t *Transport) getFetcher() *Fetcher {
	if t.Fetcher != nil {
		return t.Fetcher
	}
	t.once.Do(func() { t.fetcher = &Fetcher{Client: &http.Client{Transport: t.base()}} })
	return t.fetcher
}

func (t *Transport) now() time.Time {
	if t.Now != nil {
		return t.Now()
	}
	return time.Now()
}

// RoundTrip implements http.RoundTripper. It returns a *DisallowedError
// or a *VisitTimeError without sending the request when robots.txt keeps
// the robot out, and waits for its turn when the origin's pace demands it
// (an error if the request's context ends first).
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Path == "/robots.txt" {
		return t.base().RoundTrip(req)
	}
	ctx := req.Context()
	o, err := originOf(req.URL)
	if err != nil {
		return nil, err
	}
	f := t.getFetcher()
	res, err := f.GetOrigin(ctx, o)
	if err != nil {
		return nil, err
	}
	u := req.URL.String()
	v := res.Decide(t.Agent, u)
	if !v.Allowed {
		agent := "*"
		if len(t.Agent.Tokens) > 0 {
			agent = t.Agent.Tokens[0]
		}
		return nil, &DisallowedError{URL: u, Agent: agent, Verdict: v, RobotsURL: res.URL}
	}
	every, window := t.pacing(res)
	if !window.IsZero() {
		if now := t.now(); !window.Contains(now) {
			return nil, &VisitTimeError{URL: u, Window: window, Next: nextOpen(window, now)}
		}
	}
	if err := t.wait(ctx, f.key(o), every); err != nil {
		return nil, err
	}
	return t.base().RoundTrip(req)
}

// pacing returns the interval between requests and the visit window the
// robot's group sets.
func (t *Transport) pacing(res *Result) (every time.Duration, window robots.VisitTime) {
	every = t.MinDelay
	rules := res.Rules()
	if rules == nil {
		return every, window
	}
	g, ok := rules.Group(t.Agent)
	if !ok {
		return every, window
	}
	if d, ok := g.CrawlDelay(); ok {
		every = max(every, d)
	}
	if rr, ok := g.RequestRate(); ok && rr.Requests > 0 {
		every = max(every, rr.Per/time.Duration(rr.Requests))
		window = rr.Window
	}
	if vt, ok := g.VisitTime(); ok {
		window = vt
	}
	if t.MaxDelay > 0 {
		every = min(every, t.MaxDelay)
	}
	return every, window
}

// wait blocks until the origin's limiter lets a request go.
func (t *Transport) wait(ctx context.Context, key string, every time.Duration) error {
	if every <= 0 {
		return nil
	}
	t.mu.Lock()
	if t.limiters == nil {
		t.limiters = make(map[string]*pace)
	}
	p := t.limiters[key]
	if p == nil {
		p = &pace{every: every, lim: rate.NewLimiter(rate.Every(every), 1)}
		t.limiters[key] = p
	} else if p.every != every {
		// robots.txt changed since the limiter was made.
		p.every = every
		p.lim.SetLimit(rate.Every(every))
	}
	lim := p.lim
	t.mu.Unlock()
	if err := lim.Wait(ctx); err != nil {
		return errors.Join(errors.New("robots.txt pacing: waiting "+every.String()+" between requests"), err)
	}
	return nil
}

// nextOpen returns the next time at or after now when window opens.
func nextOpen(w robots.VisitTime, now time.Time) time.Time {
	now = now.UTC()
	midnight := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	open := midnight.Add(w.From)
	if !open.After(now) {
		open = open.Add(24 * time.Hour)
	}
	return open
}
