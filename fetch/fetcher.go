package fetch

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"weak"

	"golang.org/x/sync/singleflight"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/internal/sniff"
)

// Defaults of a zero Fetcher.
const (
	// DefaultTimeout bounds a whole fetch, redirects included: Moderatobot
	// gives up after 10 s, and Google treats a timeout as a server error
	// (Google's robots.txt documentation).
	DefaultTimeout = 10 * time.Second
	// DefaultSlowAfter is when a response counts as slow (Moderatobot
	// "starts to warn about low speed after 5 seconds").
	DefaultSlowAfter = 5 * time.Second
	// DefaultUserAgent is the User-Agent header of a Fetcher that sets
	// none.
	DefaultUserAgent = "robots/1 (+https://github.com/robotskit/robots)"
	// minTTL is the shortest time a copy is kept, whatever Cache-Control
	// says: a robot that obeyed "no-store" would fetch robots.txt before
	// every URL.
	minTTL = time.Minute
	// maxRetry is the longest wait between fetches while robots.txt is
	// unreachable.
	maxRetry = time.Hour
	// errorBodyMax is how much of a non-2xx body is read, to tell a
	// "not found" page served with a 5xx status.
	errorBodyMax = 16 << 10
)

// A Fetcher fetches robots.txt files as one robot family does: the
// statuses, redirects, size limit, timeouts and cache lifetimes of its
// Policy, and the reading of its Profile. The zero value fetches as
// Googlebot does, with a 64 MiB memory cache. A Fetcher is safe for
// concurrent use; set its fields before first use and do not copy it
// afterwards.
type Fetcher struct {
	// Client sends the requests; nil means http.DefaultClient. The
	// Fetcher follows redirects itself (it counts and records them), so
	// the client's CheckRedirect is not used.
	Client *http.Client
	// UserAgent is the User-Agent header; "" means DefaultUserAgent.
	// A robot sends its own (package agents has them).
	UserAgent string
	// Policy is how HTTP outcomes are read; the zero value is Google.
	Policy Policy
	// Profile is how a fetched file is read; the zero value is Google.
	Profile robots.Profile
	// Cache keeps the state of each origin; nil means a memory cache of
	// 64 MiB made on first use. Fetch ignores it; Get uses it.
	Cache Cache
	// Timeout bounds one fetch, redirects included; 0 means
	// DefaultTimeout.
	Timeout time.Duration
	// SlowAfter is when a fetch earns a "slow" warning; 0 means
	// DefaultSlowAfter.
	SlowAfter time.Duration
	// MaxRedirects is how many redirects are followed; 0 means the
	// policy's (5). The checker follows 10 and warns beyond 5, as
	// Moderatobot does.
	MaxRedirects int
	// Now returns the current time; nil means time.Now. Tests set it to
	// walk through the outage timeline.
	Now func() time.Time

	once   sync.Once
	cache  Cache
	flight singleflight.Group
}

// A Hop is one request of a fetch: the robots.txt URL or a redirect
// target.
type Hop struct {
	URL string
	// Status is the HTTP status, 0 when no response arrived.
	Status int
	// Header holds the response headers of interest (Location,
	// Content-Type, Content-Encoding, Content-Length, Cache-Control,
	// Expires, Age, Last-Modified, ETag, Retry-After), first values only.
	Header map[string]string
	// Duration is the time from sending the request to the end of the
	// response body (or the error).
	Duration time.Duration
	// Size is how many body bytes were read, after decoding.
	Size int64
	// Err is why no usable response arrived, "" otherwise.
	Err string
}

// headersOfInterest are kept in a Hop.
var headersOfInterest = []string{
	"Location", "Content-Type", "Content-Encoding", "Content-Length",
	"Cache-Control", "Expires", "Age", "Last-Modified", "ETag", "Retry-After",
}

