package warc_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/robotskit/robots/internal/warc"
)

// TestReaderRecords reads WARC/1.0 and WARC/1.1 files of every record
// type (WARC/1.1 §6) laid out plain, one gzip member per record (annex A,
// record-at-time compression) and as one gzip stream, and checks each
// record's type, version, fields, block and offset.
func TestReaderRecords(t *testing.T) {
	for _, version := range []string{"1.0", "1.1"} {
		recs := []rec{warcinfo(version)}
		recs = append(recs, capture(version, "example.com", robotsBody)...)
		recs = append(recs, rec{version: version, typ: "revisit", uri: "https://example.com/robots.txt",
			fields: []string{
				"WARC-Profile", "http://netpreserve.org/warc/" + version + "/revisit/identical-payload-digest",
				"WARC-Payload-Digest", "sha1:example.com",
				"WARC-Truncated", "length",
			},
			block: []byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n")})
		recs = append(recs, rec{version: version, typ: "resource", uri: "file:///robots.txt", block: []byte(robotsBody)})
		for _, mode := range modes {
			t.Run(version+"/"+mode, func(t *testing.T) {
				data, offs := file(mode, recs...)
				g := readAll(t, warc.NewReader(bytes.NewReader(data)), 100)
				if len(g.errs) > 0 {
					t.Fatalf("errors: %v", g.errs)
				}
				want := []string{"warcinfo", "request", "response", "metadata", "revisit", "resource"}
				if !slices.Equal(g.types, want) {
					t.Fatalf("types %q, want %q", g.types, want)
				}
				if !slices.Equal(g.offsets, offs) {
					t.Errorf("offsets %v, want %v", g.offsets, offs)
				}
				for i, r := range recs {
					if !bytes.Equal(g.blocks[i], r.block) {
						t.Errorf("record %d block %q, want %q", i, g.blocks[i], r.block)
					}
				}
			})
		}
	}
}

// TestReaderHeader checks the named fields: names compare without regard
// to case, values lose the whitespace around them, continuation lines
// (starting with a space or a tab) join the field above, fields keep
// their order and may repeat (WARC/1.1 §4 and §5.7).
func TestReaderHeader(t *testing.T) {
	data := "WARC/1.1\r\n" +
		"warc-type:   response \r\n" +
		"WARC-Concurrent-To: <urn:uuid:1>\r\n" +
		"WARC-Concurrent-To: <urn:uuid:2>\r\n" +
		"X-Long: first\r\n" +
		"  second\r\n" +
		"\tthird\r\n" +
		"content-length: 3\r\n" +
		"\r\n" +
		"abc\r\n\r\n"
	r := warc.NewReader(strings.NewReader(data))
	rec, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if rec.Version != "1.1" || rec.Type != "response" || rec.Length != 3 || string(rec.Block) != "abc" {
		t.Errorf("got %+v", rec)
	}
	if got := rec.Header.Get("Warc-Type"); got != "response" {
		t.Errorf("Get(Warc-Type) = %q", got)
	}
	if got := rec.Header.Values("warc-concurrent-to"); !slices.Equal(got, []string{"<urn:uuid:1>", "<urn:uuid:2>"}) {
		t.Errorf("Values = %q", got)
	}
	if got := rec.Header.Get("x-long"); got != "first second third" {
		t.Errorf("continued field = %q", got)
	}
	if got := rec.Header.Get("WARC-Target-URI"); got != "" {
		t.Errorf("missing field = %q", got)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("second Next: %v, want io.EOF", err)
	}
}

// TestReaderLenient reads what some writers produce beside the grammar of
// WARC/1.1 §4: bare LF line ends, blank lines between records, a single
// CRLF or none after the last block.
func TestReaderLenient(t *testing.T) {
	for _, tt := range []struct {
		name, data string
		want       int
	}{
		{"LF line ends", "WARC/1.0\nWARC-Type: metadata\nContent-Length: 2\n\nab\n\nWARC/1.0\nWARC-Type: metadata\nContent-Length: 0\n\n\n\n", 2},
		{"blank lines between", "\r\n\r\nWARC/1.0\r\nContent-Length: 1\r\n\r\na\r\n\r\n\r\n\r\nWARC/1.0\r\nContent-Length: 1\r\n\r\nb\r\n\r\n", 2},
		{"one CRLF", "WARC/1.0\r\nContent-Length: 1\r\n\r\na\r\nWARC/1.0\r\nContent-Length: 1\r\n\r\nb\r\n", 2},
		{"no trailer at end", "WARC/1.0\r\nContent-Length: 1\r\n\r\na", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := readAll(t, warc.NewReader(strings.NewReader(tt.data)), 10)
			if len(g.errs) > 0 || len(g.types) != tt.want {
				t.Errorf("got %v with errors %v, want %d records", g.order, g.errs, tt.want)
			}
		})
	}
}

// TestReaderBlockLimit reads a record whose block passes the limit: the
// Reader keeps the limit's worth, skips the rest, reports the declared
// length, and reads the next record.
func TestReaderBlockLimit(t *testing.T) {
	big := bytes.Repeat([]byte("Disallow: /x\n"), 300_000) // 3.9 MB
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			data, offs := file(mode,
				rec{typ: "resource", uri: "https://big.example/robots.txt", block: big},
				rec{typ: "metadata", block: []byte("after")})
			r := warc.NewReader(bytes.NewReader(data))
			r.SetBlockLimit(1000)
			rec, err := r.Next()
			if err != nil {
				t.Fatal(err)
			}
			if rec.Length != int64(len(big)) || len(rec.Block) != 1000 || !bytes.Equal(rec.Block, big[:1000]) {
				t.Errorf("Length %d, len(Block) %d; want %d, 1000", rec.Length, len(rec.Block), len(big))
			}
			rec, err = r.Next()
			if err != nil || string(rec.Block) != "after" || rec.Offset != offs[1] {
				t.Fatalf("second record: %v, %v", rec, err)
			}
		})
	}
}

