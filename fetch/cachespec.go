package fetch

import (
	"fmt"
	"io"
	"strings"
)

// cacheSpecs lists the forms OpenCache accepts, for its error.
const cacheSpecs = `"memory", "disk:PATH", "redis://[USER:PASSWORD@]HOST[:PORT][/DB][?OPTIONS]" or "rediss://…"`

// OpenCache opens the cache that spec names, for a command-line flag:
//
//   - "memory" or "": NewMemoryCache(0);
//   - "disk:PATH" or "disk:PATH?max=SIZE": the DiskCache at PATH, behind
//     a MemoryCache. Its file stays under SIZE (see DiskOptions.MaxBytes):
//     a number of bytes with an optional unit, B, KB, MB, GB (powers of
//     1000) or KiB, MiB, GiB (powers of 1024), at least 1 MiB, such as
//     100MB or 1GiB; "none" for no bound; 256 MiB without max
//     (DefaultDiskMaxBytes). The options start at the last "?" of the
//     spec: a PATH with a "?" in it takes one more, as in "disk:a?b.db?";
//   - "redis://…" or "rediss://…" (go-redis's URL form, redis.ParseURL):
//     a RedisCache behind a MemoryCache. The client's dial, read and
//     write timeouts are 250 ms and it retries a command once, unless the
//     URL says otherwise; each Get and Put waits at most 500 ms (or the
//     URL's dial and read timeouts together, if longer), and the cache's
//     circuit breaker skips Redis after 3 failures in a row until it
//     answers again (see RedisCache). Redis is not contacted until the
//     first Get or Put. So an outage of Redis neither stops a robot from
//     starting nor slows it much. The password may hold "/", "@" and ":"
//     as they are ("%" is written %25); errors never show it.
//
// The disk and Redis caches have a MemoryCache in front (see Layered) so
// that a hit costs neither decoding nor compiling the rules again. The
// Closer closes the file, or the Redis cache and its client; for
// "memory" it does nothing.
//
// go-redis reports failed dials through its own package-wide logger, to
// standard error unless the program calls redis.SetLogger; this package
// never sets it, since that would change it for the whole program.
func OpenCache(spec string) (Cache, io.Closer, error) {
	switch {
	case spec == "" || spec == "memory":
		return NewMemoryCache(0), nopCloser{}, nil
	case strings.HasPrefix(spec, "disk:"):
		d, err := openDiskSpec(spec)
		if err != nil {
			return nil, nil, err
		}
		return Layered(NewMemoryCache(0), d), d, nil
	case strings.HasPrefix(spec, "redis://") || strings.HasPrefix(spec, "rediss://"):
		return openRedis(spec)
	}
	return nil, nil, fmt.Errorf("fetch: unknown cache %q: want %s", redactURL(spec), cacheSpecs)
}

type nopCloser struct{}

func (nopCloser) Close() error { return nil }
