package fetch

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Timeouts and retries of a Redis client made by OpenCache when its URL
// sets none (dial_timeout, read_timeout, write_timeout, max_retries):
// few and short, so that an outage of Redis costs each Get and Put
// little, and the memory layer in front carries on. A Redis on the
// crawler's network answers in a millisecond. go-redis's defaults (5 s
// timeouts, 3 retries of the command, 5 attempts at each dial) made a
// Get take about a second against a stopped server (TestRedisCacheOutage).
const (
	redisDialTimeout = time.Second
	redisIOTimeout   = 500 * time.Millisecond
	// One retry, on a new connection, for a connection the server closed
	// while it was idle (after a restart of Redis, say).
	redisMaxRetries = 1
)

// cacheSpecs lists the forms OpenCache accepts, for its error.
const cacheSpecs = `"memory", "disk:PATH", "redis://[USER:PASSWORD@]HOST[:PORT][/DB][?OPTIONS]" or "rediss://…"`

// OpenCache opens the cache that spec names, for a command-line flag:
//
//   - "memory" or "": NewMemoryCache(0);
//   - "disk:PATH": the DiskCache at PATH, behind a MemoryCache;
//   - "redis://…" or "rediss://…" (go-redis's URL form, redis.ParseURL):
//     a RedisCache behind a MemoryCache. The client's dial timeout is 1 s,
//     its read and write timeouts 500 ms and it retries a command once,
//     unless the URL says otherwise; it is not contacted until the first
//     Get or Put. So an outage of Redis neither stops a robot from
//     starting nor slows it much.
//
// The disk and Redis caches have a MemoryCache in front (see Layered) so
// that a hit costs neither decoding nor compiling the rules again. The
// Closer closes the file or the client; for "memory" it does nothing.
//
// go-redis reports failed dials through its own package-wide logger, to
// standard error unless the program calls redis.SetLogger; this package
// never sets it, since that would change it for the whole program.
func OpenCache(spec string) (Cache, io.Closer, error) {
	switch {
	case spec == "" || spec == "memory":
		return NewMemoryCache(0), nopCloser{}, nil
	case strings.HasPrefix(spec, "disk:"):
		path := strings.TrimPrefix(spec, "disk:")
		if path == "" {
			return nil, nil, fmt.Errorf("fetch: cache %q names no file: want disk:PATH", spec)
		}
		d, err := OpenDiskCache(path)
		if err != nil {
			return nil, nil, err
		}
		return Layered(NewMemoryCache(0), d), d, nil
	case strings.HasPrefix(spec, "redis://") || strings.HasPrefix(spec, "rediss://"):
		opt, err := redis.ParseURL(spec)
		if err != nil {
			// url.Error repeats the URL, password and all.
			if ue := (*url.Error)(nil); errors.As(err, &ue) {
				err = ue.Err
			}
			return nil, nil, fmt.Errorf("fetch: cache %q: %w", redactURL(spec), err)
		}
		client := redis.NewClient(shortTimeouts(opt))
		return Layered(NewMemoryCache(0), NewRedisCache(client, "")), client, nil
	}
	return nil, nil, fmt.Errorf("fetch: unknown cache %q: want %s", redactURL(spec), cacheSpecs)
}

// shortTimeouts sets the timeouts and retries that opt leaves at their
// defaults to the ones above, dials once per attempt, and makes the
// client stop at a context's deadline.
func shortTimeouts(opt *redis.Options) *redis.Options {
	if opt.MaxRetries == 0 {
		opt.MaxRetries = redisMaxRetries
	}
	// A refused connection is not retried within the attempt: the
	// command's own retry is enough. (go-redis has no URL option for it.)
	opt.DialerRetries = 1
	if opt.DialTimeout == 0 {
		opt.DialTimeout = redisDialTimeout
	}
	if opt.ReadTimeout == 0 {
		opt.ReadTimeout = redisIOTimeout
		// Otherwise the write timeout follows the read timeout the URL
		// sets, as in go-redis.
		if opt.WriteTimeout == 0 {
			opt.WriteTimeout = redisIOTimeout
		}
	}
	opt.ContextTimeoutEnabled = true
	return opt
}

// redactURL hides the password of a URL in an error message.
func redactURL(s string) string {
	i := strings.Index(s, "://")
	if i < 0 {
		return s
	}
	rest := s[i+3:]
	at := strings.IndexByte(rest, '@')
	if slash := strings.IndexByte(rest, '/'); at < 0 || (slash >= 0 && slash < at) {
		return s
	}
	userinfo := rest[:at]
	if c := strings.IndexByte(userinfo, ':'); c >= 0 {
		return s[:i+3] + userinfo[:c] + ":xxxxx" + rest[at:]
	}
	return s
}

type nopCloser struct{}

func (nopCloser) Close() error { return nil }
