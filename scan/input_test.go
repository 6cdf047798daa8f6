package scan_test

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robotskit/robots/scan"
)

// inWARC builds WARC records laid out as WARC/1.1 §4 and annex C show them
// (https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/),
// with the fields Common Crawl writes in its robots.txt WARC files.
type inWARC struct {
	typ, uri string
	fields   []string // name, value, …
	block    string
}

func (r inWARC) bytes(n int) []byte {
	var b bytes.Buffer
	b.WriteString("WARC/1.0\r\n")
	fmt.Fprintf(&b, "WARC-Type: %s\r\n", r.typ)
	if !slices.Contains(r.fields, "WARC-Date") {
		b.WriteString("WARC-Date: 2024-03-01T10:00:00Z\r\n")
	}
	fmt.Fprintf(&b, "WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-%012d>\r\n", n)
	if r.uri != "" {
		fmt.Fprintf(&b, "WARC-Target-URI: %s\r\n", r.uri)
	}
	for i := 0; i+1 < len(r.fields); i += 2 {
		fmt.Fprintf(&b, "%s: %s\r\n", r.fields[i], r.fields[i+1])
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s\r\n\r\n", len(r.block), r.block)
	return b.Bytes()
}

func inGzip(p []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(p)
	w.Close()
	return b.Bytes()
}

// inFile lays records out plain or one gzip member each (WARC/1.1 annex
// A), and returns each record's offset.
func inFile(gzipped bool, recs ...inWARC) ([]byte, []int64) {
	var out []byte
	var offs []int64
	for i, r := range recs {
		p := r.bytes(i + 1)
		if gzipped {
			p = inGzip(p)
		}
		offs = append(offs, int64(len(out)))
		out = append(out, p...)
	}
	return out, offs
}

func inHTTP(status, body string, header ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP/1.1 %s\r\n", status)
	for i := 0; i+1 < len(header); i += 2 {
		fmt.Fprintf(&b, "%s: %s\r\n", header[i], header[i+1])
	}
	b.WriteString("\r\n" + body)
	return b.String()
}

const inRobots = "User-agent: *\nDisallow: /private/\n"

// inTriplet is a capture as Common Crawl records it: request, response,
// metadata (WARC/1.1 annex D's first use case).
func inTriplet(host, response string, fields ...string) []inWARC {
	uri := "https://" + host + "/robots.txt"
	return []inWARC{
		{typ: "request", uri: uri, fields: []string{"Content-Type", "application/http; msgtype=request"},
			block: "GET /robots.txt HTTP/1.1\r\nHost: " + host + "\r\n\r\n"},
		{typ: "response", uri: uri, fields: append([]string{"Content-Type", "application/http; msgtype=response"}, fields...),
			block: response},
		{typ: "metadata", uri: uri, fields: []string{"Content-Type", "application/warc-fields"}, block: "fetchTimeMs: 12\r\n"},
	}
}

// inReadAll reads r to io.EOF: captures, and errors as "error@offset".
func inReadAll(t *testing.T, r *scan.Reader) ([]*scan.Capture, []string) {
	t.Helper()
	var cs []*scan.Capture
	var order []string
	for range 10000 {
		c, err := r.Next()
		if err == io.EOF {
			return cs, order
		}
		if err != nil {
			var ie *scan.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("Next returned %T %v, want *scan.InputError", err, err)
			}
			order = append(order, fmt.Sprintf("error@%d", ie.Offset))
			continue
		}
		cs = append(cs, c)
		order = append(order, fmt.Sprintf("%s@%d", c.URL, c.Offset))
	}
	t.Fatal("Next did not reach io.EOF")
	return nil, nil
}

