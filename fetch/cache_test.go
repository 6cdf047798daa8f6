package fetch

import (
	"bytes"
	"fmt"
	"strings"
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
// now so that no retention period has passed. (internal/cachetest has the
// same for the tests of the other cache packages, which this package's
// own tests cannot import.)
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
