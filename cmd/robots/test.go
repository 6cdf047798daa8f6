package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	neturl "net/url"
	"os"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/internal/decide"
	"github.com/robotskit/robots/internal/sniff"
	"github.com/robotskit/robots/internal/wire"
	"github.com/robotskit/robots/syntax"
)

var testCmd = &command{
	name:  "test",
	usage: "[-profile P] [-agent TOKEN]... [-robot NAME] [-format text|json] -file PATH|-url URL [URL...]\n       robots test -jsonl [-profile P] < cases.jsonl",
	short: "say whether robots may fetch URLs",
	long: `Each URL is an absolute URL or a path that starts with "/"; without URL
arguments, the URLs are read from standard input, one per line.

-agent hands product tokens to the matcher as they are, the way Google's
robots.txt library does; several -agent flags are a fallback chain (the
first token that has a group wins), and without -agent or -robot the
robot is "*". -robot evaluates as a known robot instead (robots agents
lists them): its profile, its token chain, its quirks, and with -url its
status rules and User-Agent.`,
}

func init() { testCmd.run = runTest }

func runTest(e *env, args []string) error {
	fs := newFlags(e, testCmd)
	var (
		profile robots.Profile
		agents  stringsFlag
		file    = fs.String("file", "", "read robots.txt from `PATH` (- for standard input)")
		url     = fs.String("url", "", "fetch robots.txt for the site of `URL` (any URL of the site, or its robots.txt)")
		robot   = fs.String("robot", "", "evaluate as the known robot `NAME` (robots agents lists them): its profile, token chain and quirks")
		format  = fs.String("format", "text", "output `format`: text or json")
		jsonl   = fs.Bool("jsonl", false, "batch mode: read JSON cases from standard input, write one JSON answer per line")
	)
	fs.Var(&profile, "profile", "read the file as `P`: "+profileNames())
	fs.Var(&agents, "agent", "product `TOKEN` to test, handed to the matcher as is; repeat for a fallback chain (default *)")
	nf := addNetFlags(fs, 0)
	if err := parseFlags(e, testCmd, fs, args); err != nil {
		return err
	}
	profileSet := isSet(fs, "profile")
	if isSet(fs, "robot") && len(agents) > 0 {
		return &usageError{msg: "-robot and -agent both name the robot: give one"}
	}
	if *jsonl {
		if *file != "" || *url != "" || fs.NArg() > 0 || len(agents) > 0 || isSet(fs, "robot") || isSet(fs, "format") {
			return &usageError{msg: "-jsonl takes its cases from standard input only: no -file, -url, -agent, -robot, -format or URL arguments"}
		}
		return testJSONL(e, profile)
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	switch {
	case *file == "" && *url == "":
		return &usageError{msg: "no robots.txt: give -file PATH or -url URL"}
	case *file != "" && *url != "":
		return &usageError{msg: "-file and -url both give the robots.txt: give one"}
	}
	rd := reader{name: "*", profile: profile, agent: robots.Agent{Tokens: []string{"*"}}}
	if isSet(fs, "robot") {
		var err error
		if rd, err = robotReader(*robot, profile, profileSet); err != nil {
			return err
		}
	} else if len(agents) > 0 {
		toks, err := agentTokens(e, agents)
		if err != nil {
			return err
		}
		rd.name, rd.agent.Tokens = strings.Join(toks, ","), toks
	}
	site := ""
	if *url != "" {
		var err error
		if site, err = fetchURL(e, *url); err != nil {
			return err
		}
	}
	urls := fs.Args()
	if len(urls) == 0 {
		var err error
		if urls, err = urlsFromStdin(e, *file == "-"); err != nil {
			return err
		}
	}
	for _, u := range urls {
		if err := testURLArg(u); err != nil {
			return err
		}
	}
	out := &testOutput{json: *format == "json", robot: rd}
	if site != "" {
		return testURL(e, fs, nf, rd, *robot, site, urls, out)
	}
	src, truncated, err := readLimited(e, *file)
	if err != nil {
		return err
	}
	if truncated {
		fmt.Fprintf(e.stderr, "robots: %s is larger than %d KiB: like Google, the test reads only its first %d KiB\n", *file, robots.MaxBytes>>10, robots.MaxBytes>>10)
	}
	if enc := sniff.Wide(src); enc != "" && sniff.Binary(src) == "" {
		// RFC 9309 §2.3 and Google read UTF-8: a wide text has no line
		// they can read, as the verdicts below show.
		fmt.Fprintf(e.stderr, "robots: %s is %s: robots read UTF-8 and find no rules in it (robots check: RB202; robots fix -enable FX02 transcodes it)\n", *file, enc)
	}
	// A file given by its text is read as if served whole, with the
	// robot's status rules, as robots audit and the API read it
	// (fetch.Policy.Served): Yandex ignores a file over 500 KiB whole.
	pol, _ := robotFetchPolicy(*robot, rd.profile)
	if acc, why := pol.Served(servedSize(src, truncated)); acc != fetch.AccessRules {
		for _, u := range urls {
			out.add(u, robots.Decision{Allowed: acc != fetch.AccessNone}, why, "")
		}
		return out.write(e.stdout)
	}
	f := syntax.Parse(*file, src)
	rules := robots.Compile(f, rd.profile)
	for _, u := range urls {
		d := rules.Decide(rd.agent, u)
		out.add(u, d, explain(f, d), "")
	}
	return out.write(e.stdout)
}

// servedSize is the size of a file read by readLimited, as
// fetch.Policy.Served counts it: past the limit when it was cut.
func servedSize(src []byte, truncated bool) int64 {
	if truncated {
		return robots.MaxBytes + 1
	}
	return int64(len(src))
}

// urlsFromStdin reads the URLs to test from standard input, one per line;
// blank lines and lines that start with "#" are skipped.
func urlsFromStdin(e *env, stdinTaken bool) ([]string, error) {
	if stdinTaken {
		return nil, &usageError{msg: "no URL to test: -file - reads the robots.txt from standard input, so give the URLs as arguments"}
	}
	if f, ok := e.stdin.(*os.File); ok && isTerminal(f) {
		return nil, &usageError{msg: "no URL to test: give URLs as arguments, or one per line on standard input"}
	}
	in := bufio.NewReaderSize(e.stdin, 64<<10)
	var urls []string
	for n := 1; ; n++ {
		line, tooLong, err := readLine(in, maxCaseLine)
		if err != nil && err != io.EOF {
			return nil, err
		}
		if tooLong {
			return nil, fmt.Errorf("standard input, line %d: longer than %d bytes", n, maxCaseLine)
		}
		if s := strings.TrimSpace(string(line)); s != "" && !strings.HasPrefix(s, "#") {
			urls = append(urls, s)
		}
		if err == io.EOF {
			break
		}
	}
	if len(urls) == 0 {
		return nil, &usageError{msg: "no URL to test: give URLs as arguments, or one per line on standard input"}
	}
	return urls, nil
}

// testOutput collects the verdicts of robots test and writes them as text
// lines or as one JSON document.
type testOutput struct {
	json       bool
	robot      reader
	results    []testResult
	fetch      *wire.FetchTrace
	disallowed bool
}

// testResult is one verdict of robots test -format json, in the shape of
// the API's /api/v1/test results.
type testResult struct {
	Robot   string `json:"robot"`
	URL     string `json:"url"`
	Allowed bool   `json:"allowed"`
	Line    int    `json:"line"`
	Why     string `json:"why"`
	how     string
}

func (o *testOutput) add(u string, d robots.Decision, why, how string) {
	o.results = append(o.results, testResult{Robot: o.robot.name, URL: u, Allowed: d.Allowed, Line: d.Line, Why: why, how: how})
	o.disallowed = o.disallowed || !d.Allowed
}

func (o *testOutput) write(w io.Writer) error {
	var err error
	if o.json {
		err = writeJSON(w, struct {
			Profile string           `json:"profile"`
			Tokens  []string         `json:"tokens"`
			Results []testResult     `json:"results"`
			Fetch   *wire.FetchTrace `json:"fetch,omitempty"`
		}{o.robot.profile.String(), o.robot.agent.Tokens, o.results, o.fetch})
	} else {
		var b strings.Builder
		for _, r := range o.results {
			why := r.Why
			if r.how != "" {
				why += "; " + r.how
			}
			fmt.Fprintf(&b, "%s %s  (%s)\n", verdict(r.Allowed), clean(r.URL), clean(why))
		}
		_, err = io.WriteString(w, b.String())
	}
	if err != nil {
		return err
	}
	if o.disallowed {
		return errFinding
	}
	return nil
}

// explain says in a few words why d was decided (decide.Explain).
func explain(f *syntax.File, d robots.Decision) string { return decide.Explain(f, d) }

// ruleText is the key and value of the rule that decided d as f writes
// them (decide.RuleText).
func ruleText(f *syntax.File, d robots.Decision) (key, value string) { return decide.RuleText(f, d) }

func profileNames() string {
	var b bytes.Buffer
	for i, p := range robots.Profiles() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// readLimited reads a robots.txt file ("-" is standard input) as a robot
// does: at most robots.MaxBytes, without the line the limit cuts.
func readLimited(e *env, name string) (body []byte, truncated bool, err error) {
	var r io.Reader
	if name == "-" {
		r = e.stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, false, err
		}
		defer f.Close()
		r = f
	}
	return robots.Read(r)
}

// maxCaseLine bounds one line of -jsonl input.
const maxCaseLine = 16 << 20

// testCase is one line of -jsonl input, the shape of the conformance sets.
type testCase struct {
	ID        json.RawMessage `json:"id,omitempty"`
	Robots    *string         `json:"robots"`
	RobotsB64 *string         `json:"robots_b64"`
	Agent     *string         `json:"agent"`
	Agents    []string        `json:"agents"`
	Robot     string          `json:"robot"`
	URL       *string         `json:"url"`
	Profile   string          `json:"profile"`
}

type testAnswer struct {
	ID      json.RawMessage `json:"id,omitempty"`
	Allowed *bool           `json:"allowed,omitempty"`
	Line    *int            `json:"line,omitempty"`
	Error   string          `json:"error,omitempty"`
}

func testJSONL(e *env, profile robots.Profile) error {
	in := bufio.NewReaderSize(e.stdin, 64<<10)
	out := bufio.NewWriter(e.stdout)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	var (
		lastBody    []byte
		lastProfile robots.Profile
		lastRules   *robots.Rules
	)
	for n := 1; ; n++ {
		line, tooLong, err := readLine(in, maxCaseLine)
		if err == io.EOF && line == nil && !tooLong {
			break
		}
		if err != nil && err != io.EOF {
			out.Flush()
			return err
		}
		var ans testAnswer
		if tooLong {
			ans.Error = fmt.Sprintf("line %d: longer than %d bytes", n, maxCaseLine)
		} else {
			var c testCase
			if jerr := json.Unmarshal(line, &c); jerr != nil {
				ans.Error = fmt.Sprintf("line %d: %v", n, jerr)
			} else {
				ans.ID = c.ID
				body, p, agent, u, cerr := c.resolve(profile)
				if cerr != nil {
					ans.Error = fmt.Sprintf("line %d: %v", n, cerr)
				} else {
					if lastRules == nil || p != lastProfile || !bytes.Equal(body, lastBody) {
						lastRules, lastBody, lastProfile = robots.Parse(body, p), body, p
					}
					d := lastRules.Decide(agent, u)
					ans.Allowed, ans.Line = &d.Allowed, &d.Line
				}
			}
		}
		if err := enc.Encode(&ans); err != nil {
			return err
		}
		if err == io.EOF {
			break
		}
	}
	return out.Flush()
}

// resolve checks a case and returns what to test. A "robot" brings its
// profile, token chain and quirks, as -robot does; a "profile" in the case
// still wins.
func (c *testCase) resolve(def robots.Profile) (body []byte, p robots.Profile, agent robots.Agent, url string, err error) {
	p = def
	if c.Profile != "" {
		if p, err = robots.ParseProfile(c.Profile); err != nil {
			return
		}
	}
	if c.Robot != "" {
		if c.Agent != nil || len(c.Agents) > 0 {
			err = errors.New(`"robot" and "agent"/"agents" both name the robot: give one`)
			return
		}
		rb, ok := agents.Find(c.Robot)
		if !ok {
			err = errors.New(agents.Unknown(c.Robot) + ` ("agent" tests a plain product token)`)
			return
		}
		rd := fromRegistry(rb, p, c.Profile != "")
		p, agent = rd.profile, rd.agent
	}
	switch {
	case c.RobotsB64 != nil:
		if body, err = base64.StdEncoding.DecodeString(*c.RobotsB64); err != nil {
			err = fmt.Errorf("robots_b64: %v", err)
			return
		}
	case c.Robots != nil:
		body = []byte(*c.Robots)
	default:
		err = errors.New(`no "robots" or "robots_b64"`)
		return
	}
	if c.URL == nil {
		err = errors.New(`no "url"`)
		return
	}
	url = *c.URL
	switch {
	case c.Robot != "":
	case len(c.Agents) > 0:
		agent.Tokens = c.Agents
	case c.Agent != nil:
		agent.Tokens = []string{*c.Agent}
	default:
		agent.Tokens = []string{"*"}
	}
	return
}

// readLine reads one line without its terminator. A line longer than max
// is consumed and reported as tooLong.
func readLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > max {
			tooLong = true
			line = nil
		} else if !tooLong {
			line = append(line, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if err == io.EOF && len(line) == 0 && !tooLong {
			return nil, false, io.EOF
		}
		return line, tooLong, err
	}
}

// testURL is `robots test -url`: the robots.txt of the site of site is
// fetched with the robot's status rules, and each verdict line also says
// how the fetch ended. URL arguments may be paths of that site; a URL of
// another origin is an error, since a robots.txt governs only its own
// origin (RFC 9309 §2.3).
func testURL(e *env, fs *flag.FlagSet, nf *netFlags, rd reader, robot, site string, args []string, out *testOutput) error {
	pol, ua := policyOf(fs, fetch.Google, robot, rd.profile)
	fr, done, err := nf.fetcher(pol, rd.profile, ua)
	if err != nil {
		return err
	}
	defer done()
	origin, err := fetch.ParseOrigin(site)
	if err != nil {
		return &usageError{msg: fmt.Sprintf("-url %s: %v", site, errorText(err))}
	}
	base, _ := neturl.Parse(site)
	var urls []string
	for _, a := range args {
		u, err := siteURL(base, origin, a)
		if err != nil {
			return &usageError{msg: err.Error()}
		}
		urls = append(urls, u)
	}
	res, err := getRobotsTxt(e, nf, fr, origin, site)
	if err != nil {
		return err
	}
	how := fetchSummary(res)
	var f *syntax.File
	if res.Access == fetch.AccessRules {
		f = syntax.Parse(res.URL, res.Body)
	}
	if out.json {
		out.fetch = wire.Trace(res)
	}
	for i, u := range urls {
		d, why := fetchedVerdict(res, f, nil, rd.agent, u)
		out.add(args[i], d, why, how)
	}
	return out.write(e.stdout)
}

// siteURL resolves a URL argument a (a path, or an absolute URL) against
// base, the URL given for the site, and checks that it is on origin: a
// robots.txt governs only its own origin (RFC 9309 §2.3). robots test -url
// and robots assert -url read their URLs so.
func siteURL(base *neturl.URL, origin fetch.Origin, a string) (string, error) {
	u, err := base.Parse(a)
	if err != nil {
		return "", fmt.Errorf("%q is not a URL: %s", a, urlProblem(err))
	}
	o, err := fetch.ParseOrigin(u.String())
	if err != nil || o != origin {
		return "", fmt.Errorf("%s is not on %s: a robots.txt governs only its own origin (RFC 9309 §2.3)", a, origin)
	}
	return u.String(), nil
}

// getRobotsTxt fetches the robots.txt of site with fr (through the cache
// of -cache when one is given), showing progress while it runs. An
// interrupt is an error, whatever the fetch returned.
func getRobotsTxt(e *env, nf *netFlags, fr *fetch.Fetcher, origin fetch.Origin, site string) (*fetch.Result, error) {
	stop := progress(e, "fetching "+origin.String()+"/robots.txt")
	res, err := nf.get(e, fr, site)
	stop()
	if e.ctx.Err() != nil {
		return nil, e.ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// fetchedVerdict is the verdict on url of the robot agent from a fetched
// robots.txt, and why in words, as robots test -url reports it and robots
// assert -url checks it (decide.Fetched, which the MCP server's
// robots_test shares).
func fetchedVerdict(res *fetch.Result, f *syntax.File, rules *robots.Rules, agent robots.Agent, url string) (robots.Decision, string) {
	return decide.Fetched(res, f, rules, agent, url)
}

// fetchSummary says in a few words how a fetch ended (decide.FetchSummary).
func fetchSummary(r *fetch.Result) string { return decide.FetchSummary(r) }
