package scan

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ReportTop is how many rows the Markdown and HTML reports show of the
// directive-key and User-agent tables; the JSON form keeps every row.
const ReportTop = 30

// The formats of Write, as ReportFormat names them.
const (
	ReportJSON     = "json"
	ReportMarkdown = "md"
	ReportHTML     = "html"
)

// ReportFormat returns the format of a report file by its extension:
// ReportJSON for ".json", ReportMarkdown for ".md" and ".markdown",
// ReportHTML for ".html" and ".htm", ignoring case.
func ReportFormat(name string) (string, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json":
		return ReportJSON, nil
	case ".md", ".markdown":
		return ReportMarkdown, nil
	case ".html", ".htm":
		return ReportHTML, nil
	}
	return "", fmt.Errorf("scan: report %q: want a .json, .md or .html file", name)
}

// Write writes the summary in a format of ReportFormat.
func (s *Summary) Write(w io.Writer, format string) error {
	switch format {
	case ReportJSON:
		return s.WriteJSON(w)
	case ReportMarkdown:
		return s.WriteMarkdown(w)
	case ReportHTML:
		return s.WriteHTML(w)
	}
	return fmt.Errorf("scan: unknown report format %q (want json, md or html)", format)
}

// WriteFile writes the summary to the file name in the format its
// extension names (ReportFormat), through a temporary file, name+".tmp",
// renamed at the end, so that name is never left half written. An error
// names the file.
func (s *Summary) WriteFile(name string) error {
	format, err := ReportFormat(name)
	if err != nil {
		return err
	}
	tmp := name + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	err = s.Write(bw, format)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("%s: %v", name, err)
	}
	return nil
}

