package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/syntax"
)

var compareCmd = &command{
	name:  "compare",
	usage: "[-robot NAME]... [-profile P] [-format text|json] FILE [URL...]",
	short: "show how each robot reads a file, URL by URL",
}

func init() { compareCmd.run = runCompare }

// maxProbes bounds the URLs derived from a file's own patterns.
const maxProbes = 24

func runCompare(e *env, args []string) error {
	fs := newFlags(e, compareCmd)
	var (
		profile robots.Profile
		names   stringsFlag
		format  = fs.String("format", "text", "output `format`: text or json")
	)
	fs.Var(&profile, "profile", "read the file as `P` for every robot (default: each robot's own)")
	fs.Var(&names, "robot", "registry robot or product token `NAME` to show; repeat (default: the main search and AI robots and one per profile)")
	nf := addNetFlags(fs, 10)
	if err := parseFlags(e, compareCmd, fs, args); err != nil {
		return err
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return &usageError{msg: "no robots.txt: give a FILE (- for standard input)"}
	}
	name := fs.Arg(0)
	var src []byte
	var err error
	if isURL(name) {
		var res *fetch.Result
		if src, res, err = fetchFile(e, nf, name); err != nil || res.Outcome != fetch.Success {
			return err
		}
	} else if src, err = readLimited(e, name); err != nil {
		return err
	}
	profileSet := isSet(fs, "profile")
	readers := defaultReaders(profile, profileSet)
	if len(names) > 0 {
		readers = readers[:0]
		for _, n := range names {
			readers = append(readers, robotReader(n, profile, profileSet))
		}
	}
	f := syntax.Parse(name, src)
	urls := fs.Args()[1:]
	probed := len(urls) == 0
	if probed {
		urls = probeURLs(f)
	}
	m := compare(robots.ReadAll(f), readers, urls)
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
			rs = append(rs, reader{name: "*", profile: p, agent: robots.Agent{Tokens: []string{"*"}}})
		}
	}
	return rs
}

// probeURLs derives paths to test from the file's own rules: "/", and for
// each Allow or Disallow value its literal path ('*' as nothing, a final
// '$' dropped) and that path with one more octet, so that prefix rules are
// seen both matching exactly and matching longer paths.
func probeURLs(f *syntax.File) []string {
	urls := []string{"/"}
	seen := map[string]bool{"/": true}
	add := func(u string) {
		if !seen[u] && len(urls) < maxProbes {
			seen[u] = true
			urls = append(urls, u)
		}
	}
	for _, l := range f.Lines {
		if l.Kind != syntax.DirectiveLine || l.Field != syntax.Allow && l.Field != syntax.Disallow {
			continue
		}
		v := f.Text(l.Value)
		if v == "" {
			continue
		}
		base := strings.ReplaceAll(strings.TrimSuffix(v, "$"), "*", "")
		if !strings.HasPrefix(base, "/") {
			base = "/" + base
		}
		add(base)
		add(base + "x")
	}
	return urls
}

// matrix is every robot's decision on every URL.
type matrix struct {
	file     *syntax.File
	readers  []reader
	urls     []string
	cells    [][]robots.Decision // [reader][url]
	disagree []int               // URLs on which readers differ
}

func compare(rs *robots.Readings, readers []reader, urls []string) *matrix {
	m := &matrix{file: rs.File(), readers: readers, urls: urls}
	for _, r := range readers {
		row := make([]robots.Decision, len(urls))
		for j, u := range urls {
			row[j] = rs.Decide(r.profile, r.agent, u)
		}
		m.cells = append(m.cells, row)
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

func (m *matrix) writeText(w io.Writer, name string, probed bool) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d robots, %d URLs", name, len(m.readers), len(m.urls))
	if probed {
		b.WriteString(" (derived from the file's rules)")
	}
	b.WriteString("\ncells: yes/NO and the deciding line; * marks URLs on which robots disagree\n\n")
	// Column widths.
	nameW, profW := len("robot"), len("profile")
	for _, r := range m.readers {
		nameW, profW = max(nameW, len(r.name)), max(profW, len(r.profile.String()))
	}
	colW := make([]int, len(m.urls))
	heads := make([]string, len(m.urls))
	for j := range m.urls {
		heads[j] = fmt.Sprintf("U%d", j+1)
		if slices.Contains(m.disagree, j) {
			heads[j] += "*"
		}
		colW[j] = len(heads[j])
		for i := range m.readers {
			colW[j] = max(colW[j], len(cell(m.cells[i][j])))
		}
	}
	row := func(name, profile string, cells func(j int) string) {
		var l strings.Builder
		fmt.Fprintf(&l, "%-*s  %-*s", nameW, name, profW, profile)
		for j := range m.urls {
			fmt.Fprintf(&l, "  %-*s", colW[j], cells(j))
		}
		b.WriteString(strings.TrimRight(l.String(), " "))
		b.WriteString("\n")
	}
	row("robot", "profile", func(j int) string { return heads[j] })
	for i, r := range m.readers {
		row(r.name, r.profile.String(), func(j int) string { return cell(m.cells[i][j]) })
	}
	b.WriteString("\n")
	for j, u := range m.urls {
		fmt.Fprintf(&b, "U%-3d %s\n", j+1, u)
	}
	if len(m.disagree) == 0 {
		b.WriteString("\nEvery robot reads every URL the same way.\n")
	} else {
		fmt.Fprintf(&b, "\nRobots disagree on %d of %d URLs:\n", len(m.disagree), len(m.urls))
		for _, j := range m.disagree {
			fmt.Fprintf(&b, "\nU%d %s\n", j+1, m.urls[j])
			for _, rd := range m.readings(j) {
				verdict := "disallowed"
				if rd.Allowed {
					verdict = "allowed"
				}
				fmt.Fprintf(&b, "  %-10s %s\n             by %s\n", verdict, rd.Why, strings.Join(rd.Robots, ", "))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Shapes of -format json.
type (
	compareJSON struct {
		File          string             `json:"file"`
		Probed        bool               `json:"probed"`
		Robots        []robotJSON        `json:"robots"`
		URLs          []string           `json:"urls"`
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
	out := compareJSON{File: name, Probed: probed, URLs: m.urls, Disagreements: []disagreementJSON{}}
	for i, r := range m.readers {
		out.Robots = append(out.Robots, robotJSON{Name: r.name, Profile: r.profile.String(),
			Tokens: r.agent.Tokens, IgnoreGlobal: r.agent.IgnoreGlobal, Known: r.known})
		row := make([]decisionJSON, len(m.urls))
		for j, d := range m.cells[i] {
			row[j] = decisionJSON{Allowed: d.Allowed, Line: d.Line, Group: d.Group, Reason: d.Reason.String()}
		}
		out.Matrix = append(out.Matrix, row)
	}
	for _, j := range m.disagree {
		out.Disagreements = append(out.Disagreements, disagreementJSON{URL: m.urls[j], Readings: m.readings(j)})
	}
	return writeJSON(w, out)
}
