package scan_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/robotskit/robots/scan"
	"github.com/robotskit/robots/scan/parquet"
)

// The tests of Run, the engine of `robots scan` (its help text and
// docs/scan.md say what they check); cmd/robots tests the flags, the
// messages and the exit status.

// runTree writes name → content under dir.
func runTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

// runSites is a directory of two robots.txt files and a JSON lines file
// of two captures.
var runSites = map[string]string{
	"sites/example.com": "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n",
	"sites/example.org": "User-agent: *\nDisallow:\n",
	"caps.jsonl": `{"url": "https://a.example/robots.txt", "status": 200, "body": "User-agent: *\nDisallow: /\n"}` + "\n" +
		`{"url": "https://b.example/robots.txt", "status": 404}` + "\n",
}

// runRobots selects robots, failing the test on an error.
func runRobots(t testing.TB, sel string) *scan.Options {
	t.Helper()
	rbs, err := scan.SelectRobots(sel)
	if err != nil {
		t.Fatal(err)
	}
	return &scan.Options{Robots: rbs}
}

// told records what a Job's callbacks are told, and fails the test when
// two of them are called at once.
type told struct {
	t      testing.TB
	busy   atomic.Bool
	mu     sync.Mutex
	errs   []string // "input: error"
	skips  []string // "n manifest"
	status []scan.Progress
}

func (tl *told) enter() func() {
	if !tl.busy.CompareAndSwap(false, true) {
		tl.t.Error("two callbacks at once")
	}
	tl.mu.Lock()
	return func() { tl.mu.Unlock(); tl.busy.Store(false) }
}

// hook sets the callbacks of j.
func (tl *told) hook(j *scan.Job) *scan.Job {
	j.OnError = func(in string, err error) {
		defer tl.enter()()
		tl.errs = append(tl.errs, in+": "+err.Error())
	}
	j.OnSkip = func(n int, manifest string) {
		defer tl.enter()()
		tl.skips = append(tl.skips, fmt.Sprint(n, " ", manifest))
	}
	return j
}

// runRows runs j with its rows as JSON lines and decodes them.
func runRows(t *testing.T, j *scan.Job) ([]scan.Row, *scan.Result) {
	t.Helper()
	var out bytes.Buffer
	j.Out, j.Format = &out, scan.FormatJSONL
	res, err := scan.Run(t.Context(), j)
	if err != nil {
		t.Fatal(err)
	}
	return decodeRows(t, out.String()), res
}

// decodeRows decodes JSON lines into rows.
func decodeRows(t *testing.T, s string) []scan.Row {
	t.Helper()
	var rows []scan.Row
	for l := range strings.SplitSeq(s, "\n") {
		if l == "" {
			continue
		}
		var r scan.Row
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("not a JSON row: %v: %s", err, l)
		}
		rows = append(rows, r)
	}
	return rows
}

// manifestOf reads DIR/_manifest.jsonl, whose lines hold the fields of
// ManifestPart and no other.
func manifestOf(t *testing.T, dir string) []scan.ManifestPart {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, scan.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	var ms []scan.ManifestPart
	for l := range strings.SplitSeq(strings.TrimSuffix(string(data), "\n"), "\n") {
		if l == "" {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(l))
		dec.DisallowUnknownFields()
		var m scan.ManifestPart
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("manifest line %q: %v", l, err)
		}
		ms = append(ms, m)
	}
	return ms
}

