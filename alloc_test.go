package robots_test

import (
	"strings"
	"testing"

	"github.com/robotskit/robots"
)

const allocRobots = `User-agent: *
Disallow: /search
Disallow: /*?sort=
Allow: /search/about$
Disallow: /private/
Allow: /private/index.html

User-agent: Googlebot
User-agent: Bingbot
Disallow: /nogoogle/
Disallow: /*.pdf$
`

// TestAllowedAllocs: checking a short ASCII URL allocates nothing,
// whichever profile and whichever branch decides (the package
// documentation: "Checking a URL does not allocate unless its path must be
// rewritten to be compared and is longer than 256 bytes once rewritten").
func TestAllowedAllocs(t *testing.T) {
	urls := []string{
		"https://example.com/search?q=1",
		"https://example.com/a/b?sort=asc",
		"https://example.com/private/",
		"https://example.com/x.pdf",
		"https://example.com?query",
		"https://example.com/%7Euser/%aa*$",
		"/robots.txt",
		"",
	}
	for _, p := range robots.Profiles() {
		r := robots.Parse([]byte(allocRobots), p)
		for _, agent := range []string{"Googlebot", "googlebot", "ExampleBot", strings.Repeat("x", 100)} {
			for _, u := range urls {
				if n := testing.AllocsPerRun(100, func() { r.Allowed(agent, u) }); n != 0 {
					t.Errorf("[%v] Allowed(%q, %q): %v allocations, want 0", p, agent, u, n)
				}
			}
		}
	}
}

// TestAllowedAllocsLong holds Allowed to what Rules documents for long
// URLs: a path compared as given takes no allocation at any length; a path
// the profile must rewrite takes none while it is at most 256 bytes once
// rewritten, and past that the allocation of the rewritten path (one, for
// the lengths here: normalising a much longer path may grow it more than
// once). A URL without a path but with a query is rewritten under every
// profile ("?q" is compared as "/?q"); the profiles with rfc %-encoding (all
// but Google and Strict1994) also rewrite a path not in RFC 9309's
// canonical form, which may make it shorter ("%41" is "A") or longer.
func TestAllowedAllocsLong(t *testing.T) {
	const host = "https://example.com"
	query := func(n int) string { return "?sort=" + strings.Repeat("q", n-len("?sort=")) } // n bytes
	tests := []struct {
		name string
		url  string
		// rewritten lengths: under Google and Strict1994, under the rfc
		// profiles; 0 when the path is compared as given
		google, rfc int
	}{
		{"long ASCII path", host + "/private/" + strings.Repeat("a", 20000), 0, 0},
		{"long ASCII path and query", host + "/a/b" + query(20000), 0, 0},
		{"long ASCII path without a host", "/" + strings.Repeat("x/", 5000), 0, 0},
		{"no path, query of 255 bytes", host + query(255), 256, 256},
		{"no path, query of 256 bytes", host + query(256), 257, 257},
		{"no path, query of 300 bytes", host + query(300), 301, 301},
		{"no path, long query", host + query(20000), 20001, 20001},
		{"no path, parameters of 300 bytes", host + ";" + strings.Repeat("p", 299), 301, 301},
		// "%7e" is "~" under rfc encoding.
		{"long path to normalise, short enough once normalised", host + "/" + strings.Repeat("a", 253) + "%7e", 0, 255},
		{"long path to normalise", host + "/" + strings.Repeat("a", 300) + "%7e", 0, 302},
		{"no path, query to normalise", host + query(200) + "%7e", 201 + 3, 201 + 1},
		{"no path, query that normalising shortens", host + "?" + strings.Repeat("%41", 100), 302, 102},
	}
	for _, p := range robots.Profiles() {
		r := robots.Parse([]byte(allocRobots), p)
		for _, tt := range tests {
			n := tt.rfc
			if p == robots.Google || p == robots.Strict1994 {
				n = tt.google
			}
			want := 0.0
			if n > 256 {
				want = 1
			}
			for _, agent := range []string{"Googlebot", "ExampleBot"} {
				got := testing.AllocsPerRun(20, func() { r.Allowed(agent, tt.url) })
				if got != want {
					t.Errorf("[%v] %s: Allowed(%q, …): %v allocations, want %v (path rewritten to %d bytes)", p, tt.name, agent, got, want, n)
				}
				// Without a path, the rewritten path decides as the path
				// written out does.
				if tt.google > 0 {
					if a, b := r.Allowed(agent, tt.url), r.Allowed(agent, host+"/"+tt.url[len(host):]); a != b {
						t.Errorf("[%v] %s: Allowed(%q, …) = %v, with the path's \"/\" written out %v", p, tt.name, agent, a, b)
					}
				}
			}
		}
	}
}

// TestWorstCase: a 16 KB pattern of the shape /*a*a…*b against a 16 KB path
// is answered correctly (and, see BenchmarkWorstCase, in microseconds).
func TestWorstCase(t *testing.T) {
	pat := "/" + strings.Repeat("*a", 8000) + "*b"
	body := []byte("User-agent: *\nDisallow: " + pat + "\n")
	r := robots.Parse(body, robots.Google)
	path := "/" + strings.Repeat("a", 16000)
	if !r.Allowed("x", path) {
		t.Errorf("path without b: disallowed, want allowed")
	}
	if r.Allowed("x", path+"b") {
		t.Errorf("path ending in b: allowed, want disallowed")
	}
}

func BenchmarkWorstCase(b *testing.B) {
	pat := "/" + strings.Repeat("*a", 8000) + "*b"
	r := robots.Parse([]byte("User-agent: *\nDisallow: "+pat+"\n"), robots.Google)
	path := "/" + strings.Repeat("a", 16000)
	for b.Loop() {
		r.Allowed("x", path)
	}
}

func BenchmarkAllowed(b *testing.B) {
	r := robots.Parse([]byte(allocRobots), robots.Google)
	for b.Loop() {
		r.Allowed("Googlebot", "https://example.com/some/page.html?x=1")
	}
}

func BenchmarkParse(b *testing.B) {
	src := []byte(strings.Repeat(allocRobots, 4))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		robots.Parse(src, robots.Google)
	}
}
