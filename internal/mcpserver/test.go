package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/internal/decide"
	"github.com/robotskit/robots/internal/netguard"
	"github.com/robotskit/robots/internal/target"
	"github.com/robotskit/robots/internal/wire"
	"github.com/robotskit/robots/syntax"
)

// Question is the input of robots_test and robots_usage: a page, and who
// asks.
type Question struct {
	URL   string `json:"url" jsonschema:"The page to ask about: an absolute http or https URL such as https://example.com/blog/post, or a bare host such as example.com (read as https://example.com/). The robots.txt of its origin (scheme, host and port) is fetched."`
	Robot string `json:"robot,omitempty" jsonschema:"A known crawler's name, such as Googlebot, bingbot, GPTBot, ChatGPT-User, ClaudeBot, Claude-User, PerplexityBot or CCBot: robots.txt is read as that crawler reads it (its product tokens and fallbacks, its parser's rules, its status rules and User-Agent header). An unknown name is an error that lists the closest known ones. Give robot or agent, not both."`
	Agent string `json:"agent,omitempty" jsonschema:"A plain product token, such as MyCrawler, matched against the User-agent lines as it is, read as Google reads the file; a User-Agent header such as MyCrawler/1.0 is read as the token it names. Give robot or agent, not both."`
}

// TestAnswer is the output of robots_test.
type TestAnswer struct {
	URL          string             `json:"url" jsonschema:"The URL tested."`
	Robot        string             `json:"robot" jsonschema:"The robot asked for: a known crawler's name, a product token, or * for any robot."`
	Profile      string             `json:"profile" jsonschema:"How the robot reads robots.txt: google, rfc9309, bing, yandex, draft1996 or strict1994."`
	Tokens       []string           `json:"tokens" jsonschema:"The product tokens the robot looks for in User-agent lines, first match wins."`
	Allowed      bool               `json:"allowed" jsonschema:"Whether robots.txt lets the robot fetch the URL."`
	Deciding     *Line              `json:"deciding" jsonschema:"The robots.txt rule that decided, or null when no rule decided (no rule matched, no group applies, or the fetch itself decided: no robots.txt, or none usable)."`
	Why          string             `json:"why" jsonschema:"Why, in words, as robots test says it."`
	Note         string             `json:"note,omitempty" jsonschema:"How the input was read, when it was not taken as it is."`
	Fetch        *wire.FetchOutcome `json:"fetch" jsonschema:"How the fetch of robots.txt ended."`
	FetchSummary string             `json:"fetch_summary" jsonschema:"How the fetch of robots.txt ended, in words."`
}

// Line is a line of robots.txt.
type Line struct {
	Line int    `json:"line" jsonschema:"The 1-based line number."`
	Text string `json:"text" jsonschema:"The rule as written, such as Disallow: /private/."`
}

var testTool = &mcp.Tool{
	Name:  "robots_test",
	Title: "May this robot fetch this URL?",
	Description: `Says whether a site's robots.txt lets a crawler fetch a URL, the rule that decides, and how the fetch of robots.txt ended. Before fetching a page for a user, ask robots_test with the page's URL and your crawler's name (robot, e.g. ChatGPT-User, Claude-User, GPTBot) or product token (agent); with neither, the answer is for * (any robot without a group of its own).

The site's robots.txt is fetched as that crawler fetches it and read as it reads it (Google's rules for Googlebot and a plain agent, Bing's for bingbot, RFC 9309's for most others; under Google's status rules a missing file allows everything, while a server error or an unreachable file disallows everything). Files are cached for their lifetime, so many questions about one site cost one fetch. robots_usage says what the site lets you do with what you fetch.`,
	Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(true)},
}

func ptr[T any](v T) *T { return &v }

// asker is the robot of a question, as robots test -robot or -agent reads
// it.
type asker struct {
	name    string
	agent   robots.Agent
	profile robots.Profile
	policy  fetch.Policy
	ua      string
	note    string
}