// A Result is what a robot knows about one origin's robots.txt: how the
// last fetch went, what that means under the policy, and the rules that
// apply.
type Result struct {
	// Origin is the origin the file governs.
	Origin Origin
	// URL is the robots.txt URL requested; FinalURL is where the last
	// redirect led (the rules still govern Origin: RFC 9309 §2.3.1.2).
	URL, FinalURL string
	// Policy is the policy the result was read under.
	Policy Policy
	// Status is the final HTTP status, 0 when no response arrived.
	Status int
	// Outcome is what the fetch meant under the policy.
	Outcome Outcome
	// Access is what the robot may crawl now, after the outage timeline
	// for an unreachable file; Reason says why in words.
	Access Access
	Reason string
	// Hops lists every request of the fetch in order; empty when the
	// result came from the cache.
	Hops []Hop
	// Body is the robots.txt body whose rules apply (for an outage, the
	// last good copy), cut at the 500 KiB limit; nil when Access is not
	// AccessRules. The results and entries of the same bytes share it
	// (see Entry): do not modify it.
	Body []byte
	// Size is how many body bytes were read (after decoding, at most the
	// limit plus one); Truncated is set when the body went past the
	// limit, whose rest was not read (Google ignores what follows 500 KiB).
	Size      int64
	Truncated bool
	// MediaType and Charset come from Content-Type; Encoding from
	// Content-Encoding.
	MediaType, Charset, Encoding string
	// HTML is set when a success body is an HTML page (a soft 404, a
	// login page): it has no usable rules (RB205).
	HTML bool
	// Duration is the time the whole fetch took.
	Duration time.Duration
	// Err is the network error that ended the fetch, "" if none, in the
	// words a robot's log would use; the JSON traces of the fetch carry it.
	Err string
	// Error is the error behind Err, nil exactly when Err is "": the
	// client's error (a *url.Error around a *net.OpError, a
	// *net.DNSError, an x509 error …), the body's read or decoding error,
	// or, when the fetch ran out of time, one that wraps ctx.Err()
	// (context.DeadlineExceeded for the Timeout). Use errors.Is and
	// errors.As on it rather than reading Err; TimedOut already says
	// whether it was a timeout. It is never encoded: a result from the
	// cache has none.
	Error error `json:"-"`
	// Warnings are the fetch's problems a webmaster should hear about.
	Warnings []string
	// FromCache is set when no request was made.
	FromCache bool
	// Fetched is when the last fetch ended, Expires when the next is
	// due; ErrorSince is when the current outage began (zero without
	// one), GoodAt when the copy in use was fetched.
	Fetched, Expires, ErrorSince, GoodAt time.Time
	// CacheErr is the cache's error, if it failed; the fetch went ahead
	// without it.
	CacheErr error
	// Redirects is how many redirects the fetch followed. When it ended
	// on a redirect it did not follow, Loop reports that the redirect led
	// back to a URL already requested (a URL that redirects to itself
	// included), and TooManyRedirects that following it would have passed
	// the fetcher's limit. They are zero for a result from the cache.
	Redirects              int
	Loop, TooManyRedirects bool
	// TimedOut reports that no complete response arrived in time, and so
	// that the fetch ended on a timeout rather than on an answer or a
	// refusal: the fetcher's Timeout or the deadline of the caller's
	// context passed, or the caller's context ended while the body was
	// arriving (Err then says "no complete response within …"), or
	// the Client gave up first on a deadline of its own — its Timeout, a
	// dial, TLS handshake or response-header timeout, a DNS lookup that
	// timed out — which Error reports as context.DeadlineExceeded or as a
	// net.Error whose Timeout method returns true (IsTimeout). Google
	// reads such a robots.txt as unreachable, a server error (Google's
	// robots.txt documentation,
	// https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt).
	// It is false for a result from the cache.
	TimedOut bool

	rules *robots.Rules
	ttl   time.Duration // freshness of a fetched result, set by final

	// The facts of a fetch, which Under reads again for another policy.
	profile  robots.Profile
	end      ending
	notFound bool   // a 5xx page that says "not found"
	raw      []byte // a 2xx body, cut at the limit
	note     string // why the policy read the facts as it did, if not plain
}