// TestReaderCutRecord: a record cut in the middle (its block shorter than
// its Content-Length) is reported with its offset, and the records before
// and after it still come out with theirs. In a plain file the Reader
// finds the next record inside what it took for the cut one's block; in a
// gzip file the cut record's member ends first.
func TestReaderCutRecord(t *testing.T) {
	good := func(s string) rec { return rec{typ: "metadata", block: []byte(s)} }
	cut := good(strings.Repeat("cut ", 100)).bytes()
	for _, at := range []int{20, len(cut) / 2, len(cut) - 10} {
		for _, mode := range []string{"plain", "members"} {
			t.Run(fmt.Sprintf("%s/at%d", mode, at), func(t *testing.T) {
				parts := [][]byte{good("one").bytes(), cut[:at], good("two").bytes(), good("three").bytes()}
				var data []byte
				var offs []int64
				for _, p := range parts {
					offs = append(offs, int64(len(data)))
					if mode == "members" {
						p = gz(p)
					}
					data = append(data, p...)
				}
				g := readAll(t, warc.NewReader(bytes.NewReader(data)), 20)
				want := []string{
					fmt.Sprintf("metadata@%d", offs[0]),
					fmt.Sprintf("error@%d", offs[1]),
					fmt.Sprintf("metadata@%d", offs[2]),
					fmt.Sprintf("metadata@%d", offs[3]),
				}
				if !slices.Equal(g.order, want) {
					t.Errorf("got %v, want %v", g.order, want)
				}
				if len(g.errs) > 0 && !errors.Is(g.errs[0], warc.ErrTruncated) && !errors.Is(g.errs[0], warc.ErrLength) && !errors.Is(g.errs[0], warc.ErrHeader) {
					t.Errorf("error %v, want ErrTruncated, ErrLength or ErrHeader", g.errs[0])
				}
			})
		}
	}
}

// TestReaderCorruptMember flips each byte of the middle one of three gzip
// members in turn: the first and last records always come out, at their
// offsets, and the middle one either comes out whole (the byte was one the
// gzip format does not check, such as MTIME, RFC 1952 §2.3.1) or is
// reported with its member's offset; the member's CRC-32 keeps a garbled
// record from coming out.
func TestReaderCorruptMember(t *testing.T) {
	one := gz(rec{typ: "response", uri: "https://a.example/robots.txt", block: httpResponse("200 OK", []byte(robotsBody))}.bytes())
	mid := rec{typ: "response", uri: "https://b.example/robots.txt", block: httpResponse("200 OK", []byte(strings.Repeat(robotsBody, 5)))}
	midBlock := mid.block
	two := gz(mid.bytes())
	three := gz(rec{typ: "response", uri: "https://c.example/robots.txt", block: httpResponse("404 Not Found", nil)}.bytes())
	off2, off3 := int64(len(one)), int64(len(one)+len(two))
	for i := range two {
		for _, flip := range []byte{0xff, 0x01} {
			bad := bytes.Clone(two)
			bad[i] ^= flip
			data := slices.Concat(one, bad, three)
			g := readAll(t, warc.NewReader(bytes.NewReader(data)), 50)
			var recs, errs []string
			midOK := false
			for j, o := range g.offsets {
				recs = append(recs, fmt.Sprint(o))
				if o == off2 && bytes.Equal(g.blocks[j], midBlock) {
					midOK = true
				} else if o == off2 {
					t.Fatalf("byte %d ^%#x: garbled middle record came out", i, flip)
				}
			}
			for _, e := range g.errs {
				errs = append(errs, fmt.Sprint(e.Offset))
			}
			if len(g.offsets) == 0 || g.offsets[0] != 0 || g.offsets[len(g.offsets)-1] != off3 {
				t.Fatalf("byte %d ^%#x: records at %v (errors at %v), want 0 … %d", i, flip, recs, errs, off3)
			}
			if !midOK && len(g.errs) == 0 {
				t.Fatalf("byte %d ^%#x: middle record lost without an error", i, flip)
			}
			if !midOK && g.errs[0].Offset != off2 {
				t.Fatalf("byte %d ^%#x: first error at %d, want %d: %v", i, flip, g.errs[0].Offset, off2, g.errs[0])
			}
			if len(g.offsets) > 3 {
				t.Fatalf("byte %d ^%#x: records at %v", i, flip, recs)
			}
		}
	}
}

