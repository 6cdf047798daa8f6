package warc_test

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
	"github.com/robotskit/robots/internal/warc"
)

func gzipped(s string) string {
	return string(gz([]byte(s)))
}

// brotlied codes s in Brotli (RFC 7932).
func brotlied(s string) string {
	var b bytes.Buffer
	w := brotli.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.String()
}

// zstded codes s in one Zstandard frame (RFC 8878).
func zstded(s string) string {
	w, _ := zstd.NewWriter(nil)
	defer w.Close()
	return string(w.EncodeAll([]byte(s), nil))
}

func zlibbed(s string) string {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.String()
}

func deflated(s string) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write([]byte(s))
	w.Close()
	return b.String()
}

// chunk lays s out in the chunked transfer coding (RFC 9112 §7.1), in
// chunks of n bytes, with a chunk extension and a trailer field.
func chunk(s string, n int) string {
	var b strings.Builder
	for len(s) > 0 {
		k := min(n, len(s))
		fmt.Fprintf(&b, "%x;ext=1\r\n%s\r\n", k, s[:k])
		s = s[k:]
	}
	b.WriteString("0\r\nExpires: never\r\n\r\n")
	return b.String()
}

// TestResponse parses the blocks of response records: status line, header
// fields (RFC 9112 §5, obs-fold §5.2), and the payload with the chunked
// transfer coding (RFC 9112 §7.1) and the gzip, x-gzip (RFC 9110 §8.4.1.3),
// deflate (§8.4.1.2, zlib or raw), br (RFC 7932) and zstd (RFC 8878)
// content codings undone, stacked ones last applied first (RFC 9110
// §8.4), or left as Common Crawl stored them (X-Crawler-Content-Encoding,
// X-Crawler-Transfer-Encoding: https://github.com/commoncrawl/news-crawl/issues/30).
func TestResponse(t *testing.T) {
	const body = robotsBody
	for _, tt := range []struct {
		name    string
		block   string
		maxBody int
		status  int
		body    string
		size    int64
		cut     bool
		header  map[string]string
	}{
		{name: "plain", block: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n" + body,
			status: 200, body: body, size: int64(len(body)), header: map[string]string{"Content-Type": "text/plain"}},
		{name: "LF only, no reason", block: "HTTP/1.0 404\nServer: x\n\nnot here",
			status: 404, body: "not here", size: 8, header: map[string]string{"Server": "x"}},
		{name: "HTTP/2 version", block: "HTTP/2 301 Moved\r\nLocation: https://example.com/robots.txt\r\n\r\n",
			status: 301, header: map[string]string{"Location": "https://example.com/robots.txt"}},
		{name: "obs-fold and odd names", block: "HTTP/1.1 200 OK\r\ncontent-type: text/plain;\r\n charset=utf-8\r\nno colon here\r\nx-a : 1\r\n\r\nok",
			status: 200, body: "ok", size: 2, header: map[string]string{"Content-Type": "text/plain; charset=utf-8", "X-A": "1"}},
		{name: "chunked", block: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk(body, 10),
			status: 200, body: body, size: int64(len(body))},
		{name: "chunked, cut short", block: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk(body, 10)[:40],
			status: 200, body: body[:20], size: 20},
		{name: "chunked header, body stored dechunked", block: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + body,
			status: 200, body: body, size: int64(len(body))},
		{name: "X-Crawler-Transfer-Encoding", block: "HTTP/1.1 200 OK\r\nX-Crawler-Transfer-Encoding: chunked\r\n\r\n" + body,
			status: 200, body: body, size: int64(len(body))},
		{name: "gzip", block: "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + gzipped(body),
			status: 200, body: body, size: int64(len(body))},
		{name: "x-gzip", block: "HTTP/1.1 200 OK\r\nContent-Encoding: x-gzip\r\n\r\n" + gzipped(body),
			status: 200, body: body, size: int64(len(body))},
		{name: "gzip and chunked", block: "HTTP/1.1 200 OK\r\nContent-Encoding: GZIP\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk(gzipped(body), 7),
			status: 200, body: body, size: int64(len(body))},
		{name: "deflate (zlib)", block: "HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\n\r\n" + zlibbed(body),
			status: 200, body: body, size: int64(len(body))},
		{name: "deflate (raw)", block: "HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\n\r\n" + deflated(body),
			status: 200, body: body, size: int64(len(body))},
		{name: "gzip twice", block: "HTTP/1.1 200 OK\r\nContent-Encoding: gzip, identity\r\nContent-Encoding: gzip\r\n\r\n" + gzipped(gzipped(body)),
			status: 200, body: body, size: int64(len(body))},
		{name: "X-Crawler-Content-Encoding", block: "HTTP/1.1 200 OK\r\nX-Crawler-Content-Encoding: gzip\r\nContent-Length: 70\r\nX-Crawler-Content-Length: 50\r\n\r\n" + body,
			status: 200, body: body, size: int64(len(body))},
		{name: "gzip header, body stored decoded", block: "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + body,
			status: 200, body: body, size: int64(len(body))},
		{name: "deflate header, body stored decoded", block: "HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\n\r\n" + body,
			status: 200, body: body, size: int64(len(body))},
		{name: "br", block: "HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\n" + brotlied(body),
			status: 200, body: body, size: int64(len(body))},
		{name: "br, chunked", block: "HTTP/1.1 200 OK\r\nContent-Encoding: BR\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk(brotlied(body), 9),
			status: 200, body: body, size: int64(len(body))},
		{name: "br then gzip", block: "HTTP/1.1 200 OK\r\nContent-Encoding: br, gzip\r\n\r\n" + gzipped(brotlied(body)),
			status: 200, body: body, size: int64(len(body))},
		{name: "gzip then br", block: "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Encoding: br\r\n\r\n" + brotlied(gzipped(body)),
			status: 200, body: body, size: int64(len(body))},
		{name: "br cut to maxBody", block: "HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\n" + brotlied(body), maxBody: 10,
			status: 200, body: body[:10], size: int64(len(body)), cut: true},
		{name: "br header, body stored decoded", block: "HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\n" + body,
			status: 200, body: body, size: int64(len(body))},
		{name: "br header, body not Brotli", block: "HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\n\x1b\x00\x00",
			status: 200, body: "\x1b\x00\x00", size: 3},
		{name: "zstd", block: "HTTP/1.1 200 OK\r\nContent-Encoding: zstd\r\n\r\n" + zstded(body),
			status: 200, body: body, size: int64(len(body))},
		{name: "zstd then br", block: "HTTP/1.1 200 OK\r\nContent-Encoding: zstd, br\r\n\r\n" + brotlied(zstded(body)),
			status: 200, body: body, size: int64(len(body))},
		{name: "deflate, gzip then zstd", block: "HTTP/1.1 200 OK\r\nContent-Encoding: deflate, gzip, zstd\r\n\r\n" + zstded(gzipped(zlibbed(body))),
			status: 200, body: body, size: int64(len(body))},
		{name: "zstd header, body stored decoded", block: "HTTP/1.1 200 OK\r\nContent-Encoding: zstd\r\n\r\n" + body,
			status: 200, body: body, size: int64(len(body))},
		{name: "unknown coding, no body", block: "HTTP/1.1 304 Not Modified\r\nContent-Encoding: compress\r\n\r\n",
			status: 304},
		{name: "cut to maxBody", block: "HTTP/1.1 200 OK\r\n\r\n" + body, maxBody: 10,
			status: 200, body: body[:10], size: int64(len(body)), cut: true},
		{name: "gzip cut to maxBody", block: "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + gzipped(body), maxBody: 10,
			status: 200, body: body[:10], size: int64(len(body)), cut: true},
		{name: "truncated gzip", block: "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + gzipped(strings.Repeat(body, 50))[:60],
			status: 200, cut: false},
		{name: "revisit headers only", block: "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n",
			status: 304, header: map[string]string{"Etag": "\"x\""}},
		{name: "status line only", block: "HTTP/1.1 500 Internal Server Error",
			status: 500},
	} {
		t.Run(tt.name, func(t *testing.T) {
			maxBody := tt.maxBody
			if maxBody == 0 {
				maxBody = 500 << 10
			}
			rec := &warc.Record{Type: "response", Block: []byte(tt.block), Length: int64(len(tt.block))}
			resp, err := rec.Response(maxBody)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tt.status {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.status)
			}
			if tt.name == "truncated gzip" {
				// Whatever decoded before the data ran out, and its size.
				if resp.Size != int64(len(resp.Body)) || !strings.HasPrefix(strings.Repeat(body, 50), string(resp.Body)) {
					t.Errorf("body %q, size %d", resp.Body, resp.Size)
				}
				return
			}
			if string(resp.Body) != tt.body || resp.Size != tt.size || resp.Cut != tt.cut {
				t.Errorf("body %q size %d cut %v, want %q %d %v",
					resp.Body, resp.Size, resp.Cut, tt.body, tt.size, tt.cut)
			}
			for k, v := range tt.header {
				if got := resp.Header.Get(k); got != v {
					t.Errorf("header %s = %q, want %q", k, got, v)
				}
			}
		})
	}
}

