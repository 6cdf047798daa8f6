package server

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"html/template"
	"io/fs"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/internal/target"
	"github.com/robotskit/robots/internal/textedit"
	"github.com/robotskit/robots/internal/wire"
	"github.com/robotskit/robots/usage"
)

//go:embed ui
var uiFiles embed.FS

var uiTemplate = template.Must(template.New("index.html").Funcs(template.FuncMap{
	"download":      func(s string) template.URL { return template.URL("data:text/plain;charset=utf-8," + url.PathEscape(s)) },
	"fromLinksOnly": func() string { return fromLinksOnly },
	"lines":         linesText,
	"wasmURL":       func() string { return wasmURL },
	"wasmExecURL":   func() string { return wasmExecURL },
}).ParseFS(uiFiles, "ui/index.html"))

func staticHandler() http.Handler {
	sub, _ := fs.Sub(uiFiles, "ui/static")
	return http.StripPrefix("/static/", http.FileServer(http.FS(sub)))
}

// uiData is what the page template shows.
type uiData struct {
	Robots    string
	URL       string
	Reading   string // how a bare host in URL was read: "reading \"example.com\" as https://example.com/robots.txt"
	Thorough  bool
	AllRobots bool
	Intent    bool // also apply the intent fixes
	Profile   string
	Profiles  []uiOption
	Result    *wire.CheckResponse
	Fetch     *uiFetch // the fetch of the site's robots.txt, for a URL
	Diff      string
	Error     string
	Counts    map[string]int

	// PageURL and PageRobot are the page inspector's form; Page its
	// report, PageError why there is none.
	PageURL     string
	PageReading string // how a bare host in PageURL was read
	PageRobot   string
	Page        *uiReport
	PageError   string

	// History says that the server has a history store: the header
	// links to /history.
	History bool
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
		return s.render(w, http.StatusOK, &uiData{})
	}
	d := &uiData{PageURL: strings.TrimSpace(q.Get("page")), PageRobot: strings.TrimSpace(q.Get("robot"))}
	if d.PageURL == "" {
		d.PageError = "give the URL of a page"
		return s.render(w, http.StatusOK, d)
	}
	// A bare host is read as robots page reads it (target.Read), and the
	// page says so; the field then holds the URL read.
	u, bare, err := target.Read(d.PageURL)
	if err != nil {
		d.PageError = "Error: " + err.Error()
		return s.render(w, http.StatusOK, d)
	}
	if bare {
		d.PageReading, d.PageURL = target.Note(d.PageURL, u), u
	}
	rep, err := s.uiInspect(r, d.PageURL, d.PageRobot)
	status := http.StatusOK
	if err != nil {
		err = s.stopped(r.Context(), err)
		d.PageError = "Error: " + err.Error()
		status = uiStatus(w, err)
	}
	d.Page = rep
	return s.render(w, status, d)
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
	// Usage is what the robot may do with the page, purpose by purpose;
	// Licenses the License lines of its robots.txt.
	Usage    *usage.Verdicts `json:"usage"`
	Licenses []string        `json:"licenses"`
	Warnings []string        `json:"warnings"`
}

// A uiUsage is a row of the page's usage: a purpose, what it means, the
// preference that holds and the statement that says so. app.js's
// usageRows draws the same rows.
type uiUsage struct{ Purpose, Meaning, Value, Source string }

// purposeMeanings say what each purpose is, in the order of
// robots.Purpose (app.js's PURPOSES).
var purposeMeanings = [robots.NumPurposes]string{
	robots.Search:  "search results",
	robots.AIInput: "AI answers and grounding",
	robots.AITrain: "training AI models",
}

// UsageRows are the report's usage verdicts, a row per purpose; nil
// when it has none: no response arrived, or robots.txt keeps the robot
// from the page (UsageNone says why).
func (r *uiReport) UsageRows() []uiUsage {
	if r.Usage == nil || !r.Crawlable {
		return nil
	}
	var rows []uiUsage
	for p := range robots.NumPurposes {
		v := r.Usage.For(p)
		rows = append(rows, uiUsage{Purpose: p.String(), Meaning: purposeMeanings[p], Value: v.Value, Source: usageSourceText(v)})
	}
	return rows
}

// UsageNone says why the report has no usage rows.
func (r *uiReport) UsageNone() string {
	if !r.Crawlable {
		return "None: robots.txt keeps the robot from fetching the page, so no usage preference applies to it."
	}
	return "None: no response of the page arrived."
}

