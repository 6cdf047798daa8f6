package apicore

import (
	"context"
	"errors"
	"fmt"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/change"
	"github.com/robotskit/robots/internal/wire"
	"github.com/robotskit/robots/lint"
	"github.com/robotskit/robots/syntax"
)

// Limits of the answers, as the server applies them.
const (
	// MaxBody bounds a request body.
	MaxBody = 1 << 20
	// MaxAnswer bounds the JSON answer of a check or a test: a larger one
	// is refused (422 answer_too_large), before the work for a test.
	MaxAnswer = 32 << 20
	// MaxCheckLines and MaxCheckRules bound the file a check reads: its
	// lines, and its Allow and Disallow lines (413 too_large). A 500 KiB
	// file, all that Google reads, has some 20,000 of each.
	MaxCheckLines = 100_000
	MaxCheckRules = 50_000
	// MaxTestWork bounds the matcher's work of a test (422
	// too_much_work), in octets compared: for each set of robots that
	// read the same groups, each URL against each wildcard rule of those
	// groups, plus a cost per rule and per verdict (testPlan.work). It is
	// some 0.6 s of one core, 2 s at worst.
	MaxTestWork = 2_000_000_000
)

// Limits are the bounds of one answer, and the hook that starts its
// work.
type Limits struct {
	// MaxAnswer is MaxAnswer and MaxTestWork is MaxTestWork, unless a
	// test lifts them.
	MaxAnswer   int64
	MaxTestWork float64
	// Work, when not nil, is called once the file is here, before the
	// work starts (the server takes a slot of its gate); its error ends
	// the request as it is.
	Work func(context.Context) error
}

// DefaultLimits are the server's limits, without a gate.
var DefaultLimits = Limits{MaxAnswer: MaxAnswer, MaxTestWork: MaxTestWork}

func (l *Limits) work(ctx context.Context) error {
	if l.Work == nil {
		return nil
	}
	return l.Work(ctx)
}

// AnswerTooLarge is the 422 of an answer over max; n is the size found,
// what says where it comes from.
func AnswerTooLarge(n, max int64, what string) *Error {
	return &Error{Status: StatusUnprocessableEntity, Code: "answer_too_large",
		Message: fmt.Sprintf("the answer would be more than %s (%s); this server answers at most %s: send a smaller file, or fewer URLs or robots",
			sizeText(n), what, sizeText(max))}
}

// sizeText says n octets in words.
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// checkBounds refuses a file with more lines or rules than a check reads
// (MaxCheckLines, MaxCheckRules).
func checkBounds(f *syntax.File) error {
	rules := 0
	for i := range f.Lines {
		if l := &f.Lines[i]; l.Kind == syntax.DirectiveLine && (l.Field == syntax.Allow || l.Field == syntax.Disallow) {
			rules++
		}
	}
	var what string
	switch {
	case len(f.Lines) > MaxCheckLines:
		what = fmt.Sprintf("the file has %d lines; this server checks at most %d", len(f.Lines), MaxCheckLines)
	case rules > MaxCheckRules:
		what = fmt.Sprintf("the file has %d Allow and Disallow lines; this server checks at most %d", rules, MaxCheckRules)
	default:
		return nil
	}
	return &Error{Status: StatusRequestEntityTooLarge, Code: "too_large",
		Message: what + " (a 500 KiB robots.txt, all that Google reads, has some 20000): check a part of it, or use the robots command"}
}

// ParseProfile reads the "profile" of a request: "" is Google's.
func ParseProfile(name string) (robots.Profile, error) {
	if name == "" {
		return robots.Google, nil
	}
	p, err := robots.ParseProfile(name)
	if err != nil {
		return p, badRequest("bad_profile", err.Error())
	}
	return p, nil
}

// A Check is a request of POST /api/v1/check, read and found sound.
type Check struct {
	req     wire.CheckRequest
	profile robots.Profile
}

// NewCheck reads a check request: its profile, the fixes it enables, and
// that it gives one of a file and a site.
func NewCheck(req wire.CheckRequest) (*Check, error) {
	profile, err := ParseProfile(req.Profile)
	if err != nil {
		return nil, err
	}
	for _, n := range req.Enable {
		if !lint.KnownFix(n) {
			return nil, badRequest("bad_request", fmt.Sprintf(`"enable": no fix or check %q (give fix IDs such as FX25, check codes such as RB501, or "all")`, n))
		}
	}
	if (req.Robots == nil) == (req.URL == "") {
		return nil, badRequest("bad_request", `give one of "robots" (the file) or "url" (a site)`)
	}
	return &Check{req: req, profile: profile}, nil
}

