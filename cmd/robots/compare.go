package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/internal/probe"
	"github.com/robotskit/robots/internal/wire"
	"github.com/robotskit/robots/syntax"
	"github.com/robotskit/robots/usage"
)

var compareCmd = &command{
	name:  "compare",
	usage: "[-robot NAME]... [-agent TOKEN]... [-all] [-profile P] [-format text|json] FILE|URL|- [URL...]",
	short: "show how each robot reads a file, URL by URL",
	long: `Without URL arguments, the rows are the file's own rules: "/" and the
path of every Allow and Disallow line, each decided on the first path its
pattern covers (its "*" read as nothing); the table shows at most ` + fmt.Sprint(maxRows) + `
of them, those on which the robots disagree first, and -format json all.
The first row gives each robot's access to the site: open, partly blocked
or blocked (the access of robots audit and the API). When the file states
usage preferences (Content-Usage, Content-Signal, or a Disallow for a
control token such as Google-Extended), three rows follow it: what each
robot may do with what it fetches from "/", for search, ai-input and
ai-train, "yes" or "no" and the line that says so, or "none" (robots
usage says it for other URLs).
Without -robot or -agent, the robots are those of the major families:
` + strings.Join(compareDefault, ", ") + `; -all shows the
registry's wider default set, with one robot for every profile.`,
}

func init() { compareCmd.run = runCompare }

// compareDefault is the short default set of robots compare shows: one
// of each major family (Google, Bing, Yandex, and two RFC 9309 AI
// crawlers), so that the table fits 80 columns.
var compareDefault = []string{"Googlebot", "bingbot", "YandexBot", "GPTBot", "ClaudeBot"}

// maxRows bounds the rows of the text table when they are the file's
// own rules; -format json gives them all.
const maxRows = 24

func runCompare(e *env, args []string) error {
	fs := newFlags(e, compareCmd)
	var (
		profile robots.Profile
		names   stringsFlag
		tokens  stringsFlag
		all     = fs.Bool("all", false, "show the registry's wider default set of robots, one for every profile")
		format  = fs.String("format", "text", "output `format`: text or json")
	)
	fs.Var(&profile, "profile", "read the file as `P` for every robot (default: each robot's own)")
	fs.Var(&names, "robot", "show the known robot `NAME` (robots agents lists them); repeat for several")
	fs.Var(&tokens, "agent", "show a plain product `TOKEN` under the default profile; repeat for several")
	nf := addNetFlags(fs, 10)
	if err := parseFlags(e, compareCmd, fs, args); err != nil {
		return err
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return &usageError{msg: "no robots.txt: give a FILE, a URL, or - for standard input"}
	}
	if *all && (len(names) > 0 || len(tokens) > 0) {
		return &usageError{msg: "-all and -robot or -agent both choose the robots: give one"}
	}
	profileSet := isSet(fs, "profile")
	var readers []reader
	for _, n := range names {
		r, err := robotReader(n, profile, profileSet)
		if err != nil {
			return err
		}
		readers = append(readers, r)
	}
	if len(tokens) > 0 {
		toks, err := agentTokens(e, tokens)
		if err != nil {
			return err
		}
		for _, t := range toks {
			readers = append(readers, reader{name: t, profile: profile, agent: robots.Agent{Tokens: []string{t}}, policy: fetch.PolicyFor(profile)})
		}
	}
	switch {
	case *all:
		readers = defaultReaders(profile, profileSet)
	case len(readers) == 0:
		for _, n := range compareDefault {
			r, err := robotReader(n, profile, profileSet)
			if err != nil {
				return err
			}
			readers = append(readers, r)
		}
	}
	urls := fs.Args()[1:]
	for _, u := range urls {
		if err := testURLArg(u); err != nil {
			return err
		}
	}
	name, src, size, err := loadFileSize(e, nf, fs.Arg(0))
	if src == nil {
		return err
	}
	rs := robots.CompileAll(syntax.Parse(name, src))
	probed := len(urls) == 0
	rows, probes := urls, urls
	if probed {
		rows, probes = rulePaths(rs.File())
	}
	m := compare(rs, readers, probes, size)
	m.rows = rows
	if *format == "json" {
		err = m.writeJSON(e.stdout, name, probed)
	} else {
		err = m.writeText(e.stdout, name, probed)
	}
	if err != nil {
		return err
	}
	if len(m.disagree) > 0 {
		return errFinding
	}
	return nil
}

