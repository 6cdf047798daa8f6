package page

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// TestInspectStops: when the inspection's time (Timeout) runs out, the
// links' verdicts stop, and the report says it was stopped; when the
// caller's context ends, Inspect returns its error, and stops too. Time is
// synctest's fake clock, over in-memory connections: it moves only while
// every goroutine waits, so the time runs out while the inspection waits
// for a site's robots.txt that never comes, and at no other point of the
// work, however loaded the machine. The page links to its own site, then
// to that silent site, then to its own site again and to a third site: the
// links before the silent one get their verdicts, none after it does, and
// the third site is never asked.
func TestInspectStops(t *testing.T) {
	page := `<html><head><title>links</title></head><body>
<a href="/a">a</a> <a href="/private/b">b</a>
<a href="http://silent.test/x">silent</a>
<a href="/c">c</a> <a href="http://third.test/y">third</a>
</body></html>`
	const limit = 300 * time.Millisecond
	for _, stop := range []string{"Timeout", "context"} {
		t.Run(stop, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var asked atomic.Int32
				c := pipeSites(t, map[string]http.Handler{
					"page.test": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
						if r.URL.Path == "/robots.txt" {
							io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
							return
						}
						html(page)(w, r)
					}),
					"silent.test": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
						<-r.Context().Done()
					}),
					"third.test": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
						asked.Add(1)
						http.NotFound(w, r)
					}),
				})
				in := &Inspector{Client: c, Now: func() time.Time { return now }, Timeout: limit}
				ctx := context.Background()
				if stop == "context" {
					in.Timeout = time.Minute
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, limit)
					defer cancel()
				}
				start := time.Now()
				rep, err := in.Inspect(ctx, "http://page.test/links", RobotNamed("Googlebot"))
				if took := time.Since(start); took != limit {
					t.Errorf("Inspect returned after %v, want %v", took, limit)
				}
				synctest.Wait() // for any fetch Inspect left running
				if n := asked.Load(); n != 0 {
					t.Errorf("the site after the deadline was asked %d times", n)
				}
				if stop == "context" {
					if !errors.Is(err, context.DeadlineExceeded) || rep != nil {
						t.Errorf("Inspect under an ended context: %v, %v; want no report and its error", rep, err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(rep.Error, "stopped") {
					t.Errorf("the report does not say it was stopped: Error %q", rep.Error)
				}
				var got []string
				for _, l := range rep.Links {
					v := "none"
					if l.Allowed != nil {
						v = fmt.Sprint(*l.Allowed)
					}
					got = append(got, l.Href+" "+v)
				}
				want := []string{"/a true", "/private/b false", "http://silent.test/x none", "/c none", "http://third.test/y none"}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("links and verdicts %q, want %q", got, want)
				}
			})
		})
	}
}

// pipeSites serves each site's handler, by the request's host, over
// in-memory connections (net.Pipe), for a synctest bubble, and returns a
// client of them that looks up no name. A wait on such a connection is
// durably blocked: the bubble's fake clock runs to the next deadline. The
// server and its connections close when t ends.
func pipeSites(t *testing.T, sites map[string]http.Handler) *http.Client {
	t.Helper()
	l := &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, ok := sites[r.Host]
		if !ok {
			http.Error(w, "no site "+r.Host, http.StatusBadGateway)
			return
		}
		h.ServeHTTP(w, r)
	})}
	go srv.Serve(l)
	tr := &http.Transport{DialContext: l.dial}
	t.Cleanup(func() {
		tr.CloseIdleConnections()
		srv.Close()
	})
	return &http.Client{Transport: tr}
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
