package fetch

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"
)

// codecTestEntries adds to cacheTestEntries the times at the edges of
// what UnixNano holds.
func codecTestEntries() []struct {
	name string
	e    *Entry
} {
	es := cacheTestEntries()
	edge := []struct {
		name string
		e    *Entry
	}{
		{"unix epoch", &Entry{Fetched: time.Unix(0, 0), Expires: time.Unix(0, 1), GoodAt: time.Unix(0, -1)}},
		{"before 1970", &Entry{Fetched: time.Date(1900, 1, 1, 0, 0, 0, 1, time.UTC)}},
		{"extremes", &Entry{
			Fetched: time.Unix(0, math.MaxInt64),
			Expires: time.Unix(0, math.MinInt64+1),
			Status:  math.MaxInt32,
		}},
		{"negative status", &Entry{Status: -1, Outcome: Unreachable}},
		{"other zone", &Entry{Fetched: time.Date(2026, 3, 1, 12, 0, 0, 5, time.FixedZone("X", 3600))}},
		{"long URL", &Entry{URL: strings.Repeat("x", 1<<16)}},
	}
	return append(es, edge...)
}

func TestEntryCodecRoundTrip(t *testing.T) {
	for _, tc := range codecTestEntries() {
		t.Run(tc.name, func(t *testing.T) {
			b, err := tc.e.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			got := new(Entry)
			if err := got.UnmarshalBinary(b); err != nil {
				t.Fatal(err)
			}
			if d := cacheEntryDiff(got, tc.e); d != "" {
				t.Error(d)
			}
			// Compact: the fixed part takes a few dozen bytes at most.
			if over := len(b) - len(tc.e.URL) - len(tc.e.Body); over > 50 {
				t.Errorf("%d bytes beyond URL and body", over)
			}
		})
	}
}

// TestEntryCodecLayout pins the encoding of one entry, so that a change of
// the layout is noticed (and given a new version).
func TestEntryCodecLayout(t *testing.T) {
	e := &Entry{URL: "u", Outcome: Success, Status: 200, Fetched: time.Unix(0, 1), Good: Success, Body: []byte("b")}
	b, err := e.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{
		1,      // version
		1, 'u', // URL
		1,          // Outcome
		0x90, 0x03, // Status 200, zig-zag
		3,    // Fetched: 1 + zigzag(1)
		0, 0, // Expires, ErrorSince: zero
		1,      // Good
		0,      // GoodAt: zero
		1, 'b', // Body
	}
	if !bytes.Equal(b, want) {
		t.Errorf("MarshalBinary = %v, want %v", b, want)
	}
}

func TestEntryCodecMarshalErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		e    *Entry
	}{
		{"nil", nil},
		{"year 3000", &Entry{Fetched: time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)}},
		{"year 1000", &Entry{GoodAt: time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC)}},
		{"min int64 nanoseconds", &Entry{Expires: time.Unix(0, math.MinInt64)}},
		{"unknown outcome", &Entry{Outcome: Unreachable + 1}},
		{"unknown good", &Entry{Good: 200}},
	} {
		if b, err := tc.e.MarshalBinary(); err == nil {
			t.Errorf("%s: MarshalBinary = %v, want an error", tc.name, b)
		}
	}
}

func TestEntryCodecUnmarshalErrors(t *testing.T) {
	good, err := cacheTestEntries()[1].e.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"version 0", []byte{0}},
		{"version 2", append([]byte{2}, good[1:]...)},
		{"trailing byte", append(append([]byte(nil), good...), 0)},
		{"URL longer than the data", []byte{1, 0xff, 0xff, 0xff, 0xff, 0x0f, 'a'}},
		{"varint overflow", []byte{1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}},
		{"unknown outcome", []byte{1, 0, 5, 0, 0, 0, 0, 0, 0, 0}},
		{"unknown good", []byte{1, 0, 1, 0, 0, 0, 0, 9, 0, 0}},
		{"body longer than the data", []byte{1, 0, 1, 0, 0, 0, 0, 1, 0, 10, 'x'}},
	}
	// Every proper prefix of a valid encoding is truncated.
	for i := range len(good) {
		cases = append(cases, struct {
			name string
			data []byte
		}{"truncated", good[:i]})
	}
	for _, tc := range cases {
		e := &Entry{URL: "kept"}
		if err := e.UnmarshalBinary(tc.data); err == nil {
			t.Errorf("%s (%d bytes): UnmarshalBinary succeeded, want an error", tc.name, len(tc.data))
		}
		if e.URL != "kept" {
			t.Errorf("%s: a failed UnmarshalBinary changed the entry", tc.name)
		}
	}
}

