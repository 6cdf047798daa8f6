package fetch

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/robotskit/robots"
)

// DefaultRetain is how long a cache outside the process keeps an entry
// after its fetch, unless told otherwise: 60 days. The disk cache
// (fetch/diskcache) and the Redis cache (fetch/rediscache) use it. The
// last good copy must outlive Google's 30-day outage window (Google's
// robots.txt documentation: after 30 days unreachable, Google uses the
// last cached copy, or crawls freely when it has none), with room for a
// crawler that visits a site only every few weeks.
const DefaultRetain = 60 * 24 * time.Hour

// A Cache keeps what the last fetch of each origin's robots.txt found, so
// that a robot fetches each file about once a day (Google caches a
// robots.txt for up to 24 hours) and still knows the last good copy during
// an outage (up to 30 days and more).
//
// Keys are opaque strings made by the Fetcher (the policy and the origin).
// A Cache must be safe for concurrent use. Implementations should keep an
// entry past its Expires time: an expired entry is fetched again, but its
// last good copy is what the policy's outage timeline falls back to.
//
// A Cache that fails returns an error; the Fetcher then treats the key as
// missing and fetches, so that a cache outage never turns into "disallowed".
type Cache interface {
	// Get returns the entry stored under key, or nil and no error when
	// there is none.
	Get(ctx context.Context, key string) (*Entry, error)
	// Put stores e under key, replacing any entry. The caller does not
	// modify e afterwards.
	Put(ctx context.Context, key string, e *Entry) error
}

// An Entry is the state of one origin's robots.txt under one policy: the
// outcome of the last fetch, and the last good one, which an outage falls
// back to. Entries are immutable once stored.
type Entry struct {
	// URL is the final URL of the last fetch, after redirects.
	URL string
	// Outcome is what the last fetch meant under the policy.
	Outcome Outcome
	// Status is the final HTTP status of the last fetch, 0 when no
	// response arrived.
	Status int
	// Fetched is when the last fetch ended.
	Fetched time.Time
	// Expires is when the entry is to be fetched again.
	Expires time.Time
	// ErrorSince is when the current run of unreachable fetches began;
	// zero unless Outcome is Unreachable.
	ErrorSince time.Time
	// Good is the outcome of the last fetch that was not Unreachable, and
	// 0 when there was none; GoodAt is when it ended and Body its body
	// when Good is Success.
	Good   Outcome
	GoodAt time.Time
	Body   []byte

	// compiled memoises the rules of Body for one profile, so that a
	// cache hit costs no parsing; hit memoises the Result a hit returns.
	compiled atomic.Pointer[compiledRules]
	hit      atomic.Pointer[Result]
}

type compiledRules struct {
	profile robots.Profile
	rules   *robots.Rules
}

// rules returns Body compiled for profile p, compiling it at most once per
// profile change.
func (e *Entry) rules(p robots.Profile) *robots.Rules {
	if c := e.compiled.Load(); c != nil && c.profile == p {
		return c.rules
	}
	c := &compiledRules{profile: p, rules: robots.Parse(e.Body, p)}
	e.compiled.Store(c)
	return c.rules
}

// Fresh reports whether the entry may be used at t without fetching again.
func (e *Entry) Fresh(t time.Time) bool { return t.Before(e.Expires) }
