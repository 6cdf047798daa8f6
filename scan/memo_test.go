package scan

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// memoBodies are the bodies of the Analyzer's tests: the corpus's when
// -corpus is given, else a few of every shape, with repeats.
func memoBodies(t testing.TB) [][]byte {
	var bodies [][]byte
	if *corpus != "" {
		paths, _ := filepath.Glob(filepath.Join(*corpus, "*"))
		slices.Sort(paths)
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			bodies = append(bodies, b)
		}
		return bodies
	}
	for _, b := range benchBodies() {
		bodies = append(bodies, []byte(b))
	}
	bodies = append(bodies, []byte("\xFF\xFEU\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00:\x00 \x00*\x00\n\x00"),
		[]byte("User-agent: Gr\xe9gory\nDisallow: /caf\xe9\n"), []byte("User-agent: *\nCrawl-delay: 0.0000001\nDisallow: /<script>&\u2028\n"),
		[]byte("License: https://a.example/l?a=1&b=<2>\nUser-agent: *\nContent-Signal: search=yes, ai-train=no\nContent-Usage: /caf\xe9 train-ai=n\nAllow: /\n\n"+
			"User-agent: GPTBot\nContent-Usage: train-ai=y\nAllow: /\n\nUser-agent: Google-Extended\nDisallow: /\n"))
	return bodies
}

// TestAnalyzerSame: an Analyzer gives every capture the row Analyze gives
// it, whether its body was read before or not, under each status.
func TestAnalyzerSame(t *testing.T) {
	rbs, err := SelectRobots("")
	if err != nil {
		t.Fatal(err)
	}
	o := &Options{Robots: rbs}
	z := NewAnalyzer(o)
	bodies := memoBodies(t)
	statuses := []int{200, 200, 404, 503, 301, 403, 0}
	enc := new(rowEncoderCache)
	n := 0
	for pass := range 2 {
		for i, body := range bodies {
			st := statuses[(i+pass)%len(statuses)]
			c := &Capture{URL: "https://h" + string(rune('a'+i%26)) + ".example/robots.txt", Status: st, Body: body, Size: int64(len(body)),
				Header: map[string][]string{"Location": {"/x"}}, Time: time.Unix(int64(i), 0)}
			got, want := z.Analyze(c), Analyze(c, o)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("body %d, status %d: the Analyzer's row differs:\n%s", i, st, strings.Join(rowDiff(&got, &want), "\n"))
			}
			// The encoder's cache of verdict lists writes the same bytes.
			gj, gerr := enc.appendRow(nil, &got)
			wj, werr := appendRow(nil, &want)
			if !bytes.Equal(gj, wj) || (gerr == nil) != (werr == nil) {
				t.Fatalf("body %d, status %d: the cached encoding differs:\n%s\n%s", i, st, gj, wj)
			}
			n++
		}
	}
	if n < 2*len(bodies) {
		t.Fatal("test bug")
	}
	// The second pass read nothing again: the rows share the lists.
	c := &Capture{URL: "https://x.example/robots.txt", Status: 200, Body: bodies[0], Size: int64(len(bodies[0]))}
	r1, r2 := z.Analyze(c), z.Analyze(c)
	if len(r1.Robots) > 0 && &r1.Robots[0] != &r2.Robots[0] {
		t.Error("two captures of one body do not share their verdicts")
	}
	// A nil Analyzer is Analyze.
	var nz *Analyzer
	if got, want := nz.Analyze(c), Analyze(c, nil); !reflect.DeepEqual(got, want) {
		t.Error("a nil Analyzer differs from Analyze")
	}
}

