package scan

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// writeRows returns rows of every kind: a site with verdicts, lint codes
// and all the lists, an HTML page, a 404, a redirect, a revisit without
// verdicts, a row whose strings need escaping in CSV and JSON, and a site
// with usage lines.
func writeRows(t testing.TB) ([]Row, *Options) {
	t.Helper()
	o := &Options{Robots: testRobots(t), Lint: true}
	when := time.Date(2025, 3, 1, 12, 30, 15, 250e6, time.UTC)
	caps := []Capture{
		{URL: "https://www.example.com/robots.txt", Time: when, Status: 200, Source: "a.warc.gz", Offset: 77,
			Header: http.Header{"Content-Type": {"text/plain"}},
			Body:   []byte("User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\nCrawl-delay: 1.5\nSitemap: /s.xml\nFoo: bar\n")},
		{URL: "https://html.example.org/robots.txt", Time: when.Add(time.Second), Status: 200,
			Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("<!doctype html><title>x</title>")},
		{URL: "http://192.0.2.1/robots.txt", Status: 404},
		{URL: "http://example.net/robots.txt", Status: 301, Header: http.Header{"Location": {"https://example.net/robots.txt"}}},
		{URL: "https://example.com/robots.txt", Status: 200, Revisit: true, Digest: "sha1:X"},
		{URL: "https://q.example/robots.txt?a=\"b\",c", Status: 200, Body: []byte("User-agent: \"quoted\", bot\nDisallow: /é\n")},
		{URL: "https://usage.example/robots.txt", Status: 200, Body: []byte("User-agent: *\nContent-Signal: search=yes, ai-train=no\n" +
			"Content-Signal: ai-input=no\nContent-Usage: /a train-ai=n\nAllow: /\nLicense: https://usage.example/l.xml\n")},
	}
	var rows []Row
	for i := range caps {
		c := &caps[i]
		c.Size = int64(len(c.Body))
		rows = append(rows, Analyze(c, o))
	}
	return rows, o
}

// writeAll writes rows in format and returns the output.
func writeAll(t *testing.T, format string, rows []Row, o *Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, format, o)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if err := w.Write(&rows[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(&rows[0]); err == nil {
		t.Errorf("%s: Write after Close succeeded", format)
	}
	if err := w.Close(); err == nil {
		t.Errorf("%s: second Close succeeded", format)
	}
	return buf.Bytes()
}

// normal makes a row comparable after a round trip: empty lists as nil,
// times in UTC.
func normal(r Row) Row {
	if r.Time.IsZero() {
		r.Time = time.Time{}
	} else {
		r.Time = r.Time.UTC()
	}
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
	return r
}

func compareRows(t *testing.T, format string, got, want []Row) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows read back, want %d", format, len(got), len(want))
	}
	for i := range want {
		g, w := normal(got[i]), normal(want[i])
		for _, d := range rowDiff(&g, &w) {
			t.Errorf("%s row %d: %s", format, i, d)
		}
	}
}

// TestWriteJSONL writes rows as JSON lines and decodes them back.
func TestWriteJSONL(t *testing.T) {
	rows, o := writeRows(t)
	out := writeAll(t, FormatJSONL, rows, o)
	var got []Row
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r Row
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %d: %v", len(got)+1, err)
		}
		got = append(got, r)
	}
	compareRows(t, "jsonl", got, rows)
	// One json.Marshal of the row per line.
	first, _ := json.Marshal(&rows[0])
	if line, _, _ := bytes.Cut(out, []byte("\n")); !bytes.Equal(line, first) {
		t.Errorf("first line %s\nwant %s", line, first)
	}
}

