package apicore

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/internal/wire"
	"github.com/robotskit/robots/page"
	"github.com/robotskit/robots/syntax"
	"github.com/robotskit/robots/usage"
)

// Bounds of a test request.
const (
	maxTestURLs   = 200
	maxTestRobots = 50
)

// A Test is a request of POST /api/v1/test, read and found sound, with
// its robots.
type Test struct {
	req     wire.TestRequest
	profile robots.Profile
	readers []page.Robot
}

// NewTest reads a test request: its profile, that it gives one of a file
// and a site, its URLs, and its robots, every name checked before
// anything is fetched: a typo must not become a robot that obeys only
// "*".
func NewTest(req wire.TestRequest) (*Test, error) {
	profile, err := ParseProfile(req.Profile)
	if err != nil {
		return nil, err
	}
	switch {
	case (req.Robots == nil) == (req.URL == ""):
		return nil, badRequest("bad_request", `give one of "robots" (the file) or "url" (a site)`)
	case len(req.URLs) == 0:
		return nil, badRequest("bad_request", `"urls" is empty: give the URLs to test`)
	case len(req.URLs) > maxTestURLs:
		return nil, badRequest("too_many", "at most 200 URLs per request")
	case len(req.RobotsList)+len(req.Agents) > maxTestRobots:
		return nil, badRequest("too_many", "at most 50 robots per request")
	}
	names := req.RobotsList
	if len(names) == 0 && len(req.Agents) == 0 {
		names = []string{page.DefaultRobot}
	}
	readers, err := testRobots(names, req.Agents)
	if err != nil {
		return nil, err
	}
	return &Test{req: req, profile: profile, readers: readers}, nil
}

// Run tests the URLs of the request against its file, or against the
// fetch res of its site for a request that names a URL: the answer of
// POST /api/v1/test, whose results are made as it is written (Encode).
// The work and the answer are bounded before the work (lim).
func (t *Test) Run(ctx context.Context, res *fetch.Result, lim Limits) (*TestAnswer, error) {
	var (
		body []byte
		base string
		ans  = &TestAnswer{}
	)
	size := 0
	if t.req.Robots != nil {
		// The file as robots read it: its first 500 KiB (robots.Cut);
		// its whole size tells the policies that ignore a longer file.
		body = []byte(*t.req.Robots)
		size = len(body)
		body = robots.Cut(body)
		t.req.Robots = nil // one copy is enough
		res = nil
	} else {
		if res == nil {
			return nil, fmt.Errorf("apicore: a test of a site without its fetch")
		}
		body, base = res.Body, res.Origin.String()
		ans.Fetch = wire.Trace(res)
	}
	readers := t.readers
	for i := range readers {
		if t.req.Profile != "" {
			readers[i].Profile = t.profile
		}
	}
	// The work starts once the file is here.
	if err := lim.work(ctx); err != nil {
		return nil, err
	}
	urls := t.req.URLs
	plan := newTestPlan(syntax.Parse("robots.txt", body), readers, urls, base, res, size)
	// The work and the answer are bounded before the work.
	if work := plan.work(); work > lim.MaxTestWork {
		return nil, &Error{Status: StatusUnprocessableEntity, Code: "too_much_work",
			Message: fmt.Sprintf("this test would compare some %.2g octets (%d sets of robots that read different groups × %d URLs of %d octets in all × up to %d wildcard rules each set reads); this server compares at most %.2g per request: send fewer or shorter URLs, fewer robots, or fewer wildcard rules",
				float64(work), len(plan.sets), len(plan.urls), plan.urlBytes(), plan.maxWild(), lim.MaxTestWork)}
	}
	if n := plan.answerBound(ans); n > lim.MaxAnswer {
		return nil, AnswerTooLarge(n, lim.MaxAnswer, fmt.Sprintf("%d verdicts, each with its robot, URL and rule", len(readers)*len(urls)))
	}
	if err := plan.decide(ctx); err != nil {
		return nil, err
	}
	ans.Results, ans.Access = plan, accessList{plan}
	return ans, nil
}

// A TestAnswer is wire.TestResponse with its results made as they are
// written (TestTestAnswer checks that they agree).
type TestAnswer struct {
	Results List             `json:"results"`
	Access  accessList       `json:"access"`
	Fetch   *wire.FetchTrace `json:"fetch,omitempty"`
}

