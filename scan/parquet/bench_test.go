package parquet

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	pq "github.com/parquet-go/parquet-go"

	"github.com/robotskit/robots/scan"
)

// benchRows returns n rows as a scan with the default robots gives them
// (scan.SelectRobots(""): a verdict per robot, about ninety a row): mostly
// robots.txt files of the common shapes, with hosts, paths and AI groups
// drawn at random so that the columns do not compress to nothing, and
// some HTML pages, 404s and redirects.
func benchRows(tb testing.TB, n int) []scan.Row {
	tb.Helper()
	rbs, err := scan.SelectRobots("")
	if err != nil {
		tb.Fatal(err)
	}
	o := &scan.Options{Robots: rbs}
	rnd := rand.New(rand.NewPCG(1, 2))
	ai := []string{"GPTBot", "ClaudeBot", "CCBot", "Google-Extended", "Bytespider", "PerplexityBot", "Amazonbot", "meta-externalagent", "anthropic-ai", "Applebot-Extended"}
	words := []string{"admin", "search", "cart", "checkout", "tmp", "cgi-bin", "private", "api", "login", "wp-admin", "account", "images"}
	rows := make([]scan.Row, 0, n)
	for i := range n {
		c := scan.Capture{URL: fmt.Sprintf("https://www.site%d.example/robots.txt", rnd.IntN(1<<30)), Status: 200}
		var b strings.Builder
		switch k := rnd.IntN(20); {
		case k == 0:
			c.Status = 404
		case k == 1:
			c.Status = 301
			c.Header = map[string][]string{"Location": {"https://other.example/robots.txt"}}
		case k == 2:
			b.WriteString("<!DOCTYPE html>\n<html><head><title>Not found</title></head><body>Oops</body></html>\n")
		default:
			for range rnd.IntN(4) {
				b.WriteString("User-agent: " + ai[rnd.IntN(len(ai))] + "\n")
			}
			if b.Len() > 0 {
				b.WriteString("Disallow: /\n\n")
			}
			b.WriteString("User-agent: *\n")
			for range 1 + rnd.IntN(12) {
				fmt.Fprintf(&b, "Disallow: /%s/%d\n", words[rnd.IntN(len(words))], rnd.IntN(100))
			}
			if rnd.IntN(3) == 0 {
				b.WriteString("Allow: /" + words[rnd.IntN(len(words))] + "/\nCrawl-delay: 10\n")
			}
			if rnd.IntN(2) == 0 {
				fmt.Fprintf(&b, "Sitemap: https://www.site%d.example/sitemap.xml\n", i)
			}
		}
		c.Body = []byte(b.String())
		c.Size = int64(len(c.Body))
		rows = append(rows, scan.Analyze(&c, o))
	}
	return rows
}

// benchFile is the number of rows of the file each benchmark writes.
const benchFile = 4096

// benchWrite writes the rows of benchRows as one file with write, and
// reports the time and the file's size per row, and the verdicts a row
// holds.
func benchWrite(b *testing.B, write func(w *bytes.Buffer, rows []scan.Row) error) {
	rows := benchRows(b, benchFile)
	verdicts := 0
	for i := range rows {
		verdicts += len(rows[i].Robots)
	}
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := write(&buf, rows); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchFile), "ns/row")
	b.ReportMetric(float64(buf.Len())/benchFile, "B/row")
	b.ReportMetric(float64(verdicts)/benchFile, "verdicts/row")
}

// BenchmarkWriter writes a file of realistic rows (benchRows) with a
// Writer:
//
//	go test ./scan/parquet -run '^$' -bench Writer
func BenchmarkWriter(b *testing.B) {
	benchWrite(b, func(buf *bytes.Buffer, rows []scan.Row) error {
		w := NewWriter(buf)
		for i := range rows {
			if err := w.Write(&rows[i]); err != nil {
				return err
			}
		}
		return w.Close()
	})
}

// BenchmarkGenericWriter writes the same rows as BenchmarkWriter as this
// package wrote them before: parquet-go's writer of scan.Row itself, a
// row at a time, with the default encodings and statistics of every
// column. It is the reference of BenchmarkWriter's figures.
func BenchmarkGenericWriter(b *testing.B) {
	benchWrite(b, func(buf *bytes.Buffer, rows []scan.Row) error {
		w := pq.NewGenericWriter[scan.Row](buf, pq.Compression(&pq.Zstd), pq.MaxRowsPerRowGroup(RowGroupSize))
		for i := range rows {
			if _, err := w.Write(rows[i : i+1]); err != nil {
				return err
			}
		}
		return w.Close()
	})
}
