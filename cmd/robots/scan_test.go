package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
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
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/robotskit/robots/scan"
)

// runScanArgs runs robots with args and returns standard output, standard
// error and the exit code.
func runScanArgs(t *testing.T, stdin io.Reader, args ...string) (string, string, int) {
	t.Helper()
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), args, stdin, &out, &errb)
	return out.String(), errb.String(), code
}

// writeFiles writes name → content under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
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

// jsonRows decodes JSON lines into rows.
func jsonRows(t *testing.T, s string) []scan.Row {
	t.Helper()
	var rows []scan.Row
	for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
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

// readManifest reads DIR/_manifest.jsonl.
func readManifest(t *testing.T, dir string) []manifestLine {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, scanManifest))
	if err != nil {
		t.Fatal(err)
	}
	var ms []manifestLine
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		dec := json.NewDecoder(strings.NewReader(l))
		dec.DisallowUnknownFields()
		var m manifestLine
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("manifest line %q: %v", l, err)
		}
		ms = append(ms, m)
	}
	return ms
}

// scanSites is a directory of two robots.txt files and a JSON lines file
// of two captures.
var scanSites = map[string]string{
	"sites/example.com": "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n",
	"sites/example.org": "User-agent: *\nDisallow:\n",
	"caps.jsonl": `{"url": "https://a.example/robots.txt", "status": 200, "body": "User-agent: *\nDisallow: /\n"}` + "\n" +
		`{"url": "https://b.example/robots.txt", "status": 404}` + "\n",
}

