package scanbeam

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	pq "github.com/parquet-go/parquet-go"

	"github.com/robotskit/robots/scan"
	"github.com/robotskit/robots/scan/parquet"
)

// TestMain lets the pipelines run on prism in-process, the SDK's default
// test runner (https://beam.apache.org/documentation/runners/prism/), and
// this binary serve as their worker. Started by TestScale as its child,
// the binary runs one scan instead of the tests (scale_test.go).
func TestMain(m *testing.M) {
	if job := os.Getenv(scaleChildEnv); job != "" {
		os.Exit(scaleChild(job))
	}
	ptest.Main(m)
}

// warcRecord lays out one WARC record as WARC/1.1 §4 and annex C show it
// (https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/).
func warcRecord(typ, uri, contentType, block string, id int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "WARC/1.0\r\nWARC-Type: %s\r\n", typ)
	fmt.Fprintf(&b, "WARC-Date: 2024-12-0%dT08:00:00Z\r\n", 1+id%9)
	fmt.Fprintf(&b, "WARC-Record-ID: <urn:uuid:5b0c1e2a-0000-4000-8000-%012d>\r\n", id)
	fmt.Fprintf(&b, "WARC-Target-URI: %s\r\nContent-Type: %s\r\n", uri, contentType)
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s\r\n\r\n", len(block), block)
	return b.Bytes()
}

