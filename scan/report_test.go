package scan

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// reportUpdate is the -update flag, which rewrites the golden files of
// testdata/summary instead of comparing with them. Another test file of
// the package may have defined it already.
var reportUpdate = func() func() bool {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files")
	}
	return func() bool { f := flag.Lookup("update"); return f != nil && f.Value.String() == "true" }
}()

// reportRows is a fixed set of captures with every case the tables
// count: usable files of each size bin, an HTML soft 404, an empty 200, a
// revisit, 3xx/4xx/5xx and odd statuses, repeated agents, verdicts of
// every state and way (anthropic-ai's the same as GPTBot's on every site,
// so that they share a row of the robot table), checker codes and a
// timeout, and usage preferences: Content-Signal, Content-Usage and
// License lines, and Google-Extended named and barred.
func reportRows() []Row {
	rules := sumOutcomes("rules", "rules")
	return []Row{
		{URL: "https://a.example/robots.txt", Status: 200, Bytes: 812, Outcomes: rules,
			Directives: []KeyCount{{"license", 1}, {"user-agent", 4}, {"content-signal", 1}, {"disallow", 3}, {"sitemap", 1}},
			Agents:     []AgentValue{{Value: "GPTBot", Lower: "gptbot"}, {Value: "anthropic-ai", Lower: "anthropic-ai"}, {Value: "CCBot", Lower: "ccbot"}, {Value: "*", Lower: "*"}},
			Robots: []Verdict{
				{Robot: "GPTBot", State: "blocked", Via: "named"}, {Robot: "anthropic-ai", State: "blocked", Via: "named"}, {Robot: "CCBot", State: "blocked", Via: "named"},
				{Robot: "Googlebot", State: "partly", Via: "star"}, {Robot: "Applebot", State: "partly", Via: "star"},
				{Robot: "Google-Extended", State: "blocked", Via: "named"},
			},
			ContentSignal: []string{"search=yes, ai-train=no"}, License: []string{"https://a.example/license.xml"},
			Lint: []string{"RB406"}},
		{URL: "https://b.example/robots.txt", Status: 200, Bytes: 45, Outcomes: rules,
			Directives: []KeyCount{{"user-agent", 1}, {"content-usage", 1}, {"disallow", 1}},
			Agents:     []AgentValue{{Value: "*", Lower: "*"}},
			Robots: []Verdict{
				{Robot: "GPTBot", State: "open", Via: "star"}, {Robot: "anthropic-ai", State: "open", Via: "star"}, {Robot: "CCBot", State: "open", Via: "star"},
				{Robot: "Googlebot", State: "open", Via: "star"}, {Robot: "Applebot", State: "open", Via: "star"},
				{Robot: "Google-Extended", State: "open", Via: "star"},
			},
			ContentUsage: []string{"train-ai=y, search=y"}},
		{URL: "https://c.example/robots.txt", Status: 200, Bytes: 15300, Outcomes: rules,
			Directives: []KeyCount{{"user-agent", 5}, {"disallow", 9}, {"allow", 2}, {"dissallow", 1}, {"crawl-delay", 1}, {"content-usage", 1}, {"content-signal", 1}},
			Agents: []AgentValue{{Value: "Googlebot", Lower: "googlebot"}, {Value: "GPTBot", Lower: "gptbot"}, {Value: "anthropic-ai", Lower: "anthropic-ai"},
				{Value: "gptbot", Lower: "gptbot"}, {Value: "<script>|x|</script>", Lower: "<script>|x|</script>"}},
			Robots: []Verdict{
				{Robot: "GPTBot", State: "partly", Via: "named"}, {Robot: "anthropic-ai", State: "partly", Via: "named"}, {Robot: "CCBot", State: "open", Via: "none"},
				{Robot: "Googlebot", State: "partly", Via: "named"}, {Robot: "Applebot", State: "partly", Via: "fallback"},
				{Robot: "Google-Extended", State: "partly", Via: "named"},
			},
			ContentUsage: []string{"/private/ train-ai=n"}, ContentSignal: []string{"ai-input=yes"},
			Lint: []string{"RB303", "RB304"}},
		{URL: "https://d.example/robots.txt", Status: 200, Bytes: 0, Outcomes: rules,
			Robots: []Verdict{
				{Robot: "GPTBot", State: "open", Via: "none"}, {Robot: "anthropic-ai", State: "open", Via: "none"}, {Robot: "CCBot", State: "open", Via: "none"},
				{Robot: "Googlebot", State: "open", Via: "none"}, {Robot: "Applebot", State: "open", Via: "none"},
				{Robot: "Google-Extended", State: "open", Via: "none"},
			},
			Lint: []string{"RB123"}},
		{URL: "https://e.example/robots.txt", Status: 200, Bytes: 640 << 10, OverLimit: true, Outcomes: rules,
			Directives: []KeyCount{{"user-agent", 1}, {"disallow", 30000}},
			Agents:     []AgentValue{{Value: "*", Lower: "*"}},
			Robots: []Verdict{
				{Robot: "GPTBot", State: "partly", Via: "star"}, {Robot: "anthropic-ai", State: "partly", Via: "star"}, {Robot: "CCBot", State: "partly", Via: "star"},
				{Robot: "Googlebot", State: "partly", Via: "star"}, {Robot: "Applebot", State: "partly", Via: "star"},
				{Robot: "Google-Extended", State: "partly", Via: "star"},
			},
			Lint: []string{"RB122"}},
		{URL: "https://f.example/robots.txt", Status: 200, Bytes: 150 << 10, Outcomes: rules,
			Directives: []KeyCount{{"user-agent", 2}, {"disallow", 2}},
			Agents:     []AgentValue{{Value: "CCBot", Lower: "ccbot"}, {Value: "*", Lower: "*"}},
			Robots: []Verdict{
				{Robot: "GPTBot", State: "open", Via: "star"}, {Robot: "anthropic-ai", State: "open", Via: "star"}, {Robot: "CCBot", State: "blocked", Via: "named"},
				{Robot: "Googlebot", State: "open", Via: "star"}, {Robot: "Applebot", State: "open", Via: "star"},
				{Robot: "Google-Extended", State: "open", Via: "star"},
			},
			LintTimeout: true},
		{URL: "https://g.example/robots.txt", Status: 200, HTML: true, Bytes: 3000, ContentType: "text/html",
			Outcomes: rules, Lint: []string{"RB205"}, ContentSignal: []string{"ai-train=no"}, // no site: not counted
			Robots: []Verdict{
				{Robot: "GPTBot", State: "open", Via: "none"}, {Robot: "anthropic-ai", State: "open", Via: "none"}, {Robot: "CCBot", State: "open", Via: "none"},
				{Robot: "Googlebot", State: "open", Via: "none"}, {Robot: "Applebot", State: "open", Via: "none"},
				{Robot: "Google-Extended", State: "open", Via: "none"},
			}},
		{URL: "https://h.example/robots.txt", Status: 404, Outcomes: sumOutcomes("unavailable", "unavailable"), Lint: []string{"RB104"}},
		{URL: "https://i.example/robots.txt", Status: 404, Outcomes: sumOutcomes("unavailable", "unavailable"), Lint: []string{"RB104"}},
		{URL: "https://j.example/robots.txt", Status: 403, Outcomes: []Outcome{
			{"google", "unavailable"}, {"rfc9309", "unavailable"}, {"bing", "unavailable"},
			{"yandex", "unavailable"}, {"draft1996", "forbidden"}, {"mandelbot", "unavailable"}}},
		{URL: "https://k.example/robots.txt", Status: 503, Outcomes: []Outcome{
			{"google", "unreachable"}, {"rfc9309", "unreachable"}, {"bing", "unreachable"},
			{"yandex", "unavailable"}, {"draft1996", "unreachable"}, {"mandelbot", "unreachable"}}},
		{URL: "http://l.example/robots.txt", Status: 301, RedirectTo: "https://l.example/robots.txt", Outcomes: sumOutcomes("unavailable", "unavailable")},
		{URL: "https://m.example/robots.txt", Status: 200, Revisit: true, Outcomes: rules},
		{URL: "https://n.example/robots.txt", Status: 999, Outcomes: sumOutcomes("unreachable", "unreachable")},
	}
}

