package check

import (
	"slices"
	"strings"
	"testing"
)

func TestParseIgnore(t *testing.T) {
	for _, tt := range []struct {
		in     string
		ok     bool
		names  []string
		reason string
	}{
		{"# robots:ignore RB501 the CMS", true, []string{"RB501"}, "the CMS"},
		{"#robots:ignore RB501,RB502\tx y ", true, []string{"RB501", "RB502"}, "x y"},
		{"#  \trobots:ignore", true, nil, ""},
		{"# robots:ignore RB501", true, []string{"RB501"}, ""},
		{"# robots:ignore RB501,,", true, []string{"RB501", "", ""}, ""},
		{"# robots:ignored RB501 x", false, nil, ""},
		{"# Robots:ignore RB501 x", false, nil, ""},
		{"# see robots:ignore RB501 x", false, nil, ""},
		{"robots:ignore RB501 x", false, nil, ""},
		{"#", false, nil, ""},
	} {
		names, offs, reason, ok := ParseIgnore(tt.in)
		if ok != tt.ok || !slices.Equal(names, tt.names) || reason != tt.reason {
			t.Errorf("%q: %q %q %v, want %q %q %v", tt.in, names, reason, ok, tt.names, tt.reason, tt.ok)
		}
		for i, n := range names {
			if tt.in[offs[i]:offs[i]+len(n)] != n {
				t.Errorf("%q: offset %d of %q is wrong", tt.in, offs[i], n)
			}
		}
	}
}

// FuzzParseIgnore checks that ParseIgnore never panics and that what it
// returns points into its input.
func FuzzParseIgnore(f *testing.F) {
	for _, s := range []string{"# robots:ignore RB501 x", "#robots:ignore ,,\t", "# robots:ignore", "#\trobots:ignore a,b c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		names, offs, reason, ok := ParseIgnore(s)
		if !ok {
			if names != nil || reason != "" {
				t.Fatalf("%q: not an ignore, yet %q %q", s, names, reason)
			}
			return
		}
		if len(names) != len(offs) {
			t.Fatalf("%q: %d names, %d offsets", s, len(names), len(offs))
		}
		for i, n := range names {
			if offs[i] < 0 || offs[i]+len(n) > len(s) || s[offs[i]:offs[i]+len(n)] != n || strings.ContainsAny(n, ", \t") {
				t.Fatalf("%q: name %q at %d", s, n, offs[i])
			}
		}
		if !strings.Contains(s, reason) || strings.Trim(reason, " \t") != reason {
			t.Fatalf("%q: reason %q", s, reason)
		}
	})
}
