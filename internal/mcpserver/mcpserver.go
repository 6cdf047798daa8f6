// Package mcpserver is robots mcp: a Model Context Protocol server that
// lets an AI agent ask, before it fetches a page, whether robots.txt lets
// its crawler fetch it (robots_test), what the site says it may do with
// what it fetches (robots_usage), and what is wrong with a robots.txt
// (robots_check).
//
// Every answer is the CLI's: robots_test is robots test -url (package
// decide), robots_usage is robots usage -url (page.Inspector), and
// robots_check is robots check -format json (sitecheck, lint, wire). Like
// the web service, the server fetches URLs that a remote party names, so
// it is bounded as the web service is: every fetch goes through the
// fetcher (its status rules, its 500 KiB cap, its timeout) and through
// the address guard of package netguard, which refuses private, loopback
// and link-local targets unless Config.AllowPrivate; a call has a
// deadline, a robots.txt text has a size limit, and only so many calls
// run at once. A mistake in a call (no URL, an unknown robot, robot and
// agent both) is a tool result marked as an error, with a message that
// says what to give, never a protocol failure.
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/internal/netguard"
)

// Defaults of Config.
const (
	// DefaultCallTimeout bounds one tool call: its fetches and its work.
	DefaultCallTimeout = time.Minute
	// DefaultMaxCalls is how many calls run at once; more wait for a
	// turn within their own deadline.
	DefaultMaxCalls = 4
	// MaxRobotsText bounds robots_check's "robots" text, as the web API
	// bounds its request: 512 KiB, past the 500 KiB robots read, so that
	// the check can still say that a file is too long.
	MaxRobotsText = 512 << 10
	// MaxDiagnostics is how many diagnostics robots_check returns; the
	// answer says how many more there were ("omitted").
	MaxDiagnostics = 200
	// cacheBytes bounds the default memory cache of robots.txt files.
	cacheBytes = 32 << 20
)

// Config sets up a Server.
type Config struct {
	// Timeout bounds each fetch; 0 means fetch.DefaultTimeout.
	Timeout time.Duration
	// CallTimeout bounds each call; 0 means DefaultCallTimeout.
	CallTimeout time.Duration
	// MaxCalls is how many calls run at once; 0 means DefaultMaxCalls.
	MaxCalls int
	// UserAgent, when not "", is the User-Agent header of every fetch of
	// robots.txt, instead of the robot's own.
	UserAgent string
	// Cache keeps fetched robots.txt files for robots_test and
	// robots_usage, for their lifetime (24 h or max-age under Google's
	// rules); nil means a memory cache for the life of the server.
	Cache fetch.Cache
	// AllowPrivate lets the server fetch loopback, private, link-local
	// and other special-purpose addresses (-allow-private).
	AllowPrivate bool
	// UsageRobots are the robots robots_usage asks about when the call
	// names none (robots usage's defaults).
	UsageRobots []string
	// Version is the server's version, as the client is told.
	Version string
	// Logger receives a line per call; nil discards them. It must not
	// write to standard output, which carries the protocol.
	Logger *slog.Logger
}

// A Server answers the tools' calls. It is safe for concurrent use.
type Server struct {
	cfg    Config
	guard  *netguard.Guard
	client *http.Client
	cache  fetch.Cache
	slots  chan struct{}
	log    *slog.Logger
	// fetchers are the robots.txt fetchers, one per policy, profile and
	// User-Agent, so that concurrent calls about one site share a fetch
	// (fetch.Fetcher.Get).
	mu       sync.Mutex
	fetchers map[fetcherKey]*fetch.Fetcher
}

type fetcherKey struct {
	policy  fetch.Policy
	profile robots.Profile
	ua      string
}

// New returns a Server for cfg.
func New(cfg Config) *Server {
	if cfg.Timeout <= 0 {
		cfg.Timeout = fetch.DefaultTimeout
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = DefaultCallTimeout
	}
	if cfg.MaxCalls <= 0 {
		cfg.MaxCalls = DefaultMaxCalls
	}
	s := &Server{cfg: cfg, guard: &netguard.Guard{AllowPrivate: cfg.AllowPrivate}, cache: cfg.Cache,
		slots: make(chan struct{}, cfg.MaxCalls), log: cfg.Logger, fetchers: map[fetcherKey]*fetch.Fetcher{}}
	if s.cache == nil {
		s.cache = fetch.NewMemoryCache(cacheBytes)
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	// The client's own limit is a backstop: each fetch has the fetcher's
	// timeout, and each call its deadline.
	s.client = s.guard.Client(cfg.CallTimeout)
	return s
}

// instructions tell the client what the server is for.
const instructions = `Tools that read robots.txt files the way real crawlers do (Google, Bing, Yandex, RFC 9309, and the known AI crawlers such as GPTBot and ClaudeBot). Before fetching a page for a user, call robots_test with the page URL and your crawler's name (robot) or product token (agent) to learn whether robots.txt allows the fetch; call robots_usage to learn whether the site allows search, AI input (retrieval, grounding, answers) or AI training use of what you fetch; call robots_check to find the problems of a robots.txt file or of a site's robots.txt.`

// MCP returns the protocol server with the three tools, ready to Run on a
// transport (mcp.StdioTransport for robots mcp).
func (s *Server) MCP() *mcp.Server {
	m := mcp.NewServer(&mcp.Implementation{Name: "robots", Title: "robots.txt tools", Version: s.cfg.Version},
		&mcp.ServerOptions{Instructions: instructions, Logger: s.log})
	mcp.AddTool(m, testTool, call(s, "robots_test", s.test))
	mcp.AddTool(m, usageTool(s.cfg.UsageRobots), call(s, "robots_usage", s.usage))
	check := *checkTool
	check.InputSchema = checkSchema()
	mcp.AddTool(m, &check, call(s, "robots_check", s.check))
	return m
}

// callError is a mistake of the caller or a failure to answer, returned
// to the agent as a tool result marked as an error.
func callError(format string, a ...any) error { return fmt.Errorf(format, a...) }

// call wraps a tool's work: a turn among MaxCalls, the call's deadline, a
// log line, and errors as tool errors (the SDK marks a handler's error
// as the result's IsError, never as a protocol error). A panic of the
// work is a tool error too: one bad call must not end the server.
func call[In, Out any](s *Server, name string, work func(context.Context, In) (Out, error)) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, _ *mcp.CallToolRequest, in In) (res *mcp.CallToolResult, out Out, err error) {
		start := time.Now()
		ctx, cancel := context.WithTimeout(ctx, s.cfg.CallTimeout)
		defer cancel()
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("call panicked", "tool", name, "panic", fmt.Sprint(p))
				var zero Out
				res, out, err = nil, zero, callError("internal error: %v", p)
			}
			attrs := []any{"tool", name, "duration_ms", float64(time.Since(start).Microseconds()) / 1000}
			if err != nil {
				attrs = append(attrs, "error", err.Error())
			}
			s.log.Info("call", attrs...)
		}()
		select {
		case s.slots <- struct{}{}:
			defer func() { <-s.slots }()
		case <-ctx.Done():
			return nil, out, callError("the server is busy with %d other calls: try again", s.cfg.MaxCalls)
		}
		out, err = work(ctx, in)
		if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			var zero Out
			return nil, zero, callError("the call took longer than %s and was stopped", s.cfg.CallTimeout)
		}
		return nil, out, err
	}
}
