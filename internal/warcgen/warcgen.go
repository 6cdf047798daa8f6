// Package warcgen writes WARC files shaped as Common Crawl's robots.txt
// WARCs, for benchmarks and tests of the batch scan at scale: one
// warcinfo record, then for each capture a request, a response and a
// metadata record, each its own gzip member (WARC/1.1 annex D.2,
// record-at-time compression), with the fields Common Crawl writes
// (WARC-Target-URI, WARC-Payload-Digest, WARC-Identified-Payload-Type,
// the crawler's renamed X-Crawler-* coding headers).
//
// The mix of responses follows what robots.txt crawls record: most are
// 200 with a robots.txt, some 404 with an HTML error page, redirects,
// server errors, forbidden, and soft-404 HTML served with 200. The bodies
// come in rotation from Options.Bodies, so a crawl's repeats (the same
// file served by many hosts) are as frequent as Bodies is short; every
// capture has a host of its own.
package warcgen

import (
	"bufio"
	"compress/gzip"
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Options says what Write writes. The zero Options writes nothing but
// the warcinfo record.
type Options struct {
	// Captures is the number of captures.
	Captures int
	// Bodies are the robots.txt files of the 200 responses, taken in
	// rotation; nil uses a few small files of the common shapes.
	Bodies [][]byte
	// Hosts names the host each body came from, "" or missing for
	// "example.com"; capture i's host is "www.hNNNNNNN." + that host.
	Hosts []string
	// Seed makes the mix of responses; the same Options write the same
	// bytes.
	Seed uint64
	// Start is the WARC-Date of the first capture; the zero Time is
	// 2025-03-01T00:00:00Z. Each capture is a second after the one before.
	Start time.Time
	// Revisits is the share of captures, in thousandths, written as a
	// revisit record (WARC/1.1 §6.7.2, profile identical-payload-digest)
	// of the last 200 robots.txt response before it, which a reader fills
	// from that response.
	Revisits int
}

// The shares of the kinds of response, in thousandths: a robots.txt crawl
// as Common Crawl records it.
var mix = [...]struct {
	kind  kind
	share int
}{
	{robotsTxt, 780}, {notFound, 100}, {softHTML, 50}, {moved, 30}, {unavailable, 20}, {forbidden, 10}, {found, 10},
}

type kind int

const (
	robotsTxt kind = iota
	notFound
	softHTML
	moved
	unavailable
	forbidden
	found
)

// defaultBodies are used when Options.Bodies is nil.
var defaultBodies = [][]byte{
	[]byte("User-agent: *\nDisallow: /admin/\nDisallow: /tmp/\nSitemap: https://example.com/sitemap.xml\n"),
	[]byte("User-agent: GPTBot\nUser-agent: ClaudeBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /private/\nCrawl-delay: 5\n"),
	[]byte("User-agent: *\nDisallow:\n"),
	[]byte("User-agent: *\nDisallow: /cgi-bin/\nDisallow: /search\nAllow: /search/about\nDisallow: /*.php$\n\nUser-agent: Bytespider\nDisallow: /\n"),
}

const (
	notFoundPage = "<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>\n"
	softPage     = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Welcome</title></head><body><div id=\"app\">Loading…</div><script src=\"/app.js\"></script></body></html>\n"
	errorPage    = "<html><head><title>503 Service Unavailable</title></head><body>Service Unavailable</body></html>\n"
)

// Write writes the WARC file of o to w. It returns the first error of w.
func Write(w io.Writer, o Options) error {
	g := &gen{bw: bufio.NewWriterSize(w, 256<<10), o: o, rng: rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15))}
	g.zw, _ = gzip.NewWriterLevel(io.Discard, 6)
	if g.o.Bodies == nil {
		g.o.Bodies = defaultBodies
	}
	if g.o.Start.IsZero() {
		g.o.Start = time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	}
	info := "software: robotskit warcgen\r\nformat: WARC File Format 1.1\r\nisPartOf: CC-MAIN-2025-10-robotstxt\r\n"
	g.record("warcinfo", "", g.o.Start, []string{"Content-Type", "application/warc-fields"}, []byte(info))
	for i := range g.o.Captures {
		g.capture(i)
	}
	if g.err != nil {
		return g.err
	}
	return g.bw.Flush()
}

type gen struct {
	bw  *bufio.Writer
	zw  *gzip.Writer
	o   Options
	rng *rand.Rand
	buf []byte
	n   int // records written, for the record ids
	err error

	lastID, lastDigest string // of the last 200 robots.txt response
}

func (g *gen) pick() kind {
	x := g.rng.IntN(1000)
	for _, m := range mix {
		if x < m.share {
			return m.kind
		}
		x -= m.share
	}
	return robotsTxt
}

