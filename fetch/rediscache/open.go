package rediscache

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Timeouts and retries of a Redis client made by Open when its URL sets
// none (dial_timeout, read_timeout, write_timeout, max_retries): few and
// short, so that an outage of Redis costs each Get and Put little, and
// the memory layer in front carries on. A Redis on the crawler's network
// answers in a millisecond, and connects (TLS included) in a few.
// go-redis's defaults (5 s timeouts, 3 retries of the command, 5 attempts
// at each dial) made a Get take about a second against a stopped server.
const (
	redisDialTimeout = 250 * time.Millisecond
	redisIOTimeout   = 250 * time.Millisecond
	// One retry, on a new connection, for a connection the server closed
	// while it was idle (after a restart of Redis, say).
	redisMaxRetries = 1
)

// Open returns a Cache in the Redis server that rawURL names, in
// go-redis's URL form (redis.ParseURL):
// "redis://[USER:PASSWORD@]HOST[:PORT][/DB][?OPTIONS]", or "rediss://…"
// for TLS. The password may hold "/", "@" and ":" as they
// are ("%" is written %25); errors never show it, nor the user name.
//
// The client's dial, read and write timeouts are 250 ms and it retries a
// command once, unless the URL says otherwise; each Get and Put waits at
// most DefaultTimeout (500 ms), or the URL's dial and read timeouts
// together if longer (see Cache.Timeout). Redis is not contacted until
// the first Get or Put. So an outage of Redis neither stops a robot from
// starting nor slows it much. Keys start with "robots:".
//
// The Cache owns the client it makes: Close closes it.
func Open(rawURL string) (*Cache, error) {
	opt, err := parseRedisURL(rawURL)
	if err != nil {
		return nil, err
	}
	client := redis.NewClient(shortTimeouts(opt))
	rc := New(client, "")
	rc.owned = client
	// A URL that lengthens the client's timeouts lengthens the bound
	// of each call with them: a dial, then a reply.
	switch {
	case opt.DialTimeout < 0 || opt.ReadTimeout < 0:
		rc.Timeout = -1
	default:
		rc.Timeout = max(DefaultTimeout, opt.DialTimeout+opt.ReadTimeout)
	}
	return rc, nil
}

// parseRedisURL reads a redis:// or rediss:// URL as redis.ParseURL does,
// except that the user information runs to the last "@", so that a
// password may hold "/", "@" and ":" as they are (a "%" is written %25,
// as RFC 3986 §2.1 has it), and that no error repeats the password or
// the user information.
func parseRedisURL(spec string) (*redis.Options, error) {
	shown := RedactURL(spec)
	scheme, rest, _ := strings.Cut(spec, "://")
	var user, pass string
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		user, pass, _ = strings.Cut(rest[:at], ":")
		rest = rest[at+1:]
		var err error
		if user, err = url.PathUnescape(user); err != nil {
			return nil, fmt.Errorf("fetch: cache %q: the user name holds a %% not followed by two hex digits (write %%25 for %%)", shown)
		}
		if pass, err = url.PathUnescape(pass); err != nil {
			return nil, fmt.Errorf("fetch: cache %q: the password holds a %% not followed by two hex digits (write %%25 for %%)", shown)
		}
	}
	opt, err := redis.ParseURL(scheme + "://" + rest)
	if err != nil {
		// url.Error repeats the URL, which holds no credentials now,
		// but shown says it already.
		if ue := (*url.Error)(nil); errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("fetch: cache %q: %w", shown, err)
	}
	opt.Username, opt.Password = user, pass
	return opt, nil
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

// RedactURL returns the URL s with its user information hidden, as the
// errors of Open show it, for a message: the password of USER:PASSWORD@
// becomes xxxxx, and so does the whole of a USER@ (which may be a
// password written without its colon). The user information runs to the
// last "@", so that no part of a password holding "@" or "/" shows. A
// string without "://" is returned as it is.
func RedactURL(s string) string {
	i := strings.Index(s, "://")
	if i < 0 {
		return s
	}
	rest := s[i+3:]
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return s
	}
	if user, _, ok := strings.Cut(rest[:at], ":"); ok {
		return s[:i+3] + user + ":xxxxx" + rest[at:]
	}
	return s[:i+3] + "xxxxx" + rest[at:]
}

// redisServerName returns the server of client for error messages
// (host:port, and /DB when the database is not 0; the addresses of a
// cluster or ring), and the password, which the messages must not show.
func redisServerName(client redis.UniversalClient) (name, password string) {
	switch c := client.(type) {
	case *redis.Client:
		o := c.Options()
		name = o.Addr
		if o.DB != 0 {
			name += "/" + strconv.Itoa(o.DB)
		}
		return name, o.Password
	case *redis.ClusterClient:
		o := c.Options()
		return strings.Join(o.Addrs, ","), o.Password
	case *redis.Ring:
		o := c.Options()
		var addrs []string
		for _, a := range o.Addrs {
			addrs = append(addrs, a)
		}
		slices.Sort(addrs)
		return strings.Join(addrs, ","), o.Password
	}
	return "", ""
}

// minScrubbed is the shortest password scrubSecret looks for: a shorter
// one would match ordinary words of the message, and protects nothing.
const minScrubbed = 4

// scrubSecret replaces the password, as it is and percent-encoded, in an
// error message. go-redis's errors do not quote it; this is a second line
// of defence.
func scrubSecret(msg, secret string) string {
	if len(secret) < minScrubbed {
		return msg
	}
	for _, s := range []string{secret, url.PathEscape(secret), url.QueryEscape(secret)} {
		msg = strings.ReplaceAll(msg, s, "xxxxx")
	}
	return msg
}
