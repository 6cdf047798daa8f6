package lint

import "testing"

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
		if got := isKnownToken(tc.s); got != tc.known {
			t.Errorf("isKnownToken(%q) = %v, want %v", tc.s, got, tc.known)
		}
		if got := isGoogleOnly(agentKey(nil, tc.s)); got != tc.goo && tc.s != "360Spider" {
			t.Errorf("isGoogleOnly(%q) = %v, want %v", tc.s, got, tc.goo)
		}
	}
}
