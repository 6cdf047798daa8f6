package timeline

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/history"
)

var t0 = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

func ok(at time.Duration, body string) history.Version {
	return history.Version{Time: t0.Add(at), Status: 200, Outcome: "success", Body: []byte(body), Size: int64(len(body))}
}

func down(at time.Duration, status int) history.Version {
	o := "unreachable"
	if status == 404 {
		o = "unavailable"
	}
	return history.Version{Time: t0.Add(at), Status: status, Outcome: o}
}

// TestRead walks a history through each policy's status rules: the
// version in force, a 503 read as complete disallow for Google's first
// 12 hours and then as the last good copy (Google's robots.txt
// documentation), RFC 9309 §2.3.1.4's complete disallow, Yandex's "no
// file" for a 5xx (Yandex's robots.txt help), and a 404's no
// restrictions.
func TestRead(t *testing.T) {
	h := time.Hour
	tl := New([]history.Version{
		ok(0, "User-agent: *\nDisallow: /a\n"),
		ok(24*h, "User-agent: *\nDisallow: /b\n"),
		down(48*h, 503),
		down(48*h+30*time.Minute, 0), // a network error: still the same outage for every policy
		ok(96*h, "User-agent: *\nDisallow: /c\n"),
		down(120*h, 404),
	})
	for _, tc := range []struct {
		at      time.Duration
		pol     fetch.Policy
		version int
		access  fetch.Access
		source  int
		why     string
	}{
		{-h, fetch.Google, -1, 0, -1, ""},
		{0, fetch.Google, 0, fetch.AccessRules, 0, "rules"},
		{30 * h, fetch.Google, 1, fetch.AccessRules, 1, "rules"},
		{48*h + 10*time.Minute, fetch.Google, 2, fetch.AccessNone, -1, "complete disallow"},
		{59 * h, fetch.Google, 3, fetch.AccessNone, -1, "complete disallow"},
		{61 * h, fetch.Google, 3, fetch.AccessRules, 1, "unreachable for 13 hours: the last good copy"},
		{61 * h, fetch.RFC9309, 3, fetch.AccessNone, -1, "complete disallow"},
		{48*h + 10*time.Minute, fetch.Yandex, 2, fetch.AccessAll, -1, "no robots.txt"},
		{97 * h, fetch.Google, 4, fetch.AccessRules, 4, "rules"},
		{121 * h, fetch.Google, 5, fetch.AccessAll, -1, "no robots.txt"},
	} {
		r := tl.Read(t0.Add(tc.at), tc.pol, robots.Google)
		if r.Version != tc.version || r.Access != tc.access || r.Source != tc.source || !strings.Contains(r.Reason, tc.why) {
			t.Errorf("%v under %s: %+v, want version %d, access %v, source %d, …%s…", tc.at, tc.pol, r, tc.version, tc.access, tc.source, tc.why)
		}
		if (r.Rules != nil) != (tc.access == fetch.AccessRules) {
			t.Errorf("%v under %s: rules %v", tc.at, tc.pol, r.Rules)
		}
	}
	// The rules are the source version's: during the outage, /b.
	d, _ := tl.Decide(t0.Add(61*h), fetch.Google, robots.Google, robots.Agent{Tokens: []string{"Googlebot"}}, "https://x.test/b")
	if d.Allowed || d.Line != 2 {
		t.Errorf("13 hours into the outage, /b: %+v", d)
	}
	d, _ = tl.Decide(t0.Add(49*h), fetch.Google, robots.Google, robots.Agent{Tokens: []string{"Googlebot"}}, "https://x.test/z")
	if d.Allowed {
		t.Errorf("an hour into the outage, /z: %+v", d)
	}
	d, _ = tl.Decide(t0.Add(-h), fetch.Google, robots.Google, robots.Agent{Tokens: []string{"Googlebot"}}, "https://x.test/a")
	if !d.Allowed {
		t.Errorf("before the first version: %+v", d)
	}
}

// TestOutcomeUnderPolicies: one stored answer read by each policy's
// status rules (fetch.Policy.Classify): a 401 is no file for Google and
// forbidden for the 1996 draft (Moderatobot); a 203 is a file for Google
// and none for Yandex, which reads only a 200.
func TestOutcomeUnderPolicies(t *testing.T) {
	tl := New([]history.Version{
		{Time: t0, Status: 401, Outcome: "unavailable"},
		{Time: t0.Add(time.Hour), Status: 203, Outcome: "success", Body: []byte("User-agent: *\nDisallow: /\n"), Size: 26},
	})
	for _, tc := range []struct {
		i    int
		pol  fetch.Policy
		want fetch.Outcome
	}{
		{0, fetch.Google, fetch.Unavailable},
		{0, fetch.Draft1996, fetch.Forbidden},
		{1, fetch.Google, fetch.Success},
		{1, fetch.Yandex, fetch.Unavailable},
	} {
		if got := tl.Outcome(tc.i, tc.pol); got != tc.want {
			t.Errorf("version %d under %s: %v, want %v", tc.i, tc.pol, got, tc.want)
		}
	}
}

// TestChange: two files give the rules' report; a 503 after a file
// gives each family's reading before and after.
func TestChange(t *testing.T) {
	tl := New([]history.Version{
		ok(0, "User-agent: *\nDisallow: /a\n"),
		ok(time.Hour, "User-agent: *\nDisallow: /a\nDisallow: /b\n"),
		down(2*time.Hour, 503),
	})
	fams, rep := tl.Change(context.Background(), 0, 1)
	if fams != nil || rep == nil || !rep.Changed || len(rep.Rules) != 1 || rep.Rules[0].Line != 3 {
		t.Fatalf("v1 → v2: %v, %+v", fams, rep)
	}
	fams, rep = tl.Change(context.Background(), 1, 2)
	if rep != nil || len(fams) != 4 {
		t.Fatalf("v2 → 503: %+v, %v", fams, rep)
	}
	for _, f := range fams {
		want := "complete disallow"
		if f.Family == robots.Yandex {
			want = "no restrictions"
		}
		if f.Before != "the rules of version 2 apply" || !strings.Contains(f.After, want) {
			t.Errorf("%s: %+v", f.Family, f)
		}
	}
}
