package lint

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/lint/internal/testenv"
	"github.com/robotskit/robots/syntax"
)

// The checker's benchmarks. Over a folder of real files:
//
//	go test ./lint -run '^$' -bench . -corpus /path/to/corpus/robots
//
// BenchmarkCorpus reports, per file of the folder, the time to parse and
// compile it (the matcher's cost), to check it (syntax.Parse and Run), and
// to fix it (Fix, whose proof compares the two files), with the ratio of
// check to compile and the slowest file of each. Without -corpus the
// benchmarks that need it are skipped; BenchmarkSmall and BenchmarkLarge
// use files made here.

// BenchmarkCorpus runs compile, check and fix over every file of the
// corpus once per iteration and reports the time per file, the
// allocations per file, and the slowest file.
func BenchmarkCorpus(b *testing.B) {
	names, srcs := testenv.Corpus(b)
	steps := []struct {
		name string
		do   func(src []byte)
	}{
		{"compile", func(src []byte) { robots.Compile(syntax.Parse("", src), robots.Google) }},
		{"check", func(src []byte) { Run(syntax.Parse("", src), nil) }},
		{"fix", func(src []byte) { Fix(src, nil) }},
	}
	for _, st := range steps {
		b.Run(st.name, func(b *testing.B) {
			b.ReportAllocs()
			took := make([]time.Duration, len(srcs)) // the slowest run of each file
			for b.Loop() {
				for i, src := range srcs {
					t0 := time.Now()
					st.do(src)
					took[i] = max(took[i], time.Since(t0))
				}
			}
			n := float64(b.N * len(srcs))
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/file")
			order := make([]int, len(srcs))
			for i := range order {
				order[i] = i
			}
			slices.SortFunc(order, func(x, y int) int { return int(took[y] - took[x]) })
			b.ReportMetric(float64(took[order[0]].Microseconds())/1000, "max-ms")
			for _, i := range order[:min(5, len(order))] {
				b.Logf("%s: %s (%d bytes) %v", st.name, names[i], len(srcs[i]), took[i])
			}
		})
	}
}

// small is a file of about 2 KB in the shape of a real site's: a few
// groups, wildcards, a Sitemap, comments and a misspelling.
func small() []byte {
	var sb strings.Builder
	sb.WriteString("# robots.txt for www.example.com\n\nUser-agent: *\n")
	for i := range 30 {
		fmt.Fprintf(&sb, "Disallow: /section%d/*?sort=\n", i)
	}
	sb.WriteString("Allow: /section1/public\nDisalow: /tmp/\nCrawl-delay: 5\n\n")
	sb.WriteString("User-agent: Googlebot\nUser-agent: bingbot\nDisallow: /search\nAllow: /search/about$\nDisallow: /*.pdf$\n\n")
	sb.WriteString("User-agent: GPTBot\nDisallow: /\n\nSitemap: https://www.example.com/sitemap.xml\n")
	for sb.Len() < 2000 {
		fmt.Fprintf(&sb, "# note %d\n", sb.Len())
	}
	return []byte(sb.String())
}

// large is a file of 2 MiB: one "*" group of many rules, then a group for
// Googlebot past the 500 KiB that Google reads.
func large() []byte {
	var sb strings.Builder
	sb.WriteString("User-agent: *\n")
	for i := 0; sb.Len() < 2<<20-64; i++ {
		fmt.Fprintf(&sb, "Disallow: /dir%d/sub%d/x.php\n", i%50, i)
	}
	sb.WriteString("\nUser-agent: Googlebot\nDisallow: /late-rule/\n")
	return []byte(sb.String())
}

func benchOne(b *testing.B, src []byte) {
	b.Run("compile", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			robots.Compile(syntax.Parse("", src), robots.Google)
		}
	})
	b.Run("check", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			Run(syntax.Parse("", src), nil)
		}
	})
	b.Run("fix", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			Fix(src, nil)
		}
	})
}

// benchFile names one file for BenchmarkFile:
//
//	go test ./lint -run '^$' -bench File -file PATH
var benchFile = flag.String("file", "", "a robots.txt file for BenchmarkFile")

// BenchmarkFile compiles, checks and fixes the -file file.
func BenchmarkFile(b *testing.B) {
	if *benchFile == "" {
		b.Skip("set -file PATH to run BenchmarkFile")
	}
	src, err := os.ReadFile(*benchFile)
	if err != nil {
		b.Fatal(err)
	}
	benchOne(b, src)
}

// BenchmarkSmall checks and fixes a 2 KB file.
func BenchmarkSmall(b *testing.B) { benchOne(b, small()) }

// BenchmarkLarge checks and fixes a 2 MiB file.
func BenchmarkLarge(b *testing.B) { benchOne(b, large()) }
