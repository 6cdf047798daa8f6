package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	rtmetrics "runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/robotskit/robots/internal/wire"
)

// The requests of the reliability probes, built here.

// robots10 are ten robots of the registry, of several profiles.
var robots10 = []string{"Googlebot", "bingbot", "GPTBot", "ClaudeBot", "CCBot", "Applebot", "DuckDuckBot", "PerplexityBot", "YandexBot", "Baiduspider"}

// fiftyRobots is robots10 five times.
func fiftyRobots() []string {
	var out []string
	for range 5 {
		out = append(out, robots10...)
	}
	return out
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// cpuRequest is the costliest test the body limit lets through (995 KB):
// 10,000 rules "Disallow: /*<hex>*q", 50 robots, 200 URLs of 3,990 random
// hex digits, which every rule reads to its end.
func cpuRequest() []byte {
	var r strings.Builder
	r.WriteString("User-agent: *\n")
	for i := range 10000 {
		fmt.Fprintf(&r, "Disallow: /*%x*q\n", i)
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	urls := make([]string, 200)
	for i := range urls {
		b := []byte{'/'}
		for range 3990 {
			b = append(b, "0123456789abcdef"[rnd.IntN(16)])
		}
		urls[i] = string(b)
	}
	return mustJSON(map[string]any{"robots": r.String(), "robots_list": fiftyRobots(), "urls": urls})
}

// bigAnswerRequest is a test of 802 KB whose answer would be 41 MB: one
// rule, 50 robots, 200 URLs of 4 KB.
func bigAnswerRequest() []byte {
	urls := make([]string, 200)
	for i := range urls {
		urls[i] = "/" + strings.Repeat("a", 4000)
	}
	robots := make([]string, 50)
	for i := range robots {
		robots[i] = "Googlebot"
	}
	return mustJSON(map[string]any{"robots": "User-agent: *\nDisallow: /*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b\n", "robots_list": robots, "urls": urls})
}

// realRobots is a robots.txt of about size octets as large sites write
// them: a group every 400 lines for "*" or a known robot, prefix rules,
// some Allow lines, one rule in 17 with wildcards.
func realRobots(size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		switch {
		case i%400 == 0 && (i/400)%3 == 0:
			b.WriteString("\nUser-agent: *\n")
		case i%400 == 0:
			fmt.Fprintf(&b, "\nUser-agent: %s\n", robots10[(i/400)%10])
		case i%17 == 0:
			fmt.Fprintf(&b, "Disallow: /*?sessionid=%d*\n", i)
		case i%5 == 0:
			fmt.Fprintf(&b, "Allow: /public/section-%d/\n", i)
		default:
			fmt.Fprintf(&b, "Disallow: /catalog/category-%d/item-%d.html\n", i%997, i)
		}
	}
	return b.String()
}

// realURLs are n URLs of some urlLen octets on the catalogue of
// realRobots.
func realURLs(n, urlLen int) []string {
	rnd := rand.New(rand.NewPCG(3, 4))
	urls := make([]string, n)
	for i := range urls {
		u := fmt.Sprintf("/catalog/category-%d/item-%d.html?x=", i, i*7)
		b := []byte(u)
		for len(b) < urlLen {
			b = append(b, "abcdef0123456789"[rnd.IntN(16)])
		}
		urls[i] = string(b)
	}
	return urls
}

// messyRobots is size octets of a file with a finding on most lines
// (misspelt and colon-less directives, paths without "/", trailing
// stars, thousands of groups): its check and the proofs of its fixes
// cost seconds for each 100 KB.
func messyRobots(size int) string {
	kinds := []string{"Disallow: /dir%d/\n", "Disalow: /tmp%d\n", "Disallow: page%d.html\n", "Allow: /a%d/*.php$\n",
		"Disallow: /x%d/*\n", "Crawl-delay: %d\n", "disallow : /y%d\n", "User-agent: bot%d\nDisallow: /\n"}
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, kinds[i%len(kinds)], i)
	}
	return b.String()
}

