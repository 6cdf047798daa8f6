package server

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/change"
	"github.com/robotskit/robots/history"
	"github.com/robotskit/robots/internal/timeline"
)

var historyTemplate = template.Must(template.New("history.html").Funcs(template.FuncMap{
	"pair": func(a, b historyRow) []historyRow { return []historyRow{a, b} },
	// stamp lets a time break after its date on a narrow screen.
	"stamp": func(s string) template.HTML {
		date, clock, ok := strings.Cut(template.HTMLEscapeString(s), "T")
		if !ok {
			return template.HTML(date)
		}
		return template.HTML(`<span class="nw">` + date + "T</span><wbr>" + clock)
	},
}).ParseFS(uiFiles, "ui/history.html"))

// historyPage is what the history template shows: one of the list of
// sites, a site's timeline, a version, or a diff; or an error.
type historyPage struct {
	Title string
	// Error says why the page has nothing else; Empty that the store has
	// no site yet (its file may not exist).
	Error string
	Empty bool
	// Sites is the list of sites (GET /history).
	Sites []historySiteRow
	// Site is the site of the other pages.
	Site *historySiteView
	// Version is one version (?v=N), Diff two (?a=N&b=M).
	Version *historyVersionView
	Diff    *historyDiffView
}

// A historySiteRow is a site in the list of sites.
type historySiteRow struct {
	Site, Href                 string
	Versions                   int
	First, LastChange, Checked string
}

// historySiteView is a site's page: its timeline, its versions, and the
// form that compares two.
type historySiteView struct {
	Site, Href string
	Count      int    // versions in all
	Omitted    int    // the earliest versions not drawn (maxHistoryDrawn)
	Start, End string // the band's ends: the first version drawn, the last fetch
	Band       historyBand
	Rows       []historyRow
	// A and B are the form's defaults: the last two versions.
	A, B int
}

// historyBand is the timeline drawn as an SVG: a segment per version,
// scaled by time, at least a sliver wide each.
type historyBand struct {
	// Width is the SVG's width attribute: "100%", or pixels for a long
	// history, which scrolls inside its box.
	Width string
	Long  bool
	Label string
	Segs  []historySeg
}

// A historySeg is a version on the band. X and W are percentages of
// the band; Mid is where its Short label is centred.
type historySeg struct {
	N           int
	Outcome     string
	X, W, Mid   string
	Label, Href string
	Short       string
}

// A historyRow is a version in the table of a site's versions.
type historyRow struct {
	N                         int
	Outcome                   string
	From, Answer, Size, Hash  string
	Googlebot, Href, DiffHref string
}

// historyVersionView is a version's page: its facts, how each family
// read it, and its body with line numbers.
type historyVersionView struct {
	N, Count int
	Outcome  string
	Facts    []uiFact
	Families []timeline.FamilyReading
	Lines    []historyLine
	NoBody   string
	// Links lead to the previous and next versions and the change from
	// the previous one.
	Links []historyLink
}

// A historyLink is a link of a page.
type historyLink struct{ Href, Text, Rel string }

// A historyLine is a line of a body.
type historyLine struct {
	N    int
	Text string
}

// historyDiffView is the page of the change from version A to B.
type historyDiffView struct {
	A, B         historyRow
	Same         bool
	Back         bool // A is after B: the change is shown the other way
	Families     []timeline.FamilyChange
	ReadingsNote string // what the families' columns read
	Report       *historyReportView
	Alike        bool // no family reads them differently, and no report
}

// historyReportView is a change.Report as the page shows it: as robots
// diff writes it, in the files' own rules.
type historyReportView struct {
	Compared string
	Turning  []historyRuleView
	Heading  string // "1 rule line changes what 4 robots may crawl:"
	Access   []historyAccessView
	Inert    []historyRuleView
	InertHd  string
	Changed  bool
}

// A historyRuleView is a rule line that reads differently: Head is
// robots diff's line ("+ line 3: Disallow: /drafts/ (added)").
type historyRuleView struct {
	Change string
	Head   string
	Covers string
	Effect string
	Robots []string // "Googlebot [google]", "* (other robots) [every family]"
	Note   string
}

