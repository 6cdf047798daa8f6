package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const siteRobots = `User-agent: *
Disallow: /private/
Content-Signal: search=yes, ai-train=no

User-agent: GPTBot
Disallow: /
Allow: /blog/

Dissallow: /typo
`

// site is a local web site with a robots.txt, pages, and a count of the
// requests it got.
func site(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		switch r.URL.Path {
		case "/robots.txt":
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, siteRobots)
		case "/slow/robots.txt":
			time.Sleep(2 * time.Second)
		default:
			w.Header().Set("Content-Type", "text/html")
			if r.URL.Path == "/noai" {
				w.Header().Set("X-Robots-Tag", "noai")
			}
			io.WriteString(w, "<html><head><title>T</title></head><body>hello</body></html>")
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// connect starts a Server for cfg and returns a client session to it over
// the SDK's in-memory transport.
func connect(t *testing.T, cfg Config) *mcp.ClientSession {
	t.Helper()
	if cfg.UsageRobots == nil {
		cfg.UsageRobots = []string{"Googlebot", "GPTBot"}
	}
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := New(cfg).MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// callTool calls a tool and decodes its structured answer into out
// (unless out is nil); it returns the result.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: protocol error %v", name, args, err)
	}
	if out != nil && !res.IsError {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: %v in %s", name, err, b)
		}
	}
	return res
}

