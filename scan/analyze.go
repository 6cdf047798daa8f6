package scan

import (
	"bytes"
	"context"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"

	"golang.org/x/net/publicsuffix"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/internal/sniff"
	"github.com/robotskit/robots/lint"
	"github.com/robotskit/robots/syntax"
	"github.com/robotskit/robots/usage"
)

// Analyze reads one capture and returns its row. It reads nothing but c
// and o and changes neither; it never fails, whatever the bytes: a
// capture that is not a robots.txt at all gives a row that says so. A nil
// c gives the zero Row, a nil o the zero Options.
//
// The facts of the response:
//
//   - Host is the URL's host name, lower-cased, without port or IPv6
//     brackets; Domain its registered domain by the public suffix list
//     (golang.org/x/net/publicsuffix, EffectiveTLDPlusOne), "" for an IP
//     address or a host the list cannot place.
//   - Status is the recorded status, 200 when none was recorded (a file on
//     disk). RedirectTo is the Location of a 3xx resolved against URL
//     (RFC 9110 §10.2.2), as recorded when it does not parse.
//   - ContentType is the media type of Content-Type, lower-cased, without
//     parameters.
//   - Bytes is the payload's size; OverLimit is set past 500 KiB
//     (robots.MaxBytes), which Google ignores and Yandex treats as no file
//     (RFC 9309 §2.5; Yandex's robots.txt help).
//   - HTML is set when a 2xx body is an HTML page rather than a robots.txt
//     (a soft 404, a login page), as the checker and the fetcher say it
//     is: its first bytes are an HTML signature of the WHATWG MIME
//     Sniffing standard, or it holds an HTML tag and no User-agent line
//     (internal/sniff.HTML). A robots.txt served as text/html is not HTML.
//
// Encoding and BOM say how a 2xx body is encoded (encodingOf): "utf-8",
// a wide encoding ("utf-16le" …), "binary" or "other" (a legacy
// encoding), and whether it starts with a byte order mark.
//
// Outcomes holds the reading of the response under each fetch policy
// (fetch.Policy.Classify): "rules" (fetch.Success: the file's rules
// apply), "unavailable", "forbidden" or "unreachable", the names of
// fetch.Outcome. A redirect is one hop whose target is another record:
// every policy reads it as a redirect it cannot follow, "unavailable",
// and one without a usable Location as an invalid response, as a network
// error (see fetch.Policy.Classify).
//
// The file, for a 2xx response (the body of an error page or a redirect
// is no robots.txt, and those fields stay empty): the body is cut at
// 500 KiB and the line the cut goes through, as robots.Read cuts it, and
// parsed once with syntax.Parse. Directives counts the directive lines by
// key, ASCII lower-cased as written, unknown keys and Google's
// misspellings included, in the order each key first appears; a line of
// two words without a colon counts only when its first word is a key
// Google reads ("Disallow /x"). Groups, Rules and Sitemaps count what
// Google's parser reads (RFC 9309 §2.1, §2.2; google/robotstxt): Groups
// the groups of the file's rules under Google's profile
// (robots.Rules.Groups); Rules the Allow and Disallow lines inside groups,
// those after the first User-agent line; Sitemaps every Sitemap line. Agents holds every
// User-agent value in file order: as written, ASCII lower-cased, and its
// RFC 9309 product token (robots.LineToken). ContentSignal, ContentUsage
// and License hold the values of the Content-Signal, Content-Usage and
// License lines as written, in file order, those the root package reads
// as such lines (syntax.ContentSignal, syntax.ContentUsage,
// syntax.License), in a group or not.
//
// Robots holds a verdict for each robot of o.Robots, in order. Under its
// fetch policy's outcome, as at a first fetch (fetch.Policy.First):
// "unavailable" makes it "open" (RFC 9309 §2.3.1.3: no restrictions),
// "forbidden" and "unreachable" make it "blocked" (the 1996 draft §3.1;
// RFC 9309 §2.3.1.4: complete disallow, as at the start of an outage,
// where the policy has one), each with Via "none" and Line 0
// (fetch.Access.For).
// "rules" compiles the file under the robot's profile (once per
// profile and capture) and gives the robot's access as robots.Rules.Access
// reads it for the robot's agent (agents.Robot.Reader): its state, how it
// found its group, the line of the rule that decides "/" and its group's
// first line, the same object robots audit, robots compare and the API
// report. CrawlDelay is the group's Crawl-delay in seconds. AITrain is
// the ai-train verdict of usage.Decide for "/", for the robot's agent
// under the same compiled rules, with no response: the file's
// Content-Usage and Content-Signal lines of the robot's groups and the
// usage control tokens that govern it (Google-Extended for Googlebot);
// "none" when it may not crawl "/", and under the outcomes that ignore
// the file. A revisit record has no body to read: its row has no
// verdicts (Robots is nil) and is not checked.
//
// Lint, when o.Lint is set, holds the distinct codes lint.RunContext
// reports for the file and the recorded response (its status, Location,
// Content-Type, caching headers and size; a capture without status is
// checked as a file from disk), within o.LintWork (lint.Config.MaxWork).
func Analyze(c *Capture, o *Options) Row {
	if c == nil {
		return Row{}
	}
	if o == nil {
		o = &Options{}
	}
	a := analyzer{c: c, o: o, shortcut: true}
	a.run()
	return a.row
}

