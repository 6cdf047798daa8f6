package history

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

var t0 = time.Date(2026, 1, 10, 12, 0, 0, 0, time.UTC)

func hour(n int) time.Time { return t0.Add(time.Duration(n) * time.Hour) }

const site = "https://example.com"

var (
	bodyA = []byte("User-agent: *\nDisallow: /private/\n")
	bodyB = []byte("User-agent: *\nDisallow: /\n")
)

func fetched(at time.Time, outcome string, status int, body []byte) Version {
	return Version{Site: site, Time: at, URL: site + "/robots.txt", Status: status, Outcome: outcome, Body: body, Size: int64(len(body))}
}

func sum(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// newStore opens a new store in a temporary directory.
func newStore(t testing.TB, o *Options) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "history.db"), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// countBodies returns how many bodies the file holds.
func countBodies(t *testing.T, s *Store) int {
	t.Helper()
	n := 0
	err := s.run(false, func(tx *bolt.Tx) error {
		tr, err := s.layout(tx)
		if tr == nil || err != nil {
			return err
		}
		n = tr.bodies.Stats().KeyN
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestRecord: each step records a fetch and checks what Record did and
// what the store holds after it.
func TestRecord(t *testing.T) {
	s := newStore(t, nil)
	type want struct {
		added    bool
		seq      int    // of the returned version
		versions int    // of the site after the step
		err      string // in the error, "" for none
		checked  time.Time
	}
	for _, step := range []struct {
		name string
		v    Version
		want want
	}{
		{"first version", fetched(hour(0), "success", 200, bodyA), want{true, 1, 1, "", hour(0)}},
		{"same again", fetched(hour(1), "success", 200, bodyA), want{false, 1, 1, "", hour(1)}},
		{"same again, another status", fetched(hour(2), "success", 203, bodyA), want{false, 1, 1, "", hour(2)}},
		{"body changes", fetched(hour(3), "success", 200, bodyB), want{true, 2, 2, "", hour(3)}},
		{"unreachable, no body", Version{Site: site, Time: hour(4), URL: site + "/robots.txt", Outcome: "unreachable", Err: "dial tcp: connection refused"}, want{true, 3, 3, "", hour(4)}},
		{"unreachable again", Version{Site: site, Time: hour(5), URL: site + "/robots.txt", Outcome: "unreachable", Err: "i/o timeout"}, want{false, 3, 3, "", hour(5)}},
		{"unavailable, no body", fetched(hour(6), "unavailable", 404, nil), want{true, 4, 4, "", hour(6)}},
		{"back to the first body", fetched(hour(7), "success", 200, bodyA), want{true, 5, 5, "", hour(7)}},
		{"same time again, same body", fetched(hour(7), "success", 200, bodyA), want{false, 5, 5, "", hour(7)}},
		{"time before the latest version", fetched(hour(6), "success", 200, bodyB), want{err: "before the latest version", versions: 5, checked: hour(7)}},
		{"same body, time before the last check", fetched(hour(7).Add(-time.Minute), "success", 200, bodyA), want{err: "before the latest version", versions: 5, checked: hour(7)}},
		{"later, unchanged", fetched(hour(9), "success", 200, bodyA), want{false, 5, 5, "", hour(9)}},
		{"unchanged, before the last check", fetched(hour(8), "success", 200, bodyA), want{false, 5, 5, "", hour(9)}},
		{"changed, before the last check", fetched(hour(8), "forbidden", 403, nil), want{err: "before the site was last checked", versions: 5, checked: hour(9)}},
		{"caller's Seq and Hash ignored", func() Version {
			v := fetched(hour(10), "success", 200, bodyB)
			v.Seq, v.Hash = 77, sum(bodyA)
			return v
		}(), want{true, 6, 6, "", hour(10)}},
		{"no time", fetched(time.Time{}, "success", 200, bodyA), want{err: "no time", versions: 6, checked: hour(10)}},
		{"no outcome", fetched(hour(11), "", 200, bodyA), want{err: "outcome", versions: 6, checked: hour(10)}},
		{"body over the bound", fetched(hour(11), "success", 200, bytes.Repeat([]byte("x"), defaultMaxBody+1)), want{err: "over the bound", versions: 6, checked: hour(10)}},
	} {
		stored, added, err := s.Record(step.v)
		if step.want.err != "" {
			if err == nil || !strings.Contains(err.Error(), step.want.err) {
				t.Errorf("%s: Record = %v, want an error saying %q", step.name, err, step.want.err)
			}
		} else if err != nil {
			t.Fatalf("%s: Record: %v", step.name, err)
		} else {
			if added != step.want.added || stored.Seq != step.want.seq {
				t.Errorf("%s: Record = version %d, added %v; want %d, %v", step.name, stored.Seq, added, step.want.seq, step.want.added)
			}
			if stored.Hash != sum(stored.Body) {
				t.Errorf("%s: Hash %q, Body %q", step.name, stored.Hash, stored.Body)
			}
			if added && (!stored.Time.Equal(step.v.Time) || stored.Outcome != step.v.Outcome || !bytes.Equal(stored.Body, step.v.Body)) {
				t.Errorf("%s: stored %+v, from %+v", step.name, stored, step.v)
			}
		}
		vs, err := s.Versions(site)
		if err != nil {
			t.Fatalf("%s: Versions: %v", step.name, err)
		}
		if len(vs) != step.want.versions {
			t.Errorf("%s: %d versions, want %d", step.name, len(vs), step.want.versions)
		}
		if err == nil && step.want.err == "" && !reflect.DeepEqual(vs[stored.Seq-1], stored) {
			t.Errorf("%s: Versions gives\n%+v\nRecord returned\n%+v", step.name, vs[stored.Seq-1], stored)
		}
		sites, err := s.Sites()
		if err != nil || len(sites) != 1 {
			t.Fatalf("%s: Sites = %v, %v", step.name, sites, err)
		}
		if got := sites[0]; got.Versions != step.want.versions || !got.Checked.Equal(step.want.checked) ||
			!got.First.Equal(hour(0)) || !got.Last.Equal(vs[len(vs)-1].Time) {
			t.Errorf("%s: Sites = %+v, want %d versions, checked %v", step.name, got, step.want.versions, step.want.checked)
		}
	}

	vs, err := s.Versions(site)
	if err != nil {
		t.Fatal(err)
	}
	var outcomes []string
	for i, v := range vs {
		if v.Seq != i+1 || v.Site != site || v.Hash != sum(v.Body) {
			t.Errorf("version %d: %+v", i+1, v)
		}
		if i > 0 && v.Time.Before(vs[i-1].Time) {
			t.Errorf("version %d is older than the one before", v.Seq)
		}
		outcomes = append(outcomes, v.Outcome)
	}
	if want := []string{"success", "success", "unreachable", "unavailable", "success", "success"}; !reflect.DeepEqual(outcomes, want) {
		t.Errorf("outcomes %v, want %v", outcomes, want)
	}
	if vs[2].Err != "dial tcp: connection refused" || vs[3].Status != 404 {
		t.Errorf("the first fetch of a state is kept: %+v, %+v", vs[2], vs[3])
	}
	if !bytes.Equal(vs[0].Body, bodyA) || !bytes.Equal(vs[4].Body, bodyA) || !bytes.Equal(vs[5].Body, bodyB) {
		t.Error("bodies wrong")
	}
	// bodyA twice, bodyB twice: each stored once.
	if n := countBodies(t, s); n != 2 {
		t.Errorf("%d bodies stored, want 2", n)
	}
}

// TestRecordFlap: success → unreachable (no body) → success with the
// first body again: three versions, the body stored once.
func TestRecordFlap(t *testing.T) {
	s := newStore(t, nil)
	for i, v := range []Version{
		fetched(hour(0), "success", 200, bodyA),
		{Site: site, Time: hour(1), Outcome: "unreachable", Err: "timeout"},
		fetched(hour(2), "success", 200, bodyA),
	} {
		if _, added, err := s.Record(v); err != nil || !added {
			t.Fatalf("Record %d: added %v, %v", i, added, err)
		}
	}
	vs, err := s.Versions(site)
	if err != nil || len(vs) != 3 {
		t.Fatalf("Versions = %d, %v", len(vs), err)
	}
	if n := countBodies(t, s); n != 1 {
		t.Errorf("%d bodies stored, want 1", n)
	}
	// Many sites serving the same body: still one.
	for i := range 5 {
		v := fetched(hour(3), "success", 200, bodyA)
		v.Site = "https://s" + string(rune('a'+i)) + ".example"
		if _, _, err := s.Record(v); err != nil {
			t.Fatal(err)
		}
	}
	if n := countBodies(t, s); n != 1 {
		t.Errorf("%d bodies stored for six sites of one body, want 1", n)
	}
}

// TestAt: the version in force at a time is the last one not after it.
func TestAt(t *testing.T) {
	s := newStore(t, nil)
	// Versions at hours 0, 2, 2 (two at one time), 5.
	for _, v := range []Version{
		fetched(hour(0), "success", 200, bodyA),
		fetched(hour(1), "success", 200, bodyA), // no version
		fetched(hour(2), "success", 200, bodyB),
		fetched(hour(2), "unavailable", 404, nil),
		fetched(hour(5), "success", 200, bodyA),
	} {
		if _, _, err := s.Record(v); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		at   time.Time
		seq  int // 0: none
	}{
		{"before the first", hour(-1), 0},
		{"a nanosecond before the first", hour(0).Add(-1), 0},
		{"at the first", hour(0), 1},
		{"between", hour(1), 1},
		{"a nanosecond before the second", hour(2).Add(-1), 1},
		{"at two versions of one time", hour(2), 3},
		{"between the third and fourth", hour(4), 3},
		{"at the last", hour(5), 4},
		{"after the last", hour(500), 4},
		{"in another zone", hour(2).In(time.FixedZone("X", -5*3600)), 3},
	} {
		v, ok, err := s.At(site, tc.at)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if ok != (tc.seq != 0) || v.Seq != tc.seq {
			t.Errorf("%s: At = version %d, %v; want %d", tc.name, v.Seq, ok, tc.seq)
		}
		if ok && v.Hash != sum(v.Body) {
			t.Errorf("%s: body %q, hash %s", tc.name, v.Body, v.Hash)
		}
	}
	// At agrees with a scan of Versions over many times.
	vs, err := s.Versions(site)
	if err != nil {
		t.Fatal(err)
	}
	for m := -60; m <= 400; m += 7 {
		at := hour(0).Add(time.Duration(m) * time.Minute)
		want := 0
		for _, v := range vs {
			if !v.Time.After(at) {
				want = v.Seq
			}
		}
		if v, _, err := s.At(site, at); err != nil || v.Seq != want {
			t.Errorf("At(%v) = %d, %v; want %d", at, v.Seq, err, want)
		}
	}
}

// TestNotFound: a site the store has never seen.
func TestNotFound(t *testing.T) {
	s := newStore(t, nil)
	check := func(when string) {
		if _, err := s.Versions("https://nowhere.example"); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: Versions = %v, want ErrNotFound", when, err)
		}
		if _, _, err := s.At("https://nowhere.example", hour(0)); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: At = %v, want ErrNotFound", when, err)
		}
		if _, err := s.Versions(""); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: Versions(\"\") = %v, want ErrNotFound", when, err)
		}
		if _, err := s.Versions(strings.Repeat("x", 5000)); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: Versions of a long name = %v, want ErrNotFound", when, err)
		}
	}
	check("new store")
	if sites, err := s.Sites(); err != nil || len(sites) != 0 {
		t.Errorf("Sites of a new store = %v, %v", sites, err)
	}
	if _, _, err := s.Record(fetched(hour(0), "success", 200, bodyA)); err != nil {
		t.Fatal(err)
	}
	check("store with a site")
}

