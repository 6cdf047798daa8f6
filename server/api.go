package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/internal/wire"
	"github.com/robotskit/robots/lint"
	"github.com/robotskit/robots/page"
	"github.com/robotskit/robots/syntax"
)

// Bounds of a test request.
const (
	maxTestURLs   = 200
	maxTestRobots = 50
)

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok", "version": s.cfg.Version})
	return nil
}

// check answers POST /api/v1/check.
func (s *Server) check(w http.ResponseWriter, r *http.Request) error {
	var req wire.CheckRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	resp, err := s.runCheck(r.Context(), req)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, resp)
	return nil
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
	if req.Profile != "" && !wire.ProfileFamily(profile).Major() {
		cfg.AllRobots = true // the findings of that family are what was asked
	}
	var trace *wire.FetchTrace
	switch {
	case (req.Robots == nil) == (req.URL == ""):
		return nil, badRequest("bad_request", `give one of "robots" (the file) or "url" (a site)`)
	case req.Robots != nil:
		body = []byte(*req.Robots)
	default:
		res, err := s.fetchForCheck(ctx, req.URL)
		if err != nil {
			return nil, err
		}
		tr := wire.LintFetch(res)
		if res.Status == http.StatusNotFound {
			tr.CaseVariant = wire.ProbeCaseVariants(ctx, s.client, res.URL)
		}
		if req.Thorough {
			tr.Siblings = wire.FetchSiblings(ctx, s.checkFetcher(), res.URL)
		}
		name, body, cfg.URL, cfg.Fetch = res.URL, res.Body, res.URL, tr
		trace = wire.Trace(res)
	}
	f := syntax.Parse(name, body)
	ds := lint.Fold(lint.Run(f, &cfg))
	if req.Profile != "" {
		ds = wire.ForProfile(ds, profile)
	}
	fixCfg := cfg
	fixCfg.Fetch = nil
	fr := lint.Fix(body, &lint.FixOptions{Config: fixCfg, Enable: req.Enable})
	fixed := string(fr.Output)
	resp := &wire.CheckResponse{Diagnostics: wire.Diagnostics(ds), Fixed: &fixed,
		Unfixed: wire.Leftovers(lint.Leftovers(fr, &fixCfg))}
	if len(req.Enable) > 0 {
		// What the intent fixes change, per family, before anyone
		// downloads the file.
		resp.Changes = lint.Diff(body, fr.Output, &lint.DiffOptions{All: cfg.AllRobots})
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

func (s *Server) fetchForCheck(ctx context.Context, raw string) (*fetch.Result, error) {
	if err := s.guard.checkTarget(ctx, raw); err != nil {
		return nil, err
	}
	res, err := s.checkFetcher().Fetch(ctx, raw)
	if err != nil {
		return nil, badRequest("bad_url", err.Error())
	}
	s.metrics.fetches.WithLabelValues("robots.txt", res.Outcome.String()).Inc()
	return res, nil
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
	var (
		body  []byte
		res   *fetch.Result
		resp  = &wire.TestResponse{Results: []wire.TestResult{}}
		base  string
		rules = map[robots.Profile]*robots.Rules{}
	)
	if req.Robots != nil {
		body = []byte(*req.Robots)
	} else {
		if err := s.guard.checkTarget(r.Context(), req.URL); err != nil {
			return err
		}
		f := s.checkFetcher()
		f.MaxRedirects = 0 // the robots' own limit: 5
		f.Cache = s.cache
		res, err = f.Get(r.Context(), req.URL)
		if err != nil {
			return badRequest("bad_url", err.Error())
		}
		s.metrics.cache.WithLabelValues(map[bool]string{true: "hit", false: "miss"}[res.FromCache]).Inc()
		if !res.FromCache {
			s.metrics.fetches.WithLabelValues("robots.txt", res.Outcome.String()).Inc()
		}
		body, base = res.Body, res.Origin.String()
		resp.Fetch = wire.Trace(res)
	}
	file := syntax.Parse("robots.txt", body)
	for _, rb := range readers {
		if req.Profile != "" {
			rb.Profile = profile
		}
		rs, ok := rules[rb.Profile]
		if !ok {
			rs = robots.Compile(file, rb.Profile)
			rules[rb.Profile] = rs
		}
		var under *fetch.Result // how the robot's status rules read the fetch
		if res != nil {
			under = res.Under(rb.Policy)
		}
		for _, u := range req.URLs {
			target := u
			if base != "" && strings.HasPrefix(u, "/") {
				target = base + u
			}
			tr := wire.TestResult{Robot: rb.Name, URL: u, Profile: rb.Profile.String()}
			if under != nil && under.Access != fetch.AccessRules {
				tr.Allowed, tr.Reason = under.Access == fetch.AccessAll, under.Reason
			} else {
				d := rs.DecideAgent(rb.Agent, target)
				tr.Allowed, tr.Line = d.Allowed, d.Line
				if d.Reason == robots.Matched && d.Line-1 < len(file.Lines) {
					l := &file.Lines[d.Line-1]
					tr.Rule = file.Text(l.Key) + ": " + file.Text(l.Value)
				}
			}
			resp.Results = append(resp.Results, tr)
		}
	}
	writeJSON(w, http.StatusOK, resp)
	return nil
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
		out = append(out, page.Robot{Name: t, Agent: robots.Agent{Tokens: []string{t}}, UserAgent: t, MetaNames: []string{strings.ToLower(t)}})
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
	rb, ok := agents.Lookup(name)
	if !ok {
		rb, ok = agents.FromUserAgent(name)
	}
	if !ok {
		msg := fmt.Sprintf("unknown robot %q", name)
		if c := agents.Closest(name, 3); len(c) > 0 {
			msg += "; did you mean " + strings.Join(c, ", ") + "?"
		}
		return page.Robot{}, badRequest("unknown_robot", msg+` (give a plain product token in "agents")`)
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
	if err := s.guard.checkTarget(r.Context(), raw); err != nil {
		return err
	}
	in := &page.Inspector{Client: s.client, Cache: s.cache, Timeout: RequestTimeout - 5e9}
	rep, err := in.Inspect(r.Context(), raw, rb)
	if err != nil {
		return badRequest("bad_url", err.Error())
	}
	outcome := "ok"
	if rep.Error != "" {
		outcome = "error"
	}
	s.metrics.fetches.WithLabelValues("page", outcome).Inc()
	writeJSON(w, http.StatusOK, rep)
	return nil
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
