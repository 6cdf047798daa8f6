package fetch

import (
	"bytes"
	"cmp"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/robotskit/robots"
)

// The memory a MemoryCache takes per origin when it holds many origins of
// real robots.txt files and a Fetcher answers from it. Over a folder of
// real files (one robots.txt per file, named after its host):
//
//	go test ./fetch -run '^$' -bench MemoryCacheOrigins -benchtime 1x -corpus /path/to/corpus/robots
//
// Without -corpus the bodies are made here (benchOriginBody).
var corpusDir = func() func() string {
	// Another package of the same test binary may have defined the flag.
	if f := flag.Lookup("corpus"); f != nil {
		return f.Value.String
	}
	s := flag.String("corpus", "", "folder of robots.txt files for BenchmarkMemoryCacheOrigins")
	return func() string { return *s }
}()

// maxBytesPerOrigin is the most a MemoryCache may take per origin in
// BenchmarkMemoryCacheOrigins and TestMemoryCacheOrigins: a million
// origins in less than a GiB.
const maxBytesPerOrigin = 1000

// originsN is how many origins the measure holds.
const originsN = 100_000

// An originBody is a robots.txt body and the host it was fetched from.
type originBody struct {
	host string
	body []byte
}

// originBodies returns the files of -corpus, in the order of their names
// and each cut at the 500 KiB a robot reads, or without -corpus as many
// bodies made by benchOriginBody, each of its own host.
func originBodies(tb testing.TB) []originBody {
	dir := corpusDir()
	if dir == "" {
		out := make([]originBody, 3691)
		for i := range out {
			out[i] = originBody{host: fmt.Sprintf("host%05d.example", i), body: benchOriginBody(i)}
		}
		return out
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var out []originBody
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, originBody{host: e.Name(), body: robots.Cut(b)})
	}
	if len(out) == 0 {
		tb.Fatalf("no files in %s", dir)
	}
	slices.SortFunc(out, func(a, b originBody) int { return cmp.Compare(a.host, b.host) })
	return out
}

// originHost is the host of the i-th origin: the host of its body the
// first time round, and then that host under a label of the round, so
// that every origin has a host of its own.
func originHost(bodies []originBody, i int) string {
	h := bodies[i%len(bodies)].host
	if r := i / len(bodies); r > 0 {
		h = "r" + strconv.Itoa(r) + "." + h
	}
	return h
}

// retainedHeap returns the live heap after two collections (the second
// frees what the cleanups of the first released).
func retainedHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// measureCacheOrigins puts n origins into a MemoryCache, their bodies
// taken from bodies in turn and copied for each origin, then asks a
// Fetcher about each origin (a hit, which compiles the rules), then again
// with a verdict for GPTBot, which must be that of the body's rules
// compiled alone, and returns the heap the cache and the fetcher keep per
// origin.
func measureCacheOrigins(tb testing.TB, bodies []originBody, n int) float64 {
	ctx := context.Background()
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	const path = "/some/page.html"
	want := make([]bool, len(bodies))
	for i, b := range bodies {
		want[i] = robots.Parse(b.body, robots.Google).Allowed("GPTBot", path)
	}
	before := retainedHeap()
	c := NewMemoryCache(1 << 40)
	f := &Fetcher{Cache: c, Now: func() time.Time { return now }}
	for i := range n {
		o := Origin{Scheme: "https", Host: originHost(bodies, i)}
		e := &Entry{URL: o.RobotsURL(), Outcome: Success, Status: 200,
			Fetched: now, Expires: now.Add(24 * time.Hour), Good: Success, GoodAt: now,
			Body: bytes.Clone(bodies[i%len(bodies)].body)}
		if err := c.Put(ctx, f.key(o), e); err != nil {
			tb.Fatal(err)
		}
	}
	for pass := range 2 {
		for i := range n {
			u := "https://" + originHost(bodies, i) + path
			r, err := f.Get(ctx, u)
			if err != nil || !r.FromCache || r.Outcome != Success {
				tb.Fatalf("Get(%q) = %+v, %v: want a success from the cache", u, r, err)
			}
			if pass == 1 && r.Allowed("GPTBot", u) != want[i%len(bodies)] {
				tb.Fatalf("Allowed(GPTBot, %q) = %v, want %v", u, !want[i%len(bodies)], want[i%len(bodies)])
			}
		}
	}
	after := retainedHeap()
	if c.Len() != n {
		tb.Fatalf("the cache holds %d origins, want %d", c.Len(), n)
	}
	runtime.KeepAlive(f)
	return (float64(after) - float64(before)) / float64(n)
}

// BenchmarkMemoryCacheOrigins reports the heap a MemoryCache and its
// Fetcher keep per origin (B/origin) for 100,000 origins whose bodies are
// those of -corpus in turn, and fails above 1,000 bytes. An op is the
// whole fill and the two passes of Get.
func BenchmarkMemoryCacheOrigins(b *testing.B) {
	bodies := originBodies(b)
	var per float64
	for range b.N {
		per = measureCacheOrigins(b, bodies, originsN)
	}
	b.ReportMetric(per, "B/origin")
	if per > maxBytesPerOrigin {
		b.Fatalf("%.0f bytes per origin, want at most %d", per, maxBytesPerOrigin)
	}
}

// TestMemoryCacheOrigins is BenchmarkMemoryCacheOrigins as a test: the
// cache keeps at most 1,000 bytes per origin, for the bodies of -corpus
// or those made here.
func TestMemoryCacheOrigins(t *testing.T) {
	if testing.Short() || cacheRaceEnabled {
		t.Skip("measures the heap: not in -short or -race")
	}
	per := measureCacheOrigins(t, originBodies(t), originsN)
	t.Logf("%.0f bytes per origin", per)
	if per > maxBytesPerOrigin {
		t.Errorf("%.0f bytes per origin, want at most %d", per, maxBytesPerOrigin)
	}
}
