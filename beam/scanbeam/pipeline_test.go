package scanbeam

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/robotskit/robots/scan"
)

// TestMain lets the pipelines run on prism in-process, the SDK's default
// test runner (https://beam.apache.org/documentation/runners/prism/), and
// this binary serve as their worker.
func TestMain(m *testing.M) { ptest.Main(m) }

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
// matches them: two WARC.gz files (a 200 that blocks GPTBot, a 404, a
// 503, a partly blocking file, an HTML page served with a 200, a record
// whose gzip member is corrupt, a record with a malformed header) and a
// directory whose name the glob matches, which cannot be read.
func writeCrawl(t *testing.T, dir string) string {
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

	for name, data := range map[string][]byte{"CC-00000.warc.gz": a, "CC-00001.warc.gz": b} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "CC-00002.warc.gz"), 0o755); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "CC-*.warc.gz")
}

// direct runs scan.Analyze on every capture of the files, read by
// scan.ReadCaptures as `robots scan` reads them, and returns the rows as
// JSON, sorted, the rows' summary and the number of read errors.
func direct(t *testing.T, pattern string, o *scan.Options) ([]string, *scan.Summary, int) {
	t.Helper()
	paths, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	var sum scan.Summary
	readErrors := 0
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		scan.ReadCaptures(t.Context(), p, f, func(c *scan.Capture) bool {
			row := scan.Analyze(c, o)
			sum.Add(&row)
			b, err := json.Marshal(&row)
			if err != nil {
				t.Fatal(err)
			}
			rows = append(rows, string(b))
			return true
		}, func(err error) {
			var ie *scan.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("%s: %T %v, want *scan.InputError", p, err, err)
			}
			readErrors++
		})
		f.Close()
	}
	slices.Sort(rows)
	return rows, &sum, readErrors
}

