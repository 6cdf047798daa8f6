package page

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/robotskit/robots/usage"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/transform"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/internal/sniff"
	"github.com/robotskit/robots/meta"
	"github.com/robotskit/robots/syntax"
)

// Defaults of an Inspector.
const (
	// DefaultMaxRedirects: Googlebot follows up to 10 redirect hops
	// (Google Search Central, "Redirects and Google Search").
	DefaultMaxRedirects = 10
	// DefaultTimeout bounds a whole inspection.
	DefaultTimeout = 30 * time.Second
	// DefaultMaxSites is how many sites' robots.txt files are fetched to
	// give links a verdict, the page's own and its redirects' aside.
	DefaultMaxSites = 10
	// maxBytesCeiling caps MaxBytes.
	maxBytesCeiling = 64 << 20
)

// An Inspector fetches pages as robots do. The zero value is ready to use.
// An Inspector is safe for concurrent use.
type Inspector struct {
	// Client sends every request, robots.txt included; nil means a client
	// like http.DefaultClient. Its CheckRedirect is not used: redirects
	// are followed and recorded one by one.
	Client *http.Client
	// Cache keeps robots.txt files between inspections (keyed by status
	// policy and origin); nil means each inspection fetches afresh.
	Cache fetch.Cache
	// MaxBytes is how much of a page is read; 0 means
	// meta.DefaultMaxBytes (2 MiB, Googlebot's limit for HTML).
	MaxBytes int64
	// MaxRedirects is how many redirects are followed; 0 means
	// DefaultMaxRedirects, a negative number none.
	MaxRedirects int
	// Timeout bounds one inspection; 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxSites is how many other sites' robots.txt files links may cause
	// to be fetched; 0 means DefaultMaxSites, negative none.
	MaxSites int
	// Now returns the current time, for unavailable_after; nil means
	// time.Now.
	Now func() time.Time
}

// Inspect fetches rawURL as rb would and reports what rb makes of it. The
// error is non-nil only when rawURL is not an absolute http or https URL
// or ctx ends; a failed fetch is a Report whose Error says so. Every step
// stops when the inspection's time (Timeout) runs out or ctx ends: the
// fetches, the parsing of the page and the verdicts of its links. A page
// read but cut short that way is a Report with what was found, the links
// left without a verdict, and an Error that says it was stopped.
func (in *Inspector) Inspect(parent context.Context, rawURL string, rb Robot) (*Report, error) {
	start := time.Now()
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("page: %q is not an absolute http or https URL", rawURL)
	}
	ctx, cancel := context.WithTimeout(parent, in.timeout())
	defer cancel()
	s := &inspection{in: in, rb: rb, ctx: ctx, files: map[string]*syntax.File{},
		fetcher: &fetch.Fetcher{Client: in.Client, UserAgent: rb.UserAgent, Policy: rb.Policy,
			Profile: rb.Profile, Cache: in.Cache, Now: in.Now},
		rep: &Report{URL: rawURL, FinalURL: rawURL, Robot: rb.Name, UserAgent: rb.UserAgent, Size: -1,
			Links: []Link{}, Directives: []Directive{}, Warnings: []string{}}}
	if err := s.run(u); err != nil {
		return nil, err
	}
	if err := parent.Err(); err != nil {
		return nil, err // the caller gave up: no report
	}
	s.rep.Duration = time.Since(start)
	return s.rep, nil
}

func (in *Inspector) timeout() time.Duration {
	if in.Timeout > 0 {
		return in.Timeout
	}
	return DefaultTimeout
}

func (in *Inspector) now() time.Time {
	if in.Now != nil {
		return in.Now()
	}
	return time.Now()
}

func (in *Inspector) maxBytes() int64 {
	switch {
	case in.MaxBytes <= 0:
		return meta.DefaultMaxBytes
	case in.MaxBytes > maxBytesCeiling:
		return maxBytesCeiling
	}
	return in.MaxBytes
}

// inspection is the state of one Inspect call.
type inspection struct {
	in       *Inspector
	rb       Robot
	ctx      context.Context
	fetcher  *fetch.Fetcher
	rep      *Report
	files    map[string]*syntax.File // parsed robots.txt bodies by robots.txt URL
	sites    int                     // other sites looked up for links
	hidden   []string                // why the robot never reads the page, if it does not
	notes    []string                // conflicts between the directives that apply
	docNotes []string                // problems of the page's robots markup
	// final is the robots.txt fetch of the last URL asked for, header and
	// directives those of the final response: the sources of the usage
	// verdict.
	final      *fetch.Result
	header     http.Header
	directives []meta.Directive
	tdmTag     *meta.UsageStatement
}