// slots bounds the fetch policies and profiles a capture keeps state for;
// both packages have six.
const slots = 8

// analyzer is the state of one Analyze call.
type analyzer struct {
	c   *Capture
	o   *Options
	row Row

	status int
	size   int64
	body   []byte       // the body as robots read it: cut at robots.MaxBytes
	file   *syntax.File // the parsed body, for a 2xx

	outcomes [slots]fetch.Outcome // by fetch.Policy
	rules    [slots]*robots.Rules // by robots.Profile, compiled when first needed

	// shortcut lets a robot that no User-agent line can name take the
	// verdict of the "*" groups under its profile, worked out once; the
	// tests turn it off to check that it changes nothing.
	shortcut bool
	names    map[string]struct{} // lower-cased product tokens and whole names of the User-agent values
	// namesControl is 1 when a User-agent line may name a usage control
	// token, -1 when none may, 0 until worked out.
	namesControl int8
	starDone     [slots][2]bool
	starV        [slots][2]Verdict // by profile and IgnoreGlobal
	memo         []memoEntry       // the verdicts of the robots read by their own groups
	// analyzer, when not nil, keeps the facts of the bodies it read.
	analyzer *Analyzer
}

// memoEntry is a verdict worked out for one way of reading the file.
type memoEntry struct {
	profile      robots.Profile
	token        string
	fallback     []string
	ignoreGlobal bool
	v            Verdict
}

func (a *analyzer) run() {
	c, row := a.c, &a.row
	row.URL, row.Time, row.Source, row.Offset = c.URL, c.Time, c.Source, c.Offset
	row.Host, row.Domain = hostDomain(c.URL)
	a.status = c.Status
	if a.status == 0 {
		a.status = 200 // a file on disk
	}
	row.Status = a.status
	row.ContentType = mediaType(c.Header.Get("Content-Type"))
	if a.status >= 300 && a.status < 400 {
		row.RedirectTo = redirectTarget(c.URL, c.Header.Get("Location"))
	}
	a.size = max(c.Size, int64(len(c.Body)))
	row.Bytes = a.size
	// RFC 9309 §2.5: a limit of at least 500 KiB; Google ignores what
	// follows it, Yandex ignores the whole file.
	row.OverLimit = a.size > robots.MaxBytes
	row.Truncated, row.Revisit = c.Truncated, c.Revisit

	a.body = c.Body
	if len(a.body) > robots.MaxBytes {
		// The rule of robots.Read: the limit, and the line it cuts.
		a.body, _, _ = robots.Read(bytes.NewReader(a.body))
	}

	pols := fetch.Policies()
	row.Outcomes = make([]Outcome, len(pols))
	for i, p := range pols {
		out := p.Classify(a.status, c.Header, c.Body, a.size)
		if int(p) < slots {
			a.outcomes[p] = out
		}
		row.Outcomes[i] = Outcome{Policy: p.String(), Outcome: outcomeName(out)}
	}

	// An Analyzer reads a body once for all its captures.
	memo := a.analyzer != nil && !c.Revisit
	var key memoKey
	if memo {
		key = a.analyzer.key(a)
		if a.analyzer.get(key, a) {
			if a.o.Lint {
				a.lint()
			}
			return
		}
	}
	if a.status >= 200 && a.status < 300 {
		a.file = syntax.Parse("", a.body)
		a.readFile()
		row.HTML = sniff.HTML(a.body)
		row.Encoding, row.BOM = encodingOf(a.body)
	}
	if c.Revisit {
		return // no body to read
	}
	a.verdicts()
	if memo {
		a.analyzer.put(key, a)
	}
	if a.o.Lint {
		a.lint()
	}
}

