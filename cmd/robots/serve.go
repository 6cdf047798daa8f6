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
	usage: "[-addr HOST:PORT] [-allow-private] [-rate-limit N]",
	short: "run the web checker and JSON API",
}

func init() { serveCmd.run = runServe }

func runServe(e *env, args []string) error {
	fs := newFlags(e, serveCmd)
	addr := fs.String("addr", server.DefaultAddr, "listen on `HOST:PORT`")
	allowPrivate := fs.Bool("allow-private", false, "let the server fetch loopback, private and link-local targets")
	rateLimit := fs.Float64("rate-limit", 0, "requests per second per client address, `N`; 0 is off")
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
	s := server.New(server.Config{Addr: *addr, AllowPrivate: *allowPrivate, RateLimit: *rateLimit, Logger: log, Version: version})
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