// ending is how a fetch ended.
type ending uint8

const (
	endStatus   ending = iota // a final status arrived
	endNetwork                // no usable response: network, timeout, invalid
	endLoop                   // a redirect loop
	endOverflow               // more redirects than followed
)

// Rules returns the rules that apply when Access is AccessRules, and nil
// otherwise.
func (r *Result) Rules() *robots.Rules { return r.rules }

// A Verdict is a robots.txt answer for one URL that accounts for how the
// fetch went.
type Verdict struct {
	// Allowed is the answer.
	Allowed bool
	// Access is the result's access: when it is AccessRules, Decision
	// says which rule decided; otherwise the fetch decided, for Reason.
	Access   Access
	Decision robots.Decision
	Reason   string
}

// Decide answers whether robot a may fetch url.
func (r *Result) Decide(a robots.Agent, url string) Verdict {
	switch r.Access {
	case AccessRules:
		d := r.rules.Decide(a, url)
		return Verdict{Allowed: d.Allowed, Access: AccessRules, Decision: d}
	case AccessNone:
		return Verdict{Allowed: false, Access: AccessNone, Reason: r.Reason}
	}
	return Verdict{Allowed: true, Access: r.Access, Reason: r.Reason}
}

// Allowed reports whether the robot whose product token is agent may
// fetch url.
func (r *Result) Allowed(agent, url string) bool {
	return r.Decide(robots.Agent{Tokens: []string{agent}}, url).Allowed
}

func (f *Fetcher) now() time.Time {
	if f.Now != nil {
		return f.Now()
	}
	return time.Now()
}

func (f *Fetcher) getCache() Cache {
	if f.Cache != nil {
		return f.Cache
	}
	f.once.Do(func() { f.cache = NewMemoryCache(0) })
	return f.cache
}

// Key returns the cache key of an origin under the fetcher's policy.
func (f *Fetcher) key(o Origin) string {
	switch {
	case strings.IndexByte(o.Host, ':') >= 0: // IPv6
		return f.Policy.String() + " " + o.String()
	case o.Port == "":
		return f.Policy.String() + " " + o.Scheme + "://" + o.Host // one allocation
	}
	return f.Policy.String() + " " + o.Scheme + "://" + o.Host + ":" + o.Port
}

// Get returns the state of the robots.txt of rawURL's origin: from the
// cache while it is fresh, else fetched once however many goroutines ask
// at the same time. rawURL is any absolute http or https URL of the site.
// The error is non-nil only for a URL that names no origin, or when ctx
// ends before the answer; a failed fetch is a Result whose Outcome says
// so. Results may be shared between callers: do not modify them.
func (f *Fetcher) Get(ctx context.Context, rawURL string) (*Result, error) {
	o, ok := simpleOrigin(rawURL)
	if !ok {
		var err error
		if o, err = ParseOrigin(rawURL); err != nil {
			return nil, err
		}
	}
	return f.GetOrigin(ctx, o)
}

