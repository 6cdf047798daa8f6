package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/internal/textedit"
	"github.com/robotskit/robots/internal/wire"
	"github.com/robotskit/robots/lint"
	"github.com/robotskit/robots/syntax"
)

var checkCmd = &command{
	name:  "check",
	usage: "[-format text|json|sarif] [-thorough] [-profile P] [-fail-on error|warning|info] [-timeout D] [-user-agent UA] FILE|URL|-",
	short: "report every problem of a robots.txt, with its line and the robots it affects",
}

var fixCmd = &command{
	name:  "fix",
	usage: "[-diff] [-w] [-enable FIX,...] [-thorough] FILE|URL|-",
	short: "print a corrected robots.txt that Google and RFC 9309 robots read as before",
}

var fmtCmd = &command{
	name:  "fmt",
	usage: "[-diff] [-w] FILE|-",
	short: "print a robots.txt in the canonical layout, meaning unchanged",
}

func init() {
	checkCmd.run = runCheck
	fixCmd.run = runFix
	fmtCmd.run = runFmt
}

// maxCheckBytes bounds what check and fix read of a file: far past the
// 500 KiB robots read, so that RB122 can say by how much a file exceeds it.
const maxCheckBytes = 8 << 20

// source is a robots.txt to check: its name for messages, its bytes, and
// for a URL the checker's configuration with the fetch trace.
type source struct {
	name string
	body []byte
	cfg  lint.Config
	path string // the file to write for fix -w, "" for a URL or stdin
}