// TestResponseBlockCut: when the Reader kept only part of the block, the
// body is marked cut and Size is what the block declares after the
// headers (exact for a body without codings).
func TestResponseBlockCut(t *testing.T) {
	head := "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n"
	full := head + strings.Repeat("Disallow: /x\n", 1000)
	rec := &warc.Record{Block: []byte(full[:200]), Length: int64(len(full))}
	resp, err := rec.Response(500 << 10)
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Cut || resp.Size != int64(len(full)-len(head)) || string(resp.Body) != full[len(head):200] {
		t.Errorf("cut %v size %d len(body) %d", resp.Cut, resp.Size, len(resp.Body))
	}

	// Cut within the headers: no body, and Cut.
	rec = &warc.Record{Block: []byte(head[:25]), Length: int64(len(full))}
	if resp, err = rec.Response(500 << 10); err != nil || !resp.Cut || len(resp.Body) != 0 {
		t.Errorf("cut in headers: %+v, %v", resp, err)
	}
}

// TestResponseBound: a small coded body that expands past 64 MiB (a
// decompression bomb) is counted no further, whatever its coding: Size
// stops there and Cut is set; memory holds maxBody.
func TestResponseBound(t *testing.T) {
	zeros := make([]byte, 1<<20)
	bomb := func(w io.WriteCloser) {
		for range 70 {
			w.Write(zeros)
		}
		w.Close()
	}
	var gz, br, zs bytes.Buffer
	gw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	bomb(gw)
	bomb(brotli.NewWriterLevel(&br, brotli.BestSpeed))
	zw, _ := zstd.NewWriter(&zs, zstd.WithWindowSize(1<<20))
	bomb(zw)
	for _, tt := range []struct{ coding, data string }{
		{"gzip", gz.String()},
		{"br", br.String()},
		{"zstd", zs.String()},
	} {
		block := "HTTP/1.1 200 OK\r\nContent-Encoding: " + tt.coding + "\r\n\r\n" + tt.data
		rec := &warc.Record{Block: []byte(block), Length: int64(len(block))}
		resp, err := rec.Response(1000)
		if err != nil {
			t.Fatalf("%s: %v", tt.coding, err)
		}
		if resp.Size != 64<<20 || !resp.Cut || len(resp.Body) != 1000 {
			t.Errorf("%s (%d bytes coded): size %d cut %v len(body) %d", tt.coding, len(tt.data), resp.Size, resp.Cut, len(resp.Body))
		}
	}
}

