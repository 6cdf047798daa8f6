package fetch

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// cacheTestBody is a small robots.txt, as most are.
const cacheTestBody = `User-agent: *
Disallow: /search
Disallow: /private/
Allow: /private/index.html

User-agent: Googlebot
Disallow: /nogoogle/
`

// cacheTestEntries returns entries that cover every field, relative to
// now so that no retention period has passed.
func cacheTestEntries() []struct {
	name string
	e    *Entry
} {
	now := time.Now()
	binary := make([]byte, 256)
	for i := range binary {
		binary[i] = byte(i)
	}
	return []struct {
		name string
		e    *Entry
	}{
		{"success", &Entry{
			URL: "https://example.com/robots.txt", Outcome: Success, Status: 200,
			Fetched: now, Expires: now.Add(24 * time.Hour),
			Good: Success, GoodAt: now, Body: []byte(cacheTestBody),
		}},
		{"outage with last good copy", &Entry{
			URL: "https://example.com/robots.txt", Outcome: Unreachable, Status: 503,
			Fetched: now, Expires: now.Add(time.Hour), ErrorSince: now.Add(-72 * time.Hour),
			Good: Success, GoodAt: now.Add(-96 * time.Hour), Body: []byte(cacheTestBody),
		}},
		{"no response", &Entry{
			URL: "https://down.example/robots.txt", Outcome: Unreachable,
			Fetched: now, Expires: now.Add(time.Minute), ErrorSince: now,
		}},
		{"not found", &Entry{
			URL: "http://example.org:8080/robots.txt", Outcome: Unavailable, Status: 404,
			Fetched: now, Expires: now.Add(24 * time.Hour), Good: Unavailable, GoodAt: now,
		}},
		{"forbidden", &Entry{
			URL: "https://xn--bcher-kva.example/robots.txt", Outcome: Forbidden, Status: 403,
			Fetched: now, Expires: now.Add(24 * time.Hour), Good: Forbidden, GoodAt: now,
		}},
		{"empty body", &Entry{
			URL: "https://empty.example/robots.txt", Outcome: Success, Status: 200,
			Fetched: now, Expires: now.Add(24 * time.Hour), Good: Success, GoodAt: now,
			Body: []byte{},
		}},
		{"binary body", &Entry{
			URL: "https://bin.example/robots.txt", Outcome: Success, Status: 200,
			Fetched: now, Good: Success, GoodAt: now, Body: binary,
		}},
		{"500 KiB body", &Entry{
			URL: "https://big.example/robots.txt", Outcome: Success, Status: 200,
			Fetched: now, Expires: now.Add(24 * time.Hour), Good: Success, GoodAt: now,
			Body: bytes.Repeat([]byte("Disallow: /a\n"), 500<<10/13),
		}},
		{"zero", &Entry{}},
	}
}

// cacheEntryDiff describes how got differs from want, field by field, or
// returns "" when they are equal.
func cacheEntryDiff(got, want *Entry) string {
	if got == nil || want == nil {
		if got == want {
			return ""
		}
		return fmt.Sprintf("got %v, want %v", got, want)
	}
	var d []string
	if got.URL != want.URL {
		d = append(d, fmt.Sprintf("URL %q, want %q", got.URL, want.URL))
	}
	if got.Outcome != want.Outcome {
		d = append(d, fmt.Sprintf("Outcome %v, want %v", got.Outcome, want.Outcome))
	}
	if got.Status != want.Status {
		d = append(d, fmt.Sprintf("Status %d, want %d", got.Status, want.Status))
	}
	for _, f := range []struct {
		name      string
		got, want time.Time
	}{
		{"Fetched", got.Fetched, want.Fetched},
		{"Expires", got.Expires, want.Expires},
		{"ErrorSince", got.ErrorSince, want.ErrorSince},
		{"GoodAt", got.GoodAt, want.GoodAt},
	} {
		if !f.got.Equal(f.want) || f.got.IsZero() != f.want.IsZero() {
			d = append(d, fmt.Sprintf("%s %v, want %v", f.name, f.got, f.want))
		}
	}
	if got.Good != want.Good {
		d = append(d, fmt.Sprintf("Good %v, want %v", got.Good, want.Good))
	}
	if !bytes.Equal(got.Body, want.Body) {
		d = append(d, fmt.Sprintf("Body of %d bytes, want %d", len(got.Body), len(want.Body)))
	}
	return strings.Join(d, "; ")
}