// usageSourceText names the statement of a usage verdict as the page
// shows it: "robots.txt: Content-Signal line 2", "robots.txt: robots
// token Google-Extended, line 6", "Content-Usage header"; "nothing
// stated" for none. app.js's usageSource says the same.
func usageSourceText(v *usage.Verdict) string {
	switch {
	case v.Source == "":
		return "nothing stated"
	case v.Line <= 0:
		return v.Source
	case strings.HasSuffix(v.Source, " line "+strconv.Itoa(v.Line)):
		return "robots.txt: " + v.Source
	}
	return "robots.txt: " + v.Source + ", line " + strconv.Itoa(v.Line)
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
		return s.render(w, http.StatusBadRequest, &uiData{Error: "the form could not be read: " + err.Error()})
	}
	d := &uiData{Robots: r.PostFormValue("robots"), URL: strings.TrimSpace(r.PostFormValue("url")), Thorough: r.PostFormValue("thorough") != "",
		AllRobots: r.PostFormValue("all_robots") != "", Intent: r.PostFormValue("enable") != "", Profile: r.PostFormValue("profile")}
	req := wire.CheckRequest{Thorough: d.Thorough, AllRobots: d.AllRobots, Profile: d.Profile}
	if d.Intent {
		req.Enable = []string{"all"}
	}
	// A bare host ("example.com", "127.0.0.1:8080") is read as robots
	// check and robots fetch read it (target.Read), and the page says so;
	// the field then holds the URL read, which the API takes.
	arg, bare := d.URL, false
	if d.URL != "" {
		u, b, err := target.Read(d.URL)
		if err != nil {
			d.Error = err.Error()
			return s.render(w, http.StatusOK, d)
		}
		if b {
			d.Reading = target.Note(arg, u)
		}
		d.URL, bare, req.URL = u, b, u
	} else {
		req.Robots = &d.Robots
	}
	res, err := s.runCheck(r.Context(), req)
	if err != nil {
		err = s.stopped(r.Context(), err)
		d.Error = err.Error()
		return s.render(w, uiStatus(w, err), d)
	}
	d.Result = res
	if tr, ok := res.Fetch.(*wire.FetchTrace); ok {
		d.Fetch = newUIFetch(tr, d.Profile, d.AllRobots)
		if bare {
			d.Reading = target.Note(arg, tr.URL) // the robots.txt fetched
		}
	}
	d.Counts = map[string]int{}
	for _, x := range res.Diagnostics {
		d.Counts[x.Severity]++
	}
	original := d.Robots
	if res.Fixed != nil && *res.Fixed != original && d.URL == "" {
		d.Diff = textedit.Unified("robots.txt", "robots.txt (fixed)", original, *res.Fixed)
	}
	return s.render(w, http.StatusOK, d)
}

// render draws the page whole before it answers, so that a template
// error is a 500, not half a page. The header links to the history
// pages when the server has a store (Config.Store).
func (s *Server) render(w http.ResponseWriter, status int, d *uiData) error {
	d.Profiles = uiProfiles
	d.History = s.cfg.Store != ""
	var b bytes.Buffer
	if err := uiTemplate.Execute(&b, d); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, err := b.WriteTo(w)
	return err
}

// uiFetch is the fetch panel of a site's check: what the fetch of its
// robots.txt found, each thing said once. app.js's renderFetch draws the
// same panel from the API's JSON.
type uiFetch struct {
	URL      string
	Status   int
	OK       bool   // a 2xx answer, for the badge's colour
	Headline string // the outcome and what it means: "success: rules of the file apply"
	Error    string // the fetch's error, when no request shows it
	Hops     []uiFetchHop
	Facts    []uiFact
	// Alike says that every robot family in the check's scope reads the
	// answer as the headline does; else Readings list how each reads it.
	Alike    string
	Readings []uiReading
	Warnings []string
}

// A uiFetchHop is one request of the fetch.
type uiFetchHop struct {
	Status     int
	URL, Error string
	Took, Size string
}

// StatusClass is the first digit of the status, for its colour.
func (h uiFetchHop) StatusClass() string { return strconv.Itoa(h.Status / 100) }

// A uiFact is a term and its value.
type uiFact struct{ Term, Value string }

