package history

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A Version is one state of a site's robots.txt, as a fetch found it.
// Record fills Seq, Hash and the fields that the file gives back; the
// others are stored as given.
type Version struct {
	// Site is the origin, e.g. "https://example.com", as given to
	// Record: Record does not normalise it. At most 2048 bytes.
	Site string `json:"site"`
	// Seq numbers the versions of a site, 1, 2, 3 …; Record assigns it.
	Seq int `json:"seq"`
	// Time is when the fetch that first found this state ended.
	Time time.Time `json:"time"`
	// URL is the robots.txt URL requested; FinalURL the one that
	// answered, after redirects, if any.
	URL      string `json:"url"`
	FinalURL string `json:"final_url,omitempty"`
	// Status is the final HTTP status, 0 when no response arrived.
	Status int `json:"status"`
	// Outcome is what the fetch amounted to, fetch.Outcome's text:
	// "success", "unavailable", "unreachable" or "forbidden".
	Outcome string `json:"outcome"`
	// Err is the network error, if any.
	Err string `json:"error,omitempty"`
	// Hash is the hex SHA-256 of Body, "" when there is no body; Record
	// computes it.
	Hash string `json:"sha256"`
	// Size is how many body bytes the fetch read, and Truncated whether
	// the body went past the fetch's limit, as given to Record.
	Size      int64 `json:"size"`
	Truncated bool  `json:"truncated,omitempty"`
	// Body is the body that the fetch kept, stored once per distinct
	// Hash in the file's bodies bucket. The versions that one call
	// returns with the same Hash share one Body: do not modify it.
	Body []byte `json:"-"`
}

// A Site is what a Store knows of one site.
type Site struct {
	// Site is the site's name, Version.Site.
	Site string `json:"site"`
	// Versions is how many versions the site has.
	Versions int `json:"versions"`
	// First is the first version's Time, Last the latest one's.
	First time.Time `json:"first"`
	Last  time.Time `json:"last"`
	// Checked is the Time of the last Record call for the site, whether
	// it stored a version or not: the one value in the file that is
	// updated in place. It never goes back.
	Checked time.Time `json:"checked"`
}

// Options are the settings of Open. A nil *Options is the zero value.
type Options struct {
	// LockTimeout is how long a call waits for another process's lock on
	// the file before it fails (0: 10 s).
	LockTimeout time.Duration
	// Logger, when not nil, is told of a file moved aside. The store
	// logs nothing else, and never prints.
	Logger *slog.Logger
	// ReadOnly opens the file for reading only, with a shared lock: other
	// readers may use it at the same time, a writer waits. Record fails,
	// the file must exist, and a damaged file is an error rather than
	// moved aside.
	ReadOnly bool
	// MaxBody bounds a body (0: 512 KiB; robots read at most 500 KiB): a
	// longer one is refused by Record, and a longer one in the file is an
	// error when read.
	MaxBody int64
}

// ErrNotFound is the error, wrapped, of Versions and At for a site that
// the store has never seen.
var ErrNotFound = errors.New("site not in the history store")

// The defaults and bounds; see the package doc.
const (
	defaultLockTimeout = 10 * time.Second
	defaultMaxBody     = 512 << 10
	maxSite            = 2048
	maxRecord          = 64 << 10 // a Version's JSON
	maxOutcome         = 64
	maxVersions        = 100_000
	maxSites           = 1_000_000
)

// The format; see the package doc.
var (
	bucketMeta    = []byte("meta")
	bucketSites   = []byte("sites")
	bucketChecked = []byte("checked")
	bucketBodies  = []byte("bodies")
	keyFormat     = []byte("format")
)

const (
	formatName    = "robots-history"
	formatVersion = 1
)

var formatMarker = []byte(fmt.Sprintf("%s/%d", formatName, formatVersion))

// A Store is a history of robots.txt versions in a bbolt file. It holds
// no file open between calls (see the package doc), and is safe for
// concurrent use; two Stores, in one process or two, may use one file.
type Store struct {
	path     string
	timeout  time.Duration
	maxBody  int64
	readOnly bool
	log      *slog.Logger
	aside    string

	// mu is held for reading by the calls that read, for writing by
	// Record and Close: within the process, writes wait for each other
	// here rather than polling the file's lock.
	mu     sync.RWMutex
	closed bool
}

// errClosed is the error of a Store used after Close.
var errClosed = errors.New("history: store is closed")

