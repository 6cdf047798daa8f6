package change

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/internal/probe"
	"github.com/robotskit/robots/internal/textedit"
	"github.com/robotskit/robots/syntax"
)

// Options says what Compare compares. The zero value, like a nil
// *Options, compares the major families on the paths the files imply.
type Options struct {
	// All adds the families of the old standards, draft1996 and
	// strict1994, to the major ones.
	All bool
	// URLs are the URLs or paths to decide; none means the paths the
	// rules of both files imply (the probes Equivalent tries).
	URLs []string
}

// A Report is how two versions of a robots.txt differ for robots, told in
// the files' own rules: the rule lines that were added, removed or are
// now read by other robots (Rules), and per robot family and robot, its
// access before and after and the URLs whose verdict changes (the
// evidence: the URLs given, or probe paths derived from the rules).
type Report struct {
	// Changed reports that some verdict changes.
	Changed bool `json:"changed"`
	// Rules are the rule lines that read differently between the two
	// versions for some robot compared, removed ones in the order of the
	// old file, then the others in the order of the new one. A rule that
	// both versions have, and that turns no verdict where it moved (a
	// robot that now obeys another group), is not among them: the robots'
	// access and groups tell that.
	Rules []RuleChange `json:"rules"`
	// Families holds one entry per family compared: google, bing,
	// yandex and rfc9309, then with Options.All draft1996 and
	// strict1994.
	Families []FamilyReport `json:"families"`
	// URLs are the URLs given (Options.URLs), decided in order; Probes
	// are the paths decided when none was given, derived from the rules
	// of both files. One of the two is empty.
	URLs   []string `json:"urls,omitempty"`
	Probes []string `json:"probes,omitempty"`
}

// The kinds of RuleChange.
const (
	// Added: the new version has the rule and the old one has it for no
	// robot compared.
	Added = "added"
	// Removed: the old version has the rule and the new one has it for
	// no robot compared.
	Removed = "removed"
	// Moved: both versions have the rule, for different robots (its group
	// names other robots, or it moved to another group), or, for the
	// robots that obey the first matching rule, at another place in its
	// group.
	Moved = "moved"
)

// A RuleChange is one rule line that reads differently between the two
// versions, with the robots whose verdicts it changes.
type RuleChange struct {
	// Change is Added, Removed or Moved.
	Change string `json:"change"`
	// Line is the rule's line in the new version, or in the old one when
	// it was removed; OldLine is its line in the old version when it was
	// moved.
	Line    int `json:"line"`
	OldLine int `json:"old_line,omitempty"`
	// Rule is the line as written ("Disallow: /private/").
	Rule string `json:"rule"`
	// Covers says in words which paths the rule's pattern covers ("/private/
	// and everything under it").
	Covers string `json:"covers"`
	// Effect says what happens to those paths for the robots that see a
	// verdict change: "now allowed", "now disallowed", "some now allowed,
	// some now disallowed", or "" when no verdict changes.
	Effect string `json:"effect"`
	// Robots are the robots whose verdicts the change changes, each with
	// the families that read it so; Unchanged those for which the rule
	// differs but no verdict does (a rule that repeats or is shadowed by
	// another).
	Robots    []RobotFamilies `json:"robots"`
	Unchanged []RobotFamilies `json:"unchanged,omitempty"`
	// Note says why a rule line that differs concerns no robot compared:
	// its group names none of them, or it is in no group.
	Note string `json:"note,omitempty"`

	allowed, disallowed int // verdicts it turns, over robots and families
}

// RobotFamilies names a robot and the families that read a change alike
// for it.
type RobotFamilies struct {
	Robot    string           `json:"robot"`
	Families []robots.Profile `json:"families"`
}

// A FamilyReport is one robot family's reading of both files: the profile
// it reads them with and its robots.
type FamilyReport struct {
	Profile robots.Profile `json:"profile"`
	Robots  []Robot        `json:"robots"`
}

