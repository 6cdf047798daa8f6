package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/change"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/internal/sitecheck"
	"github.com/robotskit/robots/internal/target"
	"github.com/robotskit/robots/internal/wire"
	"github.com/robotskit/robots/lint"
	"github.com/robotskit/robots/page"
	"github.com/robotskit/robots/syntax"
	"github.com/robotskit/robots/usage"
)

// Bounds of a test request.
const (
	maxTestURLs   = 200
	maxTestRobots = 50
)

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) error {
	return writeJSON(r.Context(), w, http.StatusOK, map[string]string{"status": "ok", "version": s.cfg.Version})
}

// agents answers GET /api/v1/agents?robots=SPEC: the robots of the
// registry a selection names (agents.Select: "ai", "search", a purpose,
// tokens; all of them without one), as robots agents -format json lists
// them. It reads no file and does no work worth a slot.
func (s *Server) agents(w http.ResponseWriter, r *http.Request) error {
	spec := r.URL.Query().Get("robots")
	list := agents.All()
	if spec != "" {
		var err error
		if list, err = agents.Select(spec); err != nil {
			return badRequest("unknown_robot", err.Error())
		}
	}
	return writeJSON(r.Context(), w, http.StatusOK, wire.AgentsResponse{Robots: list})
}

// check answers POST /api/v1/check.
func (s *Server) check(w http.ResponseWriter, r *http.Request) error {
	var req wire.CheckRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	resp, err := s.runCheck(ctx, req)
	if err != nil {
		return err
	}
	// The estimate of runCheck left out the fixer's findings: the answer
	// is measured before it is sent. Most answers are small: they are
	// encoded once, into a buffer, and sent from it.
	small := &limitedBuffer{max: smallAnswer}
	switch err := encodeJSON(ctx, small, resp); err {
	case nil:
		return writeAnswer(w, http.StatusOK, small.b.Bytes())
	case errTooLong:
	default:
		return err
	}
	if n, over, err := answerSize(ctx, resp, s.maxAnswer); err != nil {
		return err
	} else if over {
		return s.answerTooLarge(n, fmt.Sprintf("%d findings, and those the corrected file still has", len(resp.Diagnostics)))
	}
	return writeJSON(ctx, w, http.StatusOK, resp)
}

// answerTooLarge is the 422 of an answer over the limit (MaxAnswer); what
// says where its size comes from.
func (s *Server) answerTooLarge(n int64, what string) error {
	return &apiError{status: http.StatusUnprocessableEntity, code: "answer_too_large",
		msg: fmt.Sprintf("the answer would be more than %s (%s); this server answers at most %s: send a smaller file, or fewer URLs or robots",
			sizeText(n), what, sizeText(s.maxAnswer))}
}

// sizeText says n octets in words.
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// checkBounds refuses a file with more lines or rules than a check reads
// (MaxCheckLines, MaxCheckRules).
func checkBounds(f *syntax.File) error {
	rules := 0
	for i := range f.Lines {
		if l := &f.Lines[i]; l.Kind == syntax.DirectiveLine && (l.Field == syntax.Allow || l.Field == syntax.Disallow) {
			rules++
		}
	}
	var what string
	switch {
	case len(f.Lines) > MaxCheckLines:
		what = fmt.Sprintf("the file has %d lines; this server checks at most %d", len(f.Lines), MaxCheckLines)
	case rules > MaxCheckRules:
		what = fmt.Sprintf("the file has %d Allow and Disallow lines; this server checks at most %d", rules, MaxCheckRules)
	default:
		return nil
	}
	return &apiError{status: http.StatusRequestEntityTooLarge, code: "too_large",
		msg: what + " (a 500 KiB robots.txt, all that Google reads, has some 20000): check a part of it, or use the robots command"}
}

