package main

import (
	"errors"
	"io"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/fetch/cachespec"
	"github.com/robotskit/robots/internal/mcpserver"
)

var mcpCmd = &command{
	name:  "mcp",
	usage: "[-timeout D] [-user-agent UA] [-cache SPEC] [-allow-private] [-max-calls N]",
	short: "run a Model Context Protocol server (stdio) for AI agents",
	long: `Speaks the Model Context Protocol (MCP) on standard input and output, so
that an AI agent or assistant (Claude Desktop, Claude Code, any MCP
client) can ask about robots.txt before it fetches a page. An MCP client
starts it as a subprocess: "command": "robots", "args": ["mcp"]. Its
tools:

  robots_test   {url, robot? | agent?}: may the robot fetch the URL?
                The verdict, the deciding line and how the fetch of
                robots.txt ended, as robots test -url says it.
  robots_usage  {url, robot? | agent?}: may the robot use the page for
                search, ai-input or ai-train? As robots usage -url.
  robots_check  {robots? | url?}: the problems of a robots.txt text or
                of a site's robots.txt, as robots check -format json.

Like the web service, it fetches URLs that a remote party names: it
refuses loopback, private, link-local and other special-purpose
addresses unless started with -allow-private, bounds each fetch (the
status rules, 500 KiB, -timeout) and each call (one minute, a
robots.txt text of at most 512 KiB), and runs at most -max-calls calls
at once. Fetched robots.txt files are kept in memory for their lifetime
(-cache to keep them on disk or in Redis). A mistaken call is answered
with a tool error that says what to give. Logs go to standard error;
standard output carries the protocol alone. The server ends when the
client closes its standard input.`,
}

func init() { mcpCmd.run = runMCP }

func runMCP(e *env, args []string) error {
	fs := newFlags(e, mcpCmd)
	timeout := durationFlag(fs, "timeout", fetch.DefaultTimeout, "give up on a fetch after `D`, a duration such as 5s")
	userAgent := fs.String("user-agent", "", "send the User-Agent header `UA` (default: the robot's own, else "+fetch.DefaultUserAgent+")")
	cache := fs.String("cache", "memory", "keep fetched robots.txt files in `SPEC`: memory, disk:PATH or redis://HOST:PORT/DB")
	allowPrivate := fs.Bool("allow-private", false, "let the server fetch loopback, private, link-local and other special-purpose addresses")
	maxCalls := intFlag(fs, "max-calls", mcpserver.DefaultMaxCalls, "run at most `N` calls at once; more wait for a turn")
	if err := parseFlags(e, mcpCmd, fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return &usageError{msg: "mcp takes no arguments: an MCP client starts it and talks to it on standard input and output"}
	}
	nf := &netFlags{cache: cache, timeout: timeout, userAgent: userAgent, redirects: new(int)}
	if err := nf.check(); err != nil {
		return err
	}
	if *maxCalls < 1 {
		return &usageError{msg: "-max-calls must be at least 1"}
	}
	c, closer, err := cachespec.Open(*cache)
	if err != nil {
		return err
	}
	defer closer.Close()
	log := slog.New(slog.NewJSONHandler(e.stderr, nil))
	s := mcpserver.New(mcpserver.Config{Timeout: *timeout, UserAgent: *userAgent, Cache: c, AllowPrivate: *allowPrivate,
		MaxCalls: *maxCalls, UsageRobots: compareDefault, Version: buildVersion(), Logger: log})
	log.Info("serving MCP on standard input and output", "allow_private", *allowPrivate, "cache", *cache)
	err = s.MCP().Run(e.ctx, &mcp.IOTransport{Reader: io.NopCloser(e.stdin), Writer: nopWriteCloser{e.stdout}})
	if errors.Is(err, io.EOF) {
		// The client closed standard input: the session is over.
		return nil
	}
	return err
}

// nopWriteCloser is standard output as the transport's writer, which the
// transport closes at the end of the session.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
