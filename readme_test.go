package robots_test

import (
	"os"
	"testing"
	"time"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/syntax"
)

// TestReadmeExample keeps the README's library example true.
func TestReadmeExample(t *testing.T) {
	body, err := os.ReadFile("testdata/example-robots.txt")
	if err != nil {
		t.Fatal(err)
	}
	rules := robots.Parse(body, robots.Google)
	if !rules.Allowed("ExampleBot", "https://example.com/press/") {
		t.Error("/press/ disallowed, want allowed")
	}
	bot := robots.Token("ExampleBot")
	d := rules.Decide(bot, "https://example.com/private/x")
	if d.Allowed || d.Line != 4 || d.Rule != syntax.Disallow || d.Pattern != "/private/" {
		t.Errorf("Decide = %+v, want disallowed by line 4 Disallow /private/", d)
	}
	if acc := rules.Access(bot); acc.State != robots.Partly || acc.Via != robots.ViaStar {
		t.Errorf("Access = %+v, want partly via star", acc)
	}
	g, _ := rules.Group(bot)
	if delay, ok := g.CrawlDelay(); delay != 2*time.Second || !ok {
		t.Errorf("CrawlDelay = %v, %v; want 2s, true", delay, ok)
	}
}