// A historyAccessView is a change of some robots' access to the site.
type historyAccessView struct {
	Text   string
	Robots []string
}

// uiHistory serves the history pages: GET /history lists the sites;
// ?site= draws a site's timeline and versions; &v=N shows a version;
// &a=N&b=M the change between two. They need no JavaScript. Reading a
// site's versions is heavy work (each version is read as robots read
// it): it takes a slot of the gate.
func (s *Server) uiHistory(w http.ResponseWriter, r *http.Request) error {
	d := &historyPage{Title: "History of watched sites"}
	status, err := s.historyView(w, r, d)
	if err != nil {
		err = s.stopped(r.Context(), err)
		ae := asAPIError(err)
		noteError(w, ae)
		d.Error, status = ae.msg, ae.status
		if ae.status == http.StatusInternalServerError && ae.code == "internal" {
			return err
		}
	}
	return renderHistory(w, status, d)
}

// historyView fills d for the request, and returns the page's status.
func (s *Server) historyView(w http.ResponseWriter, r *http.Request, d *historyPage) (int, error) {
	q, err := parseHistoryQuery(r.URL.Query())
	if err != nil {
		return 0, err
	}
	if q.site == "" {
		sites, err := s.historySites()
		if err != nil {
			return 0, err
		}
		d.Empty = len(sites) == 0
		for _, x := range sites {
			d.Sites = append(d.Sites, historySiteRow{Site: x.Site, Href: historyHref(x.Site), Versions: x.Versions,
				First: stamp(x.First), LastChange: stamp(x.Last), Checked: stamp(x.Checked)})
		}
		return http.StatusOK, nil
	}
	ctx := r.Context()
	if err := s.work(ctx); err != nil {
		return 0, err
	}
	hs, err := s.loadSite(q.site)
	if err != nil {
		if ae, ok := err.(*apiError); ok && strings.HasPrefix(ae.msg, noSiteYet) {
			d.Empty = true
		}
		return 0, err
	}
	d.Title = hs.Site
	switch {
	case q.v != 0:
		i, err := hs.version(q.v)
		if err != nil {
			return 0, err
		}
		d.Site = &historySiteView{Site: hs.Site, Href: historyHref(hs.Site), Count: len(hs.Versions)}
		d.Version = hs.versionView(i)
		d.Title = fmt.Sprintf("%s, version %d", hs.Site, q.v)
		return http.StatusOK, nil
	case q.a != 0:
		i, err := hs.version(q.a)
		if err != nil {
			return 0, err
		}
		j, err := hs.version(q.b)
		if err != nil {
			return 0, err
		}
		d.Site = &historySiteView{Site: hs.Site, Href: historyHref(hs.Site), Count: len(hs.Versions), A: q.a, B: q.b}
		dv := &historyDiffView{A: hs.row(i), B: hs.row(j), Same: i == j, Back: i > j}
		if i != j {
			fams, rep, err := hs.change(ctx, i, j)
			if err != nil {
				return 0, err
			}
			dv.Families = fams
			if j == i+1 {
				dv.ReadingsNote = fmt.Sprintf("Before: just before version %d came; after: as it came.", q.b)
			} else {
				dv.ReadingsNote = fmt.Sprintf("Before: version %d at its last moment; after: version %d as it came.", q.a, q.b)
			}
			if rep != nil {
				dv.Report = reportView(rep)
			}
			dv.Alike = len(fams) == 0 && rep == nil
		}
		d.Diff = dv
		d.Title = fmt.Sprintf("%s, version %d → %d", hs.Site, q.a, q.b)
		return http.StatusOK, nil
	}
	view, err := hs.siteView(ctx)
	if err != nil {
		return 0, err
	}
	d.Site = view
	return http.StatusOK, nil
}

// renderHistory draws a history page whole before it answers.
func renderHistory(w http.ResponseWriter, status int, d *historyPage) error {
	var b bytes.Buffer
	if err := historyTemplate.Execute(&b, d); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, err := b.WriteTo(w)
	return err
}

