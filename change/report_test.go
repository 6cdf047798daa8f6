package change

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/internal/probe"
	"github.com/robotskit/robots/syntax"
)

// changesOf returns the changes of robot name under profile p, and
// whether the report compared that robot.
func changesOf(rep *Report, p robots.Profile, name string) ([]URLChange, bool) {
	for _, f := range rep.Families {
		if f.Profile != p {
			continue
		}
		for _, rb := range f.Robots {
			if rb.Name == name {
				return rb.Changes, true
			}
		}
	}
	return nil, false
}

// urlsOf lists the URLs of changes.
func urlsOf(cs []URLChange) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.URL)
	}
	return out
}

// exampleVersions returns the repository's example and a second version
// of it that drops "Allow: /private/press/", fixes Bingbot's "Disalow"
// and shuts GPTBot out.
func exampleVersions(t *testing.T) (old []byte, s string) {
	t.Helper()
	old, err := os.ReadFile("../testdata/example-robots.txt")
	if err != nil {
		t.Fatal(err)
	}
	s = string(old)
	s = strings.Replace(s, "Allow: /private/press/\n", "", 1)
	s = strings.Replace(s, "Disalow: /nobing/", "Disallow: /nobing/", 1)
	s = strings.Replace(s, "Sitemap:", "User-agent: GPTBot\nDisallow: /\n\nSitemap:", 1)
	return old, s
}

// TestDiffExample compares the repository's example with a second
// version that drops "Allow: /private/press/", fixes Bingbot's "Disalow"
// and shuts GPTBot out: each change shows for the robots it affects, with
// the deciding line on each side, and nowhere else.
func TestDiffExample(t *testing.T) {
	old, s := exampleVersions(t)
	rep := Compare(old, []byte(s), nil)
	if !rep.Changed || len(rep.Probes) == 0 || rep.URLs != nil {
		t.Fatalf("Changed %v, %d probes, URLs %v", rep.Changed, len(rep.Probes), rep.URLs)
	}
	var fams []robots.Profile
	for _, f := range rep.Families {
		fams = append(fams, f.Profile)
	}
	if want := []robots.Profile{robots.Google, robots.Bing, robots.Yandex, robots.RFC9309}; !reflect.DeepEqual(fams, want) {
		t.Errorf("families %v, want %v", fams, want)
	}

	// Googlebot has a group of its own in both versions: nothing changes.
	if cs, ok := changesOf(rep, robots.Google, "Googlebot"); !ok || len(cs) != 0 {
		t.Errorf("Googlebot (google): compared %v, changes %v", ok, urlsOf(cs))
	}
	// The robots of the "*" group lose /private/press/.
	cs, _ := changesOf(rep, robots.RFC9309, "*")
	if len(cs) == 0 || cs[0].URL != "/private/press/" {
		t.Fatalf("* (rfc9309): %v", urlsOf(cs))
	}
	c := cs[0]
	if !c.Old.Allowed || c.Old.Line != 5 || c.Old.Rule != "Allow: /private/press/" || c.Old.Reason != "matched" ||
		c.New.Allowed || c.New.Line != 4 || c.New.Rule != "Disallow: /private/" || c.New.Why != "line 4: Disallow: /private/" {
		t.Errorf("/private/press/ for * (rfc9309): %+v", c)
	}
	// The typo fix changes bingbot's verdicts for the families that did
	// not forgive it, and not for Google.
	if cs, _ := changesOf(rep, robots.Google, "bingbot"); len(cs) != 0 {
		t.Errorf("bingbot (google): %v; Google already read Disalow", urlsOf(cs))
	}
	for _, p := range []robots.Profile{robots.Bing, robots.Yandex, robots.RFC9309} {
		cs, _ := changesOf(rep, p, "bingbot")
		if len(cs) == 0 || cs[0].URL != "/nobing/" || !cs[0].Old.Allowed || cs[0].New.Allowed || cs[0].Old.Why != "no rule matches in the group at line 14" {
			t.Errorf("bingbot (%v): %+v", p, cs)
		}
	}
	// GPTBot, named only by the new version, is compared under every
	// family and loses everything but /robots.txt, which RFC 9309
	// always allows.
	cs, ok := changesOf(rep, robots.RFC9309, "GPTBot")
	if !ok || len(cs) == 0 {
		t.Fatalf("GPTBot (rfc9309): compared %v, %v", ok, urlsOf(cs))
	}
	for _, c := range cs {
		if c.URL == "/robots.txt" || c.New.Rule != "Disallow: /" {
			t.Errorf("GPTBot (rfc9309): %+v", c)
		}
	}

	all := Compare(old, []byte(s), &Options{All: true})
	if n := len(all.Families); n != 6 || all.Families[4].Profile != robots.Draft1996 || all.Families[5].Profile != robots.Strict1994 {
		t.Errorf("All: %d families", n)
	}
	// First match: /private/press/ was already closed by the Disallow
	// before the Allow, and the 1994 standard has no Allow.
	for _, p := range []robots.Profile{robots.Draft1996, robots.Strict1994} {
		if cs, _ := changesOf(all, p, "*"); len(cs) != 0 {
			t.Errorf("* (%v): %v", p, urlsOf(cs))
		}
	}
}

