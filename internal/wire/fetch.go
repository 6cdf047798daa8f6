package wire

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/lint"
	"github.com/robotskit/robots/syntax"
)

// FetchTrace is the JSON of `robots fetch -format json` and the "fetch"
// member of the API's check response.
type FetchTrace struct {
	URL        string          `json:"url"`
	Origin     string          `json:"origin"`
	FinalURL   string          `json:"final_url"`
	Policy     string          `json:"policy"`
	Status     int             `json:"status"`
	Outcome    string          `json:"outcome"`
	Access     string          `json:"access"`
	Reason     string          `json:"reason"`
	FromCache  bool            `json:"from_cache"`
	Hops       []HopTrace      `json:"hops"`
	Size       int64           `json:"size"`
	Truncated  bool            `json:"truncated"`
	MediaType  string          `json:"media_type,omitempty"`
	Charset    string          `json:"charset,omitempty"`
	Encoding   string          `json:"encoding,omitempty"`
	HTML       bool            `json:"html"`
	DurationMS float64         `json:"duration_ms"`
	Error      string          `json:"error,omitempty"`
	Warnings   []string        `json:"warnings"`
	Fetched    time.Time       `json:"fetched"`
	Expires    time.Time       `json:"expires"`
	Readings   []PolicyReading `json:"readings"`
	File       *FileSummary    `json:"file,omitempty"`
	ErrorSince *time.Time      `json:"error_since,omitempty"`
	CacheError string          `json:"cache_error,omitempty"`
}

type HopTrace struct {
	URL        string            `json:"url"`
	Status     int               `json:"status"`
	DurationMS float64           `json:"duration_ms"`
	Size       int64             `json:"size"`
	Header     map[string]string `json:"header,omitempty"`
	Error      string            `json:"error,omitempty"`
}

// PolicyReading is how one robot family reads the same fetch.
type PolicyReading struct {
	Policy string `json:"policy"`
	Access string `json:"access"`
	Reason string `json:"reason"`
}

// FileSummary says what the fetched file holds.
type FileSummary struct {
	Lines    int            `json:"lines"`
	Bytes    int            `json:"bytes"`
	Groups   []GroupSummary `json:"groups"`
	Rules    int            `json:"rules"`
	Sitemaps []string       `json:"sitemaps"`
	Invalid  int            `json:"invalid_lines"`
}

type GroupSummary struct {
	Line   int      `json:"line"`
	Agents []string `json:"agents"`
	Rules  int      `json:"rules"`
}

// ms gives a duration in milliseconds, to the microsecond.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Trace converts a fetch result into its JSON trace.
func Trace(res *fetch.Result) *FetchTrace {
	r := &FetchTrace{
		URL: res.URL, Origin: res.Origin.String(), FinalURL: res.FinalURL, Policy: res.Policy.String(),
		Status: res.Status, Outcome: res.Outcome.String(), Access: res.Access.String(), Reason: res.Reason,
		FromCache: res.FromCache, Hops: []HopTrace{}, Size: res.Size, Truncated: res.Truncated,
		MediaType: res.MediaType, Charset: res.Charset, Encoding: res.Encoding, HTML: res.HTML,
		DurationMS: ms(res.Duration), Error: res.Err, Warnings: res.Warnings,
		Fetched: res.Fetched.UTC(), Expires: res.Expires.UTC(),
	}
	if r.Warnings == nil {
		r.Warnings = []string{}
	}
	if !res.ErrorSince.IsZero() {
		t := res.ErrorSince.UTC()
		r.ErrorSince = &t
	}
	if res.CacheErr != nil {
		r.CacheError = res.CacheErr.Error()
	}
	for _, h := range res.Hops {
		r.Hops = append(r.Hops, HopTrace{URL: h.URL, Status: h.Status, DurationMS: ms(h.Duration), Size: h.Size, Header: h.Header, Error: h.Err})
	}
	if !res.FromCache {
		for _, p := range fetch.Policies() {
			u := res.Under(p)
			r.Readings = append(r.Readings, PolicyReading{Policy: p.String(), Access: u.Access.String(), Reason: u.Reason})
		}
	}
	if res.Body != nil {
		r.File = Summarize(syntax.Parse(res.URL, res.Body), res.Rules())
	}
	return r
}

// summarize lists a file's groups, rule count and sitemaps.
func Summarize(f *syntax.File, rules *robots.Rules) *FileSummary {
	s := &FileSummary{Lines: len(f.Lines), Bytes: len(f.Bytes()), Groups: []GroupSummary{}, Sitemaps: []string{}}
	if rules != nil {
		s.Sitemaps = append(s.Sitemaps, rules.Sitemaps()...)
	}
	var g *GroupSummary
	lastAgent := false
	for i := range f.Lines {
		l := &f.Lines[i]
		switch {
		case l.Kind == syntax.InvalidLine:
			s.Invalid++
		case l.Kind != syntax.DirectiveLine:
			continue
		}
		switch l.Field {
		case syntax.UserAgent:
			if !lastAgent {
				s.Groups = append(s.Groups, GroupSummary{Line: i + 1, Agents: []string{}})
				g = &s.Groups[len(s.Groups)-1]
			}
			g.Agents = append(g.Agents, f.Text(l.Value))
			lastAgent = true
			continue
		case syntax.Allow, syntax.Disallow:
			s.Rules++
			if g != nil {
				g.Rules++
			}
		}
		if l.Kind == syntax.DirectiveLine {
			lastAgent = false
		}
	}
	return s
}

// LintFetch converts a fetch result into what the fetch checks (RB1xx)
// read. The facts of the fetch are carried over as the fetcher found them
// (a loop, the redirect limit, a timeout, a body that broke off), and so
// is its reading: the outcome, access and reason of its policy, the
// verdict robots fetch and robots test -url give for the same answer.
func LintFetch(res *fetch.Result) *lint.Fetch {
	tr := &lint.Fetch{
		Elapsed: res.Duration,
		Size:    res.Size,
		Date:    res.Fetched,
		// A client with a shorter timeout of its own ends the fetch
		// with its error rather than the fetcher's deadline.
		TimedOut:         res.TimedOut || strings.Contains(res.Err, "deadline") || strings.Contains(res.Err, "timeout"),
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

// probeCaseVariants asks for /ROBOTS.TXT and /Robots.txt after /robots.txt
// answered 404, and returns the first that answers 200 (RB131).
func ProbeCaseVariants(ctx context.Context, c *http.Client, robotsURL string) string {
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

// fetchSiblings fetches the robots.txt of the origins next to the one of
// robotsURL: the other scheme of http and https, and the www or bare twin
// of the host (RB132, thorough).
func FetchSiblings(ctx context.Context, f *fetch.Fetcher, robotsURL string) []lint.Sibling {
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
	var out []lint.Sibling
	for _, s := range urls {
		res, err := f.Fetch(ctx, s)
		if err != nil {
			continue
		}
		out = append(out, lint.Sibling{URL: s, Status: res.Status, Body: string(res.Body)})
	}
	return out
}
