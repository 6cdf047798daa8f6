package wire

import (
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/usage"
)

// CheckRequest is the body of POST /api/v1/check: one of Robots (the file
// itself) or URL (a site whose robots.txt is fetched).
type CheckRequest struct {
	Robots   *string `json:"robots,omitempty"`
	URL      string  `json:"url,omitempty"`
	Thorough bool    `json:"thorough,omitempty"`
	// AllRobots adds the findings that affect only first-match robots,
	// the 1994 standard or single libraries (lint.Config.AllRobots); by
	// default only what affects Google, Bing, Yandex or RFC 9309 robots
	// is reported, and only those fixes are applied.
	AllRobots bool `json:"all_robots,omitempty"`
	// Profile keeps only the findings that affect that family; a profile
	// of first-match robots or of the 1994 standard implies AllRobots.
	Profile string `json:"profile,omitempty"`
	// Enable names the intent fixes the corrected file also gets (fix
	// IDs such as "FX25", check codes or names, or "all"), as robots fix
	// -enable does; the response then says which verdicts they change.
	Enable []string `json:"enable,omitempty"`
}

// TestRequest is the body of POST /api/v1/test: a file (Robots) or a site
// (URL), the robots to ask for (RobotsList, names the registry knows, and
// Agents, plain product tokens read under the default profile; default
// Googlebot), and the URLs to test.
type TestRequest struct {
	Robots     *string  `json:"robots,omitempty"`
	URL        string   `json:"url,omitempty"`
	RobotsList []string `json:"robots_list,omitempty"`
	Agents     []string `json:"agents,omitempty"`
	URLs       []string `json:"urls"`
	// Profile reads the file as that profile instead of each robot's own.
	Profile string `json:"profile,omitempty"`
}

// TestResponse answers a TestRequest: one result per robot and URL, robots
// outermost, in the order asked.
type TestResponse struct {
	Results []TestResult `json:"results"`
	// Access is each robot's access to the site, in the order asked: the
	// access object of every command (robots.Access).
	Access []Access `json:"access"`
	// Fetch is the fetch trace when the request named a URL.
	Fetch *FetchTrace `json:"fetch,omitempty"`
}

// TestResult is one verdict, and what the file says the robot may do with
// what it fetches from the URL.
type TestResult struct {
	Robot   string `json:"robot"`
	URL     string `json:"url"`
	Allowed bool   `json:"allowed"`
	// Line is the deciding rule's line, 0 when none decided; Rule its
	// text as written.
	Line    int    `json:"line"`
	Rule    string `json:"rule,omitempty"`
	Profile string `json:"profile"`
	// Reason says why when the fetch, not a rule, decided.
	Reason string `json:"reason,omitempty"`
	// Usage is, for search, ai-input and ai-train, "yes", "no" or "none"
	// and the statement that decided, as usage.Decide finds them in the
	// file alone: its Content-Usage and Content-Signal lines and the
	// control tokens that govern the robot (robots usage -file). Every
	// purpose is "none" where the robot may not crawl.
	Usage usage.Verdicts `json:"usage"`
}

// AgentsResponse answers GET /api/v1/agents: robots of the registry, as
// robots agents -format json lists them.
type AgentsResponse struct {
	Robots []agents.Robot `json:"robots"`
}

// ErrorResponse is the body of every API error.
type ErrorResponse struct {
	Error ErrorBody `json:"error"`
}

// ErrorBody is a machine-readable code and a message for people.
type ErrorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}