// slowCheck is a check of some 985 KB and 48,000 lines that costs tens
// of seconds (the first 500 KB are messyRobots, comments follow), with an
// answer under the limit.
func slowCheck() []byte {
	var b strings.Builder
	b.WriteString(messyRobots(500 << 10))
	for i := 0; b.Len() < 960<<10; i++ {
		fmt.Fprintf(&b, "# note %d on the catalogue\n", i)
	}
	return mustJSON(map[string]any{"robots": b.String()})
}

// cpuTime is the CPU time of the process so far.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Skip("no getrusage:", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// heapSampler samples the heap in use (objects and the unused part of
// their spans) every millisecond, until stop.
type heapSampler struct {
	base, peak atomic.Uint64
	stop       chan struct{}
	done       chan struct{}
}

func heapInUse() uint64 {
	s := []rtmetrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
	rtmetrics.Read(s)
	return s[0].Value.Uint64() + s[1].Value.Uint64()
}

func sampleHeap() *heapSampler {
	runtime.GC()
	h := &heapSampler{stop: make(chan struct{}), done: make(chan struct{})}
	h.base.Store(heapInUse())
	h.peak.Store(h.base.Load())
	go func() {
		defer close(h.done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-tick.C:
				if v := heapInUse(); v > h.peak.Load() {
					h.peak.Store(v)
				}
			}
		}
	}()
	return h
}

// growth stops the sampler and returns the peak's growth over the start.
func (h *heapSampler) growth() uint64 {
	close(h.stop)
	<-h.done
	return h.peak.Load() - h.base.Load()
}

// resetPeakRSS returns the free heap to the system and resets the
// process's VmHWM to its RSS, where Linux lets it; it reports whether it
// could.
func resetPeakRSS() bool {
	debug.FreeOSMemory()
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// peakRSS is the process's VmHWM, 0 where there is none.
func peakRSS() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			n, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n << 10
		}
	}
	return 0
}

// post sends body to path and returns the status, the Retry-After and
// the body of the answer (an error answer's code and message for short).
func post(t *testing.T, c *http.Client, url, body string) (int, http.Header, string) {
	t.Helper()
	resp, err := c.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Errorf("POST %s: %v", url, err)
		return 0, nil, ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// errorCode is the code of an error answer, "" for another body.
func errorCode(body string) string {
	var e wire.ErrorResponse
	json.Unmarshal([]byte(body), &e)
	return e.Error.Code
}

// waitIdle waits until the server works on no request, at most d; it
// reports whether it is idle. The tests give it 5 s: work that stops
// stops later on a loaded machine, but long before the 10 s or more that
// work which goes on would take.
func waitIdle(s *Server, d time.Duration) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if s.gate.active() == 0 && s.gate.queued() == 0 {
			return true
		}
	}
	return false
}

// cpuAfter is the CPU the process spends in d once the work is over.
func cpuAfter(t *testing.T, d time.Duration) time.Duration {
	before := cpuTime(t)
	time.Sleep(d)
	return cpuTime(t) - before
}

