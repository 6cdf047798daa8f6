package robots_test

import (
	"strings"
	"testing"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/syntax"
)

// TestGroupRules checks the promise of Rules.AgentRules: the verdict for a robot
// is a function of those rules alone. For every labelled conformance case
// and every longest-match profile (RFC 9309 §2.2.2), a file that holds
// only the robot's rules, under "User-agent: *", must decide the case's
// URL as the whole file does; and each rule points back to an Allow or
// Disallow line of the file.
func TestGroupRules(t *testing.T) {
	profiles := []robots.Profile{robots.Google, robots.RFC9309, robots.Bing, robots.Yandex}
	n := 0
	for _, set := range []string{"google-cases.jsonl", "google-java-cases.jsonl", "crawler-commons-cases.jsonl", "rfc9309-cases.jsonl"} {
		for _, c := range readCases(t, set) {
			body := c.body(t)
			f := syntax.Parse("", body)
			for _, p := range profiles {
				rules := robots.Compile(f, p)
				agentRules := rules.AgentRules(robots.Agent{Tokens: []string{c.Agent}})
				var sb strings.Builder
				sb.WriteString("User-agent: *\n")
				for _, ru := range agentRules {
					if ru.Line < 1 || ru.Line > len(f.Lines) {
						t.Fatalf("%s %v: rule %+v has no line in a file of %d lines", c.ID, p, ru, len(f.Lines))
					}
					if fl := f.Lines[ru.Line-1].Field; fl != syntax.Allow && fl != syntax.Disallow {
						t.Fatalf("%s %v: rule %+v points at a %v line", c.ID, p, ru, fl)
					}
					sb.WriteString(ru.Field.String() + ": " + ru.Pattern + "\n")
				}
				alone := robots.Parse([]byte(sb.String()), p)
				if got, want := alone.Allowed("probe", c.URL), rules.Allowed(c.Agent, c.URL); got != want {
					t.Errorf("%s %v: the robot's rules alone decide %q %v, the file %v\nrules:\n%s", c.ID, p, c.URL, got, want, sb.String())
				}
				n++
			}
		}
	}
	if n < 4000 {
		t.Fatalf("only %d cases checked", n)
	}
}

// TestGroups: Rules.Groups lists the groups as each profile reads them (RFC
// 9309 §2.1: a group is a run of User-agent lines and the rules up to the
// next run; the 1996 draft's records end at a blank line), in file order,
// each pointing back to its first User-agent line.
func TestGroups(t *testing.T) {
	src := "User-agent: a\nUser-agent: B/1.0\nDisallow: /x\n\n" +
		"User-agent: *\nCrawl-delay: 2\nAllow: /\n" +
		"User-agent: a\n\nDisallow: /y\n"
	type group struct {
		line   int
		global bool
		agents string
	}
	for _, tt := range []struct {
		p    robots.Profile
		want []group
	}{
		{robots.Google, []group{{1, false, "a,B/1.0"}, {5, true, "*"}, {8, false, "a"}}},
		{robots.RFC9309, []group{{1, false, "a,B/1.0"}, {5, true, "*"}, {8, false, "a"}}},
		{robots.Draft1996, []group{{1, false, "a,B/1.0"}, {5, true, "*"}, {8, false, "a"}}},
	} {
		var got []group
		for _, g := range robots.Parse([]byte(src), tt.p).Groups() {
			if len(g.Lines) != 1 {
				t.Fatalf("%v: group %+v has %d lines", tt.p, g, len(g.Lines))
			}
			got = append(got, group{g.Lines[0], g.Global, strings.Join(g.Agents, ",")})
		}
		if len(got) != len(tt.want) {
			t.Fatalf("%v: %d groups %+v, want %+v", tt.p, len(got), got, tt.want)
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%v: group %d = %+v, want %+v", tt.p, i, got[i], tt.want[i])
			}
		}
	}
	g := robots.Parse([]byte(src), robots.Google).Groups()[1]
	if d, ok := g.CrawlDelay(); !ok || d.Seconds() != 2 {
		t.Errorf("the * group's Crawl-delay = %v, %v", d, ok)
	}
	if (*robots.Rules)(nil).Groups() != nil {
		t.Error("a nil *Rules has groups")
	}
}
