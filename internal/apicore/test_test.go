package apicore

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/internal/wire"
	"github.com/robotskit/robots/page"
	"github.com/robotskit/robots/syntax"
	"github.com/robotskit/robots/usage"
)

// encoded is v as json.Encoder with SetIndent("", "  ") writes it, as the
// server wrote every answer before it streamed them.
func encoded(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.Encode(v)
	return b.String()
}

func streamed(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	if err := Encode(context.Background(), &b, v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestTestAnswer: TestAnswer has the fields of wire.TestResponse, and
// the plan's results are those the server decided before it grouped the
// robots: for every robot of the registry and every profile, each URL
// decided as Decide decides it, with its line and rule, and its usage as
// usage.Decide finds it (Content-Signal and Content-Usage lines, the
// control tokens Google-Extended and Applebot-Extended), each robot's
// access as robots.Rules.Access gives it, and the answer's estimate
// bounds it.
func TestTestAnswer(t *testing.T) {
	a, w := reflect.TypeFor[TestAnswer](), reflect.TypeFor[wire.TestResponse]()
	if a.NumField() != w.NumField() {
		t.Fatalf("TestAnswer has %d fields, wire.TestResponse %d", a.NumField(), w.NumField())
	}
	for i := range a.NumField() {
		if a.Field(i).Tag != w.Field(i).Tag {
			t.Errorf("field %d: tag %q, wire.TestResponse %q", i, a.Field(i).Tag, w.Field(i).Tag)
		}
	}
	src := "User-agent: *\nDisallow: /private\nAllow: /private/ok\nDisallow: /*.pdf$\nContent-Signal: search=yes, ai-train=no\nContent-Usage: /news/ train-ai=y, search=n\n\n" +
		"User-agent: Googlebot\nUser-agent: bingbot\nDisallow: /g/\nContent-Usage: ai-use=y\n\nUser-agent: GPTBot\nDisallow: /\n\n" +
		"User-agent: Google-Extended\nDisallow: /ads\nDisallow: /*?\n\nUser-agent: Applebot-Extended\nDisallow: /y\n\n" +
		"User-agent: Googlebot-News\nAllow: /\nDisallow: /news/old\n\nUser-agent: AdsBot-Google\nDisallow: /ads\n" +
		"user-agent: YandexBot\n\nDisallow: /y\n"
	file := syntax.Parse("robots.txt", []byte(src))
	urls := []string{"/", "/private", "/private/ok", "/a.pdf", "/g/x", "/news/old", "/ads", "/y", "/robots.txt", "https://example.com/private?q"}
	var readers []page.Robot
	for _, rb := range agents.All() {
		readers = append(readers, page.FromRegistry(rb))
	}
	readers = append(readers, page.Robot{Name: "Unknown", Agent: robots.Agent{Tokens: []string{"Unknown"}}})
	for _, prof := range robots.Profiles() {
		rs := make([]page.Robot, len(readers))
		for i, rb := range readers {
			rb.Profile = prof
			rs[i] = rb
		}
		plan := newTestPlan(file, rs, urls, "", nil, len(src))
		bound := plan.answerBound(&TestAnswer{})
		if err := plan.decide(context.Background()); err != nil {
			t.Fatal(err)
		}
		rules := robots.Compile(file, prof)
		var want wire.TestResponse
		for _, rb := range rs {
			for _, u := range urls {
				d := rules.Decide(rb.Agent, u)
				tr := wire.TestResult{Robot: rb.Name, URL: u, Profile: prof.String(), Allowed: d.Allowed, Line: d.Line,
					Usage: usage.Decide(rules, usage.Robot{Name: rb.Name, Agent: rb.Agent}, u, nil).Usage}
				if d.Reason == robots.Matched {
					l := &file.Lines[d.Line-1]
					tr.Rule = file.Text(l.Key) + ": " + file.Text(l.Value)
				}
				want.Results = append(want.Results, tr)
			}
			want.Access = append(want.Access, wire.Access{Robot: rb.Name, Access: rules.Access(rb.Agent)})
		}
		got := streamed(t, &TestAnswer{Results: plan, Access: accessList{plan}})
		if got != encoded(&want) {
			t.Errorf("%v: the plan's answer differs from the robots' own verdicts", prof)
		}
		for _, src := range []string{"Content-Signal line 5", "Content-Usage line 6", "Content-Usage line 11", "robots token Google-Extended", "robots token Applebot-Extended"} {
			if prof == robots.Google && !strings.Contains(got, `"source": "`+src+`"`) {
				t.Errorf("%v: no usage verdict from %s", prof, src)
			}
		}
		if int64(len(got)) > bound || bound > 2*int64(len(got)) {
			t.Errorf("%v: answer of %d octets, bound %d", prof, len(got), bound)
		}
		t.Logf("%v: %d robots in %d sets, usage decided for %d of them (%d different verdicts)", prof, len(rs), len(plan.sets), len(plan.uses), len(plan.usages))
	}
}