// GetOrigin is Get for an origin.
func (f *Fetcher) GetOrigin(ctx context.Context, o Origin) (*Result, error) {
	c := f.getCache()
	key := f.key(o)
	e, cerr := c.Get(ctx, key)
	if e != nil && e.Fresh(f.now()) {
		return f.fromEntry(o, e, cerr), nil
	}
	// The fetch is shared by every caller waiting for it, so it runs
	// under the fetcher's own timeout, not the first caller's context:
	// one caller giving up must not record an outage for all.
	fctx := context.WithoutCancel(ctx)
	ch := f.flight.DoChan(key, func() (any, error) {
		// Another flight may have finished between the Get above and
		// this one: look again, so that concurrent callers cause one
		// request.
		if e2, err := c.Get(fctx, key); err == nil && e2 != nil {
			if e2.Fresh(f.now()) {
				return f.fromEntry(o, e2, nil), nil
			}
			e = e2
		}
		r := f.fetch(fctx, o.RobotsURL(), o)
		ne := f.entry(e, r)
		f.apply(r, ne)
		if err := c.Put(fctx, key, ne); err != nil {
			r.CacheErr = err
		}
		return r, nil
	})
	var r *Result
	select {
	case res := <-ch:
		r = res.Val.(*Result)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if cerr != nil && r.CacheErr == nil {
		rr := *r
		rr.CacheErr = cerr
		r = &rr
	}
	return r, nil
}

// Fetch fetches robots.txt for rawURL now, bypassing the cache, and
// returns the full trace. rawURL is any URL of the site, or a robots.txt
// URL itself (a path ending in /robots.txt is requested as is, so that a
// misplaced file can be examined). The result has no outage history: an
// unreachable file reads as the start of an outage.
func (f *Fetcher) Fetch(ctx context.Context, rawURL string) (*Result, error) {
	target, o, err := robotsTarget(rawURL, true)
	if err != nil {
		return nil, err
	}
	r := f.fetch(ctx, target, o)
	f.apply(r, f.entry(nil, r))
	return r, nil
}

// entry returns the new cache entry after fetch r, given the previous one.
func (f *Fetcher) entry(prev *Entry, r *Result) *Entry {
	now := r.Fetched
	e := &Entry{
		URL: r.FinalURL, Outcome: r.Outcome, Status: r.Status,
		Fetched: now, Expires: r.Expires,
	}
	if r.Outcome != Unreachable {
		e.Good, e.GoodAt = r.Outcome, now
		if r.Outcome == Success {
			s := shareBody(r.raw, true) // r.raw is the fetch's own, never written
			e.Body = s.body
			e.shared.Store(s)
		}
		return e
	}
	e.ErrorSince = now
	if prev != nil {
		if prev.Outcome == Unreachable && !prev.ErrorSince.IsZero() {
			e.ErrorSince = prev.ErrorSince
		}
		e.Good, e.GoodAt, e.Body = prev.Good, prev.GoodAt, prev.Body
		e.shared.Store(prev.shared.Load())
	}
	// Retry sooner at the start of an outage and less often as it lasts;
	// a Retry-After of the server, when given, wins within bounds.
	if r.Expires.IsZero() {
		wait := max(minTTL, min(now.Sub(e.ErrorSince)/2, maxRetry))
		e.Expires = now.Add(wait)
		r.Expires = e.Expires
	}
	return e
}

// apply sets the access of r from the entry e at the time of r.
func (f *Fetcher) apply(r *Result, e *Entry) {
	s := f.Policy.sem()
	now := f.now()
	streak := time.Duration(0)
	if !e.ErrorSince.IsZero() {
		streak = now.Sub(e.ErrorSince)
	}
	r.Access, r.Reason = s.access(e.Outcome, streak, e.Good)
	if r.note != "" && e.Outcome == r.Outcome {
		r.Reason = r.note + "; " + r.Reason
	}
	r.ErrorSince = e.ErrorSince
	r.rules, r.Body = nil, nil
	if r.Access == AccessRules {
		r.GoodAt = e.GoodAt
		r.Body = e.Body
		r.rules = e.rules(f.Profile)
	}
}

// fromEntry makes a result of a cache entry. The result of a fresh entry
// that is not in an outage does not change with time, so the entry keeps
// it for the next hit, weakly: until no caller holds it, so that it costs
// no memory per origin for long.
func (f *Fetcher) fromEntry(o Origin, e *Entry, cerr error) *Result {
	memo := cerr == nil && e.Outcome != Unreachable
	if memo {
		if h := e.hit.Load(); h != nil {
			if r := h.r.Value(); r != nil && r.profile == f.Profile && r.Origin == o {
				return r
			}
		}
	}
	r := &Result{profile: f.Profile,
		Origin: o, URL: robotsURL(o, e.URL), FinalURL: e.URL, Policy: f.Policy,
		Status: e.Status, Outcome: e.Outcome, FromCache: true,
		Fetched: e.Fetched, Expires: e.Expires, CacheErr: cerr,
	}
	f.apply(r, e)
	if memo {
		e.hit.Store(&weakResult{weak.Make(r)})
	}
	return r
}

// robotsURL returns o.RobotsURL(), which is final itself when the fetch
// that ended at final was not redirected: then it takes no allocation.
func robotsURL(o Origin, final string) string {
	if o.Port == "" && strings.IndexByte(o.Host, ':') < 0 {
		rest, ok := strings.CutPrefix(final, o.Scheme)
		if ok {
			rest, ok = strings.CutPrefix(rest, "://")
		}
		if ok {
			rest, ok = strings.CutPrefix(rest, o.Host)
		}
		if ok && rest == "/robots.txt" {
			return final
		}
	}
	return o.RobotsURL()
}

// fetch performs the requests for target and fills a result with the
// trace and the outcome; Access is left to apply.
func (f *Fetcher) fetch(ctx context.Context, target string, o Origin) *Result {
	s := f.Policy.sem()
	timeout := f.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	slow := f.SlowAfter
	if slow <= 0 {
		slow = DefaultSlowAfter
	}
	maxRedirects := f.MaxRedirects
	if maxRedirects <= 0 {
		maxRedirects = s.redirects
	}
	client := http.DefaultClient
	if f.Client != nil {
		client = f.Client
	}
	c := *client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	if c.Timeout == 0 || c.Timeout > timeout {
		c.Timeout = 0 // the context bounds the fetch
	}
	ua := f.UserAgent
	if ua == "" {
		ua = DefaultUserAgent
	}

	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	wall := time.Now()
	r := &Result{Origin: o, URL: target, FinalURL: target, Policy: f.Policy, profile: f.Profile}
	defer func() {
		r.Duration = time.Since(wall)
		r.Fetched = f.now()
		if r.ttl > 0 {
			r.Expires = r.Fetched.Add(r.ttl)
		}
		if r.Duration > slow && r.Err == "" {
			r.Warnings = append(r.Warnings, "robots.txt took "+seconds(r.Duration)+" to download (more than "+seconds(slow)+")")
		}
	}()

	visited := map[string]bool{target: true}
	cur := target
	for {
		hop, resp, err := f.request(ctx, &c, cur, ua)
		if err != nil {
			r.Hops = append(r.Hops, hop.Hop)
			r.Err, r.Error, r.TimedOut = hop.Err, err, IsTimeout(err)
			r.end = endNetwork
			r.Outcome, r.note = s.outcome(r, maxRedirects)
			if ctx.Err() == context.DeadlineExceeded {
				r.TimedOut = true
				r.Err = "no complete response within " + seconds(timeout)
				r.Error = timeoutError(r.Err, ctx.Err(), err)
				r.Hops[len(r.Hops)-1].Err = r.Err
			}
			return r
		}
		r.Status = resp.StatusCode
		r.FinalURL = cur
		if isRedirect(resp.StatusCode) {
			loc := resp.Header.Get("Location")
			discard(resp.Body)
			hop.Duration = time.Since(hop.start)
			r.Hops = append(r.Hops, hop.Hop)
			next, ok := resolve(cur, loc)
			switch {
			case !ok:
				r.Err = "HTTP " + strconv.Itoa(resp.StatusCode) + " without a usable Location"
				r.Error = errors.New(r.Err)
				r.end = endNetwork
				r.Outcome, r.note = s.outcome(r, maxRedirects)
				return r
			case visited[next]:
				// "until they meet a cycle ... the robots suppose
				// that the file does not exist" (Moderatobot).
				if next == cur {
					r.Warnings = append(r.Warnings, "redirect loop: "+next+" redirects to itself")
				} else {
					r.Warnings = append(r.Warnings, "redirect loop: "+next+" was already visited")
				}
				r.end, r.Loop = endLoop, true
				r.Outcome, r.note = s.outcome(r, maxRedirects)
				return r
			case len(r.Hops) > maxRedirects:
				// Google follows five redirects and then treats the
				// robots.txt as a 404 (Google's robots.txt
				// documentation).
				r.Warnings = append(r.Warnings, "gave up after "+strconv.Itoa(maxRedirects)+" redirects")
				r.end, r.TooManyRedirects = endOverflow, true
				r.Outcome, r.note = s.outcome(r, maxRedirects)
				return r
			}
			visited[next] = true
			r.Redirects++
			cur = next
			continue
		}
		f.final(ctx, r, &hop, resp, maxRedirects)
		r.Hops = append(r.Hops, hop.Hop)
		if r.Redirects > s.redirects && r.end == endStatus {
			r.Warnings = append(r.Warnings, "robots.txt reached after "+strconv.Itoa(r.Redirects)+" redirects; "+f.Policy.String()+" robots give up after "+strconv.Itoa(s.redirects))
		}
		return r
	}
}

type liveHop struct {
	Hop
	start time.Time
}

// request sends one GET; on success the caller owns resp.Body.
func (f *Fetcher) request(ctx context.Context, c *http.Client, u, ua string) (liveHop, *http.Response, error) {
	hop := liveHop{Hop: Hop{URL: u}, start: time.Now()}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		hop.Err = err.Error()
		return hop, nil, err
	}
	req.Header.Set("User-Agent", ua)
	req.Header.Set("Accept", "text/plain, */*;q=0.5")
	// Asking for gzip ourselves turns off the transport's transparent
	// decoding, so that the decoded size is bounded here.
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := c.Do(req)
	if err != nil {
		hop.Duration = time.Since(hop.start)
		hop.Err = netError(err)
		return hop, nil, err
	}
	hop.Status = resp.StatusCode
	for _, h := range headersOfInterest {
		if v := resp.Header.Get(h); v != "" {
			if hop.Header == nil {
				hop.Header = make(map[string]string, 4)
			}
			hop.Header[h] = v
		}
	}
	return hop, resp, nil
}