// summaryText is a summary's JSON form.
func summaryText(t *testing.T, s *scan.Summary) string {
	t.Helper()
	var b bytes.Buffer
	if err := s.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestRunOutManifestRerun: with an OutDir the inputs share a part,
// part-<16 hex digits of the SHA-256 of their names>.<format>, with its
// summary and a manifest line {"part", "rows", "bytes", "sha256",
// "inputs", "seconds"}; no temporary file is left. A rerun checks the
// part, skips its inputs, says so (OnSkip), and its summary still counts
// them. A part whose bytes changed, a part gone, and a part whose line
// was cut short are told, set aside, and their inputs read again: the
// rows in the OutDir are always those of every input, once.
func TestRunOutManifestRerun(t *testing.T) {
	dir := t.TempDir()
	runTree(t, dir, runSites)
	out := filepath.Join(dir, "out")
	tl := &told{t: t}
	job := tl.hook(&scan.Job{Inputs: []string{filepath.Join(dir, "sites"), filepath.Join(dir, "caps.jsonl")},
		Options: runRobots(t, "GPTBot"), Format: scan.FormatJSONL, OutDir: out, Workers: 1})
	res, err := scan.Run(t.Context(), job)
	if err != nil || tl.errs != nil || tl.skips != nil || res.Failed != 0 || res.Inputs != 3 || res.Captures != 4 || res.Parts != 1 {
		t.Fatalf("err %v, told %q %q, result %+v", err, tl.errs, tl.skips, res)
	}
	first := summaryText(t, res.Summary)
	wantInputs := []string{filepath.Join(dir, "sites", "example.com"), filepath.Join(dir, "sites", "example.org"), filepath.Join(dir, "caps.jsonl")}
	ms := manifestOf(t, out)
	if len(ms) != 1 || len(ms[0].Inputs) != 3 {
		t.Fatalf("manifest %+v, want one part of 3 inputs", ms)
	}
	m := ms[0]
	part := filepath.Join(out, m.Part)
	if m.Part != scan.GroupPartName(wantInputs, "jsonl") || len(m.Part) != len("part-0123456789abcdef.jsonl") {
		t.Errorf("part %q, want %q", m.Part, scan.GroupPartName(wantInputs, "jsonl"))
	}
	data, err := os.ReadFile(part)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	if m.Rows != 4 || m.Bytes != int64(len(data)) || m.SHA256 != hex.EncodeToString(sum[:]) || m.Seconds < 0 {
		t.Errorf("part line %+v; %d bytes, sha256 %x", m, len(data), sum)
	}
	rows := decodeRows(t, string(data))
	at := 0
	for i, in := range m.Inputs {
		st, _ := os.Stat(wantInputs[i])
		if in.Input != wantInputs[i] || in.Part != m.Part || in.Rows != in.Captures || in.Errors != 0 || in.Bytes != st.Size() {
			t.Errorf("input %d: %+v", i, in)
		}
		for _, r := range rows[at : at+int(in.Rows)] {
			if r.Source != in.Input {
				t.Errorf("%s: a row of source %q", in.Input, r.Source)
			}
		}
		at += int(in.Rows)
	}
	if m.Inputs[2].Rows != 2 || at != len(rows) {
		t.Errorf("caps.jsonl: %d rows; %d rows in all, %d in the part", m.Inputs[2].Rows, at, len(rows))
	}
	f, err := os.Open(filepath.Join(out, scan.PartSummaryName(m.Part)))
	if err != nil {
		t.Fatal(err)
	}
	psum, err := scan.ReadSummary(f)
	f.Close()
	if err != nil || summaryText(t, psum) != first {
		t.Errorf("part summary %v, %+v", err, psum)
	}
	if tmp, _ := filepath.Glob(filepath.Join(out, "*.tmp")); len(tmp) > 0 {
		t.Errorf("temporary files left: %v", tmp)
	}

	// A rerun checks the part and skips the three inputs: nothing left.
	manifest := filepath.Join(out, scan.ManifestName)
	tl = &told{t: t}
	res, err = scan.Run(t.Context(), tl.hook(job))
	if err != nil || tl.errs != nil || !slices.Equal(tl.skips, []string{"3 " + manifest}) || res.Skipped != 3 || res.Inputs != 0 || res.Failed != 0 || res.Captures != 0 {
		t.Fatalf("rerun: err %v, told %q %q, result %+v", err, tl.errs, tl.skips, res)
	}
	if n := len(manifestOf(t, out)); n != 1 {
		t.Errorf("rerun: manifest has %d lines, want 1", n)
	}
	if got := summaryText(t, res.Summary); got != first {
		t.Errorf("rerun: summary\n%s\nwant\n%s", got, first)
	}

	// redo damages the OutDir, reruns, and checks that what is told
	// matches want, that every input was read again, and that the OutDir
	// holds the rows once, in one part.
	redo := func(name string, damage func(), want ...string) {
		t.Helper()
		damage()
		tl := &told{t: t}
		res, err := scan.Run(t.Context(), tl.hook(job))
		if err != nil || res.Inputs != 3 || res.Skipped != 0 || res.Failed != 0 || res.Captures != 4 {
			t.Fatalf("%s: err %v, told %q, result %+v", name, err, tl.errs, res)
		}
		if len(tl.errs) != len(want) {
			t.Fatalf("%s: told %q, want %d errors like %q", name, tl.errs, len(want), want)
		}
		for i, w := range want {
			if !strings.Contains(tl.errs[i], w) {
				t.Errorf("%s: told %q, want %q", name, tl.errs[i], w)
			}
		}
		if got := summaryText(t, res.Summary); got != first {
			t.Errorf("%s: summary\n%s\nwant\n%s", name, got, first)
		}
		ms := manifestOf(t, out)
		parts, _ := filepath.Glob(filepath.Join(out, "part-*.jsonl"))
		if len(ms) != 1 || len(parts) != 1 || filepath.Base(parts[0]) != ms[0].Part {
			t.Errorf("%s: manifest %+v, parts %q", name, ms, parts)
		}
		if data, _ := os.ReadFile(parts[0]); len(decodeRows(t, string(data))) != 4 {
			t.Errorf("%s: the part does not hold 4 rows", name)
		}
	}
	redo("a damaged part", func() {
		data, _ := os.ReadFile(part)
		data[10] ^= 1
		os.WriteFile(part, data, 0o666)
	}, m.Part+": the part's SHA-256 is not the manifest's: its bytes changed; moved aside to "+m.Part+".damaged; its inputs are read again")
	if _, err := os.Stat(part + ".damaged"); err != nil {
		t.Errorf("the damaged part is not kept aside: %v", err)
	}
	redo("a part gone", func() { os.Remove(part) }, m.Part+": the part is missing; its inputs are read again")
	redo("a line cut short", func() {
		data, _ := os.ReadFile(manifest)
		os.WriteFile(manifest, data[:len(data)/2], 0o666)
	}, manifest+": line 1: not a JSON object", m.Part+": no line of the manifest names the part; moved aside to "+m.Part+".orphan")
	redo("a line of an older version", func() {
		os.WriteFile(manifest, []byte(`{"input":"x","part":"`+m.Part+`","captures":4,"rows":4,"errors":0,"bytes":9,"seconds":1}`+"\n"), 0o666)
	}, manifest+": line 1: no part and checksum (written by an older version of robots scan)", "no line of the manifest names the part")
}

// TestRunPartSize: a part is closed once it holds PartSize bytes, so a
// directory of many files is a few parts, not one per file; every row is
// in exactly one part.
func TestRunPartSize(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("sites/h%02d.example", i)] = fmt.Sprintf("User-agent: *\nDisallow: /%d/\n", i)
	}
	runTree(t, dir, files)
	out := filepath.Join(dir, "out")
	res, err := scan.Run(t.Context(), &scan.Job{Inputs: []string{filepath.Join(dir, "sites")}, Format: scan.FormatJSONL, OutDir: out, Workers: 2, PartSize: 4 << 10})
	if err != nil || res.Failed != 0 || res.Captures != 40 {
		t.Fatalf("err %v, result %+v", err, res)
	}
	ms := manifestOf(t, out)
	var rows, inputs int64
	seen := map[string]bool{}
	for _, m := range ms {
		if m.Bytes < 4<<10 && len(ms) > 2 && m.Rows > 10 {
			t.Errorf("part %s: %d bytes past its size", m.Part, m.Bytes)
		}
		for _, in := range m.Inputs {
			if seen[in.Input] {
				t.Errorf("%s in two parts", in.Input)
			}
			seen[in.Input] = true
			inputs++
		}
		rows += m.Rows
	}
	if len(ms) < 3 || len(ms) > 20 || res.Parts != len(ms) || rows != 40 || inputs != 40 {
		t.Errorf("%d parts (result %d), %d rows, %d inputs", len(ms), res.Parts, rows, inputs)
	}
	// Parquet holds a row group in memory; its Buffered bytes count, so
	// a part of one byte is closed after each input.
	pout := filepath.Join(dir, "pq")
	res, err = scan.Run(t.Context(), &scan.Job{Inputs: []string{filepath.Join(dir, "sites")}, Format: parquet.Format, NewWriter: parquet.NewRowWriter, OutDir: pout, Workers: 2, PartSize: 1})
	if err != nil || res.Parts != 40 || len(manifestOf(t, pout)) != 40 {
		t.Errorf("parquet, PartSize 1: err %v, result %+v", err, res)
	}
}