// accessList is the access of each robot of a plan, made as it is
// written.
type accessList struct{ p *testPlan }

func (l accessList) Len() int {
	if l.p == nil {
		return 0
	}
	return len(l.p.robots)
}

func (l accessList) At(i int) any {
	rb := &l.p.robots[i]
	return wire.Access{Robot: rb.name, Access: rb.access}
}

// A testPlan is the work of a test request: each robot with the rules it
// reads, the URLs, and the verdicts, decided once for the robots that
// read the same groups under the same profile; and the usage verdicts
// (usage.Decide), decided once for the robots of a set that the same
// control tokens govern. It is the list of the answer's results, robot
// by robot, each with every URL.
//
// Its memory is that of the request: the file parsed, the rules of one
// profile at a time (compiled once to find the sets, once to decide),
// a few octets per verdict; then the verdicts, the deciding lines and
// the usage verdicts alone (each different one once), while the answer
// is written.
type testPlan struct {
	file     *syntax.File // nil once decided
	urls     []string     // as given
	targets  []string     // as decided: the fetched site's origin before a path
	robots   []testRobot
	sets     []*testSet
	uses     []*testUse
	profiles []robots.Profile // of the sets, each once
	rules    map[int]string   // the deciding lines, as shown
	// usages are the usage verdicts found, each once; usageAt indexes
	// them.
	usages  []usage.Verdicts
	usageAt map[usage.Verdicts]int32
}

// A testRobot is a robot of the request, and how its verdicts are made:
// by its set's rules, or by the fetch (under.Access is not AccessRules);
// and its access to the site (robots.Rules.Access, fetch.Access.For).
type testRobot struct {
	name, profile string
	reader        page.Robot
	set           *testSet
	use           *testUse // nil when nothing can state a usage preference to it
	under         *fetch.Result
	access        robots.Access
}

// A testSet is a group of robots that read the same groups under one
// profile, and their verdicts.
type testSet struct {
	profile  robots.Profile
	agent    robots.Agent // the first robot's
	cost     groupCost
	verdicts []testVerdict
}

// A testUse is the robots of a set that the same control tokens govern
// (agents.ControlsFor), when the set's groups have Content-Usage or
// Content-Signal lines or some control token governs them, and their
// usage verdicts. The robots of a set whose groups state nothing and
// that no control token governs are told nothing: usage.Decide would
// find "none" for every purpose of every URL, and is not asked.
type testUse struct {
	set   *testSet
	agent robots.Agent // the first robot's
	// cost is what usage.Decide reads beside the set's rules: the usage
	// lines and the rules of the control tokens; srcLen the longest
	// source of a verdict, as JSON.
	cost     groupCost
	srcLen   int
	verdicts []int32 // indexes of testPlan.usages, URL by URL
}

// useKey identifies a testUse: a set, and the control tokens that govern
// its robots.
type useKey struct {
	set      *testSet
	controls string
}

// noUsage is the usage verdicts where nothing states a preference: what
// usage.Decide finds with no file.
var noUsage = usage.Decide(nil, usage.Robot{}, "/", nil).Usage

// A testVerdict is a verdict, as small as it can be.
type testVerdict struct {
	line             int32
	allowed, matched bool
}

// groupCost is what the rules of some groups cost the matcher and the
// answer: the rules (the matcher may test each), the wildcard rules (each
// may read a whole URL), the octets of their patterns, and the longest
// deciding line as shown.
type groupCost struct {
	rules, wild, wildBytes, ruleLen int
}

func (c *groupCost) add(o *groupCost) {
	c.rules += o.rules
	c.wild += o.wild
	c.wildBytes += o.wildBytes
	c.ruleLen = max(c.ruleLen, o.ruleLen)
}