// historyHref is the link to a site's page, with more of query.
func historyHref(site string, more ...string) string {
	q := url.Values{"site": {site}}
	for i := 0; i+1 < len(more); i += 2 {
		q.Set(more[i], more[i+1])
	}
	return "/history?" + q.Encode()
}

// answer says a version's answer as robots history does: "200 success",
// "unreachable" when no response came.
func answer(v *history.Version) string {
	if v.Status != 0 {
		return fmt.Sprintf("%d %s", v.Status, v.Outcome)
	}
	return v.Outcome
}

// row is version i in the table of versions.
func (hs *historySite) row(i int) historyRow {
	v := &hs.Versions[i]
	hash := "-"
	if v.Hash != "" {
		hash = v.Hash[:min(12, len(v.Hash))]
	}
	n := strconv.Itoa(i + 1)
	r := historyRow{N: i + 1, Outcome: outcomeClass(v.Outcome), From: stamp(v.Time), Answer: answer(v), Size: uiBytes(v.Size),
		Hash: hash, Googlebot: hs.googlebot(i), Href: historyHref(hs.Site, "v", n)}
	if i > 0 {
		r.DiffHref = historyHref(hs.Site, "a", strconv.Itoa(i), "b", n)
	}
	return r
}

// outcomeClass is the CSS class of an outcome: its name, or "other".
func outcomeClass(o string) string {
	switch o {
	case "success", "unavailable", "unreachable", "forbidden":
		return o
	}
	return "other"
}

// siteView is the site's page: the band and table of its latest
// versions (maxHistoryDrawn), and the form's defaults.
func (hs *historySite) siteView(ctx context.Context) (*historySiteView, error) {
	n := len(hs.Versions)
	first := max(0, n-maxHistoryDrawn)
	v := &historySiteView{Site: hs.Site, Href: historyHref(hs.Site), Count: n, Omitted: first,
		Start: stamp(hs.Versions[first].Time), End: stamp(hs.Checked), A: max(1, n-1), B: n}
	for i := first; i < n; i++ {
		if (i-first)%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		v.Rows = append(v.Rows, hs.row(i))
	}
	v.Band = hs.band(first)
	return v, nil
}

// Sizes of the band.
const (
	// longBand is the number of versions past which the band is drawn
	// bandPx pixels per version wide and scrolls in its box.
	longBand = 60
	bandPx   = 8
	// minShare is the least width of a segment in a band of the page's
	// width, in percent: some 3 px on a phone.
	minShare = 0.7
	// labelPx is the least width of a segment, in pixels, with its
	// number written on it; narrowPx the band's width assumed on a phone.
	labelPx  = 30
	narrowPx = 440
)

// band draws versions first… of the site from the first one's time to
// the last fetch: each segment as long as the version was in force,
// after a sliver that every version gets so that a short one shows.
func (hs *historySite) band(first int) historyBand {
	vs := hs.Versions[first:]
	count := len(vs)
	start, end := vs[0].Time, hs.Checked
	b := historyBand{Width: "100%"}
	px := float64(narrowPx)
	least := minShare
	if count > longBand {
		px = float64(count * bandPx)
		b.Width, b.Long = strconv.Itoa(count*bandPx), true
		least = 300 / px // 3 px
	}
	total := end.Sub(start)
	rest := 100 - float64(count)*least
	x := 0.0
	for k, v := range vs {
		to := end
		if k+1 < count {
			to = vs[k+1].Time
		}
		w := 100 / float64(count)
		if total > 0 {
			w = least + rest*float64(to.Sub(v.Time))/float64(total)
		}
		n := first + k + 1
		label := fmt.Sprintf("version %d: %s, from %s to %s", n, answer(&hs.Versions[first+k]), stamp(v.Time), stamp(to))
		if k+1 == count {
			label = fmt.Sprintf("version %d: %s, from %s, still in force at the last fetch, %s", n, answer(&hs.Versions[first+k]), stamp(v.Time), stamp(to))
		}
		seg := historySeg{N: n, Outcome: outcomeClass(v.Outcome), X: pct(x), W: pct(w), Mid: pct(x + w/2),
			Label: label, Href: historyHref(hs.Site, "v", strconv.Itoa(n))}
		if w*px/100 >= labelPx {
			seg.Short = "v" + strconv.Itoa(n)
		}
		b.Segs = append(b.Segs, seg)
		x += w
	}
	b.Label = fmt.Sprintf("Timeline of %s: %s from %s to the last fetch, %s", hs.Site, plural(count, "version"), stamp(start), stamp(end))
	return b
}