// A Robot is one robot of a family: its access to the site in each
// version, the rule lines that apply to it in one version only, and the
// URLs whose verdict changes for it.
type Robot struct {
	// Name is the robot's token as the registry or the file spells it,
	// or "*" for the robots that no group names.
	Name string `json:"robot"`
	// Tokens are the product tokens the robot answers to, most specific
	// first; IgnoreGlobal and WholeName are its quirks (robots.Agent).
	Tokens       []string `json:"tokens"`
	IgnoreGlobal bool     `json:"ignore_global,omitempty"`
	WholeName    bool     `json:"whole_name,omitempty"`
	// Named is set for a robot that a User-agent line of either file
	// names; the family's own robot and "*" are compared whether named
	// or not.
	Named bool `json:"named"`
	// Old and New are its access to the site in each version
	// (robots.Rules.Access).
	Old robots.Access `json:"old"`
	New robots.Access `json:"new"`
	// Rules are the indexes in Report.Rules of the rule lines that apply
	// to it in one version only, or at another place.
	Rules []int `json:"rules"`
	// Changes are the URLs whose verdict changes, in URL order; empty
	// when the robot reads both files alike.
	Changes []URLChange `json:"changes"`
}

// A URLChange is a URL that the old and the new file decide differently
// for one robot.
type URLChange struct {
	URL string  `json:"url"`
	Old Verdict `json:"old"`
	New Verdict `json:"new"`
}

// A Verdict is one file's verdict on a URL, with what decided it.
type Verdict struct {
	Allowed bool `json:"allowed"`
	// Line is the deciding rule's line, 0 when no rule decided; Rule is
	// that line's directive as written ("Disallow: /private/").
	Line int    `json:"line"`
	Rule string `json:"rule,omitempty"`
	// Group is the line of the first User-agent line of the group that
	// applies, 0 when none does.
	Group int `json:"group"`
	// Reason is robots.Reason in a word: matched, no-match, no-group or
	// robots-txt; Why says it in a few words, as robots test does.
	Reason string `json:"reason"`
	Why    string `json:"why"`
}

// families returns the families Compare compares: the major ones,
// google, bing, yandex and rfc9309, and with all also draft1996 and
// strict1994.
func families(all bool) []robots.Profile {
	ps := []robots.Profile{robots.Google, robots.Bing, robots.Yandex, robots.RFC9309}
	if all {
		ps = append(ps, robots.Draft1996, robots.Strict1994)
	}
	return ps
}

// mainRobot is the robot each family is read as, from the registry; the
// families without one are read as the robots that no group names ("*")
// and the robots the files name.
var mainRobot = map[robots.Profile]string{
	robots.Google: "Googlebot",
	robots.Bing:   "bingbot",
	robots.Yandex: "YandexBot",
}

// Compare compares how robots read two versions of a robots.txt: for each
// robot family (Report.Families), its robot (Googlebot for google, bingbot
// for bing, YandexBot for yandex), every robot a User-agent line of either
// file names, read as that family reads it (the registry's token chain and
// quirks for a known robot, the product token otherwise), and "*", the
// robots that no group names.
//
// For each robot, the rules that decide for it in each version
// (robots.Rules.AgentRules) are compared, the way the profile compiled
// them: a rule only one version gives it was added or removed for it, or
// moved when the other version has it for other robots. The URLs given, or
// else the probe paths of both files and of the rules that differ (package
// internal/probe, as Equivalent tries them), are decided on both sides; a
// URL whose verdict changes is put down to the rule that decides it in the
// new version when that rule is new to the robot, else to the one that
// decided it in the old version. Report.Rules gathers the rule lines with
// the robots and families whose verdicts they change; each file is read as
// robots read it, its first 500 KiB (robots.Cut).
func Compare(oldSrc, newSrc []byte, opt *Options) *Report {
	rep, _ := CompareContext(context.Background(), oldSrc, newSrc, opt)
	return rep
}