// final reads the last response of a fetch and sets the outcome.
func (f *Fetcher) final(ctx context.Context, r *Result, hop *liveHop, resp *http.Response, redirectLimit int) {
	s := f.Policy.sem()
	defer resp.Body.Close()
	r.Encoding = strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding")))
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		mt, params, err := mime.ParseMediaType(ct)
		if err == nil {
			r.MediaType, r.Charset = mt, strings.ToLower(params["charset"])
		} else {
			r.MediaType = strings.ToLower(strings.TrimSpace(strings.Split(ct, ";")[0]))
		}
	}
	success := resp.StatusCode >= 200 && resp.StatusCode < 300
	body, derr := f.decoded(r, resp)
	limit := int64(errorBodyMax)
	if success {
		limit = robots.MaxBytes + 1
	}
	data, rerr := io.ReadAll(io.LimitReader(body, limit))
	hop.Size = int64(len(data))
	hop.Duration = time.Since(hop.start)
	if derr == nil && rerr != nil {
		derr = rerr
	}
	switch {
	case ctx.Err() != nil:
		r.TimedOut = true
		r.Err = "no complete response within " + seconds(f.timeout())
		r.Error = timeoutError(r.Err, ctx.Err(), derr)
		hop.Err = r.Err
		r.end = endNetwork
	case derr != nil:
		// A body that breaks off or does not decode is an invalid
		// response, an "other error" for Google; the client's own
		// deadline passing while it arrives is a timeout.
		hop.Err = netError(derr)
		r.Err, r.Error, r.TimedOut = hop.Err, derr, IsTimeout(derr)
		r.end = endNetwork
	case success:
		r.Size = int64(len(data))
		if len(data) > robots.MaxBytes {
			r.Truncated = true
			r.Warnings = append(r.Warnings, "robots.txt is larger than 500 KiB: what follows is ignored")
			data, _, _ = robots.Read(bytes.NewReader(data))
		}
		r.raw = bytes.Clone(data) // no spare capacity held by a cache
		if sniff.HTML(data) {
			r.HTML = true
			r.Warnings = append(r.Warnings, "robots.txt is an HTML page: it has no usable rules")
		}
		if r.MediaType != "" && r.MediaType != "text/plain" {
			r.Warnings = append(r.Warnings, "Content-Type is "+strconv.Quote(r.MediaType)+", expected text/plain")
		}
		switch r.Charset {
		case "", "utf-8", "utf8", "us-ascii":
		default:
			r.Warnings = append(r.Warnings, "declared charset "+r.Charset+": robots read robots.txt as UTF-8")
		}
	default:
		r.notFound = resp.StatusCode >= 500 && saysNotFound(data)
	}
	r.Outcome, r.note = s.outcome(r, redirectLimit)
	switch {
	case r.Outcome == Unreachable:
		if ra := resp.Header.Get("Retry-After"); ra != "" {
			if d, ok := retryAfter(ra, f.now()); ok {
				r.ttl = min(max(d, minTTL), day)
			}
		}
	case r.end == endStatus:
		r.ttl = f.ttl(resp)
	}
}