// text is the text of a result's content.
func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// TestListTools: exactly the three tools, each with a description and an
// input schema whose properties are described.
func TestListTools(t *testing.T) {
	cs := connect(t, Config{AllowPrivate: true})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if len(tool.Description) < 200 {
			t.Errorf("%s: a short description: %q", tool.Name, tool.Description)
		}
		b, _ := json.Marshal(tool.InputSchema)
		var schema struct {
			Type       string `json:"type"`
			Required   []string
			Properties map[string]struct {
				Type        any    `json:"type"`
				Description string `json:"description"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(b, &schema); err != nil {
			t.Fatal(err)
		}
		want := map[string][]string{"robots_test": {"url", "robot", "agent"}, "robots_usage": {"url", "robot", "agent"}, "robots_check": {"robots", "url"}}[tool.Name]
		var got []string
		for p, d := range schema.Properties {
			got = append(got, p)
			if d.Description == "" {
				t.Errorf("%s: property %s has no description", tool.Name, p)
			}
			if d.Type != "string" {
				t.Errorf("%s: property %s has type %v, want string", tool.Name, p, d.Type)
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: properties %v, want %v", tool.Name, got, want)
		}
		wantReq := []string{"url"}
		if tool.Name == "robots_check" {
			wantReq = nil
		}
		if !slices.Equal(schema.Required, wantReq) {
			t.Errorf("%s: required %v, want %v", tool.Name, schema.Required, wantReq)
		}
		if tool.OutputSchema == nil {
			t.Errorf("%s: no output schema", tool.Name)
		}
	}
	slices.Sort(names)
	if want := []string{"robots_check", "robots_test", "robots_usage"}; !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}
	if strings.Contains(res.Tools[0].Description+res.Tools[1].Description+res.Tools[2].Description, "/work") {
		t.Error("a description names a path of the build machine")
	}
}

// TestRobotsTest: the verdict, the deciding line and the fetch, for a
// registry robot, a plain token, * and a bare host; the robots.txt is
// fetched once for many questions (the cache).
func TestRobotsTest(t *testing.T) {
	srv, hits := site(t)
	cs := connect(t, Config{AllowPrivate: true})
	for _, tc := range []struct {
		args    map[string]any
		robot   string
		allowed bool
		line    int
		text    string
		note    string
	}{
		{map[string]any{"url": srv.URL + "/private/a"}, "*", false, 2, "Disallow: /private/", ""},
		{map[string]any{"url": srv.URL + "/public"}, "*", true, 0, "", ""},
		{map[string]any{"url": srv.URL + "/public", "robot": "GPTBot"}, "GPTBot", false, 6, "Disallow: /", ""},
		{map[string]any{"url": srv.URL + "/blog/x", "robot": "gptbot"}, "GPTBot", true, 7, "Allow: /blog/", ""},
		{map[string]any{"url": srv.URL + "/private/a", "agent": "MyCrawler"}, "MyCrawler", false, 2, "Disallow: /private/", ""},
		{map[string]any{"url": srv.URL + "/public", "agent": "GPTBot/1.2"}, "GPTBot", false, 6, "Disallow: /", `using product token "GPTBot" from "GPTBot/1.2"`},
	} {
		var ans TestAnswer
		res := callTool(t, cs, "robots_test", tc.args, &ans)
		if res.IsError {
			t.Errorf("%v: error %s", tc.args, text(res))
			continue
		}
		if ans.Robot != tc.robot || ans.Allowed != tc.allowed || ans.Note != tc.note {
			t.Errorf("%v: %+v, want robot %s allowed %v note %q", tc.args, ans, tc.robot, tc.allowed, tc.note)
		}
		switch {
		case tc.line == 0 && ans.Deciding != nil:
			t.Errorf("%v: deciding %+v, want null", tc.args, *ans.Deciding)
		case tc.line != 0 && (ans.Deciding == nil || ans.Deciding.Line != tc.line || ans.Deciding.Text != tc.text):
			t.Errorf("%v: deciding %+v, want line %d %q (why %q)", tc.args, ans.Deciding, tc.line, tc.text, ans.Why)
		}
		if ans.Fetch == nil || ans.Fetch.Status != 200 || ans.Fetch.Outcome != "success" || ans.Fetch.Access != "rules" || ans.Fetch.URL != srv.URL+"/robots.txt" {
			t.Errorf("%v: fetch %+v", tc.args, ans.Fetch)
		}
	}
	// Three policies (google, rfc9309 of GPTBot… and google again): each
	// policy's robots.txt is fetched once for all its questions.
	if n := hits.Load(); n > 3 {
		t.Errorf("the site got %d requests for 6 questions", n)
	}
	// A bare host is read as https://: a local server without TLS fails
	// to answer, and the fetch says so; the note says how it was read.
	var ans TestAnswer
	host := strings.TrimPrefix(srv.URL, "http://")
	if res := callTool(t, cs, "robots_test", map[string]any{"url": host}, &ans); res.IsError {
		t.Fatalf("bare host: %s", text(res))
	}
	if !strings.HasPrefix(ans.URL, "https://") || !strings.Contains(ans.Note, "reading") || ans.Fetch.Status != 0 {
		t.Errorf("bare host: %+v", ans)
	}
}

// TestRobotsUsage: the usage verdicts of robots usage -url, for one robot
// and for the default robots.
func TestRobotsUsage(t *testing.T) {
	srv, _ := site(t)
	cs := connect(t, Config{AllowPrivate: true})
	var ans UsageAnswer
	if res := callTool(t, cs, "robots_usage", map[string]any{"url": srv.URL + "/page", "agent": "MyCrawler"}, &ans); res.IsError {
		t.Fatal(text(res))
	}
	if len(ans.Results) != 1 {
		t.Fatalf("%+v", ans)
	}
	r := ans.Results[0]
	if r.Robot != "MyCrawler" || !r.Crawl.Allowed || r.Usage.AITrain.Value != "no" || r.Usage.Search.Value != "yes" || !strings.Contains(r.Usage.AITrain.Source, "Content-Signal") {
		t.Errorf("MyCrawler: %+v", r)
	}
	ans = UsageAnswer{}
	if res := callTool(t, cs, "robots_usage", map[string]any{"url": srv.URL + "/noai"}, &ans); res.IsError {
		t.Fatal(text(res))
	}
	var robots []string
	for _, r := range ans.Results {
		robots = append(robots, r.Robot)
		if r.Robot == "GPTBot" && r.Crawl.Allowed {
			t.Errorf("GPTBot may crawl /noai: %+v", r)
		}
	}
	if !slices.Equal(robots, []string{"Googlebot", "GPTBot"}) {
		t.Errorf("default robots %v", robots)
	}
}

// TestRobotsCheck: a text and a site, with their diagnostics; the site's
// with its fetch.
func TestRobotsCheck(t *testing.T) {
	srv, _ := site(t)
	cs := connect(t, Config{AllowPrivate: true})
	for _, args := range []map[string]any{{"robots": siteRobots}, {"url": srv.URL + "/"}} {
		var ans CheckAnswer
		if res := callTool(t, cs, "robots_check", args, &ans); res.IsError {
			t.Fatal(text(res))
		}
		found := false
		for _, d := range ans.Diagnostics {
			if d.Line == 9 && d.Severity != "" && d.Code != "" && strings.Contains(d.Message, "Dissallow") {
				found = true
			}
		}
		if !found {
			t.Errorf("%v: no finding on the misspelt line 9: %+v", args, ans.Diagnostics)
		}
		if ans.Errors+ans.Warnings+ans.Infos != len(ans.Diagnostics)+ans.Omitted {
			t.Errorf("%v: counts %d+%d+%d for %d diagnostics", args, ans.Errors, ans.Warnings, ans.Infos, len(ans.Diagnostics))
		}
		if _, isURL := args["url"]; isURL != (ans.Fetch != nil) || isURL && (ans.Fetch.Status != 200 || ans.File != srv.URL+"/robots.txt") {
			t.Errorf("%v: file %s fetch %+v", args, ans.File, ans.Fetch)
		}
	}
	// An empty text is a file too.
	var ans CheckAnswer
	if res := callTool(t, cs, "robots_check", map[string]any{"robots": ""}, &ans); res.IsError || ans.Diagnostics == nil {
		t.Errorf("empty text: %s %+v", text(res), ans)
	}
}

// TestBadCalls: a caller's mistake is a tool error that says what to
// give, and the session goes on.
func TestBadCalls(t *testing.T) {
	srv, hits := site(t)
	cs := connect(t, Config{AllowPrivate: true})
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"robots_test", map[string]any{"url": srv.URL + "/", "robot": "GPTBott"}, "did you mean GPTBot"},
		{"robots_usage", map[string]any{"url": srv.URL + "/", "robot": "Gooblebot"}, "unknown robot"},
		{"robots_test", map[string]any{"url": srv.URL + "/", "robot": "GPTBot", "agent": "x"}, `"robot" and "agent" both`},
		{"robots_test", map[string]any{"robot": "GPTBot"}, "url"},
		{"robots_usage", map[string]any{}, "url"},
		{"robots_test", map[string]any{"url": ""}, `"url" is empty`},
		{"robots_test", map[string]any{"url": "ftp://example.com/"}, "only http and https"},
		{"robots_test", map[string]any{"url": "not a url"}, "is not a URL"},
		{"robots_test", map[string]any{"url": srv.URL + "/", "agent": "2.1"}, "not a product token"},
		{"robots_test", map[string]any{"url": srv.URL + "/", "bogus": 1}, "bogus"},
		{"robots_check", map[string]any{}, `give "robots"`},
		{"robots_check", map[string]any{"robots": "x", "url": srv.URL}, "give one"},
		{"robots_check", map[string]any{"robots": strings.Repeat("#\n", 300<<10)}, "at most 512 KiB"},
	} {
		res := callTool(t, cs, tc.tool, tc.args, nil)
		if !res.IsError || !strings.Contains(text(res), tc.want) {
			t.Errorf("%s %v: error %v %q, want one that says %q", tc.tool, tc.args, res.IsError, text(res), tc.want)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("bad calls made %d requests", n)
	}
	// The session still answers.
	var ans TestAnswer
	if res := callTool(t, cs, "robots_test", map[string]any{"url": srv.URL + "/x"}, &ans); res.IsError || !ans.Allowed {
		t.Errorf("after bad calls: %s", text(res))
	}
}

// TestPrivateRefused: without AllowPrivate, a loopback target is refused
// before any request, with a message that names the flag, by every tool.
func TestPrivateRefused(t *testing.T) {
	srv, hits := site(t)
	cs := connect(t, Config{})
	for _, tool := range []string{"robots_test", "robots_usage", "robots_check"} {
		res := callTool(t, cs, tool, map[string]any{"url": srv.URL + "/page"}, nil)
		if !res.IsError || !strings.Contains(text(res), "loopback") || !strings.Contains(text(res), "robots mcp with -allow-private") {
			t.Errorf("%s: %v %q, want a refusal", tool, res.IsError, text(res))
		}
	}
	for _, u := range []string{"http://10.1.2.3/", "http://[::1]:8080/", "http://169.254.169.254/latest/meta-data/"} {
		if res := callTool(t, cs, "robots_test", map[string]any{"url": u}, nil); !res.IsError || !strings.Contains(text(res), "this server does not fetch private targets") {
			t.Errorf("%s: %v %q, want a refusal", u, res.IsError, text(res))
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the private site got %d requests", n)
	}
}

// TestCallTimeout: a call that outlives its deadline is a tool error, and
// a call waits for a turn within it.
func TestCallTimeout(t *testing.T) {
	srv, _ := site(t)
	cs := connect(t, Config{AllowPrivate: true, CallTimeout: 300 * time.Millisecond, MaxCalls: 1})
	start := time.Now()
	res := callTool(t, cs, "robots_check", map[string]any{"url": srv.URL + "/slow/robots.txt"}, nil)
	if !res.IsError || !strings.Contains(text(res), "took longer than 300ms") {
		t.Errorf("slow site: %v %q", res.IsError, text(res))
	}
	if d := time.Since(start); d > 1500*time.Millisecond {
		t.Errorf("the call took %s", d)
	}
}
