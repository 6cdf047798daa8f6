package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/jimsmart/grobotstxt"
	"github.com/robotskit/robots"
	"github.com/temoto/robotstxt"
)

// engine is one robots.txt implementation under test. Each function runs its
// own concrete loop so that no interface call sits inside a timed loop.
type engine struct {
	name string
	// parse parses every body of c once and returns how many were rejected.
	parse func(c *corpus) (rejected int)
	// prepare pre-parses every host of c and resolves every stride-th query
	// of c.queries against its host's parsed form.
	prepare func(c *corpus, stride int) checker
	// oneshot parses each body of c and checks its first URL for agent; it
	// returns how many were allowed.
	oneshot func(c *corpus, agent string) (allowed int)
	// retain parses every body of c and returns all parsed forms, to be
	// kept alive while the heap is measured.
	retain func(c *corpus) any
}

// checker answers checks against pre-parsed rules.
type checker interface {
	// len is the number of resolved queries.
	len() int
	// run checks every resolved query for agent, returning how many checks
	// it did and how many of them were allowed. It skips queries whose host
	// the implementation rejected.
	run(agent string) (n, allowed int)
	// at checks resolved query i; ok is false if the implementation rejected
	// the host's robots.txt.
	at(i int, agent string) (allowed, ok bool)
}

// Implementation names, in default order.
const (
	nameRobots  = "robots"
	nameTemoto  = "temoto"
	nameGrobots = "grobotstxt"
)

// engines lists every known implementation.
var engines = []engine{
	{nameRobots, parseRobots, prepareRobots, oneshotRobots, retainRobots},
	{nameTemoto, parseTemoto, prepareTemoto, oneshotTemoto, retainTemoto},
	{nameGrobots, parseGrobots, prepareGrobots, oneshotGrobots, retainGrobots},
}

// selectEngines returns the engines named in the comma-separated list.
func selectEngines(list string) ([]engine, error) {
	var out []engine
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		i := slices.IndexFunc(engines, func(e engine) bool { return e.name == name })
		if i < 0 {
			return nil, fmt.Errorf("unknown implementation %q (want %s, %s or %s)",
				name, nameRobots, nameTemoto, nameGrobots)
		}
		if slices.ContainsFunc(out, func(e engine) bool { return e.name == name }) {
			return nil, fmt.Errorf("implementation %q listed twice", name)
		}
		out = append(out, engines[i])
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no implementation selected")
	}
	return out, nil
}

// Sinks keep the compiler from discarding results of timed work.
var (
	sinkRules  *robots.Rules
	sinkTemoto *robotstxt.RobotsData
)

// --- robots (this module) ---

func parseRobots(c *corpus) int {
	for i := range c.hosts {
		sinkRules = robots.Parse(c.hosts[i].body, robots.Google)
	}
	return 0
}

type robotsQuery struct {
	rules *robots.Rules
	url   string
}

type robotsChecker []robotsQuery

func prepareRobots(c *corpus, stride int) checker {
	parsed := make([]*robots.Rules, len(c.hosts))
	for i := range c.hosts {
		parsed[i] = robots.Parse(c.hosts[i].body, robots.Google)
	}
	var qs robotsChecker
	for i := 0; i < len(c.queries); i += stride {
		q := c.queries[i]
		qs = append(qs, robotsQuery{parsed[q.host], q.url})
	}
	return qs
}

func (qs robotsChecker) len() int { return len(qs) }

func (qs robotsChecker) run(agent string) (n, allowed int) {
	for i := range qs {
		if qs[i].rules.Allowed(agent, qs[i].url) {
			allowed++
		}
	}
	return len(qs), allowed
}

func (qs robotsChecker) at(i int, agent string) (bool, bool) {
	return qs[i].rules.Allowed(agent, qs[i].url), true
}

func oneshotRobots(c *corpus, agent string) int {
	allowed := 0
	for i := range c.hosts {
		if robots.Parse(c.hosts[i].body, robots.Google).Allowed(agent, c.hosts[i].firstURL()) {
			allowed++
		}
	}
	return allowed
}

func retainRobots(c *corpus) any {
	keep := make([]*robots.Rules, len(c.hosts))
	for i := range c.hosts {
		keep[i] = robots.Parse(c.hosts[i].body, robots.Google)
	}
	return keep
}

// --- github.com/temoto/robotstxt ---
//
// TestAgent takes a path, not a URL, so every timed check also pays for
// requestPath, a cheap non-allocating extraction, since our Allowed receives
// the full URL.