// CompareContext is Compare that stops when ctx ends: it looks at ctx
// before each robot and every few hundred URLs, and returns no report and
// ctx's error when it ended.
func CompareContext(ctx context.Context, oldSrc, newSrc []byte, opt *Options) (*Report, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opt == nil {
		opt = &Options{}
	}
	c := &comparison{
		fo: syntax.Parse("", robots.Cut(oldSrc)), fn: syntax.Parse("", robots.Cut(newSrc)),
		rep:   &Report{Families: []FamilyReport{}, Rules: []RuleChange{}},
		index: map[ruleRef]int{},
	}
	// Which lines the new version keeps from the old, by a line diff of
	// the texts with their line ends made '\n' (a line of package syntax
	// ends at LF, CR or CRLF).
	c.oldToNew, c.newToOld = textedit.LineMap(lineText(c.fo), lineText(c.fn))
	named := namedRobots(c.fo, c.fn)
	profiles := families(opt.All)
	// First the rules of each robot: what differs, and where.
	var differ []ruleKey
	for _, p := range profiles {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		fam := c.family(p, named)
		for i := range fam.robots {
			differ = append(differ, fam.robots[i].only...)
		}
		c.fams = append(c.fams, fam)
	}
	// Then the URLs: those given, or the probes of both files and of the
	// rules that differ (a sample of a large file's probes may leave
	// theirs out).
	urls := opt.URLs
	if len(urls) == 0 {
		var err error
		if urls, err = probe.Paths(ctx, c.fo, c.fn); err != nil {
			return nil, err
		}
		have := make(map[string]bool, len(urls))
		for _, u := range urls {
			have[u] = true
		}
		for _, u := range keyProbes(differ) {
			if !have[u] {
				have[u] = true
				urls = append(urls, u)
			}
		}
		slices.Sort(urls)
		c.rep.Probes = make([]string, len(urls))
		for i, u := range urls {
			c.rep.Probes[i] = probe.Shown(u)
		}
	} else {
		c.rep.URLs = slices.Clone(urls)
	}
	for _, fam := range c.fams {
		if err := c.decide(ctx, fam, urls); err != nil {
			return nil, err
		}
	}
	c.unread()
	c.finish()
	return c.rep, nil
}

// unread adds the rule lines that one version has and the other lacks
// (the line diff of the texts) but that no robot compared obeys: in a
// group that names only other robots (or no product token at all),
// before any User-agent line, or with a pattern that matches no path.
// The report still names them, since the user wrote them. (A line that
// some robot obeys and that is not already reported was rewritten into
// one that reads the same, "Disalow" into "Disallow" for Google: nothing
// to say.)
func (c *comparison) unread() {
	// The lines a rule change already names, in the old and new version.
	known := map[ruleRef]bool{}
	for _, rc := range c.rep.Rules {
		switch rc.Change {
		case Removed:
			known[ruleRef{change: Removed, line: rc.Line}] = true
		case Added:
			known[ruleRef{change: Added, line: rc.Line}] = true
		default:
			known[ruleRef{change: Added, line: rc.Line}] = true
			known[ruleRef{change: Removed, line: rc.OldLine}] = true
		}
	}
	add := func(change string, f *syntax.File, other []int, obeyed map[int]bool) {
		for i := range f.Lines {
			l := &f.Lines[i]
			if l.Kind != syntax.DirectiveLine || l.Field != syntax.Allow && l.Field != syntax.Disallow || other[i] != 0 || obeyed[i+1] {
				continue
			}
			if known[ruleRef{change: change, line: i + 1}] {
				continue
			}
			v := f.Text(l.Value)
			note := "no robot compared obeys it: its group names none of them, or it is in no group"
			if v != "" && v[0] != '/' && v[0] != '*' {
				// RFC 9309 §2.2.2: a path starts with "/"; the
				// matchers drop such a pattern.
				note = "it matches no path: a path starts with \"/\""
			}
			c.rep.Rules = append(c.rep.Rules, RuleChange{Change: change, Line: i + 1,
				Rule: f.Text(l.Key) + ": " + v, Covers: Covers(v, robots.Google),
				Robots: []RobotFamilies{}, Note: note})
		}
	}
	add(Removed, c.fo, c.oldToNew, c.obeyed[0])
	add(Added, c.fn, c.newToOld, c.obeyed[1])
}

