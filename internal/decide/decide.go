// Package decide says what robots test -url says: the verdict of a robot
// on a URL from a fetched robots.txt, why in words, and how the fetch
// ended. The CLI (robots test, assert, compare…) and the MCP server
// (robots mcp) give one answer to one question through it.
package decide

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/syntax"
)

// Explain says in a few words why d was decided.
func Explain(f *syntax.File, d robots.Decision) string {
	switch d.Reason {
	case robots.Matched:
		key, value := RuleText(f, d)
		return fmt.Sprintf("line %d: %s: %s", d.Line, key, value)
	case robots.NoMatch:
		return fmt.Sprintf("no rule matches in the group at line %d", d.Group)
	case robots.RobotsTxt:
		return "/robots.txt is always allowed"
	default:
		return "no group applies"
	}
}

// RuleText is the key and value of the rule that decided d (its Reason
// is robots.Matched) as f writes them, misspelt key and all; the rule as
// compiled when f does not have the line.
func RuleText(f *syntax.File, d robots.Decision) (key, value string) {
	key, value = d.Rule.String(), d.Pattern
	if f != nil && d.Line >= 1 && d.Line-1 < len(f.Lines) {
		l := &f.Lines[d.Line-1]
		key, value = f.Text(l.Key), f.Text(l.Value)
	}
	return key, value
}

// Fetched is the verdict on url of the robot agent from a fetched
// robots.txt, and why in words, as robots test -url reports it and robots
// assert -url checks it: when the fetch left rules (fetch.AccessRules),
// the rule that decides, explained from f, the parse of res.Body; when it
// left none, the fetch itself decided (no file: everything allowed; none
// usable: complete disallow), for res.Reason.
//
// rules nil means res's own rules (res.Decide), which the fetcher compiled
// under its profile; a robot of another profile passes
// robots.Compile(f, profile), the same rules the fetcher would have made
// for it (robots.Compile documents that Compile(syntax.Parse(name, src), p)
// and Parse(src, p) agree).
func Fetched(res *fetch.Result, f *syntax.File, rules *robots.Rules, agent robots.Agent, url string) (robots.Decision, string) {
	v := res.Decide(agent, url)
	if v.Access != fetch.AccessRules {
		// The fetch decided, not a rule: no file (everything
		// allowed) or none usable (complete disallow).
		return robots.Decision{Allowed: v.Allowed}, v.Reason
	}
	d := v.Decision
	if rules != nil {
		d = rules.Decide(agent, url)
	}
	return d, Explain(f, d)
}

// FetchSummary says in a few words how a fetch ended.
func FetchSummary(r *fetch.Result) string {
	var b strings.Builder
	b.WriteString("robots.txt ")
	switch {
	case r.FromCache:
		b.WriteString("from the cache, ")
	}
	if r.Status != 0 {
		fmt.Fprintf(&b, "HTTP %d", r.Status)
		if n := len(r.Hops); n > 0 && r.Hops[n-1].Err != "" {
			// The status came, and then the body broke off: robots read
			// the answer as a network error (see Outcome and Reason).
			fmt.Fprintf(&b, ", body broke off (%s)", r.Hops[n-1].Err)
		}
	} else {
		b.WriteString(r.Err)
	}
	if n := len(r.Hops) - 1; n > 0 {
		b.WriteString(" after " + plural(n, "redirect"))
	}
	fmt.Fprintf(&b, ", %s", r.Policy)
	return b.String()
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// RobotFetchPolicy returns the fetch policy and User-Agent header of the
// registry robot named robot ("" for none: a plain token or "*"): the
// robot's own, else the family of profile p, with the fetcher's own
// User-Agent ("").
func RobotFetchPolicy(robot string, p robots.Profile) (fetch.Policy, string) {
	if robot != "" {
		if rb, ok := agents.Find(robot); ok {
			if pol, err := fetch.ParsePolicy(rb.Fetch); err == nil {
				return pol, rb.UserAgent()
			}
		}
	}
	return fetch.PolicyFor(p), ""
}

// ProductToken reads v as the matcher's product token: "*" and a product
// token (RFC 9309 §2.2.1: [A-Za-z_-]+) are themselves (read false); from
// anything else (read true) the token it names is read, as a robot's own
// parser would compare it: "Googlebot" from "Googlebot/2.1", the robot a
// whole User-Agent header names, "" when v names none.
func ProductToken(v string) (tok string, read bool) {
	if v == "*" || (v != "" && robots.LineToken(v) == v) {
		return v, false
	}
	tok = robots.LineToken(v)
	if strings.ContainsAny(v, " ;(") {
		// A whole User-Agent header: the robot it names, not "Mozilla".
		if t := agents.HeaderToken(v); t != "" {
			tok = t
		}
	}
	return tok, true
}
