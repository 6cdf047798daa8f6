package server

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/internal/textedit"
	"github.com/robotskit/robots/internal/wire"
)

//go:embed ui
var uiFiles embed.FS

var uiTemplate = template.Must(template.New("index.html").Funcs(template.FuncMap{
	"download":      func(s string) template.URL { return template.URL("data:text/plain;charset=utf-8," + url.PathEscape(s)) },
	"fromLinksOnly": func() string { return fromLinksOnly },
	"lines":         linesText,
}).ParseFS(uiFiles, "ui/index.html"))

func staticHandler() http.Handler {
	sub, _ := fs.Sub(uiFiles, "ui/static")
	return http.StripPrefix("/static/", http.FileServer(http.FS(sub)))
}

// uiData is what the page template shows.
type uiData struct {
	Robots    string
	URL       string
	Thorough  bool
	AllRobots bool
	Intent    bool // also apply the intent fixes
	Profile   string
	Profiles  []uiOption
	Result    *wire.CheckResponse
	Diff      string
	Error     string
	Counts    map[string]int

	// PageURL and PageRobot are the page inspector's form; Page its
	// report, PageError why there is none.
	PageURL   string
	PageRobot string
	Page      *uiReport
	PageError string
}

// A uiOption is an <option> of a select.
type uiOption struct{ Value, Label string }

// uiProfiles are the choices of the form's profile select.
var uiProfiles = func() []uiOption {
	opts := []uiOption{{"", "major robot families"}}
	for _, p := range robots.Profiles() {
		opts = append(opts, uiOption{p.String(), "only " + p.String() + " robots"})
	}
	return opts
}()

// uiIndex serves the page; with ?page= (the page inspector's form
// without JavaScript) it carries the report of that page.
func (s *Server) uiIndex(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	if !q.Has("page") {
		return render(w, http.StatusOK, &uiData{})
	}
	d := &uiData{PageURL: strings.TrimSpace(q.Get("page")), PageRobot: strings.TrimSpace(q.Get("robot"))}
	if d.PageURL == "" {
		d.PageError = "give the URL of a page"
		return render(w, http.StatusOK, d)
	}
	rep, err := s.uiInspect(r, d.PageURL, d.PageRobot)
	status := http.StatusOK
	if err != nil {
		err = s.stopped(r.Context(), err)
		d.PageError = "Error: " + err.Error()
		status = uiStatus(w, err)
	}
	d.Page = rep
	return render(w, status, d)
}

// uiStatus is the status of the page that shows err: 200, as for a
// mistake in the form, unless the server stopped or refused the work
// (5xx, or 499 for a client gone), whose status the page keeps. It tells
// the log and the metrics why.
func uiStatus(w http.ResponseWriter, err error) int {
	var ae *apiError
	if !errors.As(err, &ae) {
		return http.StatusOK
	}
	noteError(w, ae)
	if ae.status >= 500 || ae.status == statusClientClosed {
		return ae.status
	}
	return http.StatusOK
}

// uiInspect runs the page inspection of GET /api/v1/page, through its
// handler, and reads its JSON: the page without JavaScript shows the
// same report as app.js draws from the API.
func (s *Server) uiInspect(r *http.Request, raw, robot string) (*uiReport, error) {
	q := url.Values{"url": {raw}}
	if robot != "" {
		q.Set("robot", robot)
	}
	req := r.Clone(r.Context())
	req.URL = &url.URL{Path: "/api/v1/page", RawQuery: q.Encode()}
	req.RequestURI = req.URL.RequestURI()
	rec := &bufferWriter{header: http.Header{}}
	if err := s.page(rec, req); err != nil {
		var ae *apiError
		if errors.As(err, &ae) {
			return nil, err
		}
		return nil, errors.New("internal error")
	}
	rep := new(uiReport)
	if err := json.Unmarshal(rec.buf.Bytes(), rep); err != nil {
		return nil, errors.New("the page report could not be read: " + err.Error())
	}
	return rep, nil
}

// A bufferWriter is an http.ResponseWriter that keeps the body.
type bufferWriter struct {
	header http.Header
	status int
	buf    bytes.Buffer
}

