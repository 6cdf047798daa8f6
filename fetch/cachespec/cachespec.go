// Package cachespec opens a robots.txt cache of package fetch from a
// string, such as the value of a command-line flag: the MemoryCache of
// package fetch, the bbolt file of package fetch/diskcache or the Redis
// server of package fetch/rediscache. It imports both backends, and so
// links bbolt and go-redis; a program that makes its cache itself
// imports only the one it uses.
//
//	c, closer, err := cachespec.Open(*cacheFlag) // "disk:/var/cache/robots.db?max=1GiB"
//	if err != nil { … }
//	defer closer.Close()
//	f := &fetch.Fetcher{Cache: c}
//
// The forms of a spec, and the go-redis URL of "redis://…", are
// described at Open; the sources the caches follow (RFC 9309, Google's
// robots.txt documentation, bbolt's file layout, Redis's expiry) are
// cited in the packages fetch, fetch/diskcache and fetch/rediscache.
package cachespec

import (
	"fmt"
	"io"
	"strings"

	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/fetch/diskcache"
	"github.com/robotskit/robots/fetch/rediscache"
)

// cacheSpecs lists the forms Open accepts, for its error.
const cacheSpecs = `"memory", "disk:PATH", "redis://[USER:PASSWORD@]HOST[:PORT][/DB][?OPTIONS]" or "rediss://…"`

// Open opens the cache that spec names, for a command-line flag:
//
//   - "memory" or "": fetch.NewMemoryCache(0);
//   - "disk:PATH" or "disk:PATH?max=SIZE": the diskcache.Cache at PATH,
//     behind a MemoryCache. Its file stays under SIZE (see
//     diskcache.Options.MaxBytes): a number of bytes with an optional
//     unit, B, KB, MB, GB (powers of 1000) or KiB, MiB, GiB (powers of
//     1024), at least 1 MiB, such as 100MB or 1GiB; "none" for no bound;
//     256 MiB without max (diskcache.DefaultMaxBytes). The options start
//     at the last "?" of the spec: a PATH with a "?" in it takes one
//     more, as in "disk:a?b.db?" (see diskcache.OpenSpec);
//   - "redis://…" or "rediss://…" (go-redis's URL form, redis.ParseURL):
//     a rediscache.Cache behind a MemoryCache. The client's dial, read
//     and write timeouts are 250 ms and it retries a command once, unless
//     the URL says otherwise; each Get and Put waits at most 500 ms (or
//     the URL's dial and read timeouts together, if longer), and the
//     cache's circuit breaker skips Redis after 3 failures in a row until
//     it answers again (see rediscache.Open and rediscache.Cache). Redis
//     is not contacted until the first Get or Put. So an outage of Redis
//     neither stops a robot from starting nor slows it much. The password
//     may hold "/", "@" and ":" as they are ("%" is written %25); errors
//     never show it.
//
// The disk and Redis caches have a MemoryCache in front (see
// fetch.Layered) so that a hit costs neither decoding nor compiling the
// rules again. The Closer closes the file, or the Redis cache and its
// client; for "memory" it does nothing.
//
// go-redis reports failed dials through its own package-wide logger, to
// standard error unless the program calls redis.SetLogger; this package
// never sets it, since that would change it for the whole program.
func Open(spec string) (fetch.Cache, io.Closer, error) {
	switch {
	case spec == "" || spec == "memory":
		return fetch.NewMemoryCache(0), nopCloser{}, nil
	case strings.HasPrefix(spec, "disk:"):
		d, err := diskcache.OpenSpec(spec)
		if err != nil {
			return nil, nil, err
		}
		return fetch.Layered(fetch.NewMemoryCache(0), d), d, nil
	case strings.HasPrefix(spec, "redis://") || strings.HasPrefix(spec, "rediss://"):
		rc, err := rediscache.Open(spec)
		if err != nil {
			return nil, nil, err
		}
		return fetch.Layered(fetch.NewMemoryCache(0), rc), rc, nil
	}
	return nil, nil, fmt.Errorf("fetch: unknown cache %q: want %s", rediscache.RedactURL(spec), cacheSpecs)
}

type nopCloser struct{}

func (nopCloser) Close() error { return nil }
