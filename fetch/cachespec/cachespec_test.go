package cachespec

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/fetch/diskcache"
	"github.com/robotskit/robots/fetch/internal/cachetest"
	"github.com/robotskit/robots/fetch/internal/redistest"
	"github.com/robotskit/robots/fetch/rediscache"
)

// TestOpen: each form of the -cache flag opens the cache it names, behind
// a MemoryCache that answers a Get of what was put, the same *Entry, even
// when the cache behind fails; the Closer is that cache. (The timeouts of
// a Redis client are rediscache's TestOpen.)
func TestOpen(t *testing.T) {
	redistest.Quiet()
	dir := t.TempDir()
	for _, tc := range []struct {
		spec   string
		closer string // the type of the Closer
	}{
		{"", "none"},
		{"memory", "none"},
		{"disk:" + filepath.Join(dir, "a.db"), "disk"},
		{"disk:" + filepath.Join(dir, "b.db") + "?max=2MiB", "disk"},
		{"redis://127.0.0.1:1", "redis"},
		{"redis://:secret@127.0.0.1:1/3", "redis"},
		{"rediss://user:pw@127.0.0.1:1/0", "redis"},
		{"redis://127.0.0.1:1?dial_timeout=3s&read_timeout=2s", "redis"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			c, closer, err := Open(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				if err := closer.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			}()
			switch cl := closer.(type) {
			case nopCloser:
				if _, ok := c.(*fetch.MemoryCache); !ok || tc.closer != "none" {
					t.Errorf("cache %T, Closer %T; want a MemoryCache for %s", c, closer, tc.closer)
				}
				return
			case *diskcache.Cache:
				if tc.closer != "disk" {
					t.Errorf("Closer %T, want %s", closer, tc.closer)
				}
			case *rediscache.Cache:
				if tc.closer != "redis" {
					t.Errorf("Closer %T, want %s", closer, tc.closer)
				}
				if cl.Timeout < rediscache.DefaultTimeout {
					t.Errorf("Timeout %v, want at least %v", cl.Timeout, rediscache.DefaultTimeout)
				}
			default:
				t.Fatalf("Closer %T, want %s", closer, tc.closer)
			}
			if any(c) == any(closer) {
				t.Fatal("no MemoryCache in front")
			}
			// No Redis listens on port 1: the Put fails there, and the
			// memory in front keeps the entry all the same.
			e := cachetest.Entries()[0].E
			ctx := context.Background()
			err = c.Put(ctx, "k", e)
			if (err != nil) != (tc.closer == "redis") {
				t.Errorf("Put: %v", err)
			}
			// Memory returns the same *Entry every time; the disk and
			// Redis decode one each time.
			got, err := c.Get(ctx, "k")
			if again, _ := c.Get(ctx, "k"); got == nil || err != nil || again != got {
				t.Errorf("Get = %p, %v, then %p; want the entry put, from memory", got, err, again)
			} else if d := cachetest.Diff(got, e); d != "" {
				t.Error(d)
			}
		})
	}
}

// TestOpenBad: a spec that names no cache is an error that lists the
// accepted forms, and does not repeat a password.
func TestOpenBad(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		spec string
		want string // in the error
	}{
		{"mem", `"memory", "disk:PATH", "redis://`},
		{"Memory", `"memory", "disk:PATH", "redis://`},
		{"http://127.0.0.1:6379", `want "memory"`},
		{"unix:///tmp/redis.sock", `want "memory"`},
		{"disk:", "names no file"},
		{"disk:" + filepath.Join(dir, "missing", "a.db"), "open disk cache"},
		{"disk:" + filepath.Join(dir, "d.db") + "?max=tiny", "max=tiny"},
		{"redis://127.0.0.1:1?bogus=1", "unexpected option"},
		{"redis://:secret@127.0.0.1:1?bogus=1", ":xxxxx@"},
		{"redis://u:secret@127.0.0.1:1/x", "invalid database"},
		{"redis://u:secret@[::1", "redis://u:xxxxx@"},
		{"mem://u:secret@host", "mem://u:xxxxx@host"},
	} {
		c, closer, err := Open(tc.spec)
		if err == nil {
			closer.Close()
			t.Errorf("Open(%q) = %T, want an error", tc.spec, c)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Open(%q) error %q, want it to contain %q", tc.spec, err, tc.want)
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("Open(%q) error %q repeats the password", tc.spec, err)
		}
	}
}

