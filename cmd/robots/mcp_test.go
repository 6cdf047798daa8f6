package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPStdio: robots mcp over a real stdio pipe, driven by the SDK's
// client: it lists the three tools, and robots_test answers as robots
// test -url -robot X -format json does on the same site (the verdict and
// the deciding line, for a registry robot, a plain token and "*");
// without -allow-private it refuses a loopback site.
func TestMCPStdio(t *testing.T) {
	robotsTxt := "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\nAllow: /blog/$\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, robotsTxt)
			return
		}
		io.WriteString(w, "<html><body>page</body></html>")
	}))
	defer srv.Close()

	session := func(t *testing.T, args string) *mcp.ClientSession {
		// The test binary as robots (TestMain), as a client starts it.
		cmd := exec.Command(os.Args[0], strings.Fields(args)...)
		cmd.Env = append(os.Environ(), "ROBOTS_TEST_MAIN=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		t.Cleanup(cancel)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatalf("connect: %v; stderr: %s", err, stderr.String())
		}
		t.Cleanup(func() {
			if err := cs.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
			// Logs, never the protocol, go to standard error.
			if !strings.Contains(stderr.String(), `"msg":"call"`) {
				t.Errorf("stderr has no call log: %s", stderr.String())
			}
		})
		return cs
	}

	cs := session(t, "mcp -allow-private -timeout 10s")
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if strings.Join(names, " ") != "robots_check robots_test robots_usage" {
		t.Errorf("tools %v", names)
	}
	for _, q := range []struct{ who, name, path string }{
		{"robot", "GPTBot", "/blog/"},
		{"robot", "GPTBot", "/blog/x"},
		{"robot", "Googlebot", "/private/a"},
		{"agent", "MyCrawler", "/private/a"},
		{"agent", "MyCrawler", "/open"},
		{"", "", "/private/a"},
	} {
		args := map[string]any{"url": srv.URL + q.path}
		cli := []string{"test", "-url", srv.URL, "-format", "json"}
		if q.who != "" {
			args[q.who] = q.name
			cli = append(cli, "-"+q.who, q.name)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "robots_test", Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("robots_test %v: %v %+v", args, err, res)
		}
		var got struct {
			Robot    string `json:"robot"`
			Allowed  bool   `json:"allowed"`
			Why      string `json:"why"`
			Deciding *struct {
				Line int    `json:"line"`
				Text string `json:"text"`
			} `json:"deciding"`
		}
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		var want struct {
			Results []struct {
				Robot   string `json:"robot"`
				Allowed bool   `json:"allowed"`
				Line    int    `json:"line"`
				Why     string `json:"why"`
			} `json:"results"`
		}
		var stdout, stderr bytes.Buffer
		cli = append(cli, q.path)
		if code := run(ctx, cli, strings.NewReader(""), &stdout, &stderr); code > 1 {
			t.Fatalf("robots %s: exit %d: %s", strings.Join(cli, " "), code, stderr.String())
		}
		if err := json.Unmarshal(stdout.Bytes(), &want); err != nil || len(want.Results) != 1 {
			t.Fatalf("robots %s: %v %s", strings.Join(cli, " "), err, stdout.String())
		}
		w := want.Results[0]
		line := 0
		if got.Deciding != nil {
			line = got.Deciding.Line
			if !strings.HasSuffix(w.Why, got.Deciding.Text) {
				t.Errorf("%v: deciding text %q, robots test says %q", args, got.Deciding.Text, w.Why)
			}
		}
		if got.Allowed != w.Allowed || line != w.Line || got.Why != w.Why || got.Robot != w.Robot {
			t.Errorf("%v: robots_test says %+v (line %d), robots test says %+v", args, got, line, w)
		}
	}

	// Without -allow-private, the loopback site is refused.
	guarded := session(t, "mcp")
	res, err := guarded.CallTool(ctx, &mcp.CallToolParams{Name: "robots_test", Arguments: map[string]any{"url": srv.URL + "/"}})
	if err != nil || !res.IsError {
		t.Fatalf("loopback without -allow-private: %v %+v", err, res)
	}
	if msg := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(msg, "-allow-private") {
		t.Errorf("refusal: %q", msg)
	}
}

// TestMCPUsage: robots mcp takes no arguments and checks its flags.
func TestMCPUsage(t *testing.T) {
	for _, args := range [][]string{{"mcp", "x"}, {"mcp", "-timeout", "0s"}, {"mcp", "-cache", "nowhere"}, {"mcp", "-max-calls", "0"}} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr); code != exitError || stdout.Len() != 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout.String(), stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"mcp", "-h"}, strings.NewReader(""), &stdout, &stderr); code != exitOK || !strings.Contains(stdout.String(), `"args": ["mcp"]`) {
		t.Errorf("mcp -h: exit %d: %s", code, stdout.String())
	}
}