// runCheck checks a pasted file or a site's robots.txt, and fixes it.
func (s *Server) runCheck(ctx context.Context, req wire.CheckRequest) (*wire.CheckResponse, error) {
	profile, err := parseProfile(req.Profile)
	if err != nil {
		return nil, err
	}
	for _, n := range req.Enable {
		if !lint.KnownFix(n) {
			return nil, badRequest("bad_request", fmt.Sprintf(`"enable": no fix or check %q (give fix IDs such as FX25, check codes such as RB501, or "all")`, n))
		}
	}
	name, body, cfg := "robots.txt", []byte(nil), lint.Config{Thorough: req.Thorough, AllRobots: req.AllRobots}
	if req.Profile != "" && !lint.ProfileFamily(profile).Major() {
		cfg.AllRobots = true // the findings of that family are what was asked
	}
	var trace *wire.FetchTrace
	switch {
	case (req.Robots == nil) == (req.URL == ""):
		return nil, badRequest("bad_request", `give one of "robots" (the file) or "url" (a site)`)
	case req.Robots != nil:
		body = []byte(*req.Robots)
	default:
		site, err := s.fetchForCheck(ctx, siteURL(req.URL), req.Thorough)
		if err != nil {
			return nil, err
		}
		name, body, cfg.URL, cfg.Fetch = site.URL, site.Body, site.URL, site.Fetch
		trace = wire.Trace(site.Result)
	}
	// The work starts once the file is here.
	if err := s.work(ctx); err != nil {
		return nil, err
	}
	f := syntax.Parse(name, body)
	if err := checkBounds(f); err != nil {
		return nil, err
	}
	if req.Profile == "" {
		// The answer holds every finding the check reports (with a
		// profile, fewer): the check stops as soon as they cannot fit,
		// beside the corrected file and the file itself.
		cfg.MaxReport = max(1, s.maxAnswer-2*int64(len(body)))
	}
	ds, err := lint.RunContext(ctx, f, &cfg)
	if errors.Is(err, lint.ErrReport) {
		return nil, s.answerTooLarge(s.maxAnswer, "the findings and their explanations alone, counted as the check found them")
	}
	if err != nil {
		return nil, err
	}
	cfg.MaxReport = 0
	ds = lint.Fold(ds)
	if req.Profile != "" {
		ds = lint.ForProfile(ds, profile)
	}
	resp := &wire.CheckResponse{Diagnostics: wire.Diagnostics(ds)}
	// Before the fixer's work, the answer is bounded by what it will hold
	// at most: the findings, as many left unfixed (each with why, some 160
	// octets more), the corrected file and the file itself. (With fewer
	// findings, only a file of huge lines quoted in their messages could
	// go over; check counts the answer anyway.)
	extra := 160*int64(len(ds)) + 2*int64(len(body))
	if len(ds) >= 1000 {
		if n, over, err := answerSize(ctx, resp, (s.maxAnswer-extra)/2); err != nil {
			return nil, err
		} else if over {
			return nil, s.answerTooLarge(2*n+extra, fmt.Sprintf("%d findings, each with its explanation, and as many the corrected file may keep", len(ds)))
		}
	}
	fixCfg := cfg
	fixCfg.Fetch = nil
	fr, err := lint.FixContext(ctx, body, &lint.FixOptions{Config: fixCfg, Enable: req.Enable})
	if err != nil {
		return nil, err
	}
	fixed := string(fr.Output)
	left, err := lint.LeftoversContext(ctx, fr, &fixCfg)
	if err != nil {
		return nil, err
	}
	resp.Fixed, resp.Unfixed = &fixed, wire.Leftovers(left)
	if len(req.Enable) > 0 {
		// What the intent fixes change, per family, before anyone
		// downloads the file.
		if resp.Changes, err = change.CompareContext(ctx, body, fr.Output, &change.Options{All: cfg.AllRobots}); err != nil {
			return nil, err
		}
	}
	if trace != nil {
		text := string(body)
		resp.Fetch, resp.Robots = trace, &text
	}
	return resp, nil
}

// checkFetcher fetches as the checker does: Google's status rules, 10
// redirects (as Moderatobot follows them).
func (s *Server) checkFetcher() *fetch.Fetcher {
	return &fetch.Fetcher{Client: s.client, Policy: fetch.Google, Profile: robots.Google, MaxRedirects: 10}
}

// siteURL is a URL field of a request as the CLI reads its argument
// (internal/target): a bare host such as example.com is
// https://example.com; anything else is left for the guard to judge.
func siteURL(raw string) string {
	if !target.IsURL(raw) {
		if u, ok := target.BareHost(raw); ok {
			return u
		}
	}
	return raw
}

// fetchForCheck fetches a site's robots.txt for a check, after the guard
// let its target through: the file, the trace of the fetch, the case
// variants of a missing file, and with thorough the sibling origins'
// files, through the guarded client.
func (s *Server) fetchForCheck(ctx context.Context, raw string, thorough bool) (*sitecheck.Site, error) {
	done, err := s.fetching(ctx, raw)
	if err != nil {
		return nil, err
	}
	defer done()
	if err := s.guard.checkTarget(ctx, raw); err != nil {
		return nil, err
	}
	site, err := sitecheck.Fetch(ctx, s.checkFetcher(), raw, sitecheck.Options{CaseClient: s.client, Siblings: thorough})
	if err != nil {
		return nil, badRequest("bad_url", err.Error())
	}
	s.metrics.fetches.WithLabelValues("robots.txt", site.Result.Outcome.String()).Inc()
	return site, nil
}