func (b *bufferWriter) Header() http.Header         { return b.header }
func (b *bufferWriter) WriteHeader(status int)      { b.status = status }
func (b *bufferWriter) Write(p []byte) (int, error) { return b.buf.Write(p) }

// linesText is where a finding is: "3", "45 and 5 more" for a finding
// on several lines, "" for the whole file.
func linesText(d wire.Diagnostic) string {
	if d.Line <= 0 {
		return ""
	}
	s := strconv.Itoa(d.Line)
	if len(d.Lines) > 1 {
		s += " and " + strconv.Itoa(len(d.Lines)-1) + " more"
	}
	return s
}

// fromLinksOnly explains the amber "indexable" of a page robots.txt
// disallows; app.js says the same.
const fromLinksOnly = "robots.txt blocks the crawl, so the robot never reads this page: it can still be indexed from links to it, without its content, and a noindex on it is never seen."

// uiReport is the JSON of GET /api/v1/page (page.Report) as the page
// shows it.
type uiReport struct {
	URL       string `json:"url"`
	FinalURL  string `json:"final_url"`
	Robot     string `json:"robot"`
	Status    int    `json:"status"`
	Error     string `json:"error"`
	Crawlable bool   `json:"crawlable"`
	Indexable bool   `json:"indexable"`
	Follow    bool   `json:"follow"`
	Snippet   bool   `json:"snippet"`
	RobotsTxt struct {
		URL     string `json:"url"`
		Status  int    `json:"status"`
		Allowed bool   `json:"allowed"`
		Line    int    `json:"line"`
		Rule    string `json:"rule"`
		Access  string `json:"access"`
		Reason  string `json:"reason"`
	} `json:"robots_txt"`
	Redirects   []uiHop       `json:"redirects"`
	Directives  []uiDirective `json:"directives"`
	ContentType string        `json:"content_type"`
	Title       string        `json:"title"`
	Canonical   string        `json:"canonical"`
	Links       []uiLink      `json:"links"`
	LinkCount   int           `json:"link_count"`
	Warnings    []string      `json:"warnings"`
}

// A uiHop is a request of the page fetch.
type uiHop struct {
	URL      string `json:"url"`
	Status   int    `json:"status"`
	Location string `json:"location"`
	Allowed  bool   `json:"allowed"`
	Line     int    `json:"line"`
}

// StatusClass is the first digit of the status, for its colour.
func (h uiHop) StatusClass() string { return strconv.Itoa(h.Status / 100) }

// A uiDirective is a robots directive of the page.
type uiDirective struct {
	Name    string `json:"name"`
	Value   string `json:"value"`
	Robot   string `json:"robot"`
	Source  string `json:"source"`
	Line    int    `json:"line"`
	Text    string `json:"text"`
	Problem string `json:"problem"`
	Applies bool   `json:"applies"`
}

// Written is the directive as written.
func (d uiDirective) Written() string {
	if d.Text != "" {
		return d.Text
	}
	if d.Value != "" {
		return d.Name + ":" + d.Value
	}
	return d.Name
}

// A uiLink is a link of the page.
type uiLink struct {
	Href       string `json:"href"`
	URL        string `json:"url"`
	Rel        string `json:"rel"`
	NoFollow   bool   `json:"nofollow"`
	Text       string `json:"text"`
	Allowed    *bool  `json:"allowed"`
	RobotsLine int    `json:"robots_line"`
}

// Blocked reports whether robots.txt disallows the link.
func (l uiLink) Blocked() bool { return l.Allowed != nil && !*l.Allowed }

// Verdict is the robots.txt verdict of the link.
func (l uiLink) Verdict() string {
	switch {
	case l.Allowed == nil:
		return "not checked"
	case *l.Allowed:
		return "allowed"
	case l.RobotsLine > 0:
		return "disallowed (line " + strconv.Itoa(l.RobotsLine) + ")"
	}
	return "disallowed"
}

// maxUILinks bounds the links the page lists.
const maxUILinks = 200

// ShownLinks are the links listed.
func (r *uiReport) ShownLinks() []uiLink {
	if len(r.Links) > maxUILinks {
		return r.Links[:maxUILinks]
	}
	return r.Links
}

