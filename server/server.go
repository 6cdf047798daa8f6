// Package server is the web checker and JSON API of `robots serve` (see
// the README, "The web checker and JSON API"): POST /api/v1/check, POST
// /api/v1/test, GET /api/v1/page, GET /healthz, GET /metrics, and a page
// at /; with a history store (Config.Store), the pages at /history and
// GET /api/v1/history show the versions robots watch recorded.
//
// The server fetches URLs that remote users give it, so every connection
// it makes passes a guard that refuses the addresses the IANA
// special-purpose registries mark as not globally reachable (loopback,
// private, link-local, multicast, …, and the IPv4 address inside NAT64,
// 6to4 and Teredo addresses) after DNS resolution and on every redirect, unless
// Config.AllowPrivate is set. Host and Origin are checked against DNS
// rebinding; every response carries a Content-Security-Policy and the
// usual security headers.
//
// Every request is bounded: its body (1 MiB), its work (a deadline that
// stops the checks, the fixer's proofs and the URL tests, not only the
// fetches; a bound on the matcher's work and on the size of the answer,
// checked before the work starts), the requests of one client (a rate
// limit, on by default), and the heavy requests at once (a few run, a
// bounded queue waits briefly, the rest get 503 with Retry-After). The
// answers are written as they are encoded, so that memory stays a small
// multiple of the request.
package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/internal/apicore"
	"github.com/robotskit/robots/internal/netguard"
)

// Limits of the server.
const (
	// MaxBody bounds a request body.
	MaxBody = apicore.MaxBody
	// RequestTimeout is the default deadline of one request
	// (Config.RequestTimeout): its wait for a slot, its fetches and its
	// work.
	RequestTimeout = 45 * time.Second
	// DefaultAddr is where `robots serve` listens by default.
	DefaultAddr = "127.0.0.1:8080"
	// DefaultRateLimit is the default of Config.RateLimit: requests per
	// second per client address, with a burst of twice that.
	DefaultRateLimit = 10
	// DefaultMaxQueue is how many heavy requests may wait for a slot by
	// default (Config.MaxQueue).
	DefaultMaxQueue = 256
	// DefaultQueueWait is how long a heavy request waits for a slot by
	// default (Config.QueueWait).
	DefaultQueueWait = 5 * time.Second
	// DefaultBodyTimeout is how long a request body may take to arrive
	// by default (Config.BodyTimeout).
	DefaultBodyTimeout = 10 * time.Second
	// DefaultMaxFetches and DefaultMaxFetchesPerHost are the defaults of
	// Config.MaxFetches and Config.MaxFetchesPerHost.
	DefaultMaxFetches        = 64
	DefaultMaxFetchesPerHost = 4
	// maxBodies bounds the octets of the request bodies held at once,
	// those still arriving and those at work: past it a request is
	// answered 503 before more of its body is read.
	maxBodies = 64 << 20
	// MaxAnswer bounds the JSON answer of a check or a test: a larger one
	// is refused (422 answer_too_large), before the work for a test.
	MaxAnswer = apicore.MaxAnswer
	// MaxCheckLines and MaxCheckRules bound the file a check reads: its
	// lines, and its Allow and Disallow lines (413 too_large). A 500 KiB
	// file, all that Google reads, has some 20,000 of each.
	MaxCheckLines = apicore.MaxCheckLines
	MaxCheckRules = apicore.MaxCheckRules
	// MaxTestWork bounds the matcher's work of a test (422
	// too_much_work), in octets compared: for each set of robots that
	// read the same groups, each URL against each wildcard rule of those
	// groups, plus a cost per rule and per verdict (package apicore). It is
	// some 0.6 s of one core, 2 s at worst.
	MaxTestWork = apicore.MaxTestWork
)