func parseTemoto(c *corpus) int {
	rejected := 0
	for i := range c.hosts {
		d, err := robotstxt.FromBytes(c.hosts[i].body)
		if err != nil {
			rejected++
		}
		sinkTemoto = d
	}
	return rejected
}

type temotoQuery struct {
	data *robotstxt.RobotsData // nil when FromBytes rejected the body
	url  string
}

type temotoChecker []temotoQuery

func prepareTemoto(c *corpus, stride int) checker {
	parsed := make([]*robotstxt.RobotsData, len(c.hosts))
	for i := range c.hosts {
		if d, err := robotstxt.FromBytes(c.hosts[i].body); err == nil {
			parsed[i] = d
		}
	}
	var qs temotoChecker
	for i := 0; i < len(c.queries); i += stride {
		q := c.queries[i]
		qs = append(qs, temotoQuery{parsed[q.host], q.url})
	}
	return qs
}

func (qs temotoChecker) len() int { return len(qs) }

func (qs temotoChecker) run(agent string) (n, allowed int) {
	for i := range qs {
		if qs[i].data == nil {
			continue
		}
		n++
		if qs[i].data.TestAgent(requestPath(qs[i].url), agent) {
			allowed++
		}
	}
	return n, allowed
}

func (qs temotoChecker) at(i int, agent string) (bool, bool) {
	if qs[i].data == nil {
		return false, false
	}
	return qs[i].data.TestAgent(requestPath(qs[i].url), agent), true
}

func oneshotTemoto(c *corpus, agent string) int {
	allowed := 0
	for i := range c.hosts {
		d, err := robotstxt.FromBytes(c.hosts[i].body)
		if err == nil && d.TestAgent(requestPath(c.hosts[i].firstURL()), agent) {
			allowed++
		}
	}
	return allowed
}

func retainTemoto(c *corpus) any {
	keep := make([]*robotstxt.RobotsData, len(c.hosts))
	for i := range c.hosts {
		keep[i], _ = robotstxt.FromBytes(c.hosts[i].body)
	}
	return keep
}

// --- github.com/jimsmart/grobotstxt ---
//
// grobotstxt (a port of Google's C++ robotstxt) has no parsed form: it
// re-parses the body on every check. Its "parse" is the tokenizer driving a
// no-op handler, and its "retained" form is the body itself. It takes the
// body as a string; the conversion is done once, outside every timed loop.

// nopHandler is a grobotstxt.ParseHandler that ignores every callback.
type nopHandler struct{}

func (nopHandler) HandleRobotsStart()                      {}
func (nopHandler) HandleRobotsEnd()                        {}
func (nopHandler) HandleUserAgent(int, string)             {}
func (nopHandler) HandleAllow(int, string)                 {}
func (nopHandler) HandleDisallow(int, string)              {}
func (nopHandler) HandleSitemap(int, string)               {}
func (nopHandler) HandleUnknownAction(int, string, string) {}

func parseGrobots(c *corpus) int {
	for i := range c.hosts {
		grobotstxt.Parse(c.hosts[i].text, nopHandler{})
	}
	return 0
}

type grobotsQuery struct {
	body string
	url  string
}

type grobotsChecker []grobotsQuery

func prepareGrobots(c *corpus, stride int) checker {
	var qs grobotsChecker
	for i := 0; i < len(c.queries); i += stride {
		q := c.queries[i]
		qs = append(qs, grobotsQuery{c.hosts[q.host].text, q.url})
	}
	return qs
}

func (qs grobotsChecker) len() int { return len(qs) }

func (qs grobotsChecker) run(agent string) (n, allowed int) {
	for i := range qs {
		if grobotstxt.AgentAllowed(qs[i].body, agent, qs[i].url) {
			allowed++
		}
	}
	return len(qs), allowed
}

func (qs grobotsChecker) at(i int, agent string) (bool, bool) {
	return grobotstxt.AgentAllowed(qs[i].body, agent, qs[i].url), true
}

func oneshotGrobots(c *corpus, agent string) int {
	allowed := 0
	for i := range c.hosts {
		if grobotstxt.AgentAllowed(c.hosts[i].text, agent, c.hosts[i].firstURL()) {
			allowed++
		}
	}
	return allowed
}

func retainGrobots(c *corpus) any {
	keep := make([]string, len(c.hosts))
	for i := range c.hosts {
		keep[i] = strings.Clone(c.hosts[i].text)
	}
	return keep
}
