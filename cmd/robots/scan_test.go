package main

import (
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
	"slices"
	"strings"
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
func readManifest(t *testing.T, dir string) []scan.ManifestPart {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, scan.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	var ms []scan.ManifestPart
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
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

// scanSites is a directory of two robots.txt files and a JSON lines file
// of two captures.
var scanSites = map[string]string{
	"sites/example.com": "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n",
	"sites/example.org": "User-agent: *\nDisallow:\n",
	"caps.jsonl": `{"url": "https://a.example/robots.txt", "status": 200, "body": "User-agent: *\nDisallow: /\n"}` + "\n" +
		`{"url": "https://b.example/robots.txt", "status": 404}` + "\n",
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
	got, err := parquet.ReadFile[scan.Row](filepath.Join(out, scan.PartName(in, "parquet")))
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
// scan.DefaultMaxErrors errors and one line saying there are more; the
// manifest counts them all, and the good lines still give rows.
func TestScanErrorCap(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range scan.DefaultMaxErrors + 5 {
		fmt.Fprintf(&b, `{"url": "https://h%d.example/robots.txt", "status": "x"}`+"\n", i)
	}
	b.WriteString(`{"url": "https://ok.example/robots.txt", "status": 404}` + "\n")
	writeFiles(t, dir, map[string]string{"bad.jsonl": b.String()})
	in, out := filepath.Join(dir, "bad.jsonl"), filepath.Join(dir, "out")
	_, stderr, code := runScanArgs(t, nil, "scan", "-robots", "GPTBot", "-format", "jsonl", "-out", out, in)
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if code != exitFinding || len(lines) != scan.DefaultMaxErrors+2 ||
		lines[scan.DefaultMaxErrors] != fmt.Sprintf("robots scan: %s: more than %d errors; the rest are not shown", in, scan.DefaultMaxErrors) {
		t.Errorf("exit %d, %d lines on stderr:\n%s", code, len(lines), stderr)
	}
	ms := readManifest(t, out)
	if len(ms) != 1 || len(ms[0].Inputs) != 1 || ms[0].Inputs[0].Errors != int64(scan.DefaultMaxErrors+5) || ms[0].Rows != 1 {
		t.Errorf("manifest %+v", ms)
	}
	// A rerun has nothing left to do, says so and exits 0: the input's
	// errors were reported by the run that read it.
	_, stderr, code = runScanArgs(t, nil, "scan", "-robots", "GPTBot", "-format", "jsonl", "-out", out, in)
	want := "robots scan: skipped 1 input done before, in parts checked against " + filepath.Join(out, scan.ManifestName) + "\n" +
		"robots scan: nothing left to do: every input is in a part of " + out + "\n"
	if code != 0 || stderr != want {
		t.Errorf("rerun: exit %d, stderr %q, want 0 and %q", code, stderr, want)
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
			if st, err := os.Stat(filepath.Join(out, scan.ManifestName)); err == nil && st.Size() > 0 {
				time.Sleep(50 * time.Millisecond)
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{"scan", "-j", "1", "-format", "jsonl", "-out", out, "-part-size", "1", filepath.Join(dir, "caps.jsonl"), hangingSite(t) + "/x.warc.gz"}, strings.NewReader(""), &stdout, &stderr)
	if code != exitInterrupted || stdout.Len() != 0 || stderr.String() != "robots scan: interrupted\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	ms := readManifest(t, out)
	if len(ms) != 1 || len(ms[0].Inputs) != 1 || ms[0].Inputs[0].Input != filepath.Join(dir, "caps.jsonl") {
		t.Errorf("manifest %+v, want caps.jsonl only", ms)
	}
	if tmp, _ := filepath.Glob(filepath.Join(out, "*.tmp")); len(tmp) > 0 {
		t.Errorf("temporary files left: %v", tmp)
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

// TestScanProgress: when standard error is a terminal, a status line is
// rewritten there with "\r" (robots scan -h), cleared at the end and
// before an error line; rows on standard output are unaffected.
func TestScanProgress(t *testing.T) {
	old := scanProgressEvery
	scanProgressEvery = 20 * time.Millisecond
	t.Cleanup(func() { scanProgressEvery = old })
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(200 * time.Millisecond)
		if r.URL.Path != "/a.jsonl" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, `{"url": "https://a.example/robots.txt", "status": 404}`+"\n")
	}))
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

// TestScanListBase: -base goes before each line of an @LIST (robots scan
// -h); a line naming no file is reported with its path, "robots scan:
// INPUT: message", and makes the exit status 1, after the rest is read.
func TestScanListBase(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"sites/a.example": "User-agent: *\nDisallow: /\n",
		"sites/b.example": "User-agent: GPTBot\nDisallow: /\n",
		"list.txt":        "# hosts\na.example\nmissing.example\n\nb.example\n",
	})
	base := filepath.Join(dir, "sites") + string(filepath.Separator)
	stdout, stderr, code := runScanArgs(t, nil, "scan", "-robots", "GPTBot", "-format", "csv", "@"+filepath.Join(dir, "list.txt"), "-base", base)
	want := "robots scan: " + base + "missing.example: no such file or directory\n" +
		"robots scan: 1 of 3 inputs had errors or could not be read\n"
	if code != exitFinding || stderr != want {
		t.Errorf("exit %d, stderr %q\nwant 1 and %q", code, stderr, want)
	}
	if rows := strings.Split(strings.TrimSpace(stdout), "\n")[1:]; len(rows) != 2 ||
		!strings.HasPrefix(rows[0], "https://a.example/") || !strings.HasPrefix(rows[1], "https://b.example/") {
		t.Errorf("stdout:\n%s", stdout)
	}
}

// TestScanBareAt: "@" without a file name is a usage error.
func TestScanBareAt(t *testing.T) {
	_, stderr, code := runScanArgs(t, nil, "scan", "@")
	if code != exitError || stderr != "robots scan: @ needs a file name: @LIST\nTry: robots scan -h\n" {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