// newTestPlan compiles the rules of file for each profile the readers
// use once, and puts the readers that read the same groups under one
// profile in one set. res is the fetch of the file, or nil for a file
// given as text, whose whole size is size.
func newTestPlan(file *syntax.File, readers []page.Robot, urls []string, base string, res *fetch.Result, size int) *testPlan {
	p := &testPlan{file: file, urls: urls, targets: urls, rules: map[int]string{}}
	if base != "" {
		p.targets = make([]string, len(urls))
		for i, u := range urls {
			p.targets[i] = u
			if strings.HasPrefix(u, "/") {
				p.targets[i] = base + u
			}
		}
	}
	p.robots = make([]testRobot, len(readers))
	for i, rb := range readers {
		p.robots[i] = testRobot{name: rb.Name, profile: rb.Profile.String(), reader: rb}
		// The robot's fetch policy reads the fetch, or a file given as text
		// as if it were served whole (fetch.Policy.Served: Yandex ignores
		// a file over 500 KiB).
		var under *fetch.Result
		if res != nil {
			under = res.Under(rb.Policy)
		} else {
			acc, why := rb.Policy.Served(int64(size))
			under = &fetch.Result{Access: acc, Reason: why}
		}
		if under.Access != fetch.AccessRules {
			p.robots[i].under = under
			p.robots[i].access = under.Access.For(nil, rb.Agent)
			continue
		}
		if !slices.Contains(p.profiles, rb.Profile) {
			p.profiles = append(p.profiles, rb.Profile)
		}
	}
	sets := map[string]*testSet{}
	uses := map[useKey]*testUse{}
	for _, prof := range p.profiles {
		rs := robots.Compile(file, prof) // dropped before the next
		for i, rb := range readers {
			if rb.Profile != prof || p.robots[i].under != nil {
				continue
			}
			p.robots[i].set = p.setOf(sets, rs, rb)
			p.robots[i].use = p.useOf(uses, rs, rb, p.robots[i].set)
		}
	}
	return p
}

// useOf returns the usage verdicts' holder of the robot rb of set, whose
// profile's rules are rs, among uses (keyed by set and control tokens),
// adding it when it is the first of its kind; nil when nothing can state
// a preference to rb.
func (p *testPlan) useOf(uses map[useKey]*testUse, rs *robots.Rules, rb page.Robot, set *testSet) *testUse {
	var controls []string
	if len(rb.Agent.Tokens) > 0 {
		for _, c := range agents.ControlsFor(rb.Agent.Tokens[0]) {
			controls = append(controls, c.Token)
		}
	}
	statements := rs.UsageStatements(rb.Agent)
	if len(statements) == 0 && len(controls) == 0 {
		return nil
	}
	key := useKey{set, strings.Join(controls, " ")}
	if use := uses[key]; use != nil {
		return use
	}
	use := &testUse{set: set, agent: rb.Agent}
	// usage.Decide decides the URL again (robots.Rules.Usage), reads the
	// group's usage lines (each Content-Usage path may read the whole
	// path twice), and decides it for each control token.
	use.cost = set.cost
	for _, st := range statements {
		c := groupCost{rules: 1, wildBytes: len(st.Value)}
		if st.Field == syntax.ContentUsage {
			c.wild, c.wildBytes = 2, c.wildBytes+2*len(st.Path)
		}
		use.cost.add(&c)
	}
	// The source of a robots.txt line ("Content-Signal line N"), or of a
	// control token ("robots token Google-Extended").
	if len(statements) > 0 {
		use.srcLen = JSONLen(fmt.Sprintf("Content-Signal line %d", len(p.file.Lines)))
	}
	for _, c := range controls {
		cost := p.rulesCost(rs, robots.Token(c))
		use.cost.add(&cost)
		use.srcLen = max(use.srcLen, JSONLen("robots token "+c))
	}
	uses[key] = use
	p.uses = append(p.uses, use)
	return use
}

// setOf returns the set of the robot rb, whose profile's rules are rs,
// among sets (keyed by profile and the groups read), adding it when it is
// the first of its set. A set's cost is that of the rules that decide for
// its robots (robots.Rules.AgentRules).
func (p *testPlan) setOf(sets map[string]*testSet, rs *robots.Rules, rb page.Robot) *testSet {
	g, ok := rs.Group(rb.Agent)
	key := rb.Profile.String() + " none"
	if ok {
		key = fmt.Sprint(rb.Profile, " ", g.Global, g.Lines)
	}
	if set := sets[key]; set != nil {
		return set
	}
	set := &testSet{profile: rb.Profile, agent: rb.Agent, cost: p.rulesCost(rs, rb.Agent)}
	sets[key] = set
	p.sets = append(p.sets, set)
	return set
}