// TestRecordLimits: names and fields over the bounds are refused.
func TestRecordLimits(t *testing.T) {
	s := newStore(t, &Options{MaxBody: 100})
	long := fetched(hour(0), "success", 200, nil)
	long.Site = strings.Repeat("s", maxSite+1)
	hugeURL := fetched(hour(0), "success", 200, nil)
	hugeURL.URL = strings.Repeat("u", maxRecord)
	for _, tc := range []struct {
		name string
		v    Version
		err  string
	}{
		{"no site", Version{Time: hour(0), Outcome: "success"}, "no site"},
		{"long site", long, "site name of"},
		{"body over MaxBody", fetched(hour(0), "success", 200, make([]byte, 101)), "over the bound of 100"},
		{"huge URL", hugeURL, "bytes of JSON"},
		{"negative size", Version{Site: site, Time: hour(0), Outcome: "success", Size: -1}, "negative size"},
	} {
		if _, _, err := s.Record(tc.v); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: Record = %v, want an error saying %q", tc.name, err, tc.err)
		}
	}
	ok := fetched(hour(0), "success", 200, make([]byte, 100))
	ok.Site = strings.Repeat("s", maxSite)
	if _, _, err := s.Record(ok); err != nil {
		t.Errorf("a name of %d bytes and a body of MaxBody: %v", maxSite, err)
	}
	if sites, err := s.Sites(); err != nil || len(sites) != 1 {
		t.Errorf("Sites = %v, %v", sites, err)
	}
	// A reader with a smaller bound refuses the body.
	small, err := Open(s.Path(), &Options{MaxBody: 50, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := small.Versions(ok.Site); err == nil || !strings.Contains(err.Error(), "over the bound") {
		t.Errorf("Versions with a smaller MaxBody = %v", err)
	}
}

// TestReopen: a store opened again, read-write or read-only, shows the
// same history; a closed store refuses calls.
func TestReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	sites := []string{"https://b.example", "https://a.example", "http://a.example:8080"}
	for i, name := range sites {
		for h := range 3 {
			v := fetched(hour(h), "success", 200, []byte("Disallow: /"+strings.Repeat("x", h+i)))
			v.Site = name
			if _, _, err := s.Record(v); err != nil {
				t.Fatal(err)
			}
		}
	}
	before, err := s.Versions(sites[1])
	if err != nil {
		t.Fatal(err)
	}
	beforeSites, err := s.Sites()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Versions(sites[1]); err == nil {
		t.Error("Versions after Close worked")
	}
	if _, _, err := s.Record(fetched(hour(9), "success", 200, nil)); err == nil {
		t.Error("Record after Close worked")
	}
	for _, o := range []*Options{nil, {ReadOnly: true}} {
		r, err := Open(path, o)
		if err != nil {
			t.Fatal(err)
		}
		if r.MovedAside() != "" {
			t.Errorf("moved aside to %s", r.MovedAside())
		}
		after, err := r.Versions(sites[1])
		if err != nil || !reflect.DeepEqual(after, before) {
			t.Errorf("reopened (%+v): Versions = %+v, %v; want %+v", o, after, err, before)
		}
		afterSites, err := r.Sites()
		if err != nil || !reflect.DeepEqual(afterSites, beforeSites) {
			t.Errorf("reopened: Sites = %+v, %v; want %+v", afterSites, err, beforeSites)
		}
		var names []string
		for _, s := range afterSites {
			names = append(names, s.Site)
		}
		if want := []string{"http://a.example:8080", "https://a.example", "https://b.example"}; !reflect.DeepEqual(names, want) {
			t.Errorf("Sites in the order %v, want %v", names, want)
		}
		r.Close()
	}
}