// comparison is the state of one Compare.
type comparison struct {
	fo, fn *syntax.File
	// oldToNew and newToOld match the lines the new version keeps (index
	// line-1; 0 for a line the other version lacks).
	oldToNew, newToOld []int
	// obeyed holds the rule lines of each version (0 old, 1 new) that
	// some robot compared obeys under some family.
	obeyed [2]map[int]bool
	rep    *Report
	fams   []*familyState
	// index finds a rule change of rep.Rules by its lines.
	index map[ruleRef]int
}

// familyState is one family's compiled rules and robots.
type familyState struct {
	p              robots.Profile
	oldR, newR     *robots.Rules
	robots         []robotState
	reportedRobots []Robot
}

// robotState is one robot's rules in both versions.
type robotState struct {
	rb       Robot
	agent    robots.Agent
	old, new []robots.Rule
	only     []ruleKey // keys that one version has and the other lacks
	groups   string    // the groups it obeys in both versions
}

// ruleRef identifies a rule change: its kind and lines.
type ruleRef struct {
	change        string
	line, oldLine int
}

// family compiles both files under p and reads each robot's rules.
func (c *comparison) family(p robots.Profile, named []Robot) *familyState {
	fam := &familyState{p: p, oldR: robots.Compile(c.fo, p), newR: robots.Compile(c.fn, p)}
	for _, rb := range robotsOf(p, named) {
		a := robots.Agent{Tokens: rb.Tokens, IgnoreGlobal: rb.IgnoreGlobal, WholeName: rb.WholeName}
		rs := robotState{rb: rb, agent: a, old: fam.oldR.AgentRules(a), new: fam.newR.AgentRules(a)}
		rs.groups = groupsOf(fam.oldR, a) + "|" + groupsOf(fam.newR, a)
		ko, kn := ruleKeys(nil, rs.old), ruleKeys(nil, rs.new)
		rs.only = keyDifference(ko, kn)
		for v, rules := range [2][]robots.Rule{rs.old, rs.new} {
			if c.obeyed[v] == nil {
				c.obeyed[v] = map[int]bool{}
			}
			for _, ru := range rules {
				c.obeyed[v][ru.Line] = true
			}
		}
		fam.robots = append(fam.robots, rs)
	}
	return fam
}

// decide decides urls for every robot of fam, once per set of groups
// obeyed, and records the changes with the rules they are put down to.
func (c *comparison) decide(ctx context.Context, fam *familyState, urls []string) error {
	type decided struct {
		changes []URLChange
		causes  []ruleRef // per change
	}
	done := map[string]decided{}
	for i := range fam.robots {
		rs := &fam.robots[i]
		if err := ctx.Err(); err != nil {
			return err
		}
		rb := rs.rb
		rb.Old, rb.New = fam.oldR.Access(rs.agent), fam.newR.Access(rs.agent)
		d, ok := done[rs.groups]
		if !ok {
			d.changes = []URLChange{}
			for j, u := range urls {
				if j%equivPoll == equivPoll-1 {
					if err := ctx.Err(); err != nil {
						return err
					}
				}
				x, y := fam.oldR.Decide(rs.agent, u), fam.newR.Decide(rs.agent, u)
				if x.Allowed == y.Allowed {
					continue
				}
				d.changes = append(d.changes, URLChange{URL: probe.Shown(u), Old: verdictOf(c.fo, x), New: verdictOf(c.fn, y)})
				d.causes = append(d.causes, c.cause(rs, x, y))
			}
			done[rs.groups] = d
		}
		rb.Changes = d.changes
		c.rep.Changed = c.rep.Changed || len(d.changes) > 0
		// The rules that differ for it, with the verdicts they turn.
		turned := map[int][2]int{} // rule index → (now allowed, now disallowed)
		for j, ch := range d.changes {
			k := c.ruleIndex(fam, d.causes[j])
			if k < 0 {
				continue
			}
			t := turned[k]
			if ch.New.Allowed {
				t[0]++
			} else {
				t[1]++
			}
			turned[k] = t
		}
		for _, key := range rs.only {
			ref := c.refOf(rs, key)
			k := c.ruleIndex(fam, ref)
			if !slices.Contains(rb.Rules, k) {
				rb.Rules = append(rb.Rules, k)
			}
		}
		for k := range turned {
			if !slices.Contains(rb.Rules, k) {
				rb.Rules = append(rb.Rules, k)
			}
		}
		slices.Sort(rb.Rules)
		for _, k := range rb.Rules {
			rc := &c.rep.Rules[k]
			t := turned[k]
			rc.allowed += t[0]
			rc.disallowed += t[1]
			if t[0]+t[1] > 0 {
				rc.Robots = addRobot(rc.Robots, rb.Name, fam.p)
			} else {
				rc.Unchanged = addRobot(rc.Unchanged, rb.Name, fam.p)
			}
		}
		if rb.Rules == nil {
			rb.Rules = []int{}
		}
		fam.reportedRobots = append(fam.reportedRobots, rb)
	}
	c.rep.Families = append(c.rep.Families, FamilyReport{Profile: fam.p, Robots: fam.reportedRobots})
	return nil
}