// TestDiffNamedOnly: a change in a named robot's group shows for that
// robot only, under every family, even though the family's own robot and
// "*" read both versions alike.
func TestDiffNamedOnly(t *testing.T) {
	old := "User-agent: *\nDisallow: /a\n\nUser-agent: FooBot\nUser-agent: BarBot/2.1\nDisallow: /b\n"
	new := "User-agent: *\nDisallow: /a\n\nUser-agent: FooBot\nUser-agent: BarBot/2.1\nDisallow: /c\n"
	rep := Compare([]byte(old), []byte(new), nil)
	for _, f := range rep.Families {
		for _, rb := range f.Robots {
			switch rb.Name {
			case "FooBot", "BarBot":
				if !rb.Named || !reflect.DeepEqual(urlsOf(rb.Changes), []string{"/b", "/b/x", "/bx", "/c", "/c/x", "/cx"}) {
					t.Errorf("%s (%v): named %v, %v", rb.Name, f.Profile, rb.Named, urlsOf(rb.Changes))
				}
			default:
				if len(rb.Changes) > 0 {
					t.Errorf("%s (%v): %v", rb.Name, f.Profile, urlsOf(rb.Changes))
				}
			}
		}
	}
}

// TestDiffNone: comments, the Crawl-delay and the Sitemap change no
// verdict.
func TestDiffNone(t *testing.T) {
	old := "# v1\nUser-agent: *\nDisallow: /a\nCrawl-delay: 1\n"
	new := "User-agent: *\nDisallow: /a\nCrawl-delay: 9\nSitemap: https://example.com/s.xml\n"
	rep := Compare([]byte(old), []byte(new), &Options{All: true})
	if rep.Changed {
		t.Errorf("Changed: %+v", rep)
	}
	for _, f := range rep.Families {
		for _, rb := range f.Robots {
			if rb.Changes == nil {
				t.Errorf("%s (%v): nil changes, want an empty list for JSON", rb.Name, f.Profile)
			}
		}
	}
}

// TestDiffURLs: the URLs given are decided as given; a path that starts
// with "//" is reported as the path.
func TestDiffURLs(t *testing.T) {
	rep := Compare([]byte("User-agent: *\nDisallow: /a\n"), []byte("User-agent: *\nDisallow: /b\n"),
		&Options{URLs: []string{"https://example.com/a/x", "/b", "/c"}})
	if rep.Probes != nil || !reflect.DeepEqual(rep.URLs, []string{"https://example.com/a/x", "/b", "/c"}) {
		t.Errorf("Probes %v, URLs %v", rep.Probes, rep.URLs)
	}
	if cs, _ := changesOf(rep, robots.Google, "Googlebot"); !reflect.DeepEqual(urlsOf(cs), []string{"https://example.com/a/x", "/b"}) {
		t.Errorf("Googlebot: %v", urlsOf(cs))
	}
	rep = Compare([]byte("User-agent: *\nDisallow: //x\n"), nil, nil)
	if cs, _ := changesOf(rep, robots.RFC9309, "*"); len(cs) == 0 || cs[0].URL != "//x" {
		t.Errorf("//x: %v", urlsOf(cs))
	}
}

