package robots

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/robotskit/robots/internal/hostname"
	"github.com/robotskit/robots/internal/lines"
	"github.com/robotskit/robots/syntax"
)

// Extension is a directive other than User-agent, Allow and Disallow, as
// written in the file: Sitemap, Crawl-delay, Request-rate, Visit-time,
// Host, Clean-param, Robot-version or Comment. The typed accessors of
// [Group] and [Rules] read the values; an Extension keeps the text even when
// it does not parse.
type Extension struct {
	Field syntax.Field
	Line  int
	Value string
}

// Group is what applies to one robot: the groups that name its product
// token, merged (RFC 9309 §2.2.1), or else the "*" groups.
type Group struct {
	// Global is true when no group names the robot and the "*" groups
	// apply.
	Global bool
	// Lines holds the line of the first User-agent line of each group, in
	// file order.
	Lines []int
	// Agents holds the User-agent values of those groups, as written.
	Agents []string
	// Extensions holds the groups' extension lines, in file order.
	Extensions []Extension

	inherited []Extension // from the "*" groups, read when Extensions lack a field
}

// A Rule is an Allow or Disallow line as a profile compiles it.
type Rule struct {
	// Field is syntax.Allow or syntax.Disallow.
	Field syntax.Field
	// Pattern is the rule's pattern as the profile compares it: its
	// %-encoding normalised (RFC 9309 §2.2.2), "/d/$" for the rule Google
	// adds for an Allow of "/d/index.html", and "" for an empty rule,
	// which matches every path with length 0 (an empty Disallow forbids
	// nothing).
	Pattern string
	// Line is the rule's 1-based line.
	Line int
}

// Allows reports whether ru allows the paths it decides: an Allow rule,
// or an empty Disallow.
func (ru Rule) Allows() bool { return ru.Field == syntax.Allow || ru.Pattern == "" }

// Group returns the groups that apply to the robot a, and false when
// none does: those that name its first token with a group of its own
// (by whole name when a asks for it, see [Agent.WholeName]), merged, or
// (under the profiles that obey one record) the first record for it; else
// the "*" groups, unless a ignores them.
//
// Under [Bing], a robot whose own groups set no Crawl-delay keeps the "*"
// groups' one (Bing's webmaster guidance: a bingbot section replaces the
// default section except for Crawl-delay); [Group.CrawlDelay] returns it.
func (r *Rules) Group(a Agent) (Group, bool) {
	if r == nil {
		return Group{}, false
	}
	var g Group
	for _, t := range a.Tokens {
		if r.firstRecord {
			if _, gi, ok := r.record(t); ok {
				r.addGroup(&g, int(gi))
				return g, true
			}
			continue
		}
		whole := a.WholeName && !isProductToken(t)
		tok := t
		if whole {
			if _, _, ok := r.wholeEntry(t); !ok {
				continue
			}
		} else {
			e := r.find(t)
			if e == nil {
				continue
			}
			tok = r.text[e.off : e.off+e.n]
		}
		for i := range r.groups {
			for _, a := range r.agentSpans[r.groups[i].agLo:r.groups[i].agHi] {
				if v := r.str(a); !isGlobal(v) && namesToken(v, tok, whole) {
					r.addGroup(&g, i)
					break
				}
			}
		}
		if r.sem.globalCrawlDelay {
			if _, ok := g.first(syntax.CrawlDelay); !ok {
				g.inherited = r.globalExtensions(syntax.CrawlDelay)
			}
		}
		return g, true
	}
	if a.IgnoreGlobal {
		return Group{}, false
	}
	g.Global = true
	for i := range r.groups {
		if r.groups[i].global && (!r.firstRecord || int32(i) == r.globalGroup-1) {
			r.addGroup(&g, i)
		}
	}
	return g, len(g.Lines) > 0
}

// AgentRules returns the Allow and Disallow rules that decide for the
// robot a, those of the groups [Rules.Group] returns, as the profile
// compiled them, in file order: each points back to its line in the
// syntax tree (File.Lines[Rule.Line-1]). The verdict of [Rules.Allowed]
// for the robot is a function of these rules alone. Its cost does not
// grow with the number of groups under the profiles that merge them. It
// returns nil when no group applies.
func (r *Rules) AgentRules(a Agent) []Rule {
	if r == nil {
		return nil
	}
	set, _, _ := r.agentSet(a)
	return r.setRules(set)
}

// setRules returns the rules of the ruleset set in file order, nil when
// set is negative.
func (r *Rules) setRules(set int32) []Rule {
	if set < 0 || int(set) >= len(r.sets) {
		return nil
	}
	s := &r.sets[set]
	out := make([]Rule, 0, s.hi-s.lo)
	for i := s.lo; i < s.hi; i++ {
		ru := &r.rules[i]
		f := syntax.Disallow
		if ru.flags&ruleAllow != 0 {
			f = syntax.Allow
		}
		out = append(out, Rule{Field: f, Pattern: r.text[ru.off : ru.off+uint32(ru.n)], Line: int(ru.line)})
	}
	slices.SortStableFunc(out, func(a, b Rule) int { return cmp.Compare(a.Line, b.Line) })
	return out
}

