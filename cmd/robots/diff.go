package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/change"
	"github.com/robotskit/robots/fetch"
)

var diffCmd = &command{
	name:  "diff",
	usage: "[-robots major|all] [-format text|json] [-v] [-timeout D] [-user-agent UA] [-cache SPEC] OLD NEW [URL...]",
	short: "show the rules that change what robots may crawl between two versions of a file",
	long: `OLD and NEW are files, URLs of sites (fetched as robots check fetches
them), bare hosts such as example.com (read as https://), or - for standard
input (one of them).

Each robot family reads both versions with its own profile; for each, the
robots compared are its own robot (Googlebot for google, bingbot for bing,
YandexBot for yandex), every robot that a User-agent line of either
version names (a known robot with the registry's token chain and quirks,
any other by its product token), and "*", the robots no group names.
-robots major (the default) compares the google, bing, yandex and rfc9309
families; -robots all adds the old standards' first-match readers,
draft1996 and strict1994.

The report is in the files' own rules: each rule line that was added,
removed or is now obeyed by other robots, with the paths its pattern
covers ("/private/ and everything under it"), whether they are now
allowed or disallowed, and for which robots of which families; then the
robots whose access to the site changes (open, partly blocked, blocked,
and the group they obey). Rule lines that differ but change no verdict
are listed apart.

The verdicts are decided on the URLs given, or else on paths derived from
the rules of both versions (every Allow and Disallow path, with its
wildcards read as nothing and as a letter, one letter and one segment
longer, plus "/" and "/robots.txt": the paths robots fix tries to prove
that a fix keeps the meaning). -v lists the paths whose verdicts change,
with the deciding line of each version; given URLs are always listed.
The command exits 1 when a verdict changes.`,
}

func init() { diffCmd.run = runDiff }