// TestReaderWARC reads request/response/metadata triplets: only response
// records become Captures (WARC/1.1 §6.3), with their target URI, date,
// HTTP status, headers, decoded body, payload digest and offset; a
// response of another scheme (dns:) and other record types are skipped.
func TestReaderWARC(t *testing.T) {
	recs := []inWARC{{typ: "warcinfo", fields: []string{"Content-Type", "application/warc-fields"}, block: "software: test\r\n"}}
	recs = append(recs, inTriplet("a.example", inHTTP("200 OK", inRobots, "Content-Type", "text/plain"),
		"WARC-Payload-Digest", "sha1:AAAA")...)
	recs = append(recs, inTriplet("b.example", inHTTP("404 Not Found", "nope", "Content-Type", "text/html"))...)
	recs = append(recs,
		inWARC{typ: "response", uri: "dns:c.example", fields: []string{"Content-Type", "text/dns"}, block: "20240301100000\nc.example. 300 IN A 192.0.2.3\n"},
		inWARC{typ: "resource", uri: "https://d.example/robots.txt", block: inRobots},
		inWARC{typ: "response", uri: "<http://e.example/robots.txt>", fields: []string{"WARC-Truncated", "length"},
			block: inHTTP("200 OK", "User-agent: *\nDisallow: /a")},
	)
	for _, gzipped := range []bool{false, true} {
		t.Run(fmt.Sprint("gzip=", gzipped), func(t *testing.T) {
			data, offs := inFile(gzipped, recs...)
			cs, order := inReadAll(t, scan.NewReader("crawl.warc", bytes.NewReader(data)))
			want := []string{
				fmt.Sprintf("https://a.example/robots.txt@%d", offs[2]),
				fmt.Sprintf("https://b.example/robots.txt@%d", offs[5]),
				fmt.Sprintf("http://e.example/robots.txt@%d", offs[9]),
			}
			if !slices.Equal(order, want) {
				t.Fatalf("got %v, want %v", order, want)
			}
			a := cs[0]
			if a.Status != 200 || string(a.Body) != inRobots || a.Size != int64(len(inRobots)) ||
				a.Header.Get("Content-Type") != "text/plain" || a.Digest != "sha1:AAAA" ||
				a.Source != "crawl.warc" || !a.Time.Equal(time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)) || a.Truncated || a.Revisit {
				t.Errorf("a.example: %+v", a)
			}
			if b := cs[1]; b.Status != 404 || string(b.Body) != "nope" {
				t.Errorf("b.example: %+v", b)
			}
			// WARC/1.1 §5, WARC-Truncated: the recorder cut the payload.
			if e := cs[2]; !e.Truncated || e.Status != 200 {
				t.Errorf("e.example: %+v", e)
			}
		})
	}
}

// TestReaderWARCDate reads WARC-Date in the forms WARC/1.1 §5.4 allows:
// the W3C profile of ISO 8601 (https://www.w3.org/TR/NOTE-datetime) to the
// second, with a fraction of one, or coarser; a malformed date is zero.
func TestReaderWARCDate(t *testing.T) {
	for _, tt := range []struct {
		date string
		want time.Time
	}{
		{"2024-03-01T10:00:00Z", time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)},
		{"2024-03-01T10:00:00.123456789Z", time.Date(2024, 3, 1, 10, 0, 0, 123456789, time.UTC)},
		{"2024-03-01T10:00Z", time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)},
		{"2024-03-01", time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)},
		{"2024-03", time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)},
		{"2024", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"yesterday", time.Time{}},
	} {
		data, _ := inFile(false, inWARC{typ: "response", uri: "https://a.example/robots.txt",
			fields: []string{"WARC-Date", tt.date}, block: inHTTP("200 OK", inRobots)})
		c, err := scan.NewReader("dates.warc", bytes.NewReader(data)).Next()
		if err != nil || !c.Time.Equal(tt.want) {
			t.Errorf("WARC-Date %q: %v, %v; want %v", tt.date, c.Time, err, tt.want)
		}
	}
}