// runWARC lays out a warcinfo record and captures, one gzip member per
// record as Common Crawl does, and returns the file with the offsets of
// the response records.
func runWARC(caps ...[]inWARC) ([]byte, []int64) {
	recs := []inWARC{{typ: "warcinfo", fields: []string{"Content-Type", "application/warc-fields"}, block: "software: test\r\n"}}
	for _, c := range caps {
		recs = append(recs, c...)
	}
	data, offs := inFile(true, recs...)
	var resp []int64
	for i, r := range recs {
		if r.typ == "response" {
			resp = append(resp, offs[i])
		}
	}
	return data, resp
}

// runCapture is one robots.txt fetch as Common Crawl records it.
func runCapture(host, status, body string) []inWARC {
	return inTriplet(host, inHTTP(status, body, "Content-Type", "text/plain", "Content-Length", fmt.Sprint(len(body))),
		"WARC-Payload-Digest", "sha1:"+strings.ToUpper(host))
}

// TestRunWARCGz reads a Common Crawl style robots.txt WARC file: one row
// per response record, none for the request, metadata and warcinfo
// records; the row's offset is its record's gzip member's, its time the
// WARC-Date.
func TestRunWARCGz(t *testing.T) {
	data, offs := runWARC(
		runCapture("a.example", "200 OK", "User-agent: GPTBot\nDisallow: /\n"),
		runCapture("b.example", "404 Not Found", "<html>no</html>"),
		runCapture("c.example", "200 OK", "User-agent: *\nDisallow: /tmp/\n"),
	)
	name := filepath.Join(t.TempDir(), "CC-MAIN-robotstxt-00000.warc.gz")
	if err := os.WriteFile(name, data, 0o666); err != nil {
		t.Fatal(err)
	}
	tl := &told{t: t}
	rows, res := runRows(t, tl.hook(&scan.Job{Inputs: []string{name}, Options: runRobots(t, "GPTBot")}))
	if tl.errs != nil || res.Failed != 0 || res.Bytes != int64(len(data)) {
		t.Fatalf("told %q, result %+v", tl.errs, res)
	}
	want := []struct {
		url    string
		status int
		state  string
		via    string
	}{
		{"https://a.example/robots.txt", 200, "blocked", "named"},
		{"https://b.example/robots.txt", 404, "open", "none"},
		{"https://c.example/robots.txt", 200, "partly", "star"},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	when := time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)
	for i, w := range want {
		r := rows[i]
		if r.URL != w.url || r.Status != w.status || r.Offset != offs[i] || r.Source != name || !r.Time.Equal(when) ||
			len(r.Robots) != 1 || r.Robots[0].Robot != "GPTBot" || r.Robots[0].State != w.state || r.Robots[0].Via != w.via {
			t.Errorf("row %d: %+v\nwant %+v at offset %d", i, r, w, offs[i])
		}
	}
}

