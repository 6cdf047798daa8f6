package spell

import (
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"", "", 0, 0},
		{"googlebot", "googlebot", 0, 0},
		{"gogglebot", "googlebot", 0, 1},   // substitution
		{"gooblebot", "googlebot", 0, 1},   // substitution
		{"googelbot", "googlebot", 0, 1},   // swap of adjacent bytes
		{"googlebt", "googlebot", 0, 1},    // deletion
		{"agnet", "agent", 0, 1},           // swap
		{"ca", "abc", 0, 3},                // OSA: no substring edited twice
		{"bingbot", "googlebot", 0, 5},     //
		{"bingbot", "googlebot", 3, 3},     // capped at the limit
		{"a", "abcdef", 3, 3},              // lengths alone
		{"Googlebot", "googlebot", 0, 1},   // case counts
		{"disalow", "disallow", 2, 1},      //
		{"user-agnet", "user-agent", 2, 1}, //
		{"kitten", "sitting", 0, 3},        //
		{"mj12bot", "mj12bot/", 0, 1},      //
	} {
		if got := Distance(tt.a, tt.b, tt.limit); got != tt.want {
			t.Errorf("Distance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.want)
		}
		if got := Distance(tt.b, tt.a, tt.limit); got != tt.want {
			t.Errorf("Distance(%q, %q, %d) = %d, want %d (not symmetric)", tt.b, tt.a, tt.limit, got, tt.want)
		}
	}
}

func FuzzDistance(f *testing.F) {
	f.Add("googlebot", "gogglebot")
	f.Add("", "x")
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(a) > 100 || len(b) > 100 {
			return
		}
		d := Distance(a, b, 0)
		if d != Distance(b, a, 0) || d > max(len(a), len(b)) || d < abs(len(a)-len(b)) || (d == 0) != (a == b) {
			t.Fatalf("Distance(%q, %q) = %d", a, b, d)
		}
		for limit := 1; limit <= 4; limit++ {
			if l := Distance(a, b, limit); l != min(d, limit) && !(len(a) > 64 && l == limit) {
				t.Fatalf("Distance(%q, %q, %d) = %d, unbounded %d", a, b, limit, l, d)
			}
		}
	})
}

// TestDistanceAllocs: the checker measures every unknown key against each
// directive name, so short names must not allocate.
func TestDistanceAllocs(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { Distance("dissallow", "disallow", 3) }); n != 0 {
		t.Errorf("Distance allocates %v times for short names", n)
	}
	if got := Distance(strings.Repeat("a", 70), strings.Repeat("a", 69)+"b", 0); got != 1 {
		t.Errorf("Distance of 70-byte names = %d, want 1", got)
	}
}