// MoreLinks reports whether links were left out.
func (r *uiReport) MoreLinks() bool { return len(r.Links) > maxUILinks }

// LinkTotal is how many links the page has.
func (r *uiReport) LinkTotal() int {
	if r.LinkCount > 0 {
		return r.LinkCount
	}
	return len(r.Links)
}

// FromLinksOnly reports a page that may be indexed although robots.txt
// keeps the robot from reading it.
func (r *uiReport) FromLinksOnly() bool { return r.Indexable && !r.Crawlable }

// Verdict is the robots.txt verdict in words.
func (r *uiReport) Verdict() string {
	rt := r.RobotsTxt
	word := map[bool]string{true: "Allowed", false: "Disallowed"}[rt.Allowed]
	switch {
	case rt.Line > 0:
		v := word + " by line " + strconv.Itoa(rt.Line)
		if rt.Rule != "" {
			v += ": " + rt.Rule
		}
		return v
	case rt.Access == "rules" && rt.Allowed:
		return "Allowed: no rule matches"
	case rt.Access == "rules":
		return "Disallowed"
	case rt.Reason != "":
		return word + ": " + rt.Reason
	}
	return word + ": " + rt.Access
}

// A uiBadge is one of the report's verdicts.
type uiBadge struct{ Class, Text, Title string }

// Badges are the report's four verdicts. "indexable" is amber, not
// green, when robots.txt blocks the crawl.
func (r *uiReport) Badges() []uiBadge {
	yesNo := func(ok bool, yes, no string) uiBadge {
		if ok {
			return uiBadge{Class: "ok", Text: "✓ " + yes}
		}
		return uiBadge{Class: "no", Text: "✗ " + no}
	}
	idx := yesNo(r.Indexable, "indexable", "not indexable")
	if r.FromLinksOnly() {
		idx = uiBadge{Class: "warn", Text: "⚠ indexable from links only", Title: fromLinksOnly}
	}
	return []uiBadge{yesNo(r.Crawlable, "crawlable", "not crawlable"), idx,
		yesNo(r.Follow, "links followed", "links not followed"), yesNo(r.Snippet, "snippet shown", "no snippet")}
}

// uiCheck answers the page's form without JavaScript: the check runs on
// the server and the page comes back with the results.
func (s *Server) uiCheck(w http.ResponseWriter, r *http.Request) error {
	if err := r.ParseForm(); err != nil {
		return render(w, http.StatusBadRequest, &uiData{Error: "the form could not be read: " + err.Error()})
	}
	d := &uiData{Robots: r.PostFormValue("robots"), URL: strings.TrimSpace(r.PostFormValue("url")), Thorough: r.PostFormValue("thorough") != "",
		AllRobots: r.PostFormValue("all_robots") != "", Intent: r.PostFormValue("enable") != "", Profile: r.PostFormValue("profile")}
	req := wire.CheckRequest{Thorough: d.Thorough, AllRobots: d.AllRobots, Profile: d.Profile}
	if d.Intent {
		req.Enable = []string{"all"}
	}
	if d.URL != "" {
		req.URL = d.URL
	} else {
		req.Robots = &d.Robots
	}
	res, err := s.runCheck(r.Context(), req)
	if err != nil {
		err = s.stopped(r.Context(), err)
		d.Error = err.Error()
		return render(w, uiStatus(w, err), d)
	}
	d.Result = res
	d.Counts = map[string]int{}
	for _, x := range res.Diagnostics {
		d.Counts[x.Severity]++
	}
	original := d.Robots
	if res.Fixed != nil && *res.Fixed != original && d.URL == "" {
		d.Diff = textedit.Unified("robots.txt", "robots.txt (fixed)", original, *res.Fixed)
	}
	return render(w, http.StatusOK, d)
}

// render draws the page whole before it answers, so that a template
// error is a 500, not half a page.
func render(w http.ResponseWriter, status int, d *uiData) error {
	d.Profiles = uiProfiles
	var b bytes.Buffer
	if err := uiTemplate.Execute(&b, d); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, err := b.WriteTo(w)
	return err
}
