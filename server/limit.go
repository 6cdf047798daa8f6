package server

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"
)

// limiter gives each client address a token bucket of perSecond requests
// per second, with a burst of twice that (at least 1). It is on by default
// (Config.RateLimit, DefaultRateLimit).
type limiter struct {
	mu        sync.Mutex
	perSecond rate.Limit
	burst     int
	clients   map[string]*client
	swept     time.Time
}

type client struct {
	lim  *rate.Limiter
	seen time.Time
}

// maxClients bounds the table; idle clients are dropped first.
const maxClients = 10000

func newLimiter(perSecond float64) *limiter {
	b := int(2 * perSecond)
	if b < 1 {
		b = 1
	}
	return &limiter{perSecond: rate.Limit(perSecond), burst: b, clients: map[string]*client{}}
}

func (l *limiter) allow(ip string) bool {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.clients) >= maxClients || now.Sub(l.swept) > time.Minute {
		l.sweep(now)
	}
	c, ok := l.clients[ip]
	if !ok {
		c = &client{lim: rate.NewLimiter(l.perSecond, l.burst)}
		l.clients[ip] = c
	}
	c.seen = now
	return c.lim.AllowN(now, 1)
}

// sweep drops clients idle for a minute, and everyone if the table is
// still full (a flood of addresses must not grow memory).
func (l *limiter) sweep(now time.Time) {
	l.swept = now
	for ip, c := range l.clients {
		if now.Sub(c.seen) > time.Minute {
			delete(l.clients, ip)
		}
	}
	if len(l.clients) >= maxClients {
		clear(l.clients)
	}
}

// A gate admits a bounded number of heavy requests at once: it has
// 2×GOMAXPROCS slots (Config.MaxActive), and a request takes one slot for
// each 256 KiB of its body (gateUnit), at least one and at most all, so
// that the memory of the requests at work, a multiple of their size, is
// bounded as well as their number. When the slots are taken, a bounded
// number more wait for theirs, each at most a few seconds, in the order
// they came; the others are refused at once. A refusal is a 503 with
// Retry-After.
type gate struct {
	sem      *semaphore.Weighted
	size     int64
	maxQueue int64
	waiting  atomic.Int64
	working  atomic.Int64
	wait     time.Duration
}

// gateUnit is the body size a slot stands for.
const gateUnit = 256 << 10

func newGate(cfg Config) *gate {
	active := int64(cfg.MaxActive)
	if active <= 0 {
		active = 2 * int64(runtime.GOMAXPROCS(0))
	}
	queue := int64(cfg.MaxQueue)
	switch {
	case queue == 0:
		queue = DefaultMaxQueue
	case queue < 0:
		queue = 0
	}
	wait := cfg.QueueWait
	if wait <= 0 {
		wait = DefaultQueueWait
	}
	return &gate{sem: semaphore.NewWeighted(active), size: active, maxQueue: queue, wait: wait}
}

// slots is how many slots a request with a body of n octets takes (n < 0:
// unknown, as large as allowed).
func (g *gate) slots(n int64) int64 {
	if n < 0 || n > MaxBody {
		n = MaxBody
	}
	return min(max(1, (n+gateUnit-1)/gateUnit), g.size)
}

// enter takes the slots of a request with a body of n octets, waiting for
// them if the queue has room, and returns the function that gives them
// back. Its error is an *apiError, or ctx's error when ctx ended while it
// waited.
func (g *gate) enter(ctx context.Context, n int64) (release func(), err error) {
	k := g.slots(n)
	release = func() {
		g.working.Add(-1)
		g.sem.Release(k)
	}
	if g.sem.TryAcquire(k) {
		g.working.Add(1)
		return release, nil
	}
	if g.waiting.Add(1) > g.maxQueue {
		g.waiting.Add(-1)
		return nil, g.refusal("overloaded", fmt.Sprintf("the server is busy: it works on all the requests it can at once and %d more wait; try again in %d s",
			g.maxQueue, g.retryAfter()))
	}
	defer g.waiting.Add(-1)
	wctx, cancel := context.WithTimeout(ctx, g.wait)
	defer cancel()
	if err := g.sem.Acquire(wctx, k); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, g.refusal("queue_timeout", fmt.Sprintf("the server is busy: no slot became free within %v; try again in %d s", g.wait, g.retryAfter()))
	}
	g.working.Add(1)
	return release, nil
}

func (g *gate) refusal(reason, msg string) *apiError {
	return &apiError{status: http.StatusServiceUnavailable, code: "overloaded", why: reason, msg: msg, retry: g.retryAfter()}
}

// retryAfter is the Retry-After of a refusal, in seconds: the queue's
// wait.
func (g *gate) retryAfter() int {
	return max(1, int((g.wait+time.Second-1)/time.Second))
}

// active and queued are the requests at work and waiting for slots.
func (g *gate) active() int { return int(g.working.Load()) }
func (g *gate) queued() int { return int(g.waiting.Load()) }