// TestDiffMaxBytes: each version is read as robots read it, up to 500
// KiB: a rule past the limit changes nothing.
func TestDiffMaxBytes(t *testing.T) {
	pad := strings.Repeat("# "+strings.Repeat("p", 77)+"\n", robots.MaxBytes/80+1)
	old := "User-agent: *\nDisallow: /a\n" + pad
	rep := Compare([]byte(old), []byte(old+"Disallow: /late\n"), nil)
	if rep.Changed {
		t.Errorf("a rule past 500 KiB changed a verdict")
	}
}

// TestDiffAgreesWithEquivalent: Diff and Equivalent probe the same paths
// and agents, so under the families Equivalent compares (google, rfc9309)
// Diff finds a change exactly when Equivalent finds a difference, and the
// one Equivalent reports is among Diff's.
func TestDiffAgreesWithEquivalent(t *testing.T) {
	pairs := [][2]string{
		{"User-agent: *\nDisallow: /a\n", "User-agent: *\nDisallow: /a\n"},
		{"User-agent: *\nDisallow: /a\n", "User-agent: *\nDisallow: /a/\n"},
		{"User-agent: *\nDisallow: /docs\n", "User-agent: *\nDisallow: /docs\nAllow: /*.pdf\n"},
		{"User-agent: FooBot\nDisallow: /x\n", "User-agent: FooBot\nDisallow: /x$\n"},
		{"User-agent: Googlebot\nDisalow: /x\n", "User-agent: Googlebot\nDisallow: /x\n"},
		{"User-agent: *\nDisallow: /\n", "User-agent: *\nDisallow: /\nAllow: /robots.txt\n"},
		{"User-agent: *\nDisallow: /p/index.html\n", "User-agent: *\nDisallow: /p/\n"},
		{"User-agent: *\nDisallow: //a\n", ""},
	}
	for _, pr := range pairs {
		a, b := []byte(pr[0]), []byte(pr[1])
		d := Equivalent(a, b)
		rep := Compare(a, b, nil)
		changed := false
		found := d == nil
		for _, f := range rep.Families {
			if f.Profile != robots.Google && f.Profile != robots.RFC9309 {
				continue
			}
			for _, rb := range f.Robots {
				changed = changed || len(rb.Changes) > 0
				if d == nil || f.Profile != d.Profile || !(strings.EqualFold(rb.Name, d.Agent) || rb.Name == "*" && d.Agent == "*") {
					continue
				}
				for _, c := range rb.Changes {
					found = found || c.URL == probe.Shown(d.URL) && c.Old.Allowed == d.Before && c.New.Allowed == d.After
				}
			}
		}
		if changed != (d != nil) || !found {
			t.Errorf("%q → %q: Equivalent %+v, Diff changed %v, found %v", pr[0], pr[1], d, changed, found)
		}
	}
}

// TestDiffSharedVerdicts: robots that obey the same groups are decided
// once; every robot's changes are still what deciding it alone gives.
func TestDiffSharedVerdicts(t *testing.T) {
	old := "User-agent: *\nDisallow: /a\nAllow: /a/b\n\nUser-agent: FooBot\nUser-agent: BarBot\nUser-agent: MJ12bot\nDisallow: /f\n\n" +
		"User-agent: Googlebot\nDisallow: /g\n\nUser-agent: AdsBot-Google\nDisallow: /ads\n"
	new := "User-agent: *\nDisallow: /a\n\nUser-agent: FooBot\nDisallow: /f2\n\nUser-agent: BarBot\nUser-agent: MJ12bot\nDisallow: /f\n\n" +
		"User-agent: Googlebot-Image\nDisallow: /img\n\nUser-agent: Googlebot\nDisallow: /g\n"
	rep := Compare([]byte(old), []byte(new), &Options{All: true})
	fo, fn := syntax.Parse("", []byte(old)), syntax.Parse("", []byte(new))
	ro, rn := robots.CompileAll(fo), robots.CompileAll(fn)
	for _, f := range rep.Families {
		for _, rb := range f.Robots {
			a := robots.Agent{Tokens: rb.Tokens, IgnoreGlobal: rb.IgnoreGlobal, WholeName: rb.WholeName}
			var want []URLChange
			for _, p := range rep.Probes {
				u := p
				if strings.HasPrefix(u, "//") {
					u = probe.Origin + u
				}
				x, y := ro.Rules(f.Profile).Decide(a, u), rn.Rules(f.Profile).Decide(a, u)
				if x.Allowed != y.Allowed {
					want = append(want, URLChange{URL: p, Old: verdictOf(fo, x), New: verdictOf(fn, y)})
				}
			}
			if len(want) == 0 && len(rb.Changes) == 0 {
				continue
			}
			if !reflect.DeepEqual(rb.Changes, want) {
				t.Errorf("%s (%v):\n got %+v\nwant %+v", rb.Name, f.Profile, rb.Changes, want)
			}
		}
	}
	// The robots named: the registry's for known ones.
	var names []string
	for _, rb := range rep.Families[0].Robots {
		names = append(names, rb.Name)
	}
	if want := []string{"Googlebot", "FooBot", "BarBot", "MJ12bot", "AdsBot-Google", "Googlebot-Image", "*"}; !reflect.DeepEqual(names, want) {
		t.Errorf("robots of google: %v, want %v", names, want)
	}
}