// cause returns the rule a verdict change is put down to: the rule that
// decides in the new version when the robot did not have it before, else
// the one that decided in the old version when it does not have it any
// more, else (the same rules at other places: first-match profiles) the
// new version's deciding rule, read differently. A zero ruleRef means no
// rule: the robot obeys other groups with no rule for the URL.
func (c *comparison) cause(rs *robotState, x, y robots.Decision) ruleRef {
	kx, ky := decisionKey(x), decisionKey(y)
	switch {
	case y.Reason == robots.Matched && slices.Contains(rs.only, ky):
		return c.lineRef(false, y.Line)
	case x.Reason == robots.Matched && slices.Contains(rs.only, kx):
		return c.lineRef(true, x.Line)
	case y.Reason == robots.Matched:
		return ruleRef{change: Moved, line: y.Line, oldLine: lineOf(rs.old, ky)}
	case x.Reason == robots.Matched:
		return ruleRef{change: Moved, line: lineOf(rs.new, kx), oldLine: x.Line}
	}
	return ruleRef{}
}

// lineOf returns the line of the first rule of rs whose key is k, 0 for
// none.
func lineOf(rs []robots.Rule, k ruleKey) int {
	for _, ru := range rs {
		if (ruleKey{ru.Allows(), ru.Pattern}) == k {
			return ru.Line
		}
	}
	return 0
}

// decisionKey is the key of the rule that made decision d.
func decisionKey(d robots.Decision) ruleKey {
	return ruleKey{d.Rule == syntax.Allow || d.Pattern == "", d.Pattern}
}

// refOf says what became of a rule that one version gives the robot rs
// and the other does not, at the robot's own line for it.
func (c *comparison) refOf(rs *robotState, k ruleKey) ruleRef {
	if l := lineOf(rs.new, k); l != 0 {
		return c.lineRef(false, l)
	}
	if l := lineOf(rs.old, k); l != 0 {
		return c.lineRef(true, l)
	}
	return ruleRef{}
}

// lineRef says what became of rule line `line` of the old version (old)
// or of the new one: added or removed when the other version lacks the
// line (the line diff of the texts), else moved: the same line, read by
// other robots or at another place in its group.
func (c *comparison) lineRef(old bool, line int) ruleRef {
	if old {
		if n := c.at(c.oldToNew, line); n != 0 {
			return ruleRef{change: Moved, line: n, oldLine: line}
		}
		return ruleRef{change: Removed, line: line}
	}
	if o := c.at(c.newToOld, line); o != 0 {
		return ruleRef{change: Moved, line: line, oldLine: o}
	}
	return ruleRef{change: Added, line: line}
}

// at returns m[line-1], 0 out of range.
func (c *comparison) at(m []int, line int) int {
	if line < 1 || line > len(m) {
		return 0
	}
	return m[line-1]
}

// lineText is f's text with every line ended by '\n', so that its lines
// are those of f.
func lineText(f *syntax.File) string {
	var b strings.Builder
	for i := range f.Lines {
		b.WriteString(f.Text(f.Lines[i].Span))
		b.WriteByte('\n')
	}
	return b.String()
}

