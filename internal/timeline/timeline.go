// Package timeline reads a site's robots.txt history as robots read it at
// any moment: the version in force, what a robot of a fetch policy made
// of its answer (a 503 is complete disallow at first, then the last good
// copy, as the policy's outage timeline says), and the compiled rules
// that apply. robots watch, history and logs and the web page's history
// all ask it, so that they answer alike.
package timeline

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/change"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/history"
)

// A Timeline is one site's versions, oldest first, read by robots. It
// compiles each version's body once per profile, on first use, and is
// safe for concurrent use.
type Timeline struct {
	vs []history.Version

	mu    sync.Mutex
	rules map[ruleKey]*robots.Rules
}

type ruleKey struct {
	version int
	profile robots.Profile
}

// New returns the timeline of vs, which must be one site's versions in
// the order of their Time (history.Store.Versions gives them so).
func New(vs []history.Version) *Timeline {
	return &Timeline{vs: vs, rules: map[ruleKey]*robots.Rules{}}
}

// Versions returns the versions, oldest first; do not modify them.
func (t *Timeline) Versions() []history.Version { return t.vs }

// Index returns the index of the version in force at the time at: the
// last one whose Time is not after it, or -1 when at is before the first.
func (t *Timeline) Index(at time.Time) int {
	return sort.Search(len(t.vs), func(i int) bool { return t.vs[i].Time.After(at) }) - 1
}

// A Reading is what a robot made of a site's robots.txt at one time.
type Reading struct {
	// Version is the index of the version in force, -1 when the time
	// is before the first version (nothing is known: no verdict).
	Version int
	// Outcome is the version's answer as the robot's policy reads it.
	Outcome fetch.Outcome
	// Access and Reason: what the robot may crawl and why (fetch.Access).
	Access fetch.Access
	Reason string
	// Rules are the rules that apply when Access is fetch.AccessRules,
	// compiled for the profile asked; Source is the index of the
	// version whose body they are (Version itself, or during an outage
	// the last good one). Nil and -1 otherwise.
	Rules  *robots.Rules
	Source int
}

// Outcome returns what a robot of policy p makes of version i's answer.
// The version keeps the answer's status and, for a success, its body;
// fetch.Policy.Classify reads them with p's status rules. A 5xx answer
// whose page said the file was not found (recorded as Unavailable by a
// policy that reads such pages so, RFC 9309 §2.3.1.3 aside) keeps that
// reading for every policy that has it.
func (t *Timeline) Outcome(i int, p fetch.Policy) fetch.Outcome {
	v := &t.vs[i]
	var body []byte
	var hdr http.Header
	switch {
	case v.Status >= 500 && v.Outcome == fetch.Unavailable.String():
		body = notFoundPage
	case v.Status >= 300 && v.Status < 400:
		// The fetch stopped on a redirect it could not follow further:
		// a usable Location, too many hops or a loop (fetch.Classify).
		hdr = http.Header{"Location": {"/"}}
	case v.Status == 0:
	default:
		body = v.Body
	}
	return p.Classify(v.Status, hdr, body, v.Size)
}

// notFoundPage stands for the error page of a 5xx that said the file
// was not found.
var notFoundPage = []byte("not found")

// Read returns what a robot of policy p and profile pr made of the site's
// robots.txt at the time at. An unreachable answer is read on p's outage
// timeline (fetch.Policy.Outage), from the first version of the run of
// unreachable answers, with the last answer before the run as the good
// copy.
func (t *Timeline) Read(at time.Time, p fetch.Policy, pr robots.Profile) Reading {
	i := t.Index(at)
	r := Reading{Version: i, Source: -1}
	if i < 0 {
		return r
	}
	r.Outcome = t.Outcome(i, p)
	src := i
	if r.Outcome == fetch.Unreachable {
		start := i
		for start > 0 && t.Outcome(start-1, p) == fetch.Unreachable {
			start--
		}
		var good fetch.Outcome
		if start > 0 {
			good = t.Outcome(start-1, p)
		}
		src = start - 1
		r.Access, r.Reason = p.Outage(at.Sub(t.vs[start].Time), good)
	} else {
		r.Access, r.Reason = p.First(r.Outcome)
		if v := &t.vs[i]; v.Status >= 200 && v.Status < 300 && v.Size > robots.MaxBytes {
			// A file over 500 KiB: cut, or ignored whole (Yandex), in
			// the words of fetch.Policy.Served.
			if a, why := p.Served(v.Size); a != fetch.AccessRules {
				r.Access, r.Reason = a, why
			}
		}
	}
	if r.Access == fetch.AccessRules && src >= 0 {
		r.Rules, r.Source = t.compiled(src, pr), src
	}
	return r
}

