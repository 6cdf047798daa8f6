package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/robotskit/robots/server"
)

var serveCmd = &command{
	name:  "serve",
	usage: "[-addr HOST:PORT] [-allow-private] [-allow-host HOST]... [-rate-limit N] [-trust-proxy CIDR]... [-body-timeout D] [-store PATH]",
	short: "run the web checker and JSON API",
}

func init() { serveCmd.run = runServe }

func runServe(e *env, args []string) error {
	fs := newFlags(e, serveCmd)
	addr := fs.String("addr", server.DefaultAddr, "listen on `HOST:PORT`")
	allowPrivate := fs.Bool("allow-private", false, "let the server fetch loopback, private, link-local and other special-purpose addresses")
	rateLimit := floatFlag(fs, "rate-limit", server.DefaultRateLimit, "allow each client (an IPv4 address, or an IPv6 /64) `N` requests per second, in bursts of 2N; 0 is off; /healthz and /metrics are not counted")
	var hosts stringsFlag
	fs.Var(&hosts, "allow-host", "also answer requests whose Host header is `HOST` (repeat for several; default: any host, or only localhost names when -addr is a loopback address)")
	var proxies prefixesFlag
	fs.Var(&proxies, "trust-proxy", "read the client's address from X-Forwarded-For when the peer is a reverse proxy in `CIDR` (an address or a network such as 10.0.0.0/8; repeat for several): the rate limit and the log then count each client, not the proxy")
	bodyTimeout := durationFlag(fs, "body-timeout", server.DefaultBodyTimeout, "answer 408 to a request whose body takes longer than `D` to arrive")
	store := fs.String("store", "", "show the history store `PATH` that robots watch -store writes at /history: each site's versions on a timeline, and the diff of any two (read-only; watch may write it meanwhile)")
	if err := parseFlags(e, serveCmd, fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return &usageError{msg: "serve takes no arguments"}
	}
	if *bodyTimeout <= 0 {
		return &usageError{msg: "-body-timeout must be more than 0"}
	}
	if *rateLimit < 0 {
		return &usageError{msg: "-rate-limit must not be negative"}
	}
	if _, _, err := net.SplitHostPort(*addr); err != nil {
		return &usageError{msg: fmt.Sprintf("-addr %q: %v", *addr, err)}
	}
	log := slog.New(slog.NewJSONHandler(e.stderr, nil))
	cfg := server.Config{Addr: *addr, AllowPrivate: *allowPrivate, RateLimit: *rateLimit, Logger: log, Version: buildVersion(),
		TrustProxy: proxies, BodyTimeout: *bodyTimeout, Store: *store}
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
	attrs := []any{"addr", "http://" + ln.Addr().String(), "allow_private", *allowPrivate, "rate_limit", *rateLimit}
	if *store != "" {
		attrs = append(attrs, "store", *store)
	}
	log.Info("listening", attrs...)
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

// prefixesFlag collects -trust-proxy values: a network in CIDR notation,
// or one address, which stands for itself alone.
type prefixesFlag []netip.Prefix

func (p *prefixesFlag) String() string {
	var b strings.Builder
	for i, x := range *p {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(x.String())
	}
	return b.String()
}

func (p *prefixesFlag) Set(v string) error {
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		if pr, err := netip.ParsePrefix(f); err == nil {
			*p = append(*p, pr.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return fmt.Errorf("%q is neither an address nor a network such as 10.0.0.0/8", f)
		}
		a = a.Unmap()
		*p = append(*p, netip.PrefixFrom(a, a.BitLen()))
	}
	return nil
}
