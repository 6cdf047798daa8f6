package parquet

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	pq "github.com/parquet-go/parquet-go"

	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/scan"
)

// testRows returns rows of every kind: a site with verdicts, lint codes
// and all the lists, an HTML page, a 404, a redirect, a revisit without
// verdicts and a row whose strings need escaping. OldBot reads statuses
// as the 1996 draft does, as no robot of the registry does.
func testRows(t testing.TB) []scan.Row {
	t.Helper()
	rbs, err := scan.SelectRobots("GPTBot,Googlebot,Googlebot-Image,AdsBot-Google,YandexBot,bingbot")
	if err != nil {
		t.Fatal(err)
	}
	rbs = append(rbs, agents.Robot{Token: "OldBot", Profile: "draft1996", Fetch: "draft1996"})
	// The checker's default budget: the rows are small files.
	o := &scan.Options{Robots: rbs, Lint: true}
	when := time.Date(2025, 3, 1, 12, 30, 15, 250e6, time.UTC)
	caps := []scan.Capture{
		{URL: "https://www.example.com/robots.txt", Time: when, Status: 200, Source: "a.warc.gz", Offset: 77,
			Header: http.Header{"Content-Type": {"text/plain"}},
			Body:   []byte("User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\nCrawl-delay: 1.5\nSitemap: /s.xml\nFoo: bar\n")},
		{URL: "https://html.example.org/robots.txt", Time: when.Add(time.Second), Status: 200,
			Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("<!doctype html><title>x</title>")},
		{URL: "http://192.0.2.1/robots.txt", Status: 404},
		{URL: "http://example.net/robots.txt", Status: 301, Header: http.Header{"Location": {"https://example.net/robots.txt"}}},
		{URL: "https://example.com/robots.txt", Status: 200, Revisit: true, Digest: "sha1:X"},
		{URL: "https://q.example/robots.txt?a=\"b\",c", Status: 200, Body: []byte("User-agent: \"quoted\", bot\nDisallow: /é\n")},
		// Usage preferences: each robot's ai_train, and the lines as written.
		{URL: "https://usage.example/robots.txt", Status: 200, Body: []byte("License: https://usage.example/license.xml\n" +
			"User-agent: *\nContent-Signal: search=yes, ai-train=no\nContent-Usage: /news train-ai=y\nAllow: /\n\n" +
			"User-agent: GPTBot\nContent-Usage: train-ai=y\nAllow: /\n\nUser-agent: Google-Extended\nDisallow: /\n")},
	}
	var rows []scan.Row
	for i := range caps {
		c := &caps[i]
		c.Size = int64(len(c.Body))
		rows = append(rows, scan.Analyze(c, o))
	}
	if len(rows[0].Lint) == 0 || len(rows[0].Robots) != len(rbs) {
		t.Fatalf("test bug: the first row has no lint codes or verdicts: %+v", rows[0])
	}
	if u := rows[len(rows)-1]; len(u.ContentSignal) != 1 || len(u.ContentUsage) != 2 || len(u.License) != 1 ||
		u.Robots[0].AITrain != "yes" || u.Robots[1].AITrain != "no" {
		t.Fatalf("test bug: the last row states no usage preferences: %+v", u)
	}
	return rows
}

// normal makes a row comparable after a round trip: empty lists as nil,
// times in UTC.
func normal(r scan.Row) scan.Row {
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
	for _, l := range []*[]string{&r.ContentSignal, &r.ContentUsage, &r.License} {
		if len(*l) == 0 {
			*l = nil
		}
	}
	return r
}

// compareRows fails for each field in which a row read back differs.
func compareRows(t *testing.T, what string, got, want []scan.Row) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows read back, want %d", what, len(got), len(want))
	}
	for i := range want {
		g, w := normal(got[i]), normal(want[i])
		gv, wv := reflect.ValueOf(g), reflect.ValueOf(w)
		for f := range gv.NumField() {
			if gf, wf := gv.Field(f).Interface(), wv.Field(f).Interface(); !reflect.DeepEqual(gf, wf) {
				gj, _ := json.Marshal(gf)
				wj, _ := json.Marshal(wf)
				t.Errorf("%s row %d, %s:\n got %.2000s\nwant %.2000s", what, i, gv.Type().Field(f).Name, gj, wj)
			}
		}
	}
}

