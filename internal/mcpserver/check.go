package mcpserver

import (
	"context"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/internal/decide"
	"github.com/robotskit/robots/internal/sitecheck"
	"github.com/robotskit/robots/internal/wire"
	"github.com/robotskit/robots/lint"
	"github.com/robotskit/robots/syntax"
)

// CheckInput is the input of robots_check: a robots.txt text, or a site.
type CheckInput struct {
	Robots *string `json:"robots,omitempty" jsonschema:"The text of a robots.txt file to check (at most 512 KiB). Give robots or url, not both."`
	URL    string  `json:"url,omitempty" jsonschema:"A site whose robots.txt is fetched and checked: any URL of the site, such as https://example.com/, or a bare host such as example.com. Give robots or url, not both."`
}

// CheckAnswer is the output of robots_check: robots check -format json's,
// and for a site how the fetch ended.
type CheckAnswer struct {
	File         string             `json:"file" jsonschema:"The file checked: robots.txt for a text, its URL for a site."`
	Diagnostics  []wire.Diagnostic  `json:"diagnostics" jsonschema:"The problems found, most severe first within each line: code (RBnnn), name, severity (error, warning or info), line and column (1-based; 0 for the whole file or its fetch; lines lists every line of a problem found on several), message, the robot families it affects (affects), an explanation, and the fixer's transformation that resolves it (fix)."`
	Omitted      int                `json:"omitted,omitempty" jsonschema:"How many more problems there were past the first 200."`
	Errors       int                `json:"errors" jsonschema:"How many problems of severity error."`
	Warnings     int                `json:"warnings" jsonschema:"How many problems of severity warning."`
	Infos        int                `json:"infos" jsonschema:"How many problems of severity info."`
	Fetch        *wire.FetchOutcome `json:"fetch,omitempty" jsonschema:"For a site: how the fetch of its robots.txt ended."`
	FetchSummary string             `json:"fetch_summary,omitempty" jsonschema:"For a site: how the fetch of its robots.txt ended, in words."`
	Note         string             `json:"note,omitempty" jsonschema:"How the input was read, when it was not taken as it is."`
}

// checkSchema is CheckInput's schema, with "robots" a plain string: its
// Go type is a pointer only to tell an empty file from none.
func checkSchema() *jsonschema.Schema {
	s, err := jsonschema.For[CheckInput](nil)
	if err != nil {
		panic(err) // a fixed type: a test finds it
	}
	r := s.Properties["robots"]
	r.Types, r.Type = nil, "string"
	return s
}

var checkTool = &mcp.Tool{
	Name:  "robots_check",
	Title: "What is wrong with this robots.txt?",
	Description: `Checks a robots.txt file, given as text (robots) or fetched from a site (url), and lists its problems with their line, severity and the robot families they affect (Google, Bing, Yandex, RFC 9309 readers): syntax errors, misspelt directives, rules that never match or that robots read differently, unreachable or oversized files, wrong status codes and redirects, and more. Each problem has a code (RBnnn) and an explanation.

Use it to review or debug a robots.txt, before publishing one, or to explain why a crawler behaves unexpectedly on a site. To ask whether a given robot may fetch a given URL, use robots_test instead.`,
	Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(true)},
}

// check answers robots_check as robots check -format json FILE|URL
// answers: for a site, the fetch of the checker (sitecheck.Fetch:
// Google's status rules, up to 10 redirects, the case variants of a
// missing file) and its trace for the fetch checks; then lint.Run and
// lint.Fold.
func (s *Server) check(ctx context.Context, in CheckInput) (*CheckAnswer, error) {
	site := strings.TrimSpace(in.URL)
	switch {
	case in.Robots == nil && site == "":
		return nil, callError(`give "robots" (the text of a robots.txt) or "url" (a site whose robots.txt is fetched)`)
	case in.Robots != nil && site != "":
		return nil, callError(`"robots" and "url" both give the robots.txt: give one`)
	case in.Robots != nil && len(*in.Robots) > MaxRobotsText:
		return nil, callError(`"robots" is %d KiB: robots_check takes at most %d KiB (robots read only the first %d KiB); check a site's file with "url"`,
			len(*in.Robots)>>10, MaxRobotsText>>10, robots.MaxBytes>>10)
	}
	ans := &CheckAnswer{File: "robots.txt"}
	body, cfg := []byte(nil), lint.Config{}
	if in.Robots != nil {
		body = []byte(*in.Robots)
	} else {
		u, note, err := s.page(ctx, site)
		if err != nil {
			return nil, err
		}
		f := &fetch.Fetcher{Client: s.client, Policy: fetch.Google, Profile: robots.Google, MaxRedirects: 10,
			Timeout: s.cfg.Timeout, UserAgent: s.cfg.UserAgent}
		st, err := sitecheck.Fetch(ctx, f, u, sitecheck.Options{CaseClient: s.client})
		if err != nil {
			return nil, fetchError(err)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ans.File, ans.Note, body, cfg = st.URL, note, st.Body, st.Config()
		ans.Fetch, ans.FetchSummary = wire.Outcome(st.Result), decide.FetchSummary(st.Result)
	}
	ds, err := lint.RunContext(ctx, syntax.Parse(ans.File, body), &cfg)
	if err != nil {
		return nil, err
	}
	ds = lint.Fold(ds)
	for _, d := range ds {
		switch d.Check.Severity {
		case lint.Error:
			ans.Errors++
		case lint.Warning:
			ans.Warnings++
		default:
			ans.Infos++
		}
	}
	if len(ds) > MaxDiagnostics {
		ans.Omitted = len(ds) - MaxDiagnostics
		ds = ds[:MaxDiagnostics]
	}
	ans.Diagnostics = wire.Diagnostics(ds)
	return ans, nil
}
