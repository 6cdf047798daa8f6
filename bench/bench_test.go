package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// corpusFlag names the corpus folder for the benchmarks, e.g.
//
//	go test -bench . -corpus DIR
var corpusFlag = flag.String("corpus", "", "corpus folder for benchmarks (robots/<host> and urls.tsv)")

var (
	benchOnce   sync.Once
	benchCorpus *corpus
	benchErr    error
)

// loadBenchCorpus loads the -corpus folder once, skipping b when it is unset.
func loadBenchCorpus(b *testing.B) *corpus {
	b.Helper()
	if *corpusFlag == "" {
		b.Skip("set -corpus DIR to run the benchmarks")
	}
	benchOnce.Do(func() { benchCorpus, benchErr = loadCorpus(*corpusFlag) })
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchCorpus
}

// BenchmarkParse parses the whole corpus per operation.
func BenchmarkParse(b *testing.B) {
	c := loadBenchCorpus(b)
	for _, e := range engines {
		b.Run(e.name, func(b *testing.B) {
			b.SetBytes(c.bytes)
			b.ReportAllocs()
			for b.Loop() {
				e.parse(c)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(c.hosts)), "ns/file")
		})
	}
}

// BenchmarkCheck does one check on pre-parsed rules per operation, cycling
// through the queries (1 in 17 for grobotstxt, which re-parses per check).
func BenchmarkCheck(b *testing.B) {
	c := loadBenchCorpus(b)
	cfg := defaultConfig()
	for _, e := range engines {
		stride := 1
		if e.name == nameGrobots {
			stride = cfg.grobStride
		}
		ch := e.prepare(c, stride)
		for _, agent := range []string{cfg.agent, cfg.rareAgent} {
			b.Run(e.name+"/"+agent, func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					ch.at(i, agent)
					if i++; i == ch.len() {
						i = 0
					}
				}
			})
		}
	}
}

// BenchmarkOneshot parses each file and checks its first URL, the whole
// corpus per operation.
func BenchmarkOneshot(b *testing.B) {
	c := loadBenchCorpus(b)
	agent := defaultConfig().agent
	for _, e := range engines {
		b.Run(e.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				e.oneshot(c, agent)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(c.hosts)), "ns/file")
		})
	}
}

// TestSmoke runs the harness end to end on a tiny corpus.
func TestSmoke(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.example": "User-agent: *\nDisallow: /private\n",
		"b.example": "User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
		"c.example": "User-agent: *\r\nDisallow: /tmp/\r\nAllow: /tmp/ok\r\n",
	}
	if err := os.Mkdir(filepath.Join(dir, "robots"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, "robots", name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Each URL with its expected verdict for Googlebot and for a rare agent.
	cases := []struct {
		url              string
		googlebot, other bool
	}{
		{"https://a.example/", true, true},
		{"https://a.example/private/x?y=1", false, false},
		{"https://a.example/public.html", true, true},
		{"https://b.example/", false, true},
		{"https://b.example/x/y", false, true},
		{"https://c.example/tmp/x", false, false},
		{"https://c.example/tmp/ok.html", true, true},
		{"https://c.example/index.html#tmp", true, true},
	}
	var tsv strings.Builder
	for _, tc := range cases {
		h := strings.TrimPrefix(tc.url, "https://")
		h, _, _ = strings.Cut(h, "/")
		tsv.WriteString(h + "\t" + tc.url + "\n")
	}
	tsv.WriteString("unknown.example\thttps://unknown.example/\n")
	if err := os.WriteFile(filepath.Join(dir, "urls.tsv"), []byte(tsv.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	if _, err := loadCorpus(filepath.Join(dir, "missing")); err == nil {
		t.Error("loadCorpus of a missing folder: no error")
	}
	var stderr bytes.Buffer
	if err := run([]string{"-corpus", filepath.Join(dir, "missing")}, new(bytes.Buffer), &stderr); err == nil {
		t.Error("run with a missing corpus folder: no error")
	}
	c, err := loadCorpus(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.hosts) != 3 || len(c.queries) != len(cases) || c.unknownURLs != 1 {
		t.Fatalf("corpus: %d hosts, %d queries, %d unknown; want 3, %d, 1",
			len(c.hosts), len(c.queries), c.unknownURLs, len(cases))
	}

	cfg := defaultConfig()
	for _, e := range engines {
		ch := e.prepare(c, 1)
		for i, tc := range cases {
			for _, v := range []struct {
				agent string
				want  bool
			}{{cfg.agent, tc.googlebot}, {cfg.rareAgent, tc.other}} {
				got, ok := ch.at(i, v.agent)
				if !ok || got != v.want {
					t.Errorf("%s: %s %s: allowed=%v ok=%v, want %v", e.name, v.agent, tc.url, got, ok, v.want)
				}
			}
		}
	}

	cfg.rounds, cfg.minSample, cfg.grobStride = 2, 0, 2
	res, err := measure(c, engines, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{formatText, formatMarkdown} {
		var out bytes.Buffer
		if err := writeTable(&out, res, format); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{
			rowParseMB, rowParseFiles, rowCheck, rowCheckRare, rowOneshot,
			rowAllocs, rowAllocBytes, rowRetained, rowAllowed,
			nameRobots, nameTemoto, nameGrobots, "robots/temoto", "grobotstxt/temoto",
		} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s table lacks %q:\n%s", format, want, out.String())
			}
		}
	}
	if err := writeTable(new(bytes.Buffer), res, "html"); err == nil {
		t.Error("writeTable with an unknown format: no error")
	}

	for in, want := range map[string]string{
		"https://h/a/b?c=d#e": "/a/b?c=d",
		"https://h":           "/",
		"https://h?q":         "/?q",
		"https://h#f":         "/",
		"http://h:80/x":       "/x",
	} {
		if got := requestPath(in); got != want {
			t.Errorf("requestPath(%q) = %q, want %q", in, got, want)
		}
	}
}
