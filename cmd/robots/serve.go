package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os/signal"
	"syscall"
	"time"

	"github.com/robotskit/robots/server"
)

var serveCmd = &command{
	name:  "serve",
	usage: "[-addr HOST:PORT] [-allow-private] [-allow-host HOST]... [-rate-limit N]",
	short: "run the web checker and JSON API",
}

func init() { serveCmd.run = runServe }

func runServe(e *env, args []string) error {
	fs := newFlags(e, serveCmd)
	addr := fs.String("addr", server.DefaultAddr, "listen on `HOST:PORT`")
	allowPrivate := fs.Bool("allow-private", false, "let the server fetch loopback, private, link-local and other special-purpose addresses")
	rateLimit := floatFlag(fs, "rate-limit", server.DefaultRateLimit, "allow each client address `N` requests per second, in bursts of 2N; 0 is off")
	var hosts stringsFlag
	fs.Var(&hosts, "allow-host", "also answer requests whose Host header is `HOST` (repeat for several; default: any host, or only localhost names when -addr is a loopback address)")
	if err := parseFlags(e, serveCmd, fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return &usageError{msg: "serve takes no arguments"}
	}
	if *rateLimit < 0 {
		return &usageError{msg: "-rate-limit must not be negative"}
	}
	if _, _, err := net.SplitHostPort(*addr); err != nil {
		return &usageError{msg: fmt.Sprintf("-addr %q: %v", *addr, err)}
	}
	log := slog.New(slog.NewJSONHandler(e.stderr, nil))
	cfg := server.Config{Addr: *addr, AllowPrivate: *allowPrivate, RateLimit: *rateLimit, Logger: log, Version: buildVersion()}
	if *rateLimit == 0 {
		cfg.RateLimit = -1 // off; the Config's zero is the default
	}
	if len(hosts) > 0 {
		// The names the server answers by default stay allowed.
		cfg.AllowedHosts = append([]string{"localhost", "127.0.0.1", "::1"}, hosts...)
		if h, _, err := net.SplitHostPort(*addr); err == nil && h != "" {
			cfg.AllowedHosts = append(cfg.AllowedHosts, h)
		}
	}
	s := server.New(cfg)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	hs := s.HTTPServer(*addr)
	ctx, stop := signal.NotifyContext(e.ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	log.Info("listening", "addr", "http://"+ln.Addr().String(), "allow_private", *allowPrivate, "rate_limit", *rateLimit)
	if e.tty {
		fmt.Fprintf(e.stderr, "robots serve: listening on http://%s (Ctrl-C stops it)\n", ln.Addr())
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
