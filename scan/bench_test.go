package scan

import (
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// The benchmarks of Analyze. Over a folder of real files (one robots.txt
// per file, named after its host):
//
//	go test ./scan -run '^$' -bench Analyze -corpus /path/to/corpus/robots
//
// BenchmarkAnalyzeCorpus reports the time and allocations per file for
// the default robots (SelectRobots("")), without and with the checker,
// and the slowest file. Without -corpus it is skipped; BenchmarkAnalyze
// uses the files made here.
var corpus = func() *string {
	if f := flag.Lookup("corpus"); f != nil {
		s := f.Value.String()
		return &s
	}
	return flag.String("corpus", "", "folder of robots.txt files for BenchmarkAnalyzeCorpus")
}()

// benchBodies are small and middling robots.txt files of the common
// shapes: a "*" group, named AI groups, a long file of many groups.
func benchBodies() map[string]string {
	var long strings.Builder
	long.WriteString("User-agent: *\nDisallow: /cgi-bin/\nDisallow: /search\nAllow: /search/about\nCrawl-delay: 5\n\n")
	for _, t := range []string{"GPTBot", "ClaudeBot", "CCBot", "Google-Extended", "Bytespider", "PerplexityBot", "Amazonbot", "meta-externalagent"} {
		long.WriteString("User-agent: " + t + "\nDisallow: /\n\n")
	}
	for i := range 200 {
		long.WriteString("Disallow: /path/" + strings.Repeat("x", i%17) + "/*.php$\n")
	}
	long.WriteString("Sitemap: https://example.com/sitemap.xml\n")
	return map[string]string{
		"empty": "",
		"star":  "User-agent: *\nDisallow: /admin/\nDisallow: /tmp/\nSitemap: https://example.com/sitemap.xml\n",
		"ai": "User-agent: GPTBot\nUser-agent: ClaudeBot\nUser-agent: CCBot\nDisallow: /\n\n" +
			"User-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /private/\n",
		"long": long.String(),
		"html": "<!DOCTYPE html>\n<html><head><title>Not found</title></head><body>Oops</body></html>\n",
	}
}

// BenchmarkAnalyze runs Analyze for the default robots over the bodies
// of benchBodies.
func BenchmarkAnalyze(b *testing.B) {
	rbs, err := SelectRobots("")
	if err != nil {
		b.Fatal(err)
	}
	o := &Options{Robots: rbs}
	bodies := benchBodies()
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range bodies {
			if !yield(k) {
				return
			}
		}
	})
	for _, name := range names {
		body := []byte(bodies[name])
		c := &Capture{URL: "https://www.example.com/robots.txt", Status: 200, Body: body, Size: int64(len(body))}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Analyze(c, o)
			}
		})
	}
}

// BenchmarkAnalyzeCorpus runs Analyze over every file of -corpus once per
// iteration and reports the time and allocations per file.
func BenchmarkAnalyzeCorpus(b *testing.B) {
	if *corpus == "" {
		b.Skip("set -corpus DIR to run the corpus benchmark")
	}
	paths, err := filepath.Glob(filepath.Join(*corpus, "*"))
	if err != nil || len(paths) == 0 {
		b.Fatalf("no files in %s: %v", *corpus, err)
	}
	slices.Sort(paths)
	var caps []*Capture
	for _, p := range paths {
		body, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		if len(body) > MaxBody {
			body = body[:MaxBody]
		}
		caps = append(caps, &Capture{URL: "https://" + filepath.Base(p) + "/robots.txt", Status: 200, Body: body, Size: int64(len(body))})
	}
	rbs, err := SelectRobots("")
	if err != nil {
		b.Fatal(err)
	}
	for _, lint := range []bool{false, true} {
		name := "facts+verdicts"
		if lint {
			name = "with-lint"
		}
		o := &Options{Robots: rbs, Lint: lint}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			took := make([]time.Duration, len(caps))
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				for i, c := range caps {
					t0 := time.Now()
					Analyze(c, o)
					took[i] = max(took[i], time.Since(t0))
				}
			}
			runtime.ReadMemStats(&after)
			n := float64(b.N * len(caps))
			b.ReportMetric(float64(b.Elapsed().Microseconds())/n, "µs/file")
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/n, "allocs/file")
			slowest := 0
			for i := range took {
				if took[i] > took[slowest] {
					slowest = i
				}
			}
			b.Logf("%d files, %d robots; slowest %s (%d bytes): %v", len(caps), len(rbs), filepath.Base(paths[slowest]), len(caps[slowest].Body), took[slowest])
		})
	}
}