// TestDiffLargeFiles: when the files imply more probes than probe.Paths
// gives, and its even sample leaves out the paths of a changed rule, the
// probes of the rules that differ are added, so that the change shows,
// and the rule change names the two lines.
func TestDiffLargeFiles(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&b, "Disallow: /d%05d/\n", i)
	}
	old := b.String()
	// A rule whose path the sample leaves out.
	var new, path string
	for i := 1234; ; i++ {
		path = fmt.Sprintf("/d%05d/", i)
		new = strings.Replace(old, "Disallow: "+path+"\n", "Disallow: "+path+"keep\n", 1)
		sample := probeURLs(syntax.Parse("", []byte(old)), syntax.Parse("", []byte(new)))
		if len(sample) < maxProbes {
			t.Fatalf("test bug: %d probes, not a sample", len(sample))
		}
		if !slices.Contains(sample, path) {
			break
		}
	}
	rep := Compare([]byte(old), []byte(new), nil)
	cs, _ := changesOf(rep, robots.RFC9309, "*")
	found := false
	for _, c := range cs {
		found = found || c.URL == path && !c.Old.Allowed && c.New.Allowed
	}
	if !found {
		t.Errorf("the path of the changed rule, %s, is not among the changes: %v", path, urlsOf(cs))
	}
	if len(rep.Rules) != 2 || rep.Rules[0].Change != Removed || rep.Rules[0].Rule != "Disallow: "+path ||
		rep.Rules[1].Change != Added || rep.Rules[1].Rule != "Disallow: "+path+"keep" || rep.Rules[0].Line != rep.Rules[1].Line {
		t.Errorf("rules %+v", rep.Rules)
	}
}

// probeURLs returns the probe paths of both files (probe.Paths).
func probeURLs(files ...*syntax.File) []string {
	urls, _ := probe.Paths(context.Background(), files...)
	return urls
}

// ruleShown is a rule change in one line, as the tests compare it.
func ruleShown(rc RuleChange) string {
	var rbs []string
	for _, r := range rc.Robots {
		rbs = append(rbs, fmt.Sprintf("%s%v", r.Robot, r.Families))
	}
	return fmt.Sprintf("%s %d %q: %s: %s: %s", rc.Change, rc.Line, rc.Rule, rc.Covers, rc.Effect, strings.Join(rbs, " "))
}

