package scan_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"

	"github.com/robotskit/robots/internal/warc"
	"github.com/robotskit/robots/scan"
)

// TestReaderContentCodings: a response whose payload is still in the
// content codings its Content-Encoding names (RFC 9110 §8.4) — Brotli
// (br, RFC 7932), Zstandard (zstd, RFC 8878), gzip (RFC 1952), stacked
// ones undone last applied first — reads as its robots.txt, rules and
// all; one in a coding that is not undone (compress, RFC 9110 §8.4.1.1, or
// a name no registry knows) is an error at its record's offset, and no
// capture.
func TestReaderContentCodings(t *testing.T) {
	const rules = "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"
	br := func(s string) string {
		var b bytes.Buffer
		w := brotli.NewWriterLevel(&b, brotli.DefaultCompression)
		w.Write([]byte(s))
		w.Close()
		return b.String()
	}
	zs := func(s string) string {
		w, _ := zstd.NewWriter(nil)
		defer w.Close()
		return string(w.EncodeAll([]byte(s), nil))
	}
	gz := func(s string) string { return string(inGzip([]byte(s))) }
	for _, tt := range []struct {
		coding, body string
		ok           bool
	}{
		{"br", br(rules), true},
		{"zstd", zs(rules), true},
		{"gzip, br", br(gz(rules)), true},
		{"br, zstd", zs(br(rules)), true},
		{"zstd, gzip", gz(zs(rules)), true},
		{"compress", "\x1f\x9d\x90" + rules, false},
		{"br, x-unknown", rules, false},
	} {
		t.Run(tt.coding, func(t *testing.T) {
			for _, gzipped := range []bool{false, true} {
				recs := inTriplet("a.example", inHTTP("200 OK", tt.body, "Content-Type", "text/plain", "Content-Encoding", tt.coding))
				recs = append(recs, inTriplet("b.example", inHTTP("200 OK", "User-agent: *\nDisallow: /b\n"))...)
				data, offs := inFile(gzipped, recs...)
				r := scan.NewReader("codings.warc", bytes.NewReader(data))
				cs, order := inReadAll(t, r)
				if !tt.ok {
					want := []string{fmt.Sprintf("error@%d", offs[1]), fmt.Sprintf("https://b.example/robots.txt@%d", offs[4])}
					if !slices.Equal(order, want) {
						t.Fatalf("gzip=%v: got %v, want %v", gzipped, order, want)
					}
					r := scan.NewReader("codings.warc", bytes.NewReader(data))
					if _, err := r.Next(); !errors.Is(err, warc.ErrCoding) {
						t.Errorf("error %v, want ErrCoding", err)
					}
					continue
				}
				if len(cs) != 2 || string(cs[0].Body) != rules || cs[0].Size != int64(len(rules)) || cs[0].Offset != offs[1] {
					t.Fatalf("gzip=%v: got %v, body %q", gzipped, order, cs[0].Body)
				}
				rbs, err := scan.SelectRobots("GPTBot,Googlebot")
				if err != nil {
					t.Fatal(err)
				}
				row := scan.Analyze(cs[0], &scan.Options{Robots: rbs})
				got := map[string]string{}
				for _, v := range row.Robots {
					got[v.Robot] = v.State
				}
				if got["GPTBot"] != "blocked" || got["Googlebot"] != "open" {
					t.Errorf("gzip=%v: verdicts %v, want GPTBot blocked, Googlebot open", gzipped, row.Robots)
				}
			}
		})
	}
}
