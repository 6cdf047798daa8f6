package warc_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"testing"

	"github.com/robotskit/robots/internal/warc"
)

// trace reads data to its end and describes each record, as Next returns
// it, and each error with its offset and message. With types, it reads
// with SetTypes(types...); without, it keeps the records of the types
// given to filter (all when filter is nil).
func trace(t testing.TB, data []byte, types, filter []string) []string {
	t.Helper()
	r := warc.NewReader(bytes.NewReader(data))
	r.SetBlockLimit(512)
	if types != nil {
		r.SetTypes(types...)
	}
	var out []string
	for i := 0; ; i++ {
		if i > 2*len(data)+10 {
			t.Fatalf("no io.EOF after %d calls", i)
		}
		rec, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			var we *warc.Error
			if !errors.As(err, &we) {
				t.Fatalf("error %T %v is not a *warc.Error", err, err)
			}
			out = append(out, err.Error())
			continue
		}
		if filter != nil && !slices.Contains(filter, rec.Type) {
			continue
		}
		out = append(out, fmt.Sprintf("%s@%d v%s %d %q %q", rec.Type, rec.Offset, rec.Version, rec.Length, rec.Header, rec.Block))
	}
}

// checkTypes checks that reading data with SetTypes(types...) gives the
// records and errors that reading every record gives, less the records of
// other types.
func checkTypes(t testing.TB, data []byte, types ...string) {
	t.Helper()
	all := trace(t, data, nil, types)
	some := trace(t, data, types, nil)
	if !slices.Equal(all, some) {
		t.Fatalf("with SetTypes%q:\n%q\nwithout, filtered:\n%q", types, some, all)
	}
}

// TestReaderSetTypes: a Reader told the record types to return
// (SetTypes) returns those records, with the offsets, fields and blocks
// it returns without, and every error — in the records passed over too:
// a malformed header (WARC/1.1 §4), a bad Content-Length (§5.3), a cut
// record, a corrupt gzip member — with the same offset and message, in
// every layout (plain, a gzip member per record, one gzip stream: annex
// A). Fields named in any case and continued on another line are read as
// Header.Get reads them.
func TestReaderSetTypes(t *testing.T) {
	good := append([]rec{warcinfo("1.1")}, capture("1.1", "example.com", robotsBody)...)
	odd := []rec{
		{typ: "request", fields: []string{"warc-type", "ignored: the first one counts"}, block: []byte("GET / HTTP/1.1\r\n\r\n")},
		{typ: "metadata", fields: []string{"X-Long", "a\r\n  continued"}, block: []byte("fetchTimeMs: 1\r\n")},
		{typ: "response\r\n continued", uri: "https://a.example/robots.txt", block: httpResponse("200 OK", []byte(robotsBody))},
		{typ: "metadata", fields: []string{"Content-Length", "x"}, block: []byte("k: v\r\n")},
		{typ: "metadata", fields: []string{"Bad Name", "x"}, block: []byte("k: v\r\n")},
		{version: "1.x", typ: "metadata", block: []byte("k: v\r\n")},
		{typ: "Response", uri: "https://b.example/robots.txt", block: httpResponse("200 OK", []byte(robotsBody))},
		{typ: " response ", uri: "https://c.example/robots.txt", block: httpResponse("200 OK", []byte(robotsBody))},
		{typ: "", block: []byte("no type\r\n")},
	}
	for _, tt := range []struct {
		name string
		recs []rec
	}{
		{"Common Crawl", good},
		{"odd headers", odd},
	} {
		for _, mode := range modes {
			t.Run(tt.name+"/"+mode, func(t *testing.T) {
				data, _ := file(mode, tt.recs...)
				checkTypes(t, data, "response", "revisit")
				checkTypes(t, data, "metadata")
				if n := len(trace(t, data, []string{"response"}, nil)); n == 0 {
					t.Error("no response read")
				}
			})
		}
	}

	// Broken files: each record in turn cut, its Content-Length off by
	// one, or its gzip member corrupt.
	for i := range good {
		for _, mode := range []string{"plain", "members"} {
			for _, harm := range []string{"cut", "long", "short", "corrupt"} {
				t.Run(fmt.Sprintf("%s/record %d %s", mode, i, harm), func(t *testing.T) {
					var data []byte
					for j, r := range good {
						p := r.bytes()
						switch {
						case j != i:
						case harm == "cut":
							p = p[:len(p)*2/3]
						case harm == "long":
							p = bytes.Replace(p, []byte("\r\n\r\nWARC"), []byte("\r\n\r\n"), 1)
							p = bytes.Replace(p, []byte("Content-Length: "), []byte("Content-Length: 1"), 1)
						case harm == "short":
							p = bytes.Replace(p, []byte("\r\n\r\n"), []byte("\r\n\r\nxx"), 1)
						}
						if mode == "members" {
							p = gz(p)
							if j == i && harm == "corrupt" {
								p[len(p)/2] ^= 0x55
							}
						}
						data = append(data, p...)
					}
					checkTypes(t, data, "response", "revisit")
				})
			}
		}
	}
}

// FuzzReaderTypes reads arbitrary input with and without SetTypes: the
// records of the types asked for and the errors are the same.
func FuzzReaderTypes(f *testing.F) {
	for _, s := range fuzzInputs() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkTypes(t, data, "response", "revisit")
	})
}

// TestReaderSkipAllocs: passing over the records of a gzip file of one
// member per record (WARC/1.1 annex A) allocates nothing per record — one
// gzip reader is reset for each member, and a record of a type not asked
// for (SetTypes) is neither parsed nor made a Record — so that reading
// twice the records allocates no more.
func TestReaderSkipAllocs(t *testing.T) {
	var recs []rec
	for i := range 400 {
		recs = append(recs, capture("1.0", fmt.Sprintf("h%d.example", i), robotsBody)[0])
	}
	allocs := func(n int) float64 {
		data, _ := file("members", recs[:n]...)
		return testing.AllocsPerRun(5, func() {
			r := warc.NewReader(bytes.NewReader(data))
			r.SetTypes("response")
			if rec, err := r.Next(); err != io.EOF {
				t.Fatalf("Next: %v, %v; want io.EOF", rec, err)
			}
		})
	}
	small, large := allocs(200), allocs(400)
	if large-small > 4 {
		t.Errorf("%v allocations for 200 records, %v for 400", small, large)
	}
}
