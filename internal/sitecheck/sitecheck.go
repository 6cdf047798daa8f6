// Package sitecheck fetches a site's robots.txt for the checker: the one
// sequence that `robots check`, `robots fix` and the web API's check share.
// It fetches the file, turns the fetch into the trace the fetch checks of
// package lint read (RB1xx), and, as asked, probes the upper- and
// mixed-case names of a missing file (RB131) and fetches the robots.txt of
// the sibling origins (RB132).
//
// It does the network I/O of the checker's fetch, so that package
// internal/wire stays pure: wire converts what Fetch returns to JSON.
package sitecheck

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/lint"
)

// Options says what Fetch does besides fetching robots.txt.
type Options struct {
	// CaseClient, when not nil, is the client that asks for /ROBOTS.TXT
	// and /Robots.txt after /robots.txt answered 404 (CaseVariant, for
	// RB131). It sends fetch.DefaultUserAgent and follows redirects as
	// the client does; its Timeout bounds each request.
	CaseClient *http.Client
	// Siblings also fetches, with the same Fetcher, the robots.txt of the
	// origins next to the one of the file (Siblings, for RB132, a check
	// of thorough mode).
	Siblings bool
}

// A Site is a site's robots.txt as the checker fetched it.
type Site struct {
	// URL is the robots.txt URL requested (Result.URL): the name of the
	// file in messages, and the lint.Config's URL.
	URL string
	// Body is the body whose rules apply (Result.Body), nil when the
	// fetch gave none.
	Body []byte
	// Result is the fetch, for its JSON trace and a summary.
	Result *fetch.Result
	// Fetch is the trace the fetch checks read, with the case variant
	// and the siblings when Options asked for them.
	Fetch *lint.Fetch
}

// Config returns the lint configuration of the fetched file: its URL and
// the trace of the fetch. The caller sets Thorough and AllRobots.
func (s *Site) Config() lint.Config { return lint.Config{URL: s.URL, Fetch: s.Fetch} }

// Fetch fetches the robots.txt of rawURL with f (f.Fetch: now, bypassing
// the cache, with every hop), builds its lint trace (Trace), and then as
// opt says probes the case variants of a file that answered 404
// (CaseVariant) and fetches the sibling origins' files (Siblings). The
// error is f.Fetch's: a URL that names no origin. A failed fetch is a Site
// whose Result says how it failed; when ctx ends, the probes that follow
// fail at once and find nothing, and the caller reads ctx.Err().
func Fetch(ctx context.Context, f *fetch.Fetcher, rawURL string, opt Options) (*Site, error) {
	res, err := f.Fetch(ctx, rawURL)
	if err != nil {
		return nil, err
	}
	tr := Trace(res)
	if opt.CaseClient != nil && res.Status == http.StatusNotFound {
		tr.CaseVariant = CaseVariant(ctx, opt.CaseClient, res.URL)
	}
	if opt.Siblings {
		tr.Siblings = Siblings(ctx, f, res.URL)
	}
	return &Site{URL: res.URL, Body: res.Body, Result: res, Fetch: tr}, nil
}

