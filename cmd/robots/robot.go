package main

import (
	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
)

// reader is a robot as a command evaluates it: a name to show, a profile
// and the way it finds its groups.
type reader struct {
	name    string
	profile robots.Profile
	agent   robots.Agent
	known   bool // from the agents registry
}

// robotReader resolves -robot NAME: a robot of the registry (by product
// token, or by a full User-Agent header that names one) brings its profile,
// token chain and quirks; any other name is a plain product token under
// the default profile (DESIGN.md, contracts). An explicit -profile wins
// over the robot's own.
func robotReader(name string, profile robots.Profile, profileSet bool) reader {
	rb, ok := lookupRobot(name)
	if !ok {
		return reader{name: name, profile: profile, agent: robots.Agent{Tokens: []string{name}}}
	}
	return fromRegistry(rb, profile, profileSet)
}

// fromRegistry makes a reader of a registry robot.
func fromRegistry(rb agents.Robot, profile robots.Profile, profileSet bool) reader {
	r := reader{name: rb.Token, profile: profile, known: true,
		agent: robots.Agent{Tokens: rb.Tokens(), IgnoreGlobal: rb.IgnoresGlobal}}
	if !profileSet {
		if p, err := robots.ParseProfile(rb.Profile); err == nil {
			r.profile = p
		}
	}
	return r
}

// lookupRobot finds a registry robot by product token or by a full
// User-Agent header that names one.
func lookupRobot(name string) (agents.Robot, bool) {
	if rb, ok := agents.Lookup(name); ok {
		return rb, true
	}
	return agents.FromUserAgent(name)
}