// who reads the robot or agent of a question: a registry robot brings its
// reading (agents.Robot.Reader) and fetch policy (decide.RobotFetchPolicy);
// a product token is read as robots test -agent reads it
// (decide.ProductToken); with neither, the robot is "*".
func who(q Question) (asker, error) {
	robot, agent := strings.TrimSpace(q.Robot), strings.TrimSpace(q.Agent)
	a := asker{name: "*", agent: robots.Agent{Tokens: []string{"*"}}}
	switch {
	case robot != "" && agent != "":
		return a, callError(`"robot" and "agent" both name the robot: give one ("robot" for a known crawler such as GPTBot, "agent" for a plain product token)`)
	case robot != "":
		rb, ok := agents.Find(robot)
		if !ok {
			return a, callError("%s (give \"agent\": %q to test a plain product token)", agents.Unknown(robot), robot)
		}
		a.name = rb.Token
		a.agent, a.profile = rb.Reader()
		a.policy, a.ua = decide.RobotFetchPolicy(robot, a.profile)
		return a, nil
	case agent != "":
		tok, read := decide.ProductToken(agent)
		if read && tok == "" {
			msg := fmt.Sprintf("agent %q is not a product token (letters, '-' and '_', RFC 9309 §2.2.1)", agent)
			if _, ok := agents.Find(agent); ok {
				msg += fmt.Sprintf("; give \"robot\": %q to read the file as that crawler does", agent)
			}
			return a, callError("%s", msg)
		}
		if read {
			a.note = fmt.Sprintf("using product token %q from %q", tok, agent)
		}
		a.name, a.agent.Tokens = tok, []string{tok}
	}
	a.policy, a.ua = decide.RobotFetchPolicy("", a.profile)
	return a, nil
}

// page reads the URL of a question (target.Read: a bare host is https://)
// and lets the guard judge it before anything is fetched.
func (s *Server) page(ctx context.Context, raw string) (u, note string, err error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", "", callError(`"url" is empty: give the page's URL, such as https://example.com/page, or a host such as example.com`)
	}
	u, bare, err := target.Read(raw)
	if err != nil {
		return "", "", callError("url: %v", err)
	}
	if bare {
		note = target.Note(raw, u)
	}
	if err := s.guard.CheckTarget(ctx, u); err != nil {
		return "", "", refused(err)
	}
	return u, note, nil
}

// refused is a refusal of the guard in the tool's words.
func refused(err error) error {
	if te, ok := err.(*netguard.TargetError); ok {
		return callError("%s", strings.ReplaceAll(te.Msg, "start it with -allow-private", "start robots mcp with -allow-private"))
	}
	return err
}

// fetcher is the robots.txt fetcher of a robot: its status rules, its
// reading, its User-Agent (or Config.UserAgent), the guarded client and
// the cache. Fetchers are shared, so that concurrent calls about one
// site share one fetch.
func (s *Server) fetcher(pol fetch.Policy, p robots.Profile, ua string) *fetch.Fetcher {
	if s.cfg.UserAgent != "" {
		ua = s.cfg.UserAgent
	}
	k := fetcherKey{pol, p, ua}
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.fetchers[k]
	if f == nil {
		f = &fetch.Fetcher{Client: s.client, Policy: pol, Profile: p, Timeout: s.cfg.Timeout, UserAgent: ua, Cache: s.cache}
		s.fetchers[k] = f
	}
	return f
}

// test answers robots_test as robots test -url URL (-robot NAME | -agent
// TOKEN) answers: the robots.txt of the URL's origin, fetched with the
// robot's status rules, and the verdict of decide.Fetched.
func (s *Server) test(ctx context.Context, q Question) (*TestAnswer, error) {
	a, err := who(q)
	if err != nil {
		return nil, err
	}
	u, note, err := s.page(ctx, q.URL)
	if err != nil {
		return nil, err
	}
	res, err := s.fetcher(a.policy, a.profile, a.ua).Get(ctx, u)
	if err != nil {
		return nil, fetchError(err)
	}
	var f *syntax.File
	if res.Access == fetch.AccessRules {
		f = syntax.Parse(res.URL, res.Body)
	}
	d, why := decide.Fetched(res, f, nil, a.agent, u)
	ans := &TestAnswer{URL: u, Robot: a.name, Profile: a.profile.String(), Tokens: a.agent.Tokens, Allowed: d.Allowed,
		Why: why, Note: joinNotes(note, a.note), Fetch: wire.Outcome(res), FetchSummary: decide.FetchSummary(res)}
	if d.Reason == robots.Matched && d.Line > 0 {
		key, value := decide.RuleText(f, d)
		ans.Deciding = &Line{Line: d.Line, Text: key + ": " + value}
	}
	return ans, nil
}

// fetchError is an error of fetch.Fetcher.Get: a URL that names no origin
// (a failed fetch is a Result, not an error), or the call's end.
func fetchError(err error) error {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return err
	}
	return callError("%s", strings.TrimPrefix(err.Error(), "fetch: "))
}

func joinNotes(notes ...string) string {
	var out []string
	for _, n := range notes {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, "; ")
}
