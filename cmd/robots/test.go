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
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/syntax"
)

var testCmd = &command{
	name:  "test",
	usage: "[-profile P] [-agent TOKEN]... [-robot NAME] -file PATH|-url URL URL...\n       robots test -jsonl [-profile P] < cases.jsonl",
	short: "say whether robots may fetch URLs",
}

func init() { testCmd.run = runTest }

func runTest(e *env, args []string) error {
	fs := newFlags(e, testCmd)
	var (
		profile robots.Profile
		agents  stringsFlag
		file    = fs.String("file", "", "read robots.txt from `PATH` (- for standard input)")
		url     = fs.String("url", "", "fetch robots.txt for the site of `URL` (any URL of the site, or its robots.txt)")
		robot   = fs.String("robot", "", "evaluate as the registry robot `NAME`: its profile, token chain and quirks")
		jsonl   = fs.Bool("jsonl", false, "batch mode: read JSON cases from standard input, write one JSON answer per line")
	)
	fs.Var(&profile, "profile", "read the file as `P`: "+profileNames())
	fs.Var(&agents, "agent", "product `TOKEN` to test; repeat for a fallback chain (default *)")
	nf := addNetFlags(fs, 0)
	if err := parseFlags(e, testCmd, fs, args); err != nil {
		return err
	}
	profileSet := isSet(fs, "profile")
	if *robot != "" && len(agents) > 0 {
		return &usageError{msg: "-robot and -agent both name the robot: give one"}
	}
	if *jsonl {
		if *file != "" || *url != "" || fs.NArg() > 0 || len(agents) > 0 {
			return &usageError{msg: "-jsonl takes its cases from standard input only: no -file, -url, -agent or URL arguments"}
		}
		return testJSONL(e, profile)
	}
	switch {
	case *file == "" && *url == "":
		return &usageError{msg: "no robots.txt: give -file PATH or -url URL"}
	case *file != "" && *url != "":
		return &usageError{msg: "-file and -url both give the robots.txt: give one"}
	case fs.NArg() == 0:
		return &usageError{msg: "no URL to test"}
	}
	if len(agents) == 0 {
		agents = stringsFlag{"*"}
	}
	rd := reader{profile: profile, agent: robots.Agent{Tokens: agents}}
	if *robot != "" {
		rd = robotReader(*robot, profile, profileSet)
	}
	if *url != "" {
		return testURL(e, fs, nf, rd, *robot, *url)
	}
	src, err := readLimited(e, *file)
	if err != nil {
		return err
	}
	f := syntax.Parse(*file, src)
	rules := robots.Compile(f, rd.profile)
	disallowed := false
	for _, u := range fs.Args() {
		d := rules.DecideAgent(rd.agent, u)
		verdict := "allowed"
		if !d.Allowed {
			verdict, disallowed = "disallowed", true
		}
		fmt.Fprintf(e.stdout, "%s %s  (%s)\n", verdict, u, explain(f, d))
	}
	if disallowed {
		return errFinding
	}
	return nil
}

// explain says in a few words why d was decided.
func explain(f *syntax.File, d robots.Decision) string {
	switch d.Reason {
	case robots.Matched:
		// The rule as written, misspelt key and all.
		key, value := d.Rule.String(), d.Pattern
		if d.Line-1 < len(f.Lines) {
			l := &f.Lines[d.Line-1]
			key, value = f.Text(l.Key), f.Text(l.Value)
		}
		return fmt.Sprintf("line %d: %s: %s", d.Line, key, value)
	case robots.NoMatch:
		return fmt.Sprintf("no rule matches in the group at line %d", d.Group)
	case robots.RobotsTxt:
		return "/robots.txt is always allowed"
	default:
		return "no group applies"
	}
}

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
func readLimited(e *env, name string) ([]byte, error) {
	var r io.Reader
	if name == "-" {
		r = e.stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	body, _, err := robots.Read(r)
	return body, err
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
					d := lastRules.DecideAgent(agent, u)
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
		rd := robotReader(c.Robot, p, c.Profile != "")
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
// fetched with the robot's status rules (DESIGN.md, contracts), and each
// verdict line also says how the fetch ended. URL arguments may be paths
// of that site; a URL of another origin is an error, since a robots.txt
// governs only its own origin (RFC 9309 §2.3).
func testURL(e *env, fs *flag.FlagSet, nf *netFlags, rd reader, robot, site string) error {
	pol, ua := policyOf(fs, fetch.Google, robot, rd.profile)
	fr, done, err := nf.fetcher(pol, rd.profile, ua)
	if err != nil {
		return err
	}
	defer done()
	origin, err := fetch.ParseOrigin(site)
	if err != nil {
		return err
	}
	base, _ := neturl.Parse(site)
	var urls []string
	for _, a := range fs.Args() {
		u, err := base.Parse(a)
		if err != nil {
			return &usageError{msg: fmt.Sprintf("%s: %v", a, err)}
		}
		o, err := fetch.ParseOrigin(u.String())
		if err != nil || o != origin {
			return &usageError{msg: fmt.Sprintf("%s is not on %s: a robots.txt governs only its own origin", a, origin)}
		}
		urls = append(urls, u.String())
	}
	res, err := nf.get(e, fr, site)
	if err != nil {
		return err
	}
	how := fetchSummary(res)
	var f *syntax.File
	if res.Access == fetch.AccessRules {
		f = syntax.Parse(res.URL, res.Body)
	}
	disallowed := false
	for i, u := range urls {
		v := res.Decide(rd.agent, u)
		verdict := "allowed"
		if !v.Allowed {
			verdict, disallowed = "disallowed", true
		}
		why := v.Reason
		if v.Access == fetch.AccessRules {
			why = explain(f, v.Decision)
		}
		fmt.Fprintf(e.stdout, "%s %s  (%s; %s)\n", verdict, fs.Arg(i), why, how)
	}
	if disallowed {
		return errFinding
	}
	return nil
}

// fetchSummary says in a few words how a fetch ended.
func fetchSummary(r *fetch.Result) string {
	var b strings.Builder
	b.WriteString("robots.txt ")
	switch {
	case r.FromCache:
		b.WriteString("from the cache, ")
	}
	if r.Status != 0 {
		fmt.Fprintf(&b, "HTTP %d", r.Status)
	} else {
		b.WriteString(r.Err)
	}
	if n := len(r.Hops) - 1; n > 0 {
		b.WriteString(" after " + plural(n, "redirect"))
	}
	fmt.Fprintf(&b, ", %s", r.Policy)
	return b.String()
}
