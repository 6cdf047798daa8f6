package fetch

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// A fakeCache is a map that fails every call while err is set, and counts
// its calls.
type fakeCache struct {
	name       string
	err        error
	mu         sync.Mutex
	m          map[string]*Entry
	gets, puts int
}

func newFakeCache(name string, err error) *fakeCache {
	return &fakeCache{name: name, err: err, m: map[string]*Entry{}}
}

func (c *fakeCache) Get(_ context.Context, key string) (*Entry, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gets++
	if c.err != nil {
		return nil, c.err
	}
	return c.m[key], nil
}

func (c *fakeCache) Put(_ context.Context, key string, e *Entry) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.puts++
	if c.err != nil {
		return c.err
	}
	c.m[key] = e
	return nil
}

// TestLayeredGet: which layer answers, which layers are filled, and when
// Get fails. Layers are written "name" (empty), "name=" (holds the
// entry) or "name!" (fails).
func TestLayeredGet(t *testing.T) {
	for _, tc := range []struct {
		layers string
		found  bool
		err    bool
		filled string // layers that hold the entry afterwards
		asked  string // layers whose Get was called
	}{
		{"a= b", true, false, "a", "a"},
		{"a b=", true, false, "a b", "a b"},
		{"a b c=", true, false, "a b c", "a b c"},
		{"a b= c=", true, false, "a b c", "a b"},
		{"a! b=", true, false, "b", "a b"}, // a failed: not filled
		{"a b! c=", true, false, "a c", "a b c"},
		{"a b", false, false, "", "a b"},
		{"a! b", false, false, "", "a b"}, // a miss is an answer
		{"a b!", false, false, "", "a b"},
		{"a! b!", false, true, "", "a b"}, // every layer failed
		{"a!", false, true, "", "a"},
		{"", false, false, "", ""},
	} {
		t.Run(tc.layers, func(t *testing.T) {
			want := &Entry{URL: "https://example.com/robots.txt"}
			var caches []Cache
			var fakes []*fakeCache
			for _, l := range strings.Fields(tc.layers) {
				name := strings.TrimRight(l, "=!")
				var err error
				if strings.HasSuffix(l, "!") {
					err = fmt.Errorf("layer %s down", name)
				}
				f := newFakeCache(name, err)
				if strings.HasSuffix(l, "=") {
					f.m["k"] = want
				}
				caches = append(caches, f)
				fakes = append(fakes, f)
			}
			got, err := Layered(caches...).Get(context.Background(), "k")
			if (err != nil) != tc.err {
				t.Errorf("error %v, want error %v", err, tc.err)
			}
			if tc.err {
				for _, f := range fakes {
					if !strings.Contains(err.Error(), f.name+" down") {
						t.Errorf("error %q does not name layer %s", err, f.name)
					}
				}
			}
			if (got != nil) != tc.found || (got != nil && got != want) {
				t.Errorf("Get = %v, want found %v", got, tc.found)
			}
			var filled, asked []string
			for _, f := range fakes {
				if f.m["k"] == want {
					filled = append(filled, f.name)
				}
				if f.gets > 0 {
					asked = append(asked, f.name)
				}
			}
			if s := strings.Join(filled, " "); s != tc.filled {
				t.Errorf("filled %q, want %q", s, tc.filled)
			}
			if s := strings.Join(asked, " "); s != tc.asked {
				t.Errorf("asked %q, want %q", s, tc.asked)
			}
		})
	}
}

// TestLayeredPut: Put writes every layer, failing or not, and joins the
// failures.
func TestLayeredPut(t *testing.T) {
	errB, errD := errors.New("b down"), errors.New("d down")
	a, b, c, d := newFakeCache("a", nil), newFakeCache("b", errB), newFakeCache("c", nil), newFakeCache("d", errD)
	l := Layered(a, b, c, d)
	e := &Entry{}
	err := l.Put(context.Background(), "k", e)
	if !errors.Is(err, errB) || !errors.Is(err, errD) {
		t.Errorf("Put error %v, want both failures", err)
	}
	for _, f := range []*fakeCache{a, b, c, d} {
		if f.puts != 1 {
			t.Errorf("layer %s written %d times, want 1", f.name, f.puts)
		}
	}
	if a.m["k"] != e || c.m["k"] != e {
		t.Error("entry not in the working layers")
	}
	if err := Layered(a, c).Put(context.Background(), "k", e); err != nil {
		t.Errorf("Put to working layers: %v", err)
	}
	if err := l.Put(context.Background(), "k", nil); err == nil {
		t.Error("Put of a nil entry succeeded")
	}
}

// TestLayeredShape: nil layers are dropped, and one layer is itself.
func TestLayeredShape(t *testing.T) {
	m := NewMemoryCache(0)
	if c := Layered(nil, m, nil); c != Cache(m) {
		t.Errorf("Layered(nil, m, nil) = %T, want m", c)
	}
	if c, ok := Layered().(layered); !ok || len(c) != 0 {
		t.Errorf("Layered() = %#v", c)
	}
}

// TestLayeredGetAllocs: a hit in the first layer of Layered(memory, …)
// allocates nothing more than the memory cache does.
func TestLayeredGetAllocs(t *testing.T) {
	if cacheRaceEnabled {
		t.Skip("the race detector allocates")
	}
	m := NewMemoryCache(0)
	l := Layered(m, newFakeCache("slow", nil))
	ctx := context.Background()
	_ = m.Put(ctx, "k", &Entry{})
	if allocs := testing.AllocsPerRun(100, func() { _, _ = l.Get(ctx, "k") }); allocs != 0 {
		t.Errorf("Layered Get allocates %v times per hit, want 0", allocs)
	}
}