// TestReaderWARCBodies: payloads come out with their codings undone —
// chunked (RFC 9112 §7.1), gzip (RFC 9110 §8.4.1.3) — or as Common Crawl
// stored them decoded under X-Crawler-Content-Encoding
// (https://github.com/commoncrawl/news-crawl/issues/30), and a payload
// over MaxBody is cut with Size its full length.
func TestReaderWARCBodies(t *testing.T) {
	big := strings.Repeat("Disallow: /x\n", 50_000) // 650,000 bytes
	var chunked strings.Builder
	gz := string(inGzip([]byte(inRobots)))
	for i := 0; i < len(gz); i += 10 {
		part := gz[i:min(i+10, len(gz))]
		fmt.Fprintf(&chunked, "%x\r\n%s\r\n", len(part), part)
	}
	chunked.WriteString("0\r\n\r\n")
	recs := []inWARC{
		{typ: "response", uri: "https://coded.example/robots.txt",
			block: inHTTP("200 OK", chunked.String(), "Content-Encoding", "gzip", "Transfer-Encoding", "chunked")},
		{typ: "response", uri: "https://cc.example/robots.txt",
			block: inHTTP("200 OK", inRobots, "X-Crawler-Content-Encoding", "gzip", "X-Crawler-Transfer-Encoding", "chunked")},
		{typ: "response", uri: "https://big.example/robots.txt", block: inHTTP("200 OK", big)},
		{typ: "response", uri: "https://huge.example/robots.txt", block: inHTTP("200 OK", big+big)},
	}
	data, _ := inFile(true, recs...)
	cs, order := inReadAll(t, scan.NewReader("bodies.warc.gz", bytes.NewReader(data)))
	if len(cs) != 4 {
		t.Fatalf("got %v", order)
	}
	for _, c := range cs[:2] {
		if string(c.Body) != inRobots || c.Size != int64(len(inRobots)) {
			t.Errorf("%s: body %q size %d", c.URL, c.Body, c.Size)
		}
	}
	if c := cs[2]; len(c.Body) != scan.MaxBody || c.Size != int64(len(big)) || string(c.Body) != big[:scan.MaxBody] {
		t.Errorf("big: len(body) %d size %d", len(c.Body), c.Size)
	}
	// Past the Reader's block limit: the size the block declares.
	if c := cs[3]; len(c.Body) != scan.MaxBody || c.Size != int64(2*len(big)) {
		t.Errorf("huge: len(body) %d size %d", len(c.Body), c.Size)
	}
}

// TestReaderRevisit fills a revisit record (WARC/1.1 §6.7) from the
// earlier response with the same payload digest (identical-payload-digest
// profile) or the record it refers to (server-not-modified); a revisit
// whose response is not found is returned with Revisit set and no body; a
// revisit of an unknown profile is skipped.
func TestReaderRevisit(t *testing.T) {
	const (
		ipd = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"
		snm = "http://netpreserve.org/warc/1.0/revisit/server-not-modified"
	)
	recs := []inWARC{
		{typ: "response", uri: "https://a.example/robots.txt", fields: []string{"WARC-Payload-Digest", "sha1:AAAA"},
			block: inHTTP("200 OK", inRobots, "Content-Type", "text/plain")},
		{typ: "revisit", uri: "https://a.example/robots.txt", fields: []string{"WARC-Profile", ipd, "WARC-Payload-Digest", "sha1:AAAA", "WARC-Truncated", "length"},
			block: inHTTP("200 OK", "", "Content-Type", "text/plain; charset=utf-8")},
		{typ: "revisit", uri: "https://a.example/robots.txt", fields: []string{"WARC-Profile", snm,
			"WARC-Refers-To", "<urn:uuid:00000000-0000-4000-8000-000000000001>"},
			block: inHTTP("304 Not Modified", "")},
		{typ: "revisit", uri: "https://b.example/robots.txt", fields: []string{"WARC-Profile", ipd, "WARC-Payload-Digest", "sha1:BBBB"},
			block: inHTTP("200 OK", "")},
		{typ: "revisit", uri: "https://c.example/robots.txt", fields: []string{"WARC-Profile", ipd, "WARC-Payload-Digest", "sha1:CCCC"}},
		{typ: "revisit", uri: "https://a.example/robots.txt", fields: []string{"WARC-Profile", "http://example.com/my-profile", "WARC-Payload-Digest", "sha1:AAAA"}},
	}
	data, offs := inFile(true, recs...)
	cs, order := inReadAll(t, scan.NewReader("revisits.warc.gz", bytes.NewReader(data)))
	want := []string{
		fmt.Sprintf("https://a.example/robots.txt@%d", offs[0]),
		fmt.Sprintf("https://a.example/robots.txt@%d", offs[1]),
		fmt.Sprintf("https://a.example/robots.txt@%d", offs[2]),
		fmt.Sprintf("https://b.example/robots.txt@%d", offs[3]),
		fmt.Sprintf("https://c.example/robots.txt@%d", offs[4]),
	}
	if !slices.Equal(order, want) {
		t.Fatalf("got %v, want %v", order, want)
	}
	// By digest: the revisit's own headers, the original's payload; its
	// WARC-Truncated says the block left the payload out, not that the
	// payload was cut.
	if c := cs[1]; c.Revisit || c.Truncated || string(c.Body) != inRobots || c.Size != int64(len(inRobots)) ||
		c.Status != 200 || c.Header.Get("Content-Type") != "text/plain; charset=utf-8" || c.Digest != "sha1:AAAA" {
		t.Errorf("revisit by digest: %+v", c)
	}
	// By WARC-Refers-To, after a 304: the original's status and headers.
	if c := cs[2]; c.Revisit || string(c.Body) != inRobots || c.Status != 200 || c.Header.Get("Content-Type") != "text/plain" || c.Digest != "sha1:AAAA" {
		t.Errorf("revisit by record ID: %+v", c)
	}
	if c := cs[3]; !c.Revisit || len(c.Body) != 0 || c.Size != 0 || c.Status != 200 {
		t.Errorf("revisit not found: %+v", c)
	}
	if c := cs[4]; !c.Revisit || c.Status != 0 || c.Header != nil {
		t.Errorf("revisit without a block: %+v", c)
	}
}

