package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/internal/apicore"
	"github.com/robotskit/robots/internal/sitecheck"
	"github.com/robotskit/robots/internal/target"
	"github.com/robotskit/robots/internal/wire"
	"github.com/robotskit/robots/page"
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
	// Most answers are small: they are encoded once, into a buffer, and
	// sent from it. A larger one is measured before it is sent
	// (apicore.FitCheck).
	small := &limitedBuffer{max: smallAnswer}
	switch err := encodeJSON(ctx, small, resp); err {
	case nil:
		return writeAnswer(w, http.StatusOK, small.b.Bytes())
	case errTooLong:
	default:
		return err
	}
	if err := apicore.FitCheck(ctx, resp, s.maxAnswer); err != nil {
		return fromCore(err)
	}
	return writeJSON(ctx, w, http.StatusOK, resp)
}

// runCheck checks a pasted file or a site's robots.txt, and fixes it
// (apicore.Check), once the site's file is fetched.
func (s *Server) runCheck(ctx context.Context, req wire.CheckRequest) (*wire.CheckResponse, error) {
	c, err := apicore.NewCheck(req)
	if err != nil {
		return nil, fromCore(err)
	}
	var site *apicore.Site
	if req.Robots == nil {
		fetched, err := s.fetchForCheck(ctx, siteURL(req.URL), req.Thorough)
		if err != nil {
			return nil, err
		}
		site = &apicore.Site{URL: fetched.URL, Body: fetched.Body, Fetch: fetched.Fetch, Trace: wire.Trace(fetched.Result)}
	}
	resp, err := c.Run(ctx, site, s.limits())
	return resp, fromCore(err)
}

// limits are the bounds of an answer of s, whose work takes the slots of
// the gate (Server.work).
func (s *Server) limits() apicore.Limits {
	return apicore.Limits{MaxAnswer: s.maxAnswer, MaxTestWork: s.maxTestWork, Work: s.work}
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

// test answers POST /api/v1/test (apicore.Test), once the site's file
// is fetched.
func (s *Server) test(w http.ResponseWriter, r *http.Request) error {
	var req wire.TestRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	t, err := apicore.NewTest(req)
	if err != nil {
		return fromCore(err)
	}
	ctx := r.Context()
	var res *fetch.Result
	if req.Robots == nil {
		if res, err = s.fetchForTest(ctx, siteURL(req.URL)); err != nil {
			return err
		}
		s.metrics.cache.WithLabelValues(map[bool]string{true: "hit", false: "miss"}[res.FromCache]).Inc()
		if !res.FromCache {
			s.metrics.fetches.WithLabelValues("robots.txt", res.Outcome.String()).Inc()
		}
	}
	req.Robots = nil // one copy is enough
	ans, err := t.Run(ctx, res, s.limits())
	if err != nil {
		return fromCore(err)
	}
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

// page answers GET /api/v1/page?url=&robot=.
func (s *Server) page(w http.ResponseWriter, r *http.Request) error {
	raw := r.URL.Query().Get("url")
	if raw == "" {
		return badRequest("bad_request", "give the page as ?url=")
	}
	rb := page.RobotNamed("")
	if name := r.URL.Query().Get("robot"); name != "" {
		var err error
		if rb, err = apicore.KnownRobot(name); err != nil {
			return fromCore(err)
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