// TestReadOnly: a read-only store writes nothing, needs the file to
// exist, and reads an empty file as an empty store.
func TestReadOnly(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(filepath.Join(dir, "missing.db"), &Options{ReadOnly: true}); err == nil {
		t.Error("read-only Open of a missing file worked")
	}
	empty := filepath.Join(dir, "empty.db")
	if err := writeFile(empty, nil); err != nil {
		t.Fatal(err)
	}
	r, err := Open(empty, &Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only Open of an empty file: %v", err)
	}
	if sites, err := r.Sites(); err != nil || len(sites) != 0 {
		t.Errorf("Sites = %v, %v", sites, err)
	}
	if _, err := r.Versions(site); !errors.Is(err, ErrNotFound) {
		t.Errorf("Versions = %v", err)
	}
	if _, _, err := r.Record(fetched(hour(0), "success", 200, bodyA)); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("Record on a read-only store = %v", err)
	}
	if size := fileSize(t, empty); size != 0 {
		t.Errorf("a read-only store wrote %d bytes", size)
	}
	// An empty file opened for writing is simply used.
	w, err := Open(empty, nil)
	if err != nil || w.MovedAside() != "" {
		t.Fatalf("Open of an empty file: %v, moved to %q", err, w.MovedAside())
	}
	if _, _, err := w.Record(fetched(hour(0), "success", 200, bodyA)); err != nil {
		t.Fatal(err)
	}
	if v, ok, err := r.At(site, hour(1)); err != nil || !ok || !bytes.Equal(v.Body, bodyA) {
		t.Errorf("the reader sees the writer's version: %+v, %v, %v", v, ok, err)
	}
}
