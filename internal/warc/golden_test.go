package warc_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotskit/robots/internal/warc"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

// fixture builds testdata/robots.warc.gz: robots.txt captures shaped as
// Common Crawl writes them (warcinfo, then request, response and metadata
// per capture, one gzip member per record), with a body kept decoded under
// X-Crawler-Content-Encoding, a chunked and gzip-coded body, a redirect,
// a 404 and an identical-payload-digest revisit (WARC/1.1 §6.7.2).
func fixture() []byte {
	recordID = 0
	recs := []rec{warcinfo("1.0")}
	recs = append(recs, capture("1.0", "example.com", robotsBody)...)
	decoded := capture("1.0", "decoded.example", "User-agent: *\nAllow: /\n")
	decoded[1].block = httpResponse("200 OK", []byte("User-agent: *\nAllow: /\n"),
		"Content-Type", "text/plain", "X-Crawler-Content-Encoding", "gzip", "X-Crawler-Content-Length", "43", "Content-Length", "23")
	recs = append(recs, decoded...)
	coded := capture("1.0", "coded.example", "")
	coded[1].block = httpResponse("200 OK", []byte(chunk(gzipped("User-agent: GPTBot\nDisallow: /\n"), 16)),
		"Content-Type", "text/plain", "Content-Encoding", "gzip", "Transfer-Encoding", "chunked")
	recs = append(recs, coded...)
	moved := capture("1.0", "moved.example", "")
	moved[1].block = httpResponse("301 Moved Permanently", nil, "Location", "https://www.moved.example/robots.txt")
	recs = append(recs, moved...)
	missing := capture("1.0", "missing.example", "")
	missing[1].block = httpResponse("404 Not Found", []byte("<html>not found</html>"), "Content-Type", "text/html")
	recs = append(recs, missing...)
	recs = append(recs, rec{typ: "revisit", uri: "https://example.com/robots.txt", fields: []string{
		"WARC-Profile", "http://netpreserve.org/warc/1.0/revisit/identical-payload-digest",
		"WARC-Payload-Digest", "sha1:example.com", "WARC-Truncated", "length",
		"Content-Type", "application/http; msgtype=response"},
		block: []byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n")})
	data, _ := file("members", recs...)
	return data
}

// TestGolden reads testdata/robots.warc.gz and compares what it finds,
// record by record, with testdata/robots.golden.
func TestGolden(t *testing.T) {
	path := filepath.Join("testdata", "robots.warc.gz")
	if *update {
		if err := os.WriteFile(path, fixture(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	r := warc.NewReader(bytes.NewReader(data))
	for {
		rec, err := r.Next()
		if err != nil {
			fmt.Fprintf(&out, "end: %v\n", err)
			break
		}
		fmt.Fprintf(&out, "%d %s %s %s", rec.Offset, rec.Version, rec.Type, rec.Header.Get("WARC-Target-URI"))
		if rec.Type == "response" || rec.Type == "revisit" {
			resp, err := rec.Response(500 << 10)
			if err != nil {
				fmt.Fprintf(&out, " %v", err)
			} else {
				fmt.Fprintf(&out, " %d size=%d %q", resp.StatusCode, resp.Size, resp.Body)
			}
		}
		out.WriteString("\n")
	}
	golden := filepath.Join("testdata", "robots.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != string(want) {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}
