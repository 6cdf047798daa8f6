package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/fetch/cachespec"
	"github.com/robotskit/robots/internal/decide"
	"github.com/robotskit/robots/internal/sniff"
	"github.com/robotskit/robots/internal/wire"
)

var fetchCmd = &command{
	name:  "fetch",
	usage: "[-robot NAME] [-policy P] [-profile P] [-format text|json] [-max-redirects N] [-timeout D] [-user-agent UA] [-cache SPEC] URL",
	short: "fetch a site's robots.txt as a robot does, and show every hop",
}

func init() { fetchCmd.run = runFetch }

// netFlags are the flags of every command that fetches robots.txt.
type netFlags struct {
	cache     *string
	timeout   *time.Duration
	userAgent *string
	redirects *int
}

func addNetFlags(fs *flag.FlagSet, redirects int) *netFlags {
	return &netFlags{
		cache:     fs.String("cache", "", "keep fetched files in `SPEC`: memory, disk:PATH or redis://HOST:PORT/DB (default: fetch every time)"),
		timeout:   durationFlag(fs, "timeout", fetch.DefaultTimeout, "give up on a fetch after `D`, a duration such as 5s"),
		userAgent: fs.String("user-agent", "", "send the User-Agent header `UA` (default: the robot's own, else "+fetch.DefaultUserAgent+")"),
		redirects: intFlag(fs, "max-redirects", redirects, "follow at most `N` redirects; 0 means the status rules' own limit (5 for Google)"),
	}
}

// check checks the flags' values before anything is fetched.
func (nf *netFlags) check() error {
	if *nf.timeout <= 0 {
		return &usageError{msg: "-timeout must be positive, such as 10s"}
	}
	if *nf.redirects < 0 || *nf.redirects > 100 {
		return &usageError{msg: "-max-redirects must be between 0 and 100"}
	}
	if c := *nf.cache; c != "" && c != "memory" && !strings.HasPrefix(c, "disk:") && !strings.HasPrefix(c, "redis://") && !strings.HasPrefix(c, "rediss://") {
		return &usageError{msg: fmt.Sprintf("-cache %q: give memory, disk:PATH or redis://HOST:PORT/DB", *nf.cache)}
	}
	return nil
}

// fetcher builds a Fetcher for a policy and profile from the flags, and a
// function that releases its cache.
func (nf *netFlags) fetcher(pol fetch.Policy, p robots.Profile, robotUA string) (*fetch.Fetcher, func(), error) {
	f := &fetch.Fetcher{Policy: pol, Profile: p, Timeout: *nf.timeout, MaxRedirects: *nf.redirects, UserAgent: *nf.userAgent}
	if f.UserAgent == "" {
		f.UserAgent = robotUA
	}
	if err := nf.check(); err != nil {
		return nil, nil, err
	}
	done := func() {}
	if *nf.cache != "" {
		c, closer, err := cachespec.Open(*nf.cache)
		if err != nil {
			// A plain error, without the usage hint: the spec's form was
			// checked above, so this is the cache itself (a disk file in
			// use by another process, a bad option, a bad Redis URL).
			return nil, nil, err
		}
		f.Cache = c
		done = func() { closer.Close() }
	}
	return f, done, nil
}

// get fetches robots.txt for rawURL: through the cache when one is given,
// else directly, with the whole trace.
func (nf *netFlags) get(e *env, f *fetch.Fetcher, rawURL string) (*fetch.Result, error) {
	if *nf.cache != "" {
		return f.Get(e.ctx, rawURL)
	}
	return f.Fetch(e.ctx, rawURL)
}

// policyOf returns the fetch policy of -robot, -policy and -profile: an
// explicit -policy wins, then the robot's own, then the profile's family.
func policyOf(fs *flag.FlagSet, explicit fetch.Policy, robot string, p robots.Profile) (fetch.Policy, string) {
	if isSet(fs, "policy") {
		return explicit, ""
	}
	return robotFetchPolicy(robot, p)
}

// robotFetchPolicy returns the fetch policy and User-Agent header of the
// registry robot named robot ("" for none) (decide.RobotFetchPolicy).
func robotFetchPolicy(robot string, p robots.Profile) (fetch.Policy, string) {
	return decide.RobotFetchPolicy(robot, p)
}