// isURL reports whether s names a web resource rather than a file.
func isURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// defaultReaders is the registry's default set, plus a robot that obeys
// only "*" for each profile no robot of that set reads with, so that every
// profile is shown.
func defaultReaders(profile robots.Profile, profileSet bool) []reader {
	var rs []reader
	seen := map[robots.Profile]bool{}
	for _, rb := range agents.Default() {
		r := fromRegistry(rb, profile, profileSet)
		rs = append(rs, r)
		seen[r.profile] = true
	}
	for _, p := range robots.Profiles() {
		if !seen[p] && !profileSet {
			rs = append(rs, reader{name: "*", profile: p, agent: robots.Agent{Tokens: []string{"*"}}, policy: fetch.PolicyFor(p)})
		}
	}
	return rs
}

// rulePaths returns the rows of a table of the file's own rules: "/" and
// the value of every Allow and Disallow line, as written, once each, in
// file order; and the path each is decided on, the first its pattern
// covers (probe.Plain).
func rulePaths(f *syntax.File) (rows, paths []string) {
	rows, paths = []string{"/"}, []string{"/"}
	seen := map[string]bool{"/": true}
	for i := range f.Lines {
		l := &f.Lines[i]
		if l.Kind != syntax.DirectiveLine || l.Field != syntax.Allow && l.Field != syntax.Disallow {
			continue
		}
		v := f.Text(l.Value)
		if v == "" || seen[v] {
			continue
		}
		seen[v] = true
		rows = append(rows, v)
		paths = append(paths, probe.Plain(v))
	}
	return rows, paths
}

// matrix is every robot's access to the site and decision on every URL.
type matrix struct {
	file     *syntax.File
	readers  []reader
	access   []robots.Access     // [reader]
	usage    []usage.Result      // [reader]: the usage of "/"
	notes    []string            // [reader]: why the file's rules do not apply, or ""
	urls     []string            // decided
	rows     []string            // shown: the URLs, or the rules' paths they stand for
	cells    [][]robots.Decision // [reader][url]
	disagree []int               // URLs on which readers differ
}

// compare decides urls for every reader of a file of size octets (its
// first 500 KiB compiled in rs): by the file's rules, or by a reader's
// fetch policy when it ignores the file (fetch.Policy.Served); and the
// usage of "/" for every reader (usage.Decide, with no rules for a
// reader that ignores the file).
func compare(rs *robots.Readings, readers []reader, urls []string, size int64) *matrix {
	m := &matrix{file: rs.File(), readers: readers, urls: urls, rows: urls}
	for _, r := range readers {
		served, why := r.policy.Served(size)
		rules := rs.Rules(r.profile)
		m.access = append(m.access, served.For(rules, r.agent))
		if served != fetch.AccessRules {
			rules = nil
		}
		m.usage = append(m.usage, usage.Decide(rules, usage.Robot{Name: r.name, Agent: r.agent}, "/", nil))
		row := make([]robots.Decision, len(urls))
		note := ""
		if served != fetch.AccessRules {
			note = why
		}
		for j, u := range urls {
			if note != "" {
				row[j] = robots.Decision{Allowed: served == fetch.AccessAll, Reason: robots.NoGroup}
				continue
			}
			row[j] = rs.Decide(r.profile, r.agent, u)
		}
		m.cells = append(m.cells, row)
		m.notes = append(m.notes, note)
	}
	for j := range urls {
		for i := range readers {
			if m.cells[i][j].Allowed != m.cells[0][j].Allowed {
				m.disagree = append(m.disagree, j)
				break
			}
		}
	}
	return m
}