// OutcomeRules is the name Row.Outcomes gives fetch.Success, the outcome
// whose file's rules apply (fetch.Outcome's String says "success"); the
// other outcomes keep fetch's names.
const OutcomeRules = "rules"

// outcomeName returns the name of out in Row.Outcomes.
func outcomeName(out fetch.Outcome) string {
	if out == fetch.Success {
		return OutcomeRules
	}
	return out.String()
}

// readFile fills the counts and the User-agent values of the row from
// the parsed file.
func (a *analyzer) readFile() {
	f, row := a.file, &a.row
	var (
		keyBuf [64]byte
		kb     = keyBuf[:0]
		idx    map[string]int // key → index in row.Directives, once there are many keys
		open   bool           // a User-agent line was read
		arena  []byte         // the User-agent values and their lower-case forms
		refs   []agentRef
	)
	for i := range f.Lines {
		l := &f.Lines[i]
		if l.Kind != syntax.DirectiveLine {
			continue
		}
		if l.Flags&syntax.MissingColon != 0 && l.Field == syntax.Unknown {
			// Two words without a colon, the first no key Google reads:
			// text, not a directive.
			continue
		}

		// Directives: count the line under its lower-cased key.
		kb = appendLower(kb[:0], f.Text(l.Key))
		found := -1
		if idx != nil {
			if j, ok := idx[string(kb)]; ok {
				found = j
			}
		} else {
			for j := range row.Directives {
				if row.Directives[j].Key == string(kb) {
					found = j
					break
				}
			}
		}
		if found >= 0 {
			row.Directives[found].Count++
		} else {
			row.Directives = append(row.Directives, KeyCount{Key: internKey(kb), Count: 1})
			switch {
			case idx != nil:
				idx[row.Directives[len(row.Directives)-1].Key] = len(row.Directives) - 1
			case len(row.Directives) > 16:
				idx = make(map[string]int, 2*len(row.Directives))
				for j, d := range row.Directives {
					idx[d.Key] = j
				}
			}
		}

		// Rules in groups as Google's parser reads them (google/robotstxt;
		// RFC 9309 §2.1): every rule after the first User-agent line is
		// in a group, and rules before it are in none.
		switch l.Field {
		case syntax.UserAgent:
			open = true
			v := f.Text(l.Value)
			r := agentRef{v: len(arena), n: len(v), line: i + 1}
			arena = append(arena, v...)
			r.lo = r.v
			if hasUpper(v) {
				r.lo = len(arena)
				arena = appendLower(arena, v)
			}
			refs = append(refs, r)
		case syntax.Allow, syntax.Disallow:
			if open {
				row.Rules++
			}
		case syntax.Sitemap:
			row.Sitemaps++ // RFC 9309 §2.2.4: a Sitemap line belongs to no group
		case syntax.ContentSignal:
			// A copy, so that the row does not keep the body alive.
			row.ContentSignal = append(row.ContentSignal, strings.Clone(f.Text(l.Value)))
		case syntax.ContentUsage:
			row.ContentUsage = append(row.ContentUsage, strings.Clone(f.Text(l.Value)))
		case syntax.License:
			row.License = append(row.License, strings.Clone(f.Text(l.Value)))
		}
	}
	// The groups as Google reads them: robots.Rules.Groups.
	row.Groups = len(a.compiled(robots.Google).Groups())
	if len(refs) == 0 {
		return
	}
	// One string holds every value, so that the row does not keep the
	// whole body alive.
	s := string(arena)
	row.Agents = make([]AgentValue, len(refs))
	for i, r := range refs {
		v := s[r.v : r.v+r.n]
		row.Agents[i] = AgentValue{Value: v, Lower: s[r.lo : r.lo+r.n], Token: robots.LineToken(v), Line: r.line}
	}
}

