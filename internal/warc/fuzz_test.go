package warc_test

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/robotskit/robots/internal/warc"
)

// fuzzInputs returns WARC files of the shapes the table tests read: every
// record type (WARC/1.1 §6), plain and gzip (annex A), cut, corrupt.
func fuzzInputs() [][]byte {
	recs := append([]rec{warcinfo("1.1")}, capture("1.1", "example.com", robotsBody)...)
	recs = append(recs, rec{typ: "revisit", uri: "https://example.com/robots.txt",
		fields: []string{"WARC-Profile", "http://netpreserve.org/warc/1.1/revisit/server-not-modified"},
		block:  []byte("HTTP/1.1 304 Not Modified\r\n\r\n")})
	var out [][]byte
	for _, mode := range modes {
		data, _ := file(mode, recs...)
		out = append(out, data)
		out = append(out, data[:len(data)/2])
	}
	one := rec{typ: "response", block: httpResponse("200 OK", []byte(chunk(gzipped(robotsBody), 9)),
		"Content-Encoding", "gzip", "Transfer-Encoding", "chunked")}.bytes()
	out = append(out, one, gz(one), slices.Concat(gz(one), []byte("junk"), gz(one)))
	out = append(out, []byte("WARC/1.0\r\nContent-Length: 99999999999\r\n\r\nabc\r\n\r\n"))
	return out
}

// FuzzReader reads arbitrary input: Next never panics, reaches io.EOF in
// a bounded number of calls, keeps no more of a block than its limit, and
// reports offsets within the input, in order.
func FuzzReader(f *testing.F) {
	for _, s := range fuzzInputs() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := warc.NewReader(bytes.NewReader(data))
		const limit = 512
		r.SetBlockLimit(limit)
		last := int64(0)
		for i := 0; ; i++ {
			if i > 2*len(data)+10 {
				t.Fatalf("no io.EOF after %d calls", i)
			}
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			var off int64
			if err != nil {
				var we *warc.Error
				if !errors.As(err, &we) {
					t.Fatalf("error %T %v is not a *warc.Error", err, err)
				}
				off = we.Offset
			} else {
				off = rec.Offset
				if len(rec.Block) > limit || int64(len(rec.Block)) > rec.Length {
					t.Fatalf("block of %d bytes, Length %d, limit %d", len(rec.Block), rec.Length, limit)
				}
				checkResponse(t, rec, 100)
			}
			if off < last || off > int64(len(data)) {
				t.Fatalf("offset %d after %d, input of %d bytes", off, last, len(data))
			}
			last = off
		}
	})
}

// FuzzResponse parses arbitrary blocks as HTTP responses.
func FuzzResponse(f *testing.F) {
	for _, s := range []string{
		"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n" + robotsBody,
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n" + chunk(gzipped(robotsBody), 5),
		"HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\n\r\n" + deflated(robotsBody),
		"HTTP/1.1 200 OK\r\nContent-Encoding: deflate, gzip\r\n\r\n" + gzipped(zlibbed(robotsBody)),
		"HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\n" + brotlied(robotsBody),
		"HTTP/1.1 200 OK\r\nContent-Encoding: zstd, br\r\n\r\n" + brotlied(zstded(robotsBody)),
		"HTTP/1.1 200 OK\r\nContent-Encoding: compress\r\n\r\n\x1f\x9d\x90",
		"HTTP/1.0 304\n ETag: x\n",
	} {
		f.Add([]byte(s), int64(0))
	}
	f.Fuzz(func(t *testing.T, block []byte, extra int64) {
		checkResponse(t, &warc.Record{Block: block, Length: int64(len(block)) + max(extra, 0)%1000}, 100)
	})
}

func checkResponse(t *testing.T, rec *warc.Record, maxBody int) {
	resp, err := rec.Response(maxBody)
	if err != nil {
		if !errors.Is(err, warc.ErrNotHTTP) && !errors.Is(err, warc.ErrCoding) {
			t.Fatalf("Response: %v", err)
		}
		return
	}
	if len(resp.Body) > maxBody || resp.Size < int64(len(resp.Body)) || resp.Size > int64(len(resp.Body)) && !resp.Cut {
		t.Fatalf("body of %d bytes, Size %d, Cut %v, maxBody %d", len(resp.Body), resp.Size, resp.Cut, maxBody)
	}
	if resp.StatusCode < 0 || resp.StatusCode > 999 || !strings.HasPrefix(resp.Proto, "HTTP/") {
		t.Fatalf("status %q %d", resp.Proto, resp.StatusCode)
	}
}
