package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/robotskit/robots/fetch"
)

// stallServer answers every request by calling h, and then holds the
// connection open until the request's context ends or the test does.
func stallServer(t *testing.T, h func(w http.ResponseWriter)) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(stallHandler(t, h))
	t.Cleanup(s.Close)
	return s
}

// stallHandler is stallServer's handler.
func stallHandler(t *testing.T, h func(w http.ResponseWriter)) http.Handler {
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h != nil {
			h(w)
		}
		select {
		case <-done:
		case <-r.Context().Done():
		}
	})
}

// flushLine sends the headers and a first line of the body at once.
func flushLine(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/plain")
	io.WriteString(w, "User-agent: *\n")
	w.(http.Flusher).Flush()
}

// pipeServer serves h over in-memory connections (net.Pipe), for a
// synctest bubble, and returns a transport that sends every request to
// it, whatever the URL's host, looking up no name. A wait on such a
// connection is durably blocked: the bubble's fake clock runs to the next
// deadline, which ends it when a real network, on a loaded machine, would
// end it late. The server and its connections close when t ends.
func pipeServer(t *testing.T, h http.Handler) *http.Transport {
	t.Helper()
	l := &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
	srv := &http.Server{Handler: h}
	go srv.Serve(l)
	tr := &http.Transport{DialContext: l.dial}
	t.Cleanup(func() {
		tr.CloseIdleConnections()
		srv.Close()
	})
	return tr
}

// A pipeListener hands the server end of each connection that dial makes
// to the server's Accept.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

func (l *pipeListener) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }

// TestResultTimedOut: every way a fetch runs out of time sets TimedOut and
// an Error that errors.Is reads as context.DeadlineExceeded or as a
// net.Error timeout, whatever Err says; Google reads the file as
// unreachable either way (Google's robots.txt documentation). The JSON
// traces keep Err as before. Time is synctest's fake clock, which moves
// only while every goroutine waits: each fetch ends at its deadline
// exactly, however loaded the machine.
func TestResultTimedOut(t *testing.T) {
	const short = 200 * time.Millisecond
	tests := []struct {
		name string
		// stall sends the headers and a line before the server stalls.
		stall bool
		// fetcher makes the fetcher of a transport to the server.
		fetcher func(tr *http.Transport) *fetch.Fetcher
		err     string // what Err holds
		// own is set when the fetcher's deadline ended the fetch, and
		// not the client's: the client's errors are net.Errors.
		own bool
	}{
		{"fetcher timeout, no headers", false, func(tr *http.Transport) *fetch.Fetcher {
			return &fetch.Fetcher{Timeout: short, Client: &http.Client{Transport: tr}}
		}, "no complete response within 0.2 s", true},
		{"fetcher timeout, stalled body", true, func(tr *http.Transport) *fetch.Fetcher {
			return &fetch.Fetcher{Timeout: short, Client: &http.Client{Transport: tr}}
		}, "no complete response within 0.2 s", true},
		// A client with a shorter timeout of its own ends the fetch with
		// its error rather than the fetcher's deadline.
		{"client timeout, no headers", false, func(tr *http.Transport) *fetch.Fetcher {
			return &fetch.Fetcher{Timeout: 5 * time.Second, Client: &http.Client{Transport: tr, Timeout: short}}
		}, "timeout", false},
		{"client timeout, stalled body", true, func(tr *http.Transport) *fetch.Fetcher {
			return &fetch.Fetcher{Timeout: 5 * time.Second, Client: &http.Client{Transport: tr, Timeout: short}}
		}, "timeout", false},
		{"transport response-header timeout", false, func(tr *http.Transport) *fetch.Fetcher {
			tr.ResponseHeaderTimeout = short
			return &fetch.Fetcher{Timeout: 5 * time.Second, Client: &http.Client{Transport: tr}}
		}, "timeout", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var h func(http.ResponseWriter)
				if tt.stall {
					h = flushLine
				}
				f := tt.fetcher(pipeServer(t, stallHandler(t, h)))
				start := time.Now()
				r, err := f.Fetch(context.Background(), "http://stall.test/")
				if err != nil {
					t.Fatal(err)
				}
				if el := time.Since(start); el != short {
					t.Errorf("took %v, want %v", el, short)
				}
				if !r.TimedOut || r.Outcome != fetch.Unreachable {
					t.Errorf("TimedOut %v, outcome %s, want true, unreachable", r.TimedOut, r.Outcome)
				}
				if !strings.Contains(r.Err, tt.err) {
					t.Errorf("Err = %q, want it to contain %q", r.Err, tt.err)
				}
				if r.Error == nil || !fetch.IsTimeout(r.Error) {
					t.Fatalf("Error = %v, want a timeout", r.Error)
				}
				if !errors.Is(r.Error, context.DeadlineExceeded) {
					t.Errorf("errors.Is(%v, context.DeadlineExceeded) = false", r.Error)
				}
				var ne net.Error
				if !tt.own && (!errors.As(r.Error, &ne) || !ne.Timeout()) {
					t.Errorf("Error = %v (%T), want a net.Error whose Timeout is true", r.Error, r.Error)
				}
			})
		})
	}
}