// namesToken reports whether the User-agent value v, not "*", names the
// token tok: by its whole name (wholeName) when whole is set, else by its
// product token.
func namesToken(v, tok string, whole bool) bool {
	if whole {
		return equalFold(wholeName(v), tok)
	}
	return equalFold(lines.ProductToken(v), tok)
}

// globalExtensions returns the extensions of field f of the "*" groups.
func (r *Rules) globalExtensions(f syntax.Field) []Extension {
	var out []Extension
	for i := range r.groups {
		gi := &r.groups[i]
		if !gi.global {
			continue
		}
		for _, e := range r.exts[gi.extLo:gi.extHi] {
			if e.field == f {
				out = append(out, Extension{Field: e.field, Line: int(e.line), Value: r.str(e.val)})
			}
		}
	}
	return out
}

func (r *Rules) addGroup(g *Group, i int) {
	gi := &r.groups[i]
	g.Lines = append(g.Lines, int(gi.line))
	for _, a := range r.agentSpans[gi.agLo:gi.agHi] {
		g.Agents = append(g.Agents, r.str(a))
	}
	for _, e := range r.exts[gi.extLo:gi.extHi] {
		g.Extensions = append(g.Extensions, Extension{Field: e.field, Line: int(e.line), Value: r.str(e.val)})
	}
}

// Groups returns the file's groups in file order, as the profile reads
// them: a run of User-agent lines and the lines up to the next run (RFC
// 9309 §2.1), or under the profiles that obey one record, each record. A
// group that names "*" has Global set. Each Group holds one line, its
// first User-agent line; [Rules.Group] merges those that apply to
// one robot.
func (r *Rules) Groups() []Group {
	if r == nil {
		return nil
	}
	out := make([]Group, len(r.groups))
	for i := range r.groups {
		out[i].Global = r.groups[i].global
		r.addGroup(&out[i], i)
	}
	return out
}

// Extensions returns every extension line of the file, in file order,
// whether or not it is inside a group.
func (r *Rules) Extensions() []Extension {
	if r == nil {
		return nil
	}
	out := make([]Extension, len(r.exts))
	for i, e := range r.exts {
		out[i] = Extension{Field: e.field, Line: int(e.line), Value: r.str(e.val)}
	}
	return out
}

// each returns the values of the file's extension lines of field f.
func (r *Rules) each(f syntax.Field) []string {
	var out []string
	if r == nil {
		return nil
	}
	for _, e := range r.exts {
		if e.field == f {
			out = append(out, r.str(e.val))
		}
	}
	return out
}

// Sitemaps returns the values of the file's Sitemap lines, in file order.
// Sitemap lines belong to no group (RFC 9309 §2.2.4): every one is
// returned, wherever it stands.
func (r *Rules) Sitemaps() []string { return r.each(syntax.Sitemap) }

// Host returns the value of the file's first valid Host line, Yandex's
// preferred mirror: Yandex ignored Host lines whose value is not a host
// name with an optional port, after an optional http:// or https://
// (such as "www.myhost-.com" or an IP address), and used the first valid
// one (Yandex's robots.txt help; Moderatobot too: only the first Host
// counts). The lint package's Host checks read validity the same way.
func (r *Rules) Host() (string, bool) {
	for _, v := range r.each(syntax.Host) {
		if hostname.Valid(v) {
			return v, true
		}
	}
	return "", false
}

// CleanParam is a Yandex Clean-param line: URL parameters that do not change
// a page's content, for the paths starting with Path (Yandex's robots.txt
// help, https://yandex.com/support/webmaster/controlling-robot/robots-txt.html).
type CleanParam struct {
	Params []string
	Path   string // "" means every path
}

// CleanParams returns the file's Clean-param lines that parse, in file
// order. The syntax is "p1&p2 [path-prefix]"; a line longer than 500
// characters is ignored, as Yandex ignores it (Yandex's Clean-param help).
func (r *Rules) CleanParams() []CleanParam {
	var out []CleanParam
	for _, v := range r.each(syntax.CleanParam) {
		if c, ok := parseCleanParam(v); ok {
			out = append(out, c)
		}
	}
	return out
}

func parseCleanParam(v string) (CleanParam, bool) {
	fields := strings.Fields(v)
	if len(v) > 500 || len(fields) == 0 || len(fields) > 2 {
		return CleanParam{}, false
	}
	var c CleanParam
	for _, p := range strings.Split(fields[0], "&") {
		if p == "" {
			return CleanParam{}, false
		}
		c.Params = append(c.Params, p)
	}
	if len(fields) == 2 {
		c.Path = fields[1]
	}
	return c, true
}

// first returns the value of the first extension of field f, or of the
// first one the group inherits.
func (g Group) first(f syntax.Field) (string, bool) {
	for _, es := range [2][]Extension{g.Extensions, g.inherited} {
		for _, e := range es {
			if e.Field == f {
				return e.Value, true
			}
		}
	}
	return "", false
}

