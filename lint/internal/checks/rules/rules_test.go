package rules

import "testing"

// TestSplitURL checks how FX25 reads absolute URLs.
func TestSplitURL(t *testing.T) {
	cases := []struct{ in, host, path string }{
		{"https://www.example.com/private/?q=1", "www.example.com", "/private/?q=1"},
		{"HTTP://user@example.com:8080", "example.com", "/"},
		{"http://example.com?x", "example.com", "/?x"},
		{"https://[::1]:443/a", "[::1]", "/a"},
	}
	for _, c := range cases {
		h, p, ok := splitURL(c.in)
		if !ok || h != c.host || p != c.path {
			t.Errorf("%q: %q %q %v", c.in, h, p, ok)
		}
	}
	for _, s := range []string{"admin/", "https://", "ftp://x/y"} {
		if _, _, ok := splitURL(s); ok {
			t.Errorf("%q read as a URL", s)
		}
	}
}
