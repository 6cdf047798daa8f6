package rediscache

import (
	"cmp"
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/robotskit/robots/fetch"
)

// defaultRedisPrefix starts every key a Cache makes, unless told
// otherwise, so that the cache can share a Redis database.
const defaultRedisPrefix = "robots:"

// A Cache is a fetch.Cache in Redis, which a fleet of crawlers can share:
// each entry is a string value of its MarshalBinary bytes, under the
// prefix and the key, which expires Retain after the entry's fetch.
// Each Get decodes a new fetch.Entry, so put a fetch.MemoryCache in front
// of it (see fetch.Layered), which also keeps a crawler working through a
// Redis outage. A Cache is safe for concurrent use.
//
// # Outages
//
// Each Get and Put waits at most Timeout (500 ms by default), whatever
// the client's own timeouts. A circuit breaker keeps an outage from
// costing that much on every call: after Breaker.Failures calls in a row
// (3 by default) fail for want of an answer (a timeout, the call's own
// deadline included, or a refused or broken connection), the breaker
// opens. While it is open, Get and Put do not contact Redis: they fail
// at once with an error that wraps ErrUnavailable, which the
// fetch.Fetcher and fetch.Layered read as a miss, so a crawler answers
// from its memory layer or fetches the file, and what it puts is kept in
// memory only (Stats counts the Gets skipped and the Puts dropped). In
// the background, a probe sends PING (bounded by Timeout, or
// DefaultTimeout when Timeout is negative) after Breaker.Probe (500 ms by
// default), then at doubling intervals up to Breaker.MaxProbe (10 s); the
// first answer closes the breaker. An error that Redis itself replies
// with (WRONGPASS, OOM, …) arrives quickly and does not count towards
// opening; nor does a call whose context the caller cancelled.
//
// Errors name the server (host:port, and the database when it is not 0),
// never its user name or password. The cache prints nothing (go-redis's
// own logger aside, see New): a program reads Stats for its logs and
// metrics.
type Cache struct {
	// Retain is how long an entry is kept after its Fetched time (an
	// entry whose Fetched time is zero is kept Retain after the Put).
	// Zero means fetch.DefaultRetain (60 days). Set it before using the
	// cache.
	Retain time.Duration
	// Timeout bounds each Get and Put, on top of the call's context.
	// Zero means DefaultTimeout; a negative value leaves the calls
	// to the context and the client's timeouts. Set it before using the
	// cache.
	Timeout time.Duration
	// Breaker sets the circuit breaker; its zero fields mean the
	// defaults. Set it before using the cache.
	Breaker Breaker

	client redis.UniversalClient
	prefix string
	// name is the server for error messages, without credentials;
	// secret is the password, which errors never repeat.
	name, secret string
	// deadlines: the client stops at a context's deadline by itself (a
	// *redis.Client with ContextTimeoutEnabled, as Open makes).
	deadlines bool
	// owned is the client Open made, which Close closes; nil for New.
	owned *redis.Client

	br breakerState
}

// DefaultTimeout is how long a Get or Put of a Cache waits for
// Redis unless its Timeout says otherwise: long enough for a dial and a
// reply across a data centre (a Redis on the crawler's network answers in
// about a millisecond), short enough that a Redis that hangs costs little
// before the circuit breaker opens.
const DefaultTimeout = 500 * time.Millisecond

// Breaker sets the circuit breaker of a Cache. Zero fields mean the
// defaults.
type Breaker struct {
	// Failures is how many calls in a row must fail for want of an
	// answer before the breaker opens; 3 by default, so that one slow
	// reply does not open it. A call that succeeds starts the count
	// again.
	Failures int
	// Probe is how long after opening the first PING is sent; 500 ms by
	// default. Each PING that fails doubles the wait, up to MaxProbe
	// (10 s by default).
	Probe, MaxProbe time.Duration
}

// The breaker's defaults; see Breaker.
const (
	defaultBreakerFailures = 3
	defaultBreakerProbe    = 500 * time.Millisecond
	defaultBreakerMaxProbe = 10 * time.Second
)

// ErrUnavailable is wrapped by the errors of a Cache's Get and Put
// while its circuit breaker is open: the call did not contact Redis.
var ErrUnavailable = errors.New("circuit breaker open: Redis failed repeatedly and is skipped until it answers a PING")

// Stats is a snapshot of a Cache's circuit breaker and counters, for a
// program's logs and metrics. The counters only grow.
type Stats struct {
	// Open is whether the breaker is open: Get and Put skip Redis.
	Open bool
	// OpenSince is when the breaker last opened; zero while closed.
	OpenSince time.Time
	// ConsecutiveFailures is how many calls in a row have failed for
	// want of an answer.
	ConsecutiveFailures int
	// Gets and Puts count the calls that went to Redis.
	Gets, Puts uint64
	// Failures counts the calls that failed for want of an answer
	// (timeouts, refused or broken connections); ReplyErrors those that
	// Redis answered with an error.
	Failures, ReplyErrors uint64
	// Opens counts the times the breaker opened.
	Opens uint64
	// SkippedGets and DroppedPuts count the calls made while the breaker
	// was open: a Get answered as a miss and a Put not stored in Redis.
	SkippedGets, DroppedPuts uint64
	// Probes counts the PINGs sent while the breaker was open, and
	// FailedProbes those that got no answer.
	Probes, FailedProbes uint64
	// LastError is the last failure, nil if there was none; its message
	// names the server without credentials.
	LastError error
}

