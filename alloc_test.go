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

// TestAllowedAllocs: checking an ASCII URL allocates nothing, whichever
// profile and whichever branch decides (the package documentation:
// "Checking a URL does not allocate when its path is ASCII").
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
