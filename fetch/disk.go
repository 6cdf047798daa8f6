package fetch

import (
	"context"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// DefaultRetain is how long a DiskCache or a RedisCache keeps an entry
// after its fetch: 60 days. The last good copy must outlive Google's
// 30-day outage window (Google's robots.txt documentation: after 30 days
// unreachable, Google uses the last cached copy, or crawls freely when it
// has none), with room for a crawler that visits a site only every few
// weeks.
const DefaultRetain = 60 * 24 * time.Hour

// diskBucket is the one bbolt bucket that holds the entries.
var diskBucket = []byte("robots.entries")

// diskLockTimeout is how long OpenDiskCache waits for the file lock that
// another process holds, before failing rather than hanging.
const diskLockTimeout = time.Second

// A DiskCache is a Cache in a bbolt file, so that what a robot learned
// survives a restart: each entry is stored as its MarshalBinary bytes.
// Only one process at a time can open the file. Each Get decodes a new
// Entry, so put a MemoryCache in front of it (see Layered) to keep the
// compiled rules between calls. A DiskCache is safe for concurrent use.
type DiskCache struct {
	// Retain is how long an entry is kept after its Fetched time; an
	// older entry is treated as missing and deleted when it is next
	// read. An entry whose Fetched time is zero is kept. Zero means
	// DefaultRetain. Set it before using the cache.
	Retain time.Duration

	db *bolt.DB
}

// OpenDiskCache opens the cache file at path, creating it with mode 0600
// if it does not exist. It fails after a second, with an error, when
// another process has the file open.
func OpenDiskCache(path string) (*DiskCache, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: diskLockTimeout})
	if err != nil {
		return nil, fmt.Errorf("fetch: open disk cache %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(diskBucket)
		return err
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("fetch: open disk cache %s: %w", path, err)
	}
	return &DiskCache{db: db}, nil
}

// Close closes the file. The cache cannot be used afterwards.
func (c *DiskCache) Close() error { return c.db.Close() }

// Get returns the entry stored under key, or nil when there is none or
// it is older than Retain. An entry that cannot be decoded is an error.
func (c *DiskCache) Get(ctx context.Context, key string) (*Entry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	e := new(Entry)
	found := false
	err := c.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(diskBucket).Get([]byte(key))
		if v == nil {
			return nil
		}
		found = true
		// v lives only as long as tx; UnmarshalBinary copies.
		return e.UnmarshalBinary(v)
	})
	if err != nil {
		return nil, fmt.Errorf("fetch: disk cache get %q: %w", key, err)
	}
	if !found {
		return nil, nil
	}
	if c.expired(e, time.Now()) {
		// Best effort: a failed delete is tried again at the next Get,
		// and the entry reads as missing either way.
		_ = c.db.Update(func(tx *bolt.Tx) error {
			b := tx.Bucket(diskBucket)
			// A Put may have replaced the entry since the View.
			var cur Entry
			if v := b.Get([]byte(key)); v != nil && cur.UnmarshalBinary(v) == nil && !c.expired(&cur, time.Now()) {
				return nil
			}
			return b.Delete([]byte(key))
		})
		return nil, nil
	}
	return e, nil
}

// Put stores e under key. Concurrent Puts share one transaction and one
// sync to disk (bbolt's Batch), so Put may wait up to 10 ms for others to
// join.
func (c *DiskCache) Put(ctx context.Context, key string, e *Entry) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	v, err := e.MarshalBinary()
	if err != nil {
		return err
	}
	err = c.db.Batch(func(tx *bolt.Tx) error {
		return tx.Bucket(diskBucket).Put([]byte(key), v)
	})
	if err != nil {
		return fmt.Errorf("fetch: disk cache put %q: %w", key, err)
	}
	return nil
}

func (c *DiskCache) expired(e *Entry, now time.Time) bool {
	return expired(e, c.Retain, now)
}

// expired reports whether e is older than retain (DefaultRetain when 0)
// at now. An entry that was never fetched has no age and is kept.
func expired(e *Entry, retain time.Duration, now time.Time) bool {
	if retain <= 0 {
		retain = DefaultRetain
	}
	return !e.Fetched.IsZero() && now.Sub(e.Fetched) > retain
}
