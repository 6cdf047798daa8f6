package fetch

import (
	"context"
	"sync"
)

// defaultMemoryBytes is the bound of a MemoryCache made with a bound of
// 0: 64 MiB.
const defaultMemoryBytes = 64 << 20

// entryOverhead is what an entry costs beyond the bytes of its key, URL
// and body, in the MemoryCache bound: the Entry struct (168 bytes, 176
// with its size class), the list node (48), the map slot (24 bytes and a
// control byte, about 37 at the Swiss table's average load), the
// rounding of the key, URL and body to their size classes (about 30 for
// a median file), and, for a body of its own, what finds it shared (see
// shareBody: the sharedBody, its slot in the table, its weak handle;
// about 100): about 400 bytes. BenchmarkMemoryPerOrigin measures 394
// bytes with 557-byte bodies, each of its own origin, over 100,000
// origins (407 over the 20,000 of TestMemoryPerOrigin), and
// TestMemoryPerOrigin keeps the constant within a factor of two of it.
const entryOverhead = 400

// bodyFactor is how many times its body an entry is counted: the body,
// plus an estimate of its compiled rules, which BenchmarkMemoryPerOrigin
// measures at about 2.5 times the body of a median file (556 bytes); the
// estimate errs on the small side for files of short lines, which hold
// more rules per byte.
const bodyFactor = 3

// A MemoryCache is a Cache in memory that drops the least recently used
// entries when it holds more than its bound of bytes. It keeps the
// *Entry values it is given, or, for one whose Body is not yet shared
// (see Entry), a copy whose Body is: so a hit costs a map lookup and no
// allocation, and returns the same *Entry each time, whose compiled
// rules are kept with it. Entries of the same body, in this cache or in
// another, share one copy of the body and of the rules compiled from it,
// so that a file that many origins serve is held once: 100,000 origins
// of real robots.txt files take under 600 bytes each with their rules
// compiled (BenchmarkMemoryCacheOrigins). Make one with NewMemoryCache
// (the zero MemoryCache stores nothing); a MemoryCache is safe for
// concurrent use.
type MemoryCache struct {
	mu    sync.Mutex
	max   int64
	bytes int64
	items map[string]*memItem
	// root is the sentinel of a circular list, most recently used first.
	root memItem
}

// A memItem is one entry of a MemoryCache and its place in the LRU list.
type memItem struct {
	key        string
	e          *Entry
	size       int64
	prev, next *memItem
}

// NewMemoryCache returns an empty MemoryCache that holds at most maxBytes,
// counted as described at Put; maxBytes ≤ 0 means 64 MiB.
func NewMemoryCache(maxBytes int64) *MemoryCache {
	if maxBytes <= 0 {
		maxBytes = defaultMemoryBytes
	}
	c := &MemoryCache{max: maxBytes, items: make(map[string]*memItem)}
	c.root.prev, c.root.next = &c.root, &c.root
	return c
}

// Get returns the entry stored under key, or nil, and marks it as the
// most recently used. It never fails; ctx is not consulted, since a
// lookup takes no time.
func (c *MemoryCache) Get(_ context.Context, key string) (*Entry, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	it := c.items[key]
	if it == nil {
		return nil, nil
	}
	c.moveToFront(it)
	return it.e, nil
}

// Put stores e under key as the most recently used entry and then drops
// the least recently used ones until the cache is within its bound. An
// entry counts len(key) + len(e.URL) + 3×len(e.Body) (the body and an
// estimate of its compiled rules) plus a fixed overhead of about 400
// bytes; a body that entries share is counted in each, so that the count
// errs on the side of memory. An entry larger than the whole bound is
// not stored, and removes
// any entry under key, so that Get never returns an older state. Put
// fails only for a nil e.
func (c *MemoryCache) Put(_ context.Context, key string, e *Entry) error {
	if e == nil {
		return errNilEntry
	}
	size := entrySize(key, e)
	e = e.withSharedBody()
	c.mu.Lock()
	defer c.mu.Unlock()
	it := c.items[key]
	if size > c.max {
		if it != nil {
			c.remove(it)
		}
		return nil
	}
	if it != nil {
		c.bytes += size - it.size
		it.e, it.size = e, size
		c.moveToFront(it)
	} else {
		it = &memItem{key: key, e: e, size: size}
		c.items[key] = it
		c.bytes += size
		c.pushFront(it)
	}
	for c.bytes > c.max {
		c.remove(c.root.prev)
	}
	return nil
}

// Len returns the number of entries held.
func (c *MemoryCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}

// Bytes returns the size of the entries held, counted as described at
// Put.
func (c *MemoryCache) Bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

// entrySize is the size of an entry in the bound: see Put.
func entrySize(key string, e *Entry) int64 {
	return int64(len(key)) + int64(len(e.URL)) + bodyFactor*int64(len(e.Body)) + entryOverhead
}

func (c *MemoryCache) pushFront(it *memItem) {
	it.prev, it.next = &c.root, c.root.next
	it.prev.next, it.next.prev = it, it
}

func (c *MemoryCache) moveToFront(it *memItem) {
	if c.root.next == it {
		return
	}
	it.prev.next, it.next.prev = it.next, it.prev
	c.pushFront(it)
}

func (c *MemoryCache) remove(it *memItem) {
	it.prev.next, it.next.prev = it.next, it.prev
	it.prev, it.next, it.e = nil, nil, nil
	delete(c.items, it.key)
	c.bytes -= it.size
}
