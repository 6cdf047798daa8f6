package scan_test

import (
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robotskit/robots/scan"
)

// ccWARC generates a WARC file shaped as Common Crawl's robots.txt WARC
// files are (https://commoncrawl.org/blog/robots-txt-and-404-redirect-data-sets):
// a warcinfo record, then for each capture a request, a response and a
// metadata record (WARC/1.1 §6.3, §6.4, §6.5), each record its own gzip
// member (annex A, record-at-time compression) at level 6, with the fields
// Common Crawl writes and robots.txt bodies of 0.5 to 2 KB. The same seed
// gives the same bytes.
func ccWARC(captures int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var out bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&out, 6)
	member := func(p []byte) {
		zw.Reset(&out)
		zw.Write(p)
		zw.Close()
	}
	id := func() string {
		return fmt.Sprintf("<urn:uuid:%08x-%04x-4%03x-8%03x-%012x>", rng.Uint32(), rng.Uint32()&0xffff,
			rng.Uint32()&0xfff, rng.Uint32()&0xfff, rng.Uint64()&0xffffffffffff)
	}
	digest := func(b []byte) string {
		sum := sha1.Sum(b)
		return "sha1:" + base32.StdEncoding.EncodeToString(sum[:])
	}
	record := func(typ string, fields []string, block []byte) []byte {
		var b bytes.Buffer
		b.WriteString("WARC/1.0\r\nWARC-Type: " + typ + "\r\n")
		for i := 0; i+1 < len(fields); i += 2 {
			b.WriteString(fields[i] + ": " + fields[i+1] + "\r\n")
		}
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", len(block))
		b.Write(block)
		b.WriteString("\r\n\r\n")
		return b.Bytes()
	}
	date := time.Date(2024, 12, 1, 0, 0, 0, 0, time.UTC)
	info := id()
	member(record("warcinfo", []string{
		"WARC-Date", date.Format(time.RFC3339), "WARC-Filename", "CC-MAIN-20241201000000-20241201030000-00000.warc.gz",
		"WARC-Record-ID", info, "Content-Type", "application/warc-fields"},
		[]byte("isPartOf: CC-MAIN-2024-51\r\npublisher: Common Crawl\r\ndescription: Wide crawl of the web for December 2024\r\n"+
			"operator: Common Crawl Admin (info@commoncrawl.org)\r\nhostname: ip-10-67-67-5.ec2.internal\r\n"+
			"software: Apache Nutch 1.20 (modified, https://github.com/commoncrawl/nutch/)\r\n"+
			"robots: checked via crawler-commons 1.5-SNAPSHOT (https://github.com/crawler-commons/crawler-commons)\r\n"+
			"format: WARC File Format 1.1\r\nconformsTo: https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n")))
	paths := []string{"/admin/", "/cart", "/checkout/", "/search", "/wp-admin/", "/private/", "/tmp/", "/*?sessionid=", "/cgi-bin/", "/account/", "/login", "/api/"}
	agents := []string{"*", "GPTBot", "CCBot", "Googlebot", "Bingbot", "ClaudeBot", "Google-Extended", "AhrefsBot", "SemrushBot"}
	for i := range captures {
		host := fmt.Sprintf("www.site%d.example", i)
		uri := "https://" + host + "/robots.txt"
		date = date.Add(time.Duration(rng.IntN(3000)) * time.Millisecond)
		when := date.Format(time.RFC3339)
		ip := fmt.Sprintf("192.0.2.%d", rng.IntN(250)+1)

		var body strings.Builder
		body.WriteString("# robots.txt for " + host + "\n")
		for want := 500 + rng.IntN(1500); body.Len() < want; {
			fmt.Fprintf(&body, "\nUser-agent: %s\n", agents[rng.IntN(len(agents))])
			for range 2 + rng.IntN(6) {
				verb := "Disallow"
				if rng.IntN(4) == 0 {
					verb = "Allow"
				}
				fmt.Fprintf(&body, "%s: %s%d\n", verb, paths[rng.IntN(len(paths))], rng.IntN(100))
			}
		}
		fmt.Fprintf(&body, "\nSitemap: https://%s/sitemap.xml\n", host)
		payload := []byte(body.String())

		reqID, respID := id(), id()
		req := []byte("GET /robots.txt HTTP/1.1\r\nUser-Agent: CCBot/2.0 (https://commoncrawl.org/faq/)\r\n" +
			"Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\nAccept-Language: en-US,en;q=0.5\r\n" +
			"If-Modified-Since: Sat, 02 Nov 2024 10:11:12 GMT\r\nAccept-Encoding: br,gzip\r\nHost: " + host + "\r\nConnection: Keep-Alive\r\n\r\n")
		member(record("request", []string{"WARC-Date", when, "WARC-Record-ID", reqID,
			"Content-Type", "application/http; msgtype=request", "WARC-Warcinfo-ID", info,
			"WARC-IP-Address", ip, "WARC-Target-URI", uri}, req))

		resp := []byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nDate: %s\r\nContent-Type: text/plain\r\nX-Crawler-Transfer-Encoding: chunked\r\n"+
			"Connection: keep-alive\r\nLast-Modified: Tue, 15 Oct 2024 08:00:00 GMT\r\nVary: Accept-Encoding\r\nServer: cloudflare\r\n"+
			"CF-RAY: %016x-FRA\r\nX-Crawler-Content-Encoding: gzip\r\nContent-Length: %d\r\n\r\n",
			date.Format(time.RFC1123), rng.Uint64(), len(payload)))
		block := append(resp, payload...)
		member(record("response", []string{"WARC-Date", when, "WARC-Record-ID", respID,
			"Content-Type", "application/http; msgtype=response", "WARC-Warcinfo-ID", info,
			"WARC-Concurrent-To", reqID, "WARC-IP-Address", ip, "WARC-Target-URI", uri,
			"WARC-Payload-Digest", digest(payload), "WARC-Block-Digest", digest(block),
			"WARC-Identified-Payload-Type", "text/plain"}, block))

		member(record("metadata", []string{"WARC-Date", when, "WARC-Record-ID", id(),
			"Content-Type", "application/warc-fields", "WARC-Warcinfo-ID", info,
			"WARC-Concurrent-To", respID, "WARC-Target-URI", uri},
			[]byte(fmt.Sprintf("fetchTimeMs: %d\r\n", 20+rng.IntN(2000)))))
	}
	return out.Bytes()
}

// ccCaptures is how many captures the benchmark's WARC file holds.
const ccCaptures = 2000

// ccBenchData is the benchmark's WARC file, made once.
var ccBenchData = sync.OnceValue(func() []byte { return ccWARC(ccCaptures, 1) })

// BenchmarkReaderCC reads a generated Common Crawl shaped robots.txt WARC
// file (ccWARC) with a Reader and reports the time per capture, elapsed
// and of CPU.
func BenchmarkReaderCC(b *testing.B) {
	data := ccBenchData()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	n := 0
	cpu0, cpuOK := cpuTime()
	for b.Loop() {
		r := scan.NewReader("CC-MAIN-bench.warc.gz", bytes.NewReader(data))
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
	}
	if n%ccCaptures != 0 {
		b.Fatalf("read %d captures, not a multiple of %d", n, ccCaptures)
	}
	cpu1, _ := cpuTime()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/capture")
	if cpuOK {
		// CPU time, the garbage collector's included: on a machine shared
		// with other work, steadier than the time elapsed.
		b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(n), "cpu-ns/capture")
	}
}
