package diskcache

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/fetch/internal/cachetest"
)

// BenchmarkDiskPutSerial: one goroutine stores entries one by one, as a
// crawler that keeps each robots.txt as it fetches it. The figure that
// matters is puts/s; Close is inside the timing, so that every Put is in
// the file when the benchmark ends.
func BenchmarkDiskPutSerial(b *testing.B) {
	d, err := Open(filepath.Join(b.TempDir(), "robots.db"))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	now := time.Now()
	e := &fetch.Entry{URL: "https://example.com/robots.txt", Outcome: fetch.Success, Status: 200,
		Fetched: now, Expires: now.Add(24 * time.Hour), Good: fetch.Success, GoodAt: now, Body: cachetest.OriginBody(1)}
	b.ReportAllocs()
	start := time.Now()
	i := 0
	for b.Loop() {
		if err := d.Put(ctx, cachetest.OriginKey(i), e); err != nil {
			b.Fatal(err)
		}
		i++
	}
	if err := d.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(i)/time.Since(start).Seconds(), "puts/s")
}

func BenchmarkDiskCacheGet(b *testing.B) {
	d, err := Open(filepath.Join(b.TempDir(), "robots.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	cachetest.BenchGet(b, d)
}