// TestRunCorruptInput: an input that cannot be read, a corrupt line of
// JSON and a corrupt gzip member are each told to OnError (a record with
// its offset, as an *InputError; a file that cannot be opened with its
// *fs.PathError), the other inputs and records are read, and the Result
// counts the inputs with errors.
func TestRunCorruptInput(t *testing.T) {
	dir := t.TempDir()
	good, _ := runWARC(runCapture("a.example", "200 OK", "User-agent: *\nDisallow: /\n"))
	bad, offs := runWARC(
		runCapture("b.example", "200 OK", "User-agent: *\nDisallow: /b\n"),
		runCapture("c.example", "200 OK", "User-agent: *\nDisallow: /c\n"),
		runCapture("d.example", "200 OK", "User-agent: *\nDisallow: /d\n"),
	)
	// Spoil the second response's gzip member: its deflate data.
	for i := offs[1] + 12; i < offs[1]+20; i++ {
		bad[i] ^= 0xff
	}
	line1 := `{"url": "https://e.example/robots.txt", "status": 200, "body": "User-agent: *\nDisallow: /e\n"}` + "\n"
	runTree(t, dir, map[string]string{
		"1-good.warc.gz": string(good),
		"2-bad.warc.gz":  string(bad),
		"3-lines.jsonl": line1 + `{"url": "https://f.example/robots.txt", "status": ` + "\n" +
			`{"url": "https://g.example/robots.txt", "status": 404}` + "\n",
	})
	in := []string{filepath.Join(dir, "1-good.warc.gz"), filepath.Join(dir, "2-bad.warc.gz"), filepath.Join(dir, "3-lines.jsonl"), filepath.Join(dir, "4-missing.warc.gz")}
	var errs []error
	job := &scan.Job{Inputs: in, Workers: 1, Options: runRobots(t, "GPTBot"),
		OnError: func(_ string, err error) { errs = append(errs, err) }}
	rows, res := runRows(t, job)
	var hosts []string
	for _, r := range rows {
		hosts = append(hosts, r.Host)
	}
	// The member of c.example is lost; d.example, after it, is read.
	if want := []string{"a.example", "b.example", "d.example", "e.example", "g.example"}; !slices.Equal(hosts, want) {
		t.Errorf("rows for %v, want %v", hosts, want)
	}
	if res.Failed != 3 || res.Inputs != 4 {
		t.Errorf("result %+v, want 3 of 4 inputs failed", res)
	}
	if len(errs) != 3 {
		t.Fatalf("told %q, want 3 errors", errs)
	}
	for i, w := range []struct {
		source string
		offset int64
	}{{in[1], offs[1]}, {in[2], int64(len(line1))}} {
		var ie *scan.InputError
		if !errors.As(errs[i], &ie) || ie.Source != w.source || ie.Offset != w.offset {
			t.Errorf("error %d: %v, want an *InputError of %s at %d", i, errs[i], w.source, w.offset)
		}
	}
	if !errors.Is(errs[2], fs.ErrNotExist) {
		t.Errorf("error 3: %v, want the missing file's", errs[2])
	}
}

// TestRunMaxErrors: an input full of bad lines tells its first MaxErrors
// errors and a *MoreErrors; the manifest counts them all, and the good
// lines still give rows. A rerun skips the input, whose errors still
// count in Result.Failed.
func TestRunMaxErrors(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 8 {
		fmt.Fprintf(&b, `{"url": "https://h%d.example/robots.txt", "status": "x"}`+"\n", i)
	}
	b.WriteString(`{"url": "https://ok.example/robots.txt", "status": 404}` + "\n")
	runTree(t, dir, map[string]string{"bad.jsonl": b.String()})
	in, out := filepath.Join(dir, "bad.jsonl"), filepath.Join(dir, "out")
	tl := &told{t: t}
	job := tl.hook(&scan.Job{Inputs: []string{in}, OutDir: out, Format: scan.FormatCSV, MaxErrors: 3})
	res, err := scan.Run(t.Context(), job)
	if err != nil || len(tl.errs) != 4 || tl.errs[3] != in+": more than 3 errors; the rest are not shown" || res.Failed != 1 || res.Inputs != 1 {
		t.Fatalf("err %v, told %q, result %+v", err, tl.errs, res)
	}
	if ms := manifestOf(t, out); len(ms) != 1 || len(ms[0].Inputs) != 1 || ms[0].Inputs[0].Errors != 8 || ms[0].Rows != 1 || ms[0].Part != scan.PartName(in, "csv") {
		t.Errorf("manifest %+v", ms)
	}
	// A rerun has nothing left to do: it says so and fails nothing; the
	// errors were told by the run that read the input.
	tl = &told{t: t}
	res, err = scan.Run(t.Context(), tl.hook(job))
	if err != nil || tl.errs != nil || len(tl.skips) != 1 || res.Failed != 0 || res.Inputs != 0 || res.Skipped != 1 {
		t.Errorf("rerun: err %v, told %q %q, result %+v", err, tl.errs, tl.skips, res)
	}
}

// bucket serves files over HTTP as a bucket does, with Range requests
// (RFC 9110 §14.2), and records the requests. Paths in fail503 answer 503
// to their first request; paths in breakOff send half of their body to
// their first request and then drop the connection; paths in stall send
// half and then nothing.
type bucket struct {
	files    map[string][]byte
	fail503  map[string]bool
	breakOff map[string]bool
	stall    map[string]bool
	delay    time.Duration

	mu      sync.Mutex
	seen    map[string]int
	ranges  []string
	now     atomic.Int64
	maxConc atomic.Int64
}

func (s *bucket) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := s.now.Add(1)
	defer s.now.Add(-1)
	for {
		m := s.maxConc.Load()
		if n <= m || s.maxConc.CompareAndSwap(m, n) {
			break
		}
	}
	s.mu.Lock()
	if s.seen == nil {
		s.seen = map[string]int{}
	}
	s.seen[r.URL.Path]++
	first := s.seen[r.URL.Path] == 1
	if rg := r.Header.Get("Range"); rg != "" {
		s.ranges = append(s.ranges, r.URL.Path+" "+rg)
	}
	s.mu.Unlock()
	time.Sleep(s.delay)
	data, ok := s.files[r.URL.Path]
	switch {
	case !ok:
		http.NotFound(w, r)
	case first && s.fail503[r.URL.Path]:
		http.Error(w, "try again", http.StatusServiceUnavailable)
	case first && s.stall[r.URL.Path]:
		w.Header().Set("Content-Length", fmt.Sprint(len(data)))
		w.WriteHeader(http.StatusOK)
		w.Write(data[:len(data)/2])
		w.(http.Flusher).Flush()
		<-r.Context().Done() // sends nothing more
	case first && s.breakOff[r.URL.Path]:
		w.Header().Set("Content-Length", fmt.Sprint(len(data)))
		w.WriteHeader(http.StatusOK)
		w.Write(data[:len(data)/2])
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // drops the connection
	default:
		http.ServeContent(w, r, r.URL.Path, time.Time{}, bytes.NewReader(data))
	}
}