// TestReaderWARCCorrupt: corrupt records in the middle — a cut record, a
// corrupt gzip member, a record with a malformed header — are reported
// with their offsets, and the captures before and after them come out.
func TestReaderWARCCorrupt(t *testing.T) {
	good := func(host string) []byte {
		return inWARC{typ: "response", uri: "https://" + host + "/robots.txt", block: inHTTP("200 OK", inRobots)}.bytes(1)
	}
	cut := good("cut.example")
	cut = cut[:len(cut)/2]
	corrupt := inGzip(good("corrupt.example"))
	corrupt[len(corrupt)/2] ^= 0xff
	bad := []byte("WARC/1.0\r\nWARC-Type: response\r\nContent-Length: many\r\n\r\n\r\n\r\n")

	for _, gzipped := range []bool{false, true} {
		t.Run(fmt.Sprint("gzip=", gzipped), func(t *testing.T) {
			parts := [][]byte{good("a.example"), cut, good("b.example"), bad, good("c.example")}
			if gzipped {
				for i := range parts {
					parts[i] = inGzip(parts[i])
				}
				parts = slices.Insert(parts, 3, corrupt)
			}
			var data []byte
			var offs []int64
			for _, p := range parts {
				offs = append(offs, int64(len(data)))
				data = append(data, p...)
			}
			_, order := inReadAll(t, scan.NewReader("bad.warc", bytes.NewReader(data)))
			want := []string{
				fmt.Sprintf("https://a.example/robots.txt@%d", offs[0]),
				fmt.Sprintf("error@%d", offs[1]),
				fmt.Sprintf("https://b.example/robots.txt@%d", offs[2]),
				fmt.Sprintf("error@%d", offs[3]),
				fmt.Sprintf("https://c.example/robots.txt@%d", offs[4]),
			}
			if gzipped {
				want = slices.Insert(want, 4, fmt.Sprintf("error@%d", offs[4]))
				want[5] = fmt.Sprintf("https://c.example/robots.txt@%d", offs[5])
			}
			if !slices.Equal(order, want) {
				t.Errorf("got %v\nwant %v", order, want)
			}
		})
	}
}