// rulesCost is the cost of the rules that decide for a under rs
// (robots.Rules.AgentRules).
func (p *testPlan) rulesCost(rs *robots.Rules, a robots.Agent) groupCost {
	var cost groupCost
	for _, ru := range rs.AgentRules(a) {
		c := groupCost{rules: 1}
		if ru.Line >= 1 && ru.Line <= len(p.file.Lines) {
			// The line as shown, "Key: value", quotes aside.
			l := &p.file.Lines[ru.Line-1]
			c.ruleLen = JSONLen(p.file.Text(l.Key)) + JSONLen(p.file.Text(l.Value)) - 2
		}
		if strings.Contains(ru.Pattern, "*") {
			c.wild, c.wildBytes = 1, len(ru.Pattern)
		}
		cost.add(&c)
	}
	return cost
}

// The matcher's costs of a verdict, in octets compared: a fixed cost
// (finding the path), and the cost of testing one rule (its head, and
// the octets after it that a literal rule compares).
const (
	testVerdictCost = 64
	testRuleCost    = 4
)

// work is the matcher's work of the plan at most, in octets compared:
// for each set and each URL, the URL read by each wildcard rule of its
// groups (strings.Index reads a URL once per rule at most) and the
// rule's pattern, the tests of every rule, and a fixed cost; the same
// for the usage verdicts of each testUse, whose rules are the set's, its
// usage lines and its control tokens' rules. Measured on loopback on
// hostile and real files, an octet costs 0.3 ns, 0.9 ns at worst
// (wildcard segments that nearly match everywhere).
func (p *testPlan) work() float64 {
	n, b := float64(len(p.urls)), float64(p.urlBytes())
	var w float64
	cost := func(c *groupCost) {
		w += float64(c.wild+1)*(b+n) + n*float64(c.wildBytes+testRuleCost*c.rules+testVerdictCost)
	}
	for _, set := range p.sets {
		cost(&set.cost)
	}
	for _, use := range p.uses {
		cost(&use.cost)
	}
	return w
}

// urlBytes is the octets of the URLs as decided.
func (p *testPlan) urlBytes() int {
	n := 0
	for _, u := range p.targets {
		n += len(u)
	}
	return n
}

// maxWild is the most wildcard rules a set reads.
func (p *testPlan) maxWild() int {
	m := 0
	for _, set := range p.sets {
		m = max(m, set.cost.wild)
	}
	return m
}

// accessSize is the size of an access as writeList writes it, its robot's
// name aside, measured once on the longest wire.Access.
var accessSize = func() int {
	b, _ := json.MarshalIndent(wire.Access{Access: robots.Access{State: robots.Blocked, Via: robots.ViaFallback,
		Line: math.MaxInt32, Group: math.MaxInt32}}, "    ", "  ")
	return len(",\n    ") + len(b) - len(`""`)
}()

// The sizes of a result as writeList writes it, measured once on
// wire.TestResult: its separator and indentation, the fields with empty
// values (the usage verdicts "none", the longest value), and what a rule,
// a reason or the source of a usage verdict adds besides its text.
var resultSize, ruleSize, reasonSize, sourceSize = func() (int, int, int, int) {
	size := func(r wire.TestResult) int {
		b, _ := json.MarshalIndent(r, "    ", "  ")
		return len(b)
	}
	empty := size(wire.TestResult{Usage: noUsage})
	rule, reason, source := wire.TestResult{Rule: "x", Usage: noUsage}, wire.TestResult{Reason: "x", Usage: noUsage}, wire.TestResult{Usage: noUsage}
	source.Usage.Search.Source, source.Usage.Search.Line = "x", math.MaxInt32
	// ",\n    " before it; "false", "true" and the line counted at most.
	return len(",\n    ") + empty + len("false") + len("2147483647"),
		size(rule) - empty - JSONLen("x"),
		size(reason) - empty - JSONLen("x"),
		size(source) - empty - JSONLen("x")
}()

// answerBound is the most octets the answer ans, with the plan's results,
// can take.
func (p *testPlan) answerBound(ans *TestAnswer) int64 {
	fixed, _, _ := Size(context.Background(), &TestAnswer{Results: &testPlan{}, Fetch: ans.Fetch}, 0)
	var urls int64
	for _, u := range p.urls {
		urls += int64(JSONLen(u))
	}
	n := fixed
	for _, rb := range p.robots {
		per := int64(resultSize + JSONLen(rb.name) + JSONLen(rb.profile))
		switch {
		case rb.set != nil:
			per += int64(ruleSize + rb.set.cost.ruleLen)
		default:
			per += int64(reasonSize + JSONLen(rb.under.Reason))
		}
		if rb.use != nil {
			// Each purpose may name its source, with its line.
			per += int64(robots.NumPurposes) * int64(sourceSize+rb.use.srcLen)
		}
		n += per*int64(len(p.urls)) + urls + int64(accessSize+JSONLen(rb.name))
	}
	return n
}