var _ fetch.Cache = (*Cache)(nil)

// breakerState is the circuit breaker of a Cache.
type breakerState struct {
	open        atomic.Bool
	consecutive atomic.Int64

	gets, puts, failures, replyErrors, opens atomic.Uint64
	skipped, dropped, probes, failedProbes   atomic.Uint64

	mu        sync.Mutex
	openSince time.Time
	lastErr   error
	// probing is set while a probe goroutine runs; stop ends it.
	probing bool
	stop    chan struct{}
	closed  bool
}

// New returns a Cache that keeps its entries in Redis through
// client, under keys that start with prefix ("robots:" when empty). Each
// call is bounded by the cache's Timeout as well as by the context of the
// call; the client remains the caller's to close (the breaker's probe
// stops when the client is closed, or at Close). go-redis reports failed
// connections through its own process-wide logger, which writes to
// standard error; a program that wants silence calls redis.SetLogger.
func New(client redis.UniversalClient, prefix string) *Cache {
	if prefix == "" {
		prefix = defaultRedisPrefix
	}
	c := &Cache{client: client, prefix: prefix}
	c.name, c.secret = redisServerName(client)
	if rc, ok := client.(*redis.Client); ok {
		c.deadlines = rc.Options().ContextTimeoutEnabled
	}
	c.br.stop = make(chan struct{})
	return c
}

// Close stops the breaker's background probe, if one runs. A Cache that
// Open made owns its client, and Close closes the client too: the cache
// cannot be used afterwards. A Cache that New made does not close the
// client, which remains the caller's: the cache still works after Close,
// but an open breaker then stays open. Close is then for a program that
// drops the cache before the client; closing the client stops the probe
// as well.
func (c *Cache) Close() error {
	c.br.mu.Lock()
	if c.br.closed {
		c.br.mu.Unlock()
		return nil
	}
	c.br.closed = true
	close(c.br.stop)
	c.br.mu.Unlock()
	if c.owned != nil {
		return c.owned.Close()
	}
	return nil
}

// Stats returns the state of the circuit breaker and the counters.
func (c *Cache) Stats() Stats {
	b := &c.br
	b.mu.Lock()
	s := Stats{OpenSince: b.openSince, LastError: b.lastErr}
	b.mu.Unlock()
	s.Open = b.open.Load()
	if !s.Open {
		s.OpenSince = time.Time{}
	}
	s.ConsecutiveFailures = int(b.consecutive.Load())
	s.Gets, s.Puts = b.gets.Load(), b.puts.Load()
	s.Failures, s.ReplyErrors = b.failures.Load(), b.replyErrors.Load()
	s.Opens = b.opens.Load()
	s.SkippedGets, s.DroppedPuts = b.skipped.Load(), b.dropped.Load()
	s.Probes, s.FailedProbes = b.probes.Load(), b.failedProbes.Load()
	return s
}

// Get returns the entry stored under key, or nil when there is none. A
// failure of Redis, an open circuit breaker or a value that cannot be
// decoded is an error.
func (c *Cache) Get(ctx context.Context, key string) (*fetch.Entry, error) {
	if c.br.open.Load() {
		c.br.skipped.Add(1)
		return nil, c.errorf("get", key, ErrUnavailable)
	}
	c.br.gets.Add(1)
	var v []byte
	err := c.call(ctx, func(ctx context.Context) error {
		var err error
		v, err = c.client.Get(ctx, c.prefix+key).Bytes()
		return err
	})
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, c.failed(ctx, "get", key, err)
	}
	e := new(fetch.Entry)
	if err := e.UnmarshalBinary(v); err != nil {
		return nil, c.errorf("get", key, err)
	}
	return e, nil
}

// Put stores e under key until Retain after its Fetched time; an entry
// already older than that removes the key instead. While the circuit
// breaker is open the entry is dropped, and Put says so.
func (c *Cache) Put(ctx context.Context, key string, e *fetch.Entry) error {
	v, err := e.MarshalBinary()
	if err != nil {
		return err
	}
	if c.br.open.Load() {
		c.br.dropped.Add(1)
		return c.errorf("put", key, ErrUnavailable)
	}
	c.br.puts.Add(1)
	retain := c.Retain
	if retain <= 0 {
		retain = fetch.DefaultRetain
	}
	ttl := retain
	if !e.Fetched.IsZero() {
		ttl = time.Until(e.Fetched.Add(retain))
	}
	err = c.call(ctx, func(ctx context.Context) error {
		// Redis keeps expiry times in milliseconds; a shorter TTL would
		// be rounded to none at all.
		if ttl < time.Millisecond {
			return c.client.Del(ctx, c.prefix+key).Err()
		}
		return c.client.Set(ctx, c.prefix+key, v, ttl).Err()
	})
	if err != nil {
		return c.failed(ctx, "put", key, err)
	}
	return nil
}