// readShards returns the lines of the shards WriteRows wrote, sorted, and
// the shards' names.
func readShards(t *testing.T, prefix string, n int) ([]string, []string) {
	t.Helper()
	names, err := filepath.Glob(prefix + "-*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, name := range names {
		found := false
		for i := range n {
			found = found || name == ShardName(prefix, i, n)
		}
		if !found {
			t.Errorf("unexpected shard %s", name)
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for l := range strings.SplitSeq(strings.TrimSuffix(string(b), "\n"), "\n") {
			if l != "" {
				lines = append(lines, l)
			}
		}
	}
	slices.Sort(lines)
	return lines, names
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

func summaryJSON(t *testing.T, s *scan.Summary) string {
	t.Helper()
	var b bytes.Buffer
	if err := s.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestPipeline runs the whole pipeline on prism over a small crawl and
// checks that it gives the rows and the summary that scan.Analyze gives
// on the same captures, with the unreadable records and the unreadable
// file counted rather than failing the run.
func TestPipeline(t *testing.T) {
	dir := t.TempDir()
	pattern := writeCrawl(t, dir)
	opt := Options{Robots: "GPTBot,Googlebot,CCBot", Lint: true, LintBudget: time.Minute}
	robots, err := scan.SelectRobots(opt.Robots)
	if err != nil {
		t.Fatal(err)
	}
	wantRows, wantSum, wantReadErrors := direct(t, pattern, &scan.Options{Robots: robots, Lint: true, LintBudget: time.Minute})
	// Two bad records, and the directory, which cannot be read.
	if len(wantRows) != 5 || wantReadErrors != 3 {
		t.Fatalf("the crawl holds %d captures and %d unreadable records, want 5 and 3", len(wantRows), wantReadErrors)
	}

	p, s := beam.NewPipelineWithRoot()
	rows, sum, err := Build(s, pattern, opt)
	if err != nil {
		t.Fatal(err)
	}
	prefix := filepath.Join(dir, "out", "rows")
	const shards = 3
	if err := WriteRows(s, prefix, shards, rows); err != nil {
		t.Fatal(err)
	}
	sumPath := filepath.Join(dir, "out", "summary.json")
	if err := WriteSummary(s, sumPath, sum); err != nil {
		t.Fatal(err)
	}
	mdPath := filepath.Join(dir, "out", "report.md")
	if err := WriteSummary(s, mdPath, sum); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res, err := ptest.RunWithMetrics(p)
	if err != nil {
		t.Fatalf("pipeline failed: %v", err)
	}
	t.Logf("pipeline ran in %v", time.Since(start))

	got, names := readShards(t, prefix, shards)
	if !slices.Equal(got, wantRows) {
		t.Errorf("rows differ from scan.Analyze's:\ngot  %q\nwant %q", got, wantRows)
	}
	if len(names) < 2 {
		t.Errorf("rows went to %d shards (%v), want them spread over several", len(names), names)
	}

	f, err := os.Open(sumPath)
	if err != nil {
		t.Fatal(err)
	}
	gotSum, err := scan.ReadSummary(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if g, w := summaryJSON(t, gotSum), summaryJSON(t, wantSum); g != w {
		t.Errorf("summary differs from the rows' own:\ngot  %s\nwant %s", g, w)
	}
	if gotSum.Captures != 5 || gotSum.Sites != 2 || gotSum.Status[404] != 1 || gotSum.Status[503] != 1 || gotSum.HTML != 1 {
		t.Errorf("summary counts: %+v", gotSum)
	}
	if b, err := os.ReadFile(mdPath); err != nil || !bytes.HasPrefix(b, []byte("#")) {
		t.Errorf("Markdown report: %v %.40q", err, b)
	}

	// The facts themselves: GPTBot is blocked where a group names it,
	// and the 404 leaves every robot free (RFC 9309 §2.3.1.3).
	byHost := map[string]scan.Row{}
	for _, l := range got {
		var r scan.Row
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
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
	if r := byHost["blocks-gptbot.example"]; r.Source != filepath.Join(dir, "CC-00000.warc.gz") || r.Status != 200 || r.Sitemaps != 1 {
		t.Errorf("row of blocks-gptbot.example: %+v", r)
	}

	want := map[string]int64{CounterFiles: 3, CounterCaptures: 5, CounterReadErrors: int64(wantReadErrors)}
	if c := counters(res); c[CounterFiles] != want[CounterFiles] || c[CounterCaptures] != want[CounterCaptures] ||
		c[CounterReadErrors] != want[CounterReadErrors] || c[CounterOpenErrors] != 0 || c[CounterEncodeErrors] != 0 {
		t.Errorf("counters %v, want %v", c, want)
	}
}

// TestPipelineEmpty: a glob that matches nothing gives no row and an
// empty summary, written all the same.
func TestPipelineEmpty(t *testing.T) {
	dir := t.TempDir()
	p, s := beam.NewPipelineWithRoot()
	rows, sum, err := Build(s, filepath.Join(dir, "*.warc.gz"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	prefix := filepath.Join(dir, "rows")
	if err := WriteRows(s, prefix, 2, rows); err != nil {
		t.Fatal(err)
	}
	sumPath := filepath.Join(dir, "summary.json")
	if err := WriteSummary(s, sumPath, sum); err != nil {
		t.Fatal(err)
	}
	if _, err := ptest.RunWithMetrics(p); err != nil {
		t.Fatalf("pipeline failed: %v", err)
	}
	if got, names := readShards(t, prefix, 2); len(got) != 0 || len(names) != 0 {
		t.Errorf("rows %q in %v, want none", got, names)
	}
	f, err := os.Open(sumPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := scan.ReadSummary(f)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := summaryJSON(t, got), summaryJSON(t, &scan.Summary{}); g != w {
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
		{"negative budget", "/tmp/*.warc.gz", Options{LintBudget: -time.Second}, "negative lint budget"},
		{"unknown file system", "hdfs://cluster/crawl/*.warc.gz", Options{}, `"hdfs"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, s := beam.NewPipelineWithRoot()
			_, _, err := Build(s, c.pattern, c.opt)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Build(%q, %+v) = %v, want an error with %q", c.pattern, c.opt, err, c.want)
			}
		})
	}
}

// TestWriteErrors: WriteRows and WriteSummary check their arguments.
func TestWriteErrors(t *testing.T) {
	_, s := beam.NewPipelineWithRoot()
	rows, sum, err := Build(s, "/tmp/none-*.warc.gz", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"no shard", WriteRows(s, "/tmp/out/rows", 0, rows), "0 shards"},
		{"too many shards", WriteRows(s, "/tmp/out/rows", MaxShards+1, rows), "1025 shards"},
		{"empty prefix", WriteRows(s, "", 4, rows), "empty output prefix"},
		{"empty summary path", WriteSummary(s, "", sum), "empty summary path"},
		{"unknown report format", WriteSummary(s, "/tmp/out/summary.txt", sum), ".txt"},
		{"unknown file system", WriteSummary(s, "hdfs://cluster/summary.json", sum), `"hdfs"`},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, c.err, c.want)
		}
	}
}

// TestShardName pins the names of the row shards.
func TestShardName(t *testing.T) {
	for _, c := range []struct {
		prefix string
		i, n   int
		want   string
	}{
		{"out/rows", 0, 1, "out/rows-00000-of-00001.jsonl"},
		{"gs://b/cc/rows", 15, 16, "gs://b/cc/rows-00015-of-00016.jsonl"},
		{"rows", 1023, 1024, "rows-01023-of-01024.jsonl"},
	} {
		if got := ShardName(c.prefix, c.i, c.n); got != c.want {
			t.Errorf("ShardName(%q, %d, %d) = %q, want %q", c.prefix, c.i, c.n, got, c.want)
		}
	}
}

// TestSummaryFn: the CombineFn's result does not depend on how the rows
// are split among accumulators, and its accumulator survives its coder.
func TestSummaryFn(t *testing.T) {
	pattern := writeCrawl(t, t.TempDir())
	robots, _ := scan.SelectRobots("ai")
	rows, want, _ := direct(t, pattern, &scan.Options{Robots: robots})
	var fn summaryFn
	for split := range len(rows) + 1 {
		a, b := fn.CreateAccumulator(), fn.CreateAccumulator()
		var err error
		for i, r := range rows {
			if i < split {
				a, err = fn.AddInput(a, r)
			} else {
				b, err = fn.AddInput(b, r)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		enc, err := encodeSummary(b)
		if err != nil {
			t.Fatal(err)
		}
		if b, err = decodeSummary(enc); err != nil {
			t.Fatal(err)
		}
		out, err := fn.ExtractOutput(fn.MergeAccumulators(a, b))
		if err != nil {
			t.Fatal(err)
		}
		got, err := scan.ReadSummary(strings.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		if g, w := summaryJSON(t, got), summaryJSON(t, want); g != w {
			t.Errorf("split at %d: %s\nwant %s", split, g, w)
		}
	}
	if _, err := fn.AddInput(fn.CreateAccumulator(), "{not json"); err == nil {
		t.Error("AddInput accepted a line that is no row")
	}
	if _, err := decodeSummary([]byte(`{"version":1,"captures":-1}`)); err == nil {
		t.Error("decodeSummary accepted a negative count")
	}
}

// TestScanFileFnOpenError: a file that cannot be opened gives no row and
// no panic; the pipeline goes on.
func TestScanFileFnOpenError(t *testing.T) {
	fn := &scanFileFn{Robots: "GPTBot"}
	if err := fn.Setup(); err != nil {
		t.Fatal(err)
	}
	var got []string
	f := fileio.ReadableFile{Metadata: fileio.FileMetadata{Path: filepath.Join(t.TempDir(), "gone.warc.gz")}}
	fn.ProcessElement(context.Background(), f, func(s string) { got = append(got, s) })
	if len(got) != 0 {
		t.Errorf("rows %q from a missing file", got)
	}
	if err := (&scanFileFn{Robots: "NoSuchBot"}).Setup(); err == nil {
		t.Error("Setup accepted an unknown robot")
	}
}
