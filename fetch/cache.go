package fetch

import (
	"context"
	"sync/atomic"
	"time"
	"weak"

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
//
// An Entry that a Fetcher made, that UnmarshalBinary decoded or that a
// MemoryCache holds shares its Body, and the rules compiled from it, with
// every such entry of the same bytes, so that a file that many origins
// serve is held once: do not modify the bytes.
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

	// shared is Body as every entry of the same body shares it, with the
	// rules compiled from it (see shareBody); it is found on first use.
	// hit memoises the Result a hit returns, weakly: a Result that no
	// caller holds any more is collected, and the next hit makes another.
	shared atomic.Pointer[sharedBody]
	hit    atomic.Pointer[weakResult]
}

// A weakResult is a Result memoised by an entry.
type weakResult struct{ r weak.Pointer[Result] }

// share returns the shared body of e.Body, finding it on first use.
func (e *Entry) share() *sharedBody {
	if s := e.shared.Load(); s != nil {
		return s
	}
	s := shareBody(e.Body, false)
	if !e.shared.CompareAndSwap(nil, s) {
		return e.shared.Load()
	}
	return s
}

// rules returns Body compiled for profile p, compiled at most once per
// profile for all the entries of the same body.
func (e *Entry) rules(p robots.Profile) *robots.Rules {
	return e.share().compiled(p)
}

// withSharedBody returns e when its Body is empty or already the shared
// copy, and else a copy of e whose Body is: so a cache that keeps the
// result holds one copy of each body, whoever made the entry.
func (e *Entry) withSharedBody() *Entry {
	if len(e.Body) == 0 {
		return e
	}
	s := e.share()
	if &e.Body[0] == &s.body[0] {
		return e
	}
	c := &Entry{URL: e.URL, Outcome: e.Outcome, Status: e.Status,
		Fetched: e.Fetched, Expires: e.Expires, ErrorSince: e.ErrorSince,
		Good: e.Good, GoodAt: e.GoodAt, Body: s.body}
	c.shared.Store(s)
	return c
}

// Fresh reports whether the entry may be used at t without fetching again.
func (e *Entry) Fresh(t time.Time) bool { return t.Before(e.Expires) }
