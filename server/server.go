// Package server is the web checker and JSON API of `robots serve` (see
// the README, "The web checker and JSON API"): POST /api/v1/check, POST
// /api/v1/test, GET /api/v1/page, GET /healthz, GET /metrics, and a page
// at /.
//
// The server fetches URLs that remote users give it, so every connection
// it makes passes a guard that refuses loopback, private, link-local and
// multicast addresses after DNS resolution and on every redirect, unless
// Config.AllowPrivate is set. Request bodies are limited to 1 MiB; each
// request has a deadline; clients may be rate limited; Host and Origin
// are checked against DNS rebinding; every response carries a
// Content-Security-Policy and the usual security headers.
package server

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/robotskit/robots/fetch"
)

// Limits of the server.
const (
	// MaxBody bounds a request body.
	MaxBody = 1 << 20
	// RequestTimeout bounds the work of one request.
	RequestTimeout = 45 * time.Second
	// DefaultAddr is where `robots serve` listens by default.
	DefaultAddr = "127.0.0.1:8080"
)

// Config configures a Server.
type Config struct {
	// Addr is the address the server listens on; it decides the default
	// AllowedHosts.
	Addr string
	// AllowPrivate lets the server fetch loopback, private and
	// link-local targets.
	AllowPrivate bool
	// RateLimit is requests per second per client address; 0 is off.
	RateLimit float64
	// AllowedHosts are the Host header values accepted (without port);
	// empty means: when Addr is a loopback address, only localhost names,
	// else any.
	AllowedHosts []string
	// Logger receives one line per request; nil discards them.
	Logger *slog.Logger
	// Version is reported by /healthz.
	Version string
}

// A Server is the web checker and JSON API. It is an http.Handler.
type Server struct {
	cfg     Config
	guard   *guard
	client  *http.Client
	cache   fetch.Cache
	limiter *limiter
	metrics *metrics
	reg     *prometheus.Registry
	mux     *http.ServeMux
	hosts   map[string]bool
	log     *slog.Logger
}

// New returns a Server for cfg.
func New(cfg Config) *Server {
	s := &Server{cfg: cfg, guard: &guard{allowPrivate: cfg.AllowPrivate}, cache: fetch.NewMemoryCache(32 << 20)}
	s.client = s.guard.client(20 * time.Second)
	s.log = cfg.Logger
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if cfg.RateLimit > 0 {
		s.limiter = newLimiter(cfg.RateLimit)
	}
	s.reg = prometheus.NewRegistry()
	s.metrics = newMetrics(s.reg)
	s.hosts = allowedHosts(cfg)
	s.routes()
	return s
}

// allowedHosts is the set of Host names accepted, nil for any.
func allowedHosts(cfg Config) map[string]bool {
	if len(cfg.AllowedHosts) > 0 {
		m := map[string]bool{}
		for _, h := range cfg.AllowedHosts {
			m[strings.ToLower(h)] = true
		}
		return m
	}
	host, _, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		host = cfg.Addr
	}
	ip := net.ParseIP(host)
	if host == "localhost" || ip != nil && ip.IsLoopback() {
		return map[string]bool{"localhost": true, "127.0.0.1": true, "::1": true, host: true}
	}
	return nil
}

func (s *Server) routes() {
	s.mux = http.NewServeMux()
	s.handle("POST /api/v1/check", "check", s.check)
	s.handle("POST /api/v1/test", "test", s.test)
	s.handle("GET /api/v1/page", "page", s.page)
	s.handle("GET /healthz", "healthz", s.healthz)
	s.mux.Handle("GET /metrics", s.instrument("metrics", s.metricsHandler()))
	s.handle("GET /{$}", "ui", s.uiIndex)
	s.handle("POST /{$}", "ui", s.uiCheck)
	s.mux.Handle("GET /static/", s.instrument("static", staticHandler()))
	for _, p := range []struct{ path, allow string }{{"/api/v1/check", "POST"}, {"/api/v1/test", "POST"}, {"/api/v1/page", "GET"}} {
		s.handle(p.path, "api", func(w http.ResponseWriter, r *http.Request) error {
			w.Header().Set("Allow", p.allow)
			return &apiError{status: http.StatusMethodNotAllowed, code: "method_not_allowed", msg: r.Method + " " + r.URL.Path + ": use " + p.allow}
		})
	}
	s.handle("/api/", "api", func(w http.ResponseWriter, r *http.Request) error {
		return &apiError{status: http.StatusNotFound, code: "not_found", msg: r.Method + " " + r.URL.Path + " is not a route of this API"}
	})
}

// handle registers an API handler behind the error mapping and metrics.
func (s *Server) handle(pattern, route string, h handler) {
	s.mux.Handle(pattern, s.instrument(route, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			writeError(w, err)
		}
	})))
}

// ServeHTTP applies the guards common to every route, then routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	securityHeaders(w.Header())
	if s.hosts != nil && !s.hosts[hostOnly(r.Host)] {
		writeError(w, &apiError{status: http.StatusForbidden, code: "bad_host",
			msg: "Host " + r.Host + " is not served here (DNS rebinding guard); start the server with -allow-host " + hostOnly(r.Host) + " to answer it"})
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		if o := r.Header.Get("Origin"); o != "" && !sameOrigin(o, r.Host) {
			writeError(w, &apiError{status: http.StatusForbidden, code: "bad_origin", msg: "cross-origin request from " + o + " refused"})
			return
		}
	}
	if s.limiter != nil && !s.limiter.allow(clientIP(r)) {
		s.metrics.requests.WithLabelValues("rate_limited", "429").Inc()
		writeError(w, &apiError{status: http.StatusTooManyRequests, code: "rate_limited", msg: "too many requests from your address; slow down"})
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
	ctx, cancel := context.WithTimeout(r.Context(), RequestTimeout)
	defer cancel()
	s.mux.ServeHTTP(w, r.WithContext(ctx))
}

// securityHeaders are set on every response. The page uses no inline
// script or style, so the policy allows only the server's own files.
// Referrer-Policy is same-origin, not no-referrer: under no-referrer a
// browser sends "Origin: null" with the page's own form post, which the
// Origin check must refuse.
func securityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
}

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return strings.ToLower(h)
	}
	return strings.ToLower(strings.Trim(hostport, "[]"))
}

func sameOrigin(origin, host string) bool {
	_, rest, ok := strings.Cut(origin, "://")
	return ok && strings.EqualFold(rest, host)
}

// clientIP is the request's peer address; forwarded headers are not
// trusted.
func clientIP(r *http.Request) string {
	if h, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return h
	}
	return r.RemoteAddr
}

// HTTPServer returns an http.Server for s with the timeouts and header
// limit a public server needs.
func (s *Server) HTTPServer(addr string) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           s,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      RequestTimeout + 15*time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
}