// TestOpenUnknownRedacts: the error for a URL of an unknown scheme shows
// none of a password that holds "/", "@", ":" or "%", nor the user
// information without a password.
func TestOpenUnknownRedacts(t *testing.T) {
	for _, password := range []string{"AAA/BBB", "CCC@DDD", "EEE:FFF", "GGG%25HHH", "III@JJJ/KKK:LLL%25MMM", "PPP@127.0.0.1:6379/QQQ"} {
		for spec, want := range map[string]string{
			"mem://user:" + password + "@127.0.0.1": `unknown cache "mem://user:xxxxx@127.0.0.1"`,
			"mem://" + password + "@127.0.0.1":      `unknown cache "mem://xxxxx@127.0.0.1"`,
		} {
			if strings.Contains(password, ":") && !strings.Contains(spec, "user:") {
				continue // the colon makes USER:PASSWORD of it
			}
			_, _, err := Open(spec)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("Open(%s): %v, want an error with %s", spec, err, want)
				continue
			}
			for _, secret := range []string{"AAA", "BBB", "CCC", "DDD", "EEE", "FFF", "GGG", "HHH", "III", "MMM", "PPP", "QQQ"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("Open(%s): %v shows part of the password", spec, err)
				}
			}
		}
	}
}

// TestOpenDiskLayers: a disk cache from Open serves a second Get from
// memory, the same *Entry with its compiled rules, and keeps what was put
// across a reopen.
func TestOpenDiskLayers(t *testing.T) {
	spec := "disk:" + filepath.Join(t.TempDir(), "robots.db")
	ctx := context.Background()
	c, closer, err := Open(spec)
	if err != nil {
		t.Fatal(err)
	}
	e := cachetest.Entries()[0].E
	if err := c.Put(ctx, "k", e); err != nil {
		t.Fatal(err)
	}
	closer.Close()

	c, closer, err = Open(spec)
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	first, err := c.Get(ctx, "k")
	if err != nil || first == nil {
		t.Fatalf("Get after reopen = %v, %v", first, err)
	}
	if d := cachetest.Diff(first, e); d != "" {
		t.Error(d)
	}
	second, _ := c.Get(ctx, "k")
	if second != first {
		t.Error("second Get did not come from memory")
	}
}

// TestOpenDiskInUse: a disk cache that another Open holds fails with the
// error that names the file, after the disk cache's lock timeout (a
// second), timed on synctest's fake clock, which a loaded machine cannot
// stretch.
func TestOpenDiskInUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.db")
	_, closer, err := Open("disk:" + path)
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	var took time.Duration
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		_, closer2, err2 := Open("disk:" + path)
		took = time.Since(start)
		if err2 == nil {
			closer2.Close()
		}
		err = err2
	})
	if err == nil {
		t.Fatal("a second Open of the same file succeeded")
	}
	var inUse *diskcache.InUseError
	if !errors.As(err, &inUse) || inUse.Path != path || !strings.Contains(err.Error(), path+" is in use by another process") {
		t.Errorf("error %v, want an InUseError naming %s", err, path)
	}
	if took > 5*time.Second {
		t.Errorf("failed after %v", took)
	}
}

// TestCacheBehaviour runs the checks every fetch.Cache must pass (see
// internal/cachetest) against a disk cache over a Redis cache, the two
// backends this package opens.
func TestCacheBehaviour(t *testing.T) {
	t.Run("layered/disk+redis", func(t *testing.T) {
		d, err := diskcache.Open(filepath.Join(t.TempDir(), "robots.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := d.Close(); err != nil {
				t.Error(err)
			}
		})
		redistest.Quiet()
		client := redis.NewClient(&redis.Options{Addr: redistest.Addr(t)})
		t.Cleanup(func() { client.Close() })
		rc := rediscache.New(client, redistest.Prefix(t, client, "robots-test"))
		cachetest.Run(t, fetch.Layered(d, rc))
	})
}
