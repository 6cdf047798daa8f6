package scan

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/robotskit/robots/internal/htmlreport"
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
func (s *Summary) WriteMarkdown(w io.Writer) error { return htmlreport.WriteMarkdown(w, s.report()) }

// WriteHTML writes the report as one self-contained HTML page: inline
// CSS, no script, no external request; each row of a table has a
// horizontal bar whose width is its share.
func (s *Summary) WriteHTML(w io.Writer) error { return htmlreport.WriteHTML(w, s.report()) }

// The report's model and pages are package htmlreport's, which robots
// logs shares.
type (
	reportView  = htmlreport.View
	reportTable = htmlreport.Table
	reportGroup = htmlreport.Group
	reportLink  = htmlreport.Link
	reportRow   = htmlreport.Row
	reportSeg   = htmlreport.Seg
)

const (
	reportNamesShown = htmlreport.NamesShown
	reportMaxShown   = htmlreport.MaxShown
)

func reportShown(s string) string { return htmlreport.Shown(s) }

// The sources the tables follow.
var (
	srcAlmanac = reportLink{Text: "HTTP Archive Web Almanac 2024, SEO, robots.txt", URL: "https://almanac.httparchive.org/en/2024/seo#robotstxt"}
	srcRadar   = reportLink{Text: "Cloudflare Radar robots.txt API (fully and partially disallowed)", URL: "https://developers.cloudflare.com/api/resources/radar/subresources/robots_txt/"}
	srcConsent = reportLink{Text: "Longpre et al., Consent in Crisis (2024)", URL: "https://arxiv.org/abs/2407.14933"}
	srcRFC     = reportLink{Text: "RFC 9309", URL: "https://www.rfc-editor.org/rfc/rfc9309.html"}
	srcGoogle  = reportLink{Text: "Google's robots.txt documentation", URL: "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt"}
	srcChecks  = reportLink{Text: "the checks of robots check (docs/checks.md)", URL: "https://github.com/robotskit/robots/blob/main/docs/checks.md"}
	srcAttach  = reportLink{Text: "draft-ietf-aipref-attach-05 (Content-Usage)", URL: "https://www.ietf.org/archive/id/draft-ietf-aipref-attach-05.txt"}
	srcVocab   = reportLink{Text: "draft-ietf-aipref-vocab-08", URL: "https://www.ietf.org/archive/id/draft-ietf-aipref-vocab-08.txt"}
	srcSignals = reportLink{Text: "Content Signals", URL: "https://contentsignals.org"}
	srcRSL     = reportLink{Text: "RSL 1.0 (License)", URL: "https://rslstandard.org/"}
	srcGoogleX = reportLink{Text: "Google-Extended", URL: "https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers#google-extended"}
	srcAppleX  = reportLink{Text: "Applebot-Extended", URL: "https://support.apple.com/en-us/119829"}
)

