package fetch

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkDiskPutSerial: one goroutine stores entries one by one, as a
// crawler that keeps each robots.txt as it fetches it. The figure that
// matters is puts/s; Close is inside the timing, so that every Put is in
// the file when the benchmark ends.
func BenchmarkDiskPutSerial(b *testing.B) {
	d, err := OpenDiskCache(filepath.Join(b.TempDir(), "robots.db"))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	now := time.Now()
	e := &Entry{URL: "https://example.com/robots.txt", Outcome: Success, Status: 200,
		Fetched: now, Expires: now.Add(24 * time.Hour), Good: Success, GoodAt: now, Body: benchOriginBody(1)}
	b.ReportAllocs()
	start := time.Now()
	i := 0
	for b.Loop() {
		if err := d.Put(ctx, benchOriginKey(i), e); err != nil {
			b.Fatal(err)
		}
		i++
	}
	if err := d.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(i)/time.Since(start).Seconds(), "puts/s")
}
