package lint

import (
	"errors"
	"time"

	"github.com/robotskit/robots/lint/internal/check"
)

// Config says how to check a file. The zero Config checks a file read from
// disk with the default set of checks.
type Config struct {
	// Thorough enables the checks docs/checks.md marks "thorough only".
	Thorough bool
	// AllRobots widens the scope of the checks. False means report only
	// the findings that affect at least one major family (Family.Major):
	// Google, Bing, Yandex, the other RFC 9309 robots, or every robot.
	// True adds those that affect only first-match robots of the 1996
	// draft, the 1994 standard, the extended standard, crawler-commons or
	// temoto/robotstxt, and the advice that changes no robot's reading
	// (checks that affect no family).
	AllRobots bool
	// Enable and Disable turn checks on and off. Each entry names checks:
	// a check's code ("RB706", any case) or name
	// ("wildcard-length-precedence"), a section ("fetch", "file",
	// "lines", "groups", "rules", "ext", "cross": Check.SectionName), a
	// severity ("error", "warning", "info") or "all", case folded. A check
	// runs by default unless it is thorough and Thorough is not set; the
	// most specific entry that names it decides otherwise (a code or name
	// beats a section, which beats a severity, which beats "all"), and
	// Disable wins a tie, which Validate reports. So Disable ["all"] with
	// Enable ["RB501"] runs RB501 alone, and Enable ["RB310"] runs a
	// thorough check without Thorough. A check named by code or name in
	// Enable reports what it finds whatever AllRobots says.
	//
	// A finding can also be silenced where it is: a comment
	// "# robots:ignore RB501 reason" on a line of its own silences the
	// findings of RB501 on the next line that is neither blank nor a
	// comment. RB314 reports such a comment without a reason or naming
	// no check, RB315 one that silences nothing.
	Enable, Disable []string
	// URL is the robots.txt URL the file came from, if any: location
	// checks and relative Sitemap URLs need it.
	URL string
	// Fetch is the trace of the request that got the file; the checks of
	// the fetch (RB1xx) read it. nil for a file read from disk.
	Fetch *Fetch
	// MaxWork bounds the checker's work on one text, in work units; 0
	// (or less) means no bound. Each step of the checker is charged a
	// weight in units: a check's read of the whole file (a unit per line
	// and per 16 bytes), a finding, a rule compared with another, a
	// candidate URL matched against a rule, a text compiled by the proof
	// of a fix. The weights make a unit cost about the same time whatever
	// the step, some 5 ns on a current x86-64 core: a million units are
	// some 5 ms of work. The count depends only on the text and the
	// Config (Thorough and AllRobots add checks), never on the machine,
	// its load or what the process checked before, so a file either
	// always fits in a bound or never does. A typical robots.txt costs
	// some 20,000 units; DefaultMaxWork suits callers that check files in
	// bulk.
	//
	// RunContext, and FixContext and LeftoversContext for each text they
	// check, return ErrBudget when the work runs past MaxWork. Run, Fix
	// and Leftovers, which have no error to return, ignore it.
	MaxWork int64
	// MaxReport bounds the size of the report, in octets; 0 (or less)
	// means no bound. After each check, RunContext adds up a lower bound
	// of what the findings so far take in the JSON report of
	// docs/schema/check.schema.json, one record for each problem as Fold
	// makes them: each record's keys and its texts (the check's code,
	// name, severity and explanation, Check.Doc, the message and the
	// families), and two octets for each further line of a folded
	// problem. Once the sum
	// passes MaxReport it stops and returns ErrReport, without the
	// remaining checks, so that a caller that could not send so large a
	// report learns it early. A report the bound lets through may still
	// be larger: the JSON adds keys, numbers and escapes.
	MaxReport int64
}

// DefaultMaxWork is a bound on the checker's work on one text
// (Config.MaxWork) for callers that check files in bulk, such as a
// crawl: 25 million units, some 125 ms of work. Every file of a corpus of
// 3,691 real robots.txt files fits in it under the default checks, the
// costliest (some 10 million units) in less than half of it; files built
// to be costly (thousands of rules compared with each other, fixes proved
// on a text of hundreds of KiB) run out of it.
const DefaultMaxWork = 25_000_000

