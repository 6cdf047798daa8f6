package server

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// limiter gives each client address a token bucket of perSecond requests
// per second, with a burst of twice that (at least 1).
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
