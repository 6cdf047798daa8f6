// Package rediscache is a fetch.Cache in Redis, which a fleet of crawlers
// shares, through the go-redis client (github.com/redis/go-redis). It is
// a package of its own so that a program that imports fetch does not link
// go-redis.
//
//	rc, err := rediscache.Open("redis://:PASSWORD@redis.internal:6379/0")
//	if err != nil { … }
//	defer rc.Close()
//	f := &fetch.Fetcher{Cache: fetch.Layered(fetch.NewMemoryCache(0), rc)}
//
// The MemoryCache in front keeps the rules compiled between calls, and
// keeps a crawler working through an outage of Redis; the package
// fetch/cachespec opens the same from "redis://…". New wraps a client the
// program made itself (a cluster, a ring, a failover client).
//
// An outage of Redis costs a fetch, never a "disallowed": each call is
// bounded by Cache.Timeout, and a circuit breaker skips Redis after a few
// failures in a row until it answers a PING again (see Cache). Errors
// name the server, never the user name or password.
//
// go-redis reports failed dials through its own package-wide logger, to
// standard error unless the program calls redis.SetLogger; this package
// never sets it, since that would change it for the whole program.
//
// An entry's key expires fetch.DefaultRetain (60 days) after its fetch,
// so that the last good copy outlives the 30-day outage window: after 30
// days unreachable, Google uses the last cached copy, or crawls freely
// when it has none ("How Google interprets the robots.txt
// specification",
// https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt),
// and RFC 9309 §2.3.1.4 (https://www.rfc-editor.org/rfc/rfc9309) allows a
// cached copy after "a reasonably long period of time (for example, 30
// days)". Redis keeps expiry times in milliseconds
// (https://redis.io/docs/latest/commands/set/). The URLs of Open are
// go-redis's (redis.ParseURL), with the percent-encoding of RFC 3986
// §2.1 (https://www.rfc-editor.org/rfc/rfc3986).
package rediscache