// Config configures a Server. The zero value is a server with the
// default limits.
type Config struct {
	// Addr is the address the server listens on; it decides the default
	// AllowedHosts.
	Addr string
	// AllowPrivate lets the server fetch loopback, private and
	// link-local targets.
	AllowPrivate bool
	// RateLimit is requests per second per client address, with a burst
	// of twice that; 0 means DefaultRateLimit (10), a negative number
	// turns the limit off.
	RateLimit float64
	// AllowedHosts are the Host header values accepted (without port);
	// empty means: when Addr is a loopback address, only localhost names,
	// else any.
	AllowedHosts []string
	// Logger receives one line per request; nil discards them.
	Logger *slog.Logger
	// Version is reported by /healthz.
	Version string
	// RequestTimeout bounds a request, its wait for a slot included: at
	// the deadline its work stops and it is answered 503
	// deadline_exceeded. 0 means RequestTimeout (45 s).
	RequestTimeout time.Duration
	// MaxActive is how many heavy requests (check, test, page, and the
	// page's form and inspector) are worked on at once; 0 means twice
	// GOMAXPROCS. A request counts once for each 256 KiB of its body, so
	// that fewer large ones run at once.
	MaxActive int
	// MaxQueue is how many more heavy requests may wait for a slot; the
	// next is answered 503 at once. 0 means DefaultMaxQueue (256), a
	// negative number none.
	MaxQueue int
	// QueueWait is how long a heavy request waits for a slot, or for a
	// turn to fetch, before it is answered 503; 0 means DefaultQueueWait
	// (5 s).
	QueueWait time.Duration
	// BodyTimeout bounds the time a request body takes to arrive, read
	// whole before the request takes a slot: a slower body is answered
	// 408. 0 means DefaultBodyTimeout (10 s).
	BodyTimeout time.Duration
	// MaxFetches is how many fetches of remote sites (check and test
	// with a url, page) the server waits on at once, apart from the slots
	// of MaxActive; MaxFetchesPerHost is how many of them may go to one
	// host. 0 means DefaultMaxFetches (64) and DefaultMaxFetchesPerHost
	// (4).
	MaxFetches        int
	MaxFetchesPerHost int
	// TrustProxy are the addresses of reverse proxies whose
	// X-Forwarded-For header names the client (for the rate limit and the
	// log); the header of any other peer is ignored.
	TrustProxy []netip.Prefix
	// Store is the path of a history store that robots watch writes
	// (package history): the pages at /history and GET /api/v1/history
	// show its sites, their versions and how robots read any two
	// differently. It is opened for reading on each request, so that a
	// watch daemon may write it meanwhile; "" means no history pages.
	Store string
}

// A Server is the web checker and JSON API. It is an http.Handler.
type Server struct {
	cfg     Config
	guard   *guard
	client  *http.Client
	cache   fetch.Cache
	limiter *limiter
	gate    *gate
	fetches *fetchPool
	// bodies counts the octets of request bodies held (maxBodies).
	bodies      atomic.Int64
	bodyTimeout time.Duration
	timeout     time.Duration
	// maxAnswer and maxTestWork are MaxAnswer and MaxTestWork (tests lift
	// them).
	maxAnswer   int64
	maxTestWork float64
	metrics     *metrics
	reg         *prometheus.Registry
	mux         *http.ServeMux
	hosts       map[string]bool
	log         *slog.Logger
}

// New returns a Server for cfg.
func New(cfg Config) *Server {
	s := &Server{cfg: cfg, guard: &guard{netguard.Guard{AllowPrivate: cfg.AllowPrivate}}, cache: fetch.NewMemoryCache(32 << 20)}
	s.client = s.guard.Client(20 * time.Second)
	s.log = cfg.Logger
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	switch {
	case cfg.RateLimit == 0:
		s.limiter = newLimiter(DefaultRateLimit)
	case cfg.RateLimit > 0:
		s.limiter = newLimiter(cfg.RateLimit)
	}
	s.timeout = cfg.RequestTimeout
	if s.timeout <= 0 {
		s.timeout = RequestTimeout
	}
	s.gate = newGate(cfg)
	s.fetches = newFetchPool(cfg)
	s.bodyTimeout = cfg.BodyTimeout
	if s.bodyTimeout <= 0 {
		s.bodyTimeout = DefaultBodyTimeout
	}
	s.maxAnswer, s.maxTestWork = MaxAnswer, MaxTestWork
	s.reg = prometheus.NewRegistry()
	s.metrics = newMetrics(s.reg, s.gate, s.fetches)
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
	// The heavy routes wait for a slot (admit); /healthz, /metrics and the
	// static files never do.
	s.handle("POST /api/v1/check", "check", s.admit(s.check))
	s.handle("POST /api/v1/test", "test", s.admit(s.test))
	s.handle("GET /api/v1/page", "page", s.admit(s.page))
	s.handle("GET /api/v1/agents", "agents", s.agents)
	// A site's versions are read under a slot of the gate; the list of
	// sites takes none (apiHistory and uiHistory call work).
	s.handle("GET /api/v1/history", "history", s.admit(s.apiHistory))
	s.handle("GET /history", "ui_history", s.admit(s.uiHistory))
	s.handle("GET /healthz", "healthz", s.healthz)
	s.mux.Handle("GET /metrics", s.instrument("metrics", s.metricsHandler()))
	s.handle("GET /{$}", "ui", s.admitUI(s.uiIndex, func(r *http.Request) bool { return r.URL.Query().Has("page") }))
	s.handle("POST /{$}", "ui", s.admitUI(s.uiCheck, func(*http.Request) bool { return true }))
	s.mux.Handle("GET /static/", s.instrument("static", staticHandler()))
	s.mux.Handle("GET "+wasmURL, s.instrument("static", wasmHandler()))
	s.mux.Handle("GET "+wasmExecURL, s.instrument("static", wasmExecHandler()))
	for _, p := range []struct{ path, allow string }{{"/api/v1/check", "POST"}, {"/api/v1/test", "POST"}, {"/api/v1/page", "GET"}, {"/api/v1/agents", "GET"}, {"/api/v1/history", "GET"}} {
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
// An error after the answer has started (its context ended while it was
// written) cuts the connection, so that the client cannot take a part for
// the whole.
func (s *Server) handle(pattern, route string, h handler) {
	s.mux.Handle(pattern, s.instrument(route, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		err := h(w, r)
		if err == nil {
			return
		}
		err = s.stopped(r.Context(), err)
		if sw, ok := w.(*statusWriter); ok && sw.status != 0 {
			var ae *apiError
			if errors.As(err, &ae) {
				sw.code = ae.reason()
			}
			panic(http.ErrAbortHandler)
		}
		writeError(w, err)
	})))
}

