package robots_test

import (
	"testing"

	"github.com/robotskit/robots"
)

// TestNilRules: a nil *Rules allows everything and has the zero
// Profile; Compile(nil, p) is the empty file's rules under p. Neither
// panics.
func TestNilRules(t *testing.T) {
	var r *robots.Rules
	if p := r.Profile(); p != robots.Google {
		t.Errorf("nil Rules: profile %v", p)
	}
	if !r.Allowed("Googlebot", "/private") {
		t.Error("nil Rules: a URL is disallowed")
	}
	if d := r.Decide(robots.Token("Googlebot"), "/x"); !d.Allowed || d.Reason != robots.NoGroup {
		t.Errorf("nil Rules: %+v", d)
	}
	if _, ok := r.Group(robots.Token("Googlebot")); ok {
		t.Error("nil Rules: a group")
	}
	if r.Sitemaps() != nil || r.Extensions() != nil || r.CleanParams() != nil {
		t.Error("nil Rules: extension lines")
	}
	if _, ok := r.Host(); ok {
		t.Error("nil Rules: a Host")
	}
	for _, p := range robots.Profiles() {
		rs := robots.Compile(nil, p)
		if rs == nil || rs.Profile() != p {
			t.Errorf("Compile(nil, %v): %v", p, rs)
			continue
		}
		if !rs.Allowed("Googlebot", "/private") || len(rs.Sitemaps()) != 0 {
			t.Errorf("Compile(nil, %v) is not the empty file's rules", p)
		}
		empty := robots.Parse(nil, p)
		if d, e := rs.Decide(robots.Token("x"), "/a"), empty.Decide(robots.Token("x"), "/a"); d != e {
			t.Errorf("Compile(nil, %v) decides %+v, Parse(nil) %+v", p, d, e)
		}
	}
}
