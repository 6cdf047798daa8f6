package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/robotskit/robots/internal/wire"
	"github.com/robotskit/robots/usage"
)

// usageRobots is a robots.txt that states usage preferences: the "*"
// group's Content-Signal line says search yes and ai-train no
// (contentsignals.org), and a Disallow for Google-Extended withholds
// Googlebot's fetches from Gemini's training and grounding; a License
// line (RSL 1.0) names the licence of the site's content.
const usageRobots = "User-agent: *\nContent-Signal: search=yes, ai-train=no\nDisallow: /private\n\nUser-agent: Google-Extended\nDisallow: /\n\nLicense: https://example.com/licence.xml\n"

// usageSite serves usageRobots and pages whose response says
// "Content-Usage: ai-use=n" (draft-ietf-aipref-attach-05 §2): no AI use
// for input, whatever the robot.
func usageSite(t *testing.T) *httptest.Server {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, usageRobots)
		case "/.well-known/tdmrep.json":
			http.NotFound(w, r)
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Usage", "ai-use=n")
			io.WriteString(w, `<html><head><title>An article</title></head><body><p>Text.</p><a href="/private/a">a</a></body></html>`)
		}
	}))
	t.Cleanup(site.Close)
	return site
}

// TestTestUsage: POST /api/v1/test gives each result the usage verdicts
// of the file for its robot and URL, as usage.Decide finds them: the
// Content-Signal line for every robot, Google-Extended's Disallow for
// Googlebot's ai-input, nothing for Applebot's ai-input (Applebot-Extended
// governs it, and the file leaves it open), and "none" where the robot
// may not crawl (golden testdata/test_usage.golden).
func TestTestUsage(t *testing.T) {
	_, ts := newTest(t, Config{RateLimit: -1})
	body := `{"robots": ` + jsonString(usageRobots) + `, "robots_list": ["Googlebot", "GPTBot", "Applebot"], "urls": ["/blog/post", "/private/x"]}`
	status, _, answer := do(t, ts, "POST", "/api/v1/test", "application/json", body)
	if status != 200 {
		t.Fatalf("POST /api/v1/test: %d %s", status, answer)
	}
	golden(t, "test_usage", answer)
	var resp wire.TestResponse
	if err := json.Unmarshal([]byte(answer), &resp); err != nil {
		t.Fatal(err)
	}
	want := map[string]usage.Verdicts{
		"Googlebot /blog/post": {Search: yes("Content-Signal line 2", 2), AIInput: no("robots token Google-Extended", 6), AITrain: no("Content-Signal line 2", 2)},
		"GPTBot /blog/post":    {Search: yes("Content-Signal line 2", 2), AIInput: none(), AITrain: no("Content-Signal line 2", 2)},
		"Applebot /blog/post":  {Search: yes("Content-Signal line 2", 2), AIInput: none(), AITrain: no("Content-Signal line 2", 2)},
		"Googlebot /private/x": {Search: none(), AIInput: none(), AITrain: none()},
	}
	for _, r := range resp.Results {
		if w, ok := want[r.Robot+" "+r.URL]; ok && r.Usage != w {
			t.Errorf("%s %s: usage %+v, want %+v", r.Robot, r.URL, r.Usage, w)
		}
	}
}

// yes, no and none are usage verdicts, with the source and line of a
// statement.
func yes(src string, line int) usage.Verdict { return verdict("yes", src, line) }
func no(src string, line int) usage.Verdict  { return verdict("no", src, line) }
func none() usage.Verdict                    { return verdict("none", "", 0) }

func verdict(value, src string, line int) usage.Verdict {
	return usage.Verdict{Value: value, Source: src, Line: line}
}

// TestPageUsage: GET /api/v1/page carries page.Report's usage: what the
// robot may do with the page, robots.txt's statements and the page's own
// Content-Usage header combined (any no wins, the first statement that
// says it named), and "none" for a page robots.txt disallows.
func TestPageUsage(t *testing.T) {
	site := usageSite(t)
	_, ts := newTest(t, Config{AllowPrivate: true, RateLimit: -1})
	for _, tt := range []struct {
		path, robot string
		want        usage.Verdicts
	}{
		{"/article", "Googlebot", usage.Verdicts{Search: yes("Content-Signal line 2", 2), AIInput: no("robots token Google-Extended", 6), AITrain: no("Content-Signal line 2", 2)}},
		{"/article", "GPTBot", usage.Verdicts{Search: yes("Content-Signal line 2", 2), AIInput: no("Content-Usage header", 0), AITrain: no("Content-Signal line 2", 2)}},
		{"/private/x", "GPTBot", usage.Verdicts{Search: none(), AIInput: none(), AITrain: none()}},
	} {
		status, _, answer := do(t, ts, "GET", "/api/v1/page?"+url.Values{"url": {site.URL + tt.path}, "robot": {tt.robot}}.Encode(), "", "")
		var rep struct {
			Usage *usage.Verdicts `json:"usage"`
		}
		if err := json.Unmarshal([]byte(answer), &rep); status != 200 || err != nil {
			t.Fatalf("GET /api/v1/page %s as %s: %d %v %s", tt.path, tt.robot, status, err, answer)
		}
		if rep.Usage == nil || *rep.Usage != tt.want {
			t.Errorf("%s as %s: usage %+v, want %+v", tt.path, tt.robot, rep.Usage, tt.want)
		}
	}
}
