package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/change"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/internal/probe"
	"github.com/robotskit/robots/internal/sitecheck"
	"github.com/robotskit/robots/internal/textedit"
	"github.com/robotskit/robots/internal/wire"
	"github.com/robotskit/robots/lint"
	"github.com/robotskit/robots/syntax"
)

var checkCmd = &command{
	name:  "check",
	usage: "[-format text|json|sarif] [-robots major|all] [-thorough] [-profile P] [-fail-on error|warning|info] [-timeout D] [-user-agent UA] FILE|URL|-...",
	short: "report every problem of a robots.txt, with its line and the robots it affects",
	long: `Each argument is a file, a URL (a site's robots.txt is fetched as a
checker does: up to 10 redirects), a bare host such as example.com (read
as https://), or - for standard input.

By default check reports what affects the major robot families (Google,
Bing, Yandex, RFC 9309 readers); -robots all adds first-match robots, the
1994 standard and single libraries. A problem found on several lines of
one group is one finding that lists its lines. robots explain RBnnn says
what a check finds and how to fix it.

-disable and -enable take codes (RB706), check names, sections (fetch,
file, lines, groups, rules, ext, cross), severities or all; the most
specific entry wins: -disable all -enable RB501 runs RB501 alone. A
comment on a line of its own,

  # robots:ignore RB520 staging server: no robot may crawl it

silences those checks on the next line that is neither blank nor a
comment; without a reason it silences nothing (RB314), and one that
silences nothing is reported (RB315).

The settings can live in a .robots.toml in the checked file's directory
or the nearest one above it (the search stops at a directory holding
.git), with the keys enable and disable (lists), fail-on, max-same,
robots and thorough; the flags override it:

  disable = ["RB706", "info"]
  fail-on = "warning"

Text output shows the first -max-same findings of each check, then how
many more; JSON and SARIF keep them all. It is coloured on a terminal
unless NO_COLOR is set (-color).`,
}

var fixCmd = &command{
	name:  "fix",
	usage: "[-diff] [-w] [-l] [-robots major|all] [-enable FIX,...] [-thorough] FILE|URL|-...",
	short: "print a corrected robots.txt that Google and RFC 9309 robots read as before",
	long: `With several files, give -w, -diff or -l. -diff and -w together print
the diff and write the file, as gofmt -d -w does.

By default fix changes only the lines its findings name, and the lines it
must insert; a comment line right above a line it moves goes with it. The
fixes for first-match robots that reorder or merge groups, sort a group's
rules or move lines to the canonical layout run with -robots all (robots
fmt lays out the whole file). In a file longer than the 500 KiB that
Google reads, a fix that would move a line into or out of that part is
kept out and reported.`,
}

var fmtCmd = &command{
	name:  "fmt",
	usage: "[-diff] [-w] [-l] [-sort] FILE|-...",
	short: "print a robots.txt in the canonical layout, meaning unchanged",
	long: `The rules of each group keep the order they are written in: Google and
RFC 9309 robots take the longest matching rule wherever it stands. -sort
sorts them longest first, Allow first on a tie, so that robots that take
the first matching rule read the file as Google does.

With several files, give -w, -diff or -l. -diff and -l exit 1 when a
file's layout would change. A layout that would change a verdict of
Google or RFC 9309 robots, or move a line into or out of the first
500 KiB that they read, is an error and the file is left as it is.`,
}

func init() {
	checkCmd.run = runCheck
	fixCmd.run = runFix
	fmtCmd.run = runFmt
}

// maxCheckBytes bounds what check and fix read of a file: far past the
// 500 KiB robots read, so that RB122 can say by how much a file exceeds it.
const maxCheckBytes = 8 << 20

// errReported makes a command exit 2 after it has reported its errors
// itself, one line each.
var errReported = errors.New("errors reported")

// source is a robots.txt to check: its name for messages, its bytes, and
// for a URL the checker's configuration with the fetch trace.
type source struct {
	name string
	body []byte
	cfg  lint.Config
	path string // the file to write for fix -w, "" for a URL or stdin
}

