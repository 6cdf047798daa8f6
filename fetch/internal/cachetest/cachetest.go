// Package cachetest holds what the tests of the caches of package fetch
// share: entries that cover every field of a fetch.Entry, a comparison of
// two entries, the behaviour every fetch.Cache must have (Run), and the
// origins of the cache benchmarks. The tests of fetch itself keep copies
// of Body, Entries, Diff and OriginBody, since they cannot import this
// package, which imports fetch.
package cachetest

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robotskit/robots/fetch"
)

// Body is a small robots.txt, as most are.
const Body = `User-agent: *
Disallow: /search
Disallow: /private/
Allow: /private/index.html

User-agent: Googlebot
Disallow: /nogoogle/
`

// A NamedEntry is one of the Entries.
type NamedEntry struct {
	Name string
	E    *fetch.Entry
}

// Entries returns entries that cover every field, relative to now so that
// no retention period has passed.
func Entries() []NamedEntry {
	now := time.Now()
	binary := make([]byte, 256)
	for i := range binary {
		binary[i] = byte(i)
	}
	return []NamedEntry{
		{"success", &fetch.Entry{
			URL: "https://example.com/robots.txt", Outcome: fetch.Success, Status: 200,
			Fetched: now, Expires: now.Add(24 * time.Hour),
			Good: fetch.Success, GoodAt: now, Body: []byte(Body),
		}},
		{"outage with last good copy", &fetch.Entry{
			URL: "https://example.com/robots.txt", Outcome: fetch.Unreachable, Status: 503,
			Fetched: now, Expires: now.Add(time.Hour), ErrorSince: now.Add(-72 * time.Hour),
			Good: fetch.Success, GoodAt: now.Add(-96 * time.Hour), Body: []byte(Body),
		}},
		{"no response", &fetch.Entry{
			URL: "https://down.example/robots.txt", Outcome: fetch.Unreachable,
			Fetched: now, Expires: now.Add(time.Minute), ErrorSince: now,
		}},
		{"not found", &fetch.Entry{
			URL: "http://example.org:8080/robots.txt", Outcome: fetch.Unavailable, Status: 404,
			Fetched: now, Expires: now.Add(24 * time.Hour), Good: fetch.Unavailable, GoodAt: now,
		}},
		{"forbidden", &fetch.Entry{
			URL: "https://xn--bcher-kva.example/robots.txt", Outcome: fetch.Forbidden, Status: 403,
			Fetched: now, Expires: now.Add(24 * time.Hour), Good: fetch.Forbidden, GoodAt: now,
		}},
		{"empty body", &fetch.Entry{
			URL: "https://empty.example/robots.txt", Outcome: fetch.Success, Status: 200,
			Fetched: now, Expires: now.Add(24 * time.Hour), Good: fetch.Success, GoodAt: now,
			Body: []byte{},
		}},
		{"binary body", &fetch.Entry{
			URL: "https://bin.example/robots.txt", Outcome: fetch.Success, Status: 200,
			Fetched: now, Good: fetch.Success, GoodAt: now, Body: binary,
		}},
		{"500 KiB body", &fetch.Entry{
			URL: "https://big.example/robots.txt", Outcome: fetch.Success, Status: 200,
			Fetched: now, Expires: now.Add(24 * time.Hour), Good: fetch.Success, GoodAt: now,
			Body: bytes.Repeat([]byte("Disallow: /a\n"), 500<<10/13),
		}},
		{"zero", &fetch.Entry{}},
	}
}

// Diff describes how got differs from want, field by field, or returns ""
// when they are equal.
func Diff(got, want *fetch.Entry) string {
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

// Run runs the same checks against the Cache c: a miss, a round trip of
// every field, a replacement, and concurrent use (run with -race).
func Run(t *testing.T, c fetch.Cache) {
	ctx := context.Background()

	t.Run("miss", func(t *testing.T) {
		e, err := c.Get(ctx, "google https://absent.example")
		if e != nil || err != nil {
			t.Fatalf("Get of a missing key = %v, %v; want nil, nil", e, err)
		}
	})

	t.Run("round trip", func(t *testing.T) {
		for _, tc := range Entries() {
			key := "google " + tc.Name
			if err := c.Put(ctx, key, tc.E); err != nil {
				t.Fatalf("%s: Put: %v", tc.Name, err)
			}
			got, err := c.Get(ctx, key)
			if err != nil {
				t.Fatalf("%s: Get: %v", tc.Name, err)
			}
			if d := Diff(got, tc.E); d != "" {
				t.Errorf("%s: %s", tc.Name, d)
			}
		}
	})

	t.Run("replace", func(t *testing.T) {
		es := Entries()
		key := "rfc9309 https://replace.example"
		for _, tc := range es[:3] {
			if err := c.Put(ctx, key, tc.E); err != nil {
				t.Fatal(err)
			}
		}
		got, err := c.Get(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		if d := Diff(got, es[2].E); d != "" {
			t.Error(d)
		}
	})

	t.Run("concurrent", func(t *testing.T) {
		const goroutines, rounds, keys = 50, 20, 7
		es := Entries()
		var wg sync.WaitGroup
		errs := make(chan error, goroutines)
		for g := range goroutines {
			wg.Go(func() {
				for r := range rounds {
					k := (g + r) % keys
					key := fmt.Sprintf("google https://c%d.example", k)
					if (g+r)%3 == 0 {
						if err := c.Put(ctx, key, es[k].E); err != nil {
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
						if d := Diff(got, es[k].E); d != "" {
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
}

// OriginBody returns a robots.txt of about 560 bytes, the median of the
// real corpus (556 bytes; the mean is 1,998), with paths of its own so
// that no two origins share rules.
func OriginBody(i int) []byte {
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

// OriginKey is the cache key of the origin OriginBody(i) belongs to.
func OriginKey(i int) string { return fmt.Sprintf("google https://host%05d.example", i) }

// BenchGet measures hits of c over 1,000 origins.
func BenchGet(b *testing.B, c fetch.Cache) {
	const n = 1000
	ctx := context.Background()
	keys := make([]string, n)
	now := time.Now()
	// Put from many goroutines, as a crawler does: a disk cache then
	// writes them in a few transactions rather than one per 10 ms.
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range keys {
		keys[i] = OriginKey(i)
		e := &fetch.Entry{URL: "https://example.com/robots.txt", Outcome: fetch.Success, Status: 200,
			Fetched: now, Expires: now.Add(24 * time.Hour), Good: fetch.Success, GoodAt: now, Body: OriginBody(i)}
		wg.Go(func() { errs <- c.Put(ctx, keys[i], e) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if e, err := c.Get(ctx, keys[i%n]); e == nil || err != nil {
			b.Fatalf("Get = %v, %v", e, err)
		}
		i++
	}
}