// pct writes a percentage for an SVG attribute.
func pct(f float64) string { return strconv.FormatFloat(f, 'f', 3, 64) }

// versionView is version i's page.
func (hs *historySite) versionView(i int) *historyVersionView {
	v := &hs.Versions[i]
	n := i + 1
	vv := &historyVersionView{N: n, Count: len(hs.Versions), Outcome: outcomeClass(v.Outcome), Families: hs.readings(i)}
	until := "still in force (last fetch " + stamp(hs.Checked) + ")"
	if i+1 < len(hs.Versions) {
		until = stamp(hs.Versions[i+1].Time) + " (version " + strconv.Itoa(n+1) + ")"
	}
	if i > 0 {
		vv.Links = append(vv.Links, historyLink{historyHref(hs.Site, "v", strconv.Itoa(i)), "← version " + strconv.Itoa(i), "prev"},
			historyLink{historyHref(hs.Site, "a", strconv.Itoa(i), "b", strconv.Itoa(n)), fmt.Sprintf("what changed from version %d", i), ""})
	}
	if i+1 < len(hs.Versions) {
		vv.Links = append(vv.Links, historyLink{historyHref(hs.Site, "v", strconv.Itoa(n+1)), "version " + strconv.Itoa(n+1) + " →", "next"})
	}
	size := uiBytes(v.Size)
	if v.Truncated {
		size += " (truncated: robots read only the start)"
	}
	hash := v.Hash
	if hash == "" {
		hash = "-"
	}
	final := ""
	if v.FinalURL != v.URL {
		final = v.FinalURL
	}
	for _, f := range []uiFact{
		{"From", stamp(v.Time)},
		{"Until", until},
		{"Answer", answer(v)},
		{"Error", v.Err},
		{"URL", v.URL},
		{"Final URL", final},
		{"Size", size},
		{"SHA-256", hash},
		{"Googlebot read", hs.googlebot(i)},
	} {
		if f.Value != "" {
			vv.Facts = append(vv.Facts, f)
		}
	}
	if len(v.Body) == 0 {
		vv.NoBody = "No body is stored: the answer had none."
		if v.Outcome == "success" {
			vv.NoBody = "The file is empty."
		}
		return vv
	}
	text := strings.ToValidUTF8(string(v.Body), "\uFFFD")
	text = strings.TrimSuffix(text, "\n")
	for k, line := range strings.Split(text, "\n") {
		vv.Lines = append(vv.Lines, historyLine{N: k + 1, Text: strings.TrimSuffix(line, "\r")})
	}
	return vv
}

// otherRobots names the robots that no group names, as robots diff
// does.
const otherRobots = "* (other robots)"

// reportView is rep as robots diff writes it (writeDiffText): the rule
// lines that change verdicts, then the robots whose access to the site
// changes, then the rule lines that differ but change no verdict.
func reportView(rep *change.Report) *historyReportView {
	var fams []robots.Profile
	for _, f := range rep.Families {
		fams = append(fams, f.Profile)
	}
	v := &historyReportView{Compared: "compared: " + andList(profileNames(fams)) + " robots", Changed: rep.Changed}
	names := map[string]bool{}
	for _, rc := range rep.Rules {
		rv := historyRuleView{Change: rc.Change, Head: ruleHead(rc), Covers: rc.Covers, Effect: rc.Effect, Note: rc.Note}
		if len(rc.Robots) == 0 {
			v.Inert = append(v.Inert, rv)
			continue
		}
		for _, r := range rc.Robots {
			name := r.Robot
			if name == "*" {
				name = otherRobots
			}
			names[r.Robot] = true
			rv.Robots = append(rv.Robots, name+" ["+familiesOf(r.Families, fams)+"]")
		}
		v.Turning = append(v.Turning, rv)
	}
	if n := len(v.Turning); n > 0 {
		v.Heading = fmt.Sprintf("%s %s what %s may crawl:", plural(n, "rule line"), verb(n, "changes", "change"), plural(len(names), "robot"))
	}
	if n := len(v.Inert); n > 0 {
		v.InertHd = fmt.Sprintf("%s %s between the versions but %s no verdict:", plural(n, "rule line"), verb(n, "differs", "differ"), verb(n, "changes", "change"))
	}
	v.Access = accessChanges(rep, fams)
	return v
}