// inputs resolves the FILE|URL|- arguments of check, fix and fmt before
// anything is read or fetched: at least one, standard input at most once,
// and with write set, files only.
func inputs(e *env, args []string, write, urls bool) ([]input, error) {
	if len(args) == 0 {
		what := "a FILE, a URL, or - for standard input"
		if !urls {
			what = "a FILE, or - for standard input"
		}
		return nil, &usageError{msg: "no robots.txt: give " + what}
	}
	var ins []input
	stdin := false
	for _, a := range args {
		in, err := resolveInput(e, a)
		if err != nil {
			return nil, err
		}
		switch {
		case in.url != "" && !urls:
			return nil, &usageError{msg: fmt.Sprintf("%s is a URL: robots fmt lays out files; robots fix %s prints a corrected copy of a site's file", a, a)}
		case in.url != "" && write:
			return nil, &usageError{msg: fmt.Sprintf("-w writes files, and %s is a URL: drop -w to print the corrected file, or -diff to see the changes", a)}
		case in.path == "-" && write:
			return nil, &usageError{msg: "-w writes files, and - is standard input: drop -w to print the result"}
		case in.path == "-" && stdin:
			return nil, &usageError{msg: "- (standard input) is given twice"}
		}
		stdin = stdin || in.path == "-"
		ins = append(ins, in)
	}
	return ins, nil
}

