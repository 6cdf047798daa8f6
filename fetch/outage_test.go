package fetch

import (
	"strings"
	"testing"
	"time"
)

// TestOutage walks each policy's outage timeline (the "outage" rows of
// the package documentation's table): Google's 12 hours of complete
// disallow, then the last good copy up to 30 days, then no restrictions
// (Google's robots.txt documentation and Search Console's); RFC 9309
// §2.3.1.4's complete disallow for "a reasonably long period of time (for
// example, 30 days)", then the cached copy.
func TestOutage(t *testing.T) {
	h := time.Hour
	for _, tc := range []struct {
		p      Policy
		streak time.Duration
		good   Outcome
		want   Access
		why    string
	}{
		{Google, 0, Success, AccessNone, "complete disallow"},
		{Google, 11 * h, Success, AccessNone, "complete disallow"},
		{Google, 13 * h, Success, AccessRules, "last good copy"},
		{Google, 13 * h, Unavailable, AccessAll, "found no robots.txt"},
		{Google, 13 * h, 0, AccessAll, "no good copy"},
		{Google, 31 * 24 * h, Success, AccessAll, "no restrictions"},
		{RFC9309, 13 * h, Success, AccessNone, "complete disallow"},
		{RFC9309, 31 * 24 * h, Success, AccessRules, "last good copy"},
		{RFC9309, 31 * 24 * h, Forbidden, AccessNone, "forbidden"},
		{Google, -h, Success, AccessNone, "complete disallow"},
	} {
		a, why := tc.p.Outage(tc.streak, tc.good)
		if a != tc.want || !strings.Contains(why, tc.why) {
			t.Errorf("%s.Outage(%v, %v) = %v, %q; want %v, …%q…", tc.p, tc.streak, tc.good, a, why, tc.want, tc.why)
		}
	}
}