// TestReaderJSONL reads JSON lines, plain and gzip-compressed: one Capture
// per line, blank lines skipped, a bad line reported with its offset and
// the next line read.
func TestReaderJSONL(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString([]byte("User-agent: *\x00\xff\nDisallow: /\n"))
	lines := []string{
		`{"url":"https://a.example/robots.txt","status":200,"headers":{"content-type":"text/plain","Set-Cookie":["a=1","b=2"]},"body":"User-agent: *\nDisallow: /a\n","time":"2024-03-01T10:00:00Z"}`,
		``,
		`{"url":"https://b.example/robots.txt","status":404}`,
		`{"url":"https://c.example/robots.txt","body_b64":"` + b64 + `"}`,
		`{"url":"https://d.example/robots.txt","body_b64":"` + strings.TrimRight(b64, "=") + `"}`,
		`not json`,
		`{"status":200,"body":"no url"}`,
		`{"url":"https://e.example/robots.txt","body":"x","body_b64":"eA=="}`,
		`{"url":"https://f.example/robots.txt","time":"yesterday"}`,
		`{"url":"https://g.example/robots.txt","headers":{"X":1}}`,
		`{"url":"https://h.example/robots.txt","body":"` + strings.Repeat("a", 3<<20) + `"}`,
		`{"url":"https://i.example/robots.txt","body":"` + strings.Repeat("Disallow: /x\\n", 50_000) + `"}`,
		`{"url":"https://j.example/robots.txt","body":"last line, no newline"}`,
	}
	text := strings.Join(lines, "\n")
	var offs []int64
	off := 0
	for _, l := range lines {
		offs = append(offs, int64(off))
		off += len(l) + 1
	}
	for _, gzipped := range []bool{false, true} {
		t.Run(fmt.Sprint("gzip=", gzipped), func(t *testing.T) {
			data := []byte(text)
			if gzipped {
				data = inGzip(data)
			}
			cs, order := inReadAll(t, scan.NewReader("captures.jsonl", bytes.NewReader(data)))
			want := []string{
				fmt.Sprintf("https://a.example/robots.txt@%d", offs[0]),
				fmt.Sprintf("https://b.example/robots.txt@%d", offs[2]),
				fmt.Sprintf("https://c.example/robots.txt@%d", offs[3]),
				fmt.Sprintf("https://d.example/robots.txt@%d", offs[4]),
				fmt.Sprintf("error@%d", offs[5]),
				fmt.Sprintf("error@%d", offs[6]),
				fmt.Sprintf("error@%d", offs[7]),
				fmt.Sprintf("error@%d", offs[8]),
				fmt.Sprintf("error@%d", offs[9]),
				fmt.Sprintf("error@%d", offs[10]), // over 2 MiB
				fmt.Sprintf("https://i.example/robots.txt@%d", offs[11]),
				fmt.Sprintf("https://j.example/robots.txt@%d", offs[12]),
			}
			if !slices.Equal(order, want) {
				t.Fatalf("got %v\nwant %v", order, want)
			}
			a := cs[0]
			if a.Status != 200 || string(a.Body) != "User-agent: *\nDisallow: /a\n" || a.Header.Get("Content-Type") != "text/plain" ||
				!slices.Equal(a.Header.Values("Set-Cookie"), []string{"a=1", "b=2"}) ||
				!a.Time.Equal(time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)) || a.Source != "captures.jsonl" {
				t.Errorf("a: %+v", a)
			}
			if b := cs[1]; b.Status != 404 || len(b.Body) != 0 || b.Header != nil {
				t.Errorf("b: %+v", b)
			}
			for _, c := range cs[2:4] {
				if string(c.Body) != "User-agent: *\x00\xff\nDisallow: /\n" {
					t.Errorf("%s: body %q", c.URL, c.Body)
				}
			}
			if i := cs[4]; len(i.Body) != scan.MaxBody || i.Size != 13*50_000 {
				t.Errorf("i: len(body) %d size %d", len(i.Body), i.Size)
			}
		})
	}
}