// readSource reads a file, standard input or a URL. A URL is fetched as
// the checker fetches it (as Moderatobot does: up to 10 redirects, at most
// the -timeout), and the trace goes to the fetch checks.
func readSource(e *env, nf *netFlags, in input, thorough bool) (*source, error) {
	if in.url != "" {
		return fetchSource(e, nf, in.url, thorough)
	}
	var r io.Reader = e.stdin
	if in.path != "-" {
		f, err := os.Open(in.path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.IsDir() {
			return nil, fmt.Errorf("%s is a directory: give the robots.txt files in it", in.path)
		}
		r = f
	}
	body, err := io.ReadAll(io.LimitReader(r, maxCheckBytes+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxCheckBytes {
		return nil, fmt.Errorf("%s is larger than %d MiB; robots read only its first 500 KiB", in.name, maxCheckBytes>>20)
	}
	s := &source{name: in.name, body: body}
	if in.path != "-" {
		s.path = in.path
	}
	return s, nil
}

func fetchSource(e *env, nf *netFlags, raw string, thorough bool) (*source, error) {
	f, done, err := nf.fetcher(fetch.Google, robots.Google, "")
	if err != nil {
		return nil, err
	}
	defer done()
	stop := progress(e, "fetching "+raw)
	defer stop()
	site, err := sitecheck.Fetch(e.ctx, f, raw, sitecheck.Options{
		CaseClient: &http.Client{Timeout: *nf.timeout},
		Siblings:   thorough,
	})
	if e.ctx.Err() != nil {
		return nil, e.ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	stop()
	fmt.Fprintf(e.stderr, "robots: fetched %s: %s\n", site.URL, fetchSummary(site.Result))
	return &source{name: site.URL, body: site.Body, cfg: site.Config()}, nil
}

// fileDiagnostics is one file's findings in check -format json when
// several files are checked.
type fileDiagnostics struct {
	File        string            `json:"file"`
	Diagnostics []wire.Diagnostic `json:"diagnostics"`
}

func runCheck(e *env, args []string) error {
	fs := newFlags(e, checkCmd)
	var profile robots.Profile
	format := fs.String("format", "text", "output `format`: text, json or sarif")
	thorough := fs.Bool("thorough", false, "also run the checks marked thorough")
	set := fs.String("robots", "major", "report what affects robot families `SET`: major (Google, Bing, Yandex, RFC 9309) or all (also first-match robots, the 1994 standard, single libraries)")
	failOn := fs.String("fail-on", "error", "exit 1 when a finding of `SEVERITY` or worse is reported: error, warning or info")
	fs.Var(&profile, "profile", "report only what affects robots of profile `P` ("+profileNames()+"); draft1996 and strict1994 imply -robots all")
	var enable, disable stringsFlag
	fs.Var(&enable, "enable", "turn on the checks `LIST` (comma-separated codes like RB310, check names, sections, severities, or all); a thorough check named runs without -thorough")
	fs.Var(&disable, "disable", "turn off the checks `LIST` (as -enable); the most specific entry wins: a code beats a section, a section a severity, a severity all")
	configPath := fs.String("config", "", "read the settings from `FILE` instead of the .robots.toml of the checked file's directory or the nearest above it; none reads no file")
	maxSame := intFlag(fs, "max-same", 3, "write at most `N` findings of one check in text output, then how many more; 0 writes them all")
	color := fs.String("color", "auto", "colour the severities and codes of text output: `WHEN` auto (when standard output is a terminal and NO_COLOR is not set), always or never")
	nf := addNetFlags(fs, 10)
	if err := parseFlags(e, checkCmd, fs, args); err != nil {
		return err
	}
	if *format != "text" && *format != "json" && *format != "sarif" {
		return &usageError{msg: fmt.Sprintf("-format must be text, json or sarif, got %q", *format)}
	}
	if *set != "major" && *set != "all" {
		return &usageError{msg: fmt.Sprintf("-robots must be major or all, got %q", *set)}
	}
	if _, err := lint.ParseSeverity(*failOn); err != nil {
		return &usageError{msg: "-fail-on: " + errorText(err)}
	}
	if *maxSame < 0 {
		return &usageError{msg: fmt.Sprintf("-max-same must be 0 (no limit) or more, got %d", *maxSame)}
	}
	var colored bool
	switch *color {
	case "auto":
		colored = e.outTTY && os.Getenv("NO_COLOR") == ""
	case "always":
		colored = true
	case "never":
	default:
		return &usageError{msg: fmt.Sprintf("-color must be auto, always or never, got %q", *color)}
	}
	enables, disables := splitList(enable), splitList(disable)
	flagSel := lint.Config{Enable: enables, Disable: disables}
	if err := flagSel.Validate(); err != nil {
		var se *lint.SelectionError
		if errors.As(err, &se) && !se.Both {
			return &usageError{msg: "-" + se.List + ": " + selectionText(se)}
		}
		return &usageError{msg: errorText(err)}
	}
	if err := nf.check(); err != nil {
		return err
	}
	ins, err := inputs(e, fs.Args(), false, true)
	if err != nil {
		return err
	}
	// settings returns how to check in: the flags over the .robots.toml
	// that applies to it.
	loaded := map[string]*checkSettings{}
	settings := func(in input) (*checkRun, error) {
		var file *checkSettings
		path := *configPath
		if path == "" {
			dir := "."
			if in.path != "" && in.path != "-" {
				dir = filepath.Dir(in.path)
			}
			if path, err = findConfig(dir); err != nil {
				return nil, err
			}
		}
		if path != "" && path != "none" {
			if file = loaded[path]; file == nil {
				if file, err = loadConfig(path); err != nil {
					return nil, err
				}
				loaded[path] = file
			}
		}
		if file == nil {
			file = &checkSettings{}
		}
		r := &checkRun{maxSame: *maxSame}
		r.cfg.Thorough = *thorough
		if file.Thorough != nil && !isSet(fs, "thorough") {
			r.cfg.Thorough = *file.Thorough
		}
		robotsSet := *set
		if file.Robots != nil && !isSet(fs, "robots") {
			robotsSet = *file.Robots
		}
		// A profile of first-match robots or of the 1994 standard asks
		// for findings that only -robots all computes.
		r.cfg.AllRobots = robotsSet == "all" || isSet(fs, "profile") && !lint.ProfileFamily(profile).Major()
		sev := *failOn
		if file.FailOn != nil && !isSet(fs, "fail-on") {
			sev = *file.FailOn
		}
		r.threshold, _ = lint.ParseSeverity(sev)
		if file.MaxSame != nil && !isSet(fs, "max-same") {
			r.maxSame = *file.MaxSame
		}
		r.cfg.Enable = mergeSelection(file.Enable, disables, enables)
		r.cfg.Disable = mergeSelection(file.Disable, enables, disables)
		return r, nil
	}
	var (
		files   []fileDiagnostics
		sarif   *wire.SARIF
		finding bool
		r       *checkRun // the settings of the input read last
	)
	failed := forEachSource(e, checkCmd, ins, func(in input) (*source, error) {
		var err error
		if r, err = settings(in); err != nil {
			return nil, err
		}
		return readSource(e, nf, in, r.cfg.Thorough)
	}, func(src *source) error {
		src.cfg.Thorough, src.cfg.AllRobots = r.cfg.Thorough, r.cfg.AllRobots
		src.cfg.Enable, src.cfg.Disable = r.cfg.Enable, r.cfg.Disable
		stop := progress(e, "checking "+src.name)
		f := syntax.Parse(src.name, src.body)
		ds, err := lint.RunContext(e.ctx, f, &src.cfg)
		stop()
		if err != nil {
			return err
		}
		ds = lint.Fold(ds)
		if isSet(fs, "profile") {
			ds = lint.ForProfile(ds, profile)
		}
		for _, d := range ds {
			finding = finding || d.Check.Severity >= r.threshold
		}
		switch *format {
		case "json":
			files = append(files, fileDiagnostics{File: src.name, Diagnostics: wire.Diagnostics(ds)})
		case "sarif":
			log := wire.NewSARIF(src.name, buildVersion(), ds)
			if sarif == nil {
				sarif = log
			} else {
				run := &sarif.Runs[0]
				run.Results = append(run.Results, log.Runs[0].Results...)
				run.Artifacts = append(run.Artifacts, log.Runs[0].Artifacts...)
			}
		default:
			var b strings.Builder
			opt := lint.TextOptions{MaxSame: r.maxSame, SameNote: "-max-same 0 shows them all", Color: colored}
			if err := lint.WriteTextWith(&b, f, ds, opt); err != nil {
				return err
			}
			out := b.String()
			if !colored {
				// WriteTextWith escapes what came from the file; this is a
				// second guard, which would escape the colours too.
				out = cleanLines(out)
			}
			if _, err := io.WriteString(e.stdout, out); err != nil {
				return err
			}
			if len(ds) > 0 {
				name := ""
				if len(ins) > 1 {
					name = clean(src.name) + ": "
				}
				fmt.Fprintf(e.stderr, "%s%s\n", name, tally(ds))
			}
		}
		return nil
	})
	if failed != nil && !errors.Is(failed, errReported) {
		return failed
	}
	switch {
	case *format == "json" && len(ins) == 1 && len(files) == 1:
		err = writeJSON(e.stdout, wire.CheckResponse{Diagnostics: files[0].Diagnostics})
	case *format == "json" && len(ins) > 1:
		if files == nil {
			files = []fileDiagnostics{}
		}
		err = writeJSON(e.stdout, struct {
			Files []fileDiagnostics `json:"files"`
		}{files})
	case *format == "sarif" && sarif != nil:
		err = writeJSON(e.stdout, sarif)
	}
	switch {
	case err != nil:
		return err
	case failed != nil:
		return failed
	case finding:
		return errFinding
	}
	return nil
}

// checkRun is how robots check checks one input: the flags over the
// settings of its .robots.toml.
type checkRun struct {
	cfg       lint.Config // Thorough, AllRobots, Enable and Disable
	threshold lint.Severity
	maxSame   int
}

// splitList splits the values of a repeatable flag at commas.
func splitList(vs []string) []string {
	var out []string
	for _, v := range vs {
		for _, n := range strings.Split(v, ",") {
			if n = strings.TrimSpace(n); n != "" {
				out = append(out, n)
			}
		}
	}
	return out
}

// forEachSource reads each input with read and hands it to do. With one
// input, an error ends the command; with several, it is reported on
// standard error, one line, and the next input follows, as gofmt does,
// and forEachSource returns errReported at the end. An interruption ends
// it at once.
func forEachSource(e *env, cmd *command, ins []input, read func(input) (*source, error), do func(*source) error) error {
	failed := false
	for _, in := range ins {
		src, err := read(in)
		if err == nil && e.ctx.Err() == nil {
			err = do(src)
		}
		switch {
		case e.ctx.Err() != nil:
			return e.ctx.Err()
		case err == nil:
		case len(ins) == 1:
			return err
		default:
			msg := errorText(err)
			if !strings.Contains(msg, in.name) {
				msg = clean(in.name) + ": " + msg
			}
			fmt.Fprintf(e.stderr, "robots %s: %s\n", cmd.name, msg)
			failed = true
		}
	}
	if failed {
		return errReported
	}
	return nil
}

// cleanLines makes every line of s safe for a terminal (see clean).
func cleanLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		body := strings.TrimSuffix(l, "\n")
		if c := clean(body); c != body {
			lines[i] = c + l[len(body):]
		}
	}
	return strings.Join(lines, "")
}

// tally says how many findings of each severity there are.
func tally(ds []lint.Diagnostic) string {
	var n [4]int
	for _, d := range ds {
		n[d.Check.Severity]++
	}
	return fmt.Sprintf("%s, %s, %d info", plural(n[lint.Error], "error"), plural(n[lint.Warning], "warning"), n[lint.Info])
}

// rewrite is what fix and fmt do with a file's new text: print it, its
// diff, or its name, and write it over the file.
type rewrite struct {
	diff, write, list bool
	label             string // "fixed" or "formatted", for the diff's header
}

// modes checks the output flags for the number of inputs.
func (rw *rewrite) check(n int) error {
	if n > 1 && !rw.diff && !rw.write && !rw.list {
		return &usageError{msg: fmt.Sprintf("%d files: give -w to write them, -diff to see the changes or -l to list the files that would change", n)}
	}
	return nil
}

// apply prints or writes out, the new text of src, and reports whether it
// differs from the old.
func (rw *rewrite) apply(e *env, src *source, out []byte) (changed bool, err error) {
	changed = !bytes.Equal(out, src.body)
	if rw.list && changed {
		if _, err := fmt.Fprintln(e.stdout, clean(src.name)); err != nil {
			return changed, err
		}
	}
	if rw.diff && changed {
		note, a, b := rw.diffTexts(src.body, out)
		d := note + textedit.Unified(src.name, src.name+" ("+rw.label+")", a, b)
		if _, err := io.WriteString(e.stdout, d); err != nil {
			return changed, err
		}
	}
	if rw.write && changed {
		if err := writeFileAtomic(src.path, out); err != nil {
			return changed, err
		}
	}
	if !rw.list && !rw.diff && !rw.write {
		_, err = e.stdout.Write(out)
	}
	return changed, err
}

// writeFileAtomic replaces the file at path with data so that a crash
// leaves either the old text or the new one, never a file cut short: it
// writes a temporary file in the same directory, syncs it, gives it the
// old file's permissions and renames it over the old one (rename(2) is
// atomic within a file system). When path is a symbolic link, the file it
// leads to is replaced and the link stays a link.
func writeFileAtomic(path string, data []byte) (err error) {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	mode := os.FileMode(0o666)
	if st, err := os.Stat(target); err == nil {
		mode = st.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Chmod(mode); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), target)
}

// diffTexts returns the texts to diff for the old text a and the new text
// b, and a note to print above the diff. When only the line endings
// change, the texts as they are, and a note that says so. When the line
// endings change too, or a text ends its lines with a bare CR (which diff
// does not read as the end of a line), both with LF endings, so that the
// diff shows the lines that change, and a note that says how the endings
// differ.
func (rw *rewrite) diffTexts(a, b []byte) (note, x, y string) {
	toLF := func(s []byte) string {
		s = bytes.ReplaceAll(s, []byte("\r\n"), []byte("\n"))
		return string(bytes.ReplaceAll(s, []byte("\r"), []byte("\n")))
	}
	bareCR := func(s []byte) bool {
		for i, c := range s {
			if c == '\r' && (i+1 == len(s) || s[i+1] != '\n') {
				return true
			}
		}
		return false
	}
	crA, crB := bytes.IndexByte(a, '\r') >= 0, bytes.IndexByte(b, '\r') >= 0
	switch {
	case onlyLineEndings(a, b):
		return "# only line endings change: CRLF or CR → LF\n", string(a), string(b)
	case crA && !crB:
		return "# line endings change too: CRLF or CR → LF; the diff compares the lines, both read with LF endings\n", toLF(a), string(b)
	case bareCR(a) || bareCR(b):
		return "# the file ends lines with CR; the diff compares the lines, both read with LF endings\n", toLF(a), toLF(b)
	}
	return "", string(a), string(b)
}

// onlyLineEndings reports whether a and b differ only in their line
// endings.
func onlyLineEndings(a, b []byte) bool {
	norm := func(s []byte) []byte {
		s = bytes.ReplaceAll(s, []byte("\r\n"), []byte("\n"))
		return bytes.ReplaceAll(s, []byte("\r"), []byte("\n"))
	}
	return !bytes.Equal(a, b) && bytes.Equal(norm(a), norm(b))
}

func runFix(e *env, args []string) error {
	fs := newFlags(e, fixCmd)
	rw := &rewrite{label: "fixed"}
	fs.BoolVar(&rw.diff, "diff", false, "print a unified diff instead of the corrected file")
	fs.BoolVar(&rw.write, "w", false, "write the corrected file over FILE (a temporary file renamed over it: never half written; its mode kept, a link's target written)")
	fs.BoolVar(&rw.list, "l", false, "list the files that the fix would change")
	thorough := fs.Bool("thorough", false, "also apply the fixes of the checks marked thorough")
	set := fs.String("robots", "major", "fix for robot families `SET`: major (Google, Bing, Yandex, RFC 9309) or all (also the fixes for first-match robots that reorder or merge groups, sort rules or move lines to the canonical layout)")
	var enable stringsFlag
	fs.Var(&enable, "enable", "also apply the intent fixes `FIX` (fix IDs like FX25, check codes or names, comma-separated, or all); they change what some robots do")
	nf := addNetFlags(fs, 10)
	if err := parseFlags(e, fixCmd, fs, args); err != nil {
		return err
	}
	if *set != "major" && *set != "all" {
		return &usageError{msg: fmt.Sprintf("-robots must be major or all, got %q", *set)}
	}
	var names []string
	for _, v := range enable {
		for _, n := range strings.Split(v, ",") {
			if n = strings.TrimSpace(n); n != "" {
				if !knownFix(n) {
					return &usageError{msg: fmt.Sprintf("-enable: no fix or check %q", n)}
				}
				names = append(names, n)
			}
		}
	}
	if err := nf.check(); err != nil {
		return err
	}
	ins, err := inputs(e, fs.Args(), rw.write, true)
	if err != nil {
		return err
	}
	if err := rw.check(len(ins)); err != nil {
		return err
	}
	changedAny := false
	err = forEachSource(e, fixCmd, ins, func(in input) (*source, error) {
		return readSource(e, nf, in, false)
	}, func(src *source) error {
		cfg := src.cfg
		cfg.Fetch, cfg.Thorough, cfg.AllRobots = nil, *thorough, *set == "all"
		stop := progress(e, "fixing "+src.name)
		res := lint.Fix(src.body, &lint.FixOptions{Config: cfg, Enable: names})
		stop()
		for _, r := range res.Refused {
			d := &r.Difference
			switch {
			case r.Reason != "" && d.URL != "":
				fmt.Fprintf(e.stderr, "%s:%d: kept: %s %s: %s (it would change %s's verdict for %s under %v)\n",
					clean(src.name), r.Line, r.Fix.ID, r.Check.Code, r.Reason, d.Agent, clean(d.URL), d.Profile)
			case r.Reason != "":
				fmt.Fprintf(e.stderr, "%s:%d: kept: %s %s: %s\n", clean(src.name), r.Line, r.Fix.ID, r.Check.Code, r.Reason)
			default:
				fmt.Fprintf(e.stderr, "%s:%d: kept: %s %s would change %s's verdict for %s under %v\n",
					clean(src.name), r.Line, r.Fix.ID, r.Check.Code, d.Agent, clean(probe.Shown(d.URL)), d.Profile)
			}
		}
		var skipped []string
		fixNames := func(ds []lint.Diagnostic) []string {
			var out []string
			for _, d := range ds {
				if k := d.Fix.ID + " (" + d.Check.Code + ")"; !slices.Contains(out, k) {
					out = append(out, k)
				}
			}
			return out
		}
		for _, d := range res.Skipped {
			if k := d.Fix.ID + " (" + d.Check.Code + ")"; !slices.Contains(skipped, k) {
				skipped = append(skipped, k)
				fmt.Fprintf(e.stderr, "%s: not applied: intent fix %s changes what robots do; apply it with -enable %s (or -enable all)\n", clean(src.name), k, d.Fix.ID)
			}
		}
		for _, k := range fixNames(res.Deferred) {
			fmt.Fprintf(e.stderr, "%s: not applied: layout fix %s moves lines for first-match robots; apply it with -robots all\n", clean(src.name), k)
		}
		if len(names) > 0 && res.Changed != nil {
			// The verdicts the intent fixes change, per robot family, as
			// robots diff shows them, before anything is written.
			fmt.Fprintf(e.stderr, "%s: the intent fixes change what robots do:\n", clean(src.name))
			rep := change.Compare(src.body, res.Output, &change.Options{All: *set == "all"})
			if err := writeDiffText(e.stderr, src.name, src.name+" (fixed)", rep, false, false, 0); err != nil {
				return err
			}
		}
		changed, err := rw.apply(e, src, res.Output)
		changedAny = changedAny || changed
		return err
	})
	switch {
	case err != nil:
		return err
	case changedAny:
		return errFinding
	}
	return nil
}

// knownFix reports whether n names a fix ID, a check or "all".
func knownFix(n string) bool {
	if n == "all" || lint.Lookup(n) != nil {
		return true
	}
	for _, c := range lint.Checks() {
		if strings.EqualFold(c.Fix, n) {
			return true
		}
	}
	// The fixes of the catalogue (docs/checks.md) are FX01 to FX42.
	id, ok := strings.CutPrefix(strings.ToUpper(n), "FX")
	k, err := strconv.Atoi(id)
	return ok && len(id) == 2 && err == nil && k >= 1 && k <= 38
}

func verdict(allowed bool) string {
	if allowed {
		return "allowed"
	}
	return "disallowed"
}

func runFmt(e *env, args []string) error {
	fs := newFlags(e, fmtCmd)
	rw := &rewrite{label: "formatted"}
	fs.BoolVar(&rw.diff, "diff", false, "print a unified diff instead of the formatted file; exit 1 when there is one")
	fs.BoolVar(&rw.write, "w", false, "write the formatted file over FILE (a temporary file renamed over it: never half written; its mode kept, a link's target written)")
	fs.BoolVar(&rw.list, "l", false, "list the files whose layout would change; exit 1 when there is one")
	var opt lint.FormatOptions
	fs.BoolVar(&opt.SortRules, "sort", false, "sort each group's rules longest first, Allow first on a tie, for first-match robots (default: keep the order written)")
	if err := parseFlags(e, fmtCmd, fs, args); err != nil {
		return err
	}
	ins, err := inputs(e, fs.Args(), rw.write, false)
	if err != nil {
		return err
	}
	if err := rw.check(len(ins)); err != nil {
		return err
	}
	changedAny := false
	err = forEachSource(e, fmtCmd, ins, func(in input) (*source, error) {
		return readSource(e, nil, in, false)
	}, func(src *source) error {
		stop := progress(e, "formatting "+src.name)
		out, err := lint.FormatWith(src.body, opt)
		stop()
		if err != nil {
			return err
		}
		changed, err := rw.apply(e, src, out)
		changedAny = changedAny || changed
		return err
	})
	switch {
	case err != nil:
		return err
	case changedAny && (rw.diff || rw.list):
		return errFinding
	}
	return nil
}