func (s *inspection) client() *http.Client {
	c := http.DefaultClient
	if s.in.Client != nil {
		c = s.in.Client
	}
	cc := *c
	cc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &cc
}

func (s *inspection) run(u *url.URL) error {
	rep := s.rep
	// robots.txt for the page asked for.
	v, err := s.verdict(u.String())
	if err != nil {
		return err
	}
	rep.RobotsTxt = v
	rep.Crawlable = v.Allowed
	if !v.Allowed {
		s.hidden = append(s.hidden, "robots.txt disallows "+u.String()+" for "+s.rb.Name+" ("+describe(v)+")")
	}

	resp, body, err := s.follow(u, v)
	if err != nil {
		rep.Error = err.Error()
	}
	if resp != nil {
		s.readResponse(resp, body)
	}
	if err := s.ctx.Err(); err != nil && rep.Error == "" {
		// The page was read, but its parsing or the links' verdicts
		// were cut short.
		rep.Error = "the inspection was stopped before its end: " + err.Error()
	}
	if rep.Answered() {
		rep.Usage = s.usage()
	}
	s.verdicts()
	return nil
}

// follow requests the page and its redirects, recording each hop and its
// robots.txt verdict (v is that of u). It returns the last response, whose
// body it has read up to the limit.
func (s *inspection) follow(u *url.URL, v RobotsTxt) (*http.Response, []byte, error) {
	c := s.client()
	seen := map[string]bool{}
	limit := s.in.MaxRedirects
	switch {
	case limit == 0:
		limit = DefaultMaxRedirects
	case limit < 0:
		limit = 0
	}
	ua := s.rb.UserAgent
	if ua == "" {
		ua = fetch.DefaultUserAgent
	}
	cur := u
	for i := 0; ; i++ {
		req, err := http.NewRequestWithContext(s.ctx, http.MethodGet, cur.String(), nil)
		if err != nil {
			return nil, nil, err
		}
		req.Header.Set("User-Agent", ua)
		req.Header.Set("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
		resp, err := c.Do(req)
		if err != nil {
			s.rep.Redirects = append(s.rep.Redirects, Hop{URL: cur.String(), Allowed: v.Allowed, Line: v.Line})
			return nil, nil, fmt.Errorf("fetching %s: %w", cur, unwrapURLError(err))
		}
		seen[cur.String()] = true
		loc := resp.Header.Get("Location")
		s.rep.Redirects = append(s.rep.Redirects, Hop{URL: cur.String(), Status: resp.StatusCode, Location: loc, Allowed: v.Allowed, Line: v.Line})
		s.rep.FinalURL = cur.String()
		s.rep.Status = resp.StatusCode
		if !isRedirect(resp.StatusCode) || loc == "" {
			body, rerr := s.readBody(resp)
			return resp, body, rerr
		}
		discard(resp)
		next, err := cur.Parse(loc)
		if err != nil || (next.Scheme != "http" && next.Scheme != "https") {
			return nil, nil, fmt.Errorf("redirect from %s to an unusable Location %q", cur, loc)
		}
		next.Fragment = ""
		switch {
		case seen[next.String()]:
			return nil, nil, fmt.Errorf("redirect loop: %s leads back to %s", cur, next)
		case i+1 > limit:
			return nil, nil, fmt.Errorf("more than %d redirects; %s stops following at %s", limit, s.rb.Name, cur)
		}
		cur = next
		if v, err = s.verdict(cur.String()); err != nil {
			return nil, nil, err
		}
		if !v.Allowed {
			s.rep.Crawlable = false
			s.hidden = append(s.hidden, "the redirect target "+cur.String()+" is disallowed by its robots.txt ("+describe(v)+")")
		}
	}
}

// readBody reads an HTML body up to the limit; other bodies are left
// unread (their directives are in the headers).
func (s *inspection) readBody(resp *http.Response) ([]byte, error) {
	defer discard(resp)
	s.rep.ContentType = resp.Header.Get("Content-Type")
	s.rep.Size = resp.ContentLength
	limit := s.in.maxBytes()
	// One allocation of the size needed: the Content-Length when the
	// server gives a smaller one, else the limit.
	size := limit + 1
	if cl := resp.ContentLength; cl >= 0 && cl < limit {
		size = cl + 1
	}
	buf := bytes.NewBuffer(make([]byte, 0, size))
	n, err := buf.ReadFrom(io.LimitReader(resp.Body, limit+1))
	if n > limit {
		s.rep.Truncated = true
		buf.Truncate(int(limit))
	}
	s.rep.Bytes = int64(buf.Len())
	if err != nil {
		return buf.Bytes(), fmt.Errorf("reading %s: %w", s.rep.FinalURL, err)
	}
	return buf.Bytes(), nil
}

// readResponse reads the directives of the final response.
func (s *inspection) readResponse(resp *http.Response, body []byte) {
	rep := s.rep
	s.header = resp.Header
	ds := meta.FromHeader(resp.Header)
	rep.XRobotsTag = append(resp.Header.Values("X-Robots-Tag"), resp.Header.Values("Robots-Tag")...)
	rep.HTML = sniff.Page(rep.ContentType, body)
	if rep.HTML {
		var r io.Reader = bytes.NewReader(body)
		if enc, name, _ := charset.DetermineEncoding(body, rep.ContentType); name != "utf-8" {
			r = transform.NewReader(r, enc.NewDecoder())
		}
		// The parse stops at its next read once the inspection's context
		// ends.
		doc, err := meta.ReadHTML(&ctxReader{ctx: s.ctx, r: r}, 4*int64(len(body))+4)
		if err == nil {
			ds = append(ds, doc.Directives...)
			s.readDocument(doc)
			if st, ok := doc.TDM(); ok {
				s.tdmTag = &st
			}
		}
	}
	s.directives = ds
	names := s.rb.MetaNames
	v := meta.For(ds, names...)
	for _, d := range ds {
		rep.Directives = append(rep.Directives, Directive{Directive: d, Applies: meta.Applies(ds, d, names...)})
	}
	rep.Effective = Effective{NoIndex: v.NoIndex, NoFollow: v.NoFollow, NoArchive: v.NoArchive,
		NoSnippet: v.NoSnippet, NoTranslate: v.NoTranslate, NoImageIndex: v.NoImageIndex,
		IndexIfEmbedded: v.IndexIfEmbedded, MaxSnippet: v.MaxSnippet,
		MaxImagePreview: v.MaxImagePreview.String(), MaxVideoPreview: v.MaxVideoPreview}
	if !v.UnavailableAfter.IsZero() {
		t := v.UnavailableAfter
		rep.Expires = &t
		rep.Expired = v.Expired(s.in.now())
	}
	s.notes = v.Notes
}

func (s *inspection) readDocument(doc *meta.Document) {
	rep := s.rep
	rep.Title, rep.Text, rep.Refresh = doc.Title, doc.Text, doc.Refresh
	rep.NoSnippet = doc.NoSnippet
	rep.LinkCount = doc.LinkCount
	base, _ := url.Parse(rep.FinalURL)
	if doc.Base != "" {
		if b, err := base.Parse(doc.Base); err == nil {
			base = b
		}
	}
	if doc.Canonical != "" {
		if c, err := base.Parse(doc.Canonical); err == nil {
			rep.Canonical = c.String()
		} else {
			rep.Canonical = doc.Canonical
		}
	}
	for _, l := range doc.Links {
		link := Link{Link: l}
		if t, err := base.Parse(l.Href); err == nil && (t.Scheme == "http" || t.Scheme == "https") && t.Host != "" {
			t.Fragment = ""
			link.URL = t.String()
			// Once the context ends, the links are listed without a
			// verdict: each costs a match, or a fetch.
			if s.ctx.Err() != nil {
				rep.Links = append(rep.Links, link)
				continue
			}
			if v, ok := s.linkVerdict(link.URL); ok {
				allowed := v.Allowed
				link.Allowed, link.RobotsLine = &allowed, v.Line
			}
		}
		rep.Links = append(rep.Links, link)
	}
	s.docNotes = doc.Notes
}

// linkVerdict is the robots.txt verdict for a link, fetching another
// site's robots.txt only up to MaxSites sites.
func (s *inspection) linkVerdict(u string) (RobotsTxt, bool) {
	o, err := fetch.ParseOrigin(u)
	if err != nil {
		return RobotsTxt{}, false
	}
	if _, ok := s.files[o.RobotsURL()]; !ok {
		max := s.in.MaxSites
		if max == 0 {
			max = DefaultMaxSites
		}
		if s.sites >= max {
			return RobotsTxt{}, false
		}
		s.sites++
	}
	v, err := s.verdict(u)
	v.Site = nil // the page's own site is what the report says
	return v, err == nil
}

// verdict is the robots.txt verdict for u, fetching the file of its site
// once per inspection (or through the Inspector's cache).
func (s *inspection) verdict(u string) (RobotsTxt, error) {
	res, err := s.fetcher.Get(s.ctx, u)
	if err != nil {
		return RobotsTxt{}, err
	}
	s.final = res
	v := res.Decide(s.rb.Agent, u)
	site := res.Access.For(res.Rules(), s.rb.Agent)
	out := RobotsTxt{URL: res.URL, Status: res.Status, Allowed: v.Allowed, Access: v.Access.String(), Reason: v.Reason, Site: &site}
	f, ok := s.files[res.URL]
	if !ok {
		if res.Body != nil {
			f = syntax.Parse(res.URL, res.Body)
		}
		s.files[res.URL] = f
	}
	if v.Access == fetch.AccessRules && v.Decision.Reason == robots.Matched {
		out.Line = v.Decision.Line
		out.Rule = v.Decision.Rule.String() + ": " + v.Decision.Pattern
		if f != nil && out.Line-1 < len(f.Lines) {
			l := &f.Lines[out.Line-1]
			out.Rule = f.Text(l.Key) + ": " + f.Text(l.Value)
		}
	}
	return out, nil
}

// describe says in a few words why v was decided.
func describe(v RobotsTxt) string {
	switch {
	case v.Line > 0:
		return "line " + strconv.Itoa(v.Line) + ": " + v.Rule
	case v.Reason != "":
		return v.Reason
	}
	return v.Access
}

func isRedirect(status int) bool {
	switch status {
	case 301, 302, 303, 307, 308:
		return true
	}
	return false
}

// A ctxReader reads r until ctx ends, then fails with ctx's error.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	// Small reads, so that a large page is parsed in several.
	if len(p) > 32<<10 {
		p = p[:32<<10]
	}
	return c.r.Read(p)
}