// TestEntryCodecUnmarshalForgetsRules: decoding into an entry drops the
// rules compiled from its former body.
func TestEntryCodecUnmarshalForgetsRules(t *testing.T) {
	e := &Entry{Body: []byte("User-agent: *\nDisallow: /\n")}
	if e.rules(0).Allowed("x", "/a") {
		t.Fatal("setup: /a allowed")
	}
	b, _ := (&Entry{Body: []byte("User-agent: *\nAllow: /\n")}).MarshalBinary()
	if err := e.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if !e.rules(0).Allowed("x", "/a") {
		t.Error("rules of the old body still in use after UnmarshalBinary")
	}
}

// TestEntryCodecNoAlias: the decoded entry keeps no reference to the
// input, which a bbolt page or a Redis reply reuses.
func TestEntryCodecNoAlias(t *testing.T) {
	b, _ := cacheTestEntries()[0].e.MarshalBinary()
	e := new(Entry)
	if err := e.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	want := string(e.Body)
	for i := range b {
		b[i] = 'X'
	}
	if string(e.Body) != want {
		t.Error("Body aliases the input")
	}
}

// TestEntryCodecAllocBound: decoding allocates in proportion to the input,
// whatever lengths the input claims.
func TestEntryCodecAllocBound(t *testing.T) {
	b, _ := cacheTestEntries()[7].e.MarshalBinary() // 500 KiB body
	var e Entry
	allocs := testing.AllocsPerRun(10, func() { _ = e.UnmarshalBinary(b) })
	if allocs > 3 {
		t.Errorf("UnmarshalBinary makes %v allocations, want ≤ 3", allocs)
	}
}

// FuzzEntryCodec: decoding arbitrary bytes never panics, and whatever
// decodes, or is built from the fuzzed fields, survives an encoding and a
// decoding field by field.
func FuzzEntryCodec(f *testing.F) {
	for _, tc := range codecTestEntries() {
		b, err := tc.e.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, tc.e.URL, uint8(tc.e.Outcome), tc.e.Status, tc.e.Fetched.UnixNano(), tc.e.Body)
	}
	f.Add([]byte{1, 0xff}, "", uint8(9), -1, int64(math.MinInt64), []byte(nil))
	f.Fuzz(func(t *testing.T, data []byte, url string, outcome uint8, status int, ns int64, body []byte) {
		var d Entry
		if d.UnmarshalBinary(data) == nil {
			if len(d.URL)+len(d.Body) > len(data) {
				t.Fatalf("decoded %d bytes of fields from %d bytes", len(d.URL)+len(d.Body), len(data))
			}
			codecRoundTrip(t, &d)
		}

		e := &Entry{
			URL: url, Outcome: Outcome(outcome % 5), Status: status,
			Fetched: time.Unix(0, ns), Expires: time.Unix(0, ns/2), ErrorSince: time.Unix(0, -(ns / 3)),
			Good: Outcome(outcome / 5 % 5), Body: body,
		}
		if ns%2 == 0 {
			e.GoodAt = e.Expires
		}
		if _, err := e.MarshalBinary(); err != nil {
			// Only math.MinInt64 ns cannot be encoded (see appendTime).
			if ns != math.MinInt64 {
				t.Fatalf("MarshalBinary(%+v): %v", e, err)
			}
			return
		}
		codecRoundTrip(t, e)
	})
}

func codecRoundTrip(t *testing.T, e *Entry) {
	t.Helper()
	b, err := e.MarshalBinary()
	if err != nil {
		t.Fatalf("MarshalBinary: %v", err)
	}
	got := new(Entry)
	if err := got.UnmarshalBinary(b); err != nil {
		t.Fatalf("UnmarshalBinary(MarshalBinary(e)): %v", err)
	}
	if d := cacheEntryDiff(got, e); d != "" {
		t.Fatal(d)
	}
}