// stated reports whether the file states a usage preference of "/" to
// some reader: the usage rows are shown then.
func (m *matrix) stated() bool {
	for _, r := range m.usage {
		for p := range robots.NumPurposes {
			if r.Usage.For(p).Source != "" {
				return true
			}
		}
	}
	return false
}

// usageCell is one usage verdict in a few characters: "yes:2", "no:9",
// "none".
func usageCell(v *usage.Verdict) string {
	if v.Line > 0 {
		return fmt.Sprintf("%s:%d", v.Value, v.Line)
	}
	return v.Value
}

// cell is one decision in a few characters: "yes", "yes:3", "NO:2".
func cell(d robots.Decision) string {
	s := "NO"
	if d.Allowed {
		s = "yes"
	}
	if d.Line > 0 {
		s += fmt.Sprintf(":%d", d.Line)
	}
	return s
}

// reading is the robots that reached one decision on a URL.
type reading struct {
	Allowed bool     `json:"allowed"`
	Line    int      `json:"line"`
	Why     string   `json:"why"`
	Robots  []string `json:"robots"`
}

// readings groups the decisions on URL j by verdict and reason.
func (m *matrix) readings(j int) []reading {
	var out []reading
	for i, r := range m.readers {
		d := m.cells[i][j]
		why := explain(m.file, d)
		if m.notes[i] != "" {
			why = m.notes[i]
		}
		k := slices.IndexFunc(out, func(x reading) bool { return x.Allowed == d.Allowed && x.Why == why })
		if k < 0 {
			out = append(out, reading{Allowed: d.Allowed, Line: d.Line, Why: why})
			k = len(out) - 1
		}
		out[k].Robots = append(out[k].Robots, r.label())
	}
	return out
}

// label names a reader with its profile: "Googlebot (google)".
func (r reader) label() string { return fmt.Sprintf("%s (%s)", r.name, r.profile) }

// width is the width of the text output: a terminal's default.
const width = 80

