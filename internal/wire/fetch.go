package wire

import (
	"time"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/fetch"
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

// Summarize lists a file's groups, rule count and sitemaps. The groups
// are those the rules read (robots.Rules.Groups; Google's reading when
// rules is nil): each with its User-agent values and the Allow and
// Disallow lines from its first User-agent line to the next group's.
func Summarize(f *syntax.File, rules *robots.Rules) *FileSummary {
	if rules == nil {
		rules = robots.Compile(f, robots.Google)
	}
	s := &FileSummary{Lines: len(f.Lines), Bytes: len(f.Bytes()), Groups: []GroupSummary{}, Sitemaps: []string{}}
	s.Sitemaps = append(s.Sitemaps, rules.Sitemaps()...)
	for _, g := range rules.Groups() {
		s.Groups = append(s.Groups, GroupSummary{Line: g.Lines[0], Agents: g.Agents})
	}
	next := 0 // the group whose span the line is in, + 1
	for i := range f.Lines {
		l := &f.Lines[i]
		for next < len(s.Groups) && s.Groups[next].Line == i+1 {
			next++
		}
		switch {
		case l.Kind == syntax.InvalidLine:
			s.Invalid++
		case l.Kind == syntax.DirectiveLine && (l.Field == syntax.Allow || l.Field == syntax.Disallow):
			s.Rules++
			if next > 0 {
				s.Groups[next-1].Rules++
			}
		}
	}
	return s
}

// FetchOutcome is how a fetch of robots.txt ended, in short: the "fetch"
// of robots mcp's answers, the first fields of FetchTrace.
type FetchOutcome struct {
	// URL is the robots.txt URL asked for, FinalURL the one that answered
	// after redirects.
	URL      string `json:"url"`
	FinalURL string `json:"final_url,omitempty"`
	// Policy is the status rules applied: google, rfc9309, bing, …
	Policy string `json:"policy"`
	// Status is the final HTTP status, 0 when none arrived.
	Status int `json:"status"`
	// Outcome, Access and Reason are the fetch's reading under Policy:
	// Access is "rules" (the file's rules apply), "all" (no file:
	// everything allowed) or "none" (complete disallow).
	Outcome   string `json:"outcome"`
	Access    string `json:"access"`
	Reason    string `json:"reason"`
	FromCache bool   `json:"from_cache"`
	Error     string `json:"error,omitempty"`
}

// Outcome converts a fetch result into its short outcome.
func Outcome(res *fetch.Result) *FetchOutcome {
	return &FetchOutcome{URL: res.URL, FinalURL: res.FinalURL, Policy: res.Policy.String(), Status: res.Status,
		Outcome: res.Outcome.String(), Access: res.Access.String(), Reason: res.Reason, FromCache: res.FromCache, Error: res.Err}
}