// TestResultNotTimedOut: an answer, a refused connection, a redirect
// without a target and a caller that gives up are not timeouts, whatever
// words their errors use.
func TestResultNotTimedOut(t *testing.T) {
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/deadline/robots.txt" {
			w.WriteHeader(http.StatusMovedPermanently) // no Location
			return
		}
		io.WriteString(w, "User-agent: *\nDisallow: /timeout\n")
	}))
	defer ok.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	hang := stallServer(t, nil)

	r, err := (&fetch.Fetcher{}).Fetch(context.Background(), ok.URL)
	if err != nil || r.TimedOut || r.Error != nil || r.Err != "" || r.Outcome != fetch.Success {
		t.Errorf("200: err %v, TimedOut %v, Error %v, Err %q, outcome %s", err, r.TimedOut, r.Error, r.Err, r.Outcome)
	}

	r, err = (&fetch.Fetcher{}).Fetch(context.Background(), ok.URL+"/deadline/robots.txt")
	if err != nil || r.TimedOut || r.Error == nil || r.Error.Error() != r.Err || fetch.IsTimeout(r.Error) {
		t.Errorf("301 without Location: err %v, TimedOut %v, Error %v, Err %q", err, r.TimedOut, r.Error, r.Err)
	}

	r, err = (&fetch.Fetcher{}).Fetch(context.Background(), closed.URL)
	var op *net.OpError
	if err != nil || r.TimedOut || !errors.As(r.Error, &op) || fetch.IsTimeout(r.Error) || r.Err == "" {
		t.Errorf("refused: err %v, TimedOut %v, Error %v (%T), Err %q", err, r.TimedOut, r.Error, r.Error, r.Err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	r, err = (&fetch.Fetcher{}).Fetch(ctx, hang.URL)
	if err != nil || r.TimedOut || !errors.Is(r.Error, context.Canceled) || fetch.IsTimeout(r.Error) {
		t.Errorf("cancelled: err %v, TimedOut %v, Error %v", err, r.TimedOut, r.Error)
	}
}

func TestIsTimeout(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{context.DeadlineExceeded, true},
		{fmt.Errorf("reading: %w", context.DeadlineExceeded), true},
		{&url.Error{Op: "Get", URL: "https://example.com/robots.txt", Err: context.DeadlineExceeded}, true},
		{&net.DNSError{Err: "i/o timeout", Name: "example.com", IsTimeout: true}, true},
		{&net.OpError{Op: "dial", Net: "tcp", Err: timeoutErr{}}, true},
		{context.Canceled, false},
		{&net.DNSError{Err: "no such host", Name: "timeout.example", IsNotFound: true}, false},
		// The words are not the test: only the error's type is.
		{errors.New("i/o timeout"), false},
		{errors.New("context deadline exceeded"), false},
	} {
		if got := fetch.IsTimeout(tt.err); got != tt.want {
			t.Errorf("IsTimeout(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

// timeoutErr is a net.Error that timed out, as a dial's i/o timeout is.
type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }
