package fetch

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/robotskit/robots"
)

// benchOriginBody returns a robots.txt of about 560 bytes, the median of
// the real corpus (556 bytes; the mean is 1,998), with paths of its own
// so that no two origins share rules. (internal/cachetest.OriginBody is
// the same, for the benchmarks of the other cache packages.)
func benchOriginBody(i int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# robots.txt for host%05d.example\n", i)
	b.WriteString("User-agent: *\n")
	for _, p := range []string{"cgi-bin", "search", "private", "tmp", "cart", "account"} {
		fmt.Fprintf(&b, "Disallow: /%s/%d/\n", p, i%97)
	}
	fmt.Fprintf(&b, "Disallow: /*?sessionid=%d\n", i%13)
	fmt.Fprintf(&b, "Allow: /search/about-%d.html$\n", i%31)
	b.WriteString("\nUser-agent: Googlebot\nUser-agent: Bingbot\n")
	for _, p := range []string{"nogoogle", "drafts", "print"} {
		fmt.Fprintf(&b, "Disallow: /%s-%d/\n", p, i%89)
	}
	b.WriteString("Disallow: /*.pdf$\nAllow: /drafts/public/\nCrawl-delay: 5\n")
	b.WriteString("\nUser-agent: BadBot\nUser-agent: EvilScraper\nDisallow: /\n")
	fmt.Fprintf(&b, "\nSitemap: https://host%05d.example/sitemap.xml\n", i)
	fmt.Fprintf(&b, "Sitemap: https://host%05d.example/sitemap-news-%d.xml\n", i, i%7)
	return []byte(b.String())
}

func benchOriginKey(i int) string { return fmt.Sprintf("google https://host%05d.example", i) }

// benchFill returns a MemoryCache that holds n origins, large enough for
// all of them, and the total of their keys, URLs and bodies.
func benchFill(n int) (*MemoryCache, int) {
	c := NewMemoryCache(1 << 40)
	now := time.Now()
	payload := 0
	for i := range n {
		key := benchOriginKey(i)
		e := &Entry{
			URL: fmt.Sprintf("https://host%05d.example/robots.txt", i), Outcome: Success, Status: 200,
			Fetched: now, Expires: now.Add(24 * time.Hour), Good: Success, GoodAt: now,
			Body: benchOriginBody(i),
		}
		payload += len(key) + len(e.URL) + len(e.Body)
		_ = c.Put(context.Background(), key, e)
	}
	return c, payload
}

// heapAlloc returns the live heap after a collection.
func heapAlloc() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// originCost is what one origin costs in a MemoryCache, in heap bytes.
type originCost struct {
	bodies   float64 // the entry, its key, URL and body, and the cache's share
	compiled float64 // the same with the rules compiled for Google
	payload  float64 // the bytes of key, URL and body
	body     float64 // the bytes of the body
}

// measureOrigins measures the cost of n origins, and when compile is set
// the cost with their rules compiled.
func measureOrigins(n int, compile bool) originCost {
	before := heapAlloc()
	c, payload := benchFill(n)
	filled := heapAlloc()
	body := 0
	for it := c.root.next; it != &c.root; it = it.next {
		if compile {
			it.e.rules(robots.Google)
		}
		body += len(it.e.Body)
	}
	compiled := heapAlloc()
	runtime.KeepAlive(c)
	return originCost{
		bodies:   float64(filled-before) / float64(n),
		compiled: float64(compiled-before) / float64(n),
		payload:  float64(payload) / float64(n),
		body:     float64(body) / float64(n),
	}
}

// BenchmarkMemoryPerOrigin fills a MemoryCache with 100,000 origins of
// median-sized robots.txt files and reports the heap each takes:
// B/origin with the bodies only, and with the rules compiled; overhead-B
// is B/origin less the bytes of key, URL and body (entryOverhead
// estimates it), and rules/body the size of the compiled rules over the
// size of the body (bodyFactor−1 estimates it). An op is the whole fill.
func BenchmarkMemoryPerOrigin(b *testing.B) {
	const n = 100_000
	b.Run("bodies", func(b *testing.B) {
		var cost originCost
		for range b.N {
			cost = measureOrigins(n, false)
		}
		b.ReportMetric(cost.bodies, "B/origin")
		b.ReportMetric(cost.bodies-cost.payload, "overhead-B/origin")
		b.ReportMetric(cost.body, "body-B/origin")
	})
	b.Run("compiled", func(b *testing.B) {
		var cost originCost
		for range b.N {
			cost = measureOrigins(n, true)
		}
		b.ReportMetric(cost.compiled, "B/origin")
		b.ReportMetric((cost.compiled-cost.bodies)/cost.body, "rules/body")
	})
}

// TestMemoryPerOrigin checks, loosely, that the estimate a MemoryCache
// makes of an entry's size (entrySize) follows the heap it really takes,
// measured on 20,000 origins; BenchmarkMemoryPerOrigin reports the
// figures.
func TestMemoryPerOrigin(t *testing.T) {
	if testing.Short() || cacheRaceEnabled {
		t.Skip("measures the heap: not in -short or -race")
	}
	cost := measureOrigins(20_000, true)
	overhead := cost.bodies - cost.payload
	rules := (cost.compiled - cost.bodies) / cost.body
	estimate := cost.payload + float64((bodyFactor-1))*cost.body + entryOverhead
	t.Logf("per origin: %.0f B with bodies (%.0f B beyond key, URL and body), %.0f B compiled (rules %.2f× the body); estimate %.0f B",
		cost.bodies, overhead, cost.compiled, rules, estimate)
	if overhead < entryOverhead/2 || overhead > 2*entryOverhead {
		t.Errorf("an entry takes %.0f bytes beyond key, URL and body; entryOverhead is %d", overhead, entryOverhead)
	}
	if ratio := estimate / cost.compiled; ratio < 0.67 || ratio > 1.5 {
		t.Errorf("entrySize estimates %.0f bytes for an origin that takes %.0f", estimate, cost.compiled)
	}
}

func BenchmarkMemoryCacheGet(b *testing.B) {
	const n = 10_000
	c, _ := benchFill(n)
	keys := make([]string, n)
	for i := range keys {
		keys[i] = benchOriginKey(i)
	}
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if e, _ := c.Get(ctx, keys[i%n]); e == nil {
			b.Fatal("miss")
		}
		i++
	}
}

func BenchmarkMemoryCacheGetParallel(b *testing.B) {
	const n = 10_000
	c, _ := benchFill(n)
	keys := make([]string, n)
	for i := range keys {
		keys[i] = benchOriginKey(i)
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			if e, _ := c.Get(ctx, keys[i%n]); e == nil {
				b.Error("miss")
				return
			}
			i++
		}
	})
}

func BenchmarkEntryMarshal(b *testing.B) {
	e := &Entry{URL: "https://example.com/robots.txt", Outcome: Success, Status: 200,
		Fetched: time.Now(), Good: Success, GoodAt: time.Now(), Body: benchOriginBody(1)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.MarshalBinary(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEntryUnmarshal(b *testing.B) {
	e := &Entry{URL: "https://example.com/robots.txt", Outcome: Success, Status: 200,
		Fetched: time.Now(), Good: Success, GoodAt: time.Now(), Body: benchOriginBody(1)}
	v, _ := e.MarshalBinary()
	b.ReportAllocs()
	var d Entry
	for b.Loop() {
		if err := d.UnmarshalBinary(v); err != nil {
			b.Fatal(err)
		}
	}
}
