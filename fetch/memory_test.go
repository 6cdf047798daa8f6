package fetch

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// memoryKeys returns the keys of c, most recently used first.
func memoryKeys(c *MemoryCache) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var keys []string
	for it := c.root.next; it != &c.root; it = it.next {
		keys = append(keys, it.key)
	}
	return keys
}

// TestMemoryCacheLRU replays Gets and Puts against a cache bounded to
// three entries of one unit and checks, after each step, which keys it
// holds in order of use and how many bytes it counts.
func TestMemoryCacheLRU(t *testing.T) {
	// Keys of one byte, no URL and a 200-byte body make a unit; an entry
	// whose URL is one unit long counts two units.
	unit := &Entry{Body: []byte(strings.Repeat("x", 200))}
	size := entrySize("a", unit)
	if size != 1+3*200+entryOverhead {
		t.Fatalf("entrySize = %d, want %d", size, 1+3*200+entryOverhead)
	}
	big := &Entry{URL: strings.Repeat("u", int(size)), Body: unit.Body}
	huge := &Entry{Body: []byte(strings.Repeat("x", int(size)))}
	steps := []struct {
		op    string // "put K", "big K" (two units), "huge K" (over the bound), "get K"
		want  string // keys held, most recently used first
		units int64
	}{
		{"put a", "a", 1},
		{"put b", "b a", 2},
		{"put c", "c b a", 3},
		{"get a", "a c b", 3},
		{"put d", "d a c", 3}, // b was least recently used
		{"get c", "c d a", 3},
		{"get z", "c d a", 3}, // a miss changes nothing
		{"put d", "d c a", 3}, // a replacement is a use
		{"big c", "c d", 3},   // c grows: a goes
		{"put e", "e c", 3},   // c is 2 units: d goes
		{"put f", "f e", 2},   // c goes, freeing two units
		{"big g", "g f", 3},
		{"huge g", "f", 1}, // larger than the bound: not stored, old g dropped
		{"huge h", "f", 1},
	}
	c := NewMemoryCache(3 * size)
	ctx := context.Background()
	for _, s := range steps {
		op, key, _ := strings.Cut(s.op, " ")
		switch op {
		case "put", "big", "huge":
			e := map[string]*Entry{"put": unit, "big": big, "huge": huge}[op]
			if err := c.Put(ctx, key, e); err != nil {
				t.Fatal(err)
			}
		case "get":
			if _, err := c.Get(ctx, key); err != nil {
				t.Fatal(err)
			}
		}
		got := strings.Join(memoryKeys(c), " ")
		if got != s.want || c.Bytes() != s.units*size || c.Len() != len(strings.Fields(s.want)) {
			t.Fatalf("after %q: keys %q, %d bytes, Len %d; want %q, %d bytes",
				s.op, got, c.Bytes(), c.Len(), s.want, s.units*size)
		}
	}
}

// TestMemoryCacheSize: the size of an entry is key + URL + 3 × body +
// entryOverhead, and the default bound is 64 MiB.
func TestMemoryCacheSize(t *testing.T) {
	c := NewMemoryCache(0)
	if c.max != 64<<20 {
		t.Errorf("NewMemoryCache(0) bound = %d, want 64 MiB", c.max)
	}
	if c := NewMemoryCache(-5); c.max != 64<<20 {
		t.Errorf("NewMemoryCache(-5) bound = %d, want 64 MiB", c.max)
	}
	e := &Entry{URL: "https://example.com/robots.txt", Body: []byte(cacheTestBody)}
	key := "google https://example.com"
	if err := c.Put(context.Background(), key, e); err != nil {
		t.Fatal(err)
	}
	want := int64(len(key) + len(e.URL) + 3*len(e.Body) + entryOverhead)
	if c.Bytes() != want || c.Len() != 1 {
		t.Errorf("Bytes() = %d, Len() = %d; want %d, 1", c.Bytes(), c.Len(), want)
	}
}

// TestMemoryCacheKeepsPointer: a hit returns the same *Entry every time,
// so that its compiled rules are kept: the very *Entry stored when its
// body is already the shared copy (an entry a Fetcher made, or decoded),
// and else one copy of it, equal in every field, whose body is.
func TestMemoryCacheKeepsPointer(t *testing.T) {
	c := NewMemoryCache(0)
	ctx := context.Background()
	now := time.Now()
	e := &Entry{URL: "https://example.com/robots.txt", Outcome: Unreachable, Status: 503,
		Fetched: now, Expires: now.Add(time.Minute), ErrorSince: now.Add(-time.Hour),
		Good: Success, GoodAt: now.Add(-2 * time.Hour), Body: []byte(cacheTestBody)}
	_ = c.Put(ctx, "k", e)
	got, _ := c.Get(ctx, "k")
	if again, _ := c.Get(ctx, "k"); again != got {
		t.Error("two Gets returned two *Entry")
	}
	if !reflect.DeepEqual(exported(got), exported(e)) {
		t.Errorf("Get returned %+v, want %+v", exported(got), exported(e))
	}
	if &got.Body[0] != &e.share().body[0] {
		t.Error("the entry held does not have the shared body")
	}
	_ = c.Put(ctx, "k2", got)
	if got2, _ := c.Get(ctx, "k2"); got2 != got {
		t.Error("an entry of a shared body was copied")
	}
}

// exported returns the exported fields of e, which a copy keeps.
func exported(e *Entry) []any {
	v := reflect.ValueOf(e).Elem()
	var out []any
	for i := range v.NumField() {
		if v.Type().Field(i).IsExported() {
			out = append(out, v.Field(i).Interface())
		}
	}
	return out
}

func TestMemoryCacheNilAndZero(t *testing.T) {
	ctx := context.Background()
	c := NewMemoryCache(0)
	if err := c.Put(ctx, "k", nil); err == nil {
		t.Error("Put of a nil entry succeeded")
	}
	// The zero MemoryCache is not to be used, but does no harm.
	var z MemoryCache
	if err := z.Put(ctx, "k", &Entry{}); err != nil {
		t.Error(err)
	}
	if e, err := z.Get(ctx, "k"); e != nil || err != nil {
		t.Errorf("zero MemoryCache Get = %v, %v", e, err)
	}
}

// TestMemoryCacheGetAllocs: a hit allocates nothing.
func TestMemoryCacheGetAllocs(t *testing.T) {
	if cacheRaceEnabled {
		t.Skip("the race detector allocates")
	}
	c := NewMemoryCache(0)
	ctx := context.Background()
	keys := []string{"google https://a.example", "google https://b.example"}
	for _, k := range keys {
		_ = c.Put(ctx, k, &Entry{Body: []byte(cacheTestBody)})
	}
	i := 0
	allocs := testing.AllocsPerRun(1000, func() {
		e, _ := c.Get(ctx, keys[i%2])
		if e == nil {
			panic("miss")
		}
		i++
	})
	if allocs != 0 {
		t.Errorf("Get allocates %v times per hit, want 0", allocs)
	}
	if got := memoryKeys(c); !slices.Equal(got, []string{keys[1], keys[0]}) && !slices.Equal(got, keys) {
		t.Errorf("keys %q", got)
	}
}
