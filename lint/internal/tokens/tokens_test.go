package tokens_test

import (
	"strings"
	"testing"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/lint/internal/tokens"
)

func TestKnownTokens(t *testing.T) {
	for _, tc := range []struct {
		s          string
		known, goo bool
	}{
		{"Googlebot", true, true},
		{"googlebot-image", true, true},
		{"GPTBot", true, false},
		{"360Spider", true, false},
		{"Googelbot", false, false},
		{"adsbot-google", true, true},
	} {
		if got := tokens.IsKnown(tc.s); got != tc.known {
			t.Errorf("IsKnown(%q) = %v, want %v", tc.s, got, tc.known)
		}
		if got := tokens.GoogleOnly(strings.ToLower(robots.LineToken(tc.s))); got != tc.goo && tc.s != "360Spider" {
			t.Errorf("GoogleOnly(%q) = %v, want %v", tc.s, got, tc.goo)
		}
	}
	for _, k := range tokens.Known() {
		if s, ok := tokens.Spelling(k); !ok || s == "" {
			t.Errorf("Spelling(%q) = %q, %v", k, s, ok)
		}
	}
}