// compiled returns version i's rules for profile pr, compiling them once.
func (t *Timeline) compiled(i int, pr robots.Profile) *robots.Rules {
	t.mu.Lock()
	defer t.mu.Unlock()
	k := ruleKey{i, pr}
	r := t.rules[k]
	if r == nil {
		r = robots.Parse(t.vs[i].Body, pr)
		t.rules[k] = r
	}
	return r
}

// Decide returns a robot's verdict on url at the time at, and the
// reading it came from: the rules' decision when the rules apply, else
// the fetch's (everything allowed, or nothing), with no deciding line.
// A time before the first version is allowed: nothing said otherwise.
func (t *Timeline) Decide(at time.Time, p fetch.Policy, pr robots.Profile, a robots.Agent, url string) (robots.Decision, Reading) {
	r := t.Read(at, p, pr)
	if r.Rules != nil {
		return r.Rules.Decide(a, url), r
	}
	return robots.Decision{Allowed: r.Version < 0 || r.Access != fetch.AccessNone}, r
}

// Families are the robot families whose readings Change and the
// commands report: the major ones, each with its own fetch policy.
var Families = []robots.Profile{robots.Google, robots.Bing, robots.Yandex, robots.RFC9309}

// A FamilyChange is how one robot family reads the site's robots.txt
// before and after a change, in words (Describe).
type FamilyChange struct {
	Family robots.Profile `json:"family"`
	Before string         `json:"before"`
	After  string         `json:"after"`
}

// Change says how robots read version j against version i: the
// families whose reading changed, version i read at its last moment
// (just before the version after it came) against version j read as it
// came (a 503 after a good file: complete disallow where there were
// rules; for j = i+1, the change a watcher sees); and, when both
// versions' answers are successes, the report of package change on their
// bodies, in the files' own rules (the families' lines then say nothing
// more and are left out). i may be after j: the change the other way. It
// stops when ctx ends, with no report.
func (t *Timeline) Change(ctx context.Context, i, j int) ([]FamilyChange, *change.Report) {
	vs := t.vs
	if vs[i].Outcome == fetch.Success.String() && vs[j].Outcome == fetch.Success.String() {
		rep, err := change.CompareContext(ctx, nonNil(vs[i].Body), nonNil(vs[j].Body), nil)
		if err != nil {
			return nil, nil
		}
		return nil, rep
	}
	end := vs[i].Time
	if i+1 < len(vs) {
		end = vs[i+1].Time.Add(-time.Nanosecond)
	}
	var fams []FamilyChange
	for _, p := range Families {
		pol := fetch.PolicyFor(p)
		before, after := t.Read(end, pol, p), t.Read(vs[j].Time, pol, p)
		if b, a := Describe(before), Describe(after); b != a {
			fams = append(fams, FamilyChange{Family: p, Before: b, After: a})
		}
	}
	return fams, nil
}

// A FamilyReading is how one robot family read the site at a time, in
// words (Describe).
type FamilyReading struct {
	Family robots.Profile `json:"family"`
	Reads  string         `json:"reads"`
}

// Readings are how each family of Families read the site at the time
// at: robots history -at and the web page's version view say it so.
func (t *Timeline) Readings(at time.Time) []FamilyReading {
	out := make([]FamilyReading, 0, len(Families))
	for _, p := range Families {
		out = append(out, FamilyReading{Family: p, Reads: Describe(t.Read(at, fetch.PolicyFor(p), p))})
	}
	return out
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// Describe says what a reading means, in words: "the rules of version 2
// apply", "robots.txt unreachable for 13 hours: the last good copy
// applies (version 2)", "no robots.txt: no restrictions", or "nothing
// known" before the first version.
func Describe(r Reading) string {
	switch {
	case r.Version < 0:
		return "nothing known"
	case r.Access == fetch.AccessRules && r.Source != r.Version:
		return fmt.Sprintf("%s (version %d)", r.Reason, r.Source+1)
	case r.Access == fetch.AccessRules:
		return fmt.Sprintf("the rules of version %d apply", r.Source+1)
	}
	return r.Reason
}