// A uiReading is how some robot families read the fetch's answer.
type uiReading struct{ Families, Access, Reason string }

// fetchFamilies names the fetch policies of the robot families the
// check's findings speak for (the labels of app.js's FAMILIES). A policy
// not named here, Mandelbot's (one crawler's documented rules), is no
// family of the checker's, and its reading is not shown.
var fetchFamilies = []struct{ policy, label string }{
	{"google", "Google"}, {"bing", "Bing"}, {"yandex", "Yandex"},
	{"rfc9309", "other RFC 9309 robots"}, {"draft1996", "first-match robots (1996 draft)"},
}

// inScope reports whether the readings of a fetch policy are shown for a
// check of profile (the form's "findings for", "" for the major
// families) with allRobots (the compatibility option): the major
// families, the 1996 draft's first-match robots with the option, and
// only the profile's own family when one is chosen (fetch.PolicyFor's
// pairing: the 1994 standard's robots fetch as the 1996 draft's).
func inScope(policy, profile string, allRobots bool) bool {
	switch profile {
	case "":
		return policy != "draft1996" || allRobots
	case "strict1994":
		return policy == "draft1996"
	}
	return policy == profile
}

// newUIFetch builds the fetch panel of a check of profile, allRobots.
func newUIFetch(tr *wire.FetchTrace, profile string, allRobots bool) *uiFetch {
	f := &uiFetch{URL: tr.URL, Status: tr.Status, OK: tr.Status >= 200 && tr.Status < 300, Warnings: tr.Warnings}
	// The reason says what the outcome means ("rules of the file
	// apply"): it is not said again in other words.
	f.Headline = tr.Outcome
	if tr.Reason != "" {
		f.Headline += ": " + tr.Reason
	}
	f.Error = tr.Error
	for _, h := range tr.Hops {
		f.Hops = append(f.Hops, uiFetchHop{Status: h.Status, URL: h.URL, Error: h.Error, Took: uiMS(h.DurationMS), Size: uiBytes(h.Size)})
		if h.Error == f.Error {
			f.Error = ""
		}
	}
	size := uiBytes(tr.Size)
	if tr.Truncated {
		size += " (truncated: robots read only the start)"
	}
	final := ""
	if tr.FinalURL != tr.URL {
		final = tr.FinalURL
	}
	for _, fact := range []uiFact{
		{"Final URL", final},
		{"Size", size},
		{"Media type", tr.MediaType},
		{"Charset", tr.Charset},
		{"Content-Encoding", tr.Encoding},
		{"Time", uiMS(tr.DurationMS)},
	} {
		if fact.Value != "" {
			f.Facts = append(f.Facts, fact)
		}
	}
	// Families that read the answer alike share a row, as robots fetch
	// writes them.
	var names []string
	row := map[string]int{}
	for _, fam := range fetchFamilies {
		for _, r := range tr.Readings {
			if r.Policy != fam.policy || !inScope(r.Policy, profile, allRobots) {
				continue
			}
			names = append(names, fam.label)
			k := r.Access + "\x00" + r.Reason
			if i, ok := row[k]; ok {
				f.Readings[i].Families += ", " + fam.label
				continue
			}
			row[k] = len(f.Readings)
			f.Readings = append(f.Readings, uiReading{Families: fam.label, Access: r.Access, Reason: r.Reason})
		}
	}
	if len(f.Readings) == 1 && f.Readings[0].Access == tr.Access && f.Readings[0].Reason == tr.Reason {
		f.Alike = andList(names) + " read this answer alike."
		if len(names) == 1 {
			f.Alike = names[0] + " reads this answer the same way."
		}
		f.Readings = nil
	}
	return f
}

// andList joins "a", "b" and "c" as "a, b and c".
func andList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// uiMS writes milliseconds as app.js's ms does.
func uiMS(v float64) string {
	if v < 10 {
		return strconv.FormatFloat(v, 'f', 1, 64) + " ms"
	}
	return strconv.FormatFloat(math.Round(v), 'f', 0, 64) + " ms"
}

// uiBytes writes a size as app.js's bytes does.
func uiBytes(n int64) string {
	switch {
	case n == 1:
		return "1 byte"
	case n < 1024:
		return strconv.FormatInt(n, 10) + " bytes"
	case n < 1<<20:
		return strconv.FormatFloat(float64(n)/1024, 'f', 1, 64) + " KiB"
	}
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
}