func (m *matrix) writeText(w io.Writer, name string, probed bool) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", clean(name), plural(len(m.readers), "robot"))
	if probed {
		fmt.Fprintf(&b, ", \"/\" and the paths of %s\n", plural(len(m.rows)-1, "rule"))
		b.WriteString("cells: yes/NO and the deciding line on the first path each rule covers;\n")
		b.WriteString("≠ marks the rows on which robots disagree\n")
	} else {
		fmt.Fprintf(&b, ", %s\n", plural(len(m.urls), "URL"))
		b.WriteString("cells: yes/NO and the deciding line; ≠ marks URLs on which robots disagree\n")
	}
	// The rows shown: all of them, or for a file's rules at most maxRows,
	// "/" and those on which the robots disagree first.
	show := make([]int, 0, len(m.rows))
	if !probed || len(m.rows) <= maxRows {
		for j := range m.rows {
			show = append(show, j)
		}
	} else {
		keep := map[int]bool{0: true}
		for _, j := range m.disagree {
			if len(keep) == maxRows {
				break
			}
			keep[j] = true
		}
		for j := 0; len(keep) < maxRows && j < len(m.rows); j++ {
			keep[j] = true
		}
		for j := range m.rows {
			if keep[j] {
				show = append(show, j)
			}
		}
	}
	// URLs of one origin are shown by their paths.
	shown := slices.Clone(m.rows)
	if o := commonOrigin(m.rows); o != "" && !probed {
		for j, u := range shown {
			shown[j] = strings.TrimPrefix(u, o)
		}
		fmt.Fprintf(&b, "paths on %s\n", clean(o))
	}
	// Robots are columns, URLs rows; the robots are split into several
	// tables when they do not fit in width columns beside the URLs.
	stated := m.stated()
	colW := make([]int, len(m.readers))
	for i, r := range m.readers {
		colW[i] = max(len(r.name), len(r.profile.String())+2, len(m.access[i].State.String()))
		for _, j := range show {
			colW[i] = max(colW[i], len(cell(m.cells[i][j])))
		}
		for p := range robots.NumPurposes {
			if stated {
				colW[i] = max(colW[i], len(usageCell(m.usage[i].Usage.For(p))))
			}
		}
	}
	urlW := len("access")
	if stated {
		urlW = len("ai-train")
	}
	for _, j := range show {
		urlW = max(urlW, utf8.RuneCountInString(clean(shown[j]))+2) // and " ≠"
	}
	// The URL column takes what the robots leave of the width, at least 16
	// columns; longer URLs are shortened in the middle (the list of
	// disagreements below the table gives them whole).
	cols := 0
	for _, w := range colW {
		cols += 2 + w
	}
	urlW = min(urlW, max(16, width-cols))
	first := "URL"
	if probed {
		first = "rule"
	}
	for lo := 0; lo < len(m.readers); {
		hi, used := lo, urlW
		for hi < len(m.readers) && (hi == lo || used+2+colW[hi] <= width) {
			used += 2 + colW[hi]
			hi++
		}
		b.WriteString("\n")
		line := func(first string, col func(i int) string) {
			var l strings.Builder
			l.WriteString(pad(first, urlW))
			for i := lo; i < hi; i++ {
				l.WriteString("  " + pad(col(i), colW[i]))
			}
			b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
		}
		line(first, func(i int) string { return m.readers[i].name })
		line("", func(i int) string { return "(" + m.readers[i].profile.String() + ")" })
		line("access", func(i int) string { return m.access[i].State.String() })
		for p := range robots.NumPurposes {
			if stated { // what each robot may do with what it fetches from "/"
				line(p.String(), func(i int) string { return usageCell(m.usage[i].Usage.For(p)) })
			}
		}
		for _, j := range show {
			u := clean(shown[j])
			if slices.Contains(m.disagree, j) {
				u += " ≠"
			}
			line(shorten(u, urlW), func(i int) string { return cell(m.cells[i][j]) })
		}
		lo = hi
	}
	if stated {
		m.writeUsageSources(&b)
	}
	if n := len(m.rows) - len(show); n > 0 {
		fmt.Fprintf(&b, "\n(%s more, on which the robots agree: -format json lists them)\n", plural(n, "rule"))
	}
	if len(m.disagree) == 0 {
		what := "URL"
		if probed {
			what = "rule"
		}
		fmt.Fprintf(&b, "\nEvery robot reads every %s the same way.\n", what)
	} else {
		what := plural(len(m.urls), "URL")
		if probed {
			what = plural(len(m.rows), "row")
		}
		fmt.Fprintf(&b, "\nRobots disagree on %d of %s:\n", len(m.disagree), what)
		for _, j := range m.disagree {
			fmt.Fprintf(&b, "\n%s\n", clean(m.rows[j]))
			for _, rd := range m.readings(j) {
				fmt.Fprintf(&b, "  %-10s %s\n", verdict(rd.Allowed), clean(rd.Why))
				b.WriteString(wrapList("by ", rd.Robots, 13, width))
			}
		}
	}
	_, err := io.WriteString(w, cleanLines(b.String()))
	return err
}

// writeUsageSources says what the usage rows are, and names the
// statement behind each line they give.
func (m *matrix) writeUsageSources(b *strings.Builder) {
	var srcs []string
	seen := map[string]bool{}
	for _, r := range m.usage {
		for p := range robots.NumPurposes {
			if v := r.Usage.For(p); v.Source != "" && !seen[usageSource(v)] {
				seen[usageSource(v)] = true
				srcs = append(srcs, clean(usageSource(v)))
			}
		}
	}
	b.WriteString("\n")
	b.WriteString(wrapWords(`search, ai-input, ai-train: what each robot may do with what it fetches from "/", `+
		"and the line that says so ("+strings.Join(srcs, "; ")+`); none: nothing stated, or "/" not crawled`, "", width))
}

// commonOrigin is the scheme and host that every URL of urls starts with,
// followed by a path, or "" when they do not share one.
func commonOrigin(urls []string) string {
	origin := ""
	for _, u := range urls {
		i := strings.Index(u, "://")
		if i < 0 {
			return ""
		}
		j := strings.IndexByte(u[i+3:], '/')
		if j < 0 {
			return ""
		}
		o := u[:i+3+j]
		if origin != "" && o != origin {
			return ""
		}
		origin = o
	}
	return origin
}