// test answers POST /api/v1/test.
func (s *Server) test(w http.ResponseWriter, r *http.Request) error {
	var req wire.TestRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	profile, err := parseProfile(req.Profile)
	if err != nil {
		return err
	}
	switch {
	case (req.Robots == nil) == (req.URL == ""):
		return badRequest("bad_request", `give one of "robots" (the file) or "url" (a site)`)
	case len(req.URLs) == 0:
		return badRequest("bad_request", `"urls" is empty: give the URLs to test`)
	case len(req.URLs) > maxTestURLs:
		return badRequest("too_many", "at most 200 URLs per request")
	case len(req.RobotsList)+len(req.Agents) > maxTestRobots:
		return badRequest("too_many", "at most 50 robots per request")
	}
	names := req.RobotsList
	if len(names) == 0 && len(req.Agents) == 0 {
		names = []string{page.DefaultRobot}
	}
	// Every name is checked before anything is fetched: a typo must not
	// become a robot that obeys only "*".
	readers, err := testRobots(names, req.Agents)
	if err != nil {
		return err
	}
	ctx := r.Context()
	var (
		body []byte
		res  *fetch.Result
		base string
		ans  = &testAnswer{}
	)
	size := 0
	if req.Robots != nil {
		// The file as robots read it: its first 500 KiB (robots.Cut);
		// its whole size tells the policies that ignore a longer file.
		body = []byte(*req.Robots)
		size = len(body)
		body = robots.Cut(body)
		req.Robots = nil // one copy is enough
	} else {
		if res, err = s.fetchForTest(ctx, siteURL(req.URL)); err != nil {
			return err
		}
		s.metrics.cache.WithLabelValues(map[bool]string{true: "hit", false: "miss"}[res.FromCache]).Inc()
		if !res.FromCache {
			s.metrics.fetches.WithLabelValues("robots.txt", res.Outcome.String()).Inc()
		}
		body, base = res.Body, res.Origin.String()
		ans.Fetch = wire.Trace(res)
	}
	for i := range readers {
		if req.Profile != "" {
			readers[i].Profile = profile
		}
	}
	// The work starts once the file is here.
	if err := s.work(ctx); err != nil {
		return err
	}
	plan := newTestPlan(syntax.Parse("robots.txt", body), readers, req.URLs, base, res, size)
	// The work and the answer are bounded before the work.
	if work := plan.work(); work > s.maxTestWork {
		return &apiError{status: http.StatusUnprocessableEntity, code: "too_much_work",
			msg: fmt.Sprintf("this test would compare some %.2g octets (%d sets of robots that read different groups × %d URLs of %d octets in all × up to %d wildcard rules each set reads); this server compares at most %.2g per request: send fewer or shorter URLs, fewer robots, or fewer wildcard rules",
				float64(work), len(plan.sets), len(plan.urls), plan.urlBytes(), plan.maxWild(), s.maxTestWork)}
	}
	if n := plan.answerBound(ans); n > s.maxAnswer {
		return s.answerTooLarge(n, fmt.Sprintf("%d verdicts, each with its robot, URL and rule", len(readers)*len(req.URLs)))
	}
	if err := plan.decide(ctx); err != nil {
		return err
	}
	ans.Results, ans.Access = plan, accessList{plan}
	return writeJSON(ctx, w, http.StatusOK, ans)
}

// fetchForTest fetches a site's robots.txt for a test, with a turn of the
// fetch pool, as robots do: the robots' own redirect limit, through the
// server's cache.
func (s *Server) fetchForTest(ctx context.Context, raw string) (*fetch.Result, error) {
	done, err := s.fetching(ctx, raw)
	if err != nil {
		return nil, err
	}
	defer done()
	if err := s.guard.checkTarget(ctx, raw); err != nil {
		return nil, err
	}
	f := s.checkFetcher()
	f.MaxRedirects = 0 // the robots' own limit: 5
	f.Cache = s.cache
	res, err := f.Get(ctx, raw)
	if err != nil {
		return nil, badRequest("bad_url", err.Error())
	}
	return res, nil
}