// stopped is the error of a handler whose context ended: the deadline's
// 503, or the 499 of a client that went away (it reads no answer, but the
// log and the metrics do). Any error the handler met once its context
// ended, a fetch's or a check's, is that.
func (s *Server) stopped(ctx context.Context, err error) error {
	if ae, ok := err.(*apiError); ok && ae.code == "body_timeout" {
		// The server ended the request at the body's deadline; the
		// client waits for the answer.
		return err
	}
	switch ctx.Err() {
	case nil:
		return err
	case context.DeadlineExceeded:
		return &apiError{status: http.StatusServiceUnavailable, code: "deadline_exceeded",
			msg: fmt.Sprintf("the request was stopped at the server's deadline of %v; send less work (a smaller file, fewer URLs or robots) or try again later", s.timeout)}
	}
	return &apiError{status: statusClientClosed, code: "client_closed", msg: "the client closed the connection before the answer"}
}

// statusClientClosed is the status logged for a request whose client
// went away (nginx's 499); the client never reads it.
const statusClientClosed = 499

// admit runs a heavy route's handler once its body has arrived
// (readBody), with the ticket that lets it take a slot of the gate for
// its work (Server.work) once what it waits on has come.
func (s *Server) admit(h handler) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		r, done, err := s.readBody(w, r)
		if err != nil {
			return err
		}
		defer done()
		return h(w, r)
	}
}

// admitUI is admit for the page's routes, for the requests heavy says
// are: a refusal is the page with the error, not JSON.
func (s *Server) admitUI(h handler, heavy func(*http.Request) bool) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		if !heavy(r) {
			return h(w, r)
		}
		r, done, err := s.readBody(w, r)
		if err != nil {
			err = s.stopped(r.Context(), err)
			ae := asAPIError(err)
			noteError(w, ae)
			d := &uiData{Error: ae.msg}
			if r.Method == http.MethodGet {
				d = &uiData{PageURL: r.URL.Query().Get("page"), PageRobot: r.URL.Query().Get("robot"), PageError: "Error: " + ae.msg}
			}
			return s.render(w, ae.status, d)
		}
		defer done()
		err = h(w, r)
		var ae *apiError
		if errors.As(err, &ae) && ae.status == http.StatusServiceUnavailable && ae.code == "overloaded" {
			// A refusal of the gate or the fetch pool is drawn as the page.
			noteError(w, ae)
			return s.render(w, ae.status, &uiData{Error: ae.msg})
		}
		return err
	}
}

// A ticket is a heavy request's claim on the gate, kept in its context:
// the size of its body, which decides how many slots it takes, and once
// it took them, the function that gives them back.
type ticket struct {
	n       int64
	release func()
}

type ticketKey struct{}

// readBody reads the body of a heavy request whole, before the request
// takes any slot, under its own read deadline (Config.BodyTimeout): a
// body slower than that is answered 408, so that a client that sends its
// body a byte at a time holds a connection, never a slot of the work.
// The size limit (MaxBody) still applies as the body arrives, and the
// bodies held at once are bounded (maxBodies). It returns the request
// with the body in memory and a ticket in its context, and the function
// to call when the request is done.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) (*http.Request, func(), error) {
	t := &ticket{}
	var held int64
	done := func() {
		if t.release != nil {
			t.release()
		}
		s.bodies.Add(-held)
	}
	if r.Body != nil && r.Body != http.NoBody {
		if r.ContentLength > 0 && s.bodies.Load()+min(r.ContentLength, MaxBody) > maxBodies {
			return r, nil, s.bodiesFull()
		}
		rc := http.NewResponseController(w)
		// A writer that reaches no connection (a test's recorder) has no
		// deadline to set; the request's own deadline still bounds it.
		timed := rc.SetReadDeadline(time.Now().Add(s.bodyTimeout)) == nil
		br := &heldReader{r: r.Body, held: &s.bodies}
		body, err := io.ReadAll(br)
		held = br.n
		if timed {
			_ = rc.SetReadDeadline(time.Time{})
		}
		if err != nil {
			s.bodies.Add(-held)
			return r, nil, s.bodyError(w, err)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		t.n = int64(len(body))
	}
	return r.WithContext(context.WithValue(r.Context(), ticketKey{}, t)), done, nil
}

