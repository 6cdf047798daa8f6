package rediscache

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/fetch/internal/cachetest"
	"github.com/robotskit/robots/fetch/internal/redistest"
)

// cacheTestClient returns a client of addr with the timeouts Open gives,
// closed when t ends.
func cacheTestClient(t testing.TB, addr string) *redis.Client {
	redistest.Quiet()
	c := redis.NewClient(shortTimeouts(&redis.Options{Addr: addr}))
	t.Cleanup(func() { c.Close() })
	return c
}

// cacheTestRedis returns a Cache on a server for t, under a prefix of its
// own, whose keys are deleted when t ends.
func cacheTestRedis(t testing.TB) *Cache {
	t.Helper()
	client := cacheTestClient(t, redistest.Addr(t))
	return New(client, redistest.Prefix(t, client, "robots-test"))
}

// TestCacheBehaviour runs the checks every fetch.Cache must pass (see
// internal/cachetest) against a Cache, alone and behind a MemoryCache.
func TestCacheBehaviour(t *testing.T) {
	for _, impl := range []struct {
		name string
		open func(t *testing.T) fetch.Cache
	}{
		{"redis", func(t *testing.T) fetch.Cache { return cacheTestRedis(t) }},
		{"layered/memory+redis", func(t *testing.T) fetch.Cache {
			return fetch.Layered(fetch.NewMemoryCache(0), cacheTestRedis(t))
		}},
	} {
		t.Run(impl.name, func(t *testing.T) { cachetest.Run(t, impl.open(t)) })
	}
}

func BenchmarkRedisCacheGet(b *testing.B) {
	cachetest.BenchGet(b, cacheTestRedis(b))
}

// TestRedisCacheOutage: when Redis goes away, Get and Put of a Cache
// fail within the cache's Timeout, the breaker opens after three of them
// (and later calls fail at once, naming ErrUnavailable), and
// Layered(memory, redis) still serves what memory holds and keeps what
// is put.
func TestRedisCacheOutage(t *testing.T) {
	srv := redistest.Start(t)
	rc := New(cacheTestClient(t, srv.Addr), "")
	mem := fetch.NewMemoryCache(0)
	l := fetch.Layered(mem, rc)
	ctx := context.Background()
	es := cachetest.Entries()
	if err := l.Put(ctx, "k1", es[0].E); err != nil {
		t.Fatal(err)
	}
	if e, err := rc.Get(ctx, "k1"); err != nil || e == nil {
		t.Fatalf("before the outage: Get = %v, %v", e, err)
	}

	srv.Stop()

	// Each call is bounded by DefaultTimeout, exactly so on synctest's
	// fake clock in TestRedisCacheContext and TestRedisBreakerSilent;
	// against this stopped server it fails sooner, its connection
	// refused. The second more is for a loaded machine, where the time
	// counted here includes the goroutines' waits for a CPU.
	const bound = DefaultTimeout + time.Second
	timed := func(name string, f func() error) error {
		t.Helper()
		start := time.Now()
		err := f()
		took := time.Since(start)
		t.Logf("%s during the outage: %v", name, took)
		if took > bound {
			t.Errorf("%s took %v during the outage, want ≤ %v", name, took, bound)
		}
		return err
	}
	for i := range 3 { // the first call after the outage, and later ones
		err := timed("Cache.Get", func() error { _, err := rc.Get(ctx, "k1"); return err })
		if err == nil || !strings.Contains(err.Error(), "redis") {
			t.Errorf("call %d: Cache.Get during the outage: %v, want an error naming Redis", i, err)
		}
		err = timed("Cache.Put", func() error { return rc.Put(ctx, "k1", es[1].E) })
		if err == nil || !strings.Contains(err.Error(), "redis") {
			t.Errorf("call %d: Cache.Put during the outage: %v, want an error naming Redis", i, err)
		}
	}

	st := rc.Stats()
	if !st.Open || st.Opens != 1 || st.Failures != 3 || st.SkippedGets != 1 || st.DroppedPuts != 2 {
		t.Errorf("after 6 calls to a stopped Redis: %+v; want open after 3 failures (get, put, get), then 1 Get skipped and 2 Puts dropped", st)
	}
	if _, err := rc.Get(ctx, "k1"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Get with the breaker open: %v, want ErrUnavailable", err)
	}

	var got *fetch.Entry
	err := timed("Layered.Get", func() error { var err error; got, err = l.Get(ctx, "k1"); return err })
	// Redis is down: only memory can answer.
	if err != nil || got == nil || cachetest.Diff(got, es[0].E) != "" {
		t.Errorf("Layered.Get of an entry in memory = %v, %v; want it, nil", got, err)
	}
	err = timed("Layered.Put", func() error { return l.Put(ctx, "k2", es[2].E) })
	if err == nil {
		t.Error("Layered.Put during the outage reported no error")
	}
	if got, err := l.Get(ctx, "k2"); err != nil || got == nil || cachetest.Diff(got, es[2].E) != "" {
		t.Errorf("Layered.Get of an entry put during the outage = %v, %v", got, err)
	}
	err = timed("Layered.Get of a miss", func() error { var err error; got, err = l.Get(ctx, "k3"); return err })
	if err != nil || got != nil {
		t.Errorf("Layered.Get of a missing key = %v, %v; want nil, nil (memory answered)", got, err)
	}
}