// report builds the report of s; a nil s reports nothing counted.
func (s *Summary) report() *reportView {
	if s == nil {
		s = &Summary{}
	}
	r := &reportView{
		Title: "robots.txt scan summary",
		Lead: fmt.Sprintf("%d captures, of which %d (%s) are sites: captures with a usable robots.txt.",
			s.Captures, s.Sites, reportPct(s.Sites, s.Captures)),
		About: "A capture is one recorded robots.txt response: a file of a directory, a response or revisit record of a WARC file, a line of a JSON Lines file. " +
			"A site is a capture that robots of the \"google\" fetch policy read as rules (a 2xx response), that is not an HTML page and not a revisit. " +
			"Sites are counted per capture, not per host: a host captured twice (on two dates, or over http and https) is two sites, so there can be more sites than distinct hosts in the input. " +
			"The summary counts no distinct hosts, since such counts cannot be added up across shards; docs/scan.md (\"One row per host\") counts each host once from the rows.",
	}
	r.Tables = append(r.Tables,
		s.overviewTable(), s.classTable(), s.statusTable(), s.sizeTable(),
		s.outcomeTable(), s.directiveTable(), s.agentTable(), s.robotTable(),
		s.usageTable(), s.usageLineTable())
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
		Sources: []reportLink{srcAlmanac, {Text: "RFC 9110 §15", URL: "https://www.rfc-editor.org/rfc/rfc9110.html#section-15"}},
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
			{Text: "RFC 9309 §2.3.1", URL: "https://www.rfc-editor.org/rfc/rfc9309.html#section-2.3.1"},
			{Text: "Google's HTTP status handling", URL: "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt#http-status-codes"},
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

// A reportRobotRow is one row of the robot table: the robots whose
// tallies are the same, by name, and that tally.
type reportRobotRow struct {
	names []string
	tally reportRobotTally
}

// reportRobotRows collapses the robots whose tallies are the same in every
// count into one row, and orders the rows by the sites that fully block
// their robots, most first, then by those that partly block them, then by
// name; a row's names are ordered ignoring case.
func reportRobotRows(robots map[string]VerdictCounts) []reportRobotRow {
	at := map[reportRobotTally]int{}
	var rows []reportRobotRow
	for k, vs := range robots {
		x := reportTally(vs)
		i, ok := at[x]
		if !ok {
			i = len(rows)
			at[x] = i
			rows = append(rows, reportRobotRow{tally: x})
		}
		rows[i].names = append(rows[i].names, k)
	}
	for _, r := range rows {
		slices.SortFunc(r.names, reportNameOrder)
	}
	slices.SortFunc(rows, func(a, b reportRobotRow) int {
		x, y := a.tally, b.tally
		return cmp.Or(cmp.Compare(y.blocked, x.blocked), cmp.Compare(y.partly, x.partly), reportNameOrder(a.names[0], b.names[0]))
	})
	return rows
}

// reportNameOrder orders robot names ignoring case, then as bytes.
func reportNameOrder(a, b string) int {
	return cmp.Or(strings.Compare(strings.ToLower(a), strings.ToLower(b)), strings.Compare(a, b))
}

func (s *Summary) robotTable() reportTable {
	t := reportTable{
		ID: "robots", Title: "Robots",
		Note: "For each selected robot, shares of the sites it was read on: " +
			"those with a group that names its token, that it reaches through a fallback token or through the \"*\" group; " +
			"those that bar it from \"/\" (fully blocked), that let it fetch \"/\" but disallow some path (partly blocked), or neither (open), whichever group applies (as Consent in Crisis' full and partial restrictions); " +
			"and, among the sites that name it, those that fully or partly disallow it (as Cloudflare Radar's fully and partially disallowed user agents). " +
			"Robots with the same counts in every column share a row; the most blocked come first.",
		Sources: []reportLink{srcConsent, srcRadar},
		Cols:    []string{"robot", "sites", "named", "via fallback", "via *", "fully blocked", "partly blocked", "open", "named, fully", "named, partly"},
		Groups: []reportGroup{
			{Span: 2},
			{Name: "how its group is found", Span: 3},
			{Name: "what it may crawl", Span: 3},
			{Name: "on the sites that name it", Span: 2},
		},
		Legend: []reportSeg{
			{Class: "no", Name: "fully blocked"},
			{Class: "part", Name: "partly blocked"},
			{Class: "yes", Name: "open"},
		},
		Empty: "No robot selected (-robots).",
	}
	for _, r := range reportRobotRows(s.Robots) {
		x := r.tally
		row := reportRow{Cells: []string{reportShown(r.names[0]), strconv.FormatInt(x.sites, 10)}, Shares: []string{"", ""}}
		if len(r.names) > 1 {
			row.Names = r.names
			row.Cells[0] = row.List() + " " + row.Count()
		}
		for _, n := range []int64{x.named, x.fallback, x.star, x.blocked, x.partly, x.open, x.namedBlocked, x.namedPartly} {
			row.Cells = append(row.Cells, strconv.FormatInt(n, 10))
			row.Shares = append(row.Shares, reportPct(n, x.sites))
		}
		for i, n := range []int64{x.blocked, x.partly, x.open} {
			row.Bar = append(row.Bar, reportSeg{Class: t.Legend[i].Class, Name: t.Legend[i].Name, Width: reportShare(n, x.sites)})
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// reportPurposes are the purposes of use, in the order of the usage
// table: those of robots.Purpose.
var reportPurposes = []string{"search", "ai-input", "ai-train"}

func (s *Summary) usageTable() reportTable {
	t := reportTable{
		ID: "usage", Title: "Usage preferences",
		Note: "For each purpose of use, the sites whose robots.txt says no to it, yes (and nothing says no), or nothing at all (none), " +
			"as shares of the sites counted: from the values of its Content-Usage lines (train-ai, ai-use, search) and Content-Signal lines (ai-train, ai-input, search), " +
			"whatever group or path they are in, and from the groups that name a usage control token and disallow some path to it " +
			"(Google-Extended withholds from Gemini's training and grounding, Applebot-Extended from Apple's training; counted when -robots selects the token, as it does by default). " +
			"Any no wins over a yes (draft-ietf-aipref-vocab-08 §5.1). " +
			"Under \"who says no\" and \"who says yes\", the sites of the no and yes columns by the source that says so; a site with several sources counts under each. " +
			"As Consent in Crisis' share of sites restricting each AI purpose, partial restrictions included.",
		Sources: []reportLink{srcConsent, srcAttach, srcVocab, srcSignals, srcGoogleX, srcAppleX},
		Legend: []reportSeg{
			{Class: "no", Name: "no"},
			{Class: "yes", Name: "yes"},
		},
	}
	// The sources that say no: the two kinds of line, then the
	// registry's control tokens and any other source counted, sorted.
	noBy := []string{sumContentUsage, sumContentSignal}
	controls := map[string]bool{}
	for _, tok := range sumControlTokens() {
		controls[tok] = true
	}
	for _, u := range s.Usage {
		for src := range u.Sources {
			if src != sumContentUsage && src != sumContentSignal {
				controls[src] = true
			}
		}
	}
	noBy = append(noBy, reportOrdered(controls, nil)...)
	yesBy := []string{sumContentUsage, sumContentSignal}
	t.Cols = []string{"purpose", "sites", "no", "yes", "none"}
	for _, src := range noBy {
		t.Cols = append(t.Cols, "no: "+reportShown(src))
	}
	for _, src := range yesBy {
		t.Cols = append(t.Cols, "yes: "+reportShown(src))
	}
	t.Groups = []reportGroup{{Span: 2}, {Name: "what the sites say", Span: 3}, {Name: "who says no", Span: len(noBy)}, {Name: "who says yes", Span: len(yesBy)}}
	for _, p := range reportOrdered(s.Usage, reportPurposes) {
		u := s.Usage[p]
		n := u.No + u.Yes + u.None
		row := reportRow{Cells: []string{reportShown(p), strconv.FormatInt(n, 10)}, Shares: []string{"", ""}}
		counts := []int64{u.No, u.Yes, u.None}
		for _, src := range noBy {
			counts = append(counts, u.Sources[src]["no"])
		}
		for _, src := range yesBy {
			counts = append(counts, u.Sources[src]["yes"])
		}
		for _, c := range counts {
			row.Cells = append(row.Cells, strconv.FormatInt(c, 10))
			row.Shares = append(row.Shares, reportPct(c, n))
		}
		row.Bar = []reportSeg{
			{Class: "no", Name: "no", Width: reportShare(u.No, n)},
			{Class: "yes", Name: "yes", Width: reportShare(u.Yes, n)},
		}
		t.Rows = append(t.Rows, row)
	}
	if len(t.Rows) == 0 {
		t.Empty = "No site counted."
	}
	return t
}

func (s *Summary) usageLineTable() reportTable {
	t := reportTable{
		ID: "usage-lines", Title: "Usage preference lines",
		Note: "Sites whose robots.txt has at least one line of each kind that states usage preferences, and the number of those lines: " +
			"Content-Usage (IETF AIPREF), Content-Signal (Cloudflare's Content Signals) and License (RSL 1.0: the URL of the content's licence); " +
			"the rows of their keys in the directive-key table.",
		Sources: []reportLink{srcAttach, srcSignals, srcRSL},
		Cols:    []string{"line", "sites", "share", "lines"},
	}
	for _, k := range []string{"Content-Usage", "Content-Signal", "License"} {
		u := s.Directives[strings.ToLower(k)]
		row := reportShareRow(k, u.Sites, s.Sites)
		row.Cells = append(row.Cells, strconv.FormatInt(u.Lines, 10))
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