// agentRef is a User-agent value in the arena of readFile: its offset,
// the offset of its lower-case form, its length and its line.
type agentRef struct{ v, lo, n, line int }

// verdicts fills row.Robots.
func (a *analyzer) verdicts() {
	rbs := a.o.Robots
	if len(rbs) == 0 {
		return
	}
	a.row.Robots = make([]Verdict, len(rbs))
	for i := range rbs {
		v := a.verdict(&rbs[i])
		v.Robot = rbs[i].Token
		a.row.Robots[i] = v
	}
}

// verdict returns what the robot rb does on the site: the access its fetch
// policy gives after this response (fetch.Policy.First), read for the
// robot as fetch.Access.For and robots.Rules.Access read it.
func (a *analyzer) verdict(rb *agents.Robot) Verdict {
	pol := a.policy(rb.Fetch)
	if acc, _ := pol.First(a.outcomes[pol]); acc != fetch.AccessRules {
		v := verdictFrom(acc.For(nil, robots.Agent{}), 0)
		v.AITrain = noFileAITrain()
		return v
	}
	agent, prof := rb.Reader()
	if int(prof) >= slots {
		prof = robots.Google
	}
	rules := a.compiled(prof)
	if a.shortcut && namesByToken(prof) && !a.mayName(rb) && !a.mayNameControl(rb) {
		// No User-agent line names any of its tokens, or of the control
		// tokens that govern it: the robot reads the "*" groups, as
		// every other such robot of its profile.
		ig := 0
		if rb.IgnoresGlobal {
			ig = 1
		}
		if !a.starDone[prof][ig] {
			a.starV[prof][ig] = a.decide(rules, robots.Agent{IgnoreGlobal: rb.IgnoresGlobal})
			a.starDone[prof][ig] = true
		}
		return a.starV[prof][ig]
	}
	for _, m := range a.memo {
		if m.profile == prof && m.ignoreGlobal == rb.IgnoresGlobal && strings.EqualFold(m.token, rb.Token) &&
			slices.EqualFunc(m.fallback, rb.Fallback, strings.EqualFold) {
			return m.v
		}
	}
	v := a.decide(rules, agent)
	a.memo = append(a.memo, memoEntry{profile: prof, token: rb.Token, fallback: rb.Fallback, ignoreGlobal: rb.IgnoresGlobal, v: v})
	return v
}

// decide returns the verdict of the robot ag under rules: its access
// (robots.Rules.Access), its group's Crawl-delay and the ai-train verdict
// of "/" (usage.Decide, with no response).
func (a *analyzer) decide(rules *robots.Rules, ag robots.Agent) Verdict {
	var delay float64
	if g, ok := rules.Group(ag); ok {
		if d, ok := g.CrawlDelay(); ok {
			delay = d.Seconds()
		}
	}
	v := verdictFrom(rules.Access(ag), delay)
	v.AITrain = usage.Decide(rules, usage.Robot{Agent: ag}, "/", nil).Usage.AITrain.Value
	return v
}

// noFileAITrain is the ai-train verdict of a robot that reads no file:
// what usage.Decide says of "/" with no robots.txt. Under complete
// disallow, the other outcome that ignores the file, nothing may be
// crawled and there is no preference either (draft-ietf-aipref-attach-05
// §3.1).
var noFileAITrain = sync.OnceValue(func() string {
	return usage.Decide(nil, usage.Robot{}, "/", nil).Usage.AITrain.Value
})