func discard(resp *http.Response) {
	io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	resp.Body.Close()
}

// unwrapURLError drops net/http's "Get \"…\":" prefix, which the report
// already says.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// usage is the usage verdict of the final URL: nothing where robots.txt
// keeps the robot out (for any reason: a rule, or a file that could not
// be read), else what the file, the response and the site's tdmrep.json
// say (package usage).
func (s *inspection) usage() *usage.Verdicts {
	url := s.rep.FinalURL
	rb := usage.Robot{Name: s.rb.Name, Agent: s.rb.Agent}
	if !s.rep.Crawlable || s.final == nil {
		r := usage.Decide(nil, rb, url, nil)
		return &r.Usage
	}
	resp := &usage.Response{Header: s.header, Directives: s.directives, TDMTag: s.tdmTag}
	if s.tdmTag == nil && s.header.Get("Tdm-Reservation") == "" {
		// The file speaks only where the page does not (usage.Response).
		resp.TDMRep = s.tdmrep(url)
	}
	s.rep.Licenses = s.final.Rules().Licenses()
	r := usage.Decide(s.final.Rules(), rb, url, resp)
	return &r.Usage
}

// tdmrep is the statement of the site's /.well-known/tdmrep.json for
// url, fetched with the limits of robots.txt; nil when the file is
// missing, unreadable or has no rule for url.
func (s *inspection) tdmrep(raw string) *meta.UsageStatement {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	t, err := fetch.FetchTDMRep(s.ctx, s.client(), u.Scheme+"://"+u.Host)
	if err != nil || t == nil {
		return nil
	}
	rule, ok := t.For(u.EscapedPath())
	if !ok {
		return nil
	}
	st, ok := meta.TDMReservation(rule.Reservation, rule.Policy, "tdmrep.json")
	if !ok {
		return nil
	}
	return &st
}
