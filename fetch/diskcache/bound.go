package diskcache

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"slices"
	"time"

	"github.com/robotskit/robots/fetch"
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// The thresholds of the bound, in percent of Options.MaxBytes: past
// diskEvictAt of it in pages in use, entries are deleted until they take
// diskEvictTo.
const (
	diskEvictAt = 80
	diskEvictTo = 60
)

// diskCompactMin: a file under this size is not compacted for its free
// space alone (only to bring it under its bound).
const diskCompactMin = 4 << 20

// diskSweepEvery is how often expired entries are swept from the file.
const diskSweepEvery = 24 * time.Hour

// diskDeleteChunk bounds the deletions of one transaction.
const diskDeleteChunk = 10000

// A diskUsage is the size of the file and how much of it is in use: the
// pages below bbolt's high water mark that are not free.
type diskUsage struct {
	file, used int64
}

func (c *Cache) usage() (diskUsage, error) {
	var u diskUsage
	err := c.view(func(tx *bolt.Tx) error {
		db := tx.DB()
		st := db.Stats()
		u.used = tx.Size() - int64(st.FreePageN+st.PendingPageN)*int64(db.Info().PageSize)
		return nil
	})
	if err != nil {
		return u, err
	}
	fi, err := os.Stat(c.path)
	if err != nil {
		return u, err
	}
	u.file = fi.Size()
	return u, nil
}

// maintain keeps the file under its bound: it evicts entries when they
// take more than diskEvictAt% of it, sweeps the expired ones once a day,
// and compacts the file when it is over its bound or more than half
// free. At startup (before any Get or Put has set Retain) it does not
// sweep.
func (c *Cache) maintain(startup bool) {
	if c.broken.Load() != nil {
		return
	}
	u, err := c.usage()
	if err != nil {
		return
	}
	switch {
	case c.maxBytes > 0 && u.used > c.maxBytes*diskEvictAt/100:
		c.evict(u, c.maxBytes*diskEvictTo/100)
	case !startup && c.sweepDue():
		c.evict(u, -1)
	default:
		if !c.compactDue(u) {
			return
		}
	}
	if u, err = c.usage(); err == nil && c.compactDue(u) {
		_, _ = c.compact(nil)
	}
}

// makeRoom is maintain for a batch of size bytes that did not fit:
// evict, leaving room for the batch twice over (bbolt copies each page
// it changes, and a leaf page holds at least two entries, however
// large), then compact, since the free pages may be too scattered for a
// large entry.
func (c *Cache) makeRoom(size int) {
	u, err := c.usage()
	if err != nil {
		return
	}
	c.evict(u, max(c.maxBytes/4, c.maxBytes*diskEvictTo/100-2*int64(size)))
	c.compactAfter = time.Time{}
	_, _ = c.compact(nil)
}

func (c *Cache) compactDue(u diskUsage) bool {
	if time.Now().Before(c.compactAfter) {
		return false
	}
	return (c.maxBytes > 0 && u.file > c.maxBytes) ||
		(u.file >= diskCompactMin && u.file-u.used > u.file/2)
}

// sweepDue reports whether the last sweep of expired entries was more
// than diskSweepEvery ago.
func (c *Cache) sweepDue() bool {
	now := time.Now()
	if now.Before(c.sweepAfter) {
		return false
	}
	var last time.Time
	_ = c.view(func(tx *bolt.Tx) error {
		if m := tx.Bucket(diskMetaBucket); m != nil {
			if v := m.Get(diskSweptKey); len(v) == 8 {
				last = time.Unix(int64(binary.BigEndian.Uint64(v)), 0)
			}
		}
		return nil
	})
	due := now.Sub(last) > diskSweepEvery
	if !due {
		c.sweepAfter = last.Add(diskSweepEvery)
	}
	return due
}

// evict deletes the entries that are expired or cannot be decoded, then,
// when target is not negative, the oldest by their Fetched time (never
// fetched first) until the pages in use would come down to target. The
// pages an entry takes are estimated from its share of all the keys and
// values.
func (c *Cache) evict(u diskUsage, target int64) {
	type cand struct {
		key     string
		fetched int64
		size    int64
	}
	var (
		dead        []string
		rest        []cand
		total, gone int64
	)
	now := time.Now()
	retain := time.Duration(c.retain.Load())
	err := c.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(diskBucket)
		if b == nil {
			return errors.New("no bucket")
		}
		return b.ForEach(func(k, v []byte) error {
			// A leaf element takes 16 bytes besides its key and value.
			size := int64(len(k) + len(v) + 16)
			total += size
			t, ok := fetch.EncodedFetched(v)
			if !ok || expiredAt(t, retain, now) {
				dead = append(dead, string(k))
				gone += size
				return nil
			}
			if target >= 0 {
				ns := int64(math.MinInt64)
				if !t.IsZero() {
					ns = t.UnixNano()
				}
				rest = append(rest, cand{string(k), ns, size})
			}
			return nil
		})
	})
	if err != nil {
		return
	}
	var old []string
	if target >= 0 && u.used > target && total > 0 {
		need := int64(float64(u.used-target)/float64(u.used)*float64(total)) - gone
		slices.SortFunc(rest, func(a, b cand) int {
			switch {
			case a.fetched < b.fetched:
				return -1
			case a.fetched > b.fetched:
				return 1
			}
			return 0
		})
		for _, e := range rest {
			if need <= 0 {
				break
			}
			old = append(old, e.key)
			need -= e.size
		}
	}
	expired, err := c.deleteKeys(dead)
	var evicted int64
	if err == nil {
		evicted, err = c.deleteKeys(old)
	}
	if errors.Is(err, berrors.ErrMaxSizeReached) {
		// A deletion writes pages too, and there is no room for them:
		// copy the file without the rest.
		skip := make(map[string]bool)
		for _, k := range dead[expired:] {
			skip[k] = true
		}
		for _, k := range old[evicted:] {
			skip[k] = true
		}
		if _, err = c.compact(skip); err == nil {
			expired, evicted = int64(len(dead)), int64(len(old))
		}
	}
	c.n.expired.Add(expired)
	c.n.evicted.Add(evicted)
	if err == nil {
		// A full pass is a sweep too.
		stamp := binary.BigEndian.AppendUint64(nil, uint64(now.Unix()))
		_ = c.update(func(tx *bolt.Tx) error {
			m, err := tx.CreateBucketIfNotExists(diskMetaBucket)
			if err != nil {
				return err
			}
			return m.Put(diskSweptKey, stamp)
		})
		c.sweepAfter = now.Add(diskSweepEvery)
	}
	if expired+evicted > 0 {
		c.log.Info("fetch: disk cache entries deleted", "path", c.path, "expired", expired, "evicted", evicted,
			"used_bytes", u.used, "max_bytes", c.maxBytes)
	}
	if err != nil {
		c.log.Error("fetch: disk cache eviction failed", "path", c.path, "error", err.Error())
	}
}

