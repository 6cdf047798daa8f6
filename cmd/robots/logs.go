package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/history"
	"github.com/robotskit/robots/internal/accesslog"
	"github.com/robotskit/robots/internal/timeline"
	"github.com/robotskit/robots/syntax"
)

var logsCmd = &command{
	name:  "logs",
	usage: "[-store PATH [-site URL] | -file PATH [-site URL]] [-robots LIST] [-ranges ROBOT=FILE]... [-log-format auto|combined|json] [-format text|json|html] LOG...",
	short: "judge the robots in access logs by the robots.txt in force when they came",
	long: `Each LOG is an access log file (- for standard input), plain or gzip:
Combined Log Format lines, as Apache and nginx write them (Common Log
Format too, and Apache's vhost_combined, which starts with the host), or
JSON lines with time, host, path, status and user_agent (and the names
nginx and Caddy give them). Lines that cannot be read are counted and
skipped.

A request's robot is the known robot its User-Agent names (robots agents
lists them); -robots LIST keeps those of LIST (search, ai, all, or
tokens such as GPTBot,ClaudeBot; default all). Each request is judged as
that robot reads the robots.txt in force at the request's time: from the
store of robots watch (-store; a Combined line names no host, so its
requests belong to -site, or to the store's only site), or one -file for
every request. A request in an outage is judged by the status rules (a
503 is complete disallow at first). Requests for /robots.txt are never
violations; requests from before the store's first version are counted
apart.

Per robot: its requests, those for URLs the robots.txt then disallowed
(with the version's time and the deciding line), and its pace against
the Crawl-delay its group sets. -ranges ROBOT=FILE reads the IP ranges an
operator publishes as JSON (Google's googlebot.json, OpenAI's gptbot.json,
Bing's bingbot.json: {"prefixes":[{"ipv4Prefix":…}]}): requests that
claim ROBOT (or a robot that falls back to its token) from outside them
are counted as impostors and not judged as the robot. Nothing is fetched.`,
	exitCodes: `Exit codes:
  0    no robot requested a URL that robots.txt disallowed
  1    some robot did
  2    a usage error, or a log, the file or the store could not be read
  130  interrupted
`,
}

func init() { logsCmd.run = runLogs }

// logExamples is how many violations a robot's report shows.
const logExamples = 5

// maxLogAgents bounds the User-Agent strings remembered; past it, each
// new string is looked up again (a log of forged agents cannot grow the
// table).
const maxLogAgents = 100_000

// maxLogSites bounds the hosts followed for pacing.
const maxLogSites = 100_000

// maxRangesFile bounds a -ranges file.
const maxRangesFile = 1 << 20

