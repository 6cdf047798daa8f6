package fetch

import (
	"strconv"
	"strings"
	"time"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
)

// A Policy is how one robot family treats the HTTP outcome of its request
// for robots.txt: which statuses mean "follow the file", "no file", "keep
// out", or "try again later", how many redirects it follows, how long it
// keeps a copy, and what it does during a long outage. The zero value is
// Google. The table in the package documentation lists each policy's
// choices and where they come from.
type Policy uint8

const (
	// Google treats statuses as Google's robots.txt documentation says:
	// 5 redirects then as 404, every 4xx but 429 as no file, 429, 5xx and
	// network errors as "unreachable".
	Google Policy = iota
	// RFC9309 treats statuses as RFC 9309 §2.3.1 says.
	RFC9309
	// Bing documents no status rules of its own; it follows RFC 9309.
	Bing
	// Yandex parses only a 200 response; every other outcome means no
	// restrictions (Yandex's robots.txt help).
	Yandex
	// Draft1996 treats 401 and 403 as "the whole site is forbidden" (the
	// 1996 draft §3.1; Moderatobot reads it so too).
	Draft1996
	// Mandelbot treats every 4xx, 401 and 403 included, as no file and
	// caches for 48 hours (Mandelbot's robots.txt documentation, Fractle).
	Mandelbot
)

// Outcome is what one fetch of robots.txt means under a policy.
type Outcome uint8

const (
	// Success: a body arrived; its rules apply.
	Success Outcome = iota + 1
	// Unavailable: the robot acts as if there were no robots.txt and may
	// crawl everything (RFC 9309 §2.3.1.3).
	Unavailable
	// Forbidden: the robot may crawl nothing (401/403 under the 1996
	// draft).
	Forbidden
	// Unreachable: the server or the network failed; the policy's outage
	// timeline decides (RFC 9309 §2.3.1.4).
	Unreachable
)

var outcomeNames = [...]string{"", "success", "unavailable", "forbidden", "unreachable"}

// String returns the outcome's name.
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) && o != 0 {
		return outcomeNames[o]
	}
	return "none"
}

// MarshalText implements encoding.TextMarshaler.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// Access is what a robot may crawl on a site, given the state of its
// robots.txt.
type Access uint8

const (
	// AccessRules: the rules of the file decide, URL by URL.
	AccessRules Access = iota + 1
	// AccessAll: no restrictions.
	AccessAll
	// AccessNone: complete disallow.
	AccessNone
)

var accessNames = [...]string{"", "rules", "all", "none"}

// String returns "rules", "all" or "none".
func (a Access) String() string {
	if int(a) < len(accessNames) && a != 0 {
		return accessNames[a]
	}
	return "unknown"
}

// MarshalText implements encoding.TextMarshaler.
func (a Access) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// For returns what a means for the robot agent as a whole, in the root
// package's words: when the file's rules apply, rules.Access(agent) (nil
// rules are an empty file); with no restrictions, open through no group;
// under complete disallow, blocked through no group, with no deciding
// line (no rule of a file decides).
func (a Access) For(rules *robots.Rules, agent robots.Agent) robots.Access {
	switch a {
	case AccessRules:
		return rules.Access(agent)
	case AccessNone:
		return robots.Access{State: robots.Blocked, Via: robots.ViaNone}
	}
	return robots.Access{State: robots.Open, Via: robots.ViaNone}
}

// First returns the access and its reason after one fetch whose outcome
// is o, with no earlier fetch: for Unreachable, the start of an outage on
// p's timeline (complete disallow under every policy that has one, RFC
// 9309 §2.3.1.4). It is what a recorded response, such as a crawl
// archive's, means to a robot of p.
func (p Policy) First(o Outcome) (Access, string) { return p.sem().access(o, 0, 0) }

// Outage returns the access and its reason when robots.txt has been
// unreachable for streak (measured from the first unreachable fetch of
// the run) and the last fetch before the run had the outcome good (0 when
// there was none): p's outage timeline, the "outage" rows of the table in
// the package documentation. A Fetcher reads its cache entries so, and
// so does a history of versions read at a past time: a request made
// during an outage is judged by what the robot could know then. When good
// is Success the access is AccessRules: the rules of that fetch's body
// apply.
func (p Policy) Outage(streak time.Duration, good Outcome) (Access, string) {
	return p.sem().access(Unreachable, max(streak, 0), good)
}

// Served returns the access a robot of policy p has to a robots.txt
// served whole with status 200 and size octets, and why: its rules apply
// (AccessRules), except under a policy that ignores a file over 500 KiB
// whole (Yandex's robots.txt help), which then sets no restrictions. The
// commands that read a file given by its text (robots audit, compare, the
// API's robots field) read it so, as robots scan reads a capture.
func (p Policy) Served(size int64) (Access, string) {
	o := p.Classify(200, nil, nil, size)
	if o != Success && size > robots.MaxBytes {
		return AccessAll, "robots.txt is over 500 KiB, which " + p.String() + " robots ignore whole: no restrictions"
	}
	return p.First(o)
}