// TestCompareRules: the example's three edits read as three rule lines,
// each with what it covers, what becomes of those paths and for which
// robots of which families; the robots' access before and after.
func TestCompareRules(t *testing.T) {
	old, s := exampleVersions(t)
	rep := Compare(old, []byte(s), nil)
	var got []string
	for _, rc := range rep.Rules {
		got = append(got, ruleShown(rc))
	}
	want := []string{
		`removed 5 "Allow: /private/press/": /private/press/ and everything under it: now disallowed: *[google bing yandex rfc9309] YandexBot[yandex]`,
		`added 14 "Disallow: /nobing/": /nobing/ and everything under it: now disallowed: bingbot[bing yandex rfc9309]`,
		`added 17 "Disallow: /": the whole site: now disallowed: GPTBot[google bing yandex rfc9309]`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rules:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, f := range rep.Families {
		for _, rb := range f.Robots {
			if rb.Name != "GPTBot" {
				continue
			}
			if rb.Old.State != robots.Partly || rb.Old.Via != robots.ViaStar || rb.New.State != robots.Blocked || rb.New.Via != robots.ViaNamed || rb.New.Group != 16 {
				t.Errorf("GPTBot (%v): %+v → %+v", f.Profile, rb.Old, rb.New)
			}
			// The removed Allow (in its old reading only, turning none of
			// its verdicts: the new group decides) and the new group's rule.
			if len(rb.Rules) != 2 {
				t.Errorf("GPTBot (%v): rules %v", f.Profile, rb.Rules)
			}
		}
	}
}

// TestCompareMoved: a group that now names another robot moves its
// rules from one robot to the other; for first-match robots, a rule
// moved before another in its group decides in its place (1996 draft
// §3.2.2).
func TestCompareMoved(t *testing.T) {
	rep := Compare([]byte("User-agent: FooBot\nDisallow: /a\n"), []byte("User-agent: BarBot\nDisallow: /a\n"), nil)
	var got []string
	for _, rc := range rep.Rules {
		got = append(got, ruleShown(rc))
	}
	if want := []string{`moved 2 "Disallow: /a": every path that starts with /a: some now allowed, some now disallowed: FooBot[google bing yandex rfc9309] BarBot[google bing yandex rfc9309]`}; !reflect.DeepEqual(got, want) {
		t.Errorf("a group renamed: %q", got)
	}
	rep = Compare([]byte("User-agent: *\nDisallow: /shop\nAllow: /shop/sale\n"), []byte("User-agent: *\nAllow: /shop/sale\nDisallow: /shop\n"), &Options{All: true})
	got = nil
	for _, rc := range rep.Rules {
		got = append(got, ruleShown(rc))
	}
	if want := []string{`moved 2 "Allow: /shop/sale": every path that starts with /shop/sale: now allowed: *[draft1996]`}; !reflect.DeepEqual(got, want) {
		t.Errorf("rules reordered: %q", got)
	}
}

// TestCovers: the paths a pattern covers, in words (RFC 9309 §2.2.2,
// §2.2.3).
func TestCovers(t *testing.T) {
	for _, tt := range []struct {
		pattern string
		p       robots.Profile
		want    string
	}{
		{"/", robots.Google, "the whole site"},
		{"/*", robots.Google, "the whole site"},
		{"", robots.Google, "no path"},
		{"/private/", robots.Google, "/private/ and everything under it"},
		{"/shop", robots.Bing, "every path that starts with /shop"},
		{"/shop*", robots.Bing, "every path that starts with /shop"},
		{"/$", robots.Google, "exactly /"},
		{"/*.pdf$", robots.Google, "every path that ends with .pdf"},
		{"/*?", robots.Google, "every path that contains ?"},
		{"/a/*/b$", robots.Google, "every path that matches /a/*/b$"},
		{"/*.pdf$", robots.Draft1996, "every path that starts with /*.pdf$"},
		{"/a plan to /b$", robots.Google, `every path that matches "/a plan to /b$"`},
		{"admin/", robots.Google, `no path (a path starts with "/")`},
		{"*.pdf", robots.Google, "every path that matches *.pdf"},
	} {
		if got := Covers(tt.pattern, tt.p); got != tt.want {
			t.Errorf("Covers(%q, %v) = %q, want %q", tt.pattern, tt.p, got, tt.want)
		}
	}
}

// TestCompareUnread: a rule line one version adds in a group that names
// no robot compared, or that matches no path, is still reported, with
// why no robot reads it.
func TestCompareUnread(t *testing.T) {
	rep := Compare([]byte("User-agent: 80legs\nDisallow: /\n"), []byte("User-agent: 80legs\nDisallow: /x/\nDisallow: /\nDisallow: y/\n"), nil)
	var got []string
	for _, rc := range rep.Rules {
		got = append(got, fmt.Sprintf("%s %d %s (%s)", rc.Change, rc.Line, rc.Rule, rc.Note))
	}
	want := []string{
		"added 2 Disallow: /x/ (no robot compared obeys it: its group names none of them, or it is in no group)",
		`added 4 Disallow: y/ (it matches no path: a path starts with "/")`,
	}
	if !reflect.DeepEqual(got, want) || rep.Changed {
		t.Errorf("rules %q, changed %v", got, rep.Changed)
	}
}
