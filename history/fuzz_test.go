package history

import (
	"bytes"
	"encoding/binary"
	"path/filepath"
	"testing"
	"time"
)

// FuzzRecord records a sequence of fetches read from the input (each
// byte: which of three sites, which of four outcomes, which of three
// bodies, how far the clock moves, or whether it goes back) and checks
// the history against a model of it: a new version exactly when the
// outcome or the body changes, numbered in order, times never going
// back, At and Versions agreeing, each distinct body stored once.
func FuzzRecord(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7})
	f.Add([]byte{0x00, 0x10, 0x20, 0x00, 0x80, 0x10})
	f.Add([]byte{0xff, 0xfe, 0x01, 0x41, 0x81, 0xc1, 0x01})
	f.Fuzz(func(t *testing.T, steps []byte) {
		if len(steps) > 64 {
			steps = steps[:64]
		}
		path := filepath.Join(t.TempDir(), "history.db")
		s, err := Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		sites := []string{"https://a.example", "https://b.example", "http://a.example"}
		outcomes := []string{"success", "unavailable", "unreachable", "forbidden"}
		bodies := [][]byte{nil, []byte("User-agent: *\nDisallow: /\n"), []byte("User-agent: *\nAllow: /\n")}
		type state struct {
			outcome, hash string
			seq           int
			last          time.Time // of the latest version
			checked       time.Time
		}
		model := map[string]*state{}
		distinct := map[string]bool{}
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		for i, b := range steps {
			site := sites[int(b)%3]
			outcome := outcomes[int(b>>2)%4]
			body := bodies[int(b>>4)%3]
			if b&0x80 != 0 {
				now = now.Add(-time.Duration(b&0x7) * time.Minute)
			} else {
				now = now.Add(time.Duration(b&0x3) * time.Minute)
			}
			stored, added, err := s.Record(Version{Site: site, Time: now, Outcome: outcome, Body: body, Size: int64(len(body))})
			m := model[site]
			hash := sum(body)
			switch {
			case m != nil && now.Before(m.last):
				if err == nil {
					t.Fatalf("step %d: a time before the latest version was taken", i)
				}
				continue
			case m != nil && (m.outcome != outcome || m.hash != hash) && now.Before(m.checked):
				if err == nil {
					t.Fatalf("step %d: a change before the last check was taken", i)
				}
				continue
			case err != nil:
				t.Fatalf("step %d: %v", i, err)
			}
			wantAdded := m == nil || m.outcome != outcome || m.hash != hash
			if added != wantAdded {
				t.Fatalf("step %d: added %v, want %v", i, added, wantAdded)
			}
			if m == nil {
				m = &state{}
				model[site] = m
			}
			if added {
				m.seq++
				m.outcome, m.hash, m.last = outcome, hash, now
				if hash != "" {
					distinct[hash] = true
				}
			}
			if now.After(m.checked) {
				m.checked = now
			}
			if stored.Seq != m.seq || stored.Hash != m.hash || !bytes.Equal(stored.Body, body) {
				t.Fatalf("step %d: stored %+v, model %+v", i, stored, m)
			}
		}
		list, err := s.Sites()
		if err != nil || len(list) != len(model) {
			t.Fatalf("Sites = %+v, %v; model of %d", list, err, len(model))
		}
		for _, st := range list {
			m := model[st.Site]
			if st.Versions != m.seq || !st.Last.Equal(m.last) || !st.Checked.Equal(m.checked) {
				t.Errorf("%s: %+v, model %+v", st.Site, st, m)
			}
			vs, err := s.Versions(st.Site)
			if err != nil || len(vs) != m.seq {
				t.Fatalf("%s: Versions = %d, %v", st.Site, len(vs), err)
			}
			for j, v := range vs {
				if v.Seq != j+1 || v.Hash != sum(v.Body) {
					t.Fatalf("%s: version %d: %+v", st.Site, j+1, v)
				}
				if j > 0 {
					if v.Time.Before(vs[j-1].Time) {
						t.Fatalf("%s: version %d goes back in time", st.Site, v.Seq)
					}
					if v.Outcome == vs[j-1].Outcome && v.Hash == vs[j-1].Hash {
						t.Fatalf("%s: version %d repeats the one before", st.Site, v.Seq)
					}
				}
				if got, ok, err := s.At(st.Site, v.Time); err != nil || !ok || got.Time != v.Time {
					t.Fatalf("%s: At(%v) = %+v, %v, %v", st.Site, v.Time, got, ok, err)
				}
			}
		}
		if n := countBodies(t, s); n != len(distinct) {
			t.Errorf("%d bodies stored, %d distinct", n, len(distinct))
		}
	})
}

// FuzzDecode: any bytes under any key decode to a version or an error,
// never a panic, and a version that decodes satisfies the checks.
func FuzzDecode(f *testing.F) {
	f.Add(uint64(1), []byte(`{"site":"s","seq":1,"time":"2026-01-01T00:00:00Z","url":"","status":200,"outcome":"success","sha256":"","size":0}`))
	f.Add(uint64(2), []byte(`{"site":"s","seq":2,"time":"2026-01-01T00:00:00Z","sha256":"zz"}`))
	f.Add(uint64(0), []byte(`{}`))
	f.Add(uint64(1), []byte(`null`))
	s := &Store{path: "fuzz.db", maxBody: defaultMaxBody}
	f.Fuzz(func(t *testing.T, seq uint64, val []byte) {
		v, err := s.decode(binary.BigEndian.AppendUint64(nil, seq), val, "s")
		if err != nil {
			return
		}
		if uint64(v.Seq) != seq || v.Site != "s" || v.Time.IsZero() || (v.Hash != "" && !isHash(v.Hash)) || v.Body != nil {
			t.Fatalf("decoded %+v", v)
		}
	})
}