func runLogs(e *env, args []string) error {
	fs := newFlags(e, logsCmd)
	var ranges stringsFlag
	store := fs.String("store", "", "judge against the versions of the robots watch store `PATH`")
	file := fs.String("file", "", "judge every request against the robots.txt `PATH`")
	siteFlag := fs.String("site", "", "the site of the log lines that name no host, such as example.com")
	set := fs.String("robots", "all", "the robots to report: `LIST` of search, ai, all or registry tokens")
	fs.Var(&ranges, "ranges", "`ROBOT=FILE`: the IP ranges ROBOT's operator publishes (repeatable)")
	logFormat := fs.String("log-format", "auto", "the logs' `format`: auto, combined or json")
	format := fs.String("format", "text", "output `format`: text, json or html")
	all := fs.Bool("all", false, "list every request for a disallowed URL, not only the first few of each robot")
	if err := parseFlags(e, logsCmd, fs, args); err != nil {
		return err
	}
	if *format != "text" && *format != "json" && *format != "html" {
		return &usageError{msg: fmt.Sprintf("-format must be text, json or html, got %q", *format)}
	}
	lf, err := accesslog.ParseFormat(*logFormat)
	if err != nil {
		return &usageError{msg: "-log-format: " + err.Error()}
	}
	switch {
	case *store == "" && *file == "":
		return &usageError{msg: "no robots.txt to judge by: give -store PATH (robots watch's) or -file PATH"}
	case *store != "" && *file != "":
		return &usageError{msg: "-store and -file both give the robots.txt: give one"}
	}
	if fs.NArg() == 0 {
		return &usageError{msg: "no log: give one or more access log files (- for standard input)"}
	}
	stdin := 0
	for _, a := range fs.Args() {
		if a == "-" {
			stdin++
		}
	}
	if stdin > 1 || stdin == 1 && *file == "-" {
		return &usageError{msg: "standard input (-) is given twice"}
	}
	rbs, err := agents.Select(*set)
	if err != nil {
		return &usageError{msg: "-robots: " + err.Error()}
	}
	j := &judge{examples: logExamples, robots: map[string]bool{}, agentsSeen: map[string]*logRobot{}, hosts: map[string]*logSite{}, stats: map[string]*robotStats{}}
	for _, rb := range rbs {
		j.robots[rb.Token] = true
	}
	if *all {
		j.examples = math.MaxInt
	}
	for _, r := range ranges {
		if err := j.addRanges(r); err != nil {
			return err
		}
	}
	site := ""
	if *siteFlag != "" {
		if site, err = storeSite(*siteFlag); err != nil {
			return err
		}
	}
	if *file != "" {
		src, truncated, err := readLimited(e, *file)
		if err != nil {
			return err
		}
		if truncated {
			fmt.Fprintf(e.stderr, "robots: %s is larger than %d KiB: like Google, robots read only its first %d KiB\n", *file, robots.MaxBytes>>10, robots.MaxBytes>>10)
		}
		j.file = &logSite{site: site, tl: timeline.New([]history.Version{{
			Site: site, Status: 200, Outcome: fetch.Success.String(), Body: nonNil(src), Size: servedSize(src, truncated), Seq: 1,
		}}), fixed: true}
		j.fileName = *file
	} else {
		st, err := openStoreRead(e, *store)
		if err != nil {
			return err
		}
		sites, err := st.Sites()
		if err != nil {
			st.Close()
			return err
		}
		if len(sites) == 0 {
			st.Close()
			return fmt.Errorf("-store %s holds no site yet (robots watch -store %s SITE stores one)", *store, shellQuote(*store))
		}
		for _, s := range sites {
			vs, err := st.Versions(s.Site)
			if err != nil {
				st.Close()
				return err
			}
			ls := &logSite{site: s.Site, tl: timeline.New(vs)}
			j.bySite = append(j.bySite, ls)
		}
		st.Close()
		if site == "" && len(sites) == 1 {
			site = sites[0].Site
		}
		if site != "" {
			if j.deflt = j.findSite(site); j.deflt == nil {
				return fmt.Errorf("-site %s: the store holds no version of it", site)
			}
		}
	}
	for _, name := range fs.Args() {
		if err := j.readLog(e, name, lf); err != nil {
			return err
		}
	}
	rep := j.report()
	switch *format {
	case "json":
		err = writeJSON(e.stdout, rep)
	case "html":
		err = writeLogsHTML(e.stdout, rep)
	default:
		err = rep.writeText(e.stdout)
	}
	if err != nil {
		return err
	}
	if j.noHost > 0 {
		fmt.Fprintf(e.stderr, "robots: %s named no host: give -site to judge them\n", plural(int(j.noHost), "robot request"))
	}
	if rep.Violations > 0 {
		return errFinding
	}
	return nil
}

// A judge reads log entries and judges the robots' requests.
type judge struct {
	examples   int                  // the violations listed per robot
	robots     map[string]bool      // the tokens reported
	agentsSeen map[string]*logRobot // by User-Agent string; nil value: no robot
	ranges     []logRanges

	file     *logSite // -file: every request's robots.txt
	fileName string
	bySite   []*logSite // -store: the store's sites
	deflt    *logSite   // the site of lines without a host
	hosts    map[string]*logSite

	stats map[string]*robotStats
	// Counts over every entry.
	lines, entries, bad, others, before, noHost, unknownHost int64
	firstBad                                                 string
	first, last                                              time.Time
}