// reportSummary is the summary of reportRows.
func reportSummary() *Summary {
	var s Summary
	for _, r := range reportRows() {
		s.Add(&r)
	}
	return &s
}

// TestReportGolden compares each format's report of reportRows with its
// golden file; go test ./scan -run TestReportGolden -update rewrites them.
func TestReportGolden(t *testing.T) {
	s := reportSummary()
	for _, format := range []string{ReportJSON, ReportMarkdown, ReportHTML} {
		var buf bytes.Buffer
		if err := s.Write(&buf, format); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "summary", "report."+format)
		if reportUpdate() {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to write it)", err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%s differs from %s (run with -update to rewrite it):\n%s", format, path, buf.Bytes())
		}
	}
	// The golden JSON form reads back to the same summary.
	b, err := os.ReadFile(filepath.Join("testdata", "summary", "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadSummary(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if sumJSON(t, back) != sumJSON(t, s) {
		t.Error("report.json reads back to another summary")
	}
}

// TestReportNumbers checks the golden summary's counts by hand, as the
// tables of docs/scan.md define them.
func TestReportNumbers(t *testing.T) {
	s := reportSummary()
	for _, tt := range []struct {
		name      string
		got, want int64
	}{
		{"captures", s.Captures, 14},
		// a, b, c, d, e, f: g is HTML, m a revisit, the others not 2xx.
		{"sites", s.Sites, 6},
		{"status 200", s.Status[200], 8},
		{"status 404", s.Status[404], 2},
		{"sizes 0 B", s.Sizes["0"], 1},
		{"sizes ≤ 1 KiB", s.Sizes["1k"], 2},
		{"sizes 10–100 KiB", s.Sizes["100k"], 1},
		{"sizes 100–200 KiB", s.Sizes["200k"], 1},
		{"sizes > 500 KiB", s.Sizes["more"], 1},
		{"google rules", s.Outcomes["google"]["rules"], 8},
		{"draft1996 forbidden", s.Outcomes["draft1996"]["forbidden"], 1},
		{"disallow sites", s.Directives["disallow"].Sites, 5},
		{"disallow lines", s.Directives["disallow"].Lines, 30015},
		// gptbot twice in c: once per site.
		{"agent gptbot", s.Agents["gptbot"], 2},
		{"agent *", s.Agents["*"], 4},
		// Consent in Crisis' "full restriction" of CCBot, and Cloudflare
		// Radar's "fully disallowed" (a group names it): a, f.
		{"CCBot named blocked", s.Robots["CCBot"]["named"]["blocked"], 2},
		// Radar's "partially disallowed" GPTBot: c.
		{"GPTBot named partly", s.Robots["GPTBot"]["named"]["partly"], 1},
		{"GPTBot via star open", s.Robots["GPTBot"]["star"]["open"], 2},
		{"lint RB104 captures", s.Lint["RB104"].Captures, 2},
		{"lint RB104 sites", s.Lint["RB104"].Sites, 0},
		{"lint RB406 sites", s.Lint["RB406"].Sites, 1},
		{"lint timeouts", s.LintTimeouts, 1},
	} {
		if tt.got != tt.want {
			t.Errorf("%s = %d, want %d", tt.name, tt.got, tt.want)
		}
	}
	// Usage preferences: a says search=yes and ai-train=no (Content-Signal)
	// and bars Google-Extended (ai-input and ai-train no); b says yes to
	// training and search (Content-Usage); c says no to training for a
	// path (Content-Usage) and bars Google-Extended from some path, which
	// outweighs its Content-Signal's ai-input=yes; g is no site.
	for _, tt := range []struct {
		purpose       string
		no, yes, none int64
		sources       map[string]map[string]int64
	}{
		{"search", 0, 2, 4, map[string]map[string]int64{"Content-Signal": {"yes": 1}, "Content-Usage": {"yes": 1}}},
		{"ai-input", 2, 0, 4, map[string]map[string]int64{"Google-Extended": {"no": 2}}},
		{"ai-train", 2, 1, 3, map[string]map[string]int64{"Content-Signal": {"no": 1}, "Content-Usage": {"no": 1, "yes": 1}, "Google-Extended": {"no": 2}}},
	} {
		u := s.Usage[tt.purpose]
		if u.No != tt.no || u.Yes != tt.yes || u.None != tt.none || !reflect.DeepEqual(u.Sources, tt.sources) {
			t.Errorf("usage %s = %+v, want %d no, %d yes, %d none, sources %v", tt.purpose, u, tt.no, tt.yes, tt.none, tt.sources)
		}
	}
	for k, want := range map[string]KeyUse{"content-usage": {2, 2}, "content-signal": {2, 2}, "license": {1, 1}} {
		if got := s.Directives[k]; got != want {
			t.Errorf("directive %s = %v, want %v", k, got, want)
		}
	}
	x := reportTally(s.Robots["Applebot"])
	if x != (reportRobotTally{sites: 6, named: 0, fallback: 1, star: 4, blocked: 0, partly: 3, open: 3}) {
		t.Errorf("Applebot tally = %+v", x)
	}
}