// TestResponseZstdWindow: a zstd payload whose frame asks for a window
// over 8 MB is not read (RFC 9659 §3 bounds the window of the zstd content
// coding), so that a decoder's memory stays bounded.
func TestResponseZstdWindow(t *testing.T) {
	var zs bytes.Buffer
	zw, _ := zstd.NewWriter(&zs, zstd.WithWindowSize(32<<20), zstd.WithSingleSegment(false))
	zw.Write(bytes.Repeat([]byte(robotsBody), 300_000)) // 24 MB: the window is kept
	zw.Close()
	block := "HTTP/1.1 200 OK\r\nContent-Encoding: zstd\r\n\r\n" + zs.String()
	rec := &warc.Record{Block: []byte(block), Length: int64(len(block))}
	resp, err := rec.Response(1000)
	if err != nil {
		t.Fatal(err)
	}
	// Refused at its first byte: taken as is, not decoded.
	if resp.Size != int64(zs.Len()) || !bytes.Equal(resp.Body, zs.Bytes()[:min(zs.Len(), 1000)]) {
		t.Errorf("size %d, body %q…", resp.Size, resp.Body[:min(len(resp.Body), 20)])
	}
}

// TestResponseUnknownCoding: a payload in a content coding Response does
// not undo — compress (RFC 9110 §8.4.1.1), a coding of the IANA registry
// no server sends (aes128gcm, RFC 8188), a name no registry knows — or in
// more than eight codings is an error wrapping ErrCoding, not a body
// read as is.
func TestResponseUnknownCoding(t *testing.T) {
	for _, ce := range []string{
		"compress", "x-compress", "aes128gcm", "utf-8", "gzip, garbage", "br, compress",
		strings.Repeat("gzip, ", 9) + "gzip",
	} {
		block := "HTTP/1.1 200 OK\r\nContent-Encoding: " + ce + "\r\n\r\n" + robotsBody
		rec := &warc.Record{Block: []byte(block), Length: int64(len(block))}
		resp, err := rec.Response(500 << 10)
		if !errors.Is(err, warc.ErrCoding) || resp != nil {
			t.Errorf("Content-Encoding %q: %v, %v; want ErrCoding", ce, resp, err)
		}
	}
}

// TestResponseNotHTTP: a block that does not start with a status line.
func TestResponseNotHTTP(t *testing.T) {
	for _, block := range []string{"", "User-agent: *\n", "HTTP/1.1 OK\r\n\r\n", "HTTP/1.1 2000 OK\r\n", "ICY 200 OK\r\n\r\n"} {
		rec := &warc.Record{Block: []byte(block), Length: int64(len(block))}
		if _, err := rec.Response(100); !errors.Is(err, warc.ErrNotHTTP) {
			t.Errorf("%q: err %v, want ErrNotHTTP", block, err)
		}
	}
}