// CrawlDelay returns the group's first Crawl-delay, a number of seconds
// (Bing's and Yandex's documentation; fractions such as 0.5 are accepted,
// as Bing and Yandex read them). ok is false when there is none or it is not a non-negative number.
func (g Group) CrawlDelay() (d time.Duration, ok bool) {
	v, ok := g.first(syntax.CrawlDelay)
	if !ok {
		return 0, false
	}
	return parseSeconds(v)
}

// maxDelay bounds delays and periods: a day. Longer values are read as
// errors, not as a reason to wait for ever.
const maxDelay = 24 * time.Hour

func parseSeconds(v string) (time.Duration, bool) {
	s, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(s) || s < 0 || s > maxDelay.Seconds() {
		return 0, false
	}
	return time.Duration(s * float64(time.Second)), true
}

// RequestRate is an extended-standard Request-rate: at most Requests
// requests every Per, optionally only within Window (Sean Conner's "An
// Extended Standard for Robot Exclusion": "1/30" is one request every 30
// seconds; "1/10m 0600-0845" adds a UTC window).
type RequestRate struct {
	Requests int
	Per      time.Duration
	Window   VisitTime // zero when the line has none
}

// RequestRate returns the group's first Request-rate, and false when there
// is none or it does not parse.
func (g Group) RequestRate() (RequestRate, bool) {
	v, ok := g.first(syntax.RequestRate)
	if !ok {
		return RequestRate{}, false
	}
	return parseRequestRate(v)
}

func parseRequestRate(v string) (RequestRate, bool) {
	fields := strings.Fields(v)
	if len(fields) == 0 || len(fields) > 2 {
		return RequestRate{}, false
	}
	n, per, ok := strings.Cut(fields[0], "/")
	if !ok {
		return RequestRate{}, false
	}
	reqs, err := strconv.Atoi(n)
	if err != nil || reqs <= 0 {
		return RequestRate{}, false
	}
	unit := time.Second
	if k := len(per); k > 0 {
		switch per[k-1] {
		case 's':
			per = per[:k-1]
		case 'm':
			unit, per = time.Minute, per[:k-1]
		case 'h':
			unit, per = time.Hour, per[:k-1]
		}
	}
	span, err := strconv.Atoi(per)
	if err != nil || span <= 0 || time.Duration(span)*unit > maxDelay {
		return RequestRate{}, false
	}
	rr := RequestRate{Requests: reqs, Per: time.Duration(span) * unit}
	if len(fields) == 2 {
		w, ok := parseVisitTime(fields[1])
		if !ok {
			return RequestRate{}, false
		}
		rr.Window = w
	}
	return rr, true
}

// VisitTime is an extended-standard Visit-time: the daily window, in UTC,
// in which a robot may crawl (Sean Conner's extended standard: "2300-0430"
// is 23:00 to 04:30 GMT).
// From and To are offsets from midnight; a window with To before From runs
// past midnight.
type VisitTime struct {
	From, To time.Duration
}

// IsZero reports whether v is the zero window (none given).
func (v VisitTime) IsZero() bool { return v == VisitTime{} }

// Contains reports whether t falls inside the window.
func (v VisitTime) Contains(t time.Time) bool {
	t = t.UTC()
	d := time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute + time.Duration(t.Second())*time.Second
	if v.From <= v.To {
		return v.From <= d && d < v.To
	}
	return d >= v.From || d < v.To
}

// VisitTime returns the group's first Visit-time, and false when there is
// none or it does not parse.
func (g Group) VisitTime() (VisitTime, bool) {
	v, ok := g.first(syntax.VisitTime)
	if !ok {
		return VisitTime{}, false
	}
	return parseVisitTime(strings.TrimSpace(v))
}

// parseVisitTime reads "HHMM-HHMM" (also "HH:MM-HH:MM").
func parseVisitTime(v string) (VisitTime, bool) {
	a, b, ok := strings.Cut(v, "-")
	if !ok {
		return VisitTime{}, false
	}
	from, ok1 := parseClock(a)
	to, ok2 := parseClock(b)
	if !ok1 || !ok2 {
		return VisitTime{}, false
	}
	return VisitTime{From: from, To: to}, true
}

func parseClock(s string) (time.Duration, bool) {
	s = strings.Replace(s, ":", "", 1)
	if len(s) != 4 {
		return 0, false
	}
	for i := 0; i < 4; i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	h := int(s[0]-'0')*10 + int(s[1]-'0')
	m := int(s[2]-'0')*10 + int(s[3]-'0')
	if h > 24 || m > 59 || h == 24 && m != 0 {
		return 0, false
	}
	return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute, true
}

// RobotVersion returns the group's first Robot-version value ("1.0" or
// "2.0" in Sean Conner's extended standard).
func (g Group) RobotVersion() (string, bool) { return g.first(syntax.RobotVersion) }