// A logRobot is a known robot as the judge reads it.
type logRobot struct {
	rd     reader
	ranges []*accesslog.Ranges
}

type logRanges struct {
	token string
	r     *accesslog.Ranges
	file  string
}

// logSite is one site's robots.txt over time.
type logSite struct {
	site  string
	tl    *timeline.Timeline
	fixed bool // -file: the one version is in force at every time
	// last request of each robot, for its pace
	last map[string]time.Time
	// files are the parses of the versions an example quotes.
	files map[int]*syntax.File
	// delays are the Crawl-delays of each version for each robot.
	delays map[delayKey]float64
}

// robotStats is one robot's tally.
type robotStats struct {
	Robot      string       `json:"robot"`
	Requests   int64        `json:"requests"`
	Violations int64        `json:"violations"`
	Examples   []logExample `json:"examples"`
	// Before counts requests from before the store's first version.
	Before int64 `json:"before_history,omitempty"`
	// Impostors are requests that claim the robot from outside its
	// operator's published ranges (-ranges).
	Impostors int64 `json:"impostors,omitempty"`
	// CrawlDelay is the largest Crawl-delay in force for the robot (0:
	// none); TooSoon counts the requests that came sooner than the
	// delay after the robot's previous request to the site.
	CrawlDelay float64 `json:"crawl_delay,omitempty"`
	TooSoon    int64   `json:"too_soon,omitempty"`
	// PerMinute is the robot's mean rate over the span of its requests.
	PerMinute float64 `json:"per_minute,omitempty"`

	first, last time.Time
}

// logExample is one violation.
type logExample struct {
	Line    int64     `json:"line"`
	Log     string    `json:"log"`
	Time    time.Time `json:"time"`
	URL     string    `json:"url"`
	Status  int       `json:"status"`
	Version int       `json:"version"`      // the version in force (1 for -file)
	Since   time.Time `json:"version_time"` // when it was fetched (zero for -file)
	// Rule says what decided, in the words of robots test ("line 4:
	// Disallow: /private/"), or why the whole site was off limits;
	// RuleLine is the deciding line, 0 when no line decided.
	RuleLine int    `json:"rule_line,omitempty"`
	Rule     string `json:"rule"`
}

// addRanges reads one -ranges ROBOT=FILE.
func (j *judge) addRanges(arg string) error {
	name, file, ok := strings.Cut(arg, "=")
	if !ok || name == "" || file == "" {
		return &usageError{msg: fmt.Sprintf("-ranges %q: give ROBOT=FILE, such as Googlebot=googlebot.json", arg)}
	}
	rb, err := findRobot(name)
	if err != nil {
		return err
	}
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("-ranges %s: %w", arg, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxRangesFile+1))
	if err != nil {
		return fmt.Errorf("-ranges %s: %w", file, err)
	}
	if len(data) > maxRangesFile {
		return fmt.Errorf("-ranges %s: larger than %d KiB", file, maxRangesFile>>10)
	}
	r, err := accesslog.ParseRanges(data)
	if err != nil {
		return fmt.Errorf("-ranges %s: %w", file, err)
	}
	j.ranges = append(j.ranges, logRanges{token: rb.Token, r: r, file: file})
	return nil
}

// robotOf returns the robot a User-Agent names, nil for none reported.
func (j *judge) robotOf(ua string) *logRobot {
	if r, ok := j.agentsSeen[ua]; ok {
		return r
	}
	var out *logRobot
	if rb, ok := agents.FromUserAgent(ua); ok && j.robots[rb.Token] && !rb.TokenOnly {
		out = &logRobot{rd: fromRegistry(rb, 0, false)}
		toks := rb.Tokens()
		for _, lr := range j.ranges {
			if slices.ContainsFunc(toks, func(t string) bool { return strings.EqualFold(t, lr.token) }) {
				out.ranges = append(out.ranges, lr.r)
			}
		}
	}
	if len(j.agentsSeen) < maxLogAgents {
		j.agentsSeen[ua] = out
	}
	return out
}

