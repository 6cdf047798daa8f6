package warc_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"testing"

	"github.com/robotskit/robots/internal/warc"
)

// The records below are laid out as WARC/1.1 §4 and annex C show them
// (https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/#file-and-record-model),
// with the fields Common Crawl writes in its robots.txt WARC files.

// rec describes one record to build.
type rec struct {
	version string // "1.0" or "1.1"
	typ     string
	uri     string
	fields  []string // more fields: name, value, name, value …
	block   []byte
}

var recordID int

// bytes builds the record: version line, fields, CRLF, block, CRLF CRLF.
func (r rec) bytes() []byte {
	var b bytes.Buffer
	v := r.version
	if v == "" {
		v = "1.0"
	}
	recordID++
	fmt.Fprintf(&b, "WARC/%s\r\n", v)
	fmt.Fprintf(&b, "WARC-Type: %s\r\n", r.typ)
	b.WriteString("WARC-Date: 2024-03-01T10:00:00Z\r\n")
	fmt.Fprintf(&b, "WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-%012d>\r\n", recordID)
	if r.uri != "" {
		fmt.Fprintf(&b, "WARC-Target-URI: %s\r\n", r.uri)
	}
	for i := 0; i+1 < len(r.fields); i += 2 {
		fmt.Fprintf(&b, "%s: %s\r\n", r.fields[i], r.fields[i+1])
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", len(r.block))
	b.Write(r.block)
	b.WriteString("\r\n\r\n")
	return b.Bytes()
}

// gz compresses p as one gzip member.
func gz(p []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(p)
	w.Close()
	return b.Bytes()
}

// httpResponse builds an HTTP/1.1 response message.
func httpResponse(status string, body []byte, header ...string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "HTTP/1.1 %s\r\n", status)
	for i := 0; i+1 < len(header); i += 2 {
		fmt.Fprintf(&b, "%s: %s\r\n", header[i], header[i+1])
	}
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes()
}

const robotsBody = "User-agent: *\nDisallow: /private/\n\nSitemap: https://example.com/sitemap.xml\n"

// capture returns the records of one Common Crawl style capture of a
// robots.txt: request, response and metadata.
func capture(version, host, body string) []rec {
	uri := "https://" + host + "/robots.txt"
	return []rec{
		{version: version, typ: "request", uri: uri,
			fields: []string{"Content-Type", "application/http; msgtype=request", "WARC-IP-Address", "192.0.2.1"},
			block:  []byte("GET /robots.txt HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: CCBot/2.0 (https://commoncrawl.org/faq/)\r\n\r\n")},
		{version: version, typ: "response", uri: uri,
			fields: []string{"Content-Type", "application/http; msgtype=response", "WARC-Payload-Digest", "sha1:" + host, "WARC-IP-Address", "192.0.2.1"},
			block:  httpResponse("200 OK", []byte(body), "Content-Type", "text/plain", "Content-Length", fmt.Sprint(len(body)))},
		{version: version, typ: "metadata", uri: uri,
			fields: []string{"Content-Type", "application/warc-fields"},
			block:  []byte("fetchTimeMs: 120\r\n")},
	}
}

// warcinfo is the record that opens a file.
func warcinfo(version string) rec {
	return rec{version: version, typ: "warcinfo",
		fields: []string{"Content-Type", "application/warc-fields", "WARC-Filename", "test.warc.gz"},
		block:  []byte("software: test\r\nformat: WARC File Format 1.1\r\n")}
}

// file lays records out plain, one gzip member each, or as one gzip
// stream, and returns the file with each record's expected offset.
func file(mode string, recs ...rec) ([]byte, []int64) {
	var b, all bytes.Buffer
	var offs []int64
	for _, r := range recs {
		p := r.bytes()
		switch mode {
		case "plain":
			offs = append(offs, int64(b.Len()))
			b.Write(p)
		case "members":
			offs = append(offs, int64(b.Len()))
			b.Write(gz(p))
		case "stream":
			offs = append(offs, 0)
			all.Write(p)
		}
	}
	if mode == "stream" {
		return gz(all.Bytes()), offs
	}
	return b.Bytes(), offs
}

var modes = []string{"plain", "members", "stream"}

// got is what a Reader returned: records and errors in order.
type got struct {
	types   []string
	offsets []int64
	blocks  [][]byte
	errs    []*warc.Error
	order   []string // "type@offset" or "error@offset"
}

// readAll reads r to io.EOF, failing after too many calls.
func readAll(t testing.TB, r *warc.Reader, bound int) got {
	t.Helper()
	var g got
	for i := 0; ; i++ {
		if i > bound {
			t.Fatalf("Next did not reach io.EOF after %d calls", bound)
		}
		rec, err := r.Next()
		if err == io.EOF {
			return g
		}
		if err != nil {
			we, ok := err.(*warc.Error)
			if !ok {
				t.Fatalf("Next returned %T %v, want *warc.Error", err, err)
			}
			g.errs = append(g.errs, we)
			g.order = append(g.order, fmt.Sprintf("error@%d", we.Offset))
			continue
		}
		g.types = append(g.types, rec.Type)
		g.offsets = append(g.offsets, rec.Offset)
		g.blocks = append(g.blocks, bytes.Clone(rec.Block))
		g.order = append(g.order, fmt.Sprintf("%s@%d", rec.Type, rec.Offset))
	}
}