// controlTokens holds, by lower-cased registry token, the usage control
// tokens that govern the robot (agents.ControlsFor), for the robots that
// some control governs; and every control token.
var controlTokens = sync.OnceValues(func() (map[string][]string, []string) {
	m := map[string][]string{}
	var all []string
	for _, r := range agents.All() {
		if r.Controls != nil {
			all = append(all, r.Token)
		}
		for _, c := range agents.ControlsFor(r.Token) {
			k := string(appendLower(nil, r.Token))
			m[k] = append(m[k], c.Token)
		}
	}
	return m, all
})

// mayNameControl reports whether the ai-train verdict of rb may differ
// from that of the "*" groups when no User-agent line names rb: when a
// control token governs rb (usage.Decide reads the control's groups) and
// a User-agent line may name the control, or rb skips the "*" groups
// that the control, unnamed, reads. A control that no line names reads
// the "*" groups, as rb does: it disallows "/" only where rb may not
// crawl it, and then there is no preference to give.
func (a *analyzer) mayNameControl(rb *agents.Robot) bool {
	if !rb.IgnoresGlobal && !a.mayNameAnyControl() {
		return false // the common case, worked out once a file
	}
	var buf [64]byte
	if len(rb.Token) > len(buf) {
		return true
	}
	governs, _ := controlTokens()
	cs := governs[string(appendLower(buf[:0], rb.Token))]
	if len(cs) == 0 {
		return false
	}
	if rb.IgnoresGlobal {
		return true
	}
	for _, t := range cs {
		if a.named(t) {
			return true
		}
	}
	return false
}

// mayNameAnyControl reports whether a User-agent line may name a usage
// control token of the registry, working it out once.
func (a *analyzer) mayNameAnyControl() bool {
	if a.namesControl == 0 {
		a.namesControl = -1
		if _, all := controlTokens(); len(a.nameSet()) > 0 {
			for _, t := range all {
				if a.named(t) {
					a.namesControl = 1
					break
				}
			}
		}
	}
	return a.namesControl > 0
}

// verdictFrom is the row's form of an access: its words, as strings that
// every Parquet reader takes.
func verdictFrom(acc robots.Access, delay float64) Verdict {
	return Verdict{State: acc.State.String(), Via: acc.Via.String(), Line: acc.Line, Group: acc.Group, CrawlDelay: delay}
}

// policy returns the fetch policy a registry robot names; Google when it
// names none that package fetch knows.
func (a *analyzer) policy(name string) fetch.Policy {
	p, err := fetch.ParsePolicy(name)
	if err != nil || int(p) >= slots {
		return fetch.Google
	}
	return p
}

// compiled returns the file's rules under profile p, compiling them once.
func (a *analyzer) compiled(p robots.Profile) *robots.Rules {
	if a.rules[p] == nil {
		f := a.file
		if f == nil {
			f = syntax.Parse("", a.body) // not reached: success means a 2xx
			a.file = f
		}
		a.rules[p] = robots.Compile(f, p)
	}
	return a.rules[p]
}

// namesByToken reports whether profile p finds a robot's groups by
// comparing its tokens with the product tokens (or whole names) of the
// User-agent values, as RFC 9309 §2.2.1 does, rather than by looking for
// its name inside the values as the old standards do.
func namesByToken(p robots.Profile) bool {
	switch p {
	case robots.Google, robots.RFC9309, robots.Bing, robots.Yandex:
		return true
	}
	return false
}

// mayName reports whether a User-agent line of the file may name one of
// the robot's tokens: whether its product token or its whole name equals
// one, ignoring ASCII case. It errs on the side of yes.
func (a *analyzer) mayName(rb *agents.Robot) bool {
	if len(a.nameSet()) == 0 {
		return false
	}
	if a.named(rb.Token) {
		return true
	}
	for _, t := range rb.Fallback {
		if a.named(t) {
			return true
		}
	}
	return false
}

// nameSet returns the lower-cased product tokens and whole names of the
// User-agent values, working them out once.
func (a *analyzer) nameSet() map[string]struct{} {
	if a.names == nil {
		a.names = make(map[string]struct{}, 2*len(a.row.Agents))
		for _, av := range a.row.Agents {
			if n := len(av.Token); n > 0 {
				a.names[av.Lower[:n]] = struct{}{}
			}
			if w := wholeName(av.Lower); w != "" {
				a.names[w] = struct{}{}
			}
		}
	}
	return a.names
}

