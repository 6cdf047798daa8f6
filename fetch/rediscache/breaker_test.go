//go:build unix

package rediscache

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/fetch/internal/redistest"
)

// A timedCache is a fetch.Cache that records how long each call of the
// cache under it takes, and the last key asked for.
type timedCache struct {
	c fetch.Cache

	mu      sync.Mutex
	calls   []time.Duration
	lastKey string
}

func (tc *timedCache) record(key string, start time.Time) {
	d := time.Since(start)
	tc.mu.Lock()
	tc.calls = append(tc.calls, d)
	tc.lastKey = key
	tc.mu.Unlock()
}

func (tc *timedCache) Get(ctx context.Context, key string) (*fetch.Entry, error) {
	defer tc.record(key, time.Now())
	return tc.c.Get(ctx, key)
}

func (tc *timedCache) Put(ctx context.Context, key string, e *fetch.Entry) error {
	defer tc.record(key, time.Now())
	return tc.c.Put(ctx, key, e)
}

// take returns the calls recorded since the last take.
func (tc *timedCache) take() []time.Duration {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	c := tc.calls
	tc.calls = nil
	return c
}

// breakerHarness runs robots.txt look-ups as a crawler fleet does: each
// through a Fetcher whose cache is a fresh memory cache over one shared
// Cache (a crawler that has just restarted, so that every look-up
// asks Redis), against a robots.txt server on loopback.
type breakerHarness struct {
	t       *testing.T
	rc      *Cache
	timed   *timedCache
	site    *httptest.Server
	fetches atomic.Int64
}

// breakerRobots disallows /private only: "/public" must stay allowed
// whatever happens to Redis.
const breakerRobots = "User-agent: *\nDisallow: /private\n"

func newBreakerHarness(t *testing.T, addr string) *breakerHarness {
	h := &breakerHarness{t: t}
	h.site = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.fetches.Add(1)
		io.WriteString(w, breakerRobots)
	}))
	t.Cleanup(h.site.Close)
	// The client and the cache's Timeout are those Open makes; the
	// probe is quicker than the default, to keep the test short.
	client := cacheTestClient(t, addr)
	h.rc = New(client, redistest.Prefix(t, client, "robots-breaker-test"))
	h.rc.Breaker = Breaker{Probe: 50 * time.Millisecond, MaxProbe: 200 * time.Millisecond}
	t.Cleanup(func() { h.rc.Close() })
	h.timed = &timedCache{c: h.rc}
	return h
}

// key is the Redis key of the site's entry: the prefix and the key the
// Fetcher asked the cache for in the phases run so far.
func (h *breakerHarness) key() string {
	h.timed.mu.Lock()
	k := h.timed.lastKey
	h.timed.mu.Unlock()
	if k == "" {
		h.t.Fatal("no look-up has asked the cache yet")
	}
	return h.rc.prefix + k
}

// phaseResult is what a phase of look-ups saw.
type phaseResult struct {
	lookups          int
	worstLookup      time.Duration
	cacheCalls       int
	worstCall        time.Duration
	slowCalls        int // cache calls that waited for Redis (see run)
	cacheErrs        int
	wrongVerdicts    []string
	lookupErrs       []error
	callTimesSummary string
}