// TestDeadlineStopsTest: the costliest test the body limit allows is
// refused before any work (422 too_much_work, naming the limit). With
// that bound lifted, the deadline stops the work: the client gets 503
// deadline_exceeded at the deadline, the CPU stops with it, the access
// log says 503 and the metrics count it. The refusal is measured in CPU
// time, which a loaded machine does not stretch; the deadline's bound on
// the wall clock is wide, for the work it stops runs 18 s.
func TestDeadlineStopsTest(t *testing.T) {
	var logs syncBuffer
	s, ts := newTest(t, Config{RequestTimeout: 2 * time.Second, RateLimit: -1, Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	body := string(cpuRequest())
	if len(body) < 990_000 || len(body) > MaxBody {
		t.Fatalf("the request has %d octets", len(body))
	}
	// Reading and weighing the request costs some 40 ms of CPU; the
	// work, 1.9 s of it before the deadline stops it.
	cpu0 := cpuTime(t)
	status, _, answer := post(t, ts.Client(), ts.URL+"/api/v1/test", body)
	if cpu := cpuTime(t) - cpu0; status != http.StatusUnprocessableEntity || errorCode(answer) != "too_much_work" ||
		!strings.Contains(answer, "at most 2e+09") || cpu > 500*time.Millisecond {
		t.Errorf("the 995 KB test: %d after %v of CPU: %s", status, cpu, answer)
	}

	s.maxTestWork, s.maxAnswer = math.Inf(1), math.MaxInt64
	cpu0 = cpuTime(t)
	start := time.Now()
	status, _, answer = post(t, ts.Client(), ts.URL+"/api/v1/test", body)
	took, cpu := time.Since(start), cpuTime(t)-cpu0
	if status != http.StatusServiceUnavailable || errorCode(answer) != "deadline_exceeded" || !strings.Contains(answer, "2s") {
		t.Errorf("the 995 KB test without the bound: %d: %s", status, answer)
	}
	// Without its deadline the work takes 18 s on an idle machine, and
	// longer on a loaded one, which delays the answer at the deadline by
	// the time it takes to schedule the goroutines, well under 8 s.
	if took > 10*time.Second {
		t.Errorf("the answer came %v after the request; the deadline is 2s", took)
	}
	if !waitIdle(s, 5*time.Second) {
		t.Errorf("the server still works on the request")
	}
	after := cpuAfter(t, time.Second)
	t.Logf("995 KB test with a 2s deadline: %d after %v, %v CPU; %v CPU in the second after", status, took.Round(time.Millisecond), cpu.Round(time.Millisecond), after.Round(time.Millisecond))
	if after > 300*time.Millisecond {
		t.Errorf("the work goes on after the answer: %v CPU in the next second", after)
	}
	if log := logs.String(); !strings.Contains(log, `"status":503`) || !strings.Contains(log, `"error":"deadline_exceeded"`) {
		t.Errorf("the log does not say 503 deadline_exceeded:\n%s", log)
	}
	_, _, m := do(t, ts, "GET", "/metrics", "", "")
	for _, series := range []string{`robots_http_errors_total{reason="deadline_exceeded",route="test"} 1`,
		`robots_http_errors_total{reason="too_much_work",route="test"} 1`, `robots_http_requests_total{code="503",route="test"} 1`} {
		if !strings.Contains(m, series) {
			t.Errorf("metrics lack %s", series)
		}
	}
}

// TestDeadlineStopsChecks: fourteen concurrent checks of a 985 KB file
// that each cost tens of seconds all end at the deadline with an error
// answer, whether they were worked on or waited for a slot, and the CPU
// stops with them. One check alone takes 11 s on an idle machine: the
// bound on the last answer, 7 s past the deadline, is for a loaded one.
func TestDeadlineStopsChecks(t *testing.T) {
	const deadline = 3 * time.Second
	s, ts := newTest(t, Config{RequestTimeout: deadline, RateLimit: -1})
	body := string(slowCheck())
	tr := &http.Transport{MaxConnsPerHost: 20, MaxIdleConnsPerHost: 20}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr}
	resetPeakRSS()
	heap := sampleHeap()
	rss0 := peakRSS()
	cpu0 := cpuTime(t)
	start := time.Now()
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[string]int{}
	var last time.Duration
	for range 14 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, _, answer := post(t, c, ts.URL+"/api/v1/check", body)
			mu.Lock()
			defer mu.Unlock()
			codes[fmt.Sprint(status, " ", errorCode(answer))]++
			last = max(last, time.Since(start))
		}()
	}
	wg.Wait()
	cpu := cpuTime(t) - cpu0
	grew := heap.growth()
	if codes["503 deadline_exceeded"] != 14 {
		t.Errorf("answers %v, want 14 × 503 deadline_exceeded", codes)
	}
	if last > deadline+7*time.Second {
		t.Errorf("the last answer came after %v; the deadline is %v", last, deadline)
	}
	if !waitIdle(s, 5*time.Second) {
		t.Errorf("the server still works on the checks")
	}
	after := cpuAfter(t, time.Second)
	t.Logf("14 checks of %d octets, deadline %v: %v, last after %v, %v CPU; %v CPU in the second after; peak heap +%d MiB, VmHWM %d MiB (from %d MiB)",
		len(body), deadline, codes, last.Round(time.Millisecond), cpu.Round(time.Millisecond), after.Round(time.Millisecond), grew>>20, peakRSS()>>20, rss0>>20)
	if after > 300*time.Millisecond {
		t.Errorf("the work goes on after the answers: %v CPU in the next second", after)
	}
}

