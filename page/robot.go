package page

import (
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/fetch"
)

// A Robot is who a page is seen as.
type Robot struct {
	// Name is the robot's name as shown, e.g. "Googlebot".
	Name string
	// Agent is how it finds its robots.txt group; Profile how it reads
	// robots.txt, Policy how it treats the file's HTTP status.
	Agent   robots.Agent
	Profile robots.Profile
	Policy  fetch.Policy
	// UserAgent is the User-Agent header it sends.
	UserAgent string
	// MetaNames are the <meta> names and X-Robots-Tag prefixes, besides
	// "robots", addressed to it: its product tokens, and "google" for
	// Google's robots (<meta name="google" content="notranslate">).
	MetaNames []string
}

// DefaultRobot is the robot a page is seen as when none is named.
const DefaultRobot = "Googlebot"

// RobotNamed returns the robot of the agents registry with this product
// token, or whose User-Agent header this is; any other name is a plain
// product token read under the default profile and status rules, sending
// the name as its User-Agent. "" means DefaultRobot.
func RobotNamed(name string) Robot {
	if name == "" {
		name = DefaultRobot
	}
	if rb, ok := agents.Find(name); ok {
		return FromRegistry(rb)
	}
	return PlainRobot(name)
}

// PlainRobot returns the robot whose product token is token, read under
// the default profile and status rules, sending token as its User-Agent
// and obeying <meta name> of token: a robot the registry need not know.
func PlainRobot(token string) Robot {
	return Robot{Name: token, Agent: robots.Agent{Tokens: []string{token}},
		UserAgent: token, MetaNames: []string{strings.ToLower(token)}}
}

// FromRegistry returns the Robot of a registry entry.
func FromRegistry(rb agents.Robot) Robot {
	r := Robot{Name: rb.Token, UserAgent: rb.UserAgent()}
	r.Agent, r.Profile = rb.Reader()
	r.Policy = fetch.RobotPolicy(rb)
	if r.UserAgent == "" {
		r.UserAgent = rb.Token
	}
	for _, t := range rb.Tokens() {
		r.MetaNames = append(r.MetaNames, strings.ToLower(t))
	}
	if rb.Owner == "Google" {
		r.MetaNames = append(r.MetaNames, "google")
	}
	return r
}
