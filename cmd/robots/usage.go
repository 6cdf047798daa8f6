package main

import (
	"fmt"
	neturl "net/url"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/page"
	"github.com/robotskit/robots/syntax"
	"github.com/robotskit/robots/usage"
)

var usageCmd = &command{
	name:  "usage",
	usage: "[-robot NAME | -agent TOKEN]... [-profile P] [-require PURPOSE]... [-format text|json] -file PATH|-url URL [URL...]",
	short: "say what robots may do with what they fetch: search, ai-input, ai-train",
	long: `For each URL and robot, prints whether the robot may crawl the URL and,
for each purpose of use, "yes", "no" or "none" (no preference stated),
with the statement that decided: search (a search index and its results),
ai-input (retrieval, grounding and answers of AI systems) and ai-train
(training AI models).

The statements are robots.txt's Content-Usage rules (IETF AIPREF) and
Content-Signal lines (Cloudflare's Content Signals), and the control
tokens of the robot (a Disallow for Google-Extended withholds Googlebot's
fetches from Gemini's training and grounding; one for Applebot-Extended,
Applebot's from Apple's training). With -url each URL is fetched too, as
the robot fetches it, for its Content-Usage, Content-Signal and
tdm-reservation header fields, its robots meta tags and X-Robots-Tag
values (noai, Bing's noarchive and nocache), and the site's
/.well-known/tdmrep.json. Any "no" wins over a "yes"; a URL robots.txt
keeps the robot out of has no usage verdict. The License lines of the
file (RSL) are printed too.

Without -robot or -agent, the robots are Googlebot, bingbot, YandexBot,
GPTBot and ClaudeBot. Exit 1 with -require PURPOSE when some URL says
"no" to it for some robot.`,
	exitCodes: `Exit codes:
  0    the verdicts were printed (and no URL says no to a -require purpose)
  1    with -require PURPOSE: some URL says no to it for some robot
  2    a usage error, or robots.txt or a page could not be read
  130  interrupted
`,
}

func init() { usageCmd.run = runUsage }

// usageOutput is the JSON of robots usage: the contract's "license" is
// the file's first License URL; RSL 1.0 lets a file name several, all of
// them in "licenses".
type usageOutput struct {
	Results  []usage.Result `json:"results"`
	License  string         `json:"license,omitempty"`
	Licenses []string       `json:"licenses,omitempty"`
}

