package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	neturl "net/url"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/internal/sniff"
	"github.com/robotskit/robots/syntax"
	"github.com/robotskit/robots/usage"
)

var assertCmd = &command{
	name:  "assert",
	usage: "[-format text|json|junit|sarif] [-v] [-profile P] -file PATH|-url URL SPEC...",
	short: "check that a robots.txt says what spec files expect of it",
	long: `Each SPEC file holds assertions, one a line:

  ROBOT allow PATH
  ROBOT disallow PATH
  ROBOT usage PURPOSE yes|no|none PATH

ROBOT is a known robot (robots agents lists them; it brings its profile,
token chain, quirks and, with -url, its status rules and User-Agent),
agent:TOKEN for a plain product token, or * for a robot that obeys only
the "*" group. PURPOSE is search, ai-input or ai-train, and the usage
verdict is robots usage's from the file alone. PATH starts with "/"; with
-url it may also be a full URL of the site. Fields are separated by white
space, so a path cannot hold a space: percent-encode it (%20). Verbs,
purposes and values may be written in any case; "#" starts a comment to
the end of the line, and blank lines are skipped. "-" reads a SPEC from
standard input. A spec holds at most 1 MiB and 100000 lines.

Each line is checked as that robot reads the file, the verdict robots
test and robots usage give. The text output names every failing line with
the robots.txt line that decided (-v: every line), then a count; -format
json, junit (JUnit XML) and sarif (SARIF 2.1.0, for GitHub code scanning)
are for machines. Every error of the specs is reported, as
SPEC:LINE:COLUMN: message, before anything is fetched.`,
	exitCodes: `Exit codes:
  0    every assertion holds
  1    some assertion fails
  2    a usage error, an error in a spec (an unknown robot, verb or
       purpose, a missing path), or a file that could not be read
  130  interrupted
`,
}

func init() { assertCmd.run = runAssert }

// The bounds of a spec file: larger files are an error, not a long wait.
const (
	maxSpecBytes = 1 << 20
	maxSpecLines = 100_000
)

// assertFormats are the -format values of robots assert.
var assertFormats = []string{"text", "json", "junit", "sarif"}