// TestRedisCacheTTL: a key expires Retain after the entry's fetch; an
// entry older than that deletes the key.
func TestRedisCacheTTL(t *testing.T) {
	rc := cacheTestRedis(t)
	client := rc.client
	ctx := context.Background()
	now := time.Now()
	for _, tc := range []struct {
		name    string
		retain  time.Duration
		fetched time.Time
		want    time.Duration // 0: no key
	}{
		{"half an hour old", time.Hour, now.Add(-30 * time.Minute), 30 * time.Minute},
		{"never fetched", time.Hour, time.Time{}, time.Hour},
		{"too old", time.Hour, now.Add(-2 * time.Hour), 0},
		{"default retention", 0, now, 60 * 24 * time.Hour},
	} {
		rc.Retain = tc.retain
		key := "ttl " + tc.name
		// An older value is there first: a Put replaces or removes it.
		if err := client.Set(ctx, rc.prefix+key, "old", 0).Err(); err != nil {
			t.Fatal(err)
		}
		if err := rc.Put(ctx, key, &fetch.Entry{Fetched: tc.fetched}); err != nil {
			t.Fatal(err)
		}
		ttl, err := client.PTTL(ctx, rc.prefix+key).Result()
		if err != nil {
			t.Fatal(err)
		}
		if tc.want == 0 {
			if ttl != -2 { // -2: no such key
				t.Errorf("%s: key left with TTL %v", tc.name, ttl)
			}
			continue
		}
		if d := tc.want - ttl; d < 0 || d > time.Minute {
			t.Errorf("%s: TTL %v, want %v", tc.name, ttl, tc.want)
		}
	}
}

// TestRedisCacheErrors: a value that is not an entry is an error, as is a
// server that never answers, once the context is done.
func TestRedisCacheErrors(t *testing.T) {
	rc := cacheTestRedis(t)
	ctx := context.Background()
	if err := rc.client.Set(ctx, rc.prefix+"bad", "not an entry", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if e, err := rc.Get(ctx, "bad"); err == nil {
		t.Errorf("Get of a corrupt value = %v, nil", e)
	}
	if err := rc.Put(ctx, "k", nil); err == nil {
		t.Error("Put of a nil entry succeeded")
	}
	if err := rc.Put(ctx, "k", &fetch.Entry{Fetched: time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)}); err == nil {
		t.Error("Put of an entry that cannot be encoded succeeded")
	}
}