// cacheImpls are the caches every behaviour test runs against. A cache
// whose server is missing skips the test (see cacheTestRedisAddr).
var cacheImpls = []struct {
	name string
	open func(t *testing.T) Cache
}{
	{"memory", func(t *testing.T) Cache { return NewMemoryCache(0) }},
	{"disk", func(t *testing.T) Cache { return cacheTestDisk(t) }},
	{"redis", func(t *testing.T) Cache { return cacheTestRedis(t) }},
	{"layered/memory+disk", func(t *testing.T) Cache {
		return Layered(NewMemoryCache(0), cacheTestDisk(t))
	}},
	{"layered/memory+redis", func(t *testing.T) Cache {
		return Layered(NewMemoryCache(0), cacheTestRedis(t))
	}},
	{"layered/disk+redis", func(t *testing.T) Cache {
		return Layered(cacheTestDisk(t), cacheTestRedis(t))
	}},
}

func cacheTestDisk(t *testing.T) *DiskCache {
	t.Helper()
	d, err := OpenDiskCache(filepath.Join(t.TempDir(), "robots.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Error(err)
		}
	})
	return d
}

// TestCacheBehaviour runs the same checks against every Cache: a miss, a
// round trip of every field, a replacement, and concurrent use (run with
// -race).
func TestCacheBehaviour(t *testing.T) {
	for _, impl := range cacheImpls {
		t.Run(impl.name, func(t *testing.T) {
			c := impl.open(t)
			ctx := context.Background()

			t.Run("miss", func(t *testing.T) {
				e, err := c.Get(ctx, "google https://absent.example")
				if e != nil || err != nil {
					t.Fatalf("Get of a missing key = %v, %v; want nil, nil", e, err)
				}
			})

			t.Run("round trip", func(t *testing.T) {
				for _, tc := range cacheTestEntries() {
					key := "google " + tc.name
					if err := c.Put(ctx, key, tc.e); err != nil {
						t.Fatalf("%s: Put: %v", tc.name, err)
					}
					got, err := c.Get(ctx, key)
					if err != nil {
						t.Fatalf("%s: Get: %v", tc.name, err)
					}
					if d := cacheEntryDiff(got, tc.e); d != "" {
						t.Errorf("%s: %s", tc.name, d)
					}
				}
			})

			t.Run("replace", func(t *testing.T) {
				es := cacheTestEntries()
				key := "rfc9309 https://replace.example"
				for _, tc := range es[:3] {
					if err := c.Put(ctx, key, tc.e); err != nil {
						t.Fatal(err)
					}
				}
				got, err := c.Get(ctx, key)
				if err != nil {
					t.Fatal(err)
				}
				if d := cacheEntryDiff(got, es[2].e); d != "" {
					t.Error(d)
				}
			})

			t.Run("concurrent", func(t *testing.T) {
				const goroutines, rounds, keys = 50, 20, 7
				es := cacheTestEntries()
				var wg sync.WaitGroup
				errs := make(chan error, goroutines)
				for g := range goroutines {
					wg.Go(func() {
						for r := range rounds {
							k := (g + r) % keys
							key := fmt.Sprintf("google https://c%d.example", k)
							if (g+r)%3 == 0 {
								if err := c.Put(ctx, key, es[k].e); err != nil {
									errs <- err
									return
								}
								continue
							}
							got, err := c.Get(ctx, key)
							if err != nil {
								errs <- err
								return
							}
							// Each key only ever holds one entry.
							if got != nil {
								if d := cacheEntryDiff(got, es[k].e); d != "" {
									errs <- fmt.Errorf("%s: %s", key, d)
									return
								}
							}
						}
					})
				}
				wg.Wait()
				close(errs)
				for err := range errs {
					t.Error(err)
				}
			})
		})
	}
}