// writeAll writes rows and returns the file.
func writeAll(t *testing.T, rows []scan.Row) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for i := range rows {
		if err := w.Write(&rows[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(&rows[0]); err == nil {
		t.Error("Write after Close succeeded")
	}
	if err := w.Close(); err == nil {
		t.Error("second Close succeeded")
	}
	return buf.Bytes()
}

// readAll reads the rows of a file with parquet-go's reader.
func readAll(t *testing.T, file []byte, n int) []scan.Row {
	t.Helper()
	r := pq.NewGenericReader[scan.Row](bytes.NewReader(file))
	defer r.Close()
	got := make([]scan.Row, n+1)
	k, err := r.Read(got)
	if err != nil && !errors.Is(err, io.EOF) {
		t.Fatal(err)
	}
	return got[:k]
}

// TestWrite writes rows as Parquet and reads them back with parquet-go's
// reader.
func TestWrite(t *testing.T) {
	rows := testRows(t)
	out := writeAll(t, rows)
	f, err := pq.OpenFile(bytes.NewReader(out), int64(len(out)))
	if err != nil {
		t.Fatal(err)
	}
	// Every column is zstd-compressed (https://parquet.apache.org/docs/file-format/data-pages/compression/).
	for _, rg := range f.Metadata().RowGroups {
		for _, c := range rg.Columns {
			if c.MetaData.Codec.String() != "ZSTD" {
				t.Errorf("column %v: codec %v", c.MetaData.PathInSchema, c.MetaData.Codec)
			}
		}
	}
	compareRows(t, "parquet", readAll(t, out, len(rows)), rows)
}

// TestParquetSchema checks the column names of the file, the contract of
// the output (the parquet tags of scan.Row, and agents.raw), and that the
// lists are Parquet LISTs
// (https://github.com/apache/parquet-format/blob/master/LogicalTypes.md#lists),
// which DuckDB reads as lists. It reads the schema of a file written,
// not the Go type that describes it.
func TestParquetSchema(t *testing.T) {
	out := writeAll(t, testRows(t)[:1])
	f, err := pq.OpenFile(bytes.NewReader(out), int64(len(out)))
	if err != nil {
		t.Fatal(err)
	}
	s := f.Schema()
	var names []string
	for _, f := range s.Fields() {
		names = append(names, f.Name())
	}
	want := []string{"url", "host", "domain", "time", "source", "offset", "status", "redirect_to", "content_type",
		"html", "bytes", "over_limit", "truncated", "revisit", "encoding", "bom", "outcomes", "directives", "groups", "rules",
		"sitemaps", "agents", "content_signal", "content_usage", "license", "robots", "lint", "lint_timeout"}
	if !slices.Equal(names, want) {
		t.Errorf("columns %v\nwant %v", names, want)
	}
	lists := map[string][]string{
		"outcomes":       {"policy", "outcome"},
		"directives":     {"key", "count"},
		"agents":         {"value", "lower", "token", "line", "raw"},
		"robots":         {"robot", "state", "via", "line", "group", "crawl_delay", "ai_train"},
		"lint":           nil,
		"content_signal": nil,
		"content_usage":  nil,
		"license":        nil,
	}
	for _, f := range s.Fields() {
		fields, ok := lists[f.Name()]
		if !ok {
			continue
		}
		lt := f.Type().LogicalType()
		if lt == nil || lt.String() != "LIST" {
			t.Errorf("%s: not a LIST", f.Name())
			continue
		}
		// LIST → repeated group list → element.
		list := f.Fields()
		if len(list) != 1 || list[0].Name() != "list" || !list[0].Repeated() {
			t.Errorf("%s: not the three-level LIST structure", f.Name())
			continue
		}
		elem := list[0].Fields()[0]
		var got []string
		for _, e := range elem.Fields() {
			got = append(got, e.Name())
		}
		if !slices.Equal(got, fields) {
			t.Errorf("%s element fields %v, want %v", f.Name(), got, fields)
		}
	}
	for _, f := range s.Fields() {
		if f.Name() == "time" {
			if lt := f.Type().LogicalType(); lt == nil || !strings.HasPrefix(lt.String(), "TIMESTAMP") || !f.Optional() {
				t.Errorf("time: %v, optional %v; want an optional TIMESTAMP", lt, f.Optional())
			}
		}
	}
	// agents.raw is bytes, not a STRING: it is optional, and no logical
	// type says it is UTF-8.
	raw, ok := s.Lookup("agents", "list", "element", "raw")
	if !ok {
		t.Fatal("no agents.raw")
	}
	if raw.Node.Type().Kind() != pq.ByteArray || raw.Node.Type().LogicalType() != nil || !raw.Node.Optional() {
		t.Errorf("agents.raw: %v %v, optional %v; want an optional BYTE_ARRAY without logical type",
			raw.Node.Type().Kind(), raw.Node.Type().LogicalType(), raw.Node.Optional())
	}
}

// TestSchemaMirrorsRow checks that the file has every column of
// scan.Row, with its type, in its order, and agents.raw: fileRow must
// follow scan.Row when a field is added.
func TestSchemaMirrorsRow(t *testing.T) {
	row := pq.SchemaOf(scan.Row{})
	var want []string
	for _, path := range row.Columns() {
		l, _ := row.Lookup(path...)
		want = append(want, fmt.Sprintf("%s %v %v", strings.Join(path, "."), l.Node.Type(), l.Node.Optional()))
		if strings.Join(path, ".") == "agents.list.element.line" {
			want = append(want, "agents.list.element.raw BYTE_ARRAY true")
		}
	}
	var got []string
	for _, path := range schema.Columns() {
		l, _ := schema.Lookup(path...)
		got = append(got, fmt.Sprintf("%s %v %v", strings.Join(path, "."), l.Node.Type(), l.Node.Optional()))
	}
	if !slices.Equal(got, want) {
		t.Errorf("the file's columns\n%s\nwant scan.Row's and agents.raw\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRowGroups writes more rows than a row group holds, in many
// batches, and reads every row back, in order, from two row groups.
func TestRowGroups(t *testing.T) {
	rows := testRows(t)
	var many []scan.Row
	for i := range RowGroupSize + batchRows/2 + 1 {
		r := rows[i%len(rows)]
		r.Offset = int64(i)
		many = append(many, r)
	}
	out := writeAll(t, many)
	f, err := pq.OpenFile(bytes.NewReader(out), int64(len(out)))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.RowGroups()); n != 2 {
		t.Errorf("%d row groups, want 2", n)
	}
	compareRows(t, "row groups", readAll(t, out, len(many)), many)
}

// TestWriteDoesNotKeepRows checks that a Writer keeps nothing of a row
// after Write: the caller may reuse its slices.
func TestWriteDoesNotKeepRows(t *testing.T) {
	rows := testRows(t)
	want := make([]scan.Row, len(rows))
	for i, r := range rows {
		want[i] = r
		want[i].Robots = slices.Clone(r.Robots)
		want[i].Agents = slices.Clone(r.Agents)
	}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for i := range rows {
		if err := w.Write(&rows[i]); err != nil {
			t.Fatal(err)
		}
		for j := range rows[i].Robots {
			rows[i].Robots[j].State = "changed"
		}
		for j := range rows[i].Agents {
			rows[i].Agents[j].Value = "changed"
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	compareRows(t, "parquet after reuse", readAll(t, buf.Bytes(), len(rows)), want)
}

// TestRun writes Parquet parts with scan.Run, and the rows read back are
// those the JSON lines of the same input hold.
func TestRun(t *testing.T) {
	var in strings.Builder
	for i := range 3 {
		fmt.Fprintf(&in, `{"url": "https://h%d.example/robots.txt", "status": 200, "body": "User-agent: GPTBot\nDisallow: /%d\n"}`+"\n", i, i)
	}
	robots, err := scan.SelectRobots("ai")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	job := &scan.Job{Inputs: []string{"-"}, Stdin: strings.NewReader(in.String()), Options: &scan.Options{Robots: robots},
		Format: Format, NewWriter: NewRowWriter, OutDir: dir}
	if _, err := scan.Run(t.Context(), job); err != nil {
		t.Fatal(err)
	}
	var jsonl bytes.Buffer
	job.Stdin, job.Format, job.NewWriter, job.OutDir, job.Out = strings.NewReader(in.String()), scan.FormatJSONL, nil, "", &jsonl
	if _, err := scan.Run(t.Context(), job); err != nil {
		t.Fatal(err)
	}
	var want []scan.Row
	for l := range strings.SplitSeq(strings.TrimSpace(jsonl.String()), "\n") {
		var r scan.Row
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		want = append(want, r)
	}
	part, err := pq.ReadFile[scan.Row](dir + "/" + scan.PartName("-", Format))
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 3 {
		t.Fatalf("%d rows of JSON lines, want 3", len(want))
	}
	compareRows(t, "parquet part", part, want)
}

// TestWriteSharedLists: the rows of a scan.Analyzer share their verdict
// lists, which the Writer converts once per list; the file holds each
// row's own verdicts, in every order of the lists' rows.
func TestWriteSharedLists(t *testing.T) {
	rbs, err := scan.SelectRobots("")
	if err != nil {
		t.Fatal(err)
	}
	o := &scan.Options{Robots: rbs}
	z := scan.NewAnalyzer(o)
	bodies := []string{"User-agent: *\nDisallow: /\n", "User-agent: GPTBot\nDisallow: /\n", "", "User-agent: *\nDisallow: /x\n"}
	var shared, alone []scan.Row
	for i := range 200 {
		body := []byte(bodies[(i*7)%len(bodies)])
		c := &scan.Capture{URL: "https://h.example/robots.txt", Status: []int{200, 200, 404, 503}[i%4], Body: body, Size: int64(len(body))}
		shared = append(shared, z.Analyze(c))
		alone = append(alone, scan.Analyze(c, o))
	}
	if &shared[0].Robots[0] != &shared[16].Robots[0] {
		t.Fatal("test bug: the rows share no list")
	}
	compareRows(t, "shared lists", readAll(t, writeAll(t, shared), len(shared)), alone)

	// A caller that reuses one list for other verdicts gets them written.
	var buf bytes.Buffer
	w := NewWriter(&buf)
	row := alone[0]
	row.Robots = slices.Clone(row.Robots)
	var want []scan.Row
	for _, st := range []string{"open", "blocked", "partly", "open"} {
		for j := range row.Robots {
			row.Robots[j].State = st
		}
		if err := w.Write(&row); err != nil {
			t.Fatal(err)
		}
		r := row
		r.Robots = slices.Clone(row.Robots)
		want = append(want, r)
	}
	w.Close()
	compareRows(t, "a reused list", readAll(t, buf.Bytes(), len(want)), want)
}
