package rediscache

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/fetch/internal/redistest"
)

// containsAny reports whether s contains any of subs.
func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if sub != "" && strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// secretParts returns the words of a test password (runs of capitals):
// no message may show any of them.
func secretParts(password string) []string {
	return regexp.MustCompile(`[A-Z]+`).FindAllString(password, -1)
}

// TestRedisURLCredentials: a password holding "/", "@", ":" or "%" is read
// whole from a redis:// URL, and no error of Open or of the cache it
// opens shows any part of it, or the user information: the URL is shown
// as redis://USER:xxxxx@HOST…, the server as host:port.
func TestRedisURLCredentials(t *testing.T) {
	redistest.Quiet()
	for _, password := range []string{
		"AAA/BBB",
		"CCC@DDD",
		"EEE:FFF",
		"GGG%HHH",
		"III@JJJ/KKK:LLL%MMM",
		"NNN//@@::%%OOO",
		"PPP@127.0.0.1:6379/QQQ",
	} {
		// In a URL, "%" is written %25; "/", "@" and ":" may stay.
		written := strings.ReplaceAll(password, "%", "%25")
		secrets := secretParts(password)
		t.Run(password, func(t *testing.T) {
			for _, tc := range []struct {
				url        string
				user, addr string
				db         int
			}{
				{"redis://user:" + written + "@127.0.0.1:6379/2", "user", "127.0.0.1:6379", 2},
				{"redis://:" + written + "@127.0.0.1:6379", "", "127.0.0.1:6379", 0},
				{"rediss://user:" + written + "@redis.example:6380/0?dial_timeout=2s", "user", "redis.example:6380", 0},
				{"redis://u%40x:" + written + "@[::1]:6379/1", "u@x", "[::1]:6379", 1},
			} {
				opt, err := parseRedisURL(tc.url)
				if err != nil {
					t.Errorf("%s: %v", tc.url, err)
					continue
				}
				if opt.Password != password || opt.Username != tc.user || opt.Addr != tc.addr || opt.DB != tc.db {
					t.Errorf("%s: user %q, password %q, addr %q, db %d; want %q, %q, %q, %d",
						tc.url, opt.Username, opt.Password, opt.Addr, opt.DB, tc.user, password, tc.addr, tc.db)
				}
			}

			bad := []struct {
				url  string
				want string // in the error
			}{
				{"redis://user:" + written + "@127.0.0.1:6379/abc", `"redis://user:xxxxx@127.0.0.1:6379/abc": redis: invalid database number: "abc"`},
				{"redis://user:" + written + "@127.0.0.1:6379/1/2", "invalid URL path"},
				{"redis://user:" + written + "@127.0.0.1:x", `"redis://user:xxxxx@127.0.0.1:x": invalid port`},
				{"redis://user:" + written + "@127.0.0.1:6379?bogus=1", "unexpected option: bogus"},
				{"redis://user:" + written + "@[::1", `"redis://user:xxxxx@[::1"`},
				{"redis://user:" + password + "%zz@127.0.0.1", "the password holds a % not followed by two hex digits"},
				{"mem://user:" + written + "@127.0.0.1", `"mem://user:xxxxx@127.0.0.1"`},
			}
			if !strings.Contains(password, ":") {
				// No colon: the whole user information is hidden.
				bad = append(bad, struct{ url, want string }{"redis://" + written + "@127.0.0.1:6379/abc", `"redis://xxxxx@127.0.0.1:6379/abc"`})
			}
			for _, tc := range bad {
				c, err := Open(tc.url)
				if err == nil {
					c.Close()
					t.Errorf("Open(%s) = %T, want an error", tc.url, c)
					continue
				}
				msg := err.Error()
				if !strings.Contains(msg, tc.want) {
					t.Errorf("Open(%s): %s\nwant it to contain %s", tc.url, msg, tc.want)
				}
				if containsAny(msg, secrets...) {
					t.Errorf("Open(%s): %s\nshows part of the password", tc.url, msg)
				}
			}

			// At run time: a refused connection, an impossible port, then
			// the open breaker.
			for _, tc := range []struct{ url, name string }{
				{"redis://user:" + written + "@127.0.0.1:1/3", "127.0.0.1:1/3"},
				{"redis://:" + written + "@127.0.0.1:99999999", "127.0.0.1:99999999"},
			} {
				rc, err := Open(tc.url)
				if err != nil {
					t.Fatalf("Open(%s): %v", tc.url, err)
				}
				ctx := context.Background()
				var msgs []string
				for range 4 {
					if err := rc.Put(ctx, "k", &fetch.Entry{}); err != nil {
						msgs = append(msgs, err.Error())
					}
					if _, err := rc.Get(ctx, "k"); err != nil {
						msgs = append(msgs, err.Error())
					}
				}
				st := rc.Stats()
				if st.LastError != nil {
					msgs = append(msgs, st.LastError.Error())
				}
				rc.Close()
				if len(msgs) != 9 || !st.Open {
					t.Errorf("%s: %d errors, breaker %+v; want 9 errors and the breaker open", tc.url, len(msgs), st)
				}
				for _, msg := range msgs {
					if !strings.Contains(msg, "fetch: redis "+tc.name+": ") {
						t.Errorf("%s: error %q does not name the server %s", tc.url, msg, tc.name)
					}
					if containsAny(msg, secrets...) || strings.Contains(msg, "user") {
						t.Errorf("%s: error %q shows the user information", tc.url, msg)
					}
				}
			}
		})
	}
}

