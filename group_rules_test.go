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