// TestReaderRobotsFile reads an input that is one robots.txt body, named
// by its host: plain, gzip-compressed, empty, over MaxBody, or a JSON
// error page.
func TestReaderRobotsFile(t *testing.T) {
	big := strings.Repeat("Disallow: /x\n", 50_000)
	for _, tt := range []struct {
		name, path string
		data       []byte
		url        string
		body       string
		size       int64
	}{
		{"plain", "/corpus/robots/example.com", []byte(inRobots), "https://example.com/robots.txt", inRobots, int64(len(inRobots))},
		{"gzip", "dir/example.org.gz", inGzip([]byte(inRobots)), "https://example.org/robots.txt", inRobots, int64(len(inRobots))},
		{"empty", "empty.example", nil, "https://empty.example/robots.txt", "", 0},
		{"big", "big.example", []byte(big), "https://big.example/robots.txt", big[:scan.MaxBody], int64(len(big))},
		{"JSON page", "json.example", []byte(`{"error":"not found"}`), "https://json.example/robots.txt", `{"error":"not found"}`, 21},
		{"stdin", "-", []byte(inRobots), "", inRobots, int64(len(inRobots))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cs, order := inReadAll(t, scan.NewReader(tt.path, bytes.NewReader(tt.data)))
			if len(cs) != 1 {
				t.Fatalf("got %v", order)
			}
			c := cs[0]
			if c.URL != tt.url || string(c.Body) != tt.body || c.Size != tt.size || c.Status != 0 || c.Offset != 0 || c.Source != tt.path {
				t.Errorf("URL %q len(body) %d size %d status %d", c.URL, len(c.Body), c.Size, c.Status)
			}
		})
	}
}

// TestReaderReadError: a failing input ends with one error carrying the
// cause, then io.EOF.
func TestReaderReadError(t *testing.T) {
	boom := errors.New("boom")
	for _, head := range []string{
		"WARC/1.0\r\nContent-Length: 10\r\n\r\n",
		`{"url":"x"}` + "\n" + `{"url"`,
		"User-agent: *\n",
		"",
	} {
		r := scan.NewReader("failing", io.MultiReader(strings.NewReader(head), errReader{boom}))
		var last error
		for range 10 {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			last = err
		}
		var ie *scan.InputError
		if !errors.As(last, &ie) || !errors.Is(last, boom) || ie.Source != "failing" {
			t.Errorf("%q: last error %v, want an *InputError wrapping boom", head, last)
		}
		if _, err := r.Next(); err != io.EOF {
			t.Errorf("%q: Next after the error = %v, want io.EOF", head, err)
		}
	}
}

// TestReaderSniff tells the kind of an input from its first bytes, after
// undoing a gzip compression (RFC 1952 §2.3.1 magic).
func TestReaderSniff(t *testing.T) {
	jsonl := `{"url":"https://a.example/robots.txt","body":"x"}` + "\n"
	warcRec := string(inWARC{typ: "response", uri: "https://a.example/robots.txt", block: inHTTP("200 OK", "x")}.bytes(1))
	for _, tt := range []struct {
		name string
		data string
		want string // URL of the first capture
	}{
		{"WARC", warcRec, "https://a.example/robots.txt"},
		{"gzip WARC", string(inGzip([]byte(warcRec))), "https://a.example/robots.txt"},
		{"JSON lines", jsonl, "https://a.example/robots.txt"},
		{"gzip JSON lines", string(inGzip([]byte(jsonl))), "https://a.example/robots.txt"},
		{"BOM and blank line first", "\xef\xbb\xbf\n  \n" + jsonl, "https://a.example/robots.txt"},
		{"JSON error page", `{"error":"not found"}`, "https://host.example/robots.txt"},
		{"JSON without url", `{"status":200}` + "\n" + jsonl, "https://host.example/robots.txt"},
		{"robots.txt", "User-agent: *\n", "https://host.example/robots.txt"},
		{"gzip robots.txt", string(inGzip([]byte("User-agent: *\n"))), "https://host.example/robots.txt"},
		{"WARC word later", "# about WARC/1.0\n", "https://host.example/robots.txt"},
		{"blank lines before WARC", "\r\n" + warcRec, "https://a.example/robots.txt"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := scan.NewReader("host.example", strings.NewReader(tt.data)).Next()
			if err != nil || c.URL != tt.want {
				t.Errorf("first capture %+v, %v; want URL %q", c, err, tt.want)
			}
		})
	}
}