// A Site is a site's robots.txt as fetched for a check.
type Site struct {
	// URL is the robots.txt URL, Body the file; Fetch what the checks
	// read of the fetch, Trace the fetch's trace for the answer.
	URL   string
	Body  []byte
	Fetch *lint.Fetch
	Trace *wire.FetchTrace
}

// Run checks the file of the request, or site's for a request that names
// a URL, and fixes it: the answer of POST /api/v1/check.
func (c *Check) Run(ctx context.Context, site *Site, lim Limits) (*wire.CheckResponse, error) {
	req := c.req
	name, body, cfg := "robots.txt", []byte(nil), lint.Config{Thorough: req.Thorough, AllRobots: req.AllRobots}
	if req.Profile != "" && !lint.ProfileFamily(c.profile).Major() {
		cfg.AllRobots = true // the findings of that family are what was asked
	}
	var trace *wire.FetchTrace
	switch {
	case req.Robots != nil:
		body = []byte(*req.Robots)
	case site == nil:
		return nil, errors.New("apicore: a check of a site without its file")
	default:
		name, body, cfg.URL, cfg.Fetch = site.URL, site.Body, site.URL, site.Fetch
		trace = site.Trace
	}
	// The work starts once the file is here.
	if err := lim.work(ctx); err != nil {
		return nil, err
	}
	f := syntax.Parse(name, body)
	if err := checkBounds(f); err != nil {
		return nil, err
	}
	if req.Profile == "" {
		// The answer holds every finding the check reports (with a
		// profile, fewer): the check stops as soon as they cannot fit,
		// beside the corrected file and the file itself.
		cfg.MaxReport = max(1, lim.MaxAnswer-2*int64(len(body)))
	}
	ds, err := lint.RunContext(ctx, f, &cfg)
	if errors.Is(err, lint.ErrReport) {
		return nil, AnswerTooLarge(lim.MaxAnswer, lim.MaxAnswer, "the findings and their explanations alone, counted as the check found them")
	}
	if err != nil {
		return nil, err
	}
	cfg.MaxReport = 0
	ds = lint.Fold(ds)
	if req.Profile != "" {
		ds = lint.ForProfile(ds, c.profile)
	}
	resp := &wire.CheckResponse{Diagnostics: wire.Diagnostics(ds)}
	// Before the fixer's work, the answer is bounded by what it will hold
	// at most: the findings, as many left unfixed (each with why, some 160
	// octets more), the corrected file and the file itself. (With fewer
	// findings, only a file of huge lines quoted in their messages could
	// go over; FitCheck counts the answer anyway.)
	extra := 160*int64(len(ds)) + 2*int64(len(body))
	if len(ds) >= 1000 {
		if n, over, err := Size(ctx, resp, (lim.MaxAnswer-extra)/2); err != nil {
			return nil, err
		} else if over {
			return nil, AnswerTooLarge(2*n+extra, lim.MaxAnswer, fmt.Sprintf("%d findings, each with its explanation, and as many the corrected file may keep", len(ds)))
		}
	}
	fixCfg := cfg
	fixCfg.Fetch = nil
	fr, err := lint.FixContext(ctx, body, &lint.FixOptions{Config: fixCfg, Enable: req.Enable})
	if err != nil {
		return nil, err
	}
	fixed := string(fr.Output)
	left, err := lint.LeftoversContext(ctx, fr, &fixCfg)
	if err != nil {
		return nil, err
	}
	resp.Fixed, resp.Unfixed = &fixed, wire.Leftovers(left)
	if len(req.Enable) > 0 {
		// What the intent fixes change, per family, before anyone
		// downloads the file.
		if resp.Changes, err = change.CompareContext(ctx, body, fr.Output, &change.Options{All: cfg.AllRobots}); err != nil {
			return nil, err
		}
	}
	if trace != nil {
		text := string(body)
		resp.Fetch, resp.Robots = trace, &text
	}
	return resp, nil
}

// FitCheck refuses a check's answer over max octets (422
// answer_too_large). The estimate of Check.Run left out the fixer's
// findings: the answer is measured before it is sent.
func FitCheck(ctx context.Context, resp *wire.CheckResponse, max int64) error {
	n, over, err := Size(ctx, resp, max)
	if err != nil {
		return err
	}
	if over {
		return AnswerTooLarge(n, max, fmt.Sprintf("%d findings, and those the corrected file still has", len(resp.Diagnostics)))
	}
	return nil
}
