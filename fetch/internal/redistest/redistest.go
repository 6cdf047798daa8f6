// Package redistest starts redis-server for the tests of the Redis cache
// (fetch/rediscache) and of what opens it (fetch/cachespec).
package redistest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Env names a Redis server (host:port) for the tests to use instead of
// starting their own.
const Env = "ROBOTS_TEST_REDIS"

// A Server is a redis-server started by a test.
type Server struct {
	Addr string
	Cmd  *exec.Cmd
	out  bytes.Buffer
	once sync.Once
}

// Start starts a redis-server of its own on a free port of 127.0.0.1,
// with no persistence and the extra arguments args, and stops it when t
// ends. Without redis-server in PATH the test is skipped, or fails when
// CI=true.
func Start(t testing.TB, args ...string) *Server {
	t.Helper()
	// The port is free when looked at, but another process may take it
	// before the server does: then try another.
	for attempt := 0; ; attempt++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		s, err := StartOn(t, port, args...)
		if err == nil {
			return s
		}
		if attempt == 2 {
			t.Fatal(err)
		}
	}
}

// StartOn starts a redis-server as Start does, on port, and fails if it
// does not answer within 5 s.
func StartOn(t testing.TB, port int, args ...string) (*Server, error) {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("redis-server is not installed (apt-get install redis-server), and CI=true: %v", err)
		}
		t.Skipf("redis-server not in PATH (apt-get install redis-server, or set %s=host:port): %v", Env, err)
	}
	s := &Server{Addr: fmt.Sprintf("127.0.0.1:%d", port)}
	s.Cmd = exec.Command(bin, append([]string{"--port", fmt.Sprint(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no"}, args...)...)
	s.Cmd.Stdout, s.Cmd.Stderr = &s.out, &s.out
	if err := s.Cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	if err := s.waitReady(5 * time.Second); err != nil {
		s.Stop()
		return nil, fmt.Errorf("redis-server on %s: %v\n%s", s.Addr, err, s.out.String())
	}
	return s, nil
}

// waitReady waits until the server answers PING, for at most d. An
// error reply (NOAUTH, from a server with a password) is an answer.
func (s *Server) waitReady(d time.Duration) error {
	c := redis.NewClient(&redis.Options{Addr: s.Addr, DialTimeout: 200 * time.Millisecond, MaxRetries: -1})
	defer c.Close()
	deadline := time.Now().Add(d)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		err := c.Ping(ctx).Err()
		cancel()
		var reply redis.Error
		if err == nil || errors.As(err, &reply) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no answer to PING within %v: %w", d, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop kills the server (the process this test started, by its id) and
// waits for it to exit.
func (s *Server) Stop() {
	s.once.Do(func() {
		_ = s.Cmd.Process.Kill()
		_ = s.Cmd.Wait()
	})
}

// Addr returns the address of a Redis server for t: the one Env names,
// or one of its own.
func Addr(t testing.TB) string {
	t.Helper()
	if addr := os.Getenv(Env); addr != "" {
		return addr
	}
	return Start(t).Addr
}

var prefixes atomic.Int64

// Prefix returns a key prefix of its own, name:PID:N:, and deletes the
// keys under it through client when t ends, so that tests can share a
// server.
func Prefix(t testing.TB, client redis.UniversalClient, name string) string {
	prefix := fmt.Sprintf("%s:%d:%d:", name, os.Getpid(), prefixes.Add(1))
	t.Cleanup(func() {
		ctx := context.Background()
		iter := client.Scan(ctx, 0, prefix+"*", 100).Iterator()
		for iter.Next(ctx) {
			client.Del(ctx, iter.Val())
		}
	})
	return prefix
}

var quiet sync.Once

// Quiet silences go-redis, which logs each failed dial to standard error
// through a global logger (redis.SetLogger); a test binary may.
func Quiet() {
	quiet.Do(func() { redis.SetLogger(discardLogger{}) })
}

type discardLogger struct{}

func (discardLogger) Printf(context.Context, string, ...any) {}