// decide makes the verdicts of every set, and the usage verdicts of
// every testUse, profile by profile, looking at ctx before each; then it
// keeps the deciding lines as shown and lets go of the file.
func (p *testPlan) decide(ctx context.Context) error {
	p.usages, p.usageAt = []usage.Verdicts{noUsage}, map[usage.Verdicts]int32{noUsage: 0}
	for _, prof := range p.profiles {
		rs := robots.Compile(p.file, prof)
		p.access(prof, rs)
		for _, use := range p.uses {
			if use.set.profile != prof {
				continue
			}
			use.verdicts = make([]int32, len(p.targets))
			for i, t := range p.targets {
				if err := ctx.Err(); err != nil {
					return err
				}
				v := usage.Decide(rs, usage.Robot{Agent: use.agent}, t, nil).Usage
				k, ok := p.usageAt[v]
				if !ok {
					k = int32(len(p.usages))
					p.usages = append(p.usages, v)
					p.usageAt[v] = k
				}
				use.verdicts[i] = k
			}
		}
		for _, set := range p.sets {
			if set.profile != prof {
				continue
			}
			set.verdicts = make([]testVerdict, len(p.targets))
			for i, t := range p.targets {
				if err := ctx.Err(); err != nil {
					return err
				}
				d := rs.Decide(set.agent, t)
				v := testVerdict{line: int32(d.Line), allowed: d.Allowed, matched: d.Reason == robots.Matched}
				if v.matched && d.Line-1 < len(p.file.Lines) {
					if _, ok := p.rules[d.Line]; !ok {
						l := &p.file.Lines[d.Line-1]
						p.rules[d.Line] = p.file.Text(l.Key) + ": " + p.file.Text(l.Value)
					}
				} else {
					v.matched = false
				}
				set.verdicts[i] = v
			}
		}
	}
	p.file, p.usageAt = nil, nil
	return nil
}

// access works out each robot's access to the site under the rules of
// its profile, rs (robots.Rules.Access).
func (p *testPlan) access(prof robots.Profile, rs *robots.Rules) {
	for i := range p.robots {
		if rb := &p.robots[i]; rb.set != nil && rb.set.profile == prof {
			rb.access = rs.Access(rb.reader.Agent)
		}
	}
}

// Len and At make the plan the list of the answer's results.
func (p *testPlan) Len() int { return len(p.robots) * len(p.urls) }

func (p *testPlan) At(i int) any {
	rb, j := &p.robots[i/len(p.urls)], i%len(p.urls)
	tr := wire.TestResult{Robot: rb.name, URL: p.urls[j], Profile: rb.profile, Usage: noUsage}
	if rb.use != nil {
		tr.Usage = p.usages[rb.use.verdicts[j]]
	}
	if rb.set == nil {
		tr.Allowed, tr.Reason = rb.under.Access == fetch.AccessAll, rb.under.Reason
		return tr
	}
	v := rb.set.verdicts[j]
	tr.Allowed, tr.Line = v.allowed, int(v.line)
	if v.matched {
		tr.Rule = p.rules[tr.Line]
	}
	return tr
}

// testRobots resolves the robots of a test request: names the registry
// knows (by product token or User-Agent header), then plain product
// tokens, as the CLI's -robot and -agent do.
func testRobots(names, tokens []string) ([]page.Robot, error) {
	var out []page.Robot
	for _, name := range names {
		rb, err := KnownRobot(name)
		if err != nil {
			return nil, err
		}
		out = append(out, rb)
	}
	for _, t := range tokens {
		t = strings.TrimSpace(t)
		if t == "" {
			return nil, badRequest("bad_request", `an empty product token in "agents"`)
		}
		out = append(out, page.PlainRobot(t))
	}
	return out, nil
}

// KnownRobot finds a robot of the registry, or says which names come
// closest.
func KnownRobot(name string) (page.Robot, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return page.Robot{}, badRequest("bad_request", "an empty robot name")
	}
	rb, ok := agents.Find(name)
	if !ok {
		return page.Robot{}, badRequest("unknown_robot", agents.Unknown(name)+` (give a plain product token in "agents")`)
	}
	return page.FromRegistry(rb), nil
}