// TestReaderSniffName: when the first bytes do not tell, a name ending in
// .warc or .warc.gz, .jsonl or .ndjson (and .gz) does; records and lines
// that cannot be read are then reported one by one.
func TestReaderSniffName(t *testing.T) {
	good, _ := inFile(true, inWARC{typ: "response", uri: "https://a.example/robots.txt", block: inHTTP("200 OK", inRobots)})
	corrupt := inGzip([]byte("WARC/1.0\r\nWARC-Type: metadata\r\nContent-Length: 0\r\n\r\n\r\n\r\n"))
	corrupt[2] = 7 // CM, which must be 8 (deflate), RFC 1952 §2.3.1
	_, order := inReadAll(t, scan.NewReader("CC-MAIN-1.warc.gz", bytes.NewReader(slices.Concat(corrupt, good))))
	want := []string{"error@0", fmt.Sprintf("https://a.example/robots.txt@%d", len(corrupt))}
	if !slices.Equal(order, want) {
		t.Errorf("corrupt first member: got %v, want %v", order, want)
	}
	// Without the name, the same bytes are one robots.txt file that cannot
	// be gunzipped.
	if _, order = inReadAll(t, scan.NewReader("x.example", bytes.NewReader(slices.Concat(corrupt, good)))); !slices.Equal(order, []string{"error@0"}) {
		t.Errorf("unnamed: got %v, want [error@0]", order)
	}

	// The content tells first: JSON lines in a file named .warc.
	jl := `{"url":"https://j.example/robots.txt"}` + "\n"
	if _, order = inReadAll(t, scan.NewReader("odd.warc", strings.NewReader(jl))); !slices.Equal(order, []string{"https://j.example/robots.txt@0"}) {
		t.Errorf("JSON lines named .warc: got %v", order)
	}

	lines := "{not json\n" + `{"url":"https://a.example/robots.txt"}` + "\n"
	_, order = inReadAll(t, scan.NewReader("part-0.jsonl.gz", bytes.NewReader(inGzip([]byte(lines)))))
	want = []string{"error@0", "https://a.example/robots.txt@10"}
	if !slices.Equal(order, want) {
		t.Errorf("bad first line: got %v, want %v", order, want)
	}
}

// FuzzReader reads arbitrary inputs: Next never panics, ends with io.EOF
// in a bounded number of calls, returns *InputError errors and bodies of
// at most MaxBody bytes.
func FuzzReader(f *testing.F) {
	dir := filepath.Join("testdata", "input")
	for _, name := range []string{"robots.warc.gz", "captures.jsonl", "captures.jsonl.gz", "example.org", "IA-001102.arc.gz"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			f.Add(b)
		}
	}
	data, _ := inFile(false, inTriplet("a.example", inHTTP("200 OK", inRobots, "Transfer-Encoding", "chunked"))...)
	f.Add(data)
	f.Add([]byte(`{"url":"u","headers":{"a":["b"]},"body_b64":"eA"}` + "\n\n{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := scan.NewReader("fuzz", bytes.NewReader(data))
		for i := 0; ; i++ {
			if i > 2*len(data)+10 {
				t.Fatalf("no io.EOF after %d calls", i)
			}
			c, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				var ie *scan.InputError
				if !errors.As(err, &ie) || ie.Offset < 0 || ie.Offset > int64(len(data)) && !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
					t.Fatalf("error %T %v", err, err)
				}
				continue
			}
			if len(c.Body) > scan.MaxBody || c.Size < int64(len(c.Body)) || c.Revisit && len(c.Body) > 0 {
				t.Fatalf("capture: len(body) %d size %d revisit %v", len(c.Body), c.Size, c.Revisit)
			}
		}
	})
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// inUpdate rewrites testdata/input/*.golden; another test file of the
// package may have defined the flag already.
var inUpdate = func() func() bool {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files")
	}
	return func() bool { f := flag.Lookup("update"); return f != nil && f.Value.String() == "true" }
}()