// testAnswer is wire.TestResponse with its results made as they are
// written (TestTestAnswer checks that they agree).
type testAnswer struct {
	Results list             `json:"results"`
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
		use.srcLen = jsonLen(fmt.Sprintf("Content-Signal line %d", len(p.file.Lines)))
	}
	for _, c := range controls {
		cost := p.rulesCost(rs, robots.Token(c))
		use.cost.add(&cost)
		use.srcLen = max(use.srcLen, jsonLen("robots token "+c))
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
			c.ruleLen = jsonLen(p.file.Text(l.Key)) + jsonLen(p.file.Text(l.Value)) - 2
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
		size(rule) - empty - jsonLen("x"),
		size(reason) - empty - jsonLen("x"),
		size(source) - empty - jsonLen("x")
}()

// answerBound is the most octets the answer ans, with the plan's results,
// can take.
func (p *testPlan) answerBound(ans *testAnswer) int64 {
	fixed, _, _ := answerSize(context.Background(), &testAnswer{Results: &testPlan{}, Fetch: ans.Fetch}, 0)
	var urls int64
	for _, u := range p.urls {
		urls += int64(jsonLen(u))
	}
	n := fixed
	for _, rb := range p.robots {
		per := int64(resultSize + jsonLen(rb.name) + jsonLen(rb.profile))
		switch {
		case rb.set != nil:
			per += int64(ruleSize + rb.set.cost.ruleLen)
		default:
			per += int64(reasonSize + jsonLen(rb.under.Reason))
		}
		if rb.use != nil {
			// Each purpose may name its source, with its line.
			per += int64(robots.NumPurposes) * int64(sourceSize+rb.use.srcLen)
		}
		n += per*int64(len(p.urls)) + urls + int64(accessSize+jsonLen(rb.name))
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
		rb, err := knownRobot(name)
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

// knownRobot finds a robot of the registry, or says which names come
// closest.
func knownRobot(name string) (page.Robot, error) {
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

// page answers GET /api/v1/page?url=&robot=.
func (s *Server) page(w http.ResponseWriter, r *http.Request) error {
	raw := r.URL.Query().Get("url")
	if raw == "" {
		return badRequest("bad_request", "give the page as ?url=")
	}
	rb := page.RobotNamed("")
	if name := r.URL.Query().Get("robot"); name != "" {
		var err error
		if rb, err = knownRobot(name); err != nil {
			return err
		}
	}
	rep, err := s.inspect(r.Context(), siteURL(raw), rb)
	if err != nil {
		return err
	}
	outcome := "ok"
	if rep.Error != "" {
		outcome = "error"
	}
	s.metrics.fetches.WithLabelValues("page", outcome).Inc()
	if rep.Error != "" && !rep.Answered() {
		// No response of the page arrived: a report would hold guesses
		// (no directives, no snippet limit). The error says what
		// happened, as robots page says it.
		return unanswered(rep)
	}
	return writeJSON(r.Context(), w, http.StatusOK, rep)
}

// inspect inspects a page with a turn of the fetch pool, then takes a
// slot of the gate for the answer. The inspection reads the page as it
// arrives, a bounded part of it, and ends a little before the request,
// so that its report, which says it was stopped, is still sent.
func (s *Server) inspect(ctx context.Context, raw string, rb page.Robot) (*page.Report, error) {
	rep, err := func() (*page.Report, error) {
		done, err := s.fetching(ctx, raw)
		if err != nil {
			return nil, err
		}
		defer done()
		if err := s.guard.checkTarget(ctx, raw); err != nil {
			return nil, err
		}
		in := &page.Inspector{Client: s.client, Cache: s.cache, Timeout: s.timeout - min(5*time.Second, s.timeout/10)}
		rep, err := in.Inspect(ctx, raw, rb)
		if err != nil {
			return nil, badRequest("bad_url", err.Error())
		}
		return rep, nil
	}()
	if err != nil {
		return nil, err
	}
	if err := s.work(ctx); err != nil {
		return nil, err
	}
	return rep, nil
}

// unanswered is the 502 of a page of which no response arrived, with the
// requests made when there were more than one, so that a loop or a chain
// shows whole.
func unanswered(rep *page.Report) error {
	var b strings.Builder
	b.WriteString(rep.Error)
	if len(rep.Redirects) > 1 {
		b.WriteString("; the requests:")
		for i, h := range rep.Redirects {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, " %d %s", h.Status, h.URL)
			if h.Location != "" {
				b.WriteString(" → " + h.Location)
			}
		}
	}
	return &apiError{status: http.StatusBadGateway, code: "page_unreachable", msg: b.String()}
}

func parseProfile(name string) (robots.Profile, error) {
	if name == "" {
		return robots.Google, nil
	}
	p, err := robots.ParseProfile(name)
	if err != nil {
		return p, badRequest("bad_profile", err.Error())
	}
	return p, nil
}