func (f *Fetcher) timeout() time.Duration {
	if f.Timeout > 0 {
		return f.Timeout
	}
	return DefaultTimeout
}

// decoded returns the body reader after Content-Encoding. The caller
// bounds how much is read, so a compression bomb costs at most the limit.
func (f *Fetcher) decoded(r *Result, resp *http.Response) (io.Reader, error) {
	switch r.Encoding {
	case "", "identity":
		return resp.Body, nil
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			return bytes.NewReader(nil), err
		}
		return zr, nil
	case "deflate":
		zr, err := zlib.NewReader(resp.Body)
		if err != nil {
			return bytes.NewReader(nil), err
		}
		return zr, nil
	}
	r.Warnings = append(r.Warnings, "unsupported Content-Encoding "+strconv.Quote(r.Encoding)+": the body is read as is")
	return resp.Body, nil
}

// ttl returns how long a response fetched now stays fresh: Cache-Control
// max-age (minus Age) or Expires within the policy's bounds, else the
// policy's lifetime (Google caches a robots.txt up to 24 hours and honours
// max-age; RFC 9309 §2.4).
func (f *Fetcher) ttl(resp *http.Response) time.Duration {
	s := f.Policy.sem()
	ttl, ok := cacheTTL(resp.Header, f.now())
	if !ok {
		ttl = s.ttl
	}
	return min(max(ttl, minTTL), s.maxTTL)
}

