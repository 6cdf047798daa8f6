package scan_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/robotskit/robots/internal/warcgen"
	"github.com/robotskit/robots/scan"
	"github.com/robotskit/robots/scan/parquet"
)

// BenchmarkScan is `robots scan -j 2` over a generated Common-Crawl-shaped
// WARC.gz (internal/warcgen: request, response and metadata records per
// capture, each its own gzip member), with the default robots, in JSON
// lines to nowhere and in Parquet parts to a temporary directory:
//
//	go test ./scan -run '^$' -bench Scan -benchtime 1x [-corpus DIR] [-captures N]
//
// It reports captures per second of wall time and per CPU-second of the
// process (user + system). With -corpus, the response bodies are the
// folder's robots.txt files in rotation, as a crawl repeats them (every
// capture has its own host); without it, a few small files.
func BenchmarkScan(b *testing.B) {
	path := scaleInput(b)
	rbs, err := scan.SelectRobots("")
	if err != nil {
		b.Fatal(err)
	}
	for _, format := range []string{scan.FormatJSONL, parquet.Format} {
		b.Run(format, func(b *testing.B) {
			var captures int64
			var cpu time.Duration
			for b.Loop() {
				job := &scan.Job{Inputs: []string{path}, Workers: 2, Options: &scan.Options{Robots: rbs}}
				if format == parquet.Format {
					job.Format, job.NewWriter, job.OutDir = parquet.Format, parquet.NewRowWriter, b.TempDir()
				}
				c0, _ := cpuTime()
				res, err := scan.Run(context.Background(), job)
				c1, _ := cpuTime()
				cpu += c1 - c0
				if err != nil || res.Failed > 0 {
					b.Fatalf("%v, %d failed", err, res.Failed)
				}
				captures += res.Captures
			}
			b.ReportMetric(float64(captures)/b.Elapsed().Seconds(), "captures/s")
			b.ReportMetric(float64(captures)/cpu.Seconds(), "captures/CPU-s")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// -captures sets the size of BenchmarkScan's input.
var scaleCaptures = flag.Int("captures", 100_000, "captures in BenchmarkScan's generated WARC")

// -warc gives BenchmarkScan a file to read instead of one it writes.
var scaleWARC = flag.String("warc", "", "a WARC file for BenchmarkScan to read instead of the one it generates")

// scaleInput writes BenchmarkScan's input in a temporary directory.
func scaleInput(b *testing.B) string {
	if *scaleWARC != "" {
		return *scaleWARC
	}
	o := warcgen.Options{Captures: *scaleCaptures, Seed: 1}
	if dir := flag.Lookup("corpus").Value.String(); dir != "" {
		var err error
		if o.Bodies, o.Hosts, err = warcgen.ReadDir(dir, 0); err != nil {
			b.Fatal(err)
		}
	}
	path := filepath.Join(b.TempDir(), fmt.Sprintf("cc-%d.warc.gz", o.Captures))
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := warcgen.Write(f, o); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}