// heldReader counts the octets read into held, and fails once held is
// past maxBodies.
type heldReader struct {
	r    io.Reader
	held *atomic.Int64
	n    int64
}

var errBodiesFull = errors.New("too many request bodies held")

func (h *heldReader) Read(p []byte) (int, error) {
	k, err := h.r.Read(p)
	h.n += int64(k)
	if h.held.Add(int64(k)) > maxBodies {
		return k, errBodiesFull
	}
	return k, err
}

func (s *Server) bodiesFull() error {
	return s.gate.refusal("bodies_full", fmt.Sprintf("the server is busy: it holds as many request bodies as it may; try again in %d s", s.gate.retryAfter()))
}

// bodyError is the answer to a body that could not be read: 408 when it
// came slower than its deadline, 413 past MaxBody, 400 otherwise.
func (s *Server) bodyError(w http.ResponseWriter, err error) error {
	var mbe *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.Is(err, errBodiesFull):
		return s.bodiesFull()
	case errors.As(err, &mbe):
		return err
	case errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout():
		// The connection's read side is spent: it is not reused.
		w.Header().Set("Connection", "close")
		return &apiError{status: http.StatusRequestTimeout, code: "body_timeout",
			msg: fmt.Sprintf("the request body did not arrive within %v; send it at once", s.bodyTimeout)}
	}
	return badRequest("bad_body", "the request body could not be read: "+err.Error())
}

// work takes the slots of the gate for the request of ctx, when it is
// about to work: at once for a request that brings its file, after the
// fetch for one that names a URL. Taking them again is a no-op; they go
// back when the request is done (readBody). Its error is the gate's.
func (s *Server) work(ctx context.Context) error {
	t, _ := ctx.Value(ticketKey{}).(*ticket)
	if t == nil {
		return errors.New("internal error: a heavy route ran without admit")
	}
	if t.release != nil {
		return nil
	}
	release, err := s.gate.enter(ctx, t.n)
	if err != nil {
		return err
	}
	t.release = release
	return nil
}

// fetching takes a turn of the fetch pool for the host of the URL raw,
// for a request about to wait on a remote site; it holds no slot of the
// gate. The returned function gives the turn back.
func (s *Server) fetching(ctx context.Context, raw string) (func(), error) {
	host := raw
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		host = u.Hostname()
	}
	return s.fetches.enter(ctx, host)
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
	if s.limiter != nil && !exempt(r.URL.Path) && !s.allow(r) {
		s.metrics.requests.WithLabelValues("rate_limited", "429").Inc()
		s.metrics.errors.WithLabelValues("any", "rate_limited").Inc()
		writeError(w, &apiError{status: http.StatusTooManyRequests, code: "rate_limited",
			msg: fmt.Sprintf("too many requests from your address (this server allows %g per second, in bursts of %d); slow down", float64(s.limiter.perSecond), s.limiter.burst)})
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
	ctx, cancel := context.WithTimeout(r.Context(), s.timeout)
	defer cancel()
	s.mux.ServeHTTP(w, r.WithContext(ctx))
}

// securityHeaders are set on every response. The page uses no inline
// script or style, so the policy allows only the server's own files;
// 'wasm-unsafe-eval' lets it compile the server's WebAssembly checker,
// and nothing else (no eval of scripts).
// Referrer-Policy is same-origin, not no-referrer: under no-referrer a
// browser sends "Origin: null" with the page's own form post, which the
// Origin check must refuse.
func securityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
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

// exempt reports whether path is one the rate limit does not count:
// the health check and the metrics, which monitors poll.
func exempt(path string) bool { return path == "/healthz" || path == "/metrics" }

// allow takes a token of the rate limit for r's client.
func (s *Server) allow(r *http.Request) bool {
	a, ok := clientAddr(r, s.cfg.TrustProxy)
	if !ok {
		return true // not a network peer (a test's request): nothing to count
	}
	return s.limiter.allow(clientKey(a))
}

// clientIP is the address of r's client, for the log: its peer, or the
// one a trusted proxy names (Config.TrustProxy).
func (s *Server) clientIP(r *http.Request) string {
	if a, ok := clientAddr(r, s.cfg.TrustProxy); ok {
		return a.String()
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
		WriteTimeout:      s.timeout + 15*time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
}
