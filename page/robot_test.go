package page

import (
	"net/http"
	"testing"
)

// TestRobotWholeName: a registry robot whose name is not an RFC 9309
// product token is read by its whole name, as the Internet Archive
// documents "User-agent: archive.org_bot"
// (https://archive.org/details/archive.org_bot); Google's robots are not.
func TestRobotWholeName(t *testing.T) {
	for name, want := range map[string]bool{"archive.org_bot": true, "MJ12bot": true, "Googlebot": false, "NoSuchBot": false} {
		if got := RobotNamed(name).Agent.WholeName; got != want {
			t.Errorf("RobotNamed(%q).Agent.WholeName = %v, want %v", name, got, want)
		}
	}
	// Read as "archive", the two groups would merge and the Allow win the
	// tie (RFC 9309 §2.2.2).
	srv := site(t, "User-agent: archive\nAllow: /private/\n\nUser-agent: archive.org_bot\nDisallow: /private/\n", map[string]http.HandlerFunc{
		"/private/": html(`<html><body>secret</body></html>`),
	})
	rep := inspect(t, srv.URL+"/private/x", "archive.org_bot")
	if rep.Crawlable || rep.RobotsTxt.Allowed || rep.RobotsTxt.Line != 5 {
		t.Errorf("archive.org_bot: crawlable %v, robots_txt %+v; want disallowed by line 5", rep.Crawlable, rep.RobotsTxt)
	}
}