func runAssert(e *env, args []string) error {
	fs := newFlags(e, assertCmd)
	var (
		profile robots.Profile
		file    = fs.String("file", "", "check the robots.txt file at `PATH` (- for standard input)")
		url     = fs.String("url", "", "fetch robots.txt for the site of `URL`, as each robot does, and check it")
		format  = fs.String("format", "text", "output `format`: text, json, junit or sarif")
		verbose = fs.Bool("v", false, "also list the assertions that hold (text output)")
	)
	fs.Var(&profile, "profile", "read the file as `P` instead of each robot's profile: "+profileNames())
	nf := addNetFlags(fs, 0)
	if err := parseFlags(e, assertCmd, fs, args); err != nil {
		return err
	}
	if !contains(assertFormats, *format) {
		return &usageError{msg: fmt.Sprintf("-format must be text, json, junit or sarif, got %q", *format)}
	}
	switch {
	case *file == "" && *url == "":
		return &usageError{msg: "no robots.txt: give -file PATH or -url URL"}
	case *file != "" && *url != "":
		return &usageError{msg: "-file and -url both give the robots.txt: give one"}
	case fs.NArg() == 0:
		return &usageError{msg: "no SPEC file: give the files of assertions to check (- for standard input)"}
	}
	names := fs.Args()
	stdin := *file == "-"
	for _, n := range names {
		if n != "-" {
			continue
		}
		if stdin {
			return &usageError{msg: "standard input holds one file: give - once, for -file or for one SPEC"}
		}
		stdin = true
	}
	site := ""
	if *url != "" {
		var err error
		if site, err = fetchURL(e, *url); err != nil {
			return err
		}
	}
	datas := make([][]byte, len(names))
	shown := make([]string, len(names))
	for i, n := range names {
		var err error
		if datas[i], err = readSpec(e, n); err != nil {
			return err
		}
		shown[i] = specName(n)
	}
	spec, err := parseAssertSpecs(shown, datas, profile, isSet(fs, "profile"))
	if err != nil {
		return reportSpecErrors(e, assertCmd, err)
	}
	for _, n := range spec.notes {
		fmt.Fprintf(e.stderr, "robots: %s\n", n)
	}
	var target *assertTarget
	if site != "" {
		urls, err := spec.urlsFor(site)
		if err != nil {
			return reportSpecErrors(e, assertCmd, err)
		}
		if target, err = fetchForAssertions(e, nf, spec, site, urls); err != nil {
			return err
		}
	} else {
		src, truncated, err := readLimited(e, *file)
		if err != nil {
			return err
		}
		name := *file
		if name == "-" {
			name = "<stdin>"
		}
		if truncated {
			fmt.Fprintf(e.stderr, "robots: %s is larger than %d KiB: like Google, robots read only its first %d KiB\n", name, robots.MaxBytes>>10, robots.MaxBytes>>10)
		}
		if enc := sniff.Wide(src); enc != "" && sniff.Binary(src) == "" {
			// As robots test says: robots read UTF-8 (RFC 9309 §2.3).
			fmt.Fprintf(e.stderr, "robots: %s is %s: robots read UTF-8 and find no rules in it (robots check: RB202; robots fix -enable FX02 transcodes it)\n", name, enc)
		}
		target = &assertTarget{name: name, file: syntax.Parse(name, src), size: servedSize(src, truncated)}
	}
	results := target.checkAll(spec)
	switch *format {
	case "json":
		err = writeAssertJSON(e.stdout, target.name, results)
	case "junit":
		err = writeAssertJUnit(e.stdout, results)
	case "sarif":
		err = writeAssertSARIF(e.stdout, target, results)
	default:
		err = writeAssertText(e.stdout, results, *verbose)
	}
	if err != nil {
		return err
	}
	for _, r := range results {
		if !r.Hold {
			return errFinding
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// specName is how messages name the SPEC argument n.
func specName(n string) string {
	if n == "-" {
		return "<stdin>"
	}
	return n
}

// readSpec reads the SPEC file n ("-" is standard input), at most
// maxSpecBytes: a larger one is an error that says the bound.
func readSpec(e *env, n string) ([]byte, error) {
	var r io.Reader = e.stdin
	if n != "-" {
		f, err := os.Open(n)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxSpecBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", specName(n), err)
	}
	if len(data) > maxSpecBytes {
		return nil, fmt.Errorf("%s: larger than 1 MiB: a spec holds at most 1 MiB and %d lines", specName(n), maxSpecLines)
	}
	return data, nil
}

// assertSpecError is every error of a set of spec files, each
// "SPEC:LINE:COLUMN: message" (COLUMN counts Unicode code points from 1,
// as robots check does), in file and line order.
type assertSpecError struct{ errs []string }

func (e *assertSpecError) Error() string { return strings.Join(e.errs, "\n") }

// reportSpecErrors prints the errors of the specs on standard error, one
// a line, and makes the command exit 2.
func reportSpecErrors(e *env, cmd *command, err error) error {
	var se *assertSpecError
	if !errors.As(err, &se) {
		return err
	}
	for _, m := range se.errs {
		fmt.Fprintf(e.stderr, "%s\n", clean(m))
	}
	fmt.Fprintf(e.stderr, "robots %s: %s in the spec\n", cmd.name, plural(len(se.errs), "error"))
	return errReported
}

// assertSpec is the assertions of one or more spec files, in file and
// line order, each with its robot resolved. parseAssertSpecs makes it;
// robots assert and robots watch check it against a robots.txt.
type assertSpec struct {
	assertions []assertion
	// notes say how a value was read, for standard error: a product token
	// read from "agent:Googlebot/2.1", as robots test -agent notes it.
	notes []string
}

// assertion is one line of a spec.
type assertion struct {
	spec string // the spec file as messages name it
	line int    // 1-based
	// text is the line as its fields say it: robot and path as written,
	// verb, purpose and value in lower case, one space between fields.
	text    string
	robot   string // as written
	verb    string // "allow", "disallow" or "usage"
	purpose robots.Purpose
	// want is "allowed" or "disallowed" for allow and disallow lines, the
	// usage value "yes", "no" or "none" for usage lines.
	want    string
	path    string // as written
	pathCol int    // the column of path, for errors about it
	rd      reader
	// registry is the registry name of the robot, for its fetch policy
	// and User-Agent; "" for agent:TOKEN and "*".
	registry string
}

// parseAssertSpecs parses spec files: names[i] is the name messages give
// the file whose bytes are datas[i]. A registry robot reads the file with
// its own profile, unless profileSet, when every robot reads it as
// profile (robots test -profile). The error, an *assertSpecError, lists
// every error of every file (an unknown robot, verb or purpose, a missing
// or extra field, a path that is not one, a file over maxSpecBytes or
// maxSpecLines); a set of files that holds no assertion is an error too.
func parseAssertSpecs(names []string, datas [][]byte, profile robots.Profile, profileSet bool) (*assertSpec, error) {
	spec := &assertSpec{}
	var errs []string
	for i, data := range datas {
		name := names[i]
		if len(data) > maxSpecBytes {
			errs = append(errs, fmt.Sprintf("%s: larger than 1 MiB: a spec holds at most 1 MiB and %d lines", name, maxSpecLines))
			continue
		}
		if n := bytes.Count(data, []byte("\n")); n > maxSpecLines || n == maxSpecLines && !bytes.HasSuffix(data, []byte("\n")) {
			errs = append(errs, fmt.Sprintf("%s: more than %d lines: a spec holds at most 1 MiB and %d lines", name, maxSpecLines, maxSpecLines))
			continue
		}
		data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark
		for n, line := range strings.Split(string(data), "\n") {
			a, err := parseAssertLine(name, n+1, line, profile, profileSet, &spec.notes)
			switch {
			case err != "":
				errs = append(errs, err)
			case a != nil:
				spec.assertions = append(spec.assertions, *a)
			}
		}
	}
	if len(errs) == 0 && len(spec.assertions) == 0 {
		errs = append(errs, fmt.Sprintf("%s: no assertion: a line is ROBOT allow|disallow PATH or ROBOT usage PURPOSE yes|no|none PATH", strings.Join(names, ", ")))
	}
	if len(errs) > 0 {
		return nil, &assertSpecError{errs}
	}
	return spec, nil
}

// specField is one field of a spec line and its column.
type specField struct {
	s   string
	col int
}

// specFields splits line into fields at white space (space, tab,
// vertical tab, form feed, carriage return), each with its column in
// Unicode code points from 1.
func specFields(line string) []specField {
	var out []specField
	start := -1
	for i := 0; i <= len(line); i++ {
		blank := i == len(line) || strings.IndexByte(" \t\v\f\r", line[i]) >= 0
		switch {
		case blank && start >= 0:
			out = append(out, specField{line[start:i], utf8.RuneCountInString(line[:start]) + 1})
			start = -1
		case !blank && start < 0:
			start = i
		}
	}
	return out
}

// parseAssertLine parses line n of the spec file name: nil for a blank or
// comment line; an error message "NAME:N:COL: …" for a bad one.
func parseAssertLine(name string, n int, line string, profile robots.Profile, profileSet bool, notes *[]string) (*assertion, string) {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	fields := specFields(line)
	if len(fields) == 0 {
		return nil, ""
	}
	end := utf8.RuneCountInString(strings.TrimRight(line, " \t\v\f\r")) + 1
	at := func(col int, format string, args ...any) string {
		return fmt.Sprintf("%s:%d:%d: %s", name, n, col, fmt.Sprintf(format, args...))
	}
	if len(fields) == 1 {
		return nil, at(end, "missing verb after the robot: give allow, disallow or usage")
	}
	a := &assertion{spec: name, line: n, robot: fields[0].s, verb: strings.ToLower(fields[1].s)}
	var rest []specField
	switch a.verb {
	case "allow", "disallow":
		a.want = a.verb + "ed"
		rest = fields[2:]
	case "usage":
		if len(fields) < 3 {
			return nil, at(end, "missing purpose after usage: give %s", usagePurposes())
		}
		p, ok := parsePurpose(fields[2].s)
		if !ok {
			return nil, at(fields[2].col, "unknown purpose %q: give %s", fields[2].s, usagePurposes())
		}
		a.purpose = p
		if len(fields) < 4 {
			return nil, at(end, "missing value after the purpose: give yes, no or none")
		}
		v, ok := parsePreference(fields[3].s)
		if !ok {
			return nil, at(fields[3].col, "unknown value %q: give yes, no or none", fields[3].s)
		}
		a.want = v
		rest = fields[4:]
	default:
		return nil, at(fields[1].col, "unknown verb %q: give allow, disallow or usage", fields[1].s)
	}
	switch {
	case len(rest) == 0:
		return nil, at(end, "missing path after %s: give one that starts with /, such as /private/", strings.ToLower(fields[len(fields)-1].s))
	case len(rest) > 1:
		return nil, at(rest[1].col, "%q after the path: a path cannot hold white space; percent-encode it (%%20)", rest[1].s)
	}
	a.path, a.pathCol = rest[0].s, rest[0].col
	if err := testURLArg(a.path); err != nil {
		return nil, at(a.pathCol, "%s", err.Error())
	}
	var err string
	if a.rd, a.registry, err = specRobot(a.robot, profile, profileSet, func(note string) {
		*notes = append(*notes, at(fields[0].col, "%s", note))
	}); err != "" {
		return nil, at(fields[0].col, "%s", err)
	}
	words := []string{a.robot, a.verb}
	if a.verb == "usage" {
		words = append(words, a.purpose.String(), a.want)
	}
	a.text = strings.Join(append(words, a.path), " ")
	return a, ""
}

// specRobot resolves the ROBOT field of a spec line as robots test
// resolves its robot: "*" is test's default reader, agent:TOKEN a plain
// product token read as -agent reads one (productToken; note is told when
// the token was read from something else), any other name a robot of
// the registry (robotReader's reading, -profile winning when set). It
// returns the reader, the registry name ("" for the others) and an error
// message.
func specRobot(name string, profile robots.Profile, profileSet bool, note func(string)) (reader, string, string) {
	if name == "*" {
		return reader{name: "*", profile: profile, agent: robots.Agent{Tokens: []string{"*"}}}, "", ""
	}
	if len(name) >= len("agent:") && strings.EqualFold(name[:len("agent:")], "agent:") {
		v := name[len("agent:"):]
		if v == "" {
			return reader{}, "", "agent: needs a product token, such as agent:ExampleBot"
		}
		tok, read := productToken(v)
		if tok == "" {
			msg := fmt.Sprintf("%q is not a product token (letters, '-' and '_', RFC 9309 §2.2.1)", v)
			if _, ok := agents.Find(v); ok {
				msg += "; without agent: it names the known robot"
			}
			return reader{}, "", msg
		}
		if read {
			note(fmt.Sprintf("using product token %q from %q", tok, v))
		}
		return reader{name: tok, profile: profile, agent: robots.Agent{Tokens: []string{tok}}}, "", ""
	}
	rb, ok := agents.Find(name)
	if !ok {
		return reader{}, "", unknownRobot(name, "agent:"+name)
	}
	return fromRegistry(rb, profile, profileSet), name, ""
}

// usagePurposes names the purposes of the usage vocabulary, for messages.
func usagePurposes() string {
	var names []string
	for p := range robots.NumPurposes {
		names = append(names, p.String())
	}
	return orWords(names)
}

// orWords joins words as "a, b or c".
func orWords(w []string) string {
	if len(w) <= 1 {
		return strings.Join(w, "")
	}
	return strings.Join(w[:len(w)-1], ", ") + " or " + w[len(w)-1]
}

// parsePreference reads a usage value: yes, no or none, in any case.
func parsePreference(s string) (string, bool) {
	for _, v := range []robots.Preference{robots.Yes, robots.No, robots.NoPreference} {
		if strings.EqualFold(s, v.String()) {
			return v.String(), true
		}
	}
	return "", false
}

// urlsFor resolves the path of every assertion against site, the URL
// given for the site, as robots test -url resolves its URL arguments
// (siteURL): the URL each assertion asks about, by index. A path that is
// not on the site's origin is an error at its line and column.
func (s *assertSpec) urlsFor(site string) ([]string, error) {
	origin, err := fetch.ParseOrigin(site)
	if err != nil {
		return nil, &usageError{msg: fmt.Sprintf("-url %s: %v", site, errorText(err))}
	}
	base, err := neturl.Parse(site)
	if err != nil {
		return nil, &usageError{msg: fmt.Sprintf("-url %s: %s", site, urlProblem(err))}
	}
	urls := make([]string, len(s.assertions))
	var errs []string
	for i := range s.assertions {
		a := &s.assertions[i]
		u, err := siteURL(base, origin, a.path)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s:%d:%d: %v", a.spec, a.line, a.pathCol, err))
			continue
		}
		urls[i] = u
	}
	if len(errs) > 0 {
		return nil, &assertSpecError{errs}
	}
	return urls, nil
}

// fetchKey is what makes two robots' fetches of robots.txt differ: the
// status rules and the User-Agent header sent.
type fetchKey struct {
	policy fetch.Policy
	ua     string
}

// fetchForAssertions fetches the robots.txt of site as the robots of spec
// fetch it, as robots test -url -robot NAME does for each: once per
// distinct fetch policy and User-Agent (each registry robot sends its
// own; -user-agent sets one for all), in the order the spec names them.
func fetchForAssertions(e *env, nf *netFlags, spec *assertSpec, site string, urls []string) (*assertTarget, error) {
	origin, err := fetch.ParseOrigin(site)
	if err != nil {
		return nil, &usageError{msg: fmt.Sprintf("-url %s: %v", site, errorText(err))}
	}
	got := map[fetchKey]*fetch.Result{}
	keys := make([]fetchKey, len(spec.assertions))
	name := ""
	for i := range spec.assertions {
		a := &spec.assertions[i]
		pol, ua := robotFetchPolicy(a.registry, a.rd.profile)
		if *nf.userAgent != "" {
			ua = *nf.userAgent
		}
		k := fetchKey{pol, ua}
		keys[i] = k
		if got[k] != nil {
			continue
		}
		fr, done, err := nf.fetcher(pol, a.rd.profile, ua)
		if err != nil {
			return nil, err
		}
		res, err := getRobotsTxt(e, nf, fr, origin, site)
		done() // before the next fetcher opens the cache
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(e.stderr, "robots: fetched %s as %s: %s\n", res.URL, a.rd.name, fetchSummary(res))
		got[k], name = res, res.URL
	}
	return &assertTarget{name: name, urls: urls, fetched: func(i int) *fetch.Result { return got[keys[i]] }}, nil
}

// evalAssertions checks every assertion of spec against res, one fetch
// of a site's robots.txt (robots watch calls it on each fetch): each
// robot reads the fetch under its own status rules (res.Under when they
// are not res.Policy: the same answer, read as that robot's rules read
// it, with no outage history) and its own profile. A path of the spec
// that is not on res's origin is an error that names its line. Give
// failing results to writeAssertText (verbose false) to print them.
func evalAssertions(e *env, spec *assertSpec, res *fetch.Result) ([]assertResult, error) {
	urls, err := spec.urlsFor(res.Origin.String() + "/")
	if err != nil {
		return nil, err
	}
	under := map[fetch.Policy]*fetch.Result{res.Policy: res}
	t := &assertTarget{name: res.URL, urls: urls, fetched: func(i int) *fetch.Result {
		a := &spec.assertions[i]
		pol, _ := robotFetchPolicy(a.registry, a.rd.profile)
		r, ok := under[pol]
		if !ok {
			r = res.Under(pol)
			under[pol] = r
		}
		return r
	}}
	return t.checkAll(spec), nil
}

// assertTarget is the robots.txt assertions are checked against: a file
// (robots assert -file), or the fetches of a site's robots.txt (-url,
// robots watch), one for each robot.
type assertTarget struct {
	// name names the robots.txt in messages: the file as given, or the
	// robots.txt URL.
	name string
	file *syntax.File // -file
	size int64        // -file: its size, as fetch.Policy.Served counts it
	// fetched returns the fetch the robot of assertion i reads (-url);
	// urls are the URLs the assertions ask about, by index.
	fetched func(i int) *fetch.Result
	urls    []string

	parsed   map[*fetch.Result]*syntax.File
	compiled map[compiledKey]*robots.Rules
}

type compiledKey struct {
	f *syntax.File
	p robots.Profile
}

// rules returns f compiled for profile p, once per pair.
func (t *assertTarget) rules(f *syntax.File, p robots.Profile) *robots.Rules {
	if t.compiled == nil {
		t.compiled = map[compiledKey]*robots.Rules{}
	}
	k := compiledKey{f, p}
	r, ok := t.compiled[k]
	if !ok {
		r = robots.Compile(f, p)
		t.compiled[k] = r
	}
	return r
}

// parse returns the parse of a fetch's body, once per fetch; nil when the
// fetch left no rules.
func (t *assertTarget) parse(res *fetch.Result) *syntax.File {
	if res.Access != fetch.AccessRules {
		return nil
	}
	if t.parsed == nil {
		t.parsed = map[*fetch.Result]*syntax.File{}
	}
	f, ok := t.parsed[res]
	if !ok {
		f = syntax.Parse(res.URL, res.Body)
		t.parsed[res] = f
	}
	return f
}

// assertResult is the verdict on one assertion.
type assertResult struct {
	*assertion
	// Got is what the robot reads: "allowed" or "disallowed", or the
	// usage value.
	Got  string
	Hold bool
	// Deciding is the robots.txt line that decided, nil when none did (no
	// rule matched, no statement, the fetch decided).
	Deciding *decidingLine
	// Why says in words what decided.
	Why string
}

// served is the access of a file of size octets served whole under pol.
func served(pol fetch.Policy, size int64) fetch.Access {
	a, _ := pol.Served(size)
	return a
}

// decidingLine is a line of robots.txt, as written.
type decidingLine struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

// checkAll checks every assertion of spec.
func (t *assertTarget) checkAll(spec *assertSpec) []assertResult {
	out := make([]assertResult, len(spec.assertions))
	for i := range spec.assertions {
		out[i] = t.check(i, &spec.assertions[i])
	}
	return out
}

// check checks assertion i, a, as robots test (allow, disallow) and
// robots usage -file (usage) answer its question.
func (t *assertTarget) check(i int, a *assertion) assertResult {
	r := assertResult{assertion: a}
	url := a.path
	if t.urls != nil {
		url = t.urls[i]
	}
	f := t.file
	var res *fetch.Result
	if t.fetched != nil {
		res = t.fetched(i)
		f = t.parse(res)
	}
	if a.verb == "usage" {
		t.checkUsage(&r, f, res, url)
	} else {
		var d robots.Decision
		if res != nil {
			var rules *robots.Rules
			if f != nil {
				rules = t.rules(f, a.rd.profile)
			}
			d, r.Why = fetchedVerdict(res, f, rules, a.rd.agent, url)
			if res.Access != fetch.AccessRules {
				r.Why += "; " + fetchSummary(res)
			} else {
				r.Deciding, r.Why = t.explain(f, d)
			}
		} else if pol, _ := robotFetchPolicy(a.registry, a.rd.profile); served(pol, t.size) != fetch.AccessRules {
			// As robots test -file reads it: served whole, with the
			// robot's status rules (Yandex ignores a file over 500 KiB).
			acc, why := pol.Served(t.size)
			d, r.Why = robots.Decision{Allowed: acc != fetch.AccessNone}, why
		} else {
			d = t.rules(f, a.rd.profile).Decide(a.rd.agent, url)
			r.Deciding, r.Why = t.explain(f, d)
		}
		r.Got = "disallowed"
		if d.Allowed {
			r.Got = "allowed"
		}
	}
	r.Hold = r.Got == a.want
	return r
}

// explain says what decided d, naming robots.txt lines as NAME:LINE.
func (t *assertTarget) explain(f *syntax.File, d robots.Decision) (*decidingLine, string) {
	switch d.Reason {
	case robots.Matched:
		key, value := ruleText(f, d)
		dl := &decidingLine{Line: d.Line, Text: key + ": " + value}
		return dl, fmt.Sprintf("%s:%d: %s", t.name, d.Line, dl.Text)
	case robots.NoMatch:
		return nil, fmt.Sprintf("no rule matches in the group at %s:%d", t.name, d.Group)
	case robots.RobotsTxt:
		return nil, "/robots.txt is always allowed"
	}
	return nil, "no group applies"
}

// checkUsage answers a usage line: usage.Decide as robots usage -file
// calls it, on the file's rules as the robot reads them (with -url, the
// fetched file's; a fetch that left no rules has no usage statement, and
// one that keeps robots out leaves no usage verdict, as robots page
// says).
func (t *assertTarget) checkUsage(r *assertResult, f *syntax.File, res *fetch.Result, url string) {
	a := r.assertion
	r.Got = robots.NoPreference.String()
	if res != nil && f == nil {
		v := res.Decide(a.rd.agent, url)
		r.Why = v.Reason + "; " + fetchSummary(res)
		if !v.Allowed {
			r.Why = "no usage verdict: " + r.Why
		}
		return
	}
	rules := t.rules(f, a.rd.profile)
	u := usage.Decide(rules, usage.Robot{Name: a.rd.name, Agent: a.rd.agent}, url, nil)
	if !u.Crawl.Allowed {
		r.Why = "no usage verdict for a path the robot may not crawl"
		if dl := lineAt(f, u.Crawl.Line); dl != nil {
			r.Deciding = dl
			r.Why += fmt.Sprintf(": %s:%d: %s", t.name, dl.Line, dl.Text)
		}
		return
	}
	v := u.Usage.For(a.purpose)
	r.Got = v.Value
	switch {
	case v.Source == "":
		r.Why = "nothing stated"
	case v.Line > 0:
		r.Deciding = lineAt(f, v.Line)
		r.Why = v.Source
		if r.Deciding != nil {
			where := fmt.Sprintf("%s:%d: %s", t.name, v.Line, r.Deciding.Text)
			if key := f.Text(f.Lines[v.Line-1].Key); len(v.Source) > len(key) && strings.EqualFold(v.Source[:len(key)], key) && v.Source[len(key)] == ' ' {
				// "Content-Signal line 4": the line says it all.
				r.Why = where
			} else {
				r.Why += ", " + where
			}
		}
	default:
		r.Why = v.Source
	}
}

// lineAt is line n of f as written, its key and value; nil when f has
// no such line.
func lineAt(f *syntax.File, n int) *decidingLine {
	if f == nil || n < 1 || n > len(f.Lines) {
		return nil
	}
	l := &f.Lines[n-1]
	text := f.Text(l.Key) + ": " + f.Text(l.Value)
	if !l.Key.IsValid() {
		text = strings.TrimSpace(f.Text(l.Span))
	}
	return &decidingLine{Line: n, Text: text}
}
