package fetch

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/robotskit/robots/agents"
)

// TestNewTransportWholeName: a registry robot whose name is not an RFC
// 9309 product token obeys the group that names it whole, as its operator
// documents (https://mj12bot.com/: "User-agent: MJ12bot"), its
// Crawl-delay included, and not the group of "MJ", the token Google's
// parser would compare.
func TestNewTransportWholeName(t *testing.T) {
	r, ok := agents.Lookup("MJ12bot")
	if !ok {
		t.Fatal("no MJ12bot in the registry")
	}
	s := &site{robots: map[string]string{
		"m.test": "User-agent: MJ\nDisallow: /mj\n\nUser-agent: MJ12bot/v1.4\nCrawl-delay: 7\nDisallow: /majestic\n",
	}}
	tr, err := NewTransport(r, s)
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Agent.WholeName {
		t.Error("NewTransport(MJ12bot): Agent.WholeName not set")
	}
	c := &http.Client{Transport: tr}
	var de *DisallowedError
	if err := get(c, "http://m.test/majestic/a"); !errors.As(err, &de) || de.Verdict.Decision.Line != 6 {
		t.Errorf("MJ12bot under a MJ12bot/v1.4 group: %v", err)
	}
	if err := get(c, "http://m.test/mj/a"); err != nil {
		t.Errorf("MJ12bot under a MJ group: %v", err)
	}
	res, err := tr.Fetcher.Get(t.Context(), "http://m.test/")
	if err != nil {
		t.Fatal(err)
	}
	g, ok := res.Rules().Group(tr.Agent)
	if d, okd := g.CrawlDelay(); !ok || !okd || d != 7*time.Second {
		t.Errorf("MJ12bot: Crawl-delay %v, %v (group %+v, %v); want 7s", d, okd, g, ok)
	}
}