// findSite returns the store's site of an origin, nil when none.
func (j *judge) findSite(origin string) *logSite {
	for _, s := range j.bySite {
		if s.site == origin {
			return s
		}
	}
	return nil
}

// siteOf returns the robots.txt history that governs a request.
func (j *judge) siteOf(e *accesslog.Entry) *logSite {
	host := e.Host
	if host == "" && strings.HasPrefix(e.Target, "http") {
		if o, err := fetch.ParseOrigin(e.Target); err == nil {
			host = o.String()
		}
	}
	if host == "" {
		if j.file != nil {
			return j.file
		}
		return j.deflt
	}
	if s, ok := j.hosts[host]; ok {
		return s
	}
	var s *logSite
	if j.file != nil {
		s = j.file
	} else {
		for _, origin := range originsOf(host) {
			if s = j.findSite(origin); s != nil {
				break
			}
		}
	}
	if len(j.hosts) < maxLogSites {
		j.hosts[host] = s
	}
	return s
}

// originsOf returns the origins a log's host may stand for: the host
// as an origin when it is one, else https then http.
func originsOf(host string) []string {
	if strings.Contains(host, "://") {
		if o, err := fetch.ParseOrigin(host); err == nil {
			return []string{o.String()}
		}
		return nil
	}
	var out []string
	for _, scheme := range []string{"https://", "http://"} {
		if o, err := fetch.ParseOrigin(scheme + host); err == nil {
			out = append(out, o.String())
		}
	}
	return out
}

// readLog reads one log and judges its entries.
func (j *judge) readLog(e *env, name string, lf accesslog.Format) error {
	var in io.Reader
	var size int64
	if name == "-" {
		in = e.stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil {
			if fi.IsDir() {
				return fmt.Errorf("%s is a directory: give log files", name)
			}
			size = fi.Size()
		}
		in = f
	}
	r, err := accesslog.NewReader(in, lf)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	var lines, read atomic.Int64
	stop := logProgress(e, name, &lines, &read, size)
	defer stop()
	var ent accesslog.Entry
	for n := 0; ; n++ {
		if n&4095 == 0 {
			if err := e.ctx.Err(); err != nil {
				return err
			}
			st := r.Stats()
			lines.Store(st.Lines)
			read.Store(st.Bytes)
		}
		err := r.Next(&ent)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			st := r.Stats()
			return fmt.Errorf("%s: after line %d: %w", name, st.Lines, err)
		}
		j.judge(name, &ent)
	}
	st := r.Stats()
	j.lines += st.Lines
	j.entries += st.Entries
	j.bad += st.Bad
	if j.firstBad == "" && st.FirstBad != "" {
		j.firstBad = name + ": " + st.FirstBad
	}
	if st.Lines > 0 && st.Entries == 0 {
		return fmt.Errorf("%s: none of its %s is an access log line (%s)", name, plural(int(st.Lines), "line"), st.FirstBad)
	}
	return nil
}