// TestWriteCSV writes rows as CSV and reads them back with encoding/csv.
func TestWriteCSV(t *testing.T) {
	rows, o := writeRows(t)
	out := writeAll(t, FormatCSV, rows, o)
	recs, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(rows)+1 {
		t.Fatalf("%d records, want %d", len(recs), len(rows)+1)
	}
	header := strings.Split("url,host,domain,time,status,redirect_to,content_type,html,bytes,over_limit,groups,rules,sitemaps,encoding,bom,"+
		"content_signal,content_usage,license,"+
		"GPTBot_state,GPTBot_via,GPTBot_line,GPTBot_ai_train,Googlebot_state,Googlebot_via,Googlebot_line,Googlebot_ai_train,"+
		"Googlebot-Image_state,Googlebot-Image_via,Googlebot-Image_line,Googlebot-Image_ai_train,"+
		"AdsBot-Google_state,AdsBot-Google_via,AdsBot-Google_line,AdsBot-Google_ai_train,"+
		"YandexBot_state,YandexBot_via,YandexBot_line,YandexBot_ai_train,bingbot_state,bingbot_via,bingbot_line,bingbot_ai_train,"+
		"OldBot_state,OldBot_via,OldBot_line,OldBot_ai_train,lint", ",")
	if !slices.Equal(recs[0], header) {
		t.Errorf("header %q\nwant %q", recs[0], header)
	}
	r0 := recs[1]
	want0 := []string{"https://www.example.com/robots.txt", "www.example.com", "example.com", "2025-03-01T12:30:15.25Z", "200", "",
		"text/plain", "false", "107", "false", "2", "2", "1", "utf-8", "false", "", "", "",
		"blocked", "named", "2", "none", "partly", "star", "0", "none", "partly", "star", "0", "none", "open", "none", "0", "none",
		"partly", "star", "0", "none", "partly", "star", "0", "none", "partly", "star", "0", "none", strings.Join(rows[0].Lint, " ")}
	if !slices.Equal(r0, want0) {
		t.Errorf("row 1 %q\nwant %q", r0, want0)
	}
	if rows[0].Lint == nil {
		t.Error("no lint codes in the first row")
	}
	// The revisit row has no verdicts: empty cells.
	rv := recs[5]
	if rv[18] != "" || rv[21] != "" || rv[len(rv)-2] != "" || rv[3] != "" {
		t.Errorf("revisit row %q", rv)
	}
	// The usage lines, one a line of their cell; each robot's ai_train.
	ru := recs[7]
	if ru[15] != "search=yes, ai-train=no\nai-input=no" || ru[16] != "/a train-ai=n" || ru[17] != "https://usage.example/l.xml" ||
		ru[21] != "no" || ru[18+4*3+3] != "none" {
		t.Errorf("usage row %q", ru)
	}
	// Every row: the flat columns as the row has them.
	for i, r := range rows {
		rec := recs[i+1]
		if rec[0] != r.URL || rec[1] != r.Host || rec[2] != r.Domain || rec[5] != r.RedirectTo || rec[6] != r.ContentType {
			t.Errorf("row %d: %q", i+1, rec)
		}
		if len(rec) != len(header) {
			t.Errorf("row %d: %d cells, want %d", i+1, len(rec), len(header))
		}
	}
	// Without robots: the flat columns and lint.
	out = writeAll(t, FormatCSV, rows[:1], nil)
	recs, err = csv.NewReader(bytes.NewReader(out)).ReadAll()
	if err != nil || len(recs[0]) != 19 || recs[0][18] != "lint" {
		t.Errorf("without robots: %q, %v", recs, err)
	}
}

// TestNewWriterFormat checks the format names.
func TestNewWriterFormat(t *testing.T) {
	for _, f := range []string{"JSONL", "csv"} {
		if _, err := NewWriter(io.Discard, f, nil); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	// Parquet is package scan/parquet's.
	if _, err := NewWriter(io.Discard, "parquet", nil); err == nil || !strings.Contains(err.Error(), "scan/parquet") {
		t.Errorf("parquet: %v", err)
	}
	if _, err := NewWriter(io.Discard, "xml", nil); err == nil || !strings.Contains(err.Error(), `"xml"`) {
		t.Errorf("xml: %v", err)
	}
}

// TestWriteCSVValidUTF8: a cell of bytes that are not UTF-8 is written
// as the JSON lines write it, each such byte a U+FFFD.
func TestWriteCSVValidUTF8(t *testing.T) {
	r := Row{URL: "https://x.example/caf\xe9", Host: "x.example", Lint: []string{"RB\xff"}}
	out := writeAll(t, FormatCSV, []Row{r}, nil)
	if !utf8.Valid(out) || !bytes.Contains(out, []byte("https://x.example/caf\uFFFD,")) || !bytes.Contains(out, []byte("RB\uFFFD")) {
		t.Errorf("CSV %q", out)
	}
}