func TestReportFormat(t *testing.T) {
	for _, tt := range []struct{ name, want string }{
		{"report.json", ReportJSON}, {"out/summary-3.JSON", ReportJSON},
		{"report.md", ReportMarkdown}, {"r.markdown", ReportMarkdown},
		{"report.html", ReportHTML}, {"R.HTM", ReportHTML},
		{"report.txt", ""}, {"report", ""}, {"-", ""}, {"json", ""},
	} {
		got, err := ReportFormat(tt.name)
		if got != tt.want || (err != nil) != (tt.want == "") {
			t.Errorf("ReportFormat(%q) = %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
	if err := (&Summary{}).Write(&bytes.Buffer{}, "pdf"); err == nil {
		t.Error("Write in an unknown format did not fail")
	}
}

// TestReportEmpty: the zero and the nil Summary render in every format.
func TestReportEmpty(t *testing.T) {
	for _, s := range []*Summary{nil, {}} {
		for _, format := range []string{ReportJSON, ReportMarkdown, ReportHTML} {
			var buf bytes.Buffer
			if err := s.Write(&buf, format); err != nil {
				t.Fatalf("%s: %v", format, err)
			}
			if format != ReportJSON && !strings.Contains(buf.String(), "No robot selected") {
				t.Errorf("%s of an empty summary lacks the empty robot table:\n%s", format, buf.String())
			}
			if format != ReportJSON && strings.Contains(buf.String(), "Checker findings") {
				t.Errorf("%s shows the checker table without a checker run", format)
			}
		}
	}
}

// TestReportHTMLSelfContained: the page loads nothing (no script, no
// stylesheet, image or font from elsewhere) and escapes every value
// (html/template), so a User-agent value cannot inject markup.
func TestReportHTMLSelfContained(t *testing.T) {
	var buf bytes.Buffer
	if err := reportSummary().WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, bad := range []string{"<script", "<link", "<img", "<iframe", "@import", "url(", " src=", "<script>|x|"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	if !strings.Contains(page, "&lt;script&gt;|x|&lt;/script&gt;") {
		t.Error("the agent value with markup is not shown escaped")
	}
	// Every bar width is a number the report computed.
	widths := regexp.MustCompile(`style="([^"]*)"`).FindAllStringSubmatch(page, -1)
	if len(widths) == 0 {
		t.Fatal("no bar")
	}
	for _, m := range widths {
		if !regexp.MustCompile(`^width:\d{1,3}\.\d\d%$`).MatchString(m[1]) {
			t.Errorf("bar style %q", m[1])
		}
	}
}

// TestReportMarkdownTables: every row of every Markdown table has as many
// cells as its header, whatever the values (a "|" in a User-agent value
// is escaped, CommonMark §2.4; GFM tables).
func TestReportMarkdownTables(t *testing.T) {
	var s Summary
	s.Merge(reportSummary())
	s.Agents["a|b\\|c`d"] = 1
	s.Agents["line\nbreak"] = 1
	s.Agents["[link](https://x.example)"] = 1
	var buf bytes.Buffer
	if err := s.WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	unescapedPipe := regexp.MustCompile(`(^|[^\\])((\\\\)*)\|`)
	cells := func(line string) int { return len(unescapedPipe.FindAllString(line, -1)) - 1 }
	var header int
	tables := 0
	for _, line := range strings.Split(buf.String(), "\n") {
		if !strings.HasPrefix(line, "|") {
			header = 0
			continue
		}
		if header == 0 {
			header = cells(line)
			tables++
			continue
		}
		if n := cells(line); n != header {
			t.Errorf("%d cells, header has %d: %s", n, header, line)
		}
	}
	if tables != 11 {
		t.Errorf("%d tables, want 11", tables)
	}
	for _, want := range []string{`a\|b\\\|c\` + "`d", "line\uFFFDbreak", `\[link\](https://x.example)`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
}

// TestReportTop: the Markdown and HTML reports show the first ReportTop
// User-agent values and directive keys by sites, ties by value, and say
// how many more the JSON form holds.
func TestReportTop(t *testing.T) {
	var s Summary
	for i := range 45 {
		r := Row{Status: 200, Outcomes: []Outcome{{"google", "rules"}}}
		for j := 0; j <= i; j++ {
			r.Agents = append(r.Agents, AgentValue{Lower: fmt.Sprintf("bot%02d", j)})
			r.Directives = append(r.Directives, KeyCount{fmt.Sprintf("key%02d", j), 1})
		}
		s.Add(&r)
	}
	rep := s.report()
	for _, id := range []string{"agents", "directives"} {
		var tab reportTable
		for _, x := range rep.Tables {
			if x.ID == id {
				tab = x
			}
		}
		if len(tab.Rows) != ReportTop || tab.Hidden != 15 {
			t.Fatalf("%s: %d rows, %d hidden", id, len(tab.Rows), tab.Hidden)
		}
		if first, last := tab.Rows[0].Cells[0], tab.Rows[ReportTop-1].Cells[0]; !strings.HasSuffix(first, "00") || !strings.HasSuffix(last, "29") {
			t.Errorf("%s: rows from %s to %s", id, first, last)
		}
	}
	var md, page bytes.Buffer
	if err := s.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{md.String(), page.String()} {
		if strings.Count(out, "15 more in the JSON form.") != 2 || strings.Contains(out, "bot30") {
			t.Errorf("report not cut at %d rows", ReportTop)
		}
	}
}

// TestReportShown: keys are shown on one line, at most reportMaxShown characters.
func TestReportShown(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", "(empty)"},
		{"gptbot", "gptbot"},
		{"a\tb\x00c\x7f", "a\uFFFDb\uFFFDc\uFFFD"},
		{"bad\xffutf8", "bad\uFFFDutf8"},
		{strings.Repeat("é", 100), strings.Repeat("é", 80) + "…"},
		{strings.Repeat("x", 80), strings.Repeat("x", 80)},
	} {
		if got := reportShown(tt.in); got != tt.want {
			t.Errorf("reportShown(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestReportStatusClass(t *testing.T) {
	// RFC 9110 §15: the first digit is the class; 1xx are interim
	// responses, never a final robots.txt response.
	for code, want := range map[int]string{200: "2xx", 206: "2xx", 301: "3xx", 404: "4xx", 429: "4xx", 503: "5xx", 599: "5xx", 100: "other", 0: "other", 600: "other", 999: "other", -1: "other"} {
		if got := reportStatusClass(code); got != want {
			t.Errorf("reportStatusClass(%d) = %q, want %q", code, got, want)
		}
	}
}

// TestReportLead: the headline counts captures and sites as Summary does:
// every capture counts, so two captures of one host (over http and https)
// are two sites, and the text says so.
func TestReportLead(t *testing.T) {
	var s Summary
	for _, u := range []string{"http://a.example/robots.txt", "https://a.example/robots.txt", "https://b.example/robots.txt"} {
		s.Add(&Row{URL: u, Status: 200, Outcomes: sumOutcomes("rules", "rules")})
	}
	s.Add(&Row{URL: "https://c.example/robots.txt", Status: 404, Outcomes: sumOutcomes("unavailable", "unavailable")})
	r := s.report()
	if want := "4 captures, of which 3 (75.00%) are sites: captures with a usable robots.txt."; r.Lead != want {
		t.Errorf("lead %q, want %q", r.Lead, want)
	}
	for _, want := range []string{"per capture, not per host", "more sites than distinct hosts", "One row per host"} {
		if !strings.Contains(r.About, want) {
			t.Errorf("the words under the headline lack %q: %s", want, r.About)
		}
	}
	var md bytes.Buffer
	if err := s.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(md.String(), "# robots.txt scan summary\n\n"+r.Lead+"\n\nA capture is one") {
		t.Errorf("Markdown starts %q", md.String()[:min(md.Len(), 200)])
	}
}

// reportVerdicts returns the verdicts of n sites: named, fallback, star
// each as blocked, partly, open.
func reportVerdicts(named, fallback, star [3]int64) VerdictCounts {
	vc := VerdictCounts{}
	for _, w := range []struct {
		via string
		n   [3]int64
	}{{sumNamed, named}, {sumFallback, fallback}, {sumStar, star}} {
		for i, st := range []string{sumBlocked, sumPartly, sumOpen} {
			if w.n[i] > 0 {
				vc[w.via] = addCount(vc[w.via], st, w.n[i])
			}
		}
	}
	return vc
}

// TestReportRobotRows: robots with the same counts in every column share
// a row, named in order ignoring case; rows go by the sites that fully
// block them, most first, then partly, then by name; counts that differ
// anywhere, if only in how the group was found, keep rows apart.
func TestReportRobotRows(t *testing.T) {
	same := reportVerdicts([3]int64{}, [3]int64{}, [3]int64{5, 20, 75})
	robots := map[string]VerdictCounts{
		"GPTBot":       same,
		"ClaudeBot":    reportVerdicts([3]int64{}, [3]int64{}, [3]int64{5, 20, 75}),
		"anthropic-ai": reportVerdicts([3]int64{}, [3]int64{}, [3]int64{5, 20, 75}),
		// As blocked as the three, but named on one site: a row of its own.
		"CCBot": reportVerdicts([3]int64{1, 0, 0}, [3]int64{}, [3]int64{4, 20, 75}),
		// Most fully blocked: first.
		"Bytespider": reportVerdicts([3]int64{30, 0, 0}, [3]int64{}, [3]int64{0, 10, 60}),
		// As fully blocked as the three, more partly blocked: before them.
		"Googlebot": reportVerdicts([3]int64{}, [3]int64{0, 5, 0}, [3]int64{5, 20, 70}),
		// Less blocked, but "bingbot" before "Yandex" ignoring case.
		"Yandex":  reportVerdicts([3]int64{}, [3]int64{}, [3]int64{1, 9, 90}),
		"bingbot": reportVerdicts([3]int64{}, [3]int64{}, [3]int64{1, 9, 89}),
	}
	var got []string
	for _, r := range reportRobotRows(robots) {
		got = append(got, strings.Join(r.names, "+"))
	}
	want := []string{"Bytespider", "Googlebot", "anthropic-ai+ClaudeBot+GPTBot", "CCBot", "bingbot", "Yandex"}
	if !slices.Equal(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}

	var s Summary
	s.Robots = robots
	tab := s.robotTable()
	if len(tab.Rows) != len(want) {
		t.Fatalf("%d rows in the table, want %d", len(tab.Rows), len(want))
	}
	row := tab.Rows[2]
	if row.Cells[0] != "anthropic-ai, ClaudeBot, GPTBot (3 robots)" || len(row.Names) != 3 || row.Folded() {
		t.Errorf("collapsed row: %q, names %q, folded %v", row.Cells[0], row.Names, row.Folded())
	}
	if row.Cells[5] != "5" || row.Share(5) != "5.00%" || row.Share(1) != "" || row.Share(99) != "" {
		t.Errorf("fully blocked cell %q, share %q", row.Cells[5], row.Share(5))
	}
	if r := tab.Rows[0]; r.Cells[0] != "Bytespider" || r.Names != nil {
		t.Errorf("first row %q, names %q", r.Cells[0], r.Names)
	}
	var md, page bytes.Buffer
	if err := s.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	if want := "| anthropic-ai, ClaudeBot, GPTBot (3 robots) | 100 | 0 (0.00%) | 0 (0.00%) | 100 (100.00%) | 5 (5.00%) | 20 (20.00%) | 75 (75.00%) |"; !strings.Contains(md.String(), want) {
		t.Errorf("Markdown lacks %q:\n%s", want, md.String())
	}
	if !strings.Contains(page.String(), "<td>anthropic-ai, ClaudeBot, GPTBot <span class=\"nw\">(3 robots)</span></td><td>100</td><td class=\"gs\">0 <small>0.00%</small></td>") {
		t.Errorf("HTML of the collapsed row:\n%s", page.String())
	}
}

// TestReportRobotsFolded: a row for many robots shows the first
// reportNamesShown and how many there are, and every name when opened.
func TestReportRobotsFolded(t *testing.T) {
	var s Summary
	s.Robots = map[string]VerdictCounts{}
	var names []string
	for i := range 12 {
		name := fmt.Sprintf("Bot%02d", i)
		names = append(names, name)
		s.Robots[name] = reportVerdicts([3]int64{}, [3]int64{}, [3]int64{1, 2, 3})
	}
	s.Robots["Lone"] = reportVerdicts([3]int64{1, 0, 0}, [3]int64{}, [3]int64{1, 2, 3})
	tab := s.robotTable()
	if len(tab.Rows) != 2 {
		t.Fatalf("%d rows, want 2", len(tab.Rows))
	}
	row := tab.Rows[1]
	if !row.Folded() || row.Short()+" "+row.Count() != "Bot00, Bot01, Bot02, … (12 robots)" || row.List() != strings.Join(names, ", ") {
		t.Errorf("folded %v, short %q, list %q", row.Folded(), row.Short(), row.List())
	}
	var page bytes.Buffer
	if err := s.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	if want := "<td><details><summary>Bot00, Bot01, Bot02, … <span class=\"nw\">(12 robots)</span></summary><p>" + strings.Join(names, ", ") + "</p></details></td>"; !strings.Contains(page.String(), want) {
		t.Errorf("HTML lacks %q", want)
	}
	// One more name than shown: all of them, unfolded.
	if r := (reportRow{Names: names[:reportNamesShown+1]}); r.Folded() {
		t.Errorf("%d names folded", len(r.Names))
	}
}
