package mcpserver

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/page"
	"github.com/robotskit/robots/usage"
)

// UsageAnswer is the output of robots_usage: robots usage -url -format
// json's, with a note on how the input was read.
type UsageAnswer struct {
	Results  []usage.Result `json:"results" jsonschema:"One result per robot: whether it may crawl the URL (crawl.allowed, crawl.line: the deciding robots.txt line, 0 if none) and, for search, ai-input (retrieval, grounding, answers) and ai-train, the value yes, no or none (no preference stated) with the statement that decided (source, and line for a robots.txt line). A URL the robot may not crawl has no usage verdict: every purpose is none."`
	License  string         `json:"license,omitempty" jsonschema:"The first License URL of the site's robots.txt (RSL), if any."`
	Licenses []string       `json:"licenses,omitempty" jsonschema:"Every License URL of the site's robots.txt."`
	Note     string         `json:"note,omitempty" jsonschema:"How the input was read, when it was not taken as it is."`
}

// usageTool is robots_usage, whose description names the robots asked
// about by default.
func usageTool(defaults []string) *mcp.Tool {
	t := *usageToolBase
	t.Description = strings.Replace(t.Description, "{defaults}", andList(defaults), 1)
	return &t
}

// andList writes "a, b and c".
func andList(names []string) string {
	switch len(names) {
	case 0:
		return "no robot"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

var usageToolBase = &mcp.Tool{
	Name:  "robots_usage",
	Title: "What may a robot do with this page?",
	Description: `Says what a site lets a robot do with a page it fetches, for three purposes: search (a search index and its results), ai-input (retrieval, grounding and answers of AI systems) and ai-train (training AI models). Each is yes, no or none (no preference stated), with the statement that decided: robots.txt's Content-Usage rules (IETF AIPREF) and Content-Signal lines, the control tokens (a Disallow for Google-Extended or Applebot-Extended), and the page's own Content-Usage, tdm-reservation and X-Robots-Tag headers, robots meta tags (noai, noimageai) and the site's /.well-known/tdmrep.json. Any no wins over a yes.

Ask before using a page's content for an answer, an index or a training set, with your crawler's name (robot) or product token (agent). With neither, the answer covers {defaults}. The page and robots.txt are fetched as that robot fetches them. robots_test says whether the robot may fetch the page at all.`,
	Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(true)},
}

// usage answers robots_usage as robots usage -url URL (-robot NAME |
// -agent TOKEN) answers: each robot inspects the page (page.Inspector),
// whose report carries the usage verdicts.
func (s *Server) usage(ctx context.Context, q Question) (*UsageAnswer, error) {
	a, err := who(q)
	if err != nil {
		return nil, err
	}
	u, note, err := s.page(ctx, q.URL)
	if err != nil {
		return nil, err
	}
	var rbs []page.Robot
	switch {
	case strings.TrimSpace(q.Robot) != "":
		rb, _ := agents.Find(strings.TrimSpace(q.Robot)) // who found it
		rbs = append(rbs, page.FromRegistry(rb))
	case strings.TrimSpace(q.Agent) != "":
		rbs = append(rbs, page.PlainRobot(a.name))
	default:
		for _, n := range s.cfg.UsageRobots {
			if rb, ok := agents.Find(n); ok {
				rbs = append(rbs, page.FromRegistry(rb))
			}
		}
	}
	// Links to other sites need no verdict here: no robots.txt of theirs
	// is fetched.
	in := &page.Inspector{Client: s.client, Cache: s.cache, MaxSites: -1}
	ans := &UsageAnswer{Results: []usage.Result{}, Note: joinNotes(note, a.note)}
	for _, rb := range rbs {
		if s.cfg.UserAgent != "" {
			rb.UserAgent = s.cfg.UserAgent
		}
		rep, err := in.Inspect(ctx, u, rb)
		if err != nil {
			return nil, fetchError(err)
		}
		if rep.Usage == nil {
			return nil, callError("%s", rep.Error)
		}
		ans.Results = append(ans.Results, usage.Result{URL: u, Robot: rb.Name,
			Crawl: usage.Crawl{Allowed: rep.RobotsTxt.Allowed, Line: rep.RobotsTxt.Line}, Usage: *rep.Usage})
		if ans.Licenses == nil {
			ans.Licenses = rep.Licenses
		}
	}
	if len(ans.Licenses) > 0 {
		ans.License = ans.Licenses[0]
	}
	return ans, nil
}
