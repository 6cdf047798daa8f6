package warc_test

import (
	"errors"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/robotskit/robots/internal/warc"
)

// Read the responses of a gzip WARC file, one record per member as Common
// Crawl writes its robots.txt captures (WARC/1.1 annex A), and go on past
// a record that cannot be read.
func ExampleReader() {
	f, err := os.Open("testdata/robots.warc.gz")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	r := warc.NewReader(f)
	r.SetBlockLimit(600 << 10) // headers and a 500 KiB body
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		var we *warc.Error
		if errors.As(err, &we) {
			log.Printf("record at offset %d: %v", we.Offset, we.Err)
			continue
		}
		if rec.Type != "response" {
			continue
		}
		resp, err := rec.Response(500 << 10)
		if err != nil {
			continue
		}
		fmt.Printf("%d %s %d %q\n", rec.Offset, rec.Header.Get("WARC-Target-URI"), resp.StatusCode, resp.Body)
	}
	// Output:
	// 481 https://example.com/robots.txt 200 "User-agent: *\nDisallow: /private/\n\nSitemap: https://example.com/sitemap.xml\n"
	// 1273 https://decoded.example/robots.txt 200 "User-agent: *\nAllow: /\n"
	// 2071 https://coded.example/robots.txt 200 "User-agent: GPTBot\nDisallow: /\n"
	// 2950 https://moved.example/robots.txt 301 ""
	// 3716 https://missing.example/robots.txt 404 "<html>not found</html>"
}
