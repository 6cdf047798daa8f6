package fetch

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestOpenCache: each form of the -cache flag opens the caches it names,
// in order, with the timeouts it says.
func TestOpenCache(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		spec   string
		layers string // the types of the layers, in order
		// the Redis client's dial, read and write timeouts, and retries
		dial, read, write time.Duration
		retries           int
	}{
		{"", "memory", 0, 0, 0, 0},
		{"memory", "memory", 0, 0, 0, 0},
		{"disk:" + filepath.Join(dir, "a.db"), "memory disk", 0, 0, 0, 0},
		{"redis://127.0.0.1:1", "memory redis", 250 * time.Millisecond, 250 * time.Millisecond, 250 * time.Millisecond, 1},
		{"redis://:secret@127.0.0.1:1/3", "memory redis", 250 * time.Millisecond, 250 * time.Millisecond, 250 * time.Millisecond, 1},
		{"rediss://user:pw@redis.example:6380/0", "memory redis", 250 * time.Millisecond, 250 * time.Millisecond, 250 * time.Millisecond, 1},
		{"redis://127.0.0.1:1?dial_timeout=3s&read_timeout=2s", "memory redis", 3 * time.Second, 2 * time.Second, 2 * time.Second, 1},
		{"redis://127.0.0.1:1?write_timeout=100ms", "memory redis", 250 * time.Millisecond, 250 * time.Millisecond, 100 * time.Millisecond, 1},
		{"redis://127.0.0.1:1?max_retries=5", "memory redis", 250 * time.Millisecond, 250 * time.Millisecond, 250 * time.Millisecond, 5},
		{"redis://127.0.0.1:1?max_retries=-1", "memory redis", 250 * time.Millisecond, 250 * time.Millisecond, 250 * time.Millisecond, 0},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			c, closer, err := OpenCache(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			layers := []Cache{c}
			if l, ok := c.(layered); ok {
				layers = l
			}
			var names []string
			for _, l := range layers {
				switch l := l.(type) {
				case *MemoryCache:
					names = append(names, "memory")
				case *DiskCache:
					names = append(names, "disk")
					if closer != l {
						t.Error("the Closer is not the DiskCache")
					}
				case *RedisCache:
					names = append(names, "redis")
					opt := l.client.(*redis.Client).Options()
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
					if rc, ok := closer.(redisCloser); !ok || rc.cache != l || rc.client != l.client {
						t.Error("the Closer is not the Redis cache and its client")
					}
				default:
					names = append(names, "?")
				}
			}
			if s := strings.Join(names, " "); s != tc.layers {
				t.Errorf("layers %q, want %q", s, tc.layers)
			}
			if err := closer.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		})
	}
}

// TestOpenCacheBad: a spec that names no cache is an error that lists the
// accepted forms, and does not repeat a password.
func TestOpenCacheBad(t *testing.T) {
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
		{"redis://127.0.0.1:1?bogus=1", "unexpected option"},
		{"redis://:secret@127.0.0.1:1?bogus=1", ":xxxxx@"},
		{"redis://u:secret@127.0.0.1:1/x", "invalid database"},
		{"redis://u:secret@[::1", "redis://u:xxxxx@"},
		{"mem://u:secret@host", "mem://u:xxxxx@host"},
	} {
		c, closer, err := OpenCache(tc.spec)
		if err == nil {
			closer.Close()
			t.Errorf("OpenCache(%q) = %T, want an error", tc.spec, c)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("OpenCache(%q) error %q, want it to contain %q", tc.spec, err, tc.want)
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("OpenCache(%q) error %q repeats the password", tc.spec, err)
		}
	}
}

// TestOpenCacheDiskLayers: a disk cache from OpenCache serves a second
// Get from memory, the same *Entry with its compiled rules, and keeps
// what was put across a reopen.
func TestOpenCacheDiskLayers(t *testing.T) {
	spec := "disk:" + filepath.Join(t.TempDir(), "robots.db")
	ctx := context.Background()
	c, closer, err := OpenCache(spec)
	if err != nil {
		t.Fatal(err)
	}
	e := cacheTestEntries()[0].e
	if err := c.Put(ctx, "k", e); err != nil {
		t.Fatal(err)
	}
	closer.Close()

	c, closer, err = OpenCache(spec)
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	first, err := c.Get(ctx, "k")
	if err != nil || first == nil {
		t.Fatalf("Get after reopen = %v, %v", first, err)
	}
	if d := cacheEntryDiff(first, e); d != "" {
		t.Error(d)
	}
	second, _ := c.Get(ctx, "k")
	if second != first {
		t.Error("second Get did not come from memory")
	}
}