// pad writes s left-aligned in n columns.
func pad(s string, n int) string {
	if k := utf8.RuneCountInString(s); k < n {
		return s + strings.Repeat(" ", n-k)
	}
	return s
}

// shorten cuts s to n columns, with "…" in the middle when it is longer.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	head := (n - 1) / 2
	return string(r[:head]) + "…" + string(r[len(r)-(n-1-head):])
}

// wrapList writes prefix and the items, comma-separated, in lines of at
// most width columns, indented by indent spaces, the lines after the first
// aligned under its first item; an item is never split.
func wrapList(prefix string, items []string, indent, width int) string {
	var b strings.Builder
	margin := strings.Repeat(" ", indent)
	cont := strings.Repeat(" ", utf8.RuneCountInString(prefix))
	line := prefix
	for i, it := range items {
		if i < len(items)-1 {
			it += ","
		}
		switch {
		case i == 0:
			line += it
		case indent+utf8.RuneCountInString(line)+1+utf8.RuneCountInString(it) > width:
			b.WriteString(margin + line + "\n")
			line = cont + it
		default:
			line += " " + it
		}
	}
	b.WriteString(margin + line + "\n")
	return b.String()
}

// Shapes of -format json.
type (
	compareJSON struct {
		File   string      `json:"file"`
		Probed bool        `json:"probed"`
		Robots []robotJSON `json:"robots"`
		// Access is each robot's access to the site, in the order of
		// Robots: the access object of every command and the API.
		Access []wire.Access `json:"access"`
		// Usage is what each robot may do with what it fetches from "/",
		// purpose by purpose, in the order of Robots (usage.Decide).
		Usage []usage.Verdicts `json:"usage"`
		// URLs are the URLs given; without them, Rules are the values of
		// the file's rule lines (and "/") and Probes the paths they were
		// decided on.
		URLs          []string           `json:"urls,omitempty"`
		Rules         []string           `json:"rules,omitempty"`
		Probes        []string           `json:"probes,omitempty"`
		Matrix        [][]decisionJSON   `json:"matrix"` // [robot][url]
		Disagreements []disagreementJSON `json:"disagreements"`
	}
	robotJSON struct {
		Name         string   `json:"name"`
		Profile      string   `json:"profile"`
		Tokens       []string `json:"tokens"`
		IgnoreGlobal bool     `json:"ignore_global,omitempty"`
		Known        bool     `json:"known"`
	}
	decisionJSON struct {
		Allowed bool   `json:"allowed"`
		Line    int    `json:"line"`
		Group   int    `json:"group"`
		Reason  string `json:"reason"`
	}
	disagreementJSON struct {
		URL      string    `json:"url"`
		Readings []reading `json:"readings"`
	}
)

func (m *matrix) writeJSON(w io.Writer, name string, probed bool) error {
	out := compareJSON{File: name, Probed: probed, Disagreements: []disagreementJSON{}}
	if probed {
		out.Rules = m.rows
		for _, u := range m.urls {
			out.Probes = append(out.Probes, probe.Shown(u))
		}
	} else {
		out.URLs = m.urls
	}
	for i, r := range m.readers {
		out.Robots = append(out.Robots, robotJSON{Name: r.name, Profile: r.profile.String(),
			Tokens: r.agent.Tokens, IgnoreGlobal: r.agent.IgnoreGlobal, Known: r.known})
		out.Access = append(out.Access, wire.Access{Robot: r.name, Access: m.access[i]})
		out.Usage = append(out.Usage, m.usage[i].Usage)
		row := make([]decisionJSON, len(m.urls))
		for j, d := range m.cells[i] {
			row[j] = decisionJSON{Allowed: d.Allowed, Line: d.Line, Group: d.Group, Reason: d.Reason.String()}
		}
		out.Matrix = append(out.Matrix, row)
	}
	for _, j := range m.disagree {
		out.Disagreements = append(out.Disagreements, disagreementJSON{URL: m.rows[j], Readings: m.readings(j)})
	}
	return writeJSON(w, out)
}