func (a *analyzer) named(t string) bool {
	var buf [64]byte
	if len(t) > len(buf) {
		return true
	}
	_, ok := a.names[string(appendLower(buf[:0], t))]
	return ok
}

// wholeName returns a User-agent value up to its first '/' or white
// space, the name a robot read by whole name compares
// (robots.Agent.WholeName); it cuts at any control byte too, which only
// makes it shorter where the root package's cut would not name a
// registry token anyway.
func wholeName(v string) string {
	for i := 0; i < len(v); i++ {
		if v[i] == '/' || v[i] <= ' ' {
			return v[:i]
		}
	}
	return v
}

// lint runs the checker within the budget.
func (a *analyzer) lint() {
	c := a.c
	f := a.file
	if f == nil {
		f = syntax.Parse("", a.body)
	}
	cfg := &lint.Config{URL: c.URL, MaxWork: a.o.lintWork()}
	if c.Status != 0 {
		cfg.Fetch = &lint.Fetch{
			Hops:         []lint.Hop{{URL: c.URL, Status: c.Status, Location: c.Header.Get("Location")}},
			ContentType:  c.Header.Get("Content-Type"),
			CacheControl: c.Header.Get("Cache-Control"),
			Expires:      c.Header.Get("Expires"),
			Size:         a.size,
			Date:         c.Time,
		}
	}
	// The budget is work, not time (lint.ErrBudget): a capture runs out
	// of it on any machine or on none.
	ds, err := lint.RunContext(context.Background(), f, cfg)
	if err != nil {
		a.row.LintTimeout = true
		return
	}
	codes := make([]string, 0, len(ds))
	for i := range ds {
		if ds[i].Check != nil {
			codes = append(codes, ds[i].Check.Code)
		}
	}
	slices.Sort(codes)
	a.row.Lint = slices.Compact(codes)
}

// hostDomain returns the lower-cased host name of raw and its registered
// domain by the public suffix list, "" for an IP address or a name the
// list cannot place.
func hostDomain(raw string) (host, domain string) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", ""
	}
	host = u.Hostname()
	if hasUpper(host) {
		host = string(appendLower(nil, host))
	}
	if host == "" {
		return "", ""
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return host, ""
	}
	domain, err = publicsuffix.EffectiveTLDPlusOne(strings.TrimSuffix(host, "."))
	if err != nil {
		return host, ""
	}
	return host, domain
}

// mediaType returns the media type of a Content-Type value, lower-cased,
// without parameters (RFC 9110 §8.3.1).
func mediaType(ct string) string {
	mt, _, _ := strings.Cut(ct, ";")
	mt = strings.TrimSpace(mt)
	if hasUpper(mt) {
		mt = string(appendLower(nil, mt))
	}
	return mt
}

// redirectTarget resolves a Location against the URL requested (RFC 9110
// §10.2.2, RFC 3986 §5); it returns loc as recorded when either does not
// parse.
func redirectTarget(base, loc string) string {
	loc = strings.TrimSpace(loc)
	if loc == "" {
		return ""
	}
	l, err := url.Parse(loc)
	if err != nil {
		return loc
	}
	b, err := url.Parse(base)
	if err != nil {
		return loc
	}
	return b.ResolveReference(l).String()
}

// knownKeys are the keys most files use, lower-cased, shared by every
// row instead of allocated for each.
var knownKeys = [...]string{
	"user-agent", "disallow", "allow", "sitemap", "crawl-delay", "host",
	"clean-param", "request-rate", "visit-time", "noindex", "robot-version", "comment",
}

// internKey returns the lower-cased key k as a string.
func internKey(k []byte) string {
	for _, s := range knownKeys {
		if string(k) == s {
			return s
		}
	}
	return string(k)
}

// hasUpper reports whether s has an ASCII upper-case letter.
func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

// appendLower appends s to b with ASCII letters lower-cased: robots.txt
// compares names and keys ignoring ASCII case only (RFC 9309 §2.2.1,
// §2.2), and other bytes stay as written.
func appendLower(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}