// inFixtures writes the inputs of testdata/input: a Common Crawl style
// robots.txt WARC file (gzip, one member per record), the same captures as
// gzip'd JSON lines, a robots.txt file named by its host, and an ARC file
// (gzip, one member per record), which is not read.
func inFixtures(dir string) error {
	recs := []inWARC{{typ: "warcinfo", fields: []string{"Content-Type", "application/warc-fields"}, block: "software: test\r\nformat: WARC File Format 1.0\r\n"}}
	recs = append(recs, inTriplet("example.com", inHTTP("200 OK", inRobots, "Content-Type", "text/plain"), "WARC-Payload-Digest", "sha1:EX")...)
	recs = append(recs, inTriplet("moved.example", inHTTP("301 Moved Permanently", "", "Location", "https://www.moved.example/robots.txt"))...)
	recs = append(recs, inTriplet("cc.example", inHTTP("200 OK", "User-agent: CCBot\nDisallow: /\n", "X-Crawler-Content-Encoding", "gzip"))...)
	recs = append(recs, inWARC{typ: "revisit", uri: "https://example.com/robots.txt", fields: []string{
		"WARC-Profile", "http://netpreserve.org/warc/1.0/revisit/identical-payload-digest", "WARC-Payload-Digest", "sha1:EX"},
		block: inHTTP("200 OK", "", "Content-Type", "text/plain")})
	data, _ := inFile(true, recs...)
	jsonl := `{"url":"https://example.com/robots.txt","status":200,"headers":{"Content-Type":"text/plain"},"body":"User-agent: *\nDisallow: /private/\n","time":"2024-03-01T10:00:00Z"}
{"url":"https://moved.example/robots.txt","status":301,"headers":{"Location":"https://www.moved.example/robots.txt"}}
{"url":"https://cc.example/robots.txt","status":200,"body_b64":"VXNlci1hZ2VudDogQ0NCb3QKRGlzYWxsb3c6IC8K"}
`
	for name, b := range map[string][]byte{
		"robots.warc.gz": data,
		"captures.jsonl": []byte(jsonl),
		"example.org":    []byte("User-agent: GPTBot\nDisallow: /\n"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "captures.jsonl.gz"), inGzip([]byte(jsonl)), 0o644); err != nil {
		return err
	}
	arc, _ := arcFile("IA-001102.arc", 1, true, arcRecords...)
	return os.WriteFile(filepath.Join(dir, "IA-001102.arc.gz"), arc, 0o644)
}

// TestReaderGolden reads each input of testdata/input and compares its
// captures with the .golden file beside it.
func TestReaderGolden(t *testing.T) {
	dir := filepath.Join("testdata", "input")
	if inUpdate() {
		if err := inFixtures(dir); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"robots.warc.gz", "captures.jsonl", "captures.jsonl.gz", "example.org", "IA-001102.arc.gz"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var out strings.Builder
			r := scan.NewReader(name, f)
			for {
				c, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					fmt.Fprintf(&out, "error: %v\n", err)
					continue
				}
				fmt.Fprintf(&out, "%s@%d %s status=%d size=%d revisit=%v digest=%q time=%s type=%q body=%q\n",
					c.Source, c.Offset, c.URL, c.Status, c.Size, c.Revisit, c.Digest, c.Time.Format(time.RFC3339),
					c.Header.Get("Content-Type"), c.Body)
			}
			golden := path + ".golden"
			if inUpdate() {
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
		})
	}
}

// Read the captures of an input, logging the records that cannot be read.
func ExampleReader() {
	f, err := os.Open("testdata/input/robots.warc.gz")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	r := scan.NewReader(f.Name(), f)
	for {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println("skipped:", err) // an *InputError: source, offset, cause
			continue
		}
		fmt.Println(c.Offset, c.URL, c.Status, len(c.Body))
	}
	// Output:
	// 415 https://example.com/robots.txt 200 34
	// 1117 https://moved.example/robots.txt 301 0
	// 1790 https://cc.example/robots.txt 200 30
	// 2258 https://example.com/robots.txt 200 34
}