func runFetch(e *env, args []string) error {
	fs := newFlags(e, fetchCmd)
	var (
		profile robots.Profile
		policy  fetch.Policy
		robot   = fs.String("robot", "", "fetch as the registry robot `NAME`: its status rules, reading and User-Agent")
		format  = fs.String("format", "text", "output `format`: text or json")
	)
	fs.Var(&profile, "profile", "read the file as `P`: "+profileNames())
	fs.Var(&policy, "policy", "status rules `P`: google, rfc9309, bing, yandex, draft1996 or mandelbot (default: the robot's or the profile's)")
	nf := addNetFlags(fs, 10)
	if err := parseFlags(e, fetchCmd, fs, args); err != nil {
		return err
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return &usageError{msg: "give one URL"}
	}
	target, err := fetchURL(e, fs.Arg(0))
	if err != nil {
		return err
	}
	rd := reader{profile: profile}
	if isSet(fs, "robot") {
		if rd, err = robotReader(*robot, profile, isSet(fs, "profile")); err != nil {
			return err
		}
	}
	pol, ua := policyOf(fs, policy, *robot, rd.profile)
	f, done, err := nf.fetcher(pol, rd.profile, ua)
	if err != nil {
		return err
	}
	defer done()
	stop := progress(e, "fetching "+target)
	res, err := nf.get(e, f, target)
	stop()
	if e.ctx.Err() != nil {
		return e.ctx.Err()
	}
	if err != nil {
		return err
	}
	report := wire.Trace(res)
	if *format == "json" {
		err = writeJSON(e.stdout, report)
	} else {
		err = writeFetchText(e.stdout, report, notRobotsTxt(res.Body))
	}
	if err != nil {
		return err
	}
	if res.Access == fetch.AccessNone {
		return errFinding
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// notRobotsTxt says what a body is when it is not a robots.txt, as the
// checker reads it through internal/sniff (RB204 binary data, RB202 text
// in a wide encoding, RB205 an HTML page), or "" for a robots.txt.
func notRobotsTxt(body []byte) string {
	if k := sniff.Binary(body); k != "" {
		return "binary data (" + k + "), not a robots.txt: robots find no rules in it (robots check: RB204)"
	}
	if enc := sniff.Wide(body); enc != "" {
		return enc + " text, not UTF-8: robots find no rules in it (robots check: RB202; robots fix -enable FX02 transcodes it)"
	}
	if sniff.HTML(body) {
		return "an HTML page, not a robots.txt (robots check: RB205)"
	}
	return ""
}

// writeFetchText writes the trace for people; kind, when not "", says
// what the body is instead of a robots.txt (notRobotsTxt).
func writeFetchText(w io.Writer, r *wire.FetchTrace, kind string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "robots.txt of %s, as %s robots fetch it\n", r.Origin, r.Policy)
	if r.FromCache {
		fmt.Fprintf(&b, "  (from the cache; fetched %s)\n", r.Fetched.Format(time.RFC3339))
	}
	for _, h := range r.Hops {
		fmt.Fprintf(&b, "  GET %s\n", h.URL)
		if h.Status == 0 {
			fmt.Fprintf(&b, "      no response after %s: %s\n", fmtMS(h.DurationMS), h.Error)
			continue
		}
		fmt.Fprintf(&b, "      HTTP %d, %s", h.Status, fmtMS(h.DurationMS))
		if h.Size > 0 {
			fmt.Fprintf(&b, ", %s bytes", thousands(h.Size))
		}
		b.WriteString("\n")
		for _, k := range []string{"Location", "Content-Type", "Content-Encoding", "Content-Length", "Cache-Control", "Expires", "Last-Modified", "ETag", "Retry-After"} {
			if v, ok := h.Header[k]; ok {
				fmt.Fprintf(&b, "      %s: %s\n", k, v)
			}
		}
		if h.Error != "" {
			fmt.Fprintf(&b, "      error: %s\n", h.Error)
		}
	}
	fmt.Fprintf(&b, "outcome: %s: %s\n", r.Outcome, r.Reason)
	if r.Truncated {
		fmt.Fprintf(&b, "size: more than %s bytes; read up to the limit\n", thousands(robots.MaxBytes))
	} else if r.Size > 0 {
		fmt.Fprintf(&b, "size: %s bytes\n", thousands(r.Size))
	}
	if !r.Expires.IsZero() {
		fmt.Fprintf(&b, "fresh until: %s\n", r.Expires.Format(time.RFC3339))
	}
	if r.CacheError != "" {
		fmt.Fprintf(&b, "cache: %s (fetched without it)\n", r.CacheError)
	}
	// The file line says what a body that is not a robots.txt is: the
	// fetcher's warning of an HTML page is not said twice.
	var warnings []string
	for _, w := range r.Warnings {
		if kind == "" || !r.HTML || !strings.HasPrefix(w, "robots.txt is an HTML page") {
			warnings = append(warnings, w)
		}
	}
	if len(warnings) > 0 {
		b.WriteString("warnings:\n")
		for _, w := range warnings {
			fmt.Fprintf(&b, "  %s\n", w)
		}
	}
	if len(r.Readings) > 0 {
		// Families that read the answer alike share a line.
		var lines []string
		seen := map[string]int{}
		for _, p := range r.Readings {
			k := p.Access + "\x00" + p.Reason
			if i, ok := seen[k]; ok {
				lines[i] = strings.Replace(lines[i], ":", ", "+p.Policy+":", 1)
				continue
			}
			seen[k] = len(lines)
			lines = append(lines, p.Policy+": "+p.Access+" ("+p.Reason+")")
		}
		if len(lines) == 1 {
			b.WriteString("every robot family reads this answer alike\n")
		} else {
			b.WriteString("robot families read this answer differently:\n")
			for _, l := range lines {
				fmt.Fprintf(&b, "  %s\n", l)
			}
		}
	}
	if f := r.File; f != nil {
		if kind != "" {
			// Counts of lines, groups and rules would describe a
			// robots.txt this body is not.
			fmt.Fprintf(&b, "file: %s\n", kind)
		} else {
			fmt.Fprintf(&b, "file: %s, %s, %s, %s", plural(f.Lines, "line"), plural(len(f.Groups), "group"), plural(f.Rules, "rule"), plural(len(f.Sitemaps), "sitemap"))
			if f.Invalid > 0 {
				fmt.Fprintf(&b, ", %s robots ignore", plural(f.Invalid, "line"))
			}
			b.WriteString("\n")
		}
		for _, g := range f.Groups {
			fmt.Fprintf(&b, "  line %d: %s (%s)\n", g.Line, strings.Join(g.Agents, ", "), plural(g.Rules, "rule"))
		}
		for _, s := range f.Sitemaps {
			fmt.Fprintf(&b, "  sitemap: %s\n", s)
		}
	}
	_, err := io.WriteString(w, cleanLines(b.String()))
	return err
}

func fmtMS(v float64) string {
	if v < 10 {
		return strconv.FormatFloat(v, 'f', 1, 64) + " ms"
	}
	return strconv.FormatFloat(v, 'f', 0, 64) + " ms"
}

// thousands writes n with commas.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// fetchFile fetches the robots.txt of a site for compare and audit, as the
// checker does (10 redirects). When the answer holds no file it says so,
// with how each robot family reads the answer, and returns a nil error
// (or errFinding when a family keeps out); the caller then stops.
func fetchFile(e *env, nf *netFlags, rawURL string) ([]byte, *fetch.Result, error) {
	f, done, err := nf.fetcher(fetch.Google, robots.Google, "")
	if err != nil {
		return nil, nil, err
	}
	defer done()
	stop := progress(e, "fetching "+rawURL)
	res, err := nf.get(e, f, rawURL)
	stop()
	if e.ctx.Err() != nil {
		return nil, nil, e.ctx.Err()
	}
	if err != nil {
		return nil, nil, err
	}
	if res.Outcome == fetch.Success {
		fmt.Fprintf(e.stderr, "robots: %s: %s\n", res.URL, fetchSummary(res))
		return res.Body, res, nil
	}
	fmt.Fprintf(e.stdout, "%s: no file to read (%s)\n", res.URL, fetchSummary(res))
	finding := false
	for _, p := range fetch.Policies() {
		u := res.Under(p)
		fmt.Fprintf(e.stdout, "  %-10s %-5s %s\n", p, u.Access, u.Reason)
		finding = finding || u.Access == fetch.AccessNone
	}
	if finding {
		return nil, res, errFinding
	}
	return nil, res, nil
}

// loadFile reads the robots.txt of compare and audit: a file, standard
// input, or a site's file fetched by fetchFile. A nil src means there is
// no file to read; err then says why, or is nil or errFinding when the
// fetch answer said all there is.
func loadFile(e *env, nf *netFlags, arg string) (name string, src []byte, err error) {
	name, src, _, err = loadFileSize(e, nf, arg)
	return name, src, err
}

// loadFileSize is loadFile that also gives the size of the whole file:
// more than robots.MaxBytes when it was cut there.
func loadFileSize(e *env, nf *netFlags, arg string) (name string, src []byte, size int64, err error) {
	in, err := resolveInput(e, arg)
	if err != nil {
		return "", nil, 0, err
	}
	if in.url != "" {
		src, res, err := fetchFile(e, nf, in.url)
		if err != nil || res.Outcome != fetch.Success {
			return in.name, nil, 0, err
		}
		return in.name, nonNil(src), max(res.Size, int64(len(src))), nil
	}
	src, truncated, err := readLimited(e, in.path)
	if err != nil {
		return in.name, nil, 0, err
	}
	size = int64(len(src))
	if truncated {
		size = robots.MaxBytes + 1
	}
	return in.name, nonNil(src), size, nil
}

// nonNil returns b, or an empty slice for nil: an empty file is a file.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// plural writes n and a noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