// cacheTTL reads the freshness lifetime of a response's headers.
func cacheTTL(h http.Header, now time.Time) (time.Duration, bool) {
	for _, cc := range h.Values("Cache-Control") {
		for _, d := range strings.Split(cc, ",") {
			k, v, _ := strings.Cut(strings.TrimSpace(d), "=")
			switch strings.ToLower(k) {
			case "no-store", "no-cache":
				return 0, true
			case "max-age", "s-maxage":
				n, err := strconv.ParseInt(strings.Trim(v, `"`), 10, 64)
				if err != nil || n < 0 {
					continue
				}
				ttl := time.Duration(min(n, int64(365*24*3600))) * time.Second
				if age, err := strconv.ParseInt(h.Get("Age"), 10, 64); err == nil && age > 0 {
					ttl -= time.Duration(min(age, int64(365*24*3600))) * time.Second
				}
				return ttl, true
			}
		}
	}
	if ex := h.Get("Expires"); ex != "" {
		t, err := http.ParseTime(ex)
		if err != nil {
			return 0, true // an invalid Expires means already expired (RFC 9111 §5.3)
		}
		return t.Sub(now), true
	}
	return 0, false
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil && n >= 0 {
		return time.Duration(min(n, int64(30*24*3600))) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return t.Sub(now), true
	}
	return 0, false
}

