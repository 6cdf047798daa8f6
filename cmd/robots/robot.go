package main

import (
	"fmt"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/internal/decide"
)

// reader is a robot as a command evaluates it: a name to show, a profile
// and the way it finds its groups.
type reader struct {
	name    string
	profile robots.Profile
	agent   robots.Agent
	policy  fetch.Policy // how it treats the response (fetch.Policy.Served)
	known   bool         // from the agents registry
}

// robotReader resolves -robot NAME: a robot of the registry (by product
// token, or by a full User-Agent header that names one) brings its profile,
// token chain and quirks. An explicit -profile wins over the robot's own.
// A name the registry does not know is an error that names the closest
// known robots: a typo must not become a robot that obeys only "*". A
// plain product token is what -agent is for.
func robotReader(name string, profile robots.Profile, profileSet bool) (reader, error) {
	rb, err := findRobot(name)
	if err != nil {
		return reader{}, err
	}
	return fromRegistry(rb, profile, profileSet), nil
}

// findRobot finds a registry robot, or says which names come closest.
func findRobot(name string) (agents.Robot, error) {
	if strings.TrimSpace(name) == "" {
		return agents.Robot{}, &usageError{msg: "-robot needs a robot's name, such as Googlebot (robots agents lists them)"}
	}
	if rb, ok := agents.Find(name); ok {
		return rb, nil
	}
	return agents.Robot{}, &usageError{msg: unknownRobot(name, "-agent "+shellQuote(name))}
}

// unknownRobot says that the registry does not know name, which known
// robots come closest, and that plain (how the command names a plain
// product token: "-agent NAME", "agent:NAME") tests one.
func unknownRobot(name, plain string) string {
	return agents.Unknown(name) + " (robots agents lists the known robots; " + plain + " tests a plain product token)"
}

// shellQuote quotes s for a shell when it needs it.
func shellQuote(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '-' || c == '_' || c == '.' || c == '/' || c == ':' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}

// agentTokens checks the -agent values: each must be "*" or a product
// token (RFC 9309 §2.2.1: [A-Za-z_-]+). A value that is not, such as
// "Googlebot/2.1" or a whole User-Agent header, is read as the product
// token it names, as a robot's own parser would compare it, and a note on
// standard error says so; a value that names no token is an error.
func agentTokens(e *env, values []string) ([]string, error) {
	out := make([]string, 0, len(values))
	for _, v := range values {
		tok, read := productToken(v)
		if !read {
			out = append(out, v)
			continue
		}
		if tok == "" {
			msg := fmt.Sprintf("-agent %q is not a product token (letters, '-' and '_', RFC 9309 §2.2.1)", v)
			if _, ok := agents.Find(v); ok {
				msg += "; -robot " + shellQuote(v) + " reads the file as that robot does"
			}
			return nil, &usageError{msg: msg}
		}
		fmt.Fprintf(e.stderr, "robots: using product token %q from %q\n", tok, v)
		out = append(out, tok)
	}
	return out, nil
}

// productToken reads v as the matcher's product token, the rules of
// agentTokens (decide.ProductToken).
func productToken(v string) (tok string, read bool) { return decide.ProductToken(v) }

// fromRegistry makes a reader of a registry robot.
func fromRegistry(rb agents.Robot, profile robots.Profile, profileSet bool) reader {
	r := reader{name: rb.Token, profile: profile, policy: fetch.RobotPolicy(rb), known: true}
	var own robots.Profile
	r.agent, own = rb.Reader()
	if !profileSet {
		r.profile = own
	}
	return r
}
