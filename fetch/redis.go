package fetch

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// defaultRedisPrefix starts every key a RedisCache makes, unless told
// otherwise, so that the cache can share a Redis database.
const defaultRedisPrefix = "robots:"

// A RedisCache is a Cache in Redis, which a fleet of crawlers can share:
// each entry is a string value of its MarshalBinary bytes, under the
// prefix and the key, which expires Retain after the entry's fetch.
// Each Get decodes a new Entry, so put a MemoryCache in front of it (see
// Layered), which also keeps a crawler working through a Redis outage.
// A RedisCache is safe for concurrent use.
type RedisCache struct {
	// Retain is how long an entry is kept after its Fetched time (an
	// entry whose Fetched time is zero is kept Retain after the Put).
	// Zero means DefaultRetain. Set it before using the cache.
	Retain time.Duration

	client redis.UniversalClient
	prefix string
}

// NewRedisCache returns a cache that keeps its entries in Redis through
// client, under keys that start with prefix ("robots:" when empty). The
// client's own timeouts bound each call, as well as the context of the
// call; the client remains the caller's to close. go-redis reports failed
// connections through its own process-wide logger, which writes to
// standard error; a program that wants silence calls redis.SetLogger.
func NewRedisCache(client redis.UniversalClient, prefix string) *RedisCache {
	if prefix == "" {
		prefix = defaultRedisPrefix
	}
	return &RedisCache{client: client, prefix: prefix}
}

// Get returns the entry stored under key, or nil when there is none. A
// failure of Redis, or a value that cannot be decoded, is an error.
func (c *RedisCache) Get(ctx context.Context, key string) (*Entry, error) {
	var v []byte
	err := bounded(ctx, func() error {
		var err error
		v, err = c.client.Get(ctx, c.prefix+key).Bytes()
		return err
	})
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("fetch: redis get %q: %w", key, err)
	}
	e := new(Entry)
	if err := e.UnmarshalBinary(v); err != nil {
		return nil, fmt.Errorf("fetch: redis get %q: %w", key, err)
	}
	return e, nil
}

// Put stores e under key until Retain after its Fetched time; an entry
// already older than that removes the key instead.
func (c *RedisCache) Put(ctx context.Context, key string, e *Entry) error {
	v, err := e.MarshalBinary()
	if err != nil {
		return err
	}
	retain := c.Retain
	if retain <= 0 {
		retain = DefaultRetain
	}
	ttl := retain
	if !e.Fetched.IsZero() {
		ttl = time.Until(e.Fetched.Add(retain))
	}
	err = bounded(ctx, func() error {
		// Redis keeps expiry times in milliseconds; a shorter TTL would
		// be rounded to none at all.
		if ttl < time.Millisecond {
			return c.client.Del(ctx, c.prefix+key).Err()
		}
		return c.client.Set(ctx, c.prefix+key, v, ttl).Err()
	})
	if err != nil {
		return fmt.Errorf("fetch: redis put %q: %w", key, err)
	}
	return nil
}

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
