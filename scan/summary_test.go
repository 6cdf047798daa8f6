package scan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/fetch"
)

// sumJSON returns the JSON form of s, for comparing summaries: its maps
// come out sorted, so two summaries with the same counts give the same
// bytes.
func sumJSON(t testing.TB, s *Summary) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sumOutcomes returns the outcomes of a row whose "google" policy reads
// the response as google and every other policy as other.
func sumOutcomes(google, other string) []Outcome {
	var out []Outcome
	for _, p := range reportPolicies {
		o := other
		if p == "google" {
			o = google
		}
		out = append(out, Outcome{Policy: p, Outcome: o})
	}
	return out
}

// TestSummaryPolicyOrder pins reportPolicies to fetch.Policies, the order of
// Row.Outcomes.
func TestSummaryPolicyOrder(t *testing.T) {
	var names []string
	for _, p := range fetch.Policies() {
		names = append(names, p.String())
	}
	if !reflect.DeepEqual(names, reportPolicies) {
		t.Errorf("fetch.Policies() = %q, reportPolicies = %q", names, reportPolicies)
	}
}

// TestIsSite: a site is a capture whose robots.txt a Google crawler reads
// as rules (Google's robots.txt documentation, HTTP status codes: a 2xx
// is processed as the file), that is no HTML page (the soft 404s the
// checker's RB205 reports) and no revisit without payload.
func TestIsSite(t *testing.T) {
	for _, tt := range []struct {
		name string
		row  *Row
		want bool
	}{
		{"nil", nil, false},
		{"rules", &Row{Status: 200, Outcomes: sumOutcomes("rules", "rules")}, true},
		{"google unavailable, others rules", &Row{Status: 404, Outcomes: sumOutcomes("unavailable", "rules")}, false},
		{"google rules only", &Row{Outcomes: []Outcome{{"google", "rules"}}}, true},
		{"first google outcome decides", &Row{Outcomes: []Outcome{{"google", "unreachable"}, {"google", "rules"}}}, false},
		{"no google outcome", &Row{Outcomes: []Outcome{{"rfc9309", "rules"}}}, false},
		{"no outcome", &Row{Status: 200}, false},
		{"html", &Row{HTML: true, Outcomes: sumOutcomes("rules", "rules")}, false},
		{"revisit", &Row{Revisit: true, Outcomes: sumOutcomes("rules", "rules")}, false},
		{"over limit still usable", &Row{OverLimit: true, Bytes: 600 << 10, Outcomes: sumOutcomes("rules", "rules")}, true},
		{"outcome name is exact", &Row{Outcomes: []Outcome{{"google", "Rules"}}}, false},
	} {
		if got := IsSite(tt.row); got != tt.want {
			t.Errorf("%s: IsSite = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestSizeBins: the bins of the Web Almanac 2024's robots-txt-size query
// (size_kib = 0, (0,100], (100,200] … (400,500], > 500), with the first
// step cut at 1 and 10 KiB; bounds are inclusive, in bytes.
func TestSizeBins(t *testing.T) {
	for _, tt := range []struct {
		n    int64
		want string
	}{
		{-1, "0"}, {0, "0"}, {1, "1k"}, {1024, "1k"}, {1025, "10k"}, {10240, "10k"}, {10241, "100k"},
		{102400, "100k"}, {102401, "200k"}, {204800, "200k"}, {307200, "300k"}, {409600, "400k"},
		{512000, "500k"}, {512001, "more"}, {1 << 40, "more"},
	} {
		if got := sumSizeBin(tt.n); got != tt.want {
			t.Errorf("sumSizeBin(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
	seen := map[string]bool{}
	for i, b := range sumSizeBins {
		if seen[b.Key] {
			t.Errorf("bin key %q twice", b.Key)
		}
		seen[b.Key] = true
		if i > 0 && i < len(sumSizeBins)-1 && b.Max <= sumSizeBins[i-1].Max {
			t.Errorf("bin %q does not grow", b.Key)
		}
	}
	if last := sumSizeBins[len(sumSizeBins)-1]; last.Max != -1 {
		t.Errorf("last bin %q has a bound", last.Key)
	}
	// The Almanac's 500 KiB step ends at RFC 9309 §2.5's limit, the
	// limit the row's OverLimit marks.
	if sumSizeBins[len(sumSizeBins)-2].Max != MaxBody-1 {
		t.Errorf("the last bounded bin ends at %d, want %d", sumSizeBins[len(sumSizeBins)-2].Max, MaxBody-1)
	}
}

func TestSummaryAdd(t *testing.T) {
	var s Summary
	s.Add(nil)
	s.Add(&Row{ // a site
		Status: 200, Bytes: 2000, Outcomes: sumOutcomes("rules", "rules"),
		Directives: []KeyCount{{"user-agent", 3}, {"disallow", 2}, {"dissallow", 1}, {"disallow", 1}, {"allow", 0}},
		Agents:     []AgentValue{{Lower: "gptbot"}, {Lower: "*"}, {Lower: "gptbot"}},
		Robots: []Verdict{
			{Robot: "GPTBot", State: "blocked", Via: "named"},
			{Robot: "CCBot", State: "partly", Via: "star"},
			{Robot: "GPTBot", State: "open", Via: "star"}, // a repeat: the first counts
		},
		Lint: []string{"RB303", "RB303", "RB406"},
	})
	s.Add(&Row{ // a soft 404: an HTML page served with 200
		Status: 200, HTML: true, Bytes: 5000, Outcomes: sumOutcomes("rules", "rules"),
		Agents: []AgentValue{{Lower: "ignored"}},
		Lint:   []string{"RB205"},
	})
	s.Add(&Row{Status: 404, Outcomes: sumOutcomes("unavailable", "unavailable"), LintTimeout: true})
	s.Add(&Row{Status: 503, Outcomes: sumOutcomes("unreachable", "unreachable"), Revisit: true, Truncated: true})
	s.Add(&Row{ // an empty file over the wire, with bytes the JSON form cannot hold
		Status: 200, Outcomes: []Outcome{{"google", "rules"}, {"google", "unavailable"}},
		Agents: []AgentValue{{Lower: "bot\xff"}, {Lower: "bot\xfe"}},
	})

	want := Summary{
		Captures: 5, Sites: 2, HTML: 1, Truncated: 1, Revisits: 1, LintTimeouts: 1,
		Status: map[int]int64{200: 3, 404: 1, 503: 1},
		Sizes:  map[string]int64{"10k": 1, "0": 1},
		Outcomes: map[string]map[string]int64{
			"google":    {"rules": 3, "unavailable": 1, "unreachable": 1},
			"rfc9309":   {"rules": 2, "unavailable": 1, "unreachable": 1},
			"bing":      {"rules": 2, "unavailable": 1, "unreachable": 1},
			"yandex":    {"rules": 2, "unavailable": 1, "unreachable": 1},
			"draft1996": {"rules": 2, "unavailable": 1, "unreachable": 1},
			"mandelbot": {"rules": 2, "unavailable": 1, "unreachable": 1},
		},
		Directives: map[string]KeyUse{"user-agent": {1, 3}, "disallow": {1, 3}, "dissallow": {1, 1}},
		Agents:     map[string]int64{"gptbot": 1, "*": 1, "bot\uFFFD": 1},
		Robots: map[string]VerdictCounts{
			"GPTBot": {"named": {"blocked": 1}},
			"CCBot":  {"star": {"partly": 1}},
		},
		Lint: map[string]LintUse{"RB303": {1, 1}, "RB406": {1, 1}, "RB205": {1, 0}},
		// No usage line and no control token: none for every purpose.
		Usage: map[string]UsageCounts{"search": {None: 2}, "ai-input": {None: 2}, "ai-train": {None: 2}},
	}
	if got, w := sumJSON(t, &s), sumJSON(t, &want); got != w {
		t.Errorf("summary\n got %s\nwant %s", got, w)
	}
	if err := s.validate(); err != nil {
		t.Errorf("validate: %v", err)
	}
}

// TestSummaryUsage checks the usage table's counts: each source read as
// the root package reads its lines, control tokens only where a group
// names them and bars some path, a no over a yes, sites only.
func TestSummaryUsage(t *testing.T) {
	site := sumOutcomes("rules", "rules")
	ge := func(state, via string) Verdict { return Verdict{Robot: "Google-Extended", State: state, Via: via} }
	ae := func(state, via string) Verdict { return Verdict{Robot: "Applebot-Extended", State: state, Via: via} }
	tests := []struct {
		name string
		row  Row
		want [3]string                    // search, ai-input, ai-train
		srcs map[string]map[string]string // purpose → source → value counted
	}{
		{name: "nothing", row: Row{Status: 200, Outcomes: site}, want: [3]string{"none", "none", "none"}},
		{name: "signal", row: Row{Status: 200, Outcomes: site, ContentSignal: []string{"search=yes, ai-train=no", "AI-Input=No"}},
			want: [3]string{"yes", "no", "no"},
			srcs: map[string]map[string]string{"search": {"Content-Signal": "yes"}, "ai-input": {"Content-Signal": "no"}, "ai-train": {"Content-Signal": "no"}}},
		// A path first, then the AIPREF value; a value that is no RFC 9651
		// Dictionary states nothing (vocab-08 §6.5.1); the last of a
		// label counts.
		{name: "usage", row: Row{Status: 200, Outcomes: site, ContentUsage: []string{"/a/\t train-ai=n", "search=Y", "ai-use=y, ai-use=n", "/b"}},
			want: [3]string{"none", "no", "no"},
			srcs: map[string]map[string]string{"ai-input": {"Content-Usage": "no"}, "ai-train": {"Content-Usage": "no"}}},
		// No wins over yes; the sources that say yes do not count under no.
		{name: "no over yes", row: Row{Status: 200, Outcomes: site, ContentSignal: []string{"ai-train=yes"}, ContentUsage: []string{"train-ai=n"},
			Robots: []Verdict{ge("blocked", "named"), ae("partly", "named")}, License: []string{"https://x.example/l", "https://x.example/m"}},
			want: [3]string{"none", "no", "no"},
			srcs: map[string]map[string]string{"ai-input": {"Google-Extended": "no"},
				"ai-train": {"Content-Usage": "no", "Google-Extended": "no", "Applebot-Extended": "no"}}},
		// A control token read through "*", or open, says nothing; a
		// repeated verdict counts once.
		{name: "control through star", row: Row{Status: 200, Outcomes: site, ContentSignal: []string{"ai-train=yes"},
			Robots: []Verdict{ge("blocked", "star"), ae("open", "named"), ae("blocked", "named")}},
			want: [3]string{"none", "none", "yes"},
			srcs: map[string]map[string]string{"ai-train": {"Content-Signal": "yes"}}},
		// No site, no count.
		{name: "HTML", row: Row{Status: 200, Outcomes: site, HTML: true, ContentSignal: []string{"ai-train=no"}, Robots: []Verdict{ge("blocked", "named")}}},
	}
	for _, tt := range tests {
		var s Summary
		s.Add(&tt.row)
		if err := s.validate(); err != nil {
			t.Errorf("%s: validate: %v", tt.name, err)
		}
		if tt.row.HTML {
			if s.Usage != nil {
				t.Errorf("%s: counted: %+v", tt.name, s.Usage)
			}
			continue
		}
		for i, p := range []string{"search", "ai-input", "ai-train"} {
			u := s.Usage[p]
			want := UsageCounts{}
			switch tt.want[i] {
			case "no":
				want.No = 1
			case "yes":
				want.Yes = 1
			default:
				want.None = 1
			}
			for src, v := range tt.srcs[p] {
				want.Sources = addSource(want.Sources, src, v)
			}
			if !reflect.DeepEqual(u, want) {
				t.Errorf("%s: %s = %+v, want %+v", tt.name, p, u, want)
			}
		}
	}
}

// TestUsageStatements: the summary reads the values of a row's usage
// lines as the root package reads the lines of the file they come from.
func TestUsageStatements(t *testing.T) {
	for _, line := range []string{"Content-Usage: train-ai=n", "Content-Usage: / train-ai=n", "Content-Usage: /a/b\ttrain-ai=y",
		"Content-Usage: /a/b \t search=n", "Content-Usage: /only-a-path", "Content-Usage: /", "Content-Usage:", "Content-Usage: search=y /x",
		"Content-Usage: /é train-ai=n # comment", "content-usage: ai-use=n, train-ai=\"n\"", "Content-Usage train-ai=n",
		"Content-Signal: search=yes, ai-train=no", "CONTENT-SIGNAL: ai-input = No ,ai-train=yes", "Content-Signal: ai-train=n", "Content-Signal ai-input=no"} {
		body := "User-agent: *\n" + line + "\n"
		want := robots.Parse([]byte(body), robots.Google).UsageStatements(robots.Agent{})
		row := Analyze(&Capture{Status: 200, Body: []byte(body)}, nil)
		got := usageStatements(&row)
		if len(got) != 1 || len(want) != 1 || got[0].Field != want[0].Field || got[0].Path != want[0].Path ||
			got[0].Value != want[0].Value || got[0].Prefs != want[0].Prefs {
			t.Errorf("%q: the row's values %q %q read as %+v, the file as %+v", line, row.ContentUsage, row.ContentSignal, got, want)
		}
	}
	// A value with a line break, in a row made by hand, stays one line.
	r := Row{ContentSignal: []string{"search=no\nai-train=no", "ai-input=no\r"}}
	if st := usageStatements(&r); len(st) != 2 || st[0].Prefs[robots.Search] != robots.NoPreference || st[1].Prefs[robots.AIInput] != robots.No {
		t.Errorf("line breaks: %+v", st)
	}
}

// sumPick returns a random element of list.
func sumPick[T any](r *rand.Rand, list []T) T { return list[r.IntN(len(list))] }

// sumRandomRow makes a row from small alphabets, so that keys repeat
// across rows, with the odd values a real crawl has: repeats inside one
// list, invalid UTF-8, unknown states, counts of 0.
func sumRandomRow(r *rand.Rand) *Row {
	row := &Row{
		Status:      sumPick(r, []int{200, 200, 200, 404, 403, 500, 503, 301, 0, 999, 100, 206}),
		HTML:        r.IntN(8) == 0,
		Revisit:     r.IntN(10) == 0,
		Truncated:   r.IntN(10) == 0,
		LintTimeout: r.IntN(12) == 0,
		Bytes:       sumPick(r, []int64{0, 1, 1024, 1025, 5000, 10240, 50000, 102401, 300000, 512000, 512001, 900000}),
	}
	row.OverLimit = row.Bytes > 500<<10
	if r.IntN(10) > 0 {
		for _, p := range reportPolicies {
			if r.IntN(20) == 0 {
				continue
			}
			row.Outcomes = append(row.Outcomes, Outcome{p, sumPick(r, []string{"rules", "rules", "rules", "unavailable", "forbidden", "unreachable", "success"})})
		}
		if r.IntN(15) == 0 {
			row.Outcomes = append(row.Outcomes, Outcome{"google", "forbidden"})
		}
	}
	for range r.IntN(6) {
		row.Directives = append(row.Directives, KeyCount{sumPick(r, []string{"user-agent", "disallow", "allow", "sitemap", "crawl-delay", "dissallow", "host", "x\xff"}), r.IntN(5) - 1})
	}
	for range r.IntN(6) {
		row.Agents = append(row.Agents, AgentValue{Lower: sumPick(r, []string{"*", "googlebot", "gptbot", "ccbot", "", "bot\xff", "bot\xfe", "mozilla/5.0"})})
	}
	for range r.IntN(3) {
		row.ContentSignal = append(row.ContentSignal, sumPick(r, []string{"search=yes, ai-train=no", "ai-input=no", "ai-train=yes", "x=\xff", ""}))
	}
	for range r.IntN(3) {
		row.ContentUsage = append(row.ContentUsage, sumPick(r, []string{"train-ai=n", "/a train-ai=y", "search=y, ai-use=n", "bad=", "/x"}))
	}
	for range r.IntN(2) {
		row.License = append(row.License, sumPick(r, []string{"https://a.example/l", ""}))
	}
	for _, tok := range []string{"GPTBot", "CCBot", "Googlebot", "ClaudeBot", "Google-Extended", "Applebot-Extended"} {
		if r.IntN(6) == 0 {
			continue
		}
		v := Verdict{Robot: tok, State: sumPick(r, []string{"blocked", "partly", "open", "open", "odd"}), Via: sumPick(r, []string{"named", "fallback", "star", "none", "star"})}
		row.Robots = append(row.Robots, v)
		if r.IntN(20) == 0 {
			row.Robots = append(row.Robots, v)
		}
	}
	for range r.IntN(4) {
		row.Lint = append(row.Lint, sumPick(r, []string{"RB104", "RB205", "RB303", "RB406", "RB303"}))
	}
	return row
}

// TestSummaryMergeSplits is the property that makes shards possible:
// for random rows and random splits, merging the summaries of the parts,
// in any order and through the JSON form, gives the summary of all rows.
func TestSummaryMergeSplits(t *testing.T) {
	for trial := range uint64(60) {
		r := rand.New(rand.NewPCG(trial, 7))
		rows := make([]*Row, r.IntN(200))
		for i := range rows {
			rows[i] = sumRandomRow(r)
		}
		var whole Summary
		for _, row := range rows {
			whole.Add(row)
		}
		if err := whole.validate(); err != nil {
			t.Fatalf("trial %d: the summary of the rows does not validate: %v", trial, err)
		}
		k := 1 + r.IntN(6)
		parts := make([]*Summary, k)
		for i := range parts {
			parts[i] = &Summary{}
		}
		for _, row := range rows {
			parts[r.IntN(k)].Add(row)
		}
		r.Shuffle(k, func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
		var merged Summary
		for _, p := range parts {
			if r.IntN(2) == 0 { // through the file format
				var buf bytes.Buffer
				if err := p.WriteJSON(&buf); err != nil {
					t.Fatal(err)
				}
				q, err := ReadSummary(&buf)
				if err != nil {
					t.Fatalf("trial %d: ReadSummary of a part: %v", trial, err)
				}
				p = q
			}
			merged.Merge(p)
		}
		if got, want := sumJSON(t, &merged), sumJSON(t, &whole); got != want {
			t.Fatalf("trial %d: %d rows in %d parts:\nmerged %s\nwhole  %s", trial, len(rows), k, got, want)
		}
		// Merging in a tree (pairs, then pairs of pairs) gives the same.
		for len(parts) > 1 {
			var next []*Summary
			for i := 0; i < len(parts); i += 2 {
				m := &Summary{}
				m.Merge(parts[i])
				if i+1 < len(parts) {
					m.Merge(parts[i+1])
				}
				next = append(next, m)
			}
			parts = next
		}
		if got, want := sumJSON(t, parts[0]), sumJSON(t, &whole); got != want {
			t.Fatalf("trial %d: tree merge differs", trial)
		}
	}
}

// TestSummaryMergeCopies: a merged summary shares no map with its source.
func TestSummaryMergeCopies(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var o Summary
	for range 50 {
		o.Add(sumRandomRow(r))
	}
	var s Summary
	s.Merge(&o)
	before := sumJSON(t, &s)
	for range 50 {
		o.Add(sumRandomRow(r))
	}
	if sumJSON(t, &s) != before {
		t.Error("adding to the source changed the merged summary")
	}
	s.Merge(nil)
	if sumJSON(t, &s) != before {
		t.Error("Merge(nil) changed the summary")
	}
}

// TestReadSummaryRoundTrip: ReadSummary gives back what WriteJSON and
// json.Marshal wrote, "version": 1 first.
func TestReadSummaryRoundTrip(t *testing.T) {
	for trial := range uint64(20) {
		r := rand.New(rand.NewPCG(trial, 3))
		var s Summary
		for range r.IntN(100) {
			s.Add(sumRandomRow(r))
		}
		b, err := json.Marshal(&s)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b, []byte(`{"version":1,`)) {
			t.Fatalf("JSON form starts %.40s", b)
		}
		got, err := ReadSummary(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		if sumJSON(t, got) != string(b) {
			t.Fatalf("trial %d: round trip differs", trial)
		}
	}
	// The zero Summary too, and by value: Marshal of a Summary value
	// gives the same form.
	b, err := json.Marshal(Summary{Captures: 0})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSummary(bytes.NewReader(b)); err != nil {
		t.Errorf("zero summary %s: %v", b, err)
	}
}

func TestReadSummaryRejects(t *testing.T) {
	const ok = `{"version":1,"captures":3,"sites":2,"status":{"200":2,"404":1},"sizes":{"1k":2},"outcomes":{"google":{"rules":2,"unavailable":1}},"directives":{"disallow":{"sites":2,"lines":4}},"agents":{"*":2},"robots":{"GPTBot":{"named":{"blocked":1},"star":{"open":1}}},"lint":{"RB303":{"captures":2,"sites":1}}}`
	if _, err := ReadSummary(strings.NewReader(ok + "\n")); err != nil {
		t.Fatalf("valid summary: %v", err)
	}
	for _, tt := range []struct {
		name, in, want string
	}{
		{"empty", ``, "EOF"},
		{"not an object", `[]`, "cannot unmarshal"},
		{"no version", `{"captures":0}`, `no "version"`},
		{"version 2", `{"version":2}`, "version 2"},
		{"unknown field", `{"version":1,"hosts":3}`, "unknown field"},
		{"trailing data", `{"version":1} {}`, "after the JSON object"},
		{"negative", `{"version":1,"captures":-1}`, "captures = -1"},
		{"sites over captures", `{"version":1,"captures":1,"sites":2,"status":{"200":1},"sizes":{"0":2}}`, "sites = 2"},
		{"html over captures", `{"version":1,"captures":1,"html":2,"status":{"200":1}}`, "html = 2"},
		{"status short", `{"version":1,"captures":2,"status":{"200":1}}`, "status add up to 1, want 2"},
		{"status over", `{"version":1,"captures":1,"status":{"200":1,"404":1}}`, "add up to at most 1"},
		{"status zero", `{"version":1,"captures":1,"status":{"200":1,"404":0}}`, "must be positive"},
		{"status huge", `{"version":1,"captures":9223372036854775807,"status":{"200":9223372036854775807,"404":9223372036854775807}}`, "add up to at most"},
		{"unknown bin", `{"version":1,"captures":1,"sites":1,"status":{"200":1},"sizes":{"2k":1}}`, `unknown bin "2k"`},
		{"sizes short", `{"version":1,"captures":1,"sites":1,"status":{"200":1}}`, "sizes add up to 0, want 1"},
		{"outcomes over", `{"version":1,"captures":1,"status":{"200":1},"outcomes":{"google":{"rules":1,"forbidden":1}}}`, "at most 1"},
		{"outcomes empty", `{"version":1,"outcomes":{"google":{}}}`, "is empty"},
		{"directive lines", `{"version":1,"captures":1,"sites":1,"status":{"200":1},"sizes":{"0":1},"directives":{"allow":{"sites":1,"lines":0}}}`, "0 lines on 1 sites"},
		{"directive sites", `{"version":1,"captures":1,"sites":1,"status":{"200":1},"sizes":{"0":1},"directives":{"allow":{"sites":2,"lines":2}}}`, "2 lines on 2 sites"},
		{"agent over sites", `{"version":1,"captures":1,"status":{"200":1},"agents":{"*":1}}`, `agents["*"] = 1`},
		{"robot over sites", `{"version":1,"captures":2,"sites":1,"status":{"200":2},"sizes":{"0":1},"robots":{"X":{"named":{"open":1},"star":{"open":1}}}}`, "at most 0"},
		{"robot empty", `{"version":1,"robots":{"X":{}}}`, "is empty"},
		{"robot via empty", `{"version":1,"robots":{"X":{"named":{}}}}`, "is empty"},
		{"lint sites over captures", `{"version":1,"captures":2,"sites":2,"status":{"200":2},"sizes":{"0":2},"lint":{"RB1":{"captures":1,"sites":2}}}`, `lint["RB1"]`},
		{"lint zero", `{"version":1,"lint":{"RB1":{"captures":0,"sites":0}}}`, `lint["RB1"]`},
		{"not a number", `{"version":1,"captures":"1"}`, "cannot unmarshal"},
		{"status key", `{"version":1,"status":{"ok":1}}`, "status"},
		{"usage purpose", `{"version":1,"captures":1,"sites":1,"status":{"200":1},"sizes":{"0":1},"usage":{"ai-training":{"no":1,"yes":0,"none":0}}}`, `unknown purpose "ai-training"`},
		{"usage over sites", `{"version":1,"captures":1,"sites":1,"status":{"200":1},"sizes":{"0":1},"usage":{"search":{"no":1,"yes":1,"none":0}}}`, "at most sites"},
		{"usage negative", `{"version":1,"captures":1,"sites":1,"status":{"200":1},"sizes":{"0":1},"usage":{"search":{"no":-1,"yes":1,"none":1}}}`, "0 or more"},
		{"usage empty", `{"version":1,"usage":{"search":{"no":0,"yes":0,"none":0}}}`, "counts no site"},
		{"usage source over", `{"version":1,"captures":1,"sites":1,"status":{"200":1},"sizes":{"0":1},"usage":{"search":{"no":0,"yes":1,"none":0,"sources":{"Content-Signal":{"no":1}}}}}`, `["no"] = 1`},
		{"usage source value", `{"version":1,"captures":1,"sites":1,"status":{"200":1},"sizes":{"0":1},"usage":{"search":{"no":1,"yes":0,"none":0,"sources":{"Content-Signal":{"none":1}}}}}`, `unknown value "none"`},
		{"usage source empty", `{"version":1,"captures":1,"sites":1,"status":{"200":1},"sizes":{"0":1},"usage":{"search":{"no":1,"yes":0,"none":0,"sources":{"Content-Signal":{}}}}}`, "is empty"},
	} {
		_, err := ReadSummary(strings.NewReader(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: ReadSummary(%s) = %v, want an error with %q", tt.name, tt.in, err, tt.want)
		}
	}
}

// TestReadSummaryBounded: ReadSummary reads no more than its limit.
func TestReadSummaryBounded(t *testing.T) {
	defer func(n int64) { summaryLimit = n }(summaryLimit)
	summaryLimit = 64
	in := `{"version":1` + strings.Repeat(" ", 100) + `}`
	if _, err := ReadSummary(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), "larger than 64 bytes") {
		t.Errorf("ReadSummary of %d bytes = %v, want the size error", len(in), err)
	}
	if _, err := ReadSummary(strings.NewReader(`{"version":1}`)); err != nil {
		t.Errorf("small summary: %v", err)
	}
}

func TestSumKeySet(t *testing.T) {
	var s keySet
	for round := range 2 {
		for i := range 40 {
			k := fmt.Sprint(i)
			if !s.add(k) {
				t.Fatalf("round %d: %q not new", round, k)
			}
			if s.add(k) {
				t.Fatalf("round %d: %q new twice", round, k)
			}
		}
		s.reset()
	}
}

// FuzzReadSummary: ReadSummary never panics, and what it accepts writes
// back to the same summary, merges with itself into a summary it accepts
// and renders in every format.
func FuzzReadSummary(f *testing.F) {
	f.Add(`{"version":1}`)
	f.Add(`{"version":1,"captures":3,"sites":2,"status":{"200":2,"404":1},"sizes":{"1k":2},"outcomes":{"google":{"rules":2,"unavailable":1}},"directives":{"disallow":{"sites":2,"lines":4}},"agents":{"*":2},"robots":{"GPTBot":{"named":{"blocked":1},"star":{"open":1}}},"lint":{"RB303":{"captures":2,"sites":1}}}`)
	f.Add(`{"version":1,"captures":2,"sites":2,"status":{"200":2},"sizes":{"1k":2},"usage":{"ai-train":{"no":1,"yes":1,"none":0,"sources":{"Content-Signal":{"no":1,"yes":1},"Google-Extended":{"no":1}}}}}`)
	if b, err := os.ReadFile("testdata/summary/report.json"); err == nil {
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ReadSummary(strings.NewReader(in))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := s.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		again, err := ReadSummary(&buf)
		if err != nil {
			t.Fatalf("written summary rejected: %v", err)
		}
		if sumJSON(t, again) != sumJSON(t, s) {
			t.Fatal("round trip differs")
		}
		var twice Summary
		twice.Merge(s)
		twice.Merge(again)
		overflow := twice.Captures < 0 || twice.Captures >= 1<<61
		for _, u := range s.Directives {
			overflow = overflow || u.Lines >= 1<<61
		}
		if !overflow {
			if err := twice.validate(); err != nil {
				t.Fatalf("merged summary: %v", err)
			}
		}
		for _, format := range []string{ReportJSON, ReportMarkdown, ReportHTML} {
			if err := s.Write(&bytes.Buffer{}, format); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// ExampleSummary counts rows in two shards, merges the shards' summaries
// through their JSON form and prints one table.
func ExampleSummary() {
	rows := []Row{
		{Status: 200, Bytes: 120, Outcomes: []Outcome{{"google", "rules"}},
			Agents: []AgentValue{{Value: "GPTBot", Lower: "gptbot"}},
			Robots: []Verdict{{Robot: "GPTBot", State: "blocked", Via: "named"}}},
		{Status: 200, Bytes: 80, Outcomes: []Outcome{{"google", "rules"}},
			Agents: []AgentValue{{Value: "*", Lower: "*"}},
			Robots: []Verdict{{Robot: "GPTBot", State: "partly", Via: "star"}}},
		{Status: 404, Outcomes: []Outcome{{"google", "unavailable"}}},
	}
	var shard1, shard2 Summary
	shard1.Add(&rows[0])
	shard2.Add(&rows[1])
	shard2.Add(&rows[2])

	var file bytes.Buffer
	if err := shard2.WriteJSON(&file); err != nil {
		panic(err)
	}
	fromFile, err := ReadSummary(&file)
	if err != nil {
		panic(err)
	}
	var all Summary
	all.Merge(&shard1)
	all.Merge(fromFile)
	fmt.Println(all.Captures, "captures,", all.Sites, "sites")
	fmt.Println("GPTBot:", all.Robots["GPTBot"])
	// Output:
	// 3 captures, 2 sites
	// GPTBot: map[named:map[blocked:1] star:map[partly:1]]
}