// RobotPolicy returns the fetch policy a registry robot names (its
// Fetch), or Google when it names none this package knows.
func RobotPolicy(rb agents.Robot) Policy {
	p, err := ParsePolicy(rb.Fetch)
	if err != nil {
		return Google
	}
	return p
}

// semantics is one row of the policy table.
type semantics struct {
	name string
	// redirects is how many redirects the robot follows; more ends as
	// Unavailable (Google reads it as a 404; RFC 9309 §2.3.1.2 "MAY
	// assume that the robots.txt file is unavailable").
	redirects int
	only200   bool    // Yandex: any other success status means no file
	s401      Outcome // 401 and 403
	s429      Outcome
	s5xx      Outcome
	network   Outcome // DNS, connect, TLS, reset, timeout, bad response
	// soft5xx: a 5xx whose page says "not found" is read as 404 (Google's
	// robots.txt documentation; Mandelbot's).
	soft5xx bool
	// oversize: a body over the limit makes the file Unavailable (Yandex
	// ignores a robots.txt over 500 KB; RB122) instead of being cut at the
	// limit.
	oversizeUnavailable bool
	// ttl is how long a copy stays fresh without Cache-Control; maxTTL
	// caps max-age.
	ttl, maxTTL time.Duration
	// The outage timeline, measured from the first unreachable fetch of a
	// streak: before disallowFor, complete disallow; then, until fallbackFor,
	// the last good copy, or no restrictions if there is none; after
	// fallbackFor, no restrictions when allowAfter is set, else still the
	// last good copy.
	disallowFor, fallbackFor time.Duration
	allowAfter               bool
	source                   string
}

const (
	day         = 24 * time.Hour
	outageLimit = 30 * day
)

var policies = [...]semantics{
	Google: {
		name: "google", redirects: 5,
		s401: Unavailable, s429: Unreachable, s5xx: Unreachable, network: Unreachable,
		soft5xx: true, ttl: day, maxTTL: day,
		// Google's Search Console documentation: 12 hours of complete
		// disallow, then the last good copy up to 30 days, then no
		// restrictions; with no copy, no restrictions (Google's robots.txt
		// documentation).
		disallowFor: 12 * time.Hour, fallbackFor: outageLimit, allowAfter: true,
		source: "Google's robots.txt documentation; Google Search Console crawl stats documentation",
	},
	RFC9309: {
		name: "rfc9309", redirects: 5,
		s401: Unavailable, s429: Unavailable, s5xx: Unreachable, network: Unreachable,
		ttl: day, maxTTL: day,
		// §2.3.1.4: complete disallow; after "a reasonably long period of
		// time (for example, 30 days)" a cached copy or no restrictions.
		disallowFor: outageLimit, fallbackFor: outageLimit,
		source: "RFC 9309 §2.3.1, §2.4",
	},
	Bing: {
		name: "bing", redirects: 5,
		s401: Unavailable, s429: Unavailable, s5xx: Unreachable, network: Unreachable,
		ttl: day, maxTTL: day,
		disallowFor: outageLimit, fallbackFor: outageLimit,
		source: "no Bing document; RFC 9309",
	},
	Yandex: {
		name: "yandex", redirects: 5, only200: true,
		s401: Unavailable, s429: Unavailable, s5xx: Unavailable, network: Unavailable,
		oversizeUnavailable: true, ttl: day, maxTTL: day,
		source: "Yandex Webmaster documentation",
	},
	Draft1996: {
		name: "draft1996", redirects: 5,
		s401: Forbidden, s429: Unavailable, s5xx: Unreachable, network: Unreachable,
		// The draft's default expiry is 7 days (§3.4).
		ttl: 7 * day, maxTTL: 7 * day,
		disallowFor: outageLimit, fallbackFor: outageLimit,
		source: "1996 draft §3.1, §3.4; Moderatobot's \"Checking robots.txt theory\"",
	},
	Mandelbot: {
		name: "mandelbot", redirects: 5,
		s401: Unavailable, s429: Unavailable, s5xx: Unreachable, network: Unreachable,
		soft5xx: true, ttl: 2 * day, maxTTL: 2 * day,
		disallowFor: outageLimit, fallbackFor: outageLimit,
		source: "Mandelbot's robots.txt documentation (Fractle)",
	},
}

func (p Policy) sem() *semantics {
	if int(p) < len(policies) {
		return &policies[p]
	}
	return &policies[Google]
}

// String returns the policy's name as ParsePolicy accepts it.
func (p Policy) String() string { return p.sem().name }

// MarshalText implements encoding.TextMarshaler.
func (p Policy) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (p *Policy) UnmarshalText(b []byte) error { return p.Set(string(b)) }

// Set implements flag.Value.
func (p *Policy) Set(name string) error {
	q, err := ParsePolicy(name)
	if err != nil {
		return err
	}
	*p = q
	return nil
}

