package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServe starts `robots serve`, asks /healthz, and stops it as SIGINT
// would: the server shuts down gracefully and the command exits 0.
func TestServe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"serve", "-addr", addr}, strings.NewReader(""), io.Discard, &stderr) }()
	var resp *http.Response
	for i := 0; i < 100; i++ {
		if resp, err = http.Get("http://" + addr + "/healthz"); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		cancel()
		t.Fatalf("server never answered: %v; stderr %s", err, stderr.String())
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"status": "ok"`) {
		t.Errorf("healthz: %d %s", resp.StatusCode, body)
	}
	cancel()
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("exit %d; stderr %s", code, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop")
	}
	log := stderr.String()
	for _, want := range []string{`"msg":"listening"`, `"route":"healthz"`, `"msg":"shutting down"`} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %s:\n%s", want, log)
		}
	}
	// Bad flags are usage errors.
	var errb bytes.Buffer
	if code := run(context.Background(), []string{"serve", "-addr", "nowhere"}, strings.NewReader(""), io.Discard, &errb); code != exitError || !strings.Contains(errb.String(), "-addr") {
		t.Errorf("bad -addr: exit %d %q", code, errb.String())
	}
}

func TestTrustProxyFlag(t *testing.T) {
	var p prefixesFlag
	for _, v := range []string{"10.0.0.0/8", "192.0.2.7", "2001:db8::/32, ::ffff:198.51.100.1", "10.1.2.3/16"} {
		if err := p.Set(v); err != nil {
			t.Fatalf("Set(%q): %v", v, err)
		}
	}
	if got, want := p.String(), "10.0.0.0/8,192.0.2.7/32,2001:db8::/32,198.51.100.1/32,10.1.0.0/16"; got != want {
		t.Errorf("prefixes: %s, want %s", got, want)
	}
	for _, v := range []string{"proxy", "10.0.0.0/33", ""} {
		if err := p.Set(v); err == nil {
			t.Errorf("Set(%q) accepted", v)
		}
	}
}