// Open opens the history store at path, creating it (mode 0600) if it
// does not exist, and writes the format marker into a new file. It holds
// the file only while it checks it. A damaged file, or one that is not a
// history store, is moved aside and a new one made (see MovedAside); the
// error is nil then. A store written by a newer robots is an error and
// is left as it is. With o.ReadOnly, the file must exist, nothing is
// written, and a damaged file is an error.
func Open(path string, o *Options) (*Store, error) {
	var opt Options
	if o != nil {
		opt = *o
	}
	if opt.LockTimeout < 0 {
		return nil, fmt.Errorf("history: negative lock timeout %v", opt.LockTimeout)
	}
	if opt.MaxBody < 0 {
		return nil, fmt.Errorf("history: negative body bound %d", opt.MaxBody)
	}
	s := &Store{
		path:     path,
		timeout:  cmpOr(opt.LockTimeout, defaultLockTimeout),
		maxBody:  cmpOr(opt.MaxBody, defaultMaxBody),
		readOnly: opt.ReadOnly,
		log:      opt.Logger,
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	var err error
	if s.readOnly {
		err = s.openReadOnly()
	} else {
		err = s.openWrite()
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

func cmpOr[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// Path returns the path of the store's file.
func (s *Store) Path() string { return s.path }

// MovedAside returns the path that a damaged file, or one that was not
// a history store, was moved to when the store was opened, or "" when
// there was none.
func (s *Store) MovedAside() string { return s.aside }

// Close ends the use of the store; it holds no file between calls, so
// there is nothing to write. A call made after Close fails.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return nil
}

// Record stores what a fetch of v.Site found, v, and returns the
// version in force after it. It compares v with the site's latest
// version: when there is none, or v's Outcome differs, or its body
// (Hash, which Record computes from Body, ignoring v.Hash and v.Seq)
// does, it appends v as a new version, numbered the latest's Seq plus
// one, and returns it with added true. Otherwise it stores only the
// site's Checked time and returns the latest version with added false.
// The other fields (Status, URL, Err …) do not make a new version.
//
// v.Site must not be empty (at most 2048 bytes), nor v.Outcome; v.Time
// must not be zero, nor before the latest version's Time (a clock that
// went back must not reorder the history), and a new version not before
// the site's Checked time either. A Body longer than Options.MaxBody is
// refused. The returned version reads as Versions would return it.
func (s *Store) Record(v Version) (stored Version, added bool, err error) {
	if s.readOnly {
		return Version{}, false, fmt.Errorf("history: %s: Record on a read-only store", s.path)
	}
	switch {
	case v.Site == "":
		return Version{}, false, errors.New("history: Record: no site")
	case len(v.Site) > maxSite:
		return Version{}, false, fmt.Errorf("history: Record: site name of %d bytes, over %d", len(v.Site), maxSite)
	case v.Time.IsZero():
		return Version{}, false, fmt.Errorf("history: Record %s: no time", v.Site)
	case v.Outcome == "" || len(v.Outcome) > maxOutcome:
		return Version{}, false, fmt.Errorf("history: Record %s: outcome %q", v.Site, v.Outcome)
	case int64(len(v.Body)) > s.maxBody:
		return Version{}, false, fmt.Errorf("history: Record %s: body of %d bytes, over the bound of %d", v.Site, len(v.Body), s.maxBody)
	case v.Size < 0:
		return Version{}, false, fmt.Errorf("history: Record %s: negative size %d", v.Site, v.Size)
	}
	v.Seq, v.Hash = 0, ""
	v.Time = v.Time.Round(0) // no monotonic reading: as the file gives it back
	if len(v.Body) == 0 {
		v.Body = nil
	} else {
		sum := sha256.Sum256(v.Body)
		v.Hash = hex.EncodeToString(sum[:])
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return Version{}, false, errClosed
	}
	err = s.run(true, func(tx *bolt.Tx) error {
		stored, added = Version{}, false
		t, err := s.layout(tx)
		if err != nil {
			return err
		}
		if t == nil {
			if t, err = create(tx); err != nil {
				return err
			}
		}
		site := []byte(v.Site)
		b, err := s.site(t, site)
		if err != nil {
			return err
		}
		var latest *Version
		if b != nil {
			if latest, err = s.latest(b, v.Site); err != nil {
				return err
			}
		}
		checked, err := s.checkedTime(t, site)
		if err != nil {
			return err
		}
		now := v.Time.UTC().Format(time.RFC3339Nano)
		if latest != nil {
			if v.Time.Before(latest.Time) {
				return fmt.Errorf("history: Record %s: time %s is before the latest version's, %s (did the clock go back?)",
					v.Site, v.Time.Format(time.RFC3339Nano), latest.Time.Format(time.RFC3339Nano))
			}
			if latest.Outcome == v.Outcome && latest.Hash == v.Hash {
				stored = *latest
				stored.Body = v.Body
				if v.Time.After(checked) {
					return t.checked.Put(site, []byte(now))
				}
				return nil
			}
			if v.Time.Before(checked) {
				return fmt.Errorf("history: Record %s: time %s is before the site was last checked, %s (did the clock go back?)",
					v.Site, v.Time.Format(time.RFC3339Nano), checked.Format(time.RFC3339Nano))
			}
			v.Seq = latest.Seq + 1
		} else {
			if b == nil {
				if b, err = t.sites.CreateBucket(site); err != nil {
					return fmt.Errorf("history: %s: site %q: %w", s.path, v.Site, err)
				}
			}
			v.Seq = 1
		}
		data, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("history: Record %s: %w", v.Site, err)
		}
		if len(data) > maxRecord {
			return fmt.Errorf("history: Record %s: the version takes %d bytes of JSON, over %d (a URL or an error that long?)", v.Site, len(data), maxRecord)
		}
		key := seqKey(v.Seq)
		if b.Get(key) != nil {
			return s.damaged(fmt.Errorf("site %q: version %d is there already", v.Site, v.Seq))
		}
		if v.Hash != "" && t.bodies.Get([]byte(v.Hash)) == nil {
			if err := t.bodies.Put([]byte(v.Hash), v.Body); err != nil {
				return err
			}
		}
		if err := b.Put(key, data); err != nil {
			return err
		}
		if err := t.checked.Put(site, []byte(now)); err != nil {
			return err
		}
		if stored, err = s.decode(key, data, v.Site); err != nil {
			return err
		}
		stored.Body = v.Body
		added = true
		return nil
	})
	if err != nil {
		return Version{}, false, err
	}
	return stored, added, nil
}

// Sites returns what the store knows of each site, sorted by Site (as
// bytes). At most 1,000,000 sites: a store with more is an error.
func (s *Store) Sites() ([]Site, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, errClosed
	}
	var out []Site
	err := s.run(false, func(tx *bolt.Tx) error {
		out = nil
		t, err := s.layout(tx)
		if t == nil || err != nil {
			return err
		}
		c := t.sites.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if v != nil {
				return s.damaged(fmt.Errorf("a value, not a bucket, in sites under %q", trim(k)))
			}
			if len(out) == maxSites {
				return fmt.Errorf("history: %s holds more than %d sites", s.path, maxSites)
			}
			if len(k) == 0 || len(k) > maxSite {
				return s.damaged(fmt.Errorf("a site name of %d bytes", len(k)))
			}
			site := string(k)
			b, err := s.site(t, k)
			if err != nil {
				return err
			}
			bc := b.Cursor()
			fk, fv := bc.First()
			if fk == nil {
				continue // a site with no version: none is ever made
			}
			first, err := s.decode(fk, fv, site)
			if err != nil {
				return err
			}
			last, err := s.latest(b, site)
			if err != nil {
				return err
			}
			checked, err := s.checkedTime(t, k)
			if err != nil {
				return err
			}
			if first.Seq != 1 {
				return s.damaged(fmt.Errorf("site %q: the first version is %d", site, first.Seq))
			}
			out = append(out, Site{Site: site, Versions: last.Seq, First: first.Time, Last: last.Time, Checked: checked})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Versions returns the versions of site, oldest first, with their
// bodies, or an error wrapping ErrNotFound for a site the store has
// never seen. At most 100,000 versions: a site with more is an error
// (At still reads it).
func (s *Store) Versions(site string) ([]Version, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, errClosed
	}
	var out []Version
	err := s.run(false, func(tx *bolt.Tx) error {
		out = nil
		t, b, err := s.siteBucket(tx, site)
		if err != nil {
			return err
		}
		bodies := make(map[string][]byte)
		c := b.Cursor()
		for k, val := c.First(); k != nil; k, val = c.Next() {
			if len(out) == maxVersions {
				return fmt.Errorf("history: %s: site %q has more than %d versions; ask At for one", s.path, site, maxVersions)
			}
			v, err := s.decode(k, val, site)
			if err != nil {
				return err
			}
			if v.Seq != len(out)+1 {
				return s.damaged(fmt.Errorf("site %q: version %d follows %d", site, v.Seq, len(out)))
			}
			if v.Hash != "" {
				body, ok := bodies[v.Hash]
				if !ok {
					if body, err = s.body(t, v.Hash); err != nil {
						return err
					}
					bodies[v.Hash] = body
				}
				v.Body = body
			}
			out = append(out, v)
		}
		if len(out) == 0 {
			return fmt.Errorf("history: %s: site %q: %w", s.path, site, ErrNotFound)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// At returns the version of site in force at t, with its body: the last
// one whose Time is not after t. It returns false when t is before the
// first version, and an error wrapping ErrNotFound for a site the store
// has never seen.
func (s *Store) At(site string, t time.Time) (Version, bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return Version{}, false, errClosed
	}
	var (
		found Version
		ok    bool
	)
	err := s.run(false, func(tx *bolt.Tx) error {
		found, ok = Version{}, false
		tr, b, err := s.siteBucket(tx, site)
		if err != nil {
			return err
		}
		get := func(seq int) (Version, error) {
			k := seqKey(seq)
			return s.decode(k, b.Get(k), site)
		}
		last, err := s.latest(b, site)
		if err != nil {
			return err
		}
		if last == nil {
			return fmt.Errorf("history: %s: site %q: %w", s.path, site, ErrNotFound)
		}
		// The versions are in Time order: find the last one not after t,
		// in versions lo..hi.
		lo, hi := 1, last.Seq
		if !last.Time.After(t) {
			found, ok = *last, true
		} else {
			hi--
			for lo <= hi {
				m := int(uint(lo+hi) >> 1)
				v, err := get(m)
				if err != nil {
					return err
				}
				if v.Time.After(t) {
					hi = m - 1
				} else {
					found, ok = v, true
					lo = m + 1
				}
			}
		}
		if ok && found.Hash != "" {
			if found.Body, err = s.body(tr, found.Hash); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Version{}, false, err
	}
	return found, ok, nil
}

// A tree is the buckets of a store in a transaction.
type tree struct{ meta, sites, checked, bodies *bolt.Bucket }

// layout returns the buckets of the store in tx, or nil when the file
// holds none (a new file; tx is nil for an empty file read), or an error
// when it is not a history store, or one of a newer format.
func (s *Store) layout(tx *bolt.Tx) (*tree, error) {
	if tx == nil {
		return nil, nil
	}
	t := &tree{tx.Bucket(bucketMeta), tx.Bucket(bucketSites), tx.Bucket(bucketChecked), tx.Bucket(bucketBodies)}
	if t.meta == nil {
		if k, _ := tx.Cursor().First(); k == nil {
			return nil, nil
		}
		return nil, s.foreign(fmt.Errorf("%w: a bbolt file without a %q bucket", errForeign, bucketMeta))
	}
	if err := s.checkFormat(t.meta.Get(keyFormat)); err != nil {
		return nil, err
	}
	if t.sites == nil || t.checked == nil || t.bodies == nil {
		return nil, s.foreign(fmt.Errorf("%w: a bucket of the format is missing", errForeign))
	}
	for _, b := range []struct {
		b    *bolt.Bucket
		name []byte
	}{{t.meta, bucketMeta}, {t.sites, bucketSites}, {t.checked, bucketChecked}, {t.bodies, bucketBodies}} {
		if err := s.sound(b.b, b.name); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// sound checks what it cheaply can of bucket b, named name, before a
// cursor walks it: that an inline bucket (one stored in its parent's
// value, as most sites' are) is a leaf. A cursor takes any other page
// for a branch, and bbolt takes the first child of an inline branch
// for the page itself: the cursor loops forever, growing without bound.
// A damaged value reads as such a page. (Stats reads an inline bucket's
// one page, and counts its bytes in use only when it is a leaf.)
func (s *Store) sound(b *bolt.Bucket, name []byte) error {
	if b != nil && b.Root() == 0 && b.Stats().InlineBucketInuse == 0 {
		return s.damaged(fmt.Errorf("bucket %q: an inline bucket whose page is not a leaf", trim(name)))
	}
	return nil
}

// site returns the bucket of a site in sites, nil when there is none.
func (s *Store) site(t *tree, name []byte) (*bolt.Bucket, error) {
	b := t.sites.Bucket(name)
	if err := s.sound(b, name); err != nil {
		return nil, err
	}
	return b, nil
}

// create makes the buckets of a new store and writes the format marker.
func create(tx *bolt.Tx) (*tree, error) {
	var t tree
	var err error
	for _, b := range []struct {
		name []byte
		to   **bolt.Bucket
	}{{bucketMeta, &t.meta}, {bucketSites, &t.sites}, {bucketChecked, &t.checked}, {bucketBodies, &t.bodies}} {
		if *b.to, err = tx.CreateBucketIfNotExists(b.name); err != nil {
			return nil, err
		}
	}
	return &t, t.meta.Put(keyFormat, formatMarker)
}

// siteBucket returns the store's buckets and the bucket of site, or an
// error wrapping ErrNotFound.
func (s *Store) siteBucket(tx *bolt.Tx, site string) (*tree, *bolt.Bucket, error) {
	t, err := s.layout(tx)
	if err != nil {
		return nil, nil, err
	}
	var b *bolt.Bucket
	if t != nil && site != "" && len(site) <= maxSite {
		if b, err = s.site(t, []byte(site)); err != nil {
			return nil, nil, err
		}
	}
	if b == nil {
		return nil, nil, fmt.Errorf("history: %s: site %q: %w", s.path, trim([]byte(site)), ErrNotFound)
	}
	return t, b, nil
}

// latest returns the last version in b, the bucket of site, or nil.
func (s *Store) latest(b *bolt.Bucket, site string) (*Version, error) {
	k, val := b.Cursor().Last()
	if k == nil {
		return nil, nil
	}
	v, err := s.decode(k, val, site)
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// checkedTime returns the Checked time of site, zero when there is none.
func (s *Store) checkedTime(t *tree, site []byte) (time.Time, error) {
	val := t.checked.Get(site)
	if val == nil {
		return time.Time{}, nil
	}
	if len(val) > 64 {
		return time.Time{}, s.damaged(fmt.Errorf("site %q: a checked time of %d bytes", trim(site), len(val)))
	}
	c, err := time.Parse(time.RFC3339Nano, string(val))
	if err != nil {
		return time.Time{}, s.damaged(fmt.Errorf("site %q: checked time: %v", trim(site), err))
	}
	return c, nil
}

// seqKey is the key of version seq: 8 bytes, big-endian.
func seqKey(seq int) []byte { return binary.BigEndian.AppendUint64(nil, uint64(seq)) }

// decode reads the version stored under k in the bucket of site,
// checking what it can: the key, the bound, that the JSON names the
// same site and number, a hash of the right form, a time.
func (s *Store) decode(k, val []byte, site string) (Version, error) {
	var v Version
	bad := func(format string, a ...any) (Version, error) {
		return Version{}, s.damaged(fmt.Errorf("site %q: %s", trim([]byte(site)), fmt.Sprintf(format, a...)))
	}
	switch {
	case len(k) != 8:
		return bad("a key of %d bytes", len(k))
	case val == nil:
		return bad("a bucket, or nothing, under version %d", binary.BigEndian.Uint64(k))
	case len(val) > maxRecord:
		return bad("version %d takes %d bytes, over %d", binary.BigEndian.Uint64(k), len(val), maxRecord)
	}
	seq := binary.BigEndian.Uint64(k)
	if err := json.Unmarshal(val, &v); err != nil {
		return bad("version %d: %v", seq, err)
	}
	switch {
	case seq == 0 || seq > 1<<53 || uint64(v.Seq) != seq:
		return bad("version %d says it is %d", seq, v.Seq)
	case v.Site != site:
		return bad("version %d says it is of %q", seq, trim([]byte(v.Site)))
	case v.Time.IsZero():
		return bad("version %d has no time", seq)
	case v.Hash != "" && !isHash(v.Hash):
		return bad("version %d: hash %q", seq, trim([]byte(v.Hash)))
	}
	v.Body = nil
	return v, nil
}

// isHash reports whether h is a SHA-256 as the format writes it: 64
// lowercase hex digits.
func isHash(h string) bool {
	if len(h) != 2*sha256.Size {
		return false
	}
	for i := range len(h) {
		if c := h[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// body returns a copy of the body of hash h, checked against h.
func (s *Store) body(t *tree, h string) ([]byte, error) {
	val := t.bodies.Get([]byte(h))
	switch {
	case val == nil:
		return nil, s.damaged(fmt.Errorf("the body %s is missing", h))
	case int64(len(val)) > s.maxBody:
		return nil, fmt.Errorf("history: %s: the body %s has %d bytes, over the bound of %d (Options.MaxBody)", s.path, h, len(val), s.maxBody)
	}
	sum := sha256.Sum256(val)
	if hex.EncodeToString(sum[:]) != h {
		return nil, s.damaged(fmt.Errorf("the body %s does not match its hash", h))
	}
	return bytes.Clone(val), nil
}

// trim shortens a name from the file for an error message.
func trim(b []byte) string {
	if len(b) > 100 {
		return string(b[:100]) + "…"
	}
	return string(b)
}