// ruleIndex returns the index in rep.Rules of the change ref, adding it
// when it is the first of its lines; -1 for the zero ruleRef.
func (c *comparison) ruleIndex(fam *familyState, ref ruleRef) int {
	if ref.change == "" {
		return -1
	}
	if k, ok := c.index[ref]; ok {
		return k
	}
	f, line := c.fn, ref.line
	if ref.change == Removed {
		f = c.fo
	}
	rc := RuleChange{Change: ref.change, Line: ref.line, OldLine: ref.oldLine, Robots: []RobotFamilies{}}
	if line >= 1 && line <= len(f.Lines) {
		l := &f.Lines[line-1]
		rc.Rule = f.Text(l.Key) + ": " + f.Text(l.Value)
		rc.Covers = Covers(f.Text(l.Value), fam.p)
	}
	c.rep.Rules = append(c.rep.Rules, rc)
	c.index[ref] = len(c.rep.Rules) - 1
	return len(c.rep.Rules) - 1
}

// finish words each rule change's effect and puts the rule changes in
// file order, renumbering the robots' references.
func (c *comparison) finish() {
	rules := c.rep.Rules
	for i := range rules {
		rc := &rules[i]
		switch {
		case rc.allowed > 0 && rc.disallowed > 0:
			rc.Effect = "some now allowed, some now disallowed"
		case rc.allowed > 0:
			rc.Effect = "now allowed"
		case rc.disallowed > 0:
			rc.Effect = "now disallowed"
		}
	}
	// A rule that only moved to other robots, turning no verdict, is
	// told at the robots' level (their groups and access), not as a rule.
	order := make([]int, 0, len(rules))
	for i := range rules {
		if rules[i].Change != Moved || len(rules[i].Robots) > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ra, rb := &rules[a], &rules[b]
		if (ra.Change == Removed) != (rb.Change == Removed) {
			if ra.Change == Removed {
				return -1
			}
			return 1
		}
		return ra.Line - rb.Line
	})
	to := make([]int, len(rules))
	for i := range to {
		to[i] = -1
	}
	sorted := make([]RuleChange, len(order))
	for n, i := range order {
		to[i] = n
		sorted[n] = rules[i]
	}
	c.rep.Rules = sorted
	for fi := range c.rep.Families {
		for ri := range c.rep.Families[fi].Robots {
			rb := &c.rep.Families[fi].Robots[ri]
			kept := rb.Rules[:0]
			for _, i := range rb.Rules {
				if to[i] >= 0 {
					kept = append(kept, to[i])
				}
			}
			slices.Sort(kept)
			rb.Rules = kept
		}
	}
}

// addRobot adds family p to the entry of robot name, or a new entry.
func addRobot(rs []RobotFamilies, name string, p robots.Profile) []RobotFamilies {
	for i := range rs {
		if rs[i].Robot == name {
			if !slices.Contains(rs[i].Families, p) {
				rs[i].Families = append(rs[i].Families, p)
			}
			return rs
		}
	}
	return append(rs, RobotFamilies{Robot: name, Families: []robots.Profile{p}})
}

// namedRobots returns the robots the User-agent lines of the files name,
// in order of first appearance: a known robot as the registry has it, by
// the value up to its first '/' or white space, else the value's product
// token as a plain robot. "*" and values without a token are left out.
func namedRobots(files ...*syntax.File) []Robot {
	var out []Robot
	seen := map[string]bool{}
	for _, f := range files {
		for i := range f.Lines {
			l := &f.Lines[i]
			if l.Kind != syntax.DirectiveLine || l.Field != syntax.UserAgent {
				continue
			}
			v := strings.TrimSpace(f.Text(l.Value))
			if agentKey(v) == "*" {
				continue
			}
			name := v
			if j := strings.IndexAny(name, "/ \t"); j >= 0 {
				name = name[:j]
			}
			var rb Robot
			if r, ok := agents.Lookup(name); ok && name != "" {
				rb = registryRobot(r)
			} else {
				tok := robots.LineToken(v)
				if tok == "" {
					continue
				}
				rb = Robot{Name: tok, Tokens: []string{tok}}
			}
			if k := strings.ToLower(rb.Name); !seen[k] {
				seen[k] = true
				rb.Named = true
				out = append(out, rb)
			}
		}
	}
	return out
}