// ParsePolicy returns the policy with the given name ("google", "rfc9309",
// "bing", "yandex", "draft1996", "mandelbot"), ignoring case; "" and
// "default" name the zero value. The names are those of the Fetch field
// of package agents.
func ParsePolicy(name string) (Policy, error) {
	switch n := strings.ToLower(name); n {
	case "", "default":
		return Google, nil
	default:
		for i := range policies {
			if policies[i].name == n {
				return Policy(i), nil
			}
		}
	}
	return Google, &policyError{name}
}

type policyError struct{ name string }

func (e *policyError) Error() string {
	return "unknown fetch policy " + strconv.Quote(e.name) + " (want google, rfc9309, bing, yandex, draft1996 or mandelbot)"
}

// Policies returns every policy, the default first.
func Policies() []Policy {
	ps := make([]Policy, len(policies))
	for i := range ps {
		ps[i] = Policy(i)
	}
	return ps
}

// MaxRedirects returns how many redirects robots of the policy follow.
func (p Policy) MaxRedirects() int { return p.sem().redirects }

// TTL returns how long robots of the policy keep a copy of robots.txt
// that came without Cache-Control max-age, and the most they accept from
// max-age.
func (p Policy) TTL() (ttl, max time.Duration) { s := p.sem(); return s.ttl, s.maxTTL }

// classify returns the outcome of a final HTTP status under the policy.
func (s *semantics) classify(status int) Outcome {
	switch {
	case status == 200:
		return Success
	case status >= 200 && status < 300:
		if s.only200 {
			return Unavailable
		}
		return Success
	case status == 401 || status == 403:
		return s.s401
	case status == 429:
		return s.s429
	case status >= 400 && status < 500:
		return Unavailable
	case status >= 500 && status < 600:
		return s.s5xx
	}
	// 1xx, a 3xx that could not be followed, 304 to an unconditional
	// request, or a number outside 100–599: an invalid response, which
	// Google counts among the "other errors" treated as server errors
	// (Google's robots.txt documentation).
	return s.network
}

// outcome reads the facts of a fetch under the policy, when the fetch
// followed at most limit redirects; note explains a reading peculiar to
// the policy.
func (s *semantics) outcome(r *Result, limit int) (out Outcome, note string) {
	switch r.end {
	case endNetwork:
		return s.network, ""
	case endLoop:
		// "until they meet a cycle ... the robots suppose that the file
		// does not exist" (Moderatobot).
		return Unavailable, "redirect loop"
	case endOverflow:
		// Google follows five redirects and then treats the robots.txt as
		// a 404 (Google's robots.txt documentation); RFC 9309 §2.3.1.2
		// "MAY assume ... unavailable".
		return Unavailable, "too many redirects"
	}
	if r.Redirects > limit {
		return Unavailable, "reached after " + strconv.Itoa(r.Redirects) + " redirects, more than " + s.name + " robots follow"
	}
	out = s.classify(r.Status)
	switch {
	case s.only200 && r.Status != 200 && r.Status >= 200 && r.Status < 300:
		note = "HTTP " + strconv.Itoa(r.Status) + ", and " + s.name + " robots read only a 200 response"
	case out == Unreachable && s.soft5xx && r.notFound:
		out, note = Unavailable, "the HTTP "+strconv.Itoa(r.Status)+" page says the file is not found: read as 404"
	case out == Success && r.Truncated && s.oversizeUnavailable:
		out, note = Unavailable, "larger than 500 KiB: "+s.name+" robots ignore the whole file"
	}
	return out, note
}

// access returns what a robot may crawl, given the last fetch's outcome
// and, for an unreachable streak, its length and whether a good copy is
// known.
func (s *semantics) access(last Outcome, streak time.Duration, good Outcome) (Access, string) {
	switch last {
	case Success:
		return AccessRules, "rules of the file apply"
	case Unavailable:
		return AccessAll, "no robots.txt: no restrictions"
	case Forbidden:
		return AccessNone, "robots.txt forbidden: the whole site is off limits"
	case Unreachable:
	default:
		return AccessAll, "no robots.txt: no restrictions"
	}
	fallback := func(what string) (Access, string) {
		switch good {
		case Success:
			return AccessRules, what + ": the last good copy applies"
		case Unavailable:
			return AccessAll, what + ": the last good fetch found no robots.txt"
		case Forbidden:
			return AccessNone, what + ": the last good fetch was forbidden"
		}
		return 0, ""
	}
	switch {
	case streak < s.disallowFor:
		return AccessNone, "robots.txt unreachable: complete disallow while it lasts"
	case streak < s.fallbackFor || !s.allowAfter:
		if a, why := fallback("robots.txt unreachable for " + roundDuration(streak)); a != 0 {
			return a, why
		}
		return AccessAll, "robots.txt unreachable for " + roundDuration(streak) + " and no good copy: no restrictions"
	}
	return AccessAll, "robots.txt unreachable for " + roundDuration(streak) + ": no restrictions"
}

func roundDuration(d time.Duration) string {
	switch {
	case d >= 2*day:
		return strconv.Itoa(int(d/day)) + " days"
	case d >= 2*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + " hours"
	case d >= 2*time.Minute:
		return strconv.Itoa(int(d/time.Minute)) + " minutes"
	}
	return strconv.Itoa(int(d/time.Second)) + " seconds"
}