// deleteKeys deletes keys, diskDeleteChunk to a transaction, and returns
// how many it deleted.
func (c *Cache) deleteKeys(keys []string) (int64, error) {
	var n int64
	for chunk := range slices.Chunk(keys, diskDeleteChunk) {
		err := c.update(func(tx *bolt.Tx) error {
			b := tx.Bucket(diskBucket)
			if b == nil {
				return errors.New("no bucket")
			}
			for _, k := range chunk {
				if err := b.Delete([]byte(k)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return n, err
		}
		n += int64(len(chunk))
	}
	return n, nil
}

// compact rewrites the file without its free pages, and without the
// entries in skip (copyDisk into PATH.compact, synced, then renamed over
// PATH), since a bbolt file never shrinks. Gets go on meanwhile; Puts
// queue. It returns how many entries it skipped. After a failure it is
// not tried again for a minute, unless the bound requires it.
func (c *Cache) compact(skip map[string]bool) (int64, error) {
	tmp := c.path + ".compact"
	fail := func(err error) (int64, error) {
		c.compactAfter = time.Now().Add(time.Minute)
		_ = os.Remove(tmp)
		c.log.Error("fetch: disk cache compaction failed", "path", c.path, "error", err.Error())
		return 0, err
	}
	_ = os.Remove(tmp)
	dst, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: diskLockTimeout, NoSync: true})
	if err != nil {
		return fail(err)
	}
	// Past 16 MiB, bbolt grows a file to the next power of two: the
	// copy is to grow as the cache's file does.
	dst.AllocSize = c.allocSize()
	before, _ := c.usage()
	c.mu.RLock()
	src, gen := c.db, c.gen
	if src == nil {
		c.mu.RUnlock()
		closeDB(dst)
		_ = os.Remove(tmp)
		return 0, c.brokenErr()
	}
	var skipped int64
	err = guard(func() (err error) {
		skipped, err = copyDisk(dst, src, skip)
		return err
	})
	c.mu.RUnlock()
	if p := (*diskPanic)(nil); errors.As(err, &p) {
		closeDB(dst)
		_ = os.Remove(tmp)
		c.reset(gen, err)
		return 0, err
	}
	if err == nil {
		err = dst.Sync()
	}
	if err != nil {
		closeDB(dst)
		return fail(err)
	}
	dst.NoSync = false
	dst.MaxSize = int(c.maxBytes)
	c.mu.Lock()
	if c.gen != gen {
		c.mu.Unlock()
		closeDB(dst)
		_ = os.Remove(tmp)
		return 0, errors.New("the file was replaced meanwhile")
	}
	// The old file stays open, and locked, until the new one is in its
	// place.
	if err := os.Rename(tmp, c.path); err != nil {
		c.mu.Unlock()
		closeDB(dst)
		return fail(err)
	}
	c.db = dst
	c.gen++
	c.mu.Unlock()
	closeDB(src)
	c.n.compactions.Add(1)
	c.compactAfter = time.Time{}
	after, _ := c.usage()
	c.log.Info("fetch: disk cache compacted", "path", c.path, "before_bytes", before.file, "after_bytes", after.file)
	return skipped, nil
}

// copyDisk copies the buckets of a Cache from src to the new file
// dst, pages filled, committing every 4 MiB, without the entries in
// skip, and returns how many it skipped.
func copyDisk(dst, src *bolt.DB, skip map[string]bool) (int64, error) {
	var skipped int64
	err := src.View(func(stx *bolt.Tx) error {
		tx, err := dst.Begin(true)
		if err != nil {
			return err
		}
		defer func() { _ = tx.Rollback() }()
		size := 0
		for _, name := range [][]byte{diskMetaBucket, diskBucket} {
			from := stx.Bucket(name)
			if from == nil {
				continue
			}
			if _, err := tx.CreateBucket(name); err != nil {
				return err
			}
			err := from.ForEach(func(k, v []byte) error {
				if v == nil || skip[string(k)] {
					skipped++
					return nil
				}
				if size += len(k) + len(v); size > 4<<20 {
					if err := tx.Commit(); err != nil {
						return err
					}
					if tx, err = dst.Begin(true); err != nil {
						return err
					}
					size = len(k) + len(v)
				}
				b := tx.Bucket(name)
				// Keys come in order: full pages.
				b.FillPercent = 1
				// k and v stay valid: src's transaction outlives tx.
				return b.Put(k, v)
			})
			if err != nil {
				return err
			}
		}
		return tx.Commit()
	})
	return skipped, err
}