// TestReaderGzipErrors checks the error reported for a corrupt member: it
// wraps ErrGzip and the gzip package's own error.
func TestReaderGzipErrors(t *testing.T) {
	one := gz(rec{typ: "metadata", block: []byte("one")}.bytes())
	two := gz(rec{typ: "metadata", block: []byte("two")}.bytes())
	badCRC := bytes.Clone(two)
	badCRC[len(badCRC)-8] ^= 1 // the CRC-32 of the trailer, RFC 1952 §2.3.1
	g := readAll(t, warc.NewReader(bytes.NewReader(slices.Concat(one, badCRC, one))), 10)
	want := []string{"metadata@0", fmt.Sprintf("error@%d", len(one)), fmt.Sprintf("metadata@%d", len(one)+len(two))}
	if !slices.Equal(g.order, want) {
		t.Fatalf("got %v, want %v", g.order, want)
	}
	if err := g.errs[0]; !errors.Is(err, warc.ErrGzip) || !errors.Is(err, gzip.ErrChecksum) {
		t.Errorf("error %v, want ErrGzip and gzip.ErrChecksum", err)
	}

	// Garbage after the last member: one error, then the end.
	g = readAll(t, warc.NewReader(bytes.NewReader(slices.Concat(one, []byte("\x00\x00\x00 trailing junk")))), 10)
	want = []string{"metadata@0", fmt.Sprintf("error@%d", len(one))}
	if !slices.Equal(g.order, want) || !errors.Is(g.errs[0], gzip.ErrHeader) {
		t.Errorf("got %v (%v), want %v with gzip.ErrHeader", g.order, g.errs, want)
	}
}

// TestReaderHugeLength: a record that declares a Content-Length far past
// the end of its data. The Reader never buffers more than its limit; in a
// gzip file of one record per member the records after it come out, in a
// plain file the end of the input ends the record.
func TestReaderHugeLength(t *testing.T) {
	huge := []byte("WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 999999999999999\r\n\r\nHTTP/1.1 200 OK\r\n\r\nshort\r\n\r\n")
	before := rec{typ: "metadata", block: []byte("before")}.bytes()
	after := rec{typ: "metadata", block: []byte("after")}.bytes()

	data := slices.Concat(gz(before), gz(huge), gz(after))
	g := readAll(t, warc.NewReader(bytes.NewReader(data)), 10)
	b := int64(len(gz(before)))
	want := []string{"metadata@0", fmt.Sprintf("error@%d", b), fmt.Sprintf("metadata@%d", b+int64(len(gz(huge))))}
	if !slices.Equal(g.order, want) || !errors.Is(g.errs[0], warc.ErrTruncated) {
		t.Errorf("members: got %v (%v), want %v", g.order, g.errs, want)
	}

	g = readAll(t, warc.NewReader(bytes.NewReader(slices.Concat(before, huge))), 10)
	want = []string{"metadata@0", fmt.Sprintf("error@%d", len(before))}
	if !slices.Equal(g.order, want) || !errors.Is(g.errs[0], warc.ErrTruncated) {
		t.Errorf("plain: got %v (%v), want %v", g.order, g.errs, want)
	}
}