// judge judges one entry.
func (j *judge) judge(logName string, ent *accesslog.Entry) {
	if !ent.Time.IsZero() {
		if j.first.IsZero() || ent.Time.Before(j.first) {
			j.first = ent.Time
		}
		if ent.Time.After(j.last) {
			j.last = ent.Time
		}
	}
	rb := j.robotOf(ent.UserAgent)
	if rb == nil {
		j.others++
		return
	}
	st := j.stats[rb.rd.name]
	if st == nil {
		st = &robotStats{Robot: rb.rd.name, Examples: []logExample{}}
		j.stats[rb.rd.name] = st
	}
	if len(rb.ranges) > 0 && ent.Remote.IsValid() && !slices.ContainsFunc(rb.ranges, func(r *accesslog.Ranges) bool { return r.Contains(ent.Remote) }) {
		st.Impostors++
		return
	}
	st.Requests++
	if st.first.IsZero() || ent.Time.Before(st.first) {
		st.first = ent.Time
	}
	if ent.Time.After(st.last) {
		st.last = ent.Time
	}
	s := j.siteOf(ent)
	if s == nil {
		if ent.Host == "" {
			j.noHost++
		} else {
			j.unknownHost++
		}
		return
	}
	site := s.site
	if site == "" && ent.Host != "" {
		// -file without -site: the line's own host names the site.
		if o := originsOf(ent.Host); len(o) > 0 {
			site = o[0]
		}
	}
	url := requestURL(site, ent.Target)
	at := ent.Time
	if s.fixed {
		at = time.Time{} // the one version, of time zero, in force at every time
	}
	d, rd := s.tl.Decide(at, rb.rd.policy, rb.rd.profile, rb.rd.agent, url)
	if rd.Version < 0 {
		st.Before++
		return
	}
	if rd.Rules != nil {
		j.pace(s, rb, st, rd.Source, rd.Rules, ent.Time)
	}
	if d.Allowed || isRobotsTxt(url) {
		return
	}
	st.Violations++
	if len(st.Examples) < j.examples {
		v := s.tl.Versions()[rd.Version]
		ex := logExample{Line: ent.Line, Log: logName, Time: ent.Time, URL: url, Status: ent.Status, Version: rd.Version + 1, Since: v.Time}
		if rd.Rules != nil {
			// The words of robots test: the deciding line as written.
			ex.RuleLine = d.Line
			ex.Rule = explain(s.syntaxOf(rd.Source), d)
		} else {
			ex.Rule = rd.Reason
		}
		st.Examples = append(st.Examples, ex)
	}
}

// pace counts a request that came sooner than the robot's Crawl-delay
// (of version src's group for it) after its previous request to the site.
func (j *judge) pace(s *logSite, rb *logRobot, st *robotStats, src int, rules *robots.Rules, t time.Time) {
	k := delayKey{src, rb.rd.name}
	delay, ok := s.delays[k]
	if !ok {
		if g, found := rules.Group(rb.rd.agent); found {
			if d, set := g.CrawlDelay(); set {
				delay = d.Seconds()
			}
		}
		if s.delays == nil {
			s.delays = map[delayKey]float64{}
		}
		s.delays[k] = delay
	}
	if delay <= 0 || t.IsZero() {
		return
	}
	st.CrawlDelay = math.Max(st.CrawlDelay, delay)
	if s.last == nil {
		s.last = map[string]time.Time{}
	}
	if prev, ok := s.last[rb.rd.name]; ok && t.Sub(prev).Seconds() < delay && !t.Before(prev) {
		st.TooSoon++
	}
	s.last[rb.rd.name] = t
}

// delayKey is a version's rules for one robot.
type delayKey struct {
	version int
	robot   string
}

// requestURL is the URL a request target names on site.
func requestURL(site, target string) string {
	if strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://") {
		return target
	}
	if !strings.HasPrefix(target, "/") {
		target = "/" + target
	}
	return site + target
}

// isRobotsTxt reports a request for the robots.txt itself, which no rule
// keeps a robot from (RFC 9309 §2.2.2 aside, a crawler reads it to know
// the rules).
func isRobotsTxt(url string) bool {
	i := strings.Index(url, "://")
	if i < 0 {
		return false
	}
	rest := url[i+3:]
	if k := strings.IndexByte(rest, '/'); k >= 0 {
		p := rest[k:]
		if q := strings.IndexAny(p, "?#"); q >= 0 {
			p = p[:q]
		}
		return p == "/robots.txt"
	}
	return false
}

// syntaxOf returns the parse of version i's body, parsing it once.
func (s *logSite) syntaxOf(i int) *syntax.File {
	if s.files == nil {
		s.files = map[int]*syntax.File{}
	}
	f := s.files[i]
	if f == nil {
		f = syntax.Parse("robots.txt", s.tl.Versions()[i].Body)
		s.files[i] = f
	}
	return f
}