// run makes look-ups with workers goroutines for d, at least one each
// however late a loaded machine starts them, and checks each verdict:
// /public allowed, /private disallowed.
func (h *breakerHarness) run(name string, workers int, d time.Duration) phaseResult {
	h.t.Helper()
	h.timed.take()
	var (
		mu  sync.Mutex
		res phaseResult
	)
	stop := time.Now().Add(d)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for n := 0; n == 0 || time.Now().Before(stop); n++ {
				f := &fetch.Fetcher{Cache: fetch.Layered(fetch.NewMemoryCache(0), h.timed), Timeout: 5 * time.Second}
				start := time.Now()
				r, err := f.Get(context.Background(), h.site.URL+"/public")
				took := time.Since(start)
				mu.Lock()
				res.lookups++
				res.worstLookup = max(res.worstLookup, took)
				switch {
				case err != nil:
					res.lookupErrs = append(res.lookupErrs, err)
				case !r.Allowed("ExampleBot", "/public") || r.Allowed("ExampleBot", "/private"):
					res.wrongVerdicts = append(res.wrongVerdicts, fmt.Sprintf("access %s, reason %q, cache error %v", r.Access, r.Reason, r.CacheErr))
				}
				if err == nil && r.CacheErr != nil {
					res.cacheErrs++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	calls := h.timed.take()
	res.cacheCalls = len(calls)
	sort.Slice(calls, func(i, j int) bool { return calls[i] < calls[j] })
	// A call that waited for a Redis that does not answer took the
	// client's read timeout (250 ms) or the cache's Timeout (500 ms);
	// one that skipped Redis takes microseconds, and less than 250 ms
	// even when a loaded machine leaves its goroutine waiting for a CPU.
	for _, c := range calls {
		if c > DefaultTimeout/2 {
			res.slowCalls++
		}
	}
	if n := len(calls); n > 0 {
		res.worstCall = calls[n-1]
		res.callTimesSummary = fmt.Sprintf("p50 %v, p99 %v, max %v", calls[n/2], calls[n*99/100], calls[n-1])
	}
	h.t.Logf("%s: %d look-ups (worst %v), %d cache calls (%s; %d waited for Redis), %d with a cache error; stats %+v",
		name, res.lookups, res.worstLookup, res.cacheCalls, res.callTimesSummary, res.slowCalls, res.cacheErrs, h.rc.Stats())
	for _, v := range res.wrongVerdicts[:min(3, len(res.wrongVerdicts))] {
		h.t.Errorf("%s: wrong verdict: %s", name, v)
	}
	for _, err := range res.lookupErrs[:min(3, len(res.lookupErrs))] {
		h.t.Errorf("%s: look-up failed: %v", name, err)
	}
	return res
}

// waitClosed waits until the breaker has closed, for at most d.
func (h *breakerHarness) waitClosed(d time.Duration) time.Duration {
	h.t.Helper()
	start := time.Now()
	for h.rc.Stats().Open {
		if time.Since(start) > d {
			h.t.Fatalf("the breaker is still open %v after Redis came back: %+v", d, h.rc.Stats())
		}
		time.Sleep(5 * time.Millisecond)
	}
	return time.Since(start)
}

// checkPutsReachRedis deletes the site's key, makes look-ups, and checks
// that they put the key into Redis again.
func (h *breakerHarness) checkPutsReachRedis(addr string) {
	h.t.Helper()
	direct := redis.NewClient(&redis.Options{Addr: addr, DialTimeout: time.Second, ReadTimeout: time.Second})
	defer direct.Close()
	ctx := context.Background()
	if err := direct.Del(ctx, h.key()).Err(); err != nil {
		h.t.Fatal(err)
	}
	before := h.rc.Stats()
	res := h.run("recovered", 2, 200*time.Millisecond)
	n, err := direct.Exists(ctx, h.key()).Result()
	if err != nil || n != 1 {
		h.t.Errorf("after Redis came back, the look-ups put nothing into it: EXISTS = %d, %v", n, err)
	}
	after := h.rc.Stats()
	if after.Failures != before.Failures || after.SkippedGets != before.SkippedGets || after.DroppedPuts != before.DroppedPuts {
		h.t.Errorf("after Redis came back, calls still failed or skipped it: before %+v, after %+v", before, after)
	}
	if res.cacheErrs != 0 {
		h.t.Errorf("after Redis came back, %d look-ups had a cache error", res.cacheErrs)
	}
}

// breakerSlack is how much longer than the cache's Timeout a call may
// take on a loaded machine (or under the race detector) before the test
// fails: the time to schedule the goroutines, not to wait for Redis. It
// is wide: these tests hold calls to a real Redis to a bound against
// hangs, while the bound itself, to the nanosecond, is held on synctest's
// fake clock by TestRedisBreakerSilent and TestRedisCacheContext.
const breakerSlack = time.Second

// TestRedisBreakerHang: a Redis that hangs (SIGSTOP: the kernel still
// accepts connections, nothing answers) costs each cache call at most the
// cache's Timeout, opens the breaker, after which calls skip Redis at
// once; no verdict turns into "disallowed"; after SIGCONT the probe
// closes the breaker and puts reach Redis again.
func TestRedisBreakerHang(t *testing.T) {
	srv := redistest.Start(t)
	h := newBreakerHarness(t, srv.Addr)

	up := h.run("up", 4, 300*time.Millisecond)
	if st := h.rc.Stats(); st.Failures != 0 || st.Open {
		t.Fatalf("Redis up: %+v", st)
	}
	if up.cacheErrs != 0 {
		t.Errorf("Redis up: %d look-ups with a cache error", up.cacheErrs)
	}

	if err := srv.Cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stopped := true
	defer func() {
		if stopped {
			srv.Cmd.Process.Signal(syscall.SIGCONT)
		}
	}()
	hung := h.run("hung", 4, 1500*time.Millisecond)
	st := h.rc.Stats()
	if !st.Open || st.Opens != 1 {
		t.Errorf("Redis hung: breaker %+v, want open once", st)
	}
	if st.SkippedGets == 0 || st.DroppedPuts == 0 {
		t.Errorf("Redis hung: no call skipped Redis: %+v", st)
	}
	if limit := DefaultTimeout + breakerSlack; hung.worstCall > limit {
		t.Errorf("Redis hung: a cache call took %v, want ≤ %v (Timeout %v)", hung.worstCall, limit, DefaultTimeout)
	}
	// The calls that waited are the ones before the breaker opened, and
	// the ones in flight then: a few per worker, not one per look-up.
	if hung.slowCalls > 3*4 {
		t.Errorf("Redis hung: %d cache calls waited for Redis, want the breaker to stop them after a few", hung.slowCalls)
	}
	// A look-up makes up to three calls (Get, Get again in the flight,
	// Put) and a fetch from loopback.
	if limit := 3*(DefaultTimeout+breakerSlack) + time.Second; hung.worstLookup > limit {
		t.Errorf("Redis hung: a look-up took %v, want ≤ %v", hung.worstLookup, limit)
	}
	if h.fetches.Load() == 0 {
		t.Error("Redis hung: no look-up fetched the file")
	}

	if err := srv.Cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	stopped = false
	t.Logf("breaker closed %v after SIGCONT", h.waitClosed(30*time.Second))
	h.checkPutsReachRedis(srv.Addr)
}

// TestRedisBreakerRestart: a Redis that is killed (connections refused)
// opens the breaker after a few quick failures; no verdict turns into
// "disallowed"; a new redis-server on the same port is found by the
// probe, and puts reach it.
func TestRedisBreakerRestart(t *testing.T) {
	srv := redistest.Start(t)
	h := newBreakerHarness(t, srv.Addr)
	h.run("up", 4, 200*time.Millisecond)

	srv.Stop()
	down := h.run("killed", 4, 500*time.Millisecond)
	st := h.rc.Stats()
	if !st.Open || st.Opens != 1 || st.SkippedGets == 0 {
		t.Errorf("Redis killed: breaker %+v, want open once, and Gets skipped", st)
	}
	if limit := DefaultTimeout + breakerSlack; down.worstCall > limit {
		t.Errorf("Redis killed: a cache call took %v, want ≤ %v", down.worstCall, limit)
	}

	port := srv.Addr[len("127.0.0.1:"):]
	var p int
	fmt.Sscan(port, &p)
	var again *redistest.Server
	for attempt := 0; ; attempt++ {
		var err error
		if again, err = redistest.StartOn(t, p); err == nil {
			break
		}
		if attempt == 2 {
			t.Skipf("cannot restart redis-server on the same port: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("breaker closed %v after the restart", h.waitClosed(30*time.Second))
	h.checkPutsReachRedis(again.Addr)
}

// TestRedisBreakerSilent: against a server that accepts connections and
// never answers, the breaker opens after Failures calls, each bounded by
// Timeout even with a client that has no timeouts of its own; a call the
// caller cancels does not count; Close ends the probe. Time is synctest's
// fake clock, which moves only while every goroutine waits: each call
// ends at its Timeout exactly, a call with the breaker open takes no time,
// and the probes come at their intervals, however loaded the machine.
func TestRedisBreakerSilent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		client := silentRedis(t)
		rc := New(client, "")
		rc.Timeout = 100 * time.Millisecond
		rc.Breaker = Breaker{Failures: 2, Probe: 20 * time.Millisecond, MaxProbe: 40 * time.Millisecond}
		ctx := context.Background()

		// A cancelled call is no news of Redis.
		cctx, cancel := context.WithCancel(ctx)
		go func() { time.Sleep(20 * time.Millisecond); cancel() }()
		if _, err := rc.Get(cctx, "k"); !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled Get: %v", err)
		}
		if st := rc.Stats(); st.Failures != 0 || st.ConsecutiveFailures != 0 {
			t.Errorf("a cancelled call counted as a failure: %+v", st)
		}

		for i := range 2 {
			start := time.Now()
			_, err := rc.Get(ctx, "k")
			took := time.Since(start)
			if !errors.Is(err, context.DeadlineExceeded) || took != rc.Timeout {
				t.Errorf("Get %d: %v after %v, want a deadline after %v", i, err, took, rc.Timeout)
			}
		}
		opened := time.Now()
		err := rc.Put(ctx, "k", &fetch.Entry{})
		if took := time.Since(opened); !errors.Is(err, ErrUnavailable) || took != 0 {
			t.Errorf("Put with the breaker open: %v after %v, want ErrUnavailable at once", err, took)
		}
		// The probe keeps failing, at growing intervals: a PING 20 ms
		// after the breaker opened fails at its Timeout (120 ms), the
		// next comes 40 ms later and fails at 260 ms, the third is due
		// at 300 ms.
		time.Sleep(280*time.Millisecond - time.Since(opened))
		st := rc.Stats()
		if !st.Open || st.Probes != 2 || st.FailedProbes != 2 || st.DroppedPuts != 1 || st.LastError == nil {
			t.Errorf("stats 280 ms after the breaker opened: %+v, want 2 probes, both failed", st)
		}
		rc.Close()
		time.Sleep(100 * time.Millisecond)
		n := rc.Stats().Probes
		time.Sleep(time.Second)
		if m := rc.Stats().Probes; m != n {
			t.Errorf("the probe went on after Close: %d probes, then %d", n, m)
		}
	})
}

// TestRedisBreakerReplyErrors: errors that Redis replies with (here
// WRONGPASS) do not open the breaker, and do not repeat the password.
func TestRedisBreakerReplyErrors(t *testing.T) {
	const password = "right-pass/@:%word"
	srv := redistest.Start(t, "--requirepass", password)
	redistest.Quiet()
	const wrong = "wrong-pass/@:%word"
	client := redis.NewClient(shortTimeouts(&redis.Options{Addr: srv.Addr, Password: wrong}))
	t.Cleanup(func() { client.Close() })
	rc := New(client, "")
	ctx := context.Background()
	for range 5 {
		_, err := rc.Get(ctx, "k")
		if err == nil || errors.Is(err, ErrUnavailable) {
			t.Fatalf("Get with a wrong password: %v", err)
		}
		if msg := err.Error(); containsAny(msg, wrong, "wrong-pass", "right-pass") {
			t.Errorf("error repeats the password: %s", msg)
		}
	}
	if st := rc.Stats(); st.Open || st.Failures != 0 || st.ReplyErrors != 5 {
		t.Errorf("after 5 WRONGPASS replies: %+v, want closed, 5 reply errors", st)
	}

	// The right password, percent-encoded in the URL, works.
	c, err := Open("redis://:right-pass%2F%40%3A%25word@" + srv.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Put(ctx, "k", &fetch.Entry{URL: "u"}); err != nil {
		t.Errorf("Put with the right password: %v", err)
	}
	// And so does the same password written as it is, but for its "%".
	c2, err := Open("redis://:right-pass/@:%25word@" + srv.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if e, err := c2.Get(ctx, "k"); err != nil || e == nil || e.URL != "u" {
		t.Errorf("Get with the password written as it is: %v, %v", e, err)
	}
}