// registryRobot is a registry robot as Compare reads it
// (agents.Robot.Reader).
func registryRobot(r agents.Robot) Robot {
	a, _ := r.Reader()
	return Robot{Name: r.Token, Tokens: a.Tokens, IgnoreGlobal: a.IgnoreGlobal, WholeName: a.WholeName}
}

// robotsOf returns the robots of family p: its own robot, the robots the
// files name (once: the family's own robot is not repeated), and "*".
func robotsOf(p robots.Profile, named []Robot) []Robot {
	var out []Robot
	own := ""
	if tok, ok := mainRobot[p]; ok {
		if r, ok := agents.Lookup(tok); ok {
			out = append(out, registryRobot(r))
			own = strings.ToLower(r.Token)
		}
	}
	for _, rb := range named {
		if strings.ToLower(rb.Name) == own {
			out[0].Named = true
			continue
		}
		rb.Tokens = slices.Clone(rb.Tokens)
		out = append(out, rb)
	}
	return append(out, Robot{Name: "*", Tokens: []string{"*"}})
}

// groupsOf identifies the groups of r that robot a obeys: the lines of
// their first User-agent lines.
func groupsOf(r *robots.Rules, a robots.Agent) string {
	g, ok := r.Group(a)
	if !ok {
		return "none"
	}
	return fmt.Sprint(g.Global, g.Lines)
}

// verdictOf describes decision d of file f.
func verdictOf(f *syntax.File, d robots.Decision) Verdict {
	v := Verdict{Allowed: d.Allowed, Line: d.Line, Group: d.Group, Reason: d.Reason.String()}
	switch d.Reason {
	case robots.Matched:
		key, value := d.Rule.String(), d.Pattern
		if d.Line >= 1 && d.Line <= len(f.Lines) {
			l := &f.Lines[d.Line-1]
			key, value = f.Text(l.Key), f.Text(l.Value)
		}
		v.Rule = key + ": " + value
		v.Why = fmt.Sprintf("line %d: %s", d.Line, v.Rule)
	case robots.NoMatch:
		v.Why = fmt.Sprintf("no rule matches in the group at line %d", d.Group)
	case robots.RobotsTxt:
		v.Why = "/robots.txt is always allowed"
	default:
		v.Why = "no group applies"
	}
	return v
}

// Covers says in words which paths a rule's pattern, as written, covers
// as profile p reads it (RFC 9309 §2.2.2 and §2.2.3: a pattern matches
// the paths that start with it, "*" stands for any run of characters and
// a final "$" ends the path; the old standards have neither):
// "the whole site", "/private/ and everything under it", "every path that
// starts with /shop", "exactly /", "every path that ends with .pdf",
// "every path that contains ?", else "every path that matches
// /a/*/b$", and "no path" for an empty pattern.
func Covers(pattern string, p robots.Profile) string {
	if strings.ContainsAny(pattern, " \t") {
		// A pattern with spaces (which no URL path holds unescaped)
		// reads as what it is, quoted.
		return fmt.Sprintf("every path that matches %q", pattern)
	}
	wild := p != robots.Draft1996 && p != robots.Strict1994
	anchored := false
	pat := pattern
	if wild {
		pat, anchored = strings.CutSuffix(pattern, "$")
		for strings.HasSuffix(pat, "*") && !anchored {
			pat = strings.TrimSuffix(pat, "*") // "/a*" is "/a"
		}
	}
	stars := wild && strings.Contains(pat, "*")
	switch {
	case pat == "" && !anchored:
		return "no path"
	case pattern[0] != '/' && (!wild || pattern[0] != '*'):
		return "no path (a path starts with \"/\")"
	case !stars && !anchored && (pat == "/" || pat == ""):
		return "the whole site"
	case !stars && anchored:
		return "exactly " + pat
	case !stars && strings.HasSuffix(pat, "/"):
		return pat + " and everything under it"
	case !stars:
		return "every path that starts with " + pat
	}
	if rest, ok := strings.CutPrefix(pat, "/*"); ok && !strings.Contains(rest, "*") && rest != "" {
		if anchored {
			return "every path that ends with " + rest
		}
		return "every path that contains " + rest
	}
	return "every path that matches " + pattern
}