// TestClientGone: when the client of a long check goes away, the work
// stops, and the log says 499 client_closed. The client goes once the
// server works on its check, not after a time, which a loaded machine
// could spend before the request is even sent.
func TestClientGone(t *testing.T) {
	var logs syncBuffer
	s, ts := newTest(t, Config{RateLimit: -1, Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	body := slowCheck()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for s.gate.active() == 0 && ctx.Err() == nil {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/api/v1/check", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if resp, err := ts.Client().Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("the check answered %d before its client left", resp.StatusCode)
	}
	// The check would go on for 11 s.
	if !waitIdle(s, 5*time.Second) {
		t.Fatalf("the check goes on after its client left")
	}
	if after := cpuAfter(t, 500*time.Millisecond); after > 150*time.Millisecond {
		t.Errorf("%v CPU in the half second after the client left", after)
	}
	for end := time.Now().Add(10 * time.Second); !strings.Contains(logs.String(), `"status":499`) && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
	if log := logs.String(); !strings.Contains(log, `"status":499`) || !strings.Contains(log, `"error":"client_closed"`) {
		t.Errorf("the log does not say 499 client_closed:\n%s", log)
	}
}

// TestOverloaded: when every slot is taken and the queue is full, a heavy
// request is answered 503 at once with Retry-After; a queued request
// waits at most QueueWait; /healthz and /metrics never wait. "At once" is
// within half the queue's wait: a loaded machine delays an answer by the
// time it takes to schedule it, tens of milliseconds, and a request that
// waited in the queue would take the whole wait. The slow check holds its
// slot past the queued request's wait and the form's.
func TestOverloaded(t *testing.T) {
	const queueWait = 2 * time.Second
	s, ts := newTest(t, Config{RateLimit: -1, MaxActive: 1, MaxQueue: 1, QueueWait: queueWait, RequestTimeout: 3 * queueWait})
	tr := &http.Transport{MaxConnsPerHost: 10, MaxIdleConnsPerHost: 10}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr}
	small := `{"robots": ` + jsonString(sample) + `}`
	// waitFor waits until cond holds, however long a loaded machine
	// takes to read a request (30 s at most).
	waitFor := func(cond func() bool) bool {
		for end := time.Now().Add(30 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(end) {
				return false
			}
		}
		return true
	}

	// A takes the slot until the deadline.
	slow := make(chan string, 1)
	go func() {
		status, _, answer := post(t, c, ts.URL+"/api/v1/check", string(slowCheck()))
		slow <- fmt.Sprint(status, " ", errorCode(answer))
	}()
	if !waitFor(func() bool { return s.gate.active() > 0 }) {
		t.Errorf("the slow check never took the slot")
	}
	// B waits in the queue, and gives up after QueueWait.
	queued := make(chan string, 1)
	go func() {
		start := time.Now()
		status, h, answer := post(t, c, ts.URL+"/api/v1/test", `{"robots": "", "urls": ["/"]}`)
		queued <- fmt.Sprint(status, " ", errorCode(answer), " ", h.Get("Retry-After"), " ", time.Since(start) >= queueWait)
	}()
	if !waitFor(func() bool { return s.gate.queued() > 0 }) {
		t.Errorf("the second request never queued")
	}
	// C finds the queue full: 503 at once.
	start := time.Now()
	status, h, answer := post(t, c, ts.URL+"/api/v1/check", small)
	if took := time.Since(start); status != http.StatusServiceUnavailable || errorCode(answer) != "overloaded" || h.Get("Retry-After") != "2" || took > queueWait/2 {
		t.Errorf("a request on a full server: %d in %v, Retry-After %q: %s", status, took, h.Get("Retry-After"), answer)
	}
	// The page's form is refused as a page.
	start = time.Now()
	resp, err := c.PostForm(ts.URL+"/", map[string][]string{"robots": {sample}})
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(page), "the server is busy") || !strings.Contains(resp.Header.Get("Content-Type"), "text/html") {
		t.Errorf("the form on a full server: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	// /healthz and /metrics answer at once.
	for _, path := range []string{"/healthz", "/metrics"} {
		start := time.Now()
		resp, err := c.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if took := time.Since(start); resp.StatusCode != 200 || took > queueWait/2 {
			t.Errorf("%s on a full server: %d in %v", path, resp.StatusCode, took)
		}
	}
	if got := <-queued; got != "503 overloaded 2 true" {
		t.Errorf("the queued request: %s, want 503 overloaded after the queue's wait", got)
	}
	if got := <-slow; got != "503 deadline_exceeded" {
		t.Errorf("the slow request: %s", got)
	}
	// Free again.
	if status, _, answer := post(t, c, ts.URL+"/api/v1/check", small); status != 200 {
		t.Errorf("after the load: %d %s", status, answer)
	}
	_, _, m := do(t, ts, "GET", "/metrics", "", "")
	for _, series := range []string{`robots_http_errors_total{reason="overloaded",route="check"} 1`, `robots_http_errors_total{reason="deadline_exceeded",route="check"} 1`,
		`robots_http_errors_total{reason="queue_timeout",route="test"} 1`, `robots_http_active_requests 0`, `robots_http_queued_requests 0`} {
		if !strings.Contains(m, series) {
			t.Errorf("metrics lack %s", series)
		}
	}
	// The form was refused at once, or after the queue's wait if the
	// queued request had left it.
	if !strings.Contains(m, `robots_http_errors_total{reason="overloaded",route="ui"} 1`) && !strings.Contains(m, `robots_http_errors_total{reason="queue_timeout",route="ui"} 1`) {
		t.Errorf("metrics lack the refused form")
	}
}

// TestBounds: requests whose work or answer is too large are refused
// before the work, with the limit and its value; a large real file with
// 200 URLs and 50 robots is answered.
func TestBounds(t *testing.T) {
	_, ts := newTest(t, Config{RateLimit: -1})
	c := ts.Client()
	check := func(robots string) string { return string(mustJSON(map[string]any{"robots": robots})) }
	for _, tc := range []struct {
		name, path, body string
		status           int
		code, limit      string
	}{
		{"lines", "/api/v1/check", check(strings.Repeat("#\n", MaxCheckLines+1)), 413, "too_large", "at most 100000"},
		{"rules", "/api/v1/check", check("User-agent: *\n" + strings.Repeat("Disallow: /a\n", MaxCheckRules+1)), 413, "too_large", "at most 50000"},
		{"work", "/api/v1/test", string(cpuRequest()), 422, "too_much_work", "at most 2e+09"},
		{"answer", "/api/v1/test", string(bigAnswerRequest()), 422, "answer_too_large", "at most 32 MiB"},
		{"check answer", "/api/v1/check", check(messyRobots(960 << 10)), 422, "answer_too_large", "at most 32 MiB"},
	} {
		start := time.Now()
		status, _, answer := post(t, c, ts.URL+tc.path, tc.body)
		took := time.Since(start)
		if status != tc.status || errorCode(answer) != tc.code || !strings.Contains(answer, tc.limit) {
			t.Errorf("%s: %d %s, want %d %s naming %q", tc.name, status, answer, tc.status, tc.code, tc.limit)
		}
		t.Logf("%s (%d octets): %d %s in %v", tc.name, len(tc.body), status, errorCode(answer), took.Round(time.Millisecond))
	}
	// A real 500 KiB file, 200 URLs, 50 robots.
	robots := realRobots(500 << 10)
	body := string(mustJSON(map[string]any{"robots": robots, "robots_list": fiftyRobots(), "urls": realURLs(200, 200)}))
	start := time.Now()
	status, _, answer := post(t, c, ts.URL+"/api/v1/test", body)
	var tr wire.TestResponse
	if err := json.Unmarshal([]byte(answer), &tr); err != nil || status != 200 || len(tr.Results) != 10000 {
		t.Errorf("real 500 KiB test: %d %v, %d results", status, err, len(tr.Results))
	}
	t.Logf("real 500 KiB file, 200 URLs, 50 robots (%d octets): %d, %d octets in %v", len(body), status, len(answer), time.Since(start).Round(time.Millisecond))
	start = time.Now()
	if status, _, answer := post(t, c, ts.URL+"/api/v1/check", check(robots)); status != 200 {
		t.Errorf("real 500 KiB check: %d %.300s", status, answer)
	}
	t.Logf("real 500 KiB check: %v", time.Since(start).Round(time.Millisecond))
}

// TestMemory16Tests: sixteen 800 KB tests at once. Those whose answer
// would be 41 MB are refused at once; those with a 700 KB file, 200 URLs
// and 50 robots are answered, a few at a time, in a bounded heap.
func TestMemory16Tests(t *testing.T) {
	if testing.Short() {
		t.Skip("load")
	}
	// The test is of memory: every request waits for its slot as long as
	// it takes (16 heavy checks, one or two at a time, take more than the
	// default 5 s queue wait on a loaded 2-core machine: 5.4 s with two CPU
	// burners per core); the queue's own limits are TestOverloaded's.
	s, ts := newTest(t, Config{RateLimit: -1, QueueWait: 5 * time.Minute, RequestTimeout: 5 * time.Minute})
	tr := &http.Transport{MaxConnsPerHost: 20, MaxIdleConnsPerHost: 20}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr}
	accepted := mustJSON(map[string]any{"robots": realRobots(650 << 10), "robots_list": fiftyRobots(), "urls": realURLs(200, 700)})
	for _, tc := range []struct {
		name string
		body []byte
		want int
	}{{"41 MB answers", bigAnswerRequest(), 422}, {"700 KB files", accepted, 200}} {
		resetPeakRSS()
		rss0 := peakRSS()
		heap := sampleHeap()
		start := time.Now()
		var wg sync.WaitGroup
		var bad, answered atomic.Int64
		for range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				resp, err := c.Post(ts.URL+"/api/v1/test", "application/json", bytes.NewReader(tc.body))
				if err != nil {
					bad.Add(1)
					return
				}
				n, _ := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				answered.Add(n)
				if resp.StatusCode != tc.want {
					bad.Add(1)
				}
			}()
		}
		wg.Wait()
		took := time.Since(start)
		grew := heap.growth()
		rss := peakRSS()
		t.Logf("16 × %s (%d octets each): %v, %d MiB answered, peak heap +%d MiB, VmHWM %d MiB (from %d MiB)",
			tc.name, len(tc.body), took.Round(time.Millisecond), answered.Load()>>20, grew>>20, rss>>20, rss0>>20)
		if bad.Load() > 0 {
			t.Errorf("%s: %d answers were not %d", tc.name, bad.Load(), tc.want)
		}
		if grew > 200<<20 {
			t.Errorf("%s: the heap grew by %d MiB", tc.name, grew>>20)
		}
		if rss > 300<<20 {
			t.Errorf("%s: peak RSS %d MiB", tc.name, rss>>20)
		}
	}
	if !waitIdle(s, time.Second) {
		t.Error("the server is not idle")
	}
}