// TestRunListBaseHTTP reads a gzip-compressed @LIST of paths with a Base,
// as Common Crawl's robotstxt.paths.gz is read (docs/scan.md), against a
// local server: a WARC.gz, a JSON lines file whose first request gets a
// 503 (retried), one whose first response breaks off (resumed with a Range
// request from the byte where it stopped, RFC 9110 §14.2) and a path that
// is not there (404: told, not retried, the rest read).
func TestRunListBaseHTTP(t *testing.T) {
	warcData, _ := runWARC(runCapture("a.example", "200 OK", "User-agent: *\nDisallow: /\n"))
	var long strings.Builder
	for i := range 200 {
		fmt.Fprintf(&long, `{"url": "https://c%d.example/robots.txt", "status": 200, "body": "User-agent: *\nDisallow: /%d\n"}`+"\n", i, i)
	}
	srv := &bucket{
		files: map[string][]byte{
			"/crawl/a.warc.gz": warcData,
			"/crawl/b.jsonl":   []byte(`{"url": "https://b.example/robots.txt", "status": 404}` + "\n"),
			"/crawl/c.jsonl":   []byte(long.String()),
		},
		fail503:  map[string]bool{"/crawl/b.jsonl": true},
		breakOff: map[string]bool{"/crawl/c.jsonl": true},
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	dir := t.TempDir()
	list := filepath.Join(dir, "robotstxt.paths.gz")
	runTree(t, dir, map[string]string{"robotstxt.paths.gz": string(inGzip([]byte("crawl/a.warc.gz\ncrawl/b.jsonl\n\ncrawl/missing.warc.gz\n# a comment\ncrawl/c.jsonl\n")))})

	tl := &told{t: t}
	rows, res := runRows(t, tl.hook(&scan.Job{Inputs: []string{"@" + list}, Base: ts.URL + "/", Options: runRobots(t, "GPTBot"), RetryDelay: time.Millisecond}))
	if want := []string{ts.URL + "/crawl/missing.warc.gz: HTTP 404 Not Found"}; !slices.Equal(tl.errs, want) {
		t.Errorf("told %q, want %q", tl.errs, want)
	}
	if res.Failed != 1 || res.Inputs != 4 {
		t.Errorf("result %+v, want 1 of 4 inputs failed", res)
	}
	if len(rows) != 202 || rows[0].Host != "a.example" || rows[1].Host != "b.example" || rows[2].Host != "c0.example" || rows[201].Host != "c199.example" {
		t.Errorf("%d rows, want a, b and c0 to c199 in order", len(rows))
	}
	if srv.seen["/crawl/b.jsonl"] != 2 {
		t.Errorf("b.jsonl requested %d times, want 2 (a 503, then a retry)", srv.seen["/crawl/b.jsonl"])
	}
	if want := fmt.Sprintf("/crawl/c.jsonl bytes=%d-", long.Len()/2); !slices.Contains(srv.ranges, want) {
		t.Errorf("Range requests %q, want %q", srv.ranges, want)
	}
	if srv.seen["/crawl/missing.warc.gz"] != 1 {
		t.Errorf("a 404 was requested %d times, want once (no retry)", srv.seen["/crawl/missing.warc.gz"])
	}
}

// TestRunDownloadStalls: a download during which nothing arrives for
// IdleTimeout is dropped and resumed with a Range request (RFC 9110
// §14.2); its rows are all there, once each. The download goes over
// in-memory connections on synctest's fake clock, which moves only while
// every goroutine waits: the idle time is counted from the last byte
// read, never from a byte that a loaded machine was slow to read.
func TestRunDownloadStalls(t *testing.T) {
	var data strings.Builder
	for i := range 100 {
		fmt.Fprintf(&data, `{"url": "https://h%d.example/robots.txt", "status": 404}`+"\n", i)
	}
	synctest.Test(t, func(t *testing.T) {
		srv := &bucket{files: map[string][]byte{"/s.jsonl": []byte(data.String())}, stall: map[string]bool{"/s.jsonl": true}}
		tl := &told{t: t}
		const idle, retry = 100 * time.Millisecond, time.Millisecond
		start := time.Now()
		rows, res := runRows(t, tl.hook(&scan.Job{Inputs: []string{"http://bucket.test/s.jsonl"}, Client: pipeClient(t, srv),
			RetryDelay: retry, IdleTimeout: idle}))
		if tl.errs != nil || res.Failed != 0 || len(rows) != 100 || rows[99].Host != "h99.example" {
			t.Errorf("told %q, result %+v, %d rows", tl.errs, res, len(rows))
		}
		if want := fmt.Sprintf("/s.jsonl bytes=%d-", data.Len()/2); !slices.Equal(srv.ranges, []string{want}) {
			t.Errorf("Range requests %q, want %q", srv.ranges, want)
		}
		if took := time.Since(start); took != idle+retry {
			t.Errorf("the run took %v, want the idle time and the delay before the retry, %v", took, idle+retry)
		}
	})
}

// pipeClient returns a client that sends every request to h, whatever the
// URL's host, over in-memory connections (net.Pipe), for a synctest
// bubble: it looks up no name, and a wait on a connection is durably
// blocked, so that the bubble's fake clock runs to the next deadline. The
// server and its connections close when t ends.
func pipeClient(t *testing.T, h http.Handler) *http.Client {
	t.Helper()
	l := &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
	srv := &http.Server{Handler: h}
	go srv.Serve(l)
	tr := &http.Transport{DialContext: l.dial}
	t.Cleanup(func() {
		tr.CloseIdleConnections()
		srv.Close()
	})
	return &http.Client{Transport: tr}
}

// A pipeListener hands the server end of each connection that dial makes
// to the server's Accept.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

func (l *pipeListener) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }

