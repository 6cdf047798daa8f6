package server

import (
	lrulist "container/list"
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"
)

// limiter gives each client a token bucket of perSecond requests per
// second, with a burst of twice that (at least 1). It is on by default
// (Config.RateLimit, DefaultRateLimit). A client is an IPv4 address or an
// IPv6 /64 (clientKey): one subscriber of an IPv6 network is commonly
// given a whole /64 (RFC 6177 §2 recommends at least that much per end
// site), so counting its 2^64 addresses apart would be no limit at all.
//
// The table holds at most maxClients clients. A client idle for
// idleAfter, whose bucket has long been full again, is dropped as if
// never seen; when the table is full all the same, the client idle the
// longest goes, one for each newcomer: a flood of new addresses pushes
// out the oldest entries only, never clears the table.
type limiter struct {
	mu        sync.Mutex
	perSecond rate.Limit
	burst     int
	clients   map[netip.Prefix]*lrulist.Element // of *client
	lru       lrulist.List                      // most recently seen first
	now       func() time.Time
}

type client struct {
	key  netip.Prefix
	lim  *rate.Limiter
	seen time.Time
}

const (
	// maxClients bounds the table.
	maxClients = 10000
	// idleAfter is how long a client goes unseen before it is dropped.
	idleAfter = time.Minute
)

func newLimiter(perSecond float64) *limiter {
	b := int(2 * perSecond)
	if b < 1 {
		b = 1
	}
	return &limiter{perSecond: rate.Limit(perSecond), burst: b, clients: map[netip.Prefix]*lrulist.Element{}, now: time.Now}
}

// allow takes a token from the bucket of client k.
func (l *limiter) allow(k netip.Prefix) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	e, ok := l.clients[k]
	// The least recently seen go first: those idle, then, when the table
	// is full and k is new, the oldest one.
	for b := l.lru.Back(); b != nil && b != e; b = l.lru.Back() {
		if now.Sub(b.Value.(*client).seen) <= idleAfter {
			break
		}
		l.drop(b)
	}
	if !ok {
		if len(l.clients) >= maxClients {
			l.drop(l.lru.Back())
		}
		e = l.lru.PushFront(&client{key: k, lim: rate.NewLimiter(l.perSecond, l.burst)})
		l.clients[k] = e
	} else {
		l.lru.MoveToFront(e)
	}
	c := e.Value.(*client)
	c.seen = now
	return c.lim.AllowN(now, 1)
}

func (l *limiter) drop(e *lrulist.Element) {
	l.lru.Remove(e)
	delete(l.clients, e.Value.(*client).key)
}

// size is the number of clients in the table.
func (l *limiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.clients)
}

// clientKey is the bucket of a client address: the address itself for
// IPv4 (an IPv4-mapped IPv6 address is IPv4), its /64 for IPv6.
func clientKey(a netip.Addr) netip.Prefix {
	a = a.Unmap()
	if a.Is4() {
		return netip.PrefixFrom(a, 32)
	}
	p, _ := a.WithZone("").Prefix(64)
	return p
}

// clientAddr is the address of the client of r: its peer, or, when the
// peer is a proxy of trusted, the address that proxy (and any trusted
// proxy before it) received the request from, the rightmost address of
// X-Forwarded-For that is not a trusted proxy's (RFC 7239 §5.2 and
// MDN's X-Forwarded-For page describe the header; only the addresses
// trusted proxies appended can be believed, the leftmost being the
// client's own claim). ok is false when the peer's address cannot be
// read.
func clientAddr(r *http.Request, trusted []netip.Prefix) (a netip.Addr, ok bool) {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}, false
	}
	a = ap.Addr().Unmap()
	if !inAny(trusted, a) {
		return a, true
	}
	hops := r.Header.Values("X-Forwarded-For")
	for i := len(hops) - 1; i >= 0; i-- {
		fields := strings.Split(hops[i], ",")
		for j := len(fields) - 1; j >= 0; j-- {
			f := strings.TrimSpace(fields[j])
			if f == "" {
				continue
			}
			h, err := netip.ParseAddr(f)
			if err != nil {
				// Not an address: the chain cannot be read past it, so the
				// last hop read stands for the client.
				return a, true
			}
			a = h.Unmap()
			if !inAny(trusted, a) {
				return a, true
			}
		}
	}
	return a, true
}