// TestRedisCacheContext: a server that accepts connections and never
// answers holds a call no longer than the context allows, even with a
// client that has no timeouts of its own. Time is synctest's fake clock:
// the call ends at the deadline, to the nanosecond.
func TestRedisCacheContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		client := silentRedis(t)
		rc := New(client, "")
		for _, call := range []struct {
			name string
			f    func(ctx context.Context) error
		}{
			{"Get", func(ctx context.Context) error { _, err := rc.Get(ctx, "k"); return err }},
			{"Put", func(ctx context.Context) error { return rc.Put(ctx, "k", &fetch.Entry{}) }},
		} {
			const deadline = 100 * time.Millisecond
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			start := time.Now()
			err := call.f(ctx)
			took := time.Since(start)
			cancel()
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("%s: %v, want context.DeadlineExceeded", call.name, err)
			}
			if took != deadline {
				t.Errorf("%s took %v with a %v deadline", call.name, took, deadline)
			}
		}
		// A cancelled context fails at once.
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		start := time.Now()
		if _, err := rc.Get(ctx, "k"); !errors.Is(err, context.Canceled) || time.Since(start) != 0 {
			t.Errorf("Get with a cancelled context: %v after %v", err, time.Since(start))
		}
	})
}

// TestRedisCachePrefix: keys are the prefix, "robots:" by default, and the
// Cache's key.
func TestRedisCachePrefix(t *testing.T) {
	addr := redistest.Addr(t)
	client := cacheTestClient(t, addr)
	ctx := context.Background()
	key := fmt.Sprintf("prefix-test-%d-%d", os.Getpid(), time.Now().UnixNano())
	t.Cleanup(func() { client.Del(ctx, "robots:"+key) })
	rc := New(client, "")
	if err := rc.Put(ctx, key, &fetch.Entry{URL: "u"}); err != nil {
		t.Fatal(err)
	}
	v, err := client.Get(ctx, "robots:"+key).Bytes()
	if err != nil {
		t.Fatal(err)
	}
	var e fetch.Entry
	if err := e.UnmarshalBinary(v); err != nil || e.URL != "u" {
		t.Errorf("value under robots:%s = %+v, %v", key, &e, err)
	}
}

// silentRedis returns a client of a server that accepts connections and
// never answers, with no timeouts of its own, for a synctest bubble. The
// connections are in-memory pipes (net.Pipe) whose server end reads every
// command and answers none, so that a call waiting for an answer is
// durably blocked and the bubble's fake clock runs to the call's deadline,
// however loaded the machine. An hour later the server hangs up and
// refuses new connections: a call that ignores its deadline fails the
// test instead of hanging it. The client and the pipes close when t ends.
func silentRedis(t *testing.T) *redis.Client {
	t.Helper()
	var (
		mu     sync.Mutex
		conns  []net.Conn
		hungUp bool
	)
	hangUp := func() {
		mu.Lock()
		defer mu.Unlock()
		hungUp = true
		for _, c := range conns {
			c.Close()
		}
	}
	dial := func(context.Context, string, string) (net.Conn, error) {
		mu.Lock()
		defer mu.Unlock()
		if hungUp {
			return nil, errors.New("silent server: hung up")
		}
		client, server := net.Pipe()
		conns = append(conns, server)
		go io.Copy(io.Discard, server)
		return client, nil
	}
	ended := make(chan struct{})
	go func() {
		select {
		case <-time.After(time.Hour):
			hangUp()
		case <-ended:
		}
	}()
	redistest.Quiet()
	// The address is never dialled; it is an IP so that the client
	// resolves no name, which a bubble must not do.
	client := redis.NewClient(&redis.Options{Addr: "192.0.2.1:6379", Dialer: dial, ReadTimeout: -1, WriteTimeout: -1, MaxRetries: -1})
	t.Cleanup(func() {
		close(ended)
		client.Close()
		hangUp()
	})
	return client
}