func isRedirect(status int) bool {
	switch status {
	case 301, 302, 303, 307, 308:
		return true
	}
	return false
}

// resolve returns the absolute http(s) URL a Location header points to.
func resolve(base, loc string) (string, bool) {
	if strings.TrimSpace(loc) == "" {
		return "", false
	}
	b, err := url.Parse(base)
	if err != nil {
		return "", false
	}
	l, err := url.Parse(strings.TrimSpace(loc))
	if err != nil {
		return "", false
	}
	u := b.ResolveReference(l)
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return "", false
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String(), true
}

// discard reads a little of a redirect's body so that the connection can
// be reused, then closes it.
func discard(rc io.ReadCloser) {
	io.Copy(io.Discard, io.LimitReader(rc, 4<<10))
	rc.Close()
}

// IsTimeout reports whether err, such as a Result's Error, is a deadline
// passing: it is or wraps context.DeadlineExceeded, or it is or wraps a
// net.Error whose Timeout method returns true (an http.Client's Timeout, a
// dial, TLS handshake or response-header timeout of its Transport, a DNS
// lookup that timed out). A cancelled context is not a timeout.
func IsTimeout(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// timeoutError is the Error of a fetch that its context ended: the words
// of Err, wrapping the context's error and the client's or the body's
// error that it caused (nil when there was none).
func timeoutError(msg string, ctxErr, err error) error {
	if err == nil || errors.Is(err, ctxErr) {
		return fmt.Errorf("%s: %w", msg, ctxErr)
	}
	return fmt.Errorf("%s: %w (%w)", msg, ctxErr, err)
}

// netError says in a few words why a request failed.
func netError(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &dnsErr):
		return "DNS: " + dnsErr.Err + " (" + dnsErr.Name + ")"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	}
	return err.Error()
}

func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + " s"
}

// saysNotFound reports whether an error page says the resource does not
// exist, as a 5xx page of a misconfigured server does (Google reads such a
// 5xx as a 404: Google's robots.txt documentation).
func saysNotFound(body []byte) bool {
	b := bytes.ToLower(body)
	return bytes.Contains(b, []byte("not found")) || bytes.Contains(b, []byte("does not exist")) ||
		bytes.Contains(b, []byte("no such file"))
}

// Under returns the result as robots of policy p read the same fetch: the
// same trace, statuses and body, and p's outcome and access for a first
// fetch (no outage history). It shows how each robot family reads one
// server's answer; redirects beyond p's limit count only if the fetch
// followed them (set Fetcher.MaxRedirects to 10, as the checker does).
func (r *Result) Under(p Policy) *Result {
	c := *r
	c.Policy = p
	s := p.sem()
	c.Outcome, c.note = s.outcome(r, s.redirects)
	c.Access, c.Reason = p.First(c.Outcome)
	if c.note != "" {
		c.Reason = c.note + "; " + c.Reason
	}
	c.rules, c.Body = nil, nil
	if c.Access == AccessRules {
		c.Body = r.raw
		c.rules = robots.Parse(r.raw, r.profile)
	}
	return &c
}

// PolicyFor returns the fetch policy that goes with a profile: the same
// family, and the 1996 draft's for both old standards (the 1994 standard
// also reads 401 and 403 as "keep out").
func PolicyFor(p robots.Profile) Policy {
	switch p {
	case robots.RFC9309:
		return RFC9309
	case robots.Bing:
		return Bing
	case robots.Yandex:
		return Yandex
	case robots.Draft1996, robots.Strict1994:
		return Draft1996
	}
	return Google
}