// logsReport is the JSON of robots logs.
type logsReport struct {
	Robots     []*robotStats `json:"robots"`
	Lines      int64         `json:"lines"`
	Requests   int64         `json:"requests"`
	Bad        int64         `json:"bad_lines"`
	FirstBad   string        `json:"first_bad,omitempty"`
	Others     int64         `json:"other_requests"`
	Violations int64         `json:"violations"`
	Unjudged   int64         `json:"unjudged,omitempty"` // robot requests of hosts without a robots.txt known
	From       time.Time     `json:"from"`
	To         time.Time     `json:"to"`
	Source     string        `json:"robots_txt"`
}

func (j *judge) report() *logsReport {
	rep := &logsReport{Robots: []*robotStats{}, Lines: j.lines, Requests: j.entries, Bad: j.bad, FirstBad: j.firstBad, Others: j.others, From: j.first, To: j.last, Unjudged: j.noHost + j.unknownHost}
	if j.file != nil {
		rep.Source = j.fileName
	} else {
		rep.Source = "store"
	}
	for _, st := range j.stats {
		if span := st.last.Sub(st.first).Minutes(); span > 0 {
			st.PerMinute = math.Round(float64(st.Requests)/span*100) / 100
		}
		rep.Violations += st.Violations
		rep.Robots = append(rep.Robots, st)
	}
	slices.SortFunc(rep.Robots, func(a, b *robotStats) int {
		return cmp.Or(cmp.Compare(b.Violations, a.Violations), cmp.Compare(b.Requests, a.Requests), strings.Compare(a.Robot, b.Robot))
	})
	return rep
}

func (r *logsReport) writeText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s read, %s from known robots, %s from others", plural(int(r.Lines), "line"), plural(int(r.Requests-r.Others), "request"), plural(int(r.Others), "request"))
	if r.Bad > 0 {
		fmt.Fprintf(&b, "; %s skipped (%s)", plural(int(r.Bad), "unreadable line"), clean(r.FirstBad))
	}
	b.WriteString("\n")
	if r.Unjudged > 0 {
		fmt.Fprintf(&b, "%s for hosts without a robots.txt to judge by (not in the store, or no host and no -site): not judged\n", plural(int(r.Unjudged), "robot request"))
	}
	if len(r.Robots) == 0 {
		b.WriteString("no known robot in the logs\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ROBOT\tREQUESTS\tDISALLOWED\tCRAWL-DELAY\tTOO SOON\tPER MIN\tIMPOSTORS")
	for _, st := range r.Robots {
		delay := "-"
		if st.CrawlDelay > 0 {
			delay = fmt.Sprintf("%gs", st.CrawlDelay)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%d\t%g\t%d\n", st.Robot, st.Requests, st.Violations, delay, st.TooSoon, st.PerMinute, st.Impostors)
	}
	tw.Flush()
	for _, st := range r.Robots {
		if st.Violations == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s: %s for disallowed URLs", st.Robot, plural(int(st.Violations), "request"))
		if n := int64(len(st.Examples)); n < st.Violations {
			fmt.Fprintf(&b, " (the first %d)", n)
		}
		b.WriteString("\n")
		for _, ex := range st.Examples {
			fmt.Fprintf(&b, "  %s:%d %s %s\n", clean(ex.Log), ex.Line, stamp(ex.Time), clean(ex.URL))
			ver := r.Source
			if r.Source == "store" {
				ver = fmt.Sprintf("version %d of %s", ex.Version, stamp(ex.Since))
			}
			fmt.Fprintf(&b, "    %s: %s\n", ver, clean(ex.Rule))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// logProgress shows, on a terminal, how far the reading of a log is.
func logProgress(e *env, name string, lines, read *atomic.Int64, size int64) func() {
	if !e.tty {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(500 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				fmt.Fprint(e.stderr, "\r\x1b[K")
				return
			case <-tick.C:
				msg := fmt.Sprintf("%s: %d lines", name, lines.Load())
				if size > 0 {
					msg += fmt.Sprintf(" (%d%%)", min(100, read.Load()*100/size))
				}
				fmt.Fprintf(e.stderr, "\r\x1b[K%s", msg)
			}
		}
	}()
	return func() { close(done); <-finished }
}