// TestAppendRow: the JSONL writer's encoder writes the bytes of
// encoding/json's Marshal for every row: the rows of every body, and
// strings with every kind of byte that Marshal escapes.
func TestAppendRow(t *testing.T) {
	rbs, err := SelectRobots("all")
	if err != nil {
		t.Fatal(err)
	}
	o := &Options{Robots: rbs, Lint: true}
	var rows []Row
	for i, body := range memoBodies(t) {
		c := &Capture{URL: "https://www.example.com/robots.txt", Status: 200, Body: body, Size: int64(len(body)), Time: time.Unix(int64(i)*1e6, int64(i)*1e5), Source: "a.warc.gz", Offset: int64(i)}
		rows = append(rows, Analyze(c, o))
	}
	var odd strings.Builder
	for c := range 256 {
		odd.WriteByte(byte(c))
	}
	odd.WriteString("\u2028\u2029é€😀\xed\xa0\x80\xf4\x90\x80\x80")
	s := odd.String()
	rows = append(rows, Row{}, Row{URL: s, Host: s, Domain: s, Source: s, RedirectTo: s, ContentType: s, Encoding: s, BOM: true, Truncated: true, Revisit: true,
		LintTimeout: true, Lint: []string{s, ""}, Outcomes: []Outcome{{s, s}}, Directives: []KeyCount{{s, -3}}, Agents: []AgentValue{{s, s, s, 7}},
		ContentSignal: []string{s, ""}, ContentUsage: []string{s}, License: []string{"", s, "https://a.example/?a=1&b=2"},
		Robots: []Verdict{{s, s, s, 1, 2, 0.5, s}, {CrawlDelay: 1e-7, AITrain: "no"}, {CrawlDelay: 1e21}, {CrawlDelay: 123456789.125}, {CrawlDelay: -2}}},
		// Empty lists that are not nil: omitempty leaves them out too.
		Row{ContentSignal: []string{}, ContentUsage: []string{}, License: []string{}, Lint: []string{}, Robots: []Verdict{}})
	usageRow := false
	for i := range rows {
		usageRow = usageRow || len(rows[i].ContentSignal) > 0 && len(rows[i].ContentUsage) > 1 && len(rows[i].License) > 0 &&
			slices.ContainsFunc(rows[i].Robots, func(v Verdict) bool { return v.AITrain == "no" }) &&
			slices.ContainsFunc(rows[i].Robots, func(v Verdict) bool { return v.AITrain == "yes" })
	}
	if !usageRow {
		t.Fatal("test bug: no row of a body with usage lines and ai_train verdicts")
	}
	for i := range rows {
		want, werr := json.Marshal(&rows[i])
		got, gerr := appendRow(nil, &rows[i])
		if (werr != nil) != (gerr != nil) || werr == nil && !bytes.Equal(got, want) {
			t.Errorf("row %d:\n got %s (%v)\nwant %s (%v)", i, got, gerr, want, werr)
		}
	}
	// What Marshal cannot write, appendRow refuses too.
	for _, r := range []Row{{Time: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}, {Robots: []Verdict{{CrawlDelay: math.Inf(1)}}}, {Robots: []Verdict{{CrawlDelay: math.NaN()}}}} {
		if _, err := appendRow(nil, &r); err == nil {
			t.Errorf("%+v: no error", r)
		}
	}
}

// FuzzAppendJSONString: every string is written as Marshal writes it,
// alone and in each list of strings of a row and its verdicts.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "a\"b\\c", "<&>", "\u2028", "\xff\xfe", "\x00\x1f\x7f", "é😀", "search=yes, ai-train=no"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("%q: %s, want %s", s, got, want)
		}
		r := Row{ContentSignal: []string{s}, ContentUsage: []string{s, s}, License: []string{s, ""}, Lint: []string{s},
			Robots: []Verdict{{Robot: s, State: s, Via: s, AITrain: s}, {AITrain: s}}}
		want, _ = json.Marshal(&r)
		if got, err := appendRow(nil, &r); err != nil || !bytes.Equal(got, want) {
			t.Errorf("row of %q:\n got %s (%v)\nwant %s", s, got, err, want)
		}
	})
}

// BenchmarkAnalyzerRepeat is the cost of a capture whose body the
// Analyzer read before: the facts of the response only.
func BenchmarkAnalyzerRepeat(b *testing.B) {
	rbs, err := SelectRobots("")
	if err != nil {
		b.Fatal(err)
	}
	z := NewAnalyzer(&Options{Robots: rbs})
	body := []byte(benchBodies()["ai"])
	c := &Capture{URL: "https://www.h0000123.example.co.uk/robots.txt", Status: 200, Body: body, Size: int64(len(body)),
		Header: map[string][]string{"Content-Type": {"text/plain"}}}
	z.Analyze(c)
	b.ReportAllocs()
	for b.Loop() {
		z.Analyze(c)
	}
}