// Trace converts a fetch result into what the fetch checks (RB1xx) read.
// The facts of the fetch are carried over as the fetcher found them (a
// loop, the redirect limit, a timeout, a body that broke off), and so is
// its reading: the outcome, access and reason of its policy, the verdict
// robots fetch and robots test -url give for the same answer.
//
// A timeout is the fetcher's own typed finding (fetch.Result.TimedOut:
// its deadline, or the client's, as fetch.IsTimeout reads the error),
// never a guess from the words of the error. Google reads a robots.txt
// that does not arrive in time as a server error, and a response whose
// body breaks off as a network error (Google's robots.txt documentation,
// https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt);
// RFC 9309 §2.3.1.4 reads a file unreachable through network errors as a
// complete disallow.
func Trace(res *fetch.Result) *lint.Fetch {
	tr := &lint.Fetch{
		Elapsed:          res.Duration,
		Size:             res.Size,
		Date:             res.Fetched,
		TimedOut:         res.TimedOut,
		Loop:             res.Loop,
		TooManyRedirects: res.TooManyRedirects,
		Policy:           res.Policy.String(),
		Outcome:          res.Outcome.String(),
		Access:           res.Access.String(),
		Reason:           res.Reason,
	}
	seen := map[string]bool{}
	for _, h := range res.Hops {
		tr.Hops = append(tr.Hops, lint.Hop{URL: h.URL, Status: h.Status, Location: h.Header["Location"]})
		if seen[h.URL] {
			tr.Loop = true
		}
		seen[h.URL] = true
	}
	last := fetch.Hop{}
	if n := len(res.Hops); n > 0 {
		last = res.Hops[n-1]
		tr.ContentType = last.Header["Content-Type"]
		tr.CacheControl = last.Header["Cache-Control"]
		tr.Expires = last.Header["Expires"]
	}
	switch {
	case last.Status == 0:
		// No status arrived: DNS, connect, TLS, a reset, a timeout.
		tr.Err = res.Err
	case last.Err != "" && !tr.TimedOut:
		// A status arrived, and then the body broke off or did not
		// decode: the fetcher read the answer as a network error.
		tr.Broken = last.Err
	}
	return tr
}

// CaseVariant asks for /ROBOTS.TXT and then /Robots.txt at the origin of
// robotsURL, after /robots.txt answered 404, and returns the URL of the
// first that answers 200, or "" (RB131). URL paths are case-sensitive and
// robots ask for the lower-case name only (RFC 9309 §2.3; Google's
// robots.txt documentation,
// https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt),
// so such a file is never read.
func CaseVariant(ctx context.Context, c *http.Client, robotsURL string) string {
	u, err := url.Parse(robotsURL)
	if err != nil {
		return ""
	}
	for _, p := range []string{"/ROBOTS.TXT", "/Robots.txt"} {
		v := *u
		v.Path, v.RawQuery = p, ""
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, v.String(), nil)
		if err != nil {
			continue
		}
		req.Header.Set("User-Agent", fetch.DefaultUserAgent)
		resp, err := c.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			return v.String()
		}
	}
	return ""
}

// SiblingURLs returns the robots.txt URLs of the origins next to the one
// of robotsURL: the same host under the other of http and https (at that
// scheme's default port), then the www or bare-domain twin of the host
// (none for an IP address), at the same port. Each scheme, host and port
// has its own robots.txt (RFC 9309 §2.3), so a leftover file after an
// HTTPS or www move keeps governing the old origin (RB132).
func SiblingURLs(robotsURL string) []string {
	u, err := url.Parse(robotsURL)
	if err != nil || u.Hostname() == "" {
		return nil
	}
	var urls []string
	other := *u
	if u.Scheme == "https" {
		other.Scheme = "http"
	} else {
		other.Scheme = "https"
	}
	other.Host = other.Hostname() // the other scheme's default port
	urls = append(urls, other.String())
	twin := *u
	if h, ok := strings.CutPrefix(u.Hostname(), "www."); ok {
		twin.Host = h
	} else if net.ParseIP(u.Hostname()) == nil {
		twin.Host = "www." + u.Hostname()
	}
	if p := u.Port(); p != "" && twin.Host != u.Host {
		twin.Host = net.JoinHostPort(twin.Host, p)
	}
	if twin.Host != u.Host {
		urls = append(urls, twin.String())
	}
	return urls
}

// Siblings fetches with f the robots.txt of each of SiblingURLs(robotsURL)
// and returns how each fetch ended, for RB132 (thorough mode); a URL the
// fetcher refuses is left out.
func Siblings(ctx context.Context, f *fetch.Fetcher, robotsURL string) []lint.Sibling {
	var out []lint.Sibling
	for _, s := range SiblingURLs(robotsURL) {
		res, err := f.Fetch(ctx, s)
		if err != nil {
			continue
		}
		out = append(out, lint.Sibling{URL: s, Status: res.Status, Body: string(res.Body)})
	}
	return out
}
