package fetch

import (
	"context"
	"testing"
)

// BenchmarkGetHit is the cost of asking a Fetcher about an origin whose
// robots.txt is in the memory cache: what a crawler pays per URL.
func BenchmarkGetHit(b *testing.B) {
	s := serveB(b)
	f := &Fetcher{}
	ctx := context.Background()
	if _, err := f.Get(ctx, s+"/warm"); err != nil {
		b.Fatal(err)
	}
	u := s + "/some/page?id=42"
	b.ReportAllocs()
	for b.Loop() {
		r, _ := f.Get(ctx, u)
		if !r.FromCache {
			b.Fatal("not from the cache")
		}
	}
}

// BenchmarkGetHitAllowed adds the verdict for the URL.
func BenchmarkGetHitAllowed(b *testing.B) {
	s := serveB(b)
	f := &Fetcher{}
	ctx := context.Background()
	u := s + "/some/page?id=42"
	b.ReportAllocs()
	for b.Loop() {
		r, _ := f.Get(ctx, u)
		if !r.Allowed("ExampleBot", u) {
			b.Fatal("disallowed")
		}
	}
}