// ruleHead is a rule change's line as robots diff writes it: "+ line 3:
// Disallow: /drafts/ (added)".
func ruleHead(rc change.RuleChange) string {
	switch rc.Change {
	case change.Added:
		return fmt.Sprintf("+ line %d: %s (added)", rc.Line, rc.Rule)
	case change.Removed:
		return fmt.Sprintf("- line %d: %s (removed)", rc.Line, rc.Rule)
	}
	if rc.OldLine != 0 && rc.OldLine != rc.Line {
		return fmt.Sprintf("~ line %d (was %d): %s (in both versions, read differently)", rc.Line, rc.OldLine, rc.Rule)
	}
	return fmt.Sprintf("~ line %d: %s (in both versions, read differently)", rc.Line, rc.Rule)
}

// accessChanges are the changes of robots' access to the site (its
// state, or how it finds its group), each once with the robots it holds
// for, as robots diff lists them under "Access to the site".
func accessChanges(rep *change.Report, fams []robots.Profile) []historyAccessView {
	type entry struct {
		names []string
		fams  map[string][]robots.Profile
	}
	var order []string
	byKey := map[string]*entry{}
	for _, f := range rep.Families {
		for _, rb := range f.Robots {
			if rb.Old.State == rb.New.State && rb.Old.Via == rb.New.Via {
				continue
			}
			text := accessWords(rb.Old) + " → " + accessWords(rb.New)
			if rb.Old.Via == rb.New.Via && rb.Old.Group == rb.New.Group {
				text = fmt.Sprintf("%s → %s, %s", stateWords(rb.Old.State), stateWords(rb.New.State), groupWords(rb.New))
			}
			e := byKey[text]
			if e == nil {
				e = &entry{fams: map[string][]robots.Profile{}}
				byKey[text] = e
				order = append(order, text)
			}
			name := rb.Name
			if name == "*" {
				name = otherRobots
			}
			if e.fams[name] == nil {
				e.names = append(e.names, name)
			}
			e.fams[name] = append(e.fams[name], f.Profile)
		}
	}
	var out []historyAccessView
	for _, k := range order {
		e := byKey[k]
		av := historyAccessView{Text: k}
		for _, n := range e.names {
			av.Robots = append(av.Robots, n+" ["+familiesOf(e.fams[n], fams)+"]")
		}
		out = append(out, av)
	}
	return out
}

// stateWords says a state as robots diff does.
func stateWords(s robots.State) string {
	return map[robots.State]string{robots.Open: "open", robots.Partly: "partly blocked", robots.Blocked: "blocked"}[s]
}

// groupWords says how a robot found its group, as robots diff does.
func groupWords(a robots.Access) string {
	switch a.Via {
	case robots.ViaNamed:
		return fmt.Sprintf("by its own group (line %d)", a.Group)
	case robots.ViaFallback:
		return fmt.Sprintf("by a fallback's group (line %d)", a.Group)
	case robots.ViaStar:
		return fmt.Sprintf("by the \"*\" group (line %d)", a.Group)
	}
	return "no group applies"
}

// accessWords says an access in a few words, as robots diff does.
func accessWords(a robots.Access) string {
	if a.Via == robots.ViaNone {
		return stateWords(a.State) + ", no group applies"
	}
	return stateWords(a.State) + " " + groupWords(a)
}

// familiesOf names families, or "every family" when they are all of
// all.
func familiesOf(ps, all []robots.Profile) string {
	if len(ps) == len(all) && len(all) > 1 {
		return "every family"
	}
	return strings.Join(profileNames(ps), ", ")
}

// profileNames are the names of ps.
func profileNames(ps []robots.Profile) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

// verb picks the singular or plural form for n.
func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
