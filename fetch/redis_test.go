package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// redisTestEnv names a Redis server (host:port) for the tests to use
// instead of starting their own.
const redisTestEnv = "ROBOTS_TEST_REDIS"

// A redisTestServer is a redis-server started by a test.
type redisTestServer struct {
	addr string
	cmd  *exec.Cmd
	out  bytes.Buffer
	once sync.Once
}

// startRedisServer starts a redis-server of its own on a free port of
// 127.0.0.1, with no persistence and the extra arguments args, and stops
// it when t ends. Without redis-server in PATH the test is skipped, or
// fails when CI=true.
func startRedisServer(t testing.TB, args ...string) *redisTestServer {
	t.Helper()
	// The port is free when looked at, but another process may take it
	// before the server does: then try another.
	for attempt := 0; ; attempt++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		s, err := startRedisServerOn(t, port, args...)
		if err == nil {
			return s
		}
		if attempt == 2 {
			t.Fatal(err)
		}
	}
}

// startRedisServerOn starts a redis-server as startRedisServer does, on
// port, and fails if it does not answer within 5 s.
func startRedisServerOn(t testing.TB, port int, args ...string) (*redisTestServer, error) {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("redis-server is not installed (apt-get install redis-server), and CI=true: %v", err)
		}
		t.Skipf("redis-server not in PATH (apt-get install redis-server, or set %s=host:port): %v", redisTestEnv, err)
	}
	s := &redisTestServer{addr: fmt.Sprintf("127.0.0.1:%d", port)}
	s.cmd = exec.Command(bin, append([]string{"--port", fmt.Sprint(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no"}, args...)...)
	s.cmd.Stdout, s.cmd.Stderr = &s.out, &s.out
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.stop)
	if err := s.waitReady(5 * time.Second); err != nil {
		s.stop()
		return nil, fmt.Errorf("redis-server on %s: %v\n%s", s.addr, err, s.out.String())
	}
	return s, nil
}

// waitReady waits until the server answers PING, for at most d. An
// error reply (NOAUTH, from a server with a password) is an answer.
func (s *redisTestServer) waitReady(d time.Duration) error {
	c := redis.NewClient(&redis.Options{Addr: s.addr, DialTimeout: 200 * time.Millisecond, MaxRetries: -1})
	defer c.Close()
	deadline := time.Now().Add(d)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		err := c.Ping(ctx).Err()
		cancel()
		var reply redis.Error
		if err == nil || errors.As(err, &reply) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no answer to PING within %v: %w", d, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop kills the server (the process this test started, by its id) and
// waits for it to exit.
func (s *redisTestServer) stop() {
	s.once.Do(func() {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
	})
}

// cacheTestRedisAddr returns the address of a Redis server for t: the one
// redisTestEnv names, or one of its own.
func cacheTestRedisAddr(t testing.TB) string {
	t.Helper()
	if addr := os.Getenv(redisTestEnv); addr != "" {
		return addr
	}
	return startRedisServer(t).addr
}

var redisTestPrefixes atomic.Int64

// redisQuiet silences go-redis, which logs each failed dial to stderr
// through a global logger (redis.SetLogger); a test binary may.
var redisQuiet sync.Once

type redisDiscardLogger struct{}

func (redisDiscardLogger) Printf(context.Context, string, ...any) {}

// cacheTestClient returns a client of addr with the timeouts OpenCache
// gives, closed when t ends.
func cacheTestClient(t testing.TB, addr string) *redis.Client {
	redisQuiet.Do(func() { redis.SetLogger(redisDiscardLogger{}) })
	c := redis.NewClient(shortTimeouts(&redis.Options{Addr: addr}))
	t.Cleanup(func() { c.Close() })
	return c
}

// cacheTestRedis returns a RedisCache on a server for t, under a prefix of
// its own, whose keys are deleted when t ends.
func cacheTestRedis(t testing.TB) *RedisCache {
	t.Helper()
	addr := cacheTestRedisAddr(t)
	client := cacheTestClient(t, addr)
	prefix := fmt.Sprintf("robots-test:%d:%d:", os.Getpid(), redisTestPrefixes.Add(1))
	t.Cleanup(func() {
		ctx := context.Background()
		iter := client.Scan(ctx, 0, prefix+"*", 100).Iterator()
		for iter.Next(ctx) {
			client.Del(ctx, iter.Val())
		}
	})
	return NewRedisCache(client, prefix)
}

// TestRedisCacheOutage: when Redis goes away, Get and Put of a RedisCache
// fail within the cache's Timeout, the breaker opens after three of them
// (and later calls fail at once, naming ErrRedisUnavailable), and
// Layered(memory, redis) still serves what memory holds and keeps what
// is put.
func TestRedisCacheOutage(t *testing.T) {
	srv := startRedisServer(t)
	rc := NewRedisCache(cacheTestClient(t, srv.addr), "")
	mem := NewMemoryCache(0)
	l := Layered(mem, rc)
	ctx := context.Background()
	es := cacheTestEntries()
	if err := l.Put(ctx, "k1", es[0].e); err != nil {
		t.Fatal(err)
	}
	if e, err := rc.Get(ctx, "k1"); err != nil || e == nil {
		t.Fatalf("before the outage: Get = %v, %v", e, err)
	}

	srv.stop()

	const bound = DefaultRedisTimeout
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
		err := timed("RedisCache.Get", func() error { _, err := rc.Get(ctx, "k1"); return err })
		if err == nil || !strings.Contains(err.Error(), "redis") {
			t.Errorf("call %d: RedisCache.Get during the outage: %v, want an error naming Redis", i, err)
		}
		err = timed("RedisCache.Put", func() error { return rc.Put(ctx, "k1", es[1].e) })
		if err == nil || !strings.Contains(err.Error(), "redis") {
			t.Errorf("call %d: RedisCache.Put during the outage: %v, want an error naming Redis", i, err)
		}
	}

	st := rc.Stats()
	if !st.Open || st.Opens != 1 || st.Failures != 3 || st.SkippedGets != 1 || st.DroppedPuts != 2 {
		t.Errorf("after 6 calls to a stopped Redis: %+v; want open after 3 failures (get, put, get), then 1 Get skipped and 2 Puts dropped", st)
	}
	if _, err := rc.Get(ctx, "k1"); !errors.Is(err, ErrRedisUnavailable) {
		t.Errorf("Get with the breaker open: %v, want ErrRedisUnavailable", err)
	}

	var got *Entry
	err := timed("Layered.Get", func() error { var err error; got, err = l.Get(ctx, "k1"); return err })
	if err != nil || got != es[0].e {
		t.Errorf("Layered.Get of an entry in memory = %v, %v; want it, nil", got, err)
	}
	err = timed("Layered.Put", func() error { return l.Put(ctx, "k2", es[2].e) })
	if err == nil {
		t.Error("Layered.Put during the outage reported no error")
	}
	if got, err := l.Get(ctx, "k2"); err != nil || got != es[2].e {
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
		if err := rc.Put(ctx, key, &Entry{Fetched: tc.fetched}); err != nil {
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
	if err := rc.Put(ctx, "k", &Entry{Fetched: time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)}); err == nil {
		t.Error("Put of an entry that cannot be encoded succeeded")
	}
}

// TestRedisCacheContext: a server that accepts connections and never
// answers holds a call no longer than the context allows, even with a
// client that has no timeouts of its own.
func TestRedisCacheContext(t *testing.T) {
	client := silentRedis(t)
	rc := NewRedisCache(client, "")
	for _, call := range []struct {
		name string
		f    func(ctx context.Context) error
	}{
		{"Get", func(ctx context.Context) error { _, err := rc.Get(ctx, "k"); return err }},
		{"Put", func(ctx context.Context) error { return rc.Put(ctx, "k", &Entry{}) }},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		start := time.Now()
		err := call.f(ctx)
		took := time.Since(start)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: %v, want context.DeadlineExceeded", call.name, err)
		}
		if took > time.Second {
			t.Errorf("%s took %v with a 100 ms deadline", call.name, took)
		}
	}
	// A cancelled context fails at once.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := rc.Get(ctx, "k"); !errors.Is(err, context.Canceled) {
		t.Errorf("Get with a cancelled context: %v", err)
	}
}

// TestRedisCachePrefix: keys are the prefix, "robots:" by default, and the
// Cache's key.
func TestRedisCachePrefix(t *testing.T) {
	addr := cacheTestRedisAddr(t)
	client := cacheTestClient(t, addr)
	ctx := context.Background()
	key := fmt.Sprintf("prefix-test-%d-%d", os.Getpid(), time.Now().UnixNano())
	t.Cleanup(func() { client.Del(ctx, "robots:"+key) })
	rc := NewRedisCache(client, "")
	if err := rc.Put(ctx, key, &Entry{URL: "u"}); err != nil {
		t.Fatal(err)
	}
	v, err := client.Get(ctx, "robots:"+key).Bytes()
	if err != nil {
		t.Fatal(err)
	}
	var e Entry
	if err := e.UnmarshalBinary(v); err != nil || e.URL != "u" {
		t.Errorf("value under robots:%s = %+v, %v", key, &e, err)
	}
}

// silentRedis returns a client of a server that accepts connections and
// never answers, with no timeouts of its own.
func silentRedis(t *testing.T) *redis.Client {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	redisQuiet.Do(func() { redis.SetLogger(redisDiscardLogger{}) })
	client := redis.NewClient(&redis.Options{Addr: l.Addr().String(), ReadTimeout: -1, WriteTimeout: -1, MaxRetries: -1})
	t.Cleanup(func() { client.Close() })
	return client
}