// TestRedactURL: the user information of a URL, up to its last "@", is
// hidden; the rest is kept.
func TestRedactURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"redis://user:s3cr/et@127.0.0.1:6379/abc", "redis://user:xxxxx@127.0.0.1:6379/abc"},
		{"redis://:p@ss@127.0.0.1:1/x", "redis://:xxxxx@127.0.0.1:1/x"},
		{"redis://secret@host", "redis://xxxxx@host"},
		{"redis://host:6379/0", "redis://host:6379/0"},
		{"rediss://u:a:b%25c@h", "rediss://u:xxxxx@h"},
		{"memory", "memory"},
	} {
		if got := RedactURL(tc.in); got != tc.want {
			t.Errorf("RedactURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestRedisErrorScrubs: should an error of the client ever quote the
// password, the cache's error does not.
func TestRedisErrorScrubs(t *testing.T) {
	e := &redisError{name: "h:1", secret: "pa/ss@word", op: "get", key: "k",
		err: errors.New("auth pa/ss@word pa%2Fss%40word failed")}
	if got, want := e.Error(), `fetch: redis h:1: get "k": auth xxxxx xxxxx failed`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

// TestOpen: a Cache from Open has a client with the timeouts and retries
// the URL says, or short ones, that stops at a context's deadline, and
// Close closes that client.
func TestOpen(t *testing.T) {
	for _, tc := range []struct {
		url string
		// the client's dial, read and write timeouts, and retries
		dial, read, write time.Duration
		retries           int
	}{
		{"redis://127.0.0.1:1", 250 * time.Millisecond, 250 * time.Millisecond, 250 * time.Millisecond, 1},
		{"redis://:secret@127.0.0.1:1/3", 250 * time.Millisecond, 250 * time.Millisecond, 250 * time.Millisecond, 1},
		{"rediss://user:pw@redis.example:6380/0", 250 * time.Millisecond, 250 * time.Millisecond, 250 * time.Millisecond, 1},
		{"redis://127.0.0.1:1?dial_timeout=3s&read_timeout=2s", 3 * time.Second, 2 * time.Second, 2 * time.Second, 1},
		{"redis://127.0.0.1:1?write_timeout=100ms", 250 * time.Millisecond, 250 * time.Millisecond, 100 * time.Millisecond, 1},
		{"redis://127.0.0.1:1?max_retries=5", 250 * time.Millisecond, 250 * time.Millisecond, 250 * time.Millisecond, 5},
		{"redis://127.0.0.1:1?max_retries=-1", 250 * time.Millisecond, 250 * time.Millisecond, 250 * time.Millisecond, 0},
	} {
		t.Run(tc.url, func(t *testing.T) {
			rc, err := Open(tc.url)
			if err != nil {
				t.Fatal(err)
			}
			client := rc.client.(*redis.Client)
			if rc.owned != client {
				t.Error("the Cache does not own its client")
			}
			opt := client.Options()
			if opt.DialTimeout != tc.dial || opt.ReadTimeout != tc.read || opt.WriteTimeout != tc.write {
				t.Errorf("timeouts dial %v, read %v, write %v; want %v, %v, %v",
					opt.DialTimeout, opt.ReadTimeout, opt.WriteTimeout, tc.dial, tc.read, tc.write)
			}
			if opt.MaxRetries != tc.retries || opt.DialerRetries != 1 {
				t.Errorf("retries %d, dial attempts %d; want %d, 1", opt.MaxRetries, opt.DialerRetries, tc.retries)
			}
			if !opt.ContextTimeoutEnabled {
				t.Error("ContextTimeoutEnabled is off")
			}
			if err := rc.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			if err := client.Ping(context.Background()).Err(); !errors.Is(err, redis.ErrClosed) {
				t.Errorf("Ping after Close: %v, want redis.ErrClosed", err)
			}
			if err := rc.Close(); err != nil {
				t.Errorf("second Close: %v", err)
			}
		})
	}
}

// TestNewCloseKeepsClient: Close of a Cache from New leaves the caller's
// client open.
func TestNewCloseKeepsClient(t *testing.T) {
	redistest.Quiet()
	client := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1})
	defer client.Close()
	rc := New(client, "")
	if err := rc.Close(); err != nil {
		t.Fatal(err)
	}
	if err := client.Ping(context.Background()).Err(); errors.Is(err, redis.ErrClosed) {
		t.Errorf("Ping after the cache's Close: %v; the client should stay open", err)
	}
}

// TestOpenTimeout: each call of a Cache from Open waits at most 500 ms,
// or the URL's dial and read timeouts together.
func TestOpenTimeout(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want time.Duration
	}{
		{"redis://127.0.0.1:1", 500 * time.Millisecond},
		{"redis://127.0.0.1:1?read_timeout=100ms", 500 * time.Millisecond},
		{"redis://127.0.0.1:1?dial_timeout=1s&read_timeout=2s", 3 * time.Second},
		{"redis://127.0.0.1:1?read_timeout=-1", -1},
	} {
		rc, err := Open(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		if got := rc.Timeout; got != tc.want {
			t.Errorf("%s: Timeout %v, want %v", tc.url, got, tc.want)
		}
		rc.Close()
	}
}
