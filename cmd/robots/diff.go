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
	usage: "[-robots major|all] [-format text|json] [-timeout D] [-user-agent UA] [-cache SPEC] OLD NEW [URL...]",
	short: "show the paths whose verdict changes between two versions of a file",
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

Without URL arguments, the paths are derived from the rules of both
versions: every Allow and Disallow path, with its wildcards read as
nothing and as a segment, one octet and one segment longer, plus "/" and
"/robots.txt": the paths robots fix tries to prove that a fix keeps the
meaning. Only the paths whose verdict changes are listed, with the
deciding line of each version; the command exits 1 when there is one.`,
}

func init() { diffCmd.run = runDiff }

func runDiff(e *env, args []string) error {
	fs := newFlags(e, diffCmd)
	set := fs.String("robots", "major", "compare the robot families of `SET`: major (google, bing, yandex, rfc9309) or all (also draft1996 and strict1994)")
	format := fs.String("format", "text", "output `format`: text or json")
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
		err = writeDiffText(e.stdout, ins[0].name, ins[1].name, rep)
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

// writeDiffText writes the report in at most 80 columns. Robots whose
// verdicts change alike share a block, headed by a line per family that
// names them; in a block, the paths whose verdicts and deciding lines
// change alike share an entry: the paths, then the verdict and deciding
// line of the old and of the new version.
func writeDiffText(w io.Writer, oldName, newName string, rep *change.Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "old: %s\nnew: %s\n", clean(oldName), clean(newName))
	var fams []string
	for _, f := range rep.Families {
		fams = append(fams, f.Profile.String())
	}
	what := plural(len(rep.URLs), noun(rep.Probed))
	if rep.Probed {
		what += " derived from the rules of both versions"
	}
	b.WriteString(wrapWords(fmt.Sprintf("compared: %s robots on %s", andList(fams), what), "  ", width))

	type block struct {
		changes []change.URLChange
		fams    []string
		names   map[string][]string // by family
	}
	var blocks []*block
	byKey := map[string]*block{}
	changed := map[string]bool{}
	robotsN, famsN := 0, 0
	for _, f := range rep.Families {
		fam := f.Profile.String()
		hit := false
		for _, rb := range f.Robots {
			if len(rb.Changes) == 0 {
				continue
			}
			hit = true
			robotsN++
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
			for _, c := range rb.Changes {
				changed[c.URL] = true
			}
		}
		if hit {
			famsN++
		}
	}
	for _, bl := range blocks {
		b.WriteString("\n")
		for _, fam := range bl.fams {
			b.WriteString(wrapList(fam+": ", bl.names[fam], 0, width))
		}
		// Paths whose two verdicts and reasons are the same share an
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
				fmt.Fprintf(&b, "%s%s\n", head, shorten(clean(side.v.Why), width-utf8.RuneCountInString(head)))
			}
		}
	}
	b.WriteString("\n")
	if len(changed) == 0 {
		b.WriteString("No verdict changes: every robot compared reads both versions alike.\n")
	} else {
		b.WriteString(wrapWords(fmt.Sprintf("Verdicts change on %d of %s, for %s of %s.", len(changed), plural(len(rep.URLs), noun(rep.Probed)), plural(robotsN, "robot"), families(famsN)), "", width))
	}
	_, err := io.WriteString(w, cleanLines(b.String()))
	return err
}

// maxDiffPaths bounds the paths the text output lists for one change;
// -format json lists them all.
const maxDiffPaths = 8

// noun is what the report decided: paths it derived, or the URLs given.
func noun(probed bool) string {
	if probed {
		return "path"
	}
	return "URL"
}

// diffKey identifies a list of changes, so that robots with the same
// changes are shown once.
func diffKey(cs []change.URLChange) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "%s\x00%v\x00%s\x00%v\x00%s\x01", c.URL, c.Old.Allowed, c.Old.Why, c.New.Allowed, c.New.Why)
	}
	return b.String()
}

// families writes "1 family", "2 families".
func families(n int) string {
	if n == 1 {
		return "1 family"
	}
	return fmt.Sprintf("%d families", n)
}

// andList writes "a", "a and b", "a, b and c".
func andList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// wrapWords writes s in lines of at most width columns, breaking at
// spaces; the lines after the first start with indent.
func wrapWords(s, indent string, width int) string {
	var b strings.Builder
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
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