// WriteJSON writes the summary's JSON form, which ReadSummary reads and
// `robots scan merge` adds up: every count and every key, indented, map
// keys sorted.
func (s *Summary) WriteJSON(w io.Writer) error {
	if s == nil {
		s = &Summary{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

// WriteMarkdown writes the report's tables as GitHub-flavoured Markdown,
// counts with their shares, the longest tables cut to their first
// ReportTop rows.
func (s *Summary) WriteMarkdown(w io.Writer) error {
	bw := bufio.NewWriter(w)
	r := s.report()
	fmt.Fprintf(bw, "# %s\n\n%s\n", r.Title, reportMD(r.Lead))
	for _, t := range r.Tables {
		fmt.Fprintf(bw, "\n## %s\n\n%s\n", reportMD(t.Title), reportMD(t.Note))
		if len(t.Sources) > 0 {
			bw.WriteString("\nSources: ")
			for i, l := range t.Sources {
				if i > 0 {
					bw.WriteString("; ")
				}
				fmt.Fprintf(bw, "[%s](%s)", reportMD(l.Text), l.URL)
			}
			bw.WriteString(".\n")
		}
		bw.WriteString("\n")
		if len(t.Rows) == 0 {
			fmt.Fprintf(bw, "%s\n", reportMD(t.Empty))
			continue
		}
		row := func(cells []string) {
			bw.WriteString("|")
			for _, c := range cells {
				fmt.Fprintf(bw, " %s |", reportMD(c))
			}
			bw.WriteString("\n")
		}
		row(t.Cols)
		bw.WriteString("|")
		for i := range t.Cols {
			if i == 0 {
				bw.WriteString(" --- |")
			} else {
				bw.WriteString(" ---: |")
			}
		}
		bw.WriteString("\n")
		for _, x := range t.Rows {
			row(x.Cells)
		}
		if t.Hidden > 0 {
			fmt.Fprintf(bw, "\n%d more in the JSON form.\n", t.Hidden)
		}
	}
	return bw.Flush()
}

// WriteHTML writes the report as one self-contained HTML page: inline
// CSS, no script, no external request; each row of a table has a
// horizontal bar whose width is its share.
func (s *Summary) WriteHTML(w io.Writer) error {
	return reportPage.Execute(w, s.report())
}

// A reportView is what WriteMarkdown and WriteHTML show.
type reportView struct {
	Title  string
	Lead   string
	Tables []reportTable
}

// A reportTable is one table of the report. Its strings are text:
// WriteMarkdown and WriteHTML escape them.
type reportTable struct {
	ID, Title, Note string
	Sources         []reportLink
	Cols            []string
	Rows            []reportRow
	Legend          []reportSeg // names the segments of stacked bars
	Hidden          int         // rows cut from the report
	Empty           string      // said when there are no rows
}

type reportLink struct{ Text, URL string }

type reportRow struct {
	Cells []string
	Bar   []reportSeg
}

// A reportSeg is one segment of a bar: Class picks its colour (one: a
// single share or the usable file; yes, part, no: open, partly, fully
// blocked; down: an outage), Width is its share of the bar's full width.
type reportSeg struct {
	Class, Name string
	Width       float64
}

// Style returns the segment's CSS width, from a number the report
// computed.
func (g reportSeg) Style() template.CSS {
	return template.CSS("width:" + strconv.FormatFloat(g.Width, 'f', 2, 64) + "%")
}

// The sources the tables follow.
var (
	srcAlmanac = reportLink{"HTTP Archive Web Almanac 2024, SEO, robots.txt", "https://almanac.httparchive.org/en/2024/seo#robotstxt"}
	srcRadar   = reportLink{"Cloudflare Radar robots.txt API (fully and partially disallowed)", "https://developers.cloudflare.com/api/resources/radar/subresources/robots_txt/"}
	srcConsent = reportLink{"Longpre et al., Consent in Crisis (2024)", "https://arxiv.org/abs/2407.14933"}
	srcRFC     = reportLink{"RFC 9309", "https://www.rfc-editor.org/rfc/rfc9309.html"}
	srcGoogle  = reportLink{"Google's robots.txt documentation", "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt"}
	srcChecks  = reportLink{"the checks of robots check (docs/checks.md)", "https://github.com/robotskit/robots/blob/main/docs/checks.md"}
)

// report builds the report of s; a nil s reports nothing counted.
func (s *Summary) report() *reportView {
	if s == nil {
		s = &Summary{}
	}
	r := &reportView{
		Title: "robots.txt scan summary",
		Lead: fmt.Sprintf("%d captures, of which %d sites (%s): captures with a usable robots.txt, read as rules under the \"google\" fetch policy, not an HTML page, not a revisit. Captures of the same host count once each.",
			s.Captures, s.Sites, reportPct(s.Sites, s.Captures)),
	}
	r.Tables = append(r.Tables,
		s.overviewTable(), s.classTable(), s.statusTable(), s.sizeTable(),
		s.outcomeTable(), s.directiveTable(), s.agentTable(), s.robotTable())
	if len(s.Lint) > 0 || s.LintTimeouts > 0 {
		r.Tables = append(r.Tables, s.lintTable())
	}
	return r
}

func (s *Summary) overviewTable() reportTable {
	t := reportTable{
		ID: "captures", Title: "Captures",
		Note: "What the captures are, as shares of all captures.",
		Cols: []string{"", "captures", "share"},
	}
	for _, x := range []struct {
		name string
		n    int64
	}{
		{"captures", s.Captures},
		{"sites (usable robots.txt)", s.Sites},
		{"HTML bodies", s.HTML},
		{"over 500 KiB", s.OverLimit},
		{"cut by the recorder", s.Truncated},
		{"revisits", s.Revisits},
		{"checker timeouts", s.LintTimeouts},
	} {
		t.Rows = append(t.Rows, reportShareRow(x.name, x.n, s.Captures))
	}
	return t
}

// reportStatusClass returns the class of an HTTP status code (RFC 9110 §15).
func reportStatusClass(code int) string {
	if code >= 200 && code < 600 {
		return strconv.Itoa(code/100) + "xx"
	}
	return "other"
}

func (s *Summary) classTable() reportTable {
	t := reportTable{
		ID: "status-classes", Title: "HTTP status classes",
		Note:    "Captures by class of HTTP status (RFC 9110 §15); \"other\" holds 1xx and codes outside 100–599.",
		Sources: []reportLink{srcAlmanac, {"RFC 9110 §15", "https://www.rfc-editor.org/rfc/rfc9110.html#section-15"}},
		Cols:    []string{"class", "captures", "share"},
	}
	classes := map[string]int64{}
	for code, n := range s.Status {
		classes[reportStatusClass(code)] += n
	}
	for _, c := range []string{"2xx", "3xx", "4xx", "5xx", "other"} {
		t.Rows = append(t.Rows, reportShareRow(c, classes[c], s.Captures))
	}
	return t
}

func (s *Summary) statusTable() reportTable {
	t := reportTable{
		ID: "status-codes", Title: "HTTP status codes",
		Note:    "Captures by exact status code, most frequent first. Robots read a 2xx as the file, a 4xx as no file and a 5xx as an outage (RFC 9309 §2.3.1).",
		Sources: []reportLink{srcAlmanac, srcRFC},
		Cols:    []string{"status", "captures", "share"},
		Empty:   "No capture.",
	}
	codes := make([]int, 0, len(s.Status))
	for c := range s.Status {
		codes = append(codes, c)
	}
	slices.SortFunc(codes, func(a, b int) int {
		return cmp.Or(cmp.Compare(s.Status[b], s.Status[a]), cmp.Compare(a, b))
	})
	for _, c := range codes {
		t.Rows = append(t.Rows, reportShareRow(strconv.Itoa(c), s.Status[c], s.Captures))
	}
	return t
}

func (s *Summary) sizeTable() reportTable {
	t := reportTable{
		ID: "sizes", Title: "Size of usable robots.txt files",
		Note: "Sites by payload size. The Web Almanac's bins (empty, 100 KiB steps, over 500 KiB), with the first step cut at 1 KiB and 10 KiB since it holds nearly every file; " +
			"Google and RFC 9309 crawlers may ignore what follows the first 500 KiB (RFC 9309 §2.5).",
		Sources: []reportLink{srcAlmanac, srcGoogle},
		Cols:    []string{"size", "sites", "share"},
	}
	for _, b := range sumSizeBins {
		t.Rows = append(t.Rows, reportShareRow(b.Label, s.Sizes[b.Key], s.Sites))
	}
	return t
}

// reportPolicies is the order of fetch.Policies, which Row.Outcomes follows;
// the report lists the policies so, then any other name sorted.
var reportPolicies = []string{"google", "rfc9309", "bing", "yandex", "draft1996", "mandelbot"}

// reportOutcomes is the order of the outcome columns: the usable file
// first, then crawl everything, crawl nothing, outage, then any other
// value sorted.
var reportOutcomes = []string{sumRules, "success", "unavailable", "forbidden", "unreachable"}

// reportOrdered returns the keys of m: those of first in its order, then the
// others sorted.
func reportOrdered[V any](m map[string]V, first []string) []string {
	var out []string
	for _, k := range first {
		if _, ok := m[k]; ok {
			out = append(out, k)
		}
	}
	var rest []string
	for k := range m {
		if !slices.Contains(first, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

func (s *Summary) outcomeTable() reportTable {
	t := reportTable{
		ID: "outcomes", Title: "Outcome per fetch policy",
		Note: "How each family of robots reads the captures' responses: \"rules\" (the file applies), \"unavailable\" (crawl everything), \"forbidden\" (crawl nothing) or \"unreachable\" (an outage: crawl nothing for now); shares of the captures read under each policy.",
		Sources: []reportLink{
			{"RFC 9309 §2.3.1", "https://www.rfc-editor.org/rfc/rfc9309.html#section-2.3.1"},
			{"Google's HTTP status handling", "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt#http-status-codes"},
		},
		Empty: "No outcome recorded.",
	}
	seen := map[string]bool{}
	for _, m := range s.Outcomes {
		for k := range m {
			seen[k] = true
		}
	}
	cols := reportOrdered(seen, reportOutcomes)
	t.Cols = []string{"policy", "captures"}
	for _, c := range cols {
		t.Cols = append(t.Cols, reportShown(c))
	}
	for _, c := range cols {
		t.Legend = append(t.Legend, reportSeg{Class: reportOutcomeClass(c), Name: reportShown(c)})
	}
	for _, p := range reportOrdered(s.Outcomes, reportPolicies) {
		m := s.Outcomes[p]
		n := sumCounts(m)
		row := reportRow{Cells: []string{reportShown(p), strconv.FormatInt(n, 10)}}
		for _, c := range cols {
			row.Cells = append(row.Cells, reportCountShare(m[c], n))
			row.Bar = append(row.Bar, reportSeg{Class: reportOutcomeClass(c), Name: reportShown(c), Width: reportShare(m[c], n)})
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// reportRank returns the keys of m by count, highest first, ties by key.
func reportRank[V any](m map[string]V, count func(V) int64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		return cmp.Or(cmp.Compare(count(m[b]), count(m[a])), strings.Compare(a, b))
	})
	return keys
}

// reportCut returns the first ReportTop keys and how many it left out.
func reportCut(keys []string) ([]string, int) {
	if len(keys) > ReportTop {
		return keys[:ReportTop], len(keys) - ReportTop
	}
	return keys, 0
}

func (s *Summary) directiveTable() reportTable {
	t := reportTable{
		ID: "directives", Title: "Directive keys",
		Note:    "Sites whose robots.txt has at least one line with the key, lower-cased as written (misspellings and unknown keys included), and the number of those lines.",
		Sources: []reportLink{srcRFC, srcGoogle},
		Cols:    []string{"key", "sites", "share", "lines"},
		Empty:   "No directive line on any site.",
	}
	keys, hidden := reportCut(reportRank(s.Directives, func(u KeyUse) int64 { return u.Sites }))
	t.Hidden = hidden
	for _, k := range keys {
		u := s.Directives[k]
		row := reportShareRow(k, u.Sites, s.Sites)
		row.Cells = append(row.Cells, strconv.FormatInt(u.Lines, 10))
		t.Rows = append(t.Rows, row)
	}
	return t
}

func (s *Summary) agentTable() reportTable {
	t := reportTable{
		ID: "agents", Title: "User-agent values",
		Note:    "Sites with at least one User-agent line of the value, lower-cased, each value counted once per site, as the Web Almanac's \"robots.txt user-agent usage\".",
		Sources: []reportLink{srcAlmanac},
		Cols:    []string{"user-agent", "sites", "share"},
		Empty:   "No User-agent line on any site.",
	}
	keys, hidden := reportCut(reportRank(s.Agents, func(n int64) int64 { return n }))
	t.Hidden = hidden
	for _, k := range keys {
		t.Rows = append(t.Rows, reportShareRow(k, s.Agents[k], s.Sites))
	}
	return t
}

// reportRobotTally is one robot's line of the robot table.
type reportRobotTally struct {
	sites, named, fallback, star, blocked, partly, open, namedBlocked, namedPartly int64
}

func reportTally(vs VerdictCounts) reportRobotTally {
	var t reportRobotTally
	for via, m := range vs {
		for st, n := range m {
			t.sites += n
			switch via {
			case sumNamed:
				t.named += n
			case sumFallback:
				t.fallback += n
			case sumStar:
				t.star += n
			}
			switch st {
			case sumBlocked:
				t.blocked += n
			case sumPartly:
				t.partly += n
			case sumOpen:
				t.open += n
			}
		}
	}
	t.namedBlocked = vs[sumNamed][sumBlocked]
	t.namedPartly = vs[sumNamed][sumPartly]
	return t
}

func (s *Summary) robotTable() reportTable {
	t := reportTable{
		ID: "robots", Title: "Robots",
		Note: "For each selected robot, shares of the sites it was read on: " +
			"those with a group that names its token, that it reaches through a fallback token or through the \"*\" group; " +
			"those that bar it from \"/\" (fully blocked), that let it fetch \"/\" but disallow some path (partly blocked), or neither (open), whichever group applies (as Consent in Crisis' full and partial restrictions); " +
			"and, among the sites that name it, those that fully or partly disallow it (as Cloudflare Radar's fully and partially disallowed user agents).",
		Sources: []reportLink{srcConsent, srcRadar},
		Cols:    []string{"robot", "sites", "named", "via fallback", "via *", "fully blocked", "partly blocked", "open", "named, fully", "named, partly"},
		Legend: []reportSeg{
			{Class: "no", Name: "fully blocked"},
			{Class: "part", Name: "partly blocked"},
			{Class: "yes", Name: "open"},
		},
		Empty: "No robot selected (-robots).",
	}
	tallies := make(map[string]reportRobotTally, len(s.Robots))
	for k, vs := range s.Robots {
		tallies[k] = reportTally(vs)
	}
	keys := make([]string, 0, len(tallies))
	for k := range tallies {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		x, y := tallies[a], tallies[b]
		return cmp.Or(cmp.Compare(y.blocked, x.blocked), cmp.Compare(y.partly, x.partly), strings.Compare(a, b))
	})
	for _, k := range keys {
		x := tallies[k]
		row := reportRow{Cells: []string{reportShown(k), strconv.FormatInt(x.sites, 10)}}
		for _, n := range []int64{x.named, x.fallback, x.star, x.blocked, x.partly, x.open, x.namedBlocked, x.namedPartly} {
			row.Cells = append(row.Cells, reportCountShare(n, x.sites))
		}
		for i, n := range []int64{x.blocked, x.partly, x.open} {
			row.Bar = append(row.Bar, reportSeg{Class: t.Legend[i].Class, Name: t.Legend[i].Name, Width: reportShare(n, x.sites)})
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

func (s *Summary) lintTable() reportTable {
	t := reportTable{
		ID: "lint", Title: "Checker findings",
		Note: fmt.Sprintf("Sites, and captures, on which the checker (-lint) reported each code, with their shares of all sites and all captures; run -lint on every shard for the shares to hold. "+
			"Captures on which the checker ran out of its work budget, and that count under no code: %d (%s).", s.LintTimeouts, reportPct(s.LintTimeouts, s.Captures)),
		Sources: []reportLink{srcChecks},
		Cols:    []string{"code", "sites", "share of sites", "captures", "share of captures"},
		Empty:   "No finding.",
	}
	keys := make([]string, 0, len(s.Lint))
	for k := range s.Lint {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		x, y := s.Lint[a], s.Lint[b]
		return cmp.Or(cmp.Compare(y.Sites, x.Sites), cmp.Compare(y.Captures, x.Captures), strings.Compare(a, b))
	})
	for _, k := range keys {
		u := s.Lint[k]
		row := reportShareRow(k, u.Sites, s.Sites)
		row.Cells = append(row.Cells, strconv.FormatInt(u.Captures, 10), reportPct(u.Captures, s.Captures))
		t.Rows = append(t.Rows, row)
	}
	return t
}

// reportShareRow is a row of a name, a count, its share of whole and a bar.
func reportShareRow(name string, n, whole int64) reportRow {
	return reportRow{
		Cells: []string{reportShown(name), strconv.FormatInt(n, 10), reportPct(n, whole)},
		Bar:   []reportSeg{{Class: "one", Width: reportShare(n, whole)}},
	}
}

// reportOutcomeClass returns the colour class of an outcome: the file applies,
// crawl everything, crawl nothing, outage, anything else.
func reportOutcomeClass(o string) string {
	switch o {
	case sumRules, "success":
		return "one"
	case "unavailable":
		return "yes"
	case "forbidden":
		return "no"
	case "unreachable":
		return "down"
	}
	return "part"
}

// reportShare returns n as a percentage of whole, 0 when whole is 0.
func reportShare(n, whole int64) float64 {
	if whole <= 0 {
		return 0
	}
	return float64(n) * 100 / float64(whole)
}

// reportPct formats n's share of whole with two decimals, "–" when whole is 0.
func reportPct(n, whole int64) string {
	if whole <= 0 {
		return "–"
	}
	return strconv.FormatFloat(reportShare(n, whole), 'f', 2, 64) + "%"
}

// reportCountShare formats a count and its share: "12 (3.45%)".
func reportCountShare(n, whole int64) string {
	return strconv.FormatInt(n, 10) + " (" + reportPct(n, whole) + ")"
}

// reportMaxShown is how many characters of a key the report shows.
const reportMaxShown = 80

// reportShown returns the text of a key as the report shows it: "(empty)" for
// "", at most reportMaxShown characters, control characters and invalid UTF-8
// as U+FFFD.
func reportShown(s string) string {
	if s == "" {
		return "(empty)"
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		i += w
		if n == reportMaxShown {
			b.WriteString("…")
			break
		}
		if unicode.IsControl(r) {
			r = utf8.RuneError
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// reportMDSpecial are the characters that mdText escapes with a backslash:
// those that could start or end Markdown markup inside a paragraph or a
// table cell.
const reportMDSpecial = "\\`*_[]<>|~&"

// reportMD returns text as GitHub-flavoured Markdown shows it literally:
// every character that could be markup after a backslash (CommonMark
// §2.4, https://spec.commonmark.org/0.31.2/#backslash-escapes), so that a
// value cannot break a table (a "|") or make a link. Keys reach it
// through reportShown, without line ends.
func reportMD(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < utf8.RuneSelf && strings.ContainsRune(reportMDSpecial, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

var reportPage = template.Must(template.New("report").Parse(reportHTML))

// reportHTML is the page of WriteHTML: html/template escapes every text,
// the bars' widths come from numbers (reportSeg.Style).
const reportHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
:root { color-scheme: light dark; --fg: #1d2330; --muted: #5b6475; --line: #d9dde5; --track: #eef0f4;
  --one: #3b6fd8; --part: #e59a2f; --yes: #4caf7a; --no: #c8504a; --down: #8c6bc8; }
@media (prefers-color-scheme: dark) { :root { --fg: #e3e6ec; --muted: #9aa3b2; --line: #39404d; --track: #2a303b; } }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); max-width: 90rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: .3rem; }
h2 { font-size: 1.2rem; margin: 2.2rem 0 .4rem; }
p { margin: .3rem 0; max-width: 60rem; }
.note, .src, .more { color: var(--muted); font-size: .9rem; }
nav a { margin-right: .8rem; }
table { border-collapse: collapse; margin-top: .6rem; font-variant-numeric: tabular-nums; }
th, td { padding: .25rem .6rem; border-bottom: 1px solid var(--line); text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; max-width: 28rem; overflow: hidden; text-overflow: ellipsis; }
th { font-weight: 600; border-bottom-width: 2px; }
.wrap { overflow-x: auto; }
td.bar { width: 14rem; min-width: 7rem; }
.track { display: flex; height: .8rem; background: var(--track); border-radius: 2px; overflow: hidden; }
.track span, .key { display: inline-block; height: 100%; }
.key { width: .8rem; height: .8rem; vertical-align: middle; margin: 0 .3rem 0 .8rem; border-radius: 2px; }
.one { background: var(--one); } .part { background: var(--part); } .yes { background: var(--yes); } .no { background: var(--no); } .down { background: var(--down); }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p>{{.Lead}}</p>
<nav>{{range .Tables}}<a href="#{{.ID}}">{{.Title}}</a> {{end}}</nav>
{{range .Tables}}
<section id="{{.ID}}">
<h2>{{.Title}}</h2>
<p class="note">{{.Note}}</p>
{{- if .Sources}}
<p class="src">Sources: {{range $i, $l := .Sources}}{{if $i}}; {{end}}<a href="{{$l.URL}}">{{$l.Text}}</a>{{end}}.</p>
{{- end}}
{{- if .Legend}}
<p class="note">{{range .Legend}}<span class="key {{.Class}}"></span>{{.Name}}{{end}}</p>
{{- end}}
{{- if .Rows}}
<div class="wrap"><table>
<thead><tr>{{range .Cols}}<th>{{.}}</th>{{end}}<th></th></tr></thead>
<tbody>
{{- range .Rows}}
<tr>{{range .Cells}}<td>{{.}}</td>{{end}}<td class="bar"><div class="track">{{range .Bar}}<span class="{{.Class}}" style="{{.Style}}"{{if .Name}} title="{{.Name}}"{{end}}></span>{{end}}</div></td></tr>
{{- end}}
</tbody>
</table></div>
{{- if .Hidden}}
<p class="more">{{.Hidden}} more in the JSON form.</p>
{{- end}}
{{- else}}
<p>{{.Empty}}</p>
{{- end}}
</section>
{{end}}
</body>
</html>
`
