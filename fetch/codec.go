package fetch

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"
)

// codecVersion is the first byte of every encoded Entry. A change of the
// layout takes a new version, so that a cache written by an older build
// is read as an error (and so as a miss) rather than as garbage.
const codecVersion = 1

// errNilEntry is returned for a nil *Entry given to MarshalBinary or Put.
var errNilEntry = errors.New("fetch: nil cache entry")

// MarshalBinary encodes the entry for a cache outside the process (see
// the packages fetch/diskcache and fetch/rediscache). The rules compiled
// from Body are not kept: they are compiled again after UnmarshalBinary,
// at most once for all the entries in use of the same body.
//
// The layout is a version byte (1), then the fields in declaration order:
// URL and Body as a uvarint length and the bytes; Outcome and Good as one
// byte; Status as a varint; each time as a uvarint that is 0 for the zero
// time and else 1 plus the zig-zag encoding of its UnixNano, so that
// IsZero round-trips; times decode in UTC. An unknown outcome, or a
// non-zero time outside the years 1678 to 2262, which UnixNano cannot
// hold, is an error.
func (e *Entry) MarshalBinary() ([]byte, error) {
	if e == nil {
		return nil, errNilEntry
	}
	if e.Outcome > Unreachable || e.Good > Unreachable {
		return nil, fmt.Errorf("fetch: cannot encode unknown outcome %d/%d", e.Outcome, e.Good)
	}
	// The version and two outcome bytes, and at most seven varints: two
	// lengths, the status and four times.
	const fixed = 3 + 7*binary.MaxVarintLen64
	b := make([]byte, 0, fixed+len(e.URL)+len(e.Body))
	b = append(b, codecVersion)
	b = binary.AppendUvarint(b, uint64(len(e.URL)))
	b = append(b, e.URL...)
	b = append(b, byte(e.Outcome))
	b = binary.AppendVarint(b, int64(e.Status))
	for _, t := range [...]time.Time{e.Fetched, e.Expires, e.ErrorSince} {
		var err error
		if b, err = appendTime(b, t); err != nil {
			return nil, err
		}
	}
	b = append(b, byte(e.Good))
	b, err := appendTime(b, e.GoodAt)
	if err != nil {
		return nil, err
	}
	b = binary.AppendUvarint(b, uint64(len(e.Body)))
	b = append(b, e.Body...)
	return b, nil
}

// UnmarshalBinary decodes data made by MarshalBinary into e, replacing
// every field. It returns an error, and leaves e unchanged, for data that
// is truncated, has bytes left over, has an unknown version or outcome,
// or holds a length longer than what follows it; so it allocates at most
// about len(data) bytes whatever data holds. The Entry keeps no reference
// to data: its Body is the copy that the entries of the same bytes share
// (see Entry).
func (e *Entry) UnmarshalBinary(data []byte) error {
	if e == nil {
		return errNilEntry
	}
	d := decoder{b: data}
	if v := d.byte(); d.err == nil && v != codecVersion {
		return fmt.Errorf("fetch: cache entry version %d, want %d", v, codecVersion)
	}
	var n Entry
	n.URL = string(d.bytes())
	n.Outcome = d.outcome()
	n.Status = d.int()
	n.Fetched = d.time()
	n.Expires = d.time()
	n.ErrorSince = d.time()
	n.Good = d.outcome()
	n.GoodAt = d.time()
	body := d.bytes()
	if d.err == nil && len(d.b) > 0 {
		d.err = fmt.Errorf("%d bytes after the end", len(d.b))
	}
	if d.err != nil {
		return fmt.Errorf("fetch: bad cache entry: %w", d.err)
	}
	e.URL, e.Outcome, e.Status = n.URL, n.Outcome, n.Status
	e.Fetched, e.Expires, e.ErrorSince = n.Fetched, n.Expires, n.ErrorSince
	e.Good, e.GoodAt, e.Body = n.Good, n.GoodAt, nil
	// The memos belong to the old state.
	e.shared.Store(nil)
	e.hit.Store(nil)
	if len(body) > 0 {
		// Not body itself: the caller's buffer (a bbolt page, a Redis
		// reply) is not ours to keep. The shared copy is made at most
		// once for all the entries in use of the same bytes.
		s := shareBody(body, false)
		e.Body = s.body
		e.shared.Store(s)
	}
	return nil
}

// EncodedFetched returns the Fetched time of the entry that data, made by
// MarshalBinary, encodes, reading only the fields before it; ok is false
// when data does not start as an encoded entry does. It is for a cache
// outside the process, such as the disk cache (fetch/diskcache), that
// finds its old and expired entries without decoding their bodies.
func EncodedFetched(data []byte) (fetched time.Time, ok bool) {
	d := decoder{b: data}
	if d.byte() != codecVersion {
		return time.Time{}, false
	}
	d.bytes()
	d.outcome()
	d.int()
	t := d.time()
	return t, d.err == nil
}

// appendTime appends t as described at MarshalBinary.
func appendTime(b []byte, t time.Time) ([]byte, error) {
	if t.IsZero() {
		return append(b, 0), nil
	}
	ns := t.UnixNano()
	// UnixNano is undefined out of int64 range; math.MinInt64 is in range
	// but its zig-zag form plus one would wrap to 0, the zero time.
	if ns == math.MinInt64 || !time.Unix(0, ns).Equal(t) {
		return nil, fmt.Errorf("fetch: time %v cannot be encoded (outside the years 1678 to 2262)", t)
	}
	return binary.AppendUvarint(b, zigzag(ns)+1), nil
}

func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// A decoder reads the fields of an encoded Entry. After the first error
// every read returns a zero value, so that a caller checks err once.
type decoder struct {
	b   []byte
	err error
}

var errTruncated = errors.New("truncated")

func (d *decoder) byte() byte {
	if d.err != nil {
		return 0
	}
	if len(d.b) == 0 {
		d.err = errTruncated
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if !d.advance(n) {
		return 0
	}
	return v
}

// advance consumes the n bytes of a varint, or records why there was none
// (n as binary.Uvarint and binary.Varint report it).
func (d *decoder) advance(n int) bool {
	switch {
	case n == 0:
		d.err = errTruncated
	case n < 0:
		d.err = errors.New("varint overflows 64 bits")
	default:
		d.b = d.b[n:]
		return true
	}
	return false
}

// bytes reads a length and that many bytes, which alias the input.
func (d *decoder) bytes() []byte {
	n := d.uvarint()
	if d.err != nil {
		return nil
	}
	// Checked before any allocation: a length cannot exceed the bytes
	// that remain, so garbage cannot ask for a huge buffer.
	if n > uint64(len(d.b)) {
		d.err = fmt.Errorf("length %d exceeds the %d bytes left", n, len(d.b))
		return nil
	}
	s := d.b[:n:n]
	d.b = d.b[n:]
	return s
}

func (d *decoder) int() int {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if !d.advance(n) {
		return 0
	}
	if int64(int(v)) != v {
		d.err = fmt.Errorf("status %d overflows int", v)
		return 0
	}
	return int(v)
}

func (d *decoder) outcome() Outcome {
	o := Outcome(d.byte())
	if d.err == nil && o > Unreachable {
		d.err = fmt.Errorf("unknown outcome %d", o)
		return 0
	}
	return o
}

func (d *decoder) time() time.Time {
	u := d.uvarint()
	if d.err != nil || u == 0 {
		return time.Time{}
	}
	return time.Unix(0, unzigzag(u-1)).UTC()
}