// TestRunDownloadsAtOnce: at most MaxDownloads URL inputs are streamed at
// once, whatever Workers is.
func TestRunDownloadsAtOnce(t *testing.T) {
	for _, max := range []int{0, 2} {
		srv := &bucket{files: map[string][]byte{}, delay: 30 * time.Millisecond}
		ts := httptest.NewServer(srv)
		var in []string
		for i := range 12 {
			p := fmt.Sprintf("/%d.jsonl", i)
			srv.files[p] = fmt.Appendf(nil, `{"url": "https://h%d.example/robots.txt", "status": 404}`+"\n", i)
			in = append(in, ts.URL+p)
		}
		rows, res := runRows(t, &scan.Job{Inputs: in, Workers: 12, MaxDownloads: max})
		ts.Close()
		if res.Failed != 0 || len(rows) != 12 {
			t.Fatalf("MaxDownloads %d: result %+v, %d rows", max, res, len(rows))
		}
		want := int64(max)
		if max == 0 {
			want = scan.DefaultMaxDownloads
		}
		if m := srv.maxConc.Load(); m > want || m < 2 {
			t.Errorf("MaxDownloads %d: %d downloads at once, want 2 to %d", max, m, want)
		}
	}
}

// TestRunShardList: the shards i/n of an @LIST's lines are disjoint and
// together hold every line (FNV-1a of the line modulo n); Base does not
// change them.
func TestRunShardList(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	var list strings.Builder
	for i := range 20 {
		name := fmt.Sprintf("h%02d.example", i)
		files["sites/"+name] = fmt.Sprintf("User-agent: *\nDisallow: /%d\n", i)
		list.WriteString(name + "\n")
	}
	files["list.txt"] = list.String()
	runTree(t, dir, files)
	const n = 3
	var all []string
	for i := range uint64(n) {
		rows, res := runRows(t, &scan.Job{Inputs: []string{"@" + filepath.Join(dir, "list.txt")}, Shard: scan.Shard{Index: i, Count: n},
			Base: filepath.Join(dir, "sites") + string(filepath.Separator)})
		if len(rows) == 0 || len(rows) == 20 || res.Inputs != len(rows) {
			t.Errorf("shard %d/%d holds %d of 20 inputs (result %+v)", i, n, len(rows), res)
		}
		for _, r := range rows {
			if got := scan.ShardOf(r.Host, n); got != i {
				t.Errorf("shard %d holds %s, whose shard is %d", i, r.Host, got)
			}
			all = append(all, r.Host)
		}
	}
	slices.Sort(all)
	if len(all) != 20 || len(slices.Compact(all)) != 20 {
		t.Errorf("the shards hold %v, want each of the 20 inputs once", all)
	}
}

// TestRunShardDir: the key of a file under a directory argument is its
// path inside the directory, with forward slashes, whatever the
// directory is called.
func TestRunShardDir(t *testing.T) {
	files := map[string]string{}
	for i := range 12 {
		files[fmt.Sprintf("sub/h%02d.example", i)] = "User-agent: *\nDisallow: /\n"
	}
	for _, dirName := range []string{"a", "b/c"} {
		dir := filepath.Join(t.TempDir(), dirName)
		runTree(t, dir, files)
		for i := range uint64(2) {
			rows, _ := runRows(t, &scan.Job{Inputs: []string{dir}, Shard: scan.Shard{Index: i, Count: 2}})
			for _, r := range rows {
				if got := scan.ShardOf("sub/"+r.Host, 2); got != i {
					t.Errorf("%s: shard %d holds sub/%s, whose shard is %d", dirName, i, r.Host, got)
				}
			}
		}
	}
}

// TestShardOf pins the hash: FNV-1a 64 (offset basis 14695981039346656037,
// prime 1099511628211; http://www.isthe.com/chongo/tech/comp/fnv/), so
// that a shard's inputs can be worked out by other tools; and ParseShard
// reads i/n.
func TestShardOf(t *testing.T) {
	for _, tt := range []struct {
		key  string
		n    uint64
		want uint64
	}{
		{"", 1 << 63, 14695981039346656037 % (1 << 63)},
		{"a", 1 << 63, 0xaf63dc4c8601ec8c % (1 << 63)}, // the FNV-1a 64 test vector of "a"
		{"a", 200, 0xaf63dc4c8601ec8c % 200},
	} {
		if got := scan.ShardOf(tt.key, tt.n); got != tt.want {
			t.Errorf("ShardOf(%q, %d) = %d, want %d", tt.key, tt.n, got, tt.want)
		}
	}
	for _, bad := range []string{"3/2", "2/2", "x", "1", "-1/2", "1/0", "a/b", "1/2/3"} {
		if _, err := scan.ParseShard(bad); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%q", bad)) {
			t.Errorf("ParseShard(%q): %v", bad, err)
		}
	}
	if s, err := scan.ParseShard("199/200"); err != nil || s != (scan.Shard{Index: 199, Count: 200}) || s.Has("a") != (scan.ShardOf("a", 200) == 199) {
		t.Errorf("ParseShard(199/200) = %+v, %v", s, err)
	}
	if s, err := scan.ParseShard(""); err != nil || s != (scan.Shard{}) || !s.Has("anything") {
		t.Errorf("ParseShard(\"\") = %+v, %v", s, err)
	}
}