// readSource reads FILE, "-" or a URL. A URL is fetched as the checker
// fetches it (checker-rules §A): up to 10 redirects, at most the -timeout,
// and the trace goes to the §A checks.
func readSource(e *env, nf *netFlags, arg string, thorough bool) (*source, error) {
	if isURL(arg) {
		return fetchSource(e, nf, arg, thorough)
	}
	var r io.Reader = e.stdin
	name := "<stdin>"
	if arg != "-" {
		f, err := os.Open(arg)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r, name = f, arg
	}
	body, err := io.ReadAll(io.LimitReader(r, maxCheckBytes+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxCheckBytes {
		return nil, fmt.Errorf("%s is larger than %d MiB; robots read only its first 500 KiB", name, maxCheckBytes>>20)
	}
	s := &source{name: name, body: body}
	if arg != "-" {
		s.path = arg
	}
	return s, nil
}

func fetchSource(e *env, nf *netFlags, raw string, thorough bool) (*source, error) {
	f, done, err := nf.fetcher(fetch.Google, robots.Google, "")
	if err != nil {
		return nil, err
	}
	defer done()
	res, err := f.Fetch(e.ctx, raw)
	if err != nil {
		return nil, err
	}
	tr := wire.LintFetch(res)
	if res.Status == http.StatusNotFound {
		tr.CaseVariant = wire.ProbeCaseVariants(e.ctx, &http.Client{Timeout: *nf.timeout}, res.URL)
	}
	if thorough {
		tr.Siblings = wire.FetchSiblings(e.ctx, f, res.URL)
	}
	fmt.Fprintf(e.stderr, "robots: %s: %s\n", res.URL, fetchSummary(res))
	return &source{name: res.URL, body: res.Body, cfg: lint.Config{URL: res.URL, Fetch: tr}}, nil
}

func runCheck(e *env, args []string) error {
	fs := newFlags(e, checkCmd)
	var profile robots.Profile
	format := fs.String("format", "text", "output `format`: text, json or sarif")
	thorough := fs.Bool("thorough", false, "also run the checks marked thorough")
	failOn := fs.String("fail-on", "error", "exit 1 when a finding of `SEVERITY` or worse is reported: error, warning or info")
	fs.Var(&profile, "profile", "report only what affects robots of profile `P` ("+profileNames()+"); default: every robot")
	nf := addNetFlags(fs, 10)
	if err := parseFlags(e, checkCmd, fs, args); err != nil {
		return err
	}
	if *format != "text" && *format != "json" && *format != "sarif" {
		return &usageError{msg: fmt.Sprintf("-format must be text, json or sarif, got %q", *format)}
	}
	threshold, err := lint.ParseSeverity(*failOn)
	if err != nil {
		return &usageError{msg: "-fail-on: " + err.Error()}
	}
	if fs.NArg() != 1 {
		return &usageError{msg: "give one FILE, URL or - for standard input"}
	}
	src, err := readSource(e, nf, fs.Arg(0), *thorough)
	if err != nil {
		return err
	}
	src.cfg.Thorough = *thorough
	f := syntax.Parse(src.name, src.body)
	ds := lint.Run(f, &src.cfg)
	if isSet(fs, "profile") {
		ds = wire.ForProfile(ds, profile)
	}
	switch *format {
	case "json":
		err = writeJSON(e.stdout, wire.CheckResponse{Diagnostics: wire.Diagnostics(ds)})
	case "sarif":
		err = writeJSON(e.stdout, wire.NewSARIF(src.name, version, ds))
	default:
		err = lint.WriteText(e.stdout, f, ds)
		if err == nil && len(ds) > 0 {
			fmt.Fprintf(e.stderr, "%s\n", tally(ds))
		}
	}
	if err != nil {
		return err
	}
	for _, d := range ds {
		if d.Check.Severity >= threshold {
			return errFinding
		}
	}
	return nil
}

// tally says how many findings of each severity there are.
func tally(ds []lint.Diagnostic) string {
	var n [4]int
	for _, d := range ds {
		n[d.Check.Severity]++
	}
	return fmt.Sprintf("%s, %s, %d info", plural(n[lint.Error], "error"), plural(n[lint.Warning], "warning"), n[lint.Info])
}

func runFix(e *env, args []string) error {
	fs := newFlags(e, fixCmd)
	diff := fs.Bool("diff", false, "print a unified diff instead of the corrected file")
	write := fs.Bool("w", false, "write the corrected file over FILE")
	thorough := fs.Bool("thorough", false, "also apply the fixes of the checks marked thorough")
	var enable stringsFlag
	fs.Var(&enable, "enable", "also apply the intent fixes `FIX` (fix IDs like FX25, check codes or names, comma-separated, or all); they change what some robots do")
	nf := addNetFlags(fs, 10)
	if err := parseFlags(e, fixCmd, fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return &usageError{msg: "give one FILE, URL or - for standard input"}
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
	src, err := readSource(e, nf, fs.Arg(0), false)
	if err != nil {
		return err
	}
	if *write && src.path == "" {
		return &usageError{msg: "-w needs a FILE"}
	}
	cfg := src.cfg
	cfg.Fetch, cfg.Thorough = nil, *thorough
	res := lint.Fix(src.body, &lint.FixOptions{Config: cfg, Enable: names})
	for _, r := range res.Refused {
		fmt.Fprintf(e.stderr, "%s:%d: kept: %s %s would change %s's verdict for %s under %v\n",
			src.name, r.Line, r.Fix.ID, r.Check.Code, r.Difference.Agent, r.Difference.URL, r.Difference.Profile)
	}
	skipped := map[string]bool{}
	for _, d := range res.Skipped {
		skipped[d.Fix.ID+" ("+d.Check.Code+")"] = true
	}
	for k := range skipped {
		fmt.Fprintf(e.stderr, "%s: not applied: intent fix %s changes what robots do; enable it with -enable\n", src.name, k)
	}
	if c := res.Changed; c != nil {
		fmt.Fprintf(e.stderr, "%s: the intent fixes change verdicts, e.g. %s for %s under %v: %s → %s\n",
			src.name, c.URL, c.Agent, c.Profile, verdict(c.Before), verdict(c.After))
	}
	changed := string(res.Output) != string(src.body)
	switch {
	case *diff:
		_, err = io.WriteString(e.stdout, textedit.Unified(src.name, src.name+" (fixed)", string(src.body), string(res.Output)))
	case *write:
		if changed {
			err = os.WriteFile(src.path, res.Output, 0o666)
		}
	default:
		_, err = e.stdout.Write(res.Output)
	}
	if err != nil {
		return err
	}
	if changed {
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
	// The fixes of checker-rules §H are FX01 to FX38.
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
	diff := fs.Bool("diff", false, "print a unified diff instead of the formatted file")
	write := fs.Bool("w", false, "write the formatted file over FILE")
	if err := parseFlags(e, fmtCmd, fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 || isURL(fs.Arg(0)) {
		return &usageError{msg: "give one FILE or - for standard input"}
	}
	src, err := readSource(e, nil, fs.Arg(0), false)
	if err != nil {
		return err
	}
	if *write && src.path == "" {
		return &usageError{msg: "-w needs a FILE"}
	}
	out, err := lint.Format(src.body)
	if err != nil {
		return err
	}
	switch {
	case *diff:
		_, err = io.WriteString(e.stdout, textedit.Unified(src.name, src.name+" (formatted)", string(src.body), string(out)))
	case *write:
		if string(out) != string(src.body) {
			err = os.WriteFile(src.path, out, 0o666)
		}
	default:
		_, err = e.stdout.Write(out)
	}
	return err
}