// member compresses one record as its own gzip member, as Common Crawl
// writes its WARC files (WARC/1.1 annex D.2).
func member(t *testing.T, p []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write(p); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// capture returns the request, response and metadata records of one
// robots.txt fetch, each its own gzip member.
func capture(t *testing.T, host string, id int, response string) []byte {
	uri := "https://" + host + "/robots.txt"
	var out []byte
	out = append(out, member(t, warcRecord("request", uri, "application/http; msgtype=request",
		"GET /robots.txt HTTP/1.1\r\nHost: "+host+"\r\nUser-Agent: CCBot/2.0\r\n\r\n", id))...)
	out = append(out, member(t, warcRecord("response", uri, "application/http; msgtype=response", response, id+1))...)
	out = append(out, member(t, warcRecord("metadata", uri, "application/warc-fields", "fetchTimeMs: 42\r\n", id+2))...)
	return out
}

// httpResponse is an HTTP/1.1 response message (RFC 9112 §2.1).
func httpResponse(status, contentType, body string) string {
	return fmt.Sprintf("HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s", status, contentType, len(body), body)
}

// writeCrawl writes the test's inputs into dir and returns the glob that
// matches them and the paths of its regular files: two WARC.gz files (a
// 200 that blocks GPTBot, a 404, a 503, a partly blocking file, an HTML
// page served with a 200, a record whose gzip member is corrupt, a record
// with a malformed header) and a directory whose name the glob matches,
// which opens but cannot be read.
func writeCrawl(t *testing.T, dir string) (pattern string, files []string) {
	t.Helper()
	var a []byte
	a = append(a, capture(t, "blocks-gptbot.example", 10,
		httpResponse("200 OK", "text/plain", "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\nSitemap: https://blocks-gptbot.example/sitemap.xml\n"))...)
	a = append(a, capture(t, "missing.example", 20,
		httpResponse("404 Not Found", "text/html", "<!DOCTYPE html><html><body>not here</body></html>"))...)
	corrupt := member(t, warcRecord("response", "https://corrupt.example/robots.txt", "application/http; msgtype=response",
		httpResponse("200 OK", "text/plain", "User-agent: *\nDisallow: /\n"), 30))
	corrupt[len(corrupt)/2] ^= 0xff
	a = append(a, corrupt...)
	a = append(a, capture(t, "partly.example", 40,
		httpResponse("200 OK", "text/plain", "User-agent: *\nDisallow: /cgi-bin/\nCrawl-delay: 5\n"))...)

	var b []byte
	b = append(b, capture(t, "down.example", 50, httpResponse("503 Service Unavailable", "text/plain", "later"))...)
	b = append(b, member(t, []byte("WARC/1.0\r\nWARC-Type: response\r\nContent-Length: many\r\n\r\n\r\n\r\n"))...)
	b = append(b, capture(t, "soft404.example", 60,
		httpResponse("200 OK", "text/html; charset=utf-8", "<html><head><title>Oops</title></head><body>Page not found</body></html>"))...)

	for _, f := range []struct {
		name string
		data []byte
	}{{"CC-00000.warc.gz", a}, {"CC-00001.warc.gz", b}} {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	if err := os.Mkdir(filepath.Join(dir, "CC-00002.warc.gz"), 0o755); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "CC-*.warc.gz"), files
}

// cliRun runs the engine of `robots scan -out DIR -format FORMAT`,
// scan.Run, over files into dir, and returns its result.
func cliRun(t *testing.T, files []string, dir, format string, o *scan.Options) *scan.Result {
	t.Helper()
	job := &scan.Job{Inputs: files, OutDir: dir, Format: format, Options: o}
	if format == FormatParquet {
		job.NewWriter = parquet.NewRowWriter
	}
	res, err := scan.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// readManifest returns the inputs that a manifest lists, sorted, without
// their times: the pipeline's lines, one scan.ManifestEntry each, or the
// lines of `robots scan -out`, which may list the inputs of a part
// together ("inputs").
func readManifest(t *testing.T, path string) []scan.ManifestEntry {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []scan.ManifestEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			scan.ManifestEntry
			Inputs []scan.ManifestEntry `json:"inputs"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if line.Inputs == nil {
			line.Inputs = []scan.ManifestEntry{line.ManifestEntry}
		}
		for _, e := range line.Inputs {
			e.Seconds = 0
			out = append(out, e)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(out, func(a, b scan.ManifestEntry) int { return strings.Compare(a.Input, b.Input) })
	return out
}

// partNames returns the names of the parts in dir, and fails on any file
// but a part, the manifest and (with summaries) the parts' summaries.
func partNames(t *testing.T, dir, format string, summaries bool) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		switch n := e.Name(); {
		case n == scan.ManifestName, summaries && strings.HasSuffix(n, ".summary.json"):
		case strings.HasPrefix(n, "part-") && strings.HasSuffix(n, "."+format):
			names = append(names, n)
		default:
			t.Errorf("%s: unexpected %s", dir, n)
		}
	}
	return names
}

// rowDigests returns a digest of each row of the parts, sorted: the
// SHA-256 of a JSON line, or of a Parquet row's values with their column
// and Dremel levels, read by parquet-go, which also checks that each part
// is a whole Parquet file (its footer written).
func rowDigests(t *testing.T, dir string, names []string, format string) []string {
	t.Helper()
	var out []string
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		if format == FormatJSONL {
			for l := range strings.SplitSeq(strings.TrimSuffix(string(b), "\n"), "\n") {
				if l != "" {
					sum := sha256.Sum256([]byte(l))
					out = append(out, hex.EncodeToString(sum[:]))
				}
			}
			continue
		}
		f, err := pq.OpenFile(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		rd := pq.NewReader(f)
		rows := make([]pq.Row, 256)
		var enc []byte
		for {
			k, err := rd.ReadRows(rows)
			for _, row := range rows[:k] {
				enc = enc[:0]
				for _, v := range row {
					enc = binary.AppendUvarint(enc, uint64(v.Column()))
					enc = append(enc, byte(v.RepetitionLevel()), byte(v.DefinitionLevel()), byte(v.Kind()))
					if v.IsNull() {
						enc = append(enc, 0)
						continue
					}
					b := v.Bytes()
					enc = binary.AppendUvarint(append(enc, 1), uint64(len(b)))
					enc = append(enc, b...)
				}
				sum := sha256.Sum256(enc)
				out = append(out, hex.EncodeToString(sum[:]))
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", n, err)
			}
		}
		rd.Close()
	}
	slices.Sort(out)
	return out
}

// sameOutput checks that the folder got, written by the pipeline, holds
// the rows that the folder want, written by scan.Run (`robots scan
// -out`), holds: one part per input, named as PartPath names it, whose
// rows, put together, are robots scan's as a multiset; a part of the same
// name in both, byte for byte the same; and the same inputs in the
// manifests, with the same counts. It returns the pipeline's parts.
func sameOutput(t *testing.T, got, want, format string) []string {
	t.Helper()
	names := partNames(t, got, format, false)
	wantNames := partNames(t, want, format, true)
	manifest := readManifest(t, filepath.Join(got, scan.ManifestName))
	wantManifest := readManifest(t, filepath.Join(want, scan.ManifestName))
	var partsOf []string
	for i, e := range manifest {
		if e.Part != scan.PartName(e.Input, format) {
			t.Errorf("the part of %s is %s, want %s", e.Input, e.Part, scan.PartName(e.Input, format))
		}
		partsOf = append(partsOf, e.Part)
		if i < len(wantManifest) {
			w := wantManifest[i]
			w.Part = e.Part // robots scan may put several inputs in a part
			if e != w {
				t.Errorf("manifest line %+v, want %+v", e, w)
			}
		}
	}
	if len(manifest) != len(wantManifest) {
		t.Errorf("the manifest lists %d inputs, want %d", len(manifest), len(wantManifest))
	}
	slices.Sort(partsOf)
	if !slices.Equal(names, partsOf) {
		t.Errorf("parts %q, the manifest lists %q", names, partsOf)
	}
	if g, w := rowDigests(t, got, names, format), rowDigests(t, want, wantNames, format); !slices.Equal(g, w) {
		t.Errorf("the %d rows of the parts differ from the %d of robots scan -out's", len(g), len(w))
	}
	for _, n := range names {
		if !slices.Contains(wantNames, n) {
			continue
		}
		g, err := os.ReadFile(filepath.Join(got, n))
		if err != nil {
			t.Fatal(err)
		}
		w, err := os.ReadFile(filepath.Join(want, n))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(g, w) {
			t.Errorf("part %s: its %d bytes differ from the %d of robots scan -out's", n, len(g), len(w))
		}
	}
	return names
}

// readSummaryFile reads a summary's JSON file and returns it in the
// canonical form of Summary.WriteJSON.
func readSummaryFile(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := scan.ReadSummary(f)
	if err != nil {
		t.Fatal(err)
	}
	return summaryJSON(t, s)
}

func summaryJSON(t *testing.T, s *scan.Summary) string {
	t.Helper()
	var b bytes.Buffer
	if err := s.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func counters(res beam.PipelineResult) map[string]int64 {
	out := map[string]int64{}
	if res == nil {
		return out
	}
	for _, c := range res.Metrics().AllMetrics().Counters() {
		if c.Namespace() == Namespace {
			out[c.Name()] += c.Result()
		}
	}
	return out
}

// TestPipeline runs the whole pipeline on prism over a small crawl, in
// each format, and checks that it writes the parts, the manifest and the
// summary that scan.Run (`robots scan -out`) writes for the same files,
// with the unreadable records and the unreadable file counted rather
// than failing the run.
func TestPipeline(t *testing.T) {
	for _, format := range []string{FormatParquet, FormatJSONL} {
		t.Run(format, func(t *testing.T) { testPipeline(t, format) })
	}
}

func testPipeline(t *testing.T, format string) {
	dir := t.TempDir()
	pattern, files := writeCrawl(t, dir)
	opt := Options{Robots: "GPTBot,Googlebot,CCBot", Lint: true,
		Output: filepath.Join(dir, "beam", "rows"), Format: format}
	robots, err := scan.SelectRobots(opt.Robots)
	if err != nil {
		t.Fatal(err)
	}
	cliDir := filepath.Join(dir, "cli")
	cli := cliRun(t, files, cliDir, format, &scan.Options{Robots: robots, Lint: true})
	if cli.Captures != 5 || cli.Summary.Captures != 5 {
		t.Fatalf("robots scan read %d captures, %d rows; want 5", cli.Captures, cli.Summary.Captures)
	}

	p, s := beam.NewPipelineWithRoot()
	_, sum, err := Build(s, pattern, opt)
	if err != nil {
		t.Fatal(err)
	}
	sumPath := filepath.Join(dir, "beam", "summary.json")
	if err := WriteSummary(s, sumPath, sum); err != nil {
		t.Fatal(err)
	}
	mdPath := filepath.Join(dir, "beam", "report.md")
	if err := WriteSummary(s, mdPath, sum); err != nil {
		t.Fatal(err)
	}
	res, err := ptest.RunWithMetrics(p)
	if err != nil {
		t.Fatalf("pipeline failed: %v", err)
	}

	names := sameOutput(t, opt.Output, cliDir, format)
	if len(names) != 2 {
		t.Errorf("parts %q, want one per WARC file", names)
	}
	for i, f := range files {
		if want := PartPath(opt.Output, f, format); !slices.Contains(names, filepath.Base(want)) {
			t.Errorf("no part %s for input %d", want, i)
		}
	}
	if g, w := readSummaryFile(t, sumPath), summaryJSON(t, cli.Summary); g != w {
		t.Errorf("summary differs from robots scan's:\ngot  %s\nwant %s", g, w)
	}
	if b, err := os.ReadFile(mdPath); err != nil || !bytes.HasPrefix(b, []byte("#")) {
		t.Errorf("Markdown report: %v %.40q", err, b)
	}

	// Two bad records, and the directory, which cannot be read and has
	// no part.
	want := map[string]int64{CounterFiles: 3, CounterCaptures: 5, CounterParts: 2, CounterReadErrors: 3}
	if c := counters(res); c[CounterFiles] != want[CounterFiles] || c[CounterCaptures] != want[CounterCaptures] ||
		c[CounterParts] != want[CounterParts] || c[CounterReadErrors] != want[CounterReadErrors] ||
		c[CounterOpenErrors] != 0 || c[CounterEncodeErrors] != 0 {
		t.Errorf("counters %v, want %v", c, want)
	}

	if n := len(rowDigests(t, opt.Output, names, format)); n != 5 {
		t.Fatalf("%d rows in the parts, want 5", n)
	}
	if format != FormatJSONL {
		return
	}
	rows := readJSONL(t, opt.Output, names)
	// The facts themselves: GPTBot is blocked where a group names it,
	// and the 404 leaves every robot free (RFC 9309 §2.3.1.3).
	byHost := map[string]scan.Row{}
	for _, r := range rows {
		byHost[r.Host] = r
	}
	verdict := func(host, robot string) scan.Verdict {
		for _, v := range byHost[host].Robots {
			if v.Robot == robot {
				return v
			}
		}
		return scan.Verdict{}
	}
	for _, c := range []struct {
		host, robot, state, via string
	}{
		{"blocks-gptbot.example", "GPTBot", "blocked", "named"},
		{"blocks-gptbot.example", "CCBot", "open", "star"},
		{"missing.example", "GPTBot", "open", "none"},
		{"partly.example", "Googlebot", "partly", "star"},
	} {
		if v := verdict(c.host, c.robot); v.State != c.state || v.Via != c.via {
			t.Errorf("%s, %s: %+v, want state %s via %s", c.host, c.robot, v, c.state, c.via)
		}
	}
	if r := byHost["blocks-gptbot.example"]; r.Source != files[0] || r.Status != 200 || r.Sitemaps != 1 {
		t.Errorf("row of blocks-gptbot.example: %+v", r)
	}
}

// readJSONL returns the rows of JSON Lines parts.
func readJSONL(t *testing.T, dir string, names []string) []scan.Row {
	t.Helper()
	var rows []scan.Row
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		for l := range strings.SplitSeq(strings.TrimSuffix(string(b), "\n"), "\n") {
			if l == "" {
				continue
			}
			var r scan.Row
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatalf("%s: %v", n, err)
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// TestPipelineEmpty: a glob that matches nothing gives no part, an empty
// manifest and an empty summary, written all the same.
func TestPipelineEmpty(t *testing.T) {
	dir := t.TempDir()
	p, s := beam.NewPipelineWithRoot()
	out := filepath.Join(dir, "rows")
	parts, sum, err := Build(s, filepath.Join(dir, "*.warc.gz"), Options{Output: out})
	if err != nil {
		t.Fatal(err)
	}
	beam.ParDo0(s, func(e scan.ManifestEntry) error { return fmt.Errorf("a part from no input: %+v", e) }, parts)
	sumPath := filepath.Join(dir, "summary.json")
	if err := WriteSummary(s, sumPath, sum); err != nil {
		t.Fatal(err)
	}
	if _, err := ptest.RunWithMetrics(p); err != nil {
		t.Fatalf("pipeline failed: %v", err)
	}
	ents, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 1 || ents[0].Name() != scan.ManifestName {
		t.Errorf("the output holds %v, want the manifest alone", ents)
	}
	if b, err := os.ReadFile(ManifestPath(out)); err != nil || len(b) != 0 {
		t.Errorf("manifest %q, %v; want it empty", b, err)
	}
	if g, w := readSummaryFile(t, sumPath), summaryJSON(t, &scan.Summary{}); g != w {
		t.Errorf("summary %s, want %s", g, w)
	}
}

// TestBuildErrors: a bad argument is an error at construction, never a
// panic.
func TestBuildErrors(t *testing.T) {
	for _, c := range []struct {
		name, pattern string
		opt           Options
		want          string
	}{
		{"empty pattern", " ", Options{}, "empty input pattern"},
		{"unknown robot", "/tmp/*.warc.gz", Options{Robots: "GPTBott"}, "GPTBott"},
		{"negative lint work", "/tmp/*.warc.gz", Options{LintWork: -1}, "negative lint work"},
		{"unknown input file system", "hdfs://cluster/crawl/*.warc.gz", Options{}, `"hdfs"`},
		{"unknown output file system", "/tmp/*.warc.gz", Options{Output: "hdfs://cluster/rows"}, `"hdfs"`},
		{"blank output", "/tmp/*.warc.gz", Options{Output: " "}, "blank output folder"},
		{"unknown format", "/tmp/*.warc.gz", Options{Format: "csv"}, `unknown format "csv"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, s := beam.NewPipelineWithRoot()
			_, _, err := Build(s, c.pattern, c.opt)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Build(%q, %+v) = %v, want an error with %q", c.pattern, c.opt, err, c.want)
			}
		})
	}
	_, s := beam.NewPipelineWithRoot()
	if _, _, err := Build(s, "/tmp/*.warc.gz", Options{Format: "JSONL", Output: "/tmp/rows"}); err != nil {
		t.Errorf("Build with format JSONL: %v", err)
	}
}

// TestWriteSummaryErrors: WriteSummary checks its arguments.
func TestWriteSummaryErrors(t *testing.T) {
	_, s := beam.NewPipelineWithRoot()
	_, sum, err := Build(s, "/tmp/none-*.warc.gz", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path, want string
	}{
		{"empty summary path", "", "empty summary path"},
		{"unknown report format", "/tmp/out/summary.txt", ".txt"},
		{"unknown file system", "hdfs://cluster/summary.json", `"hdfs"`},
	} {
		if err := WriteSummary(s, c.path, sum); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}

// TestPartPath pins the names of the parts and of the manifest: those of
// `robots scan -out` for the same input strings.
func TestPartPath(t *testing.T) {
	for _, c := range []struct {
		output, input, format, want string
	}{
		{"out/rows", "abc", "parquet", "out/rows/part-ba7816bf8f01cfea.parquet"},
		{"gs://b/cc/rows/", "abc", "jsonl", "gs://b/cc/rows/part-ba7816bf8f01cfea.jsonl"},
		{"s3://b/rows", "s3://commoncrawl/x.warc.gz", "PARQUET", "s3://b/rows/" + scan.PartName("s3://commoncrawl/x.warc.gz", "parquet")},
	} {
		if got := PartPath(c.output, c.input, c.format); got != c.want {
			t.Errorf("PartPath(%q, %q, %q) = %q, want %q", c.output, c.input, c.format, got, c.want)
		}
	}
	if got := ManifestPath("gs://b/rows"); got != "gs://b/rows/_manifest.jsonl" {
		t.Errorf("ManifestPath = %q", got)
	}
}

// TestSummaryFn: the CombineFn's result does not depend on how the files'
// summaries are split among accumulators, and a summary survives its
// coder.
func TestSummaryFn(t *testing.T) {
	dir := t.TempDir()
	_, files := writeCrawl(t, dir)
	robots, _ := scan.SelectRobots("ai")
	o := &scan.Options{Robots: robots}
	want := cliRun(t, files, filepath.Join(dir, "cli"), FormatJSONL, o).Summary
	// One summary per row: the finest split there is.
	var ones []scan.Summary
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, "cli", scan.PartName(f, FormatJSONL)))
		if err != nil {
			t.Fatal(err)
		}
		for l := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
			var r scan.Row
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatal(err)
			}
			var one scan.Summary
			one.Add(&r)
			ones = append(ones, one)
		}
	}
	var fn summaryFn
	for split := range len(ones) + 1 {
		var a, b scan.Summary
		for i, one := range ones {
			if i < split {
				a = fn.MergeAccumulators(a, one)
			} else {
				b = fn.MergeAccumulators(b, one)
			}
		}
		enc, err := encodeSummary(b)
		if err != nil {
			t.Fatal(err)
		}
		if b, err = decodeSummary(enc); err != nil {
			t.Fatal(err)
		}
		got := fn.MergeAccumulators(a, b)
		if g, w := summaryJSON(t, &got), summaryJSON(t, want); g != w {
			t.Errorf("split at %d: %s\nwant %s", split, g, w)
		}
	}
	if _, err := decodeSummary([]byte(`{"version":1,"captures":-1}`)); err == nil {
		t.Error("decodeSummary accepted a negative count")
	}
	e := scan.ManifestEntry{Input: "gs://b/x.warc.gz", Part: "part-0.parquet", Captures: 3, Rows: 2, Errors: 1, Bytes: 99, Seconds: 0.5}
	enc, err := encodeEntry(e)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := decodeEntry(enc); err != nil || got != e {
		t.Errorf("manifest line %+v, %v after its coder; want %+v", got, err, e)
	}
}

// TestScanFileFnErrors: a file that cannot be opened gives no part and no
// panic, and the pipeline goes on; a part that cannot be written fails
// the bundle, so that the runner retries it, and leaves nothing behind.
func TestScanFileFnErrors(t *testing.T) {
	dir := t.TempDir()
	emitPart := func(e scan.ManifestEntry) { t.Errorf("part %+v", e) }
	emitSum := func(s scan.Summary) { t.Errorf("summary %+v", s) }

	fn := &scanFileFn{Robots: "GPTBot", Output: filepath.Join(dir, "rows"), Format: FormatParquet}
	f := fileio.ReadableFile{Metadata: fileio.FileMetadata{Path: filepath.Join(dir, "gone.warc.gz")}}
	if err := fn.ProcessElement(context.Background(), f, emitPart, emitSum); err != nil {
		t.Errorf("a missing file: %v, want it counted", err)
	}
	if _, err := os.Stat(fn.Output); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file made the output folder: %v", err)
	}

	_, files := writeCrawl(t, dir)
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	fn = &scanFileFn{Robots: "GPTBot", Output: filepath.Join(blocker, "rows"), Format: FormatJSONL}
	f = fileio.ReadableFile{Metadata: fileio.FileMetadata{Path: files[0]}}
	if err := fn.ProcessElement(context.Background(), f, emitPart, emitSum); err == nil || !strings.Contains(err.Error(), "rows") {
		t.Errorf("an output that cannot be made: %v, want an error", err)
	}
	if err := fn.Teardown(); err != nil {
		t.Error(err)
	}
	if err := (&scanFileFn{Robots: "NoSuchBot"}).Setup(); err == nil {
		t.Error("Setup accepted an unknown robot")
	}
}

// TestPartFileAbort: a part abandoned halfway leaves no file, and a
// committed one replaces the part of an earlier attempt.
func TestPartFileAbort(t *testing.T) {
	dir := t.TempDir()
	fn := &scanFileFn{Output: dir, Format: FormatJSONL}
	if err := fn.Setup(); err != nil {
		t.Fatal(err)
	}
	p, err := fn.create(context.Background(), "in.warc.gz")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.rw.Write(&scan.Row{URL: "https://a.example/robots.txt"}); err != nil {
		t.Fatal(err)
	}
	p.abort()
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("an abandoned part left %v", ents)
	}
	for _, host := range []string{"first.example", "second.example"} {
		p, err := fn.create(context.Background(), "in.warc.gz")
		if err != nil {
			t.Fatal(err)
		}
		if err := p.rw.Write(&scan.Row{Host: host}); err != nil {
			t.Fatal(err)
		}
		if err := p.commit(); err != nil {
			t.Fatal(err)
		}
		p.abort() // a no-op once committed
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 || ents[0].Name() != scan.PartName("in.warc.gz", FormatJSONL) {
		t.Fatalf("the folder holds %v, want the one part", ents)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ents[0].Name())); !bytes.Contains(b, []byte("second.example")) || bytes.Contains(b, []byte("first.example")) {
		t.Errorf("the part holds %q, want the second attempt's row alone", b)
	}
}