func inAny(ps []netip.Prefix, a netip.Addr) bool {
	for _, p := range ps {
		if p.Contains(a) {
			return true
		}
	}
	return false
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

// A fetchPool bounds the outbound fetches the server waits on, apart
// from the gate's CPU slots: at most Config.MaxFetches at once, and at
// most Config.MaxFetchesPerHost to one host, so that slow or silent sites
// hold connections and goroutines, never a slot of the gate, and one site
// cannot take every fetch. A request that finds no room waits at most the
// queue's wait, then is answered 503 with Retry-After.
type fetchPool struct {
	total   *semaphore.Weighted
	perHost int64
	wait    time.Duration
	mu      sync.Mutex
	hosts   map[string]*hostSlots
	waiting atomic.Int64
	working atomic.Int64
}

// hostSlots are the fetch slots of one host, shared by the requests that
// use them (users); the last to leave removes them.
type hostSlots struct {
	sem   *semaphore.Weighted
	users int
}

func newFetchPool(cfg Config) *fetchPool {
	total, per := int64(cfg.MaxFetches), int64(cfg.MaxFetchesPerHost)
	if total <= 0 {
		total = DefaultMaxFetches
	}
	if per <= 0 {
		per = DefaultMaxFetchesPerHost
	}
	wait := cfg.QueueWait
	if wait <= 0 {
		wait = DefaultQueueWait
	}
	return &fetchPool{total: semaphore.NewWeighted(total), perHost: min(per, total), wait: wait, hosts: map[string]*hostSlots{}}
}

// enter takes a fetch slot for host, and one of the pool, waiting for
// them at most the pool's wait, and returns the function that gives them
// back. Its error is an *apiError, or ctx's error when ctx ended while it
// waited.
func (p *fetchPool) enter(ctx context.Context, host string) (release func(), err error) {
	host = strings.ToLower(host)
	p.mu.Lock()
	hs := p.hosts[host]
	if hs == nil {
		hs = &hostSlots{sem: semaphore.NewWeighted(p.perHost)}
		p.hosts[host] = hs
	}
	hs.users++
	p.mu.Unlock()
	leave := func() {
		p.mu.Lock()
		if hs.users--; hs.users == 0 {
			delete(p.hosts, host)
		}
		p.mu.Unlock()
	}
	wctx, cancel := context.WithTimeout(ctx, p.wait)
	defer cancel()
	var stage string
	if !hs.sem.TryAcquire(1) {
		p.waiting.Add(1)
		err = hs.sem.Acquire(wctx, 1)
		p.waiting.Add(-1)
		stage = fmt.Sprintf("the server already waits on %d answers from %s", p.perHost, host)
	}
	if err == nil && !p.total.TryAcquire(1) {
		p.waiting.Add(1)
		if err = p.total.Acquire(wctx, 1); err != nil {
			hs.sem.Release(1)
		}
		p.waiting.Add(-1)
		stage = "the server already waits on as many remote sites as it may"
	}
	if err != nil {
		leave()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		retry := max(1, int((p.wait+time.Second-1)/time.Second))
		return nil, &apiError{status: http.StatusServiceUnavailable, code: "overloaded", why: "fetch_queue_timeout", retry: retry,
			msg: fmt.Sprintf("%s, and none answered within %v; try again in %d s", stage, p.wait, retry)}
	}
	p.working.Add(1)
	return func() {
		p.working.Add(-1)
		p.total.Release(1)
		hs.sem.Release(1)
		leave()
	}, nil
}

// active and queued are the fetches under way and waiting for a slot.
func (p *fetchPool) active() int { return int(p.working.Load()) }
func (p *fetchPool) queued() int { return int(p.waiting.Load()) }