// TestReaderMalformed reports records it cannot read with their offsets
// and goes on with the next record.
func TestReaderMalformed(t *testing.T) {
	good := rec{typ: "metadata", block: []byte("ok")}.bytes()
	for _, tt := range []struct {
		name string
		bad  string
		want error
	}{
		{"junk", "this is not a WARC record\r\n", warc.ErrNotRecord},
		{"no colon", "WARC/1.0\r\nWARC-Type response\r\nContent-Length: 0\r\n\r\n\r\n\r\n", warc.ErrHeader},
		{"no Content-Length", "WARC/1.0\r\nWARC-Type: response\r\n\r\n\r\n\r\n", warc.ErrHeader},
		{"bad Content-Length", "WARC/1.0\r\nContent-Length: -5\r\n\r\n\r\n\r\n", warc.ErrHeader},
		{"bad version", "WARC/one\r\nContent-Length: 0\r\n\r\n\r\n\r\n", warc.ErrHeader},
		{"short Content-Length", "WARC/1.0\r\nContent-Length: 2\r\n\r\nabcdef\r\n\r\n", warc.ErrLength},
		{"header too long", "WARC/1.0\r\nX: " + strings.Repeat("x", 300<<10) + "\r\nContent-Length: 0\r\n\r\n\r\n\r\n", warc.ErrHeader},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data := slices.Concat(good, []byte(tt.bad), good)
			g := readAll(t, warc.NewReader(bytes.NewReader(data)), 10)
			want := []string{"metadata@0", fmt.Sprintf("error@%d", len(good)), fmt.Sprintf("metadata@%d", len(good)+len(tt.bad))}
			if !slices.Equal(g.order, want) {
				t.Fatalf("got %v (%v), want %v", g.order, g.errs, want)
			}
			if !errors.Is(g.errs[0], tt.want) {
				t.Errorf("error %v, want %v", g.errs[0], tt.want)
			}
		})
	}
}

// TestReaderReadError: a read error of the input ends the records; Next
// returns it, with an offset, and then io.EOF.
func TestReaderReadError(t *testing.T) {
	boom := errors.New("boom")
	good := rec{typ: "metadata", block: []byte("ok")}.bytes()
	for _, mode := range []string{"plain", "members"} {
		t.Run(mode, func(t *testing.T) {
			data := good
			if mode == "members" {
				data = gz(good)
			}
			r := warc.NewReader(io.MultiReader(bytes.NewReader(data), iotest.ErrReader(boom)))
			g := readAll(t, r, 10)
			if len(g.types) != 1 || len(g.errs) != 1 || !errors.Is(g.errs[0], boom) {
				t.Errorf("got %v (%v), want one record then boom", g.order, g.errs)
			}
		})
	}
}

// TestReaderEmpty: an empty input has no records.
func TestReaderEmpty(t *testing.T) {
	for _, in := range []string{"", "\r\n"} {
		if _, err := warc.NewReader(strings.NewReader(in)).Next(); err != io.EOF {
			t.Errorf("%q: Next = %v, want io.EOF", in, err)
		}
	}
}

// TestReaderSmallReads reads through a reader that returns one byte at a
// time, and one that returns data with io.EOF.
func TestReaderSmallReads(t *testing.T) {
	recs := append([]rec{warcinfo("1.1")}, capture("1.1", "example.org", robotsBody)...)
	for _, mode := range modes {
		data, offs := file(mode, recs...)
		for name, r := range map[string]io.Reader{
			"one byte": iotest.OneByteReader(bytes.NewReader(data)),
			"data EOF": iotest.DataErrReader(bytes.NewReader(data)),
		} {
			g := readAll(t, warc.NewReader(r), 20)
			if len(g.errs) > 0 || !slices.Equal(g.offsets, offs) {
				t.Errorf("%s/%s: got %v (%v), want offsets %v", mode, name, g.order, g.errs, offs)
			}
		}
	}
}

// BenchmarkReader reads a gzip WARC of 1,000 robots.txt captures
// (request, response and metadata records, one member each, as Common
// Crawl writes them) and parses each response.
func BenchmarkReader(b *testing.B) {
	var recs []rec
	for i := range 1000 {
		recs = append(recs, capture("1.0", fmt.Sprintf("host%d.example", i), strings.Repeat(robotsBody, 1+i%20))...)
	}
	data, _ := file("members", recs...)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	captures := 0
	for b.Loop() {
		r := warc.NewReader(bytes.NewReader(data))
		r.SetBlockLimit(600 << 10)
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if rec.Type == "response" {
				if _, err := rec.Response(500 << 10); err != nil {
					b.Fatal(err)
				}
				captures++
			}
		}
	}
	b.ReportMetric(float64(captures)/b.Elapsed().Seconds(), "captures/s")
}