// ErrBudget is the error RunContext, FixContext and LeftoversContext
// return when the checker's work on a text runs past Config.MaxWork.
var ErrBudget = check.ErrBudget

// ErrReport is the error RunContext returns when its report would be
// larger than Config.MaxReport.
var ErrReport = errors.New("lint: the report would be larger than its bound")

// Fetch is what the checker needs to know about how robots.txt was
// fetched. The caller fills it from its HTTP client; package fetch's
// Result carries all of it.
type Fetch struct {
	// Hops are the requests made, in order: the first for the URL asked,
	// each next one for the previous hop's Location.
	Hops []Hop
	// Elapsed is the time from the first request to the end of the last
	// body.
	Elapsed time.Duration
	// TimedOut reports that the checker gave up waiting.
	TimedOut bool
	// Err describes a failure before any status arrived (DNS, connect,
	// TLS, reset), "" when a response came.
	Err string
	// ContentType and CacheControl, Expires are the headers of the final
	// response.
	ContentType, CacheControl, Expires string
	// Size is the length of the whole body as sent, which may exceed what
	// was read.
	Size int64
	// TooManyRedirects reports that the chain was cut at the checker's
	// limit; Loop that a URL came back.
	TooManyRedirects, Loop bool
	// Broken says why the final response, whose status arrived, is not
	// usable: its body broke off (a reset or closed connection, fewer
	// bytes than Content-Length announced) or did not decode; "" when the
	// body arrived whole. Robots read such a response as a network error,
	// whatever its status.
	Broken string
	// Policy, Outcome, Access and Reason are how the fetcher read the
	// fetch, as package fetch decides it for the robot family of Policy
	// ("google"): the outcome (success, unavailable, forbidden or
	// unreachable), what robots may crawl (rules, all or none) and why, in
	// words. They are empty for a Fetch built by hand.
	Policy, Outcome, Access, Reason string
	// CaseVariant is the URL of an upper- or mixed-case variant of
	// /robots.txt that answered 200 after /robots.txt answered 404 (RB131),
	// "" when none was probed or found.
	CaseVariant string
	// Date is when the fetch ended; Expires is compared with it.
	Date time.Time
	// Siblings are the robots.txt of the origins next to this one (the
	// other of http and https, the www or bare-domain twin), fetched in
	// thorough mode for RB132; nil when they were not probed.
	Siblings []Sibling
}

// A Sibling is the robots.txt of an origin next to the one checked, as
// its own fetch ended.
type Sibling struct {
	// URL is the sibling's robots.txt URL, as first requested.
	URL string
	// Status is its final HTTP status, 0 when no response came.
	Status int
	// Body is its body, compared with the file checked for a 2xx status.
	Body string
}

// A Hop is one request of a fetch.
type Hop struct {
	URL string
	// Status is the HTTP status, 0 when no response came.
	Status int
	// Location is the redirect target as sent, "" when none.
	Location string
}

// Final returns the last hop, or a zero Hop when there is none.
func (f *Fetch) Final() Hop {
	if f == nil || len(f.Hops) == 0 {
		return Hop{}
	}
	return f.Hops[len(f.Hops)-1]
}

// checked returns f as the checks read it, nil for nil.
func (f *Fetch) checked() *check.Fetch {
	if f == nil {
		return nil
	}
	c := &check.Fetch{
		Elapsed: f.Elapsed, TimedOut: f.TimedOut, Err: f.Err,
		ContentType: f.ContentType, CacheControl: f.CacheControl, Expires: f.Expires,
		Size: f.Size, TooManyRedirects: f.TooManyRedirects, Loop: f.Loop, Broken: f.Broken,
		Policy: f.Policy, Reason: f.Reason, CaseVariant: f.CaseVariant, Date: f.Date,
	}
	if f.Hops != nil {
		c.Hops = make([]check.Hop, len(f.Hops))
		for i, h := range f.Hops {
			c.Hops[i] = check.Hop(h)
		}
	}
	if f.Siblings != nil {
		c.Siblings = make([]check.Sibling, len(f.Siblings))
		for i, s := range f.Siblings {
			c.Siblings[i] = check.Sibling(s)
		}
	}
	return c
}