func (g *gen) capture(i int) {
	host := "example.com"
	bi := i % len(g.o.Bodies)
	if bi < len(g.o.Hosts) && g.o.Hosts[bi] != "" {
		host = g.o.Hosts[bi]
	}
	host = fmt.Sprintf("www.h%07d.%s", i, host)
	uri := "https://" + host + "/robots.txt"
	when := g.o.Start.Add(time.Duration(i) * time.Second)

	req := "GET /robots.txt HTTP/1.1\r\nUser-Agent: CCBot/2.0 (https://commoncrawl.org/faq/)\r\nAccept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\n" +
		"Accept-Language: en-US,en;q=0.5\r\nAccept-Encoding: br,gzip\r\nHost: " + host + "\r\nConnection: Keep-Alive\r\n\r\n"
	g.record("request", uri, when, []string{"Content-Type", "application/http; msgtype=request", "WARC-IP-Address", "192.0.2.1",
		"WARC-Protocol", "h2", "WARC-Protocol", "tls/1.3", "WARC-Cipher-Suite", "TLS_AES_128_GCM_SHA256"}, []byte(req))

	if g.o.Revisits > 0 && g.lastID != "" && g.rng.IntN(1000) < g.o.Revisits {
		head := "HTTP/1.1 200 OK\r\nDate: " + when.Format(time.RFC1123) + "\r\nContent-Type: text/plain\r\n\r\n"
		g.record("revisit", uri, when, []string{"Content-Type", "application/http; msgtype=response",
			"WARC-Profile", "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest",
			"WARC-Refers-To", g.lastID, "WARC-Payload-Digest", g.lastDigest}, []byte(head))
		g.record("metadata", uri, when, []string{"Content-Type", "application/warc-fields"}, []byte("fetchTimeMs: 1\r\n"))
		return
	}
	var status, ctype, extra string
	var body []byte
	kind := g.pick()
	switch kind {
	case robotsTxt:
		status, ctype, body = "200 OK", "text/plain", g.o.Bodies[bi]
	case notFound:
		status, ctype, body = "404 Not Found", "text/html; charset=iso-8859-1", []byte(notFoundPage)
	case softHTML:
		status, ctype, body = "200 OK", "text/html; charset=utf-8", []byte(softPage)
	case moved:
		status, ctype, extra = "301 Moved Permanently", "text/html", "Location: https://"+host[4:]+"/robots.txt\r\n"
		body = []byte("<html><body>Moved</body></html>\n")
	case unavailable:
		status, ctype, body = "503 Service Unavailable", "text/html", []byte(errorPage)
	case forbidden:
		status, ctype, body = "403 Forbidden", "text/html", []byte("<html><body>Forbidden</body></html>\n")
	case found:
		status, ctype, extra = "302 Found", "text/html", "Location: /robots-new.txt\r\n"
	}
	if g.rng.IntN(3) == 0 {
		// The crawler undid the coding and renamed the header.
		extra += "X-Crawler-Content-Encoding: gzip\r\n"
	}
	head := "HTTP/1.1 " + status + "\r\nDate: " + when.Format(time.RFC1123) + "\r\nServer: nginx\r\nContent-Type: " + ctype +
		"\r\n" + extra + fmt.Sprintf("X-Crawler-Content-Length: %d\r\nContent-Length: %d\r\nCache-Control: max-age=86400\r\n\r\n", len(body), len(body))
	block := append([]byte(head), body...)
	sum := sha1.Sum(body)
	digest := "sha1:" + base32.StdEncoding.EncodeToString(sum[:])
	payloadType := "text/plain"
	if strings.HasPrefix(ctype, "text/html") {
		payloadType = "text/html"
	}
	g.record("response", uri, when, []string{"Content-Type", "application/http; msgtype=response", "WARC-IP-Address", "192.0.2.1",
		"WARC-Payload-Digest", digest, "WARC-Identified-Payload-Type", payloadType, "WARC-Protocol", "h2"}, block)
	if kind == robotsTxt {
		g.lastID, g.lastDigest = g.id(g.n), digest
	}

	meta := fmt.Sprintf("fetchTimeMs: %d\r\n", 50+g.rng.IntN(500))
	g.record("metadata", uri, when, []string{"Content-Type", "application/warc-fields"}, []byte(meta))
}

// id is the WARC-Record-ID of the n-th record.
func (g *gen) id(n int) string {
	return fmt.Sprintf("<urn:uuid:00000000-0000-4000-8000-%012d>", n)
}

// record writes one record as its own gzip member.
func (g *gen) record(typ, uri string, when time.Time, fields []string, block []byte) {
	if g.err != nil {
		return
	}
	g.n++
	b := g.buf[:0]
	b = append(b, "WARC/1.1\r\nWARC-Type: "...)
	b = append(b, typ...)
	b = fmt.Appendf(b, "\r\nWARC-Date: %s\r\nWARC-Record-ID: %s\r\n", when.UTC().Format(time.RFC3339), g.id(g.n))
	if uri != "" {
		b = append(b, "WARC-Target-URI: "...)
		b = append(b, uri...)
		b = append(b, "\r\n"...)
	}
	for i := 0; i+1 < len(fields); i += 2 {
		b = append(b, fields[i]...)
		b = append(b, ": "...)
		b = append(b, fields[i+1]...)
		b = append(b, "\r\n"...)
	}
	b = fmt.Appendf(b, "Content-Length: %d\r\n\r\n", len(block))
	b = append(b, block...)
	b = append(b, "\r\n\r\n"...)
	g.buf = b
	g.zw.Reset(g.bw)
	if _, err := g.zw.Write(b); err != nil {
		g.err = err
		return
	}
	g.err = g.zw.Close()
}

// ReadDir reads the files of a folder of robots.txt files, one per file
// named by its host, for Options.Bodies and Options.Hosts, in the order of
// their names; at most max files when max > 0. It reads each file up to
// 1 MiB.
func ReadDir(dir string, max int) (bodies [][]byte, hosts []string, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		if max > 0 && len(bodies) == max {
			break
		}
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, nil, err
		}
		b, err := io.ReadAll(io.LimitReader(f, 1<<20))
		f.Close()
		if err != nil {
			return nil, nil, err
		}
		bodies = append(bodies, b)
		hosts = append(hosts, e.Name())
	}
	return bodies, hosts, nil
}