// TestRunBoundedMemory streams 50,000 captures of about 2 KiB each
// (100 MB) through Stdin: the heap stays within a few tens of MiB, since
// captures wait in bounded queues and no input is held whole.
func TestRunBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 100 MB")
	}
	const captures = 50000
	pr, pw := io.Pipe()
	var fed atomic.Int64
	go func() {
		bw := bufio.NewWriterSize(pw, 64<<10)
		pad := strings.Repeat("# padding padding padding padding padding padding padding\\n", 34)
		for i := range captures {
			n, _ := fmt.Fprintf(bw, `{"url": "https://h%d.example/robots.txt", "status": 200, "body": "User-agent: Bot%d\nDisallow: /private/%d\n\nUser-agent: *\nDisallow: /tmp/\n%s"}`+"\n", i, i%50, i, pad)
			fed.Add(int64(n))
		}
		bw.Flush()
		pw.Close()
	}()
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	runtime.GC()
	lines := &lineCounter{}
	res, err := scan.Run(t.Context(), &scan.Job{Inputs: []string{"-"}, Stdin: pr, Out: lines, Options: runRobots(t, "ai")})
	close(stop)
	<-sampled
	if err != nil || res.Failed != 0 {
		t.Fatalf("err %v, result %+v", err, res)
	}
	if lines.n != captures || res.Summary.Captures != captures {
		t.Errorf("%d rows, summary of %d, want %d", lines.n, res.Summary.Captures, captures)
	}
	const limit = 48 << 20
	t.Logf("%d MB in, heap peak %.1f MiB", fed.Load()>>20, float64(peak.Load())/(1<<20))
	if fed.Load() < 90<<20 || res.Bytes != fed.Load() {
		t.Errorf("test bug: %d bytes fed, %d read", fed.Load(), res.Bytes)
	}
	if p := peak.Load(); p > limit {
		t.Errorf("heap peaked at %.1f MiB, want under %d MiB", float64(p)/(1<<20), limit>>20)
	}
}

// lineCounter counts the lines written to it.
type lineCounter struct{ n int }

func (c *lineCounter) Write(p []byte) (int, error) {
	c.n += bytes.Count(p, []byte("\n"))
	return len(p), nil
}

// TestProgressString: the status line shows inputs done of total,
// captures, captures/s, MB/s and the time left, by bytes when the sizes
// are known, else by inputs.
func TestProgressString(t *testing.T) {
	for _, tt := range []struct {
		p    scan.Progress
		want string
	}{
		{scan.Progress{Done: 1, Inputs: 4, Captures: 1000, Bytes: 10e6, Size: 40e6, Elapsed: 10 * time.Second}, "1/4 inputs, 1000 captures, 100 captures/s, 1.0 MB/s, ETA 30s"},
		{scan.Progress{Done: 1, Inputs: 4, Captures: 1000, Bytes: 10e6, Size: -1, Elapsed: 10 * time.Second}, "1/4 inputs, 1000 captures, 100 captures/s, 1.0 MB/s, ETA 30s"},
		{scan.Progress{Inputs: 4, Size: -1, Elapsed: time.Second}, "0/4 inputs, 0 captures, 0 captures/s, 0.0 MB/s"},
		{scan.Progress{Done: 4, Inputs: 4, Captures: 10, Bytes: 1e6, Size: 1e6, Elapsed: 2 * time.Second}, "4/4 inputs, 10 captures, 5 captures/s, 0.5 MB/s"},
	} {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.p, got, tt.want)
		}
	}
}

// TestRunProgress: OnProgress is given the run's state every
// ProgressEvery while it runs, one callback at a time, and never after
// Run returns. The downloads go over in-memory connections on synctest's
// fake clock: the server's 200 ms of delay are ten progress intervals,
// however loaded the machine, and a callback late after Run would run
// before the fake clock moves on.
func TestRunProgress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := &bucket{files: map[string][]byte{"/a.jsonl": []byte(`{"url": "https://a.example/robots.txt", "status": 404}` + "\n")},
			delay: 200 * time.Millisecond}
		tl := &told{t: t}
		var returned atomic.Bool
		job := tl.hook(&scan.Job{Inputs: []string{"http://bucket.test/a.jsonl", "http://bucket.test/missing.jsonl"}, Client: pipeClient(t, srv),
			ProgressEvery: 20 * time.Millisecond})
		job.OnProgress = func(p scan.Progress) {
			defer tl.enter()()
			if returned.Load() {
				t.Error("OnProgress after Run returned")
			}
			tl.status = append(tl.status, p)
		}
		rows, res := runRows(t, job)
		returned.Store(true)
		time.Sleep(50 * time.Millisecond)
		if len(rows) != 1 || res.Failed != 1 || len(tl.errs) != 1 {
			t.Fatalf("%d rows, result %+v, told %q", len(rows), res, tl.errs)
		}
		if len(tl.status) < 2 {
			t.Fatalf("progress told %d times, want several", len(tl.status))
		}
		if p := tl.status[0]; p.Inputs != 2 || p.Size != -1 || p.Done != 0 {
			t.Errorf("first progress %+v", p)
		}
	})
}