func runDiff(e *env, args []string) error {
	fs := newFlags(e, diffCmd)
	set := fs.String("robots", "major", "compare the robot families of `SET`: major (google, bing, yandex, rfc9309) or all (also draft1996 and strict1994)")
	format := fs.String("format", "text", "output `format`: text or json")
	verbose := fs.Bool("v", false, "also list the paths tried whose verdicts change, with the deciding line of each version")
	nf := addNetFlags(fs, 10)
	if err := parseFlags(e, diffCmd, fs, args); err != nil {
		return err
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	if *set != "major" && *set != "all" {
		return &usageError{msg: fmt.Sprintf("-robots must be major or all, got %q", *set)}
	}
	if err := nf.check(); err != nil {
		return err
	}
	if fs.NArg() < 2 {
		return &usageError{msg: "give two versions of a robots.txt: OLD and NEW, each a FILE, a URL, or - for standard input"}
	}
	var ins [2]input
	for i := range ins {
		in, err := resolveInput(e, fs.Arg(i))
		if err != nil {
			return err
		}
		ins[i] = in
	}
	if ins[0].path == "-" && ins[1].path == "-" {
		return &usageError{msg: "- (standard input) is given twice: one of OLD and NEW may be read from it"}
	}
	urls := fs.Args()[2:]
	for _, u := range urls {
		if err := testURLArg(u); err != nil {
			return err
		}
	}
	var srcs [2][]byte
	for i, in := range ins {
		src, err := diffSource(e, nf, in)
		if err != nil {
			return err
		}
		srcs[i] = src
	}
	stop := progress(e, "comparing "+ins[0].name+" and "+ins[1].name)
	rep := change.Compare(srcs[0], srcs[1], &change.Options{All: *set == "all", URLs: urls})
	stop()
	var err error
	if *format == "json" {
		err = writeJSON(e.stdout, struct {
			Old string `json:"old"`
			New string `json:"new"`
			*change.Report
		}{ins[0].name, ins[1].name, rep})
	} else {
		err = writeDiffText(e.stdout, ins[0].name, ins[1].name, rep, *verbose, true, 0)
	}
	if err != nil {
		return err
	}
	if rep.Changed {
		return errFinding
	}
	return nil
}

// diffSource reads one version: a file or standard input as robots read
// it (the first 500 KiB), or a site's robots.txt fetched as robots check
// fetches it. An answer that holds no file is an error: there is nothing
// to compare.
func diffSource(e *env, nf *netFlags, in input) ([]byte, error) {
	if in.url == "" {
		src, truncated, err := readLimited(e, in.path)
		if err != nil {
			return nil, err
		}
		if truncated {
			fmt.Fprintf(e.stderr, "robots: %s is larger than %d KiB: like Google, diff reads only its first %d KiB\n", in.name, robots.MaxBytes>>10, robots.MaxBytes>>10)
		}
		return nonNil(src), nil
	}
	f, done, err := nf.fetcher(fetch.Google, robots.Google, "")
	if err != nil {
		return nil, err
	}
	defer done()
	stop := progress(e, "fetching "+in.url)
	res, err := nf.get(e, f, in.url)
	stop()
	if e.ctx.Err() != nil {
		return nil, e.ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	if res.Access != fetch.AccessRules {
		return nil, fmt.Errorf("%s: no file to compare (%s: %s)", res.URL, fetchSummary(res), res.Reason)
	}
	fmt.Fprintf(e.stderr, "robots: fetched %s: %s\n", res.URL, fetchSummary(res))
	return nonNil(res.Body), nil
}

// otherRobots is how the text output names the robots no group names.
const otherRobots = "* (other robots)"

// writeDiffText writes the report in at most 80 columns, in the files'
// own rules: each rule line that changes verdicts, with the paths its
// pattern covers, what becomes of them and for which robots; then the
// robots whose access to the site changes. With verbose, or when the
// URLs were given, the URLs whose verdicts change follow (see
// writeDiffPaths); maxRules, when not 0, bounds the rule lines shown;
// hint ends the report with where to find the paths
// tried (robots diff's -v and -format json).
func writeDiffText(w io.Writer, oldName, newName string, rep *change.Report, verbose, hint bool, maxRules int) error {
	var b strings.Builder
	fmt.Fprintf(&b, "old: %s\nnew: %s\n", clean(oldName), clean(newName))
	var fams []robots.Profile
	for _, f := range rep.Families {
		fams = append(fams, f.Profile)
	}
	compared := fmt.Sprintf("compared: %s robots", andList(namesOf(fams)))
	if rep.URLs != nil {
		compared += " on " + plural(len(rep.URLs), "URL")
	}
	b.WriteString(wrapWords(compared, "  ", width))

	var turning, inert []change.RuleChange
	robotsN := map[string]bool{}
	for _, rc := range rep.Rules {
		if len(rc.Robots) == 0 {
			inert = append(inert, rc)
			continue
		}
		turning = append(turning, rc)
		for _, r := range rc.Robots {
			robotsN[r.Robot] = true
		}
	}
	if len(turning) > 0 {
		b.WriteString("\n")
		b.WriteString(wrapWords(fmt.Sprintf("%s %s what %s may crawl:", plural(len(turning), "rule line"), verb(len(turning), "changes", "change"), plural(len(robotsN), "robot")), "", width))
		for i, rc := range turning {
			if maxRules > 0 && i == maxRules {
				b.WriteString("\n" + wrapWords(fmt.Sprintf("  (%s; -format json lists them all)", plural(len(turning)-i, "more rule line")), "  ", width))
				break
			}
			writeRuleChange(&b, rc, fams)
		}
	}
	if lines := accessChanges(rep, fams); len(lines) > 0 {
		b.WriteString("\nAccess to the site:\n")
		for _, l := range lines {
			b.WriteString(l)
		}
	}
	if len(inert) > 0 {
		b.WriteString("\n")
		b.WriteString(wrapWords(fmt.Sprintf("%s %s between the versions but %s no verdict:", plural(len(inert), "rule line"), verb(len(inert), "differs", "differ"), verb(len(inert), "changes", "change")), "", width))
		for _, rc := range inert {
			fmt.Fprintf(&b, "  %s\n", ruleHead(rc))
			if rc.Note != "" {
				b.WriteString(wrapWords("    ("+rc.Note+")", "     ", width))
			}
		}
	}
	if verbose || rep.URLs != nil {
		writeDiffPaths(&b, rep)
	}
	if !rep.Changed {
		b.WriteString("\nNo verdict changes: every robot compared reads both versions alike.\n")
	} else if rep.URLs == nil && !verbose && hint {
		b.WriteString("\n" + wrapWords(fmt.Sprintf("(-v lists the %s tried whose verdicts change; -format json gives them all)", plural(changedURLs(rep), "path")), "", width))
	}
	_, err := io.WriteString(w, cleanLines(b.String()))
	return err
}

// changedURLs counts the URLs whose verdict changes for some robot.
func changedURLs(rep *change.Report) int {
	seen := map[string]bool{}
	for _, f := range rep.Families {
		for _, rb := range f.Robots {
			for _, c := range rb.Changes {
				seen[c.URL] = true
			}
		}
	}
	return len(seen)
}

// writeRuleChange writes one rule line that turns verdicts: the line, the
// paths it covers and what becomes of them, and the robots, each with the
// families that read it so ("every family" when all compared do).
func writeRuleChange(b *strings.Builder, rc change.RuleChange, fams []robots.Profile) {
	b.WriteString("\n  " + ruleHead(rc) + "\n")
	b.WriteString(wrapWords("    "+clean(rc.Covers)+": "+rc.Effect, "      ", width))
	var rbs []string
	for _, r := range rc.Robots {
		name := r.Robot
		if name == "*" {
			name = otherRobots
		}
		rbs = append(rbs, name+" ["+familiesOf(r.Families, fams)+"]")
	}
	b.WriteString(wrapList("for ", rbs, 4, width))
}

// ruleHead is a rule change's first line: "- line 5: Allow: /x (removed)".
func ruleHead(rc change.RuleChange) string {
	mark, what := "~", fmt.Sprintf("line %d: %s (in both versions, read differently)", rc.Line, clean(rc.Rule))
	switch rc.Change {
	case change.Added:
		mark, what = "+", fmt.Sprintf("line %d: %s (added)", rc.Line, clean(rc.Rule))
	case change.Removed:
		mark, what = "-", fmt.Sprintf("line %d: %s (removed)", rc.Line, clean(rc.Rule))
	default:
		if rc.OldLine != 0 && rc.OldLine != rc.Line {
			what = fmt.Sprintf("line %d (was %d): %s (in both versions, read differently)", rc.Line, rc.OldLine, clean(rc.Rule))
		}
	}
	return shorten(mark+" "+what, width-2)
}

// accessChanges lists the changes of robots' access to the site (its
// state, or how it finds its group): each change once, then the robots
// it holds for, each with its families.
func accessChanges(rep *change.Report, fams []robots.Profile) []string {
	type entry struct {
		names []string
		fams  map[string][]robots.Profile
	}
	var order []string
	byKey := map[string]*entry{}
	for _, f := range rep.Families {
		for _, rb := range f.Robots {
			if rb.Old.State == rb.New.State && rb.Old.Via == rb.New.Via {
				continue // the same access; its group's line may have moved
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
	var out []string
	for _, k := range order {
		e := byKey[k]
		var rbs []string
		for _, n := range e.names {
			rbs = append(rbs, n+" ["+familiesOf(e.fams[n], fams)+"]")
		}
		out = append(out, wrapWords("  "+clean(k)+":", "    ", width)+wrapList("", rbs, 4, width))
	}
	return out
}

// stateWords says a state as the text output does.
func stateWords(s robots.State) string {
	return map[robots.State]string{robots.Open: "open", robots.Partly: "partly blocked", robots.Blocked: "blocked"}[s]
}

// groupWords says how a robot found its group: "by the \"*\" group (line
// 3)".
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

// accessWords says an access in a few words: "partly blocked by the \"*\"
// group (line 3)".
func accessWords(a robots.Access) string {
	if a.Via == robots.ViaNone {
		return stateWords(a.State) + ", no group applies"
	}
	return stateWords(a.State) + " " + groupWords(a)
}

// familiesOf names families, or "every family" when they are all of all.
func familiesOf(ps, all []robots.Profile) string {
	if len(ps) == len(all) && len(all) > 1 {
		return "every family"
	}
	return strings.Join(namesOf(ps), ", ")
}

// namesOf returns the names of ps.
func namesOf(ps []robots.Profile) []string {
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

// writeDiffPaths writes the URLs whose verdicts change: robots whose
// verdicts change alike share a block, headed by a line per family that
// names them; in a block, the URLs whose verdicts and deciding lines
// change alike share an entry: the URLs, then the verdict and deciding
// line of the old and of the new version.
func writeDiffPaths(b *strings.Builder, rep *change.Report) {
	type block struct {
		changes []change.URLChange
		fams    []string
		names   map[string][]string // by family
	}
	var blocks []*block
	byKey := map[string]*block{}
	for _, f := range rep.Families {
		fam := f.Profile.String()
		for _, rb := range f.Robots {
			if len(rb.Changes) == 0 {
				continue
			}
			k := diffKey(rb.Changes)
			bl := byKey[k]
			if bl == nil {
				bl = &block{changes: rb.Changes, names: map[string][]string{}}
				byKey[k] = bl
				blocks = append(blocks, bl)
			}
			if len(bl.names[fam]) == 0 {
				bl.fams = append(bl.fams, fam)
			}
			name := rb.Name
			if name == "*" {
				name = otherRobots
			}
			bl.names[fam] = append(bl.names[fam], name)
		}
	}
	if len(blocks) == 0 {
		return
	}
	what := "URLs given"
	if rep.URLs == nil {
		what = "paths tried (derived from the rules of both versions)"
	}
	fmt.Fprintf(b, "\nVerdicts that change on the %s:\n", what)
	for _, bl := range blocks {
		b.WriteString("\n")
		for _, fam := range bl.fams {
			b.WriteString(wrapList(fam+": ", bl.names[fam], 0, width))
		}
		// URLs whose two verdicts and reasons are the same share an
		// entry.
		var order []string
		paths := map[string][]string{}
		sides := map[string]change.URLChange{}
		for _, c := range bl.changes {
			k := fmt.Sprintf("%v\x00%s\x00%v\x00%s", c.Old.Allowed, c.Old.Why, c.New.Allowed, c.New.Why)
			if _, ok := sides[k]; !ok {
				order = append(order, k)
				sides[k] = c
			}
			paths[k] = append(paths[k], c.URL)
		}
		for _, k := range order {
			ps := paths[k]
			shown := make([]string, 0, min(len(ps), maxDiffPaths+1))
			for i, p := range ps {
				if i == maxDiffPaths && len(ps) > maxDiffPaths+1 {
					shown = append(shown, fmt.Sprintf("… and %d more", len(ps)-maxDiffPaths))
					break
				}
				shown = append(shown, shorten(clean(p), width-3))
			}
			b.WriteString(wrapList("", shown, 2, width))
			c := sides[k]
			for _, side := range []struct {
				label string
				v     change.Verdict
			}{{"old", c.Old}, {"new", c.New}} {
				head := fmt.Sprintf("    %s  %-10s  ", side.label, verdict(side.v.Allowed))
				fmt.Fprintf(b, "%s%s\n", head, shorten(clean(side.v.Why), width-utf8.RuneCountInString(head)))
			}
		}
	}
}

// maxDiffPaths bounds the paths the text output lists for one change;
// -format json lists them all.
const maxDiffPaths = 8

// diffKey identifies a list of changes, so that robots with the same
// changes are shown once.
func diffKey(cs []change.URLChange) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "%s\x00%v\x00%s\x00%v\x00%s\x01", c.URL, c.Old.Allowed, c.Old.Why, c.New.Allowed, c.New.Why)
	}
	return b.String()
}

// andList writes "a", "a and b", "a, b and c".
func andList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// wrapWords writes s in lines of at most width columns, breaking at
// spaces; the first line keeps the spaces s starts with, the lines after
// it start with indent.
func wrapWords(s, indent string, width int) string {
	var b strings.Builder
	lead := s[:len(s)-len(strings.TrimLeft(s, " "))]
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = lead + word
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) > width:
			b.WriteString(line + "\n")
			line = indent + word
		default:
			line += " " + word
		}
	}
	b.WriteString(line + "\n")
	return b.String()
}
