package lint_test

import (
	"slices"
	"testing"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/lint"
	"github.com/robotskit/robots/syntax"
)

func TestProfileFamily(t *testing.T) {
	for _, tt := range []struct {
		p     robots.Profile
		want  lint.Family
		major bool
	}{
		{robots.Google, lint.FamilyGoogle, true},
		{robots.RFC9309, lint.FamilyRFC, true},
		{robots.Bing, lint.FamilyBing, true},
		{robots.Yandex, lint.FamilyYandex, true},
		{robots.Draft1996, lint.FamilyFirstMatch, false},
		{robots.Strict1994, lint.FamilyStrict1994, false},
		{robots.Profile(200), "", false},
	} {
		got := lint.ProfileFamily(tt.p)
		if got != tt.want || got.Major() != tt.major {
			t.Errorf("ProfileFamily(%v) = %q (major %v), want %q (major %v)", tt.p, got, got.Major(), tt.want, tt.major)
		}
	}
}

func TestForProfile(t *testing.T) {
	goog := &lint.Check{Code: "RB901", Affects: []lint.Family{lint.FamilyGoogle, lint.FamilyBing}}
	fm := &lint.Check{Code: "RB902", Affects: []lint.Family{lint.FamilyFirstMatch, lint.FamilyStrict1994}}
	all := &lint.Check{Code: "RB903", Affects: []lint.Family{lint.FamilyAll}}
	ds := []lint.Diagnostic{
		{Check: goog, Message: "google and bing"},
		{Check: fm, Message: "first-match"},
		{Check: all, Message: "every robot"},
		// A diagnostic that narrows its check's families.
		{Check: goog, Affects: []lint.Family{lint.FamilyBing}, Message: "bing only"},
	}
	for _, tt := range []struct {
		p    robots.Profile
		want []string
	}{
		{robots.Google, []string{"google and bing", "every robot"}},
		{robots.Bing, []string{"google and bing", "every robot", "bing only"}},
		{robots.Yandex, []string{"every robot"}},
		{robots.Draft1996, []string{"first-match", "every robot"}},
		{robots.Strict1994, []string{"first-match", "every robot"}},
	} {
		var got []string
		for _, d := range lint.ForProfile(ds, tt.p) {
			got = append(got, d.Message)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("ForProfile(%v) = %q, want %q", tt.p, got, tt.want)
		}
	}
	if got := lint.ForProfile(nil, robots.Google); got != nil {
		t.Errorf("ForProfile(nil) = %v, want nil", got)
	}
}

// TestForProfileRun: on a real finding that affects fewer families than
// its check, a profile keeps the findings of its family by the finding's
// own families. Google reads "Googlebot/2.1" as the token Googlebot (RFC
// 9309 §2.2.1), first-match robots of the 1996 draft as another name
// (RB412 affects FM only).
func TestForProfileRun(t *testing.T) {
	const file = "User-agent: *\nDisallow: /x\n\nUser-agent: Googlebot/2.1\nDisallow: /y\n"
	ds := lint.Fold(lint.Run(syntax.Parse("robots.txt", []byte(file)), &lint.Config{Thorough: true, AllRobots: true}))
	has := func(ds []lint.Diagnostic, code string) bool {
		return slices.ContainsFunc(ds, func(d lint.Diagnostic) bool { return d.Check.Code == code })
	}
	if !has(ds, "RB412") {
		t.Fatalf("the file gives no RB412: %v", ds)
	}
	if has(lint.ForProfile(ds, robots.Google), "RB412") {
		t.Error("google keeps RB412 of a version Google reads as the token")
	}
	if !has(lint.ForProfile(ds, robots.Draft1996), "RB412") {
		t.Error("draft1996 drops RB412")
	}
}