// call runs f under ctx and the cache's Timeout, and returns when f does
// or when either ends, whichever is first; a success closes the count of
// failures in a row.
func (c *Cache) call(ctx context.Context, f func(context.Context) error) error {
	// A client that stops at a deadline needs no goroutine to watch it,
	// unless the caller may also cancel.
	direct := c.deadlines && ctx.Done() == nil
	if d := c.timeout(); d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	var err error
	if direct {
		err = f(ctx)
	} else {
		err = bounded(ctx, func() error { return f(ctx) })
	}
	if err == nil || errors.Is(err, redis.Nil) {
		if c.br.consecutive.Load() != 0 {
			c.br.consecutive.Store(0)
		}
	}
	return err
}

func (c *Cache) timeout() time.Duration {
	switch {
	case c.Timeout == 0:
		return DefaultTimeout
	case c.Timeout < 0:
		return 0
	}
	return c.Timeout
}

// failed records the failure err of a call under ctx, opens the breaker
// after enough of them in a row, and returns the error to report.
func (c *Cache) failed(ctx context.Context, op, key string, err error) error {
	rerr := c.errorf(op, key, err)
	var reply redis.Error
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		// The caller gave up: no news of Redis.
		return rerr
	case errors.As(err, &reply):
		// Redis answered, quickly: not what the breaker is for.
		c.br.replyErrors.Add(1)
		c.br.consecutive.Store(0)
		return rerr
	}
	c.br.failures.Add(1)
	n := c.br.consecutive.Add(1)
	c.br.mu.Lock()
	c.br.lastErr = rerr
	if n >= int64(c.failuresToOpen()) && !c.br.open.Load() {
		c.br.open.Store(true)
		c.br.opens.Add(1)
		c.br.openSince = time.Now()
		if !c.br.probing && !c.br.closed {
			c.br.probing = true
			go c.probe()
		}
	}
	c.br.mu.Unlock()
	return rerr
}

func (c *Cache) failuresToOpen() int {
	if c.Breaker.Failures > 0 {
		return c.Breaker.Failures
	}
	return defaultBreakerFailures
}

// probe runs while the breaker is open: it sends PING at growing
// intervals and closes the breaker at the first answer. It ends then,
// at Close, or when the client is closed (the breaker stays open).
func (c *Cache) probe() {
	wait := c.Breaker.Probe
	if wait <= 0 {
		wait = defaultBreakerProbe
	}
	maxWait := c.Breaker.MaxProbe
	if maxWait <= 0 {
		maxWait = defaultBreakerMaxProbe
	}
	maxWait = max(maxWait, wait)
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-c.br.stop:
			c.endProbe(false)
			return
		}
		// Both may be ready: Close wins.
		select {
		case <-c.br.stop:
			c.endProbe(false)
			return
		default:
		}
		c.br.probes.Add(1)
		ctx, cancel := context.WithTimeout(context.Background(), cmp.Or(c.timeout(), DefaultTimeout))
		err := bounded(ctx, func() error { return c.client.Ping(ctx).Err() })
		cancel()
		if err == nil {
			c.endProbe(true)
			return
		}
		c.br.failedProbes.Add(1)
		c.br.mu.Lock()
		c.br.lastErr = c.errorf("ping", "", err)
		c.br.mu.Unlock()
		if errors.Is(err, redis.ErrClosed) {
			c.endProbe(false)
			return
		}
		wait = min(2*wait, maxWait)
		t.Reset(wait)
	}
}

// endProbe ends the probe goroutine, closing the breaker if Redis
// answered.
func (c *Cache) endProbe(answered bool) {
	c.br.mu.Lock()
	defer c.br.mu.Unlock()
	c.br.probing = false
	if answered {
		c.br.consecutive.Store(0)
		c.br.open.Store(false)
		c.br.openSince = time.Time{}
	}
}

// A redisError is an error of a Cache: the operation, the key and
// the cause, with the server named and its password never repeated.
type redisError struct {
	name, secret string
	op, key      string
	err          error
}

func (c *Cache) errorf(op, key string, err error) error {
	return &redisError{name: c.name, secret: c.secret, op: op, key: key, err: err}
}

func (e *redisError) Error() string {
	var b strings.Builder
	b.WriteString("fetch: redis ")
	if e.name != "" {
		b.WriteString(e.name)
		b.WriteString(": ")
	}
	b.WriteString(e.op)
	if e.key != "" {
		b.WriteString(" ")
		b.WriteString(strconv.Quote(e.key))
	}
	b.WriteString(": ")
	b.WriteString(scrubSecret(e.err.Error(), e.secret))
	return b.String()
}

func (e *redisError) Unwrap() error { return e.err }

// bounded runs f, which passes ctx to the client, and returns when it
// does or when ctx is done, whichever is first. A go-redis client stops
// waiting for a reply at ctx's deadline only when its
// ContextTimeoutEnabled option is set, and at cancellation never; this
// makes any client honour ctx. An abandoned call ends in the background
// within the client's read timeout.
func bounded(ctx context.Context, f func() error) error {
	if ctx.Done() == nil {
		return f()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