// TestMemoryPerInput: the heap a request needs grows with its size, by
// the multiples the README states, for tests and checks of 100 KB,
// 500 KB and 1 MB.
func TestMemoryPerInput(t *testing.T) {
	if testing.Short() {
		t.Skip("load")
	}
	_, ts := newTest(t, Config{RateLimit: -1})
	c := ts.Client()
	for _, size := range []int{100_000, 500_000, 1_000_000} {
		urls := realURLs(200, 250)
		test := mustJSON(map[string]any{"robots": realRobots(size - 60_000), "robots_list": fiftyRobots(), "urls": urls})
		check := mustJSON(map[string]any{"robots": realRobots(size - 100)})
		// A file with a finding on every line (misspelt keys, RB304):
		// the checker's worst case for memory.
		var dense strings.Builder
		dense.WriteString("User-agent: *\n")
		for i := 0; dense.Len() < size-200; i++ {
			fmt.Fprintf(&dense, "Dissallow: /p%d\n", i)
		}
		denseCheck := mustJSON(map[string]any{"robots": dense.String()})
		cases := []struct {
			path string
			body []byte
		}{{"/api/v1/test", test}, {"/api/v1/check", check}}
		if size <= 500_000 { // larger has more rule lines than a check takes
			cases = append(cases, struct {
				path string
				body []byte
			}{"/api/v1/check", denseCheck})
		}
		for _, r := range cases {
			heap := sampleHeap()
			// The answer is read as it comes, not kept: the heap is the
			// server's.
			resp, err := c.Post(ts.URL+r.path, "application/json", bytes.NewReader(r.body))
			if err != nil {
				t.Fatal(err)
			}
			n, _ := io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			grew := heap.growth()
			multiple := float64(grew) / float64(len(r.body))
			t.Logf("%s %d octets: %d, answer %d octets, peak heap +%.1f MiB, %.0f× the request", r.path, len(r.body), resp.StatusCode, n, float64(grew)/(1<<20), multiple)
			if resp.StatusCode != 200 {
				t.Errorf("%s %d octets: %d", r.path, len(r.body), resp.StatusCode)
			}
			// The README's multiples, with room for the collector: 60× for
			// a real file, 130× for a finding on every line.
			k := uint64(60)
			if &r.body[0] == &denseCheck[0] {
				k = 130
			}
			if limit := k*uint64(len(r.body)) + 8<<20; grew > limit {
				t.Errorf("%s %d octets: the heap grew by %d MiB, over %d× the request plus 8 MiB", r.path, len(r.body), grew>>20, k)
			}
		}
	}
}

// TestDefaultRateLimit: a server with the zero Config limits each client
// to DefaultRateLimit requests a second with a burst of twice that; a
// negative RateLimit turns it off.
func TestDefaultRateLimit(t *testing.T) {
	_, ts := newTest(t, Config{})
	codes := map[int]int{}
	start := time.Now()
	for range 30 {
		status, _, _ := do(t, ts, "GET", "/api/v1/agents?robots=GPTBot", "", "")
		codes[status]++
	}
	// The burst, and what the bucket gained meanwhile.
	most := 2*DefaultRateLimit + int(time.Since(start).Seconds()*DefaultRateLimit) + 1
	if codes[200] < 2*DefaultRateLimit || codes[200] > most || codes[429] == 0 && most < 30 {
		t.Errorf("30 quick requests under the default limit: %v", codes)
	}
	_, ts = newTest(t, Config{RateLimit: -1})
	for range 30 {
		if status, _, _ := do(t, ts, "GET", "/api/v1/agents?robots=GPTBot", "", ""); status != 200 {
			t.Fatalf("no rate limit: %d", status)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for the server's log and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