// TestScanOutManifestRerun: with -out DIR each input gets its own part
// file, part-<16 hex digits of the SHA-256 of the input>.<format>, and a
// line of DIR/_manifest.jsonl {"input", "part", "captures", "rows",
// "errors", "bytes", "seconds"} (robots scan -h); no temporary file is
// left. A rerun skips the inputs the manifest lists whose part is there,
// says so on standard error, and its summary still counts them; an input
// whose part is gone is read again.
func TestScanOutManifestRerun(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, scanSites)
	out := filepath.Join(dir, "out")
	inputs := []string{filepath.Join(dir, "sites"), filepath.Join(dir, "caps.jsonl")}
	args := append([]string{"scan", "-robots", "GPTBot", "-format", "jsonl", "-out", out, "-summary", filepath.Join(dir, "s1.json")}, inputs...)
	stdout, stderr, code := runScanArgs(t, nil, args...)
	if code != 0 || stdout != "" || stderr != "" {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	wantInputs := []string{filepath.Join(dir, "sites", "example.com"), filepath.Join(dir, "sites", "example.org"), filepath.Join(dir, "caps.jsonl")}
	ms := readManifest(t, out)
	if len(ms) != 3 {
		t.Fatalf("manifest has %d lines, want 3: %+v", len(ms), ms)
	}
	byInput := map[string]manifestLine{}
	for _, m := range ms {
		byInput[m.Input] = m
	}
	for _, in := range wantInputs {
		m, ok := byInput[in]
		if !ok {
			t.Fatalf("manifest lacks %s: %+v", in, ms)
		}
		if len(m.Part) != len("part-0123456789abcdef.jsonl") || m.Part != partName(in, "jsonl") {
			t.Errorf("%s: part %q, want %q", in, m.Part, partName(in, "jsonl"))
		}
		data, err := os.ReadFile(filepath.Join(out, m.Part))
		if err != nil {
			t.Fatal(err)
		}
		rows := jsonRows(t, string(data))
		st, _ := os.Stat(in)
		if int64(len(rows)) != m.Rows || m.Rows != m.Captures || m.Errors != 0 || m.Bytes != st.Size() || m.Seconds < 0 {
			t.Errorf("%s: manifest %+v, %d rows in the part, %d bytes", in, m, len(rows), st.Size())
		}
		for _, r := range rows {
			if r.Source != in {
				t.Errorf("%s: a row of source %q", in, r.Source)
			}
		}
	}
	if byInput[wantInputs[2]].Rows != 2 {
		t.Errorf("caps.jsonl: %d rows, want 2", byInput[wantInputs[2]].Rows)
	}
	if tmp, _ := filepath.Glob(filepath.Join(out, "*.tmp")); len(tmp) > 0 {
		t.Errorf("temporary files left: %v", tmp)
	}

	// A rerun skips the three inputs.
	args[len(args)-len(inputs)-1] = filepath.Join(dir, "s2.json")
	stdout, stderr, code = runScanArgs(t, nil, args...)
	if code != 0 || stdout != "" || stderr != "robots scan: skipped 3 inputs done before ("+filepath.Join(out, scanManifest)+")\n" {
		t.Fatalf("rerun: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	if n := len(readManifest(t, out)); n != 3 {
		t.Errorf("rerun: manifest has %d lines, want 3", n)
	}
	sameFile(t, filepath.Join(dir, "s1.json"), filepath.Join(dir, "s2.json"))

	// Without its part, an input is read again.
	if err := os.Remove(filepath.Join(out, partName(wantInputs[2], "jsonl"))); err != nil {
		t.Fatal(err)
	}
	args[len(args)-len(inputs)-1] = filepath.Join(dir, "s3.json")
	_, stderr, code = runScanArgs(t, nil, args...)
	if code != 0 || !strings.HasPrefix(stderr, "robots scan: skipped 2 inputs") {
		t.Fatalf("rerun without a part: exit %d, stderr %q", code, stderr)
	}
	ms = readManifest(t, out)
	if len(ms) != 4 || ms[3].Input != wantInputs[2] || ms[3].Rows != 2 {
		t.Errorf("rerun without a part: manifest %+v", ms)
	}
	sameFile(t, filepath.Join(dir, "s1.json"), filepath.Join(dir, "s3.json"))
}

// sameFile fails unless files a and b hold the same bytes.
func sameFile(t *testing.T, a, b string) {
	t.Helper()
	da, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	db, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(da, db) {
		t.Errorf("%s and %s differ:\n%s\n---\n%s", a, b, da, db)
	}
}

// TestScanParquet: with -out and no -format the parts are Parquet (robots
// scan -h), and parquet-go reads back the rows that -format jsonl prints.
func TestScanParquet(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, scanSites)
	in := filepath.Join(dir, "caps.jsonl")
	out := filepath.Join(dir, "out")
	if _, stderr, code := runScanArgs(t, nil, "scan", "-robots", "ai", in, "-out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, err := parquet.ReadFile[scan.Row](filepath.Join(out, partName(in, "parquet")))
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runScanArgs(t, nil, "scan", "-robots", "ai", in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := jsonRows(t, stdout)
	if len(got) != len(want) || len(want) != 2 {
		t.Fatalf("%d rows from Parquet, %d from JSON lines, want 2", len(got), len(want))
	}
	for i := range want {
		g, _ := json.Marshal(normalRow(got[i]))
		w, _ := json.Marshal(normalRow(want[i]))
		if !bytes.Equal(g, w) {
			t.Errorf("row %d:\nparquet %s\njsonl   %s", i, g, w)
		}
	}
	if len(got[0].Robots) == 0 || got[0].Robots[0].State != "blocked" {
		t.Errorf("row 0: robots %+v, want every AI robot blocked", got[0].Robots)
	}
}

// normalRow makes empty lists nil and times UTC, which the formats keep
// differently.
func normalRow(r scan.Row) scan.Row {
	if len(r.Outcomes) == 0 {
		r.Outcomes = nil
	}
	if len(r.Directives) == 0 {
		r.Directives = nil
	}
	if len(r.Agents) == 0 {
		r.Agents = nil
	}
	if len(r.Robots) == 0 {
		r.Robots = nil
	}
	if len(r.Lint) == 0 {
		r.Lint = nil
	}
	r.Time = r.Time.UTC()
	return r
}

// The WARC records below are laid out as WARC/1.1 §4 and annex C show
// them (https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/),
// with the records Common Crawl writes for each robots.txt fetch
// (request, response, metadata;
// https://commoncrawl.org/blog/robotstxt-and-404-redirect-data-sets).

// warcRecord builds one record.
func warcRecord(typ, uri string, n int, block []byte, fields ...string) []byte {
	var b bytes.Buffer
	b.WriteString("WARC/1.0\r\n")
	fmt.Fprintf(&b, "WARC-Type: %s\r\n", typ)
	b.WriteString("WARC-Date: 2024-03-01T10:00:00Z\r\n")
	fmt.Fprintf(&b, "WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-%012d>\r\n", n)
	if uri != "" {
		fmt.Fprintf(&b, "WARC-Target-URI: %s\r\n", uri)
	}
	for i := 0; i+1 < len(fields); i += 2 {
		fmt.Fprintf(&b, "%s: %s\r\n", fields[i], fields[i+1])
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", len(block))
	b.Write(block)
	b.WriteString("\r\n\r\n")
	return b.Bytes()
}

// gzipMember compresses p as one gzip member (RFC 1952 §2.2).
func gzipMember(p []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(p)
	w.Close()
	return b.Bytes()
}

// warcCapture returns the request, response and metadata records of one
// robots.txt fetch.
func warcCapture(n int, host, status, body string) [][]byte {
	uri := "https://" + host + "/robots.txt"
	resp := fmt.Sprintf("HTTP/1.1 %s\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n%s", status, len(body), body)
	return [][]byte{
		warcRecord("request", uri, n, []byte("GET /robots.txt HTTP/1.1\r\nHost: "+host+"\r\nUser-Agent: CCBot/2.0 (https://commoncrawl.org/faq/)\r\n\r\n"),
			"Content-Type", "application/http; msgtype=request"),
		warcRecord("response", uri, n+1, []byte(resp),
			"Content-Type", "application/http; msgtype=response", "WARC-Payload-Digest", "sha1:"+strings.ToUpper(host)),
		warcRecord("metadata", uri, n+2, []byte("fetchTimeMs: 120\r\n"),
			"Content-Type", "application/warc-fields"),
	}
}

// warcGz lays out a warcinfo record and captures, one gzip member per
// record as Common Crawl does, and returns the file with the offsets of
// the response records.
func warcGz(caps ...[][]byte) ([]byte, []int64) {
	var b bytes.Buffer
	b.Write(gzipMember(warcRecord("warcinfo", "", 0, []byte("software: test\r\n"), "Content-Type", "application/warc-fields")))
	var offs []int64
	for _, c := range caps {
		for i, r := range c {
			if i == 1 {
				offs = append(offs, int64(b.Len()))
			}
			b.Write(gzipMember(r))
		}
	}
	return b.Bytes(), offs
}

// TestScanWARCGz reads a Common Crawl style robots.txt WARC file: one row
// per response record (docs/scan.md, "Inputs"), none for the request,
// metadata and warcinfo records; the row's offset is its record's gzip
// member's, its time the WARC-Date.
func TestScanWARCGz(t *testing.T) {
	data, offs := warcGz(
		warcCapture(1, "a.example", "200 OK", "User-agent: GPTBot\nDisallow: /\n"),
		warcCapture(4, "b.example", "404 Not Found", "<html>no</html>"),
		warcCapture(7, "c.example", "200 OK", "User-agent: *\nDisallow: /tmp/\n"),
	)
	dir := t.TempDir()
	name := filepath.Join(dir, "CC-MAIN-robotstxt-00000.warc.gz")
	if err := os.WriteFile(name, data, 0o666); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runScanArgs(t, nil, "scan", "-robots", "GPTBot", name)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows := jsonRows(t, stdout)
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
		t.Fatalf("%d rows, want %d:\n%s", len(rows), len(want), stdout)
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

// TestScanCorruptInput: an input that cannot be read, a corrupt line of
// JSON and a corrupt gzip member are each reported on standard error as
// "robots scan: INPUT: offset N: message", the other inputs and records
// are read, and the exit status is 1 (robots scan -h).
//
// This is a Go test rather than a testdata case because TestCLI holds
// that a command exiting 0 or 1 writes nothing on standard error but
// notes starting "robots: ".
func TestScanCorruptInput(t *testing.T) {
	dir := t.TempDir()
	good, _ := warcGz(warcCapture(1, "a.example", "200 OK", "User-agent: *\nDisallow: /\n"))
	bad, offs := warcGz(
		warcCapture(1, "b.example", "200 OK", "User-agent: *\nDisallow: /b\n"),
		warcCapture(4, "c.example", "200 OK", "User-agent: *\nDisallow: /c\n"),
		warcCapture(7, "d.example", "200 OK", "User-agent: *\nDisallow: /d\n"),
	)
	// Spoil the second response's gzip member: its deflate data.
	spoilAt := offs[1] + 12
	for i := spoilAt; i < spoilAt+8; i++ {
		bad[i] ^= 0xff
	}
	writeFiles(t, dir, map[string]string{
		"1-good.warc.gz": string(good),
		"2-bad.warc.gz":  string(bad),
		"3-lines.jsonl": `{"url": "https://e.example/robots.txt", "status": 200, "body": "User-agent: *\nDisallow: /e\n"}` + "\n" +
			`{"url": "https://f.example/robots.txt", "status": ` + "\n" +
			`{"url": "https://g.example/robots.txt", "status": 404}` + "\n",
	})
	missing := filepath.Join(dir, "4-missing.warc.gz")
	stdout, stderr, code := runScanArgs(t, nil, "scan", "-j", "1", "-robots", "GPTBot", "-format", "csv",
		filepath.Join(dir, "1-good.warc.gz"), filepath.Join(dir, "2-bad.warc.gz"), filepath.Join(dir, "3-lines.jsonl"), missing)
	if code != exitFinding {
		t.Errorf("exit %d, want 1", code)
	}
	var hosts []string
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n")[1:] {
		hosts = append(hosts, strings.Split(l, ",")[1])
	}
	// The member of c.example is lost; d.example, after it, is read.
	if want := []string{"a.example", "b.example", "d.example", "e.example", "g.example"}; !slices.Equal(hosts, want) {
		t.Errorf("rows for %v, want %v\n%s", hosts, want, stdout)
	}
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	wantPrefixes := []string{
		fmt.Sprintf("robots scan: %s: offset %d: ", filepath.Join(dir, "2-bad.warc.gz"), offs[1]),
		fmt.Sprintf("robots scan: %s: offset %d: ", filepath.Join(dir, "3-lines.jsonl"), len(`{"url": "https://e.example/robots.txt", "status": 200, "body": "User-agent: *\nDisallow: /e\n"}`)+1),
		"robots scan: " + missing + ": no such file or directory",
		"robots scan: 3 of 4 inputs had errors or could not be read",
	}
	if len(lines) != len(wantPrefixes) {
		t.Fatalf("stderr:\n%s\nwant %d lines", stderr, len(wantPrefixes))
	}
	for i, p := range wantPrefixes {
		if !strings.HasPrefix(lines[i], p) {
			t.Errorf("stderr line %d: %q, want it to start with %q", i+1, lines[i], p)
		}
	}
}

// TestScanErrorCap: an input full of bad lines shows its first
// scanMaxErrorLines errors and one line saying there are more; the
// manifest counts them all, and the good lines still give rows.
func TestScanErrorCap(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range scanMaxErrorLines + 5 {
		fmt.Fprintf(&b, `{"url": "https://h%d.example/robots.txt", "status": "x"}`+"\n", i)
	}
	b.WriteString(`{"url": "https://ok.example/robots.txt", "status": 404}` + "\n")
	writeFiles(t, dir, map[string]string{"bad.jsonl": b.String()})
	in, out := filepath.Join(dir, "bad.jsonl"), filepath.Join(dir, "out")
	_, stderr, code := runScanArgs(t, nil, "scan", "-robots", "GPTBot", "-format", "jsonl", "-out", out, in)
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if code != exitFinding || len(lines) != scanMaxErrorLines+2 ||
		lines[scanMaxErrorLines] != fmt.Sprintf("robots scan: %s: more than %d errors; the rest are not shown", in, scanMaxErrorLines) {
		t.Errorf("exit %d, %d lines on stderr:\n%s", code, len(lines), stderr)
	}
	ms := readManifest(t, out)
	if len(ms) != 1 || ms[0].Errors != int64(scanMaxErrorLines+5) || ms[0].Rows != 1 {
		t.Errorf("manifest %+v", ms)
	}
	// A rerun skips the input, whose errors still make the exit status 1.
	_, stderr, code = runScanArgs(t, nil, "scan", "-robots", "GPTBot", "-format", "jsonl", "-out", out, in)
	want := "robots scan: skipped 1 input done before (" + filepath.Join(out, scanManifest) + ")\n" +
		"robots scan: 1 of 1 input had errors or could not be read\n"
	if code != exitFinding || stderr != want {
		t.Errorf("rerun: exit %d, stderr %q, want 1 and %q", code, stderr, want)
	}
}

// scanServer serves files over HTTP as a bucket does, with Range requests
// (RFC 9110 §14.2), and records the requests. Paths in fail503 answer 503
// to their first request; paths in breakOff send half of their body to
// their first request and then drop the connection.
type scanServer struct {
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

func (s *scanServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := s.now.Add(1)
	defer s.now.Add(-1)
	for {
		m := s.maxConc.Load()
		if n <= m || s.maxConc.CompareAndSwap(m, n) {
			break
		}
	}
	s.mu.Lock()
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

// fastRetries makes download retries quick for a test.
func fastRetries(t *testing.T) {
	old := scanRetryDelay
	scanRetryDelay = time.Millisecond
	t.Cleanup(func() { scanRetryDelay = old })
}

// gzipBytes compresses p as one gzip stream.
func gzipBytes(p string) string { return string(gzipMember([]byte(p))) }

// TestScanListBaseHTTP reads a gzip-compressed @LIST of paths with -base,
// as Common Crawl's robotstxt.paths.gz is read (docs/scan.md), against a
// local server: a WARC.gz, a JSON lines file whose first request gets a
// 503 (retried), one whose first response breaks off (resumed with a Range
// request from the byte where it stopped, RFC 9110 §14.2) and a path that
// is not there (404: reported, exit 1, the rest read).
func TestScanListBaseHTTP(t *testing.T) {
	fastRetries(t)
	warcData, _ := warcGz(warcCapture(1, "a.example", "200 OK", "User-agent: *\nDisallow: /\n"))
	var long strings.Builder
	for i := range 200 {
		fmt.Fprintf(&long, `{"url": "https://c%d.example/robots.txt", "status": 200, "body": "User-agent: *\nDisallow: /%d\n"}`+"\n", i, i)
	}
	srv := &scanServer{
		files: map[string][]byte{
			"/crawl/a.warc.gz": warcData,
			"/crawl/b.jsonl":   []byte(`{"url": "https://b.example/robots.txt", "status": 404}` + "\n"),
			"/crawl/c.jsonl":   []byte(long.String()),
		},
		fail503:  map[string]bool{"/crawl/b.jsonl": true},
		breakOff: map[string]bool{"/crawl/c.jsonl": true},
		seen:     map[string]int{},
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	dir := t.TempDir()
	list := filepath.Join(dir, "robotstxt.paths.gz")
	writeFiles(t, dir, map[string]string{"robotstxt.paths.gz": gzipBytes("crawl/a.warc.gz\ncrawl/b.jsonl\n\ncrawl/missing.warc.gz\ncrawl/c.jsonl\n")})

	stdout, stderr, code := runScanArgs(t, nil, "scan", "@"+list, "-base", ts.URL+"/", "-robots", "GPTBot", "-format", "csv")
	if code != exitFinding {
		t.Errorf("exit %d, want 1 (a missing input)", code)
	}
	wantErr := "robots scan: " + ts.URL + "/crawl/missing.warc.gz: HTTP 404 Not Found\n" +
		"robots scan: 1 of 4 inputs had errors or could not be read\n"
	if stderr != wantErr {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, wantErr)
	}
	rows := strings.Split(strings.TrimSpace(stdout), "\n")[1:]
	if len(rows) != 202 || !strings.HasPrefix(rows[0], "https://a.example/") || !strings.HasPrefix(rows[1], "https://b.example/") ||
		!strings.HasPrefix(rows[2], "https://c0.example/") || !strings.HasPrefix(rows[201], "https://c199.example/") {
		t.Errorf("%d rows, want a, b and c0 to c199 in order:\n%s", len(rows), stdout)
	}
	if srv.seen["/crawl/b.jsonl"] != 2 {
		t.Errorf("b.jsonl requested %d times, want 2 (a 503, then a retry)", srv.seen["/crawl/b.jsonl"])
	}
	if want := fmt.Sprintf("/crawl/c.jsonl bytes=%d-", len(long.String())/2); !slices.Contains(srv.ranges, want) {
		t.Errorf("Range requests %q, want %q", srv.ranges, want)
	}
	if srv.seen["/crawl/missing.warc.gz"] != 1 {
		t.Errorf("a 404 was requested %d times, want once (no retry)", srv.seen["/crawl/missing.warc.gz"])
	}
}

// TestScanDownloadStalls: a download during which nothing arrives for
// scanIdleTimeout is dropped and resumed with a Range request (RFC 9110
// §14.2); its rows are all there, once each.
func TestScanDownloadStalls(t *testing.T) {
	fastRetries(t)
	old := scanIdleTimeout
	scanIdleTimeout = 100 * time.Millisecond
	t.Cleanup(func() { scanIdleTimeout = old })
	var data strings.Builder
	for i := range 100 {
		fmt.Fprintf(&data, `{"url": "https://h%d.example/robots.txt", "status": 404}`+"\n", i)
	}
	srv := &scanServer{files: map[string][]byte{"/s.jsonl": []byte(data.String())}, stall: map[string]bool{"/s.jsonl": true}, seen: map[string]int{}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	stdout, stderr, code := runScanArgs(t, nil, "scan", "-robots", "GPTBot", ts.URL+"/s.jsonl")
	rows := jsonRows(t, stdout)
	if code != 0 || stderr != "" || len(rows) != 100 || rows[99].Host != "h99.example" {
		t.Errorf("exit %d, stderr %q, %d rows", code, stderr, len(rows))
	}
	if want := fmt.Sprintf("/s.jsonl bytes=%d-", data.Len()/2); !slices.Equal(srv.ranges, []string{want}) {
		t.Errorf("Range requests %q, want %q", srv.ranges, want)
	}
}

// TestScanInterrupted: Ctrl-C ends a run with exit 130 and "interrupted"
// (robots -h); with -out the inputs done stay listed and no temporary
// part is left, so a rerun resumes.
func TestScanInterrupted(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, scanSites)
	out := filepath.Join(dir, "out")
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		// Once the file is done, the URL hangs: interrupt then.
		for {
			if st, err := os.Stat(filepath.Join(out, scanManifest)); err == nil && st.Size() > 0 {
				time.Sleep(50 * time.Millisecond)
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{"scan", "-j", "1", "-out", out, filepath.Join(dir, "caps.jsonl"), hangingSite(t) + "/x.warc.gz"}, strings.NewReader(""), &stdout, &stderr)
	if code != exitInterrupted || stdout.Len() != 0 || stderr.String() != "robots scan: interrupted\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	ms := readManifest(t, out)
	if len(ms) != 1 || ms[0].Input != filepath.Join(dir, "caps.jsonl") {
		t.Errorf("manifest %+v, want caps.jsonl only", ms)
	}
	if tmp, _ := filepath.Glob(filepath.Join(out, "*.tmp")); len(tmp) > 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}

// TestScanDownloadsAtOnce: at most four URL inputs are streamed at once,
// whatever -j (robots scan -h).
func TestScanDownloadsAtOnce(t *testing.T) {
	srv := &scanServer{files: map[string][]byte{}, seen: map[string]int{}, delay: 30 * time.Millisecond}
	var args []string
	for i := range 12 {
		p := fmt.Sprintf("/%d.jsonl", i)
		srv.files[p] = []byte(fmt.Sprintf(`{"url": "https://h%d.example/robots.txt", "status": 404}`+"\n", i))
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	for i := range 12 {
		args = append(args, fmt.Sprintf("%s/%d.jsonl", ts.URL, i))
	}
	stdout, stderr, code := runScanArgs(t, nil, append([]string{"scan", "-j", "12", "-robots", "GPTBot"}, args...)...)
	if code != 0 || len(jsonRows(t, stdout)) != 12 {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	if m := srv.maxConc.Load(); m > int64(scanMaxDownloads) || m < 2 {
		t.Errorf("%d downloads at once, want 2 to %d", m, scanMaxDownloads)
	}
}

// TestScanShardList: the shards i/n of an @LIST's lines are disjoint and
// together hold every line (robots scan -h: FNV-1a of the line modulo n);
// -base does not change them.
func TestScanShardList(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	var list strings.Builder
	for i := range 20 {
		name := fmt.Sprintf("h%02d.example", i)
		files["sites/"+name] = fmt.Sprintf("User-agent: *\nDisallow: /%d\n", i)
		list.WriteString(name + "\n")
	}
	files["list.txt"] = list.String()
	writeFiles(t, dir, files)
	const n = 3
	var all []string
	for i := range n {
		stdout, stderr, code := runScanArgs(t, nil, "scan", "-robots", "GPTBot", "-format", "csv", "-shard", fmt.Sprintf("%d/%d", i, n),
			"-base", filepath.Join(dir, "sites")+string(filepath.Separator), "@"+filepath.Join(dir, "list.txt"))
		if code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, stderr)
		}
		rows := strings.Split(strings.TrimSpace(stdout), "\n")[1:]
		if len(rows) == 0 || len(rows) == 20 {
			t.Errorf("shard %d/%d holds %d of 20 inputs", i, n, len(rows))
		}
		for _, r := range rows {
			host := strings.Split(r, ",")[1]
			if shardOf(host, n) != uint64(i) {
				t.Errorf("shard %d holds %s, whose shard is %d", i, host, shardOf(host, n))
			}
			all = append(all, host)
		}
	}
	slices.Sort(all)
	if len(all) != 20 || len(slices.Compact(all)) != 20 {
		t.Errorf("the shards hold %v, want each of the 20 inputs once", all)
	}
}

// TestShardOf pins the hash: FNV-1a 64 (offset basis 14695981039346656037,
// prime 1099511628211; http://www.isthe.com/chongo/tech/comp/fnv/), so
// that a shard's inputs can be worked out by other tools.
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
		if got := shardOf(tt.key, tt.n); got != tt.want {
			t.Errorf("shardOf(%q, %d) = %d, want %d", tt.key, tt.n, got, tt.want)
		}
	}
	for _, bad := range []string{"3/2", "2/2", "x", "1", "-1/2", "1/0", "a/b", "1/2/3"} {
		if _, _, err := parseShard(bad); err == nil {
			t.Errorf("parseShard(%q): no error", bad)
		}
	}
	if i, n, err := parseShard("199/200"); err != nil || i != 199 || n != 200 {
		t.Errorf("parseShard(199/200) = %d, %d, %v", i, n, err)
	}
}

// TestScanMerge: robots scan merge of the summaries of two runs equals the
// summary of one run over both inputs (docs/scan.md, "Merging"), as
// JSON, and as Markdown on standard output by default.
func TestScanMerge(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, scanSites)
	a, b := filepath.Join(dir, "sites"), filepath.Join(dir, "caps.jsonl")
	for _, run := range [][]string{
		{"-summary", filepath.Join(dir, "a.json"), a},
		{"-summary", filepath.Join(dir, "b.json"), b},
		{"-summary", filepath.Join(dir, "all.json"), a, b},
		{"-summary", filepath.Join(dir, "all.md"), b, a},
	} {
		if _, stderr, code := runScanArgs(t, nil, append([]string{"scan", "-robots", "ai,Googlebot"}, run...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", run, code, stderr)
		}
	}
	if _, stderr, code := runScanArgs(t, nil, "scan", "merge", filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json"), "-summary", filepath.Join(dir, "merged.json")); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	sameFile(t, filepath.Join(dir, "all.json"), filepath.Join(dir, "merged.json"))
	stdout, stderr, code := runScanArgs(t, nil, "scan", "merge", filepath.Join(dir, "b.json"), filepath.Join(dir, "a.json"))
	want, _ := os.ReadFile(filepath.Join(dir, "all.md"))
	if code != 0 || stderr != "" || stdout != string(want) {
		t.Errorf("merge to standard output: exit %d, stderr %q\n%s\nwant:\n%s", code, stderr, stdout, want)
	}
	var sum scan.Summary
	data, _ := os.ReadFile(filepath.Join(dir, "all.json"))
	s, err := scan.ReadSummary(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	sum.Merge(s)
	if sum.Captures != 4 || sum.Sites != 3 {
		t.Errorf("summary of both: %d captures, %d sites, want 4 and 3", sum.Captures, sum.Sites)
	}

	// A file that is no summary is an error naming it, exit 2.
	_, stderr, code = runScanArgs(t, nil, "scan", "merge", filepath.Join(dir, "a.json"), b)
	if code != exitError || !strings.HasPrefix(stderr, "robots scan: "+b+": ") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("merge of a JSON lines file: exit %d, stderr %q", code, stderr)
	}
}

// TestScanBoundedMemory streams 50,000 captures of about 2 KiB each
// (100 MB) through standard input: the heap stays within a few tens of
// MiB, since captures wait in bounded queues and no input is held whole.
func TestScanBoundedMemory(t *testing.T) {
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
	var errb bytes.Buffer
	code := run(context.Background(), []string{"scan", "-robots", "ai", "-summary", filepath.Join(t.TempDir(), "s.json"), "-"}, pr, lines, &errb)
	close(stop)
	<-sampled
	if code != 0 || errb.Len() > 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if lines.n != captures {
		t.Errorf("%d rows, want %d", lines.n, captures)
	}
	const limit = 48 << 20
	t.Logf("%d MB in, heap peak %.1f MiB", fed.Load()>>20, float64(peak.Load())/(1<<20))
	if fed.Load() < 90<<20 {
		t.Errorf("test bug: only %d bytes fed", fed.Load())
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

// TestScanStatus: the status line shows inputs done of total, captures,
// captures/s, MB/s and the time left, by bytes when the sizes are known,
// else by inputs.
func TestScanStatus(t *testing.T) {
	for _, tt := range []struct {
		done, total    int
		caps, read, sz int64
		elapsed        time.Duration
		want           string
	}{
		{1, 4, 1000, 10e6, 40e6, 10 * time.Second, "1/4 inputs, 1000 captures, 100 captures/s, 1.0 MB/s, ETA 30s"},
		{1, 4, 1000, 10e6, -1, 10 * time.Second, "1/4 inputs, 1000 captures, 100 captures/s, 1.0 MB/s, ETA 30s"},
		{0, 4, 0, 0, -1, time.Second, "0/4 inputs, 0 captures, 0 captures/s, 0.0 MB/s"},
		{4, 4, 10, 1e6, 1e6, 2 * time.Second, "4/4 inputs, 10 captures, 5 captures/s, 0.5 MB/s"},
	} {
		if got := scanStatus(tt.done, tt.total, tt.caps, tt.read, tt.sz, tt.elapsed); got != tt.want {
			t.Errorf("scanStatus(%d, %d, %d, %d, %d, %v) = %q, want %q", tt.done, tt.total, tt.caps, tt.read, tt.sz, tt.elapsed, got, tt.want)
		}
	}
}

// TestScanProgress: when standard error is a terminal, a status line is
// rewritten there with "\r" (robots scan -h), cleared at the end and
// before an error line; rows on standard output are unaffected.
func TestScanProgress(t *testing.T) {
	old := scanProgressEvery
	scanProgressEvery = 20 * time.Millisecond
	t.Cleanup(func() { scanProgressEvery = old })
	srv := &scanServer{files: map[string][]byte{"/a.jsonl": []byte(`{"url": "https://a.example/robots.txt", "status": 404}` + "\n")},
		seen: map[string]int{}, delay: 200 * time.Millisecond}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	var out, errb bytes.Buffer
	e := &env{ctx: context.Background(), stdin: strings.NewReader(""), stdout: &out, stderr: &errb, tty: true}
	err := runScan(e, []string{"-robots", "GPTBot", ts.URL + "/a.jsonl", ts.URL + "/missing.jsonl"})
	if err != errFinding || len(jsonRows(t, out.String())) != 1 {
		t.Fatalf("err %v, stdout %q", err, out.String())
	}
	got := errb.String()
	if !strings.Contains(got, "\r\x1b[K0/2 inputs, 0 captures, 0 captures/s, 0.0 MB/s") ||
		!strings.Contains(got, "\r\x1b[Krobots scan: "+ts.URL+"/missing.jsonl: HTTP 404 Not Found\n") ||
		!strings.HasSuffix(got, "\r\x1b[Krobots scan: 1 of 2 inputs had errors or could not be read\n") {
		t.Errorf("stderr %q", got)
	}
}

// TestScanLint: -lint runs the checker of robots check on each capture
// (scan.Options.Lint) and the row lists its codes; without -lint the row
// has none (docs/scan.md, "The row": lint).
func TestScanLint(t *testing.T) {
	in := `{"url": "https://a.example/robots.txt", "status": 200, "body": "User-agent: *\nDissallow: /x\n"}` + "\n"
	for _, lint := range []bool{false, true} {
		args := []string{"scan", "-robots", "GPTBot", "-"}
		if lint {
			args = append(args, "-lint")
		}
		stdout, stderr, code := runScanArgs(t, strings.NewReader(in), args...)
		rows := jsonRows(t, stdout)
		if code != 0 || stderr != "" || len(rows) != 1 || (len(rows[0].Lint) > 0) != lint {
			t.Errorf("%v: exit %d, stderr %q, rows %+v", args, code, stderr, rows)
		}
	}
}

// TestScanPartName: part-<first 16 hex digits of SHA-256(input)>.<format>
// (robots scan -h); the SHA-256 of "abc" is FIPS 180-4's example
// ba7816bf8f01cfea…
func TestScanPartName(t *testing.T) {
	if got := partName("abc", "parquet"); got != "part-ba7816bf8f01cfea.parquet" {
		t.Errorf("partName(abc) = %q", got)
	}
	if got := partSummaryName("part-ba7816bf8f01cfea.parquet"); got != "part-ba7816bf8f01cfea.summary.json" {
		t.Errorf("partSummaryName = %q", got)
	}
}