// TestRunInterrupted: when ctx is done, Run returns its error; with an
// OutDir, the inputs done stay listed and no temporary part is left, so
// that a rerun resumes.
func TestRunInterrupted(t *testing.T) {
	dir := t.TempDir()
	runTree(t, dir, runSites)
	out := filepath.Join(dir, "out")
	requested := make(chan struct{}, 1)
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case requested <- struct{}{}:
		default:
		}
		<-r.Context().Done()
	}))
	defer hang.Close()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		// Once the file is done and the URL's request hangs, interrupt.
		for {
			if st, err := os.Stat(filepath.Join(out, scan.ManifestName)); err == nil && st.Size() > 0 {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		select {
		case <-requested:
			cancel()
		case <-ctx.Done():
		}
	}()
	tl := &told{t: t}
	// A part of one byte is closed after its first input.
	_, err := scan.Run(ctx, tl.hook(&scan.Job{Inputs: []string{filepath.Join(dir, "caps.jsonl"), hang.URL + "/x.warc.gz"}, Workers: 1, OutDir: out, PartSize: 1}))
	if !errors.Is(err, context.Canceled) || tl.errs != nil {
		t.Errorf("err %v, told %q", err, tl.errs)
	}
	if ms := manifestOf(t, out); len(ms) != 1 || len(ms[0].Inputs) != 1 || ms[0].Inputs[0].Input != filepath.Join(dir, "caps.jsonl") {
		t.Errorf("manifest %+v, want caps.jsonl only", ms)
	}
	if tmp, _ := filepath.Glob(filepath.Join(out, "*.tmp")); len(tmp) > 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}

// TestRunJob checks a Job's edges: an input named twice is read once;
// "-" reads Stdin; an unknown Format is an error; a bare "@" is an error;
// an Out of nil discards the rows.
func TestRunJob(t *testing.T) {
	in := `{"url": "https://a.example/robots.txt", "status": 404}` + "\n"
	rows, res := runRows(t, &scan.Job{Inputs: []string{"-", "-"}, Stdin: strings.NewReader(in)})
	if len(rows) != 1 || res.Inputs != 1 || res.Bytes != int64(len(in)) {
		t.Errorf("%d rows, result %+v", len(rows), res)
	}
	if _, err := scan.Run(t.Context(), &scan.Job{Inputs: []string{"-"}, Format: "xml"}); err == nil {
		t.Error("Format xml: no error")
	}
	if _, err := scan.Run(t.Context(), &scan.Job{Inputs: []string{"@"}}); err == nil || !strings.Contains(err.Error(), "@LIST") {
		t.Errorf("@: %v", err)
	}
	if res, err := scan.Run(t.Context(), &scan.Job{Inputs: []string{"-"}, Stdin: strings.NewReader(in)}); err != nil || res.Captures != 1 {
		t.Errorf("Out nil: %v, %+v", err, res)
	}
}

// TestPartName: part-<first 16 hex digits of SHA-256(input)>.<format>;
// the SHA-256 of "abc" is FIPS 180-4's example ba7816bf8f01cfea…
func TestPartName(t *testing.T) {
	if got := scan.PartName("abc", "parquet"); got != "part-ba7816bf8f01cfea.parquet" {
		t.Errorf("PartName(abc) = %q", got)
	}
	if got := scan.PartSummaryName("part-ba7816bf8f01cfea.parquet"); got != "part-ba7816bf8f01cfea.summary.json" {
		t.Errorf("PartSummaryName = %q", got)
	}
	if got := scan.GroupPartName([]string{"abc"}, "parquet"); got != "part-ba7816bf8f01cfea.parquet" {
		t.Errorf("GroupPartName(abc) = %q", got)
	}
	// SHA-256("a\x00b") = 9e21d6f5…
	if got, sum := scan.GroupPartName([]string{"a", "b"}, "csv"), sha256.Sum256([]byte("a\x00b")); got != "part-"+hex.EncodeToString(sum[:8])+".csv" {
		t.Errorf("GroupPartName(a, b) = %q", got)
	}
}

// TestReadCaptures: the loop over one input passes its captures in order
// and its bad lines; a failure of the stream itself ends the input
// (Failed, and an error wrapping it: here the only one, since the
// Reader meets it while it looks at the first bytes); each returning
// false stops it.
func TestReadCaptures(t *testing.T) {
	lines := `{"url": "https://a.example/robots.txt", "status": 404}` + "\n" + "{bad\n" +
		`{"url": "https://b.example/robots.txt", "status": 404}` + "\n"
	var hosts []string
	var errs []error
	st := scan.ReadCaptures(t.Context(), "in.jsonl", strings.NewReader(lines), func(c *scan.Capture) bool {
		hosts = append(hosts, c.URL)
		return true
	}, func(err error) { errs = append(errs, err) })
	if st != (scan.ReadStats{Captures: 2, Errors: 1, Bytes: int64(len(lines))}) || len(hosts) != 2 || len(errs) != 1 {
		t.Errorf("stats %+v, captures %q, errors %v", st, hosts, errs)
	}

	boom := errors.New("boom")
	errs = nil
	st = scan.ReadCaptures(t.Context(), "cut.jsonl", io.MultiReader(strings.NewReader(lines), errReader{boom}),
		func(*scan.Capture) bool { return true }, func(err error) { errs = append(errs, err) })
	var ie *scan.InputError
	if !st.Failed || len(errs) != 1 || !errors.Is(errs[0], boom) || !errors.As(errs[0], &ie) || ie.Source != "cut.jsonl" {
		t.Errorf("a failing stream: stats %+v, errors %v", st, errs)
	}

	n := 0
	st = scan.ReadCaptures(t.Context(), "in.jsonl", strings.NewReader(lines), func(*scan.Capture) bool { n++; return false },
		func(err error) { t.Errorf("told %v", err) })
	if n != 1 || st.Captures != 1 || st.Failed {
		t.Errorf("stopped by each: %d calls, stats %+v", n, st)
	}
}