func runUsage(e *env, args []string) error {
	fs := newFlags(e, usageCmd)
	var (
		profile  robots.Profile
		names    stringsFlag
		tokens   stringsFlag
		required stringsFlag
		file     = fs.String("file", "", "read robots.txt from `PATH` (- for standard input)")
		url      = fs.String("url", "", "fetch robots.txt for the site of `URL`, and each URL for its headers and meta tags")
		format   = fs.String("format", "text", "output `format`: text or json")
	)
	fs.Var(&names, "robot", "a known robot `NAME` (robots agents lists them); repeat for several")
	fs.Var(&tokens, "agent", "a plain product `TOKEN`; repeat for several")
	fs.Var(&required, "require", "exit 1 when some URL says no to `PURPOSE` (search, ai-input or ai-train) for some robot; repeat for several")
	fs.Var(&profile, "profile", "read robots.txt as `P` instead of each robot's profile: "+profileNames())
	if err := parseFlags(e, usageCmd, fs, args); err != nil {
		return err
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	var purposes []robots.Purpose
	for _, r := range required {
		p, ok := parsePurpose(r)
		if !ok {
			return &usageError{msg: fmt.Sprintf("-require %q: give search, ai-input or ai-train", r)}
		}
		purposes = append(purposes, p)
	}
	switch {
	case *file == "" && *url == "":
		return &usageError{msg: "no robots.txt: give -file PATH or -url URL"}
	case *file != "" && *url != "":
		return &usageError{msg: "-file and -url both give the robots.txt: give one"}
	case fs.NArg() == 0:
		return &usageError{msg: "give the URLs (or paths) to ask about"}
	}
	rbs, err := usageRobots(e, names, tokens, profile, isSet(fs, "profile"))
	if err != nil {
		return err
	}
	for _, u := range fs.Args() {
		if err := testURLArg(u); err != nil {
			return err
		}
	}
	var out usageOutput
	if *url != "" {
		site, err := fetchURL(e, *url)
		if err != nil {
			return err
		}
		if out, err = usageOfSite(e, site, rbs, fs.Args()); err != nil {
			return err
		}
	} else {
		src, truncated, err := readLimited(e, *file)
		if err != nil {
			return err
		}
		if truncated {
			fmt.Fprintf(e.stderr, "robots: %s is larger than %d KiB: like Google, robots read only its first %d KiB\n", *file, robots.MaxBytes>>10, robots.MaxBytes>>10)
		}
		f := syntax.Parse(*file, src)
		rules := make([]*robots.Rules, len(rbs))
		for i, rb := range rbs {
			rules[i] = robots.Compile(f, rb.Profile)
		}
		for _, u := range fs.Args() {
			for i, rb := range rbs {
				out.Results = append(out.Results, usage.Decide(rules[i], usage.Robot{Name: rb.Name, Agent: rb.Agent}, u, nil))
			}
		}
		out.Licenses = robots.Compile(f, robots.Google).Licenses()
	}
	if len(out.Licenses) > 0 {
		out.License = out.Licenses[0]
	}
	if *format == "json" {
		if out.Results == nil {
			out.Results = []usage.Result{}
		}
		err = writeJSON(e.stdout, out)
	} else {
		err = writeUsage(e, out)
	}
	if err != nil {
		return err
	}
	for _, r := range out.Results {
		for _, p := range purposes {
			if r.Usage.For(p).Value == "no" {
				return errFinding
			}
		}
	}
	return nil
}

// parsePurpose reads a purpose's name.
func parsePurpose(s string) (robots.Purpose, bool) {
	for p := range robots.NumPurposes {
		if strings.EqualFold(s, p.String()) {
			return p, true
		}
	}
	return 0, false
}

// usageRobots are the robots a usage question asks about: each -robot
// and each -agent, in that order, or compare's default robots.
func usageRobots(e *env, names, tokens []string, profile robots.Profile, profileSet bool) ([]page.Robot, error) {
	if len(names) == 0 && len(tokens) == 0 {
		names = compareDefault
	}
	var out []page.Robot
	for _, n := range names {
		reg, err := findRobot(n)
		if err != nil {
			return nil, err
		}
		out = append(out, page.FromRegistry(reg))
	}
	if len(tokens) > 0 {
		toks, err := agentTokens(e, tokens)
		if err != nil {
			return nil, err
		}
		for _, t := range toks {
			out = append(out, page.PlainRobot(t))
		}
	}
	if profileSet {
		for i := range out {
			out[i].Profile = profile
		}
	}
	return out, nil
}

// usageOfSite fetches each URL of the site as each robot would, through
// page.Inspector, whose report carries the usage verdict of the page.
func usageOfSite(e *env, site string, rbs []page.Robot, args []string) (usageOutput, error) {
	var out usageOutput
	base, err := neturl.Parse(site)
	if err != nil {
		return out, &usageError{msg: fmt.Sprintf("-url %s: %s", site, urlProblem(err))}
	}
	in := &page.Inspector{}
	for _, a := range args {
		for _, rb := range rbs {
			u, err := base.Parse(a)
			if err != nil {
				return out, &usageError{msg: fmt.Sprintf("%q is not a URL: %s", a, urlProblem(err))}
			}
			stop := progress(e, "inspecting "+u.String()+" as "+rb.Name)
			rep, err := in.Inspect(e.ctx, u.String(), rb)
			stop()
			if e.ctx.Err() != nil {
				return out, e.ctx.Err()
			}
			if err != nil {
				return out, err
			}
			if rep.Usage == nil {
				return out, pageError(rep)
			}
			out.Results = append(out.Results, usage.Result{URL: a, Robot: rb.Name,
				Crawl: usage.Crawl{Allowed: rep.RobotsTxt.Allowed, Line: rep.RobotsTxt.Line}, Usage: *rep.Usage})
			if out.Licenses == nil {
				out.Licenses = rep.Licenses
			}
		}
	}
	return out, nil
}

// writeUsage prints one block per URL: a line per robot with its crawl
// verdict and its three usage verdicts, each with its source.
func writeUsage(e *env, out usageOutput) error {
	var b strings.Builder
	last := ""
	for _, r := range out.Results {
		if r.URL != last {
			if last != "" {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "%s\n", clean(r.URL))
			last = r.URL
		}
		crawl := "crawl yes"
		if !r.Crawl.Allowed {
			crawl = "crawl no"
		}
		if r.Crawl.Line > 0 {
			crawl += fmt.Sprintf(" (line %d)", r.Crawl.Line)
		}
		fmt.Fprintf(&b, "  %-12s %s", clean(r.Robot), crawl)
		if !r.Crawl.Allowed {
			b.WriteString(": no usage verdict for a page it may not fetch\n")
			continue
		}
		b.WriteString("\n")
		for p := range robots.NumPurposes {
			v := r.Usage.For(p)
			fmt.Fprintf(&b, "    %-9s %-4s", p.String(), v.Value)
			if v.Source != "" {
				fmt.Fprintf(&b, " %s", clean(v.Source))
			}
			b.WriteString("\n")
		}
	}
	for _, l := range out.Licenses {
		fmt.Fprintf(&b, "\nlicense %s\n", clean(l))
	}
	_, err := e.stdout.Write([]byte(b.String()))
	return err
}
