package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robotskit/robots/history"
)

const (
	logsV1   = "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: bingbot\nCrawl-delay: 10\nDisallow: /search\n"
	logsV2   = "User-agent: *\nDisallow: /private/\nDisallow: /drafts/\n\nUser-agent: GPTBot\nAllow: /blog/\nDisallow: /\n\nUser-agent: ClaudeBot\nDisallow: /blog/\n"
	logsSite = "https://shop.example"
)

// logsUAs are User-Agent headers as the robots send them (the registry's
// documented strings), and a browser's.
var logsUAs = []string{
	"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
	"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
	"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
	"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
	"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
}

var logsPaths = []string{"/", "/private/a", "/drafts/x", "/blog/post", "/search?q=1", "/robots.txt", "/shop/item", "/blog/"}

// genLog writes n Combined Log Format lines from start, a request every
// step, from the robots and browser of logsUAs on the paths of logsPaths.
func genLog(w *bytes.Buffer, n int, start time.Time, step time.Duration, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 1))
	for i := range n {
		t := start.Add(time.Duration(i) * step)
		ua := logsUAs[r.IntN(len(logsUAs))]
		p := logsPaths[r.IntN(len(logsPaths))]
		fmt.Fprintf(w, "66.249.66.%d - - [%s] \"GET %s HTTP/1.1\" 200 %d \"-\" \"%s\"\n", r.IntN(250), t.Format("02/Jan/2006:15:04:05 -0700"), p, 100+r.IntN(5000), ua)
	}
}

// logsStore makes a store holding logsV1 from t1 and logsV2 from t2.
func logsStore(t testing.TB, t1, t2 time.Time) string {
	path := filepath.Join(t.TempDir(), "history.db")
	st, err := history.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, v := range []history.Version{
		{Site: logsSite, Time: t1, URL: logsSite + "/robots.txt", Status: 200, Outcome: "success", Body: []byte(logsV1), Size: int64(len(logsV1))},
		{Site: logsSite, Time: t2, URL: logsSite + "/robots.txt", Status: 200, Outcome: "success", Body: []byte(logsV2), Size: int64(len(logsV2))},
	} {
		if _, _, err := st.Record(v); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// TestLogsAgainstTest: robots logs finds exactly the violations that
// robots test finds on the version in force at each request's time.
// The log straddles the change from v1 to v2 and starts before the
// first version.
func TestLogsAgainstTest(t *testing.T) {
	t1 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	t2 := t1.Add(2 * time.Hour)
	store := logsStore(t, t1, t2)
	dir := t.TempDir()
	var log bytes.Buffer
	const n = 600
	genLog(&log, n, t1.Add(-20*time.Minute), 30*time.Second, 7)
	logFile := filepath.Join(dir, "access.log")
	if err := os.WriteFile(logFile, log.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCLI(t, nil, "logs", "-store", store, "-all", "-format", "json", logFile)
	var rep struct {
		Robots []struct {
			Robot      string
			Requests   int
			Violations int
			Before     int `json:"before_history"`
			Examples   []struct {
				Line    int
				URL     string
				Version int
			}
		}
		Lines, Requests int
		Violations      int
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("exit %d: %v\n%s\n%s", code, err, out, errs)
	}
	if rep.Lines != n || rep.Violations == 0 || code != exitFinding {
		t.Fatalf("exit %d, %d lines, %d violations\n%s", code, rep.Lines, rep.Violations, errs)
	}

	// What robots test says, line by line: group the requests by robot
	// and version in force, and ask robots test -robot R -file vN.
	versions := map[int]string{1: logsV1, 2: logsV2}
	files := map[int]string{}
	for k, body := range versions {
		files[k] = filepath.Join(dir, fmt.Sprintf("v%d.txt", k))
		os.WriteFile(files[k], []byte(body), 0o666)
	}
	robotOf := map[string]string{logsUAs[0]: "Googlebot", logsUAs[1]: "GPTBot", logsUAs[2]: "bingbot", logsUAs[3]: "ClaudeBot"}
	type key struct {
		robot   string
		version int
	}
	asked := map[key][]int{} // log lines
	paths := map[int]string{}
	before := map[string]int{}
	for i, line := range strings.Split(strings.TrimSpace(log.String()), "\n") {
		no := i + 1
		var ua string
		if k := strings.LastIndex(line[:len(line)-1], "\""); k >= 0 {
			ua = line[k+1 : len(line)-1]
		}
		robot, ok := robotOf[ua]
		if !ok {
			continue
		}
		ts := line[strings.IndexByte(line, '[')+1 : strings.IndexByte(line, ']')]
		at, err := time.Parse("02/Jan/2006:15:04:05 -0700", ts)
		if err != nil {
			t.Fatal(err)
		}
		req := strings.Fields(line[strings.IndexByte(line, '"')+1:])
		paths[no] = req[1]
		switch {
		case at.Before(t1):
			before[robot]++
		case at.Before(t2):
			asked[key{robot, 1}] = append(asked[key{robot, 1}], no)
		default:
			asked[key{robot, 2}] = append(asked[key{robot, 2}], no)
		}
	}
	want := map[string][]int{}
	for k, lines := range asked {
		args := []string{"test", "-robot", k.robot, "-file", files[k.version], "-format", "json"}
		for _, no := range lines {
			args = append(args, paths[no])
		}
		out, errs, _ := runCLI(t, nil, args...)
		var tr struct {
			Results []struct {
				URL     string
				Allowed bool
			}
		}
		if err := json.Unmarshal([]byte(out), &tr); err != nil || len(tr.Results) != len(lines) {
			t.Fatalf("robots %v: %v\n%s", args, err, errs)
		}
		for i, r := range tr.Results {
			if !r.Allowed && r.URL != "/robots.txt" {
				want[k.robot] = append(want[k.robot], lines[i])
			}
		}
	}
	got := map[string][]int{}
	for _, rb := range rep.Robots {
		if rb.Before != before[rb.Robot] {
			t.Errorf("%s: %d requests before the first version, want %d", rb.Robot, rb.Before, before[rb.Robot])
		}
		if rb.Violations != len(rb.Examples) {
			t.Errorf("%s: %d violations, %d listed with -all", rb.Robot, rb.Violations, len(rb.Examples))
		}
		for _, ex := range rb.Examples {
			got[rb.Robot] = append(got[rb.Robot], ex.Line)
		}
	}
	for r := range want {
		slices.Sort(want[r])
		slices.Sort(got[r])
	}
	for _, r := range []string{"Googlebot", "GPTBot", "bingbot", "ClaudeBot"} {
		if !slices.Equal(got[r], want[r]) {
			t.Errorf("%s: robots logs finds violations on lines %v\nrobots test on the version in force: %v", r, got[r], want[r])
		}
		if len(want[r]) == 0 && r != "bingbot" {
			t.Errorf("%s: no violation to compare: the log proves nothing", r)
		}
	}
}

// BenchmarkLogs judges a generated log of a million Combined Log Format
// lines that straddles a version change, and reports lines per second.
func BenchmarkLogs(b *testing.B) {
	t1 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	store := logsStore(b, t1, t1.Add(12*time.Hour))
	var log bytes.Buffer
	const n = 1_000_000
	genLog(&log, n, t1.Add(-time.Hour), 50*time.Millisecond, 1)
	path := filepath.Join(b.TempDir(), "access.log")
	if err := os.WriteFile(path, log.Bytes(), 0o666); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(log.Len()))
	b.ResetTimer()
	for b.Loop() {
		_, errs, code := runCLI(b, nil, "logs", "-store", store, "-site", logsSite, "-format", "json", path)
		if code != exitFinding {
			b.Fatalf("exit %d: %s", code, errs)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// TestLogsRangesAndFormats: JSON lines name their host; a gzip log is
// read as the plain one; -ranges counts the requests that claim a robot
// from outside its operator's published ranges as impostors, not as the
// robot's.
func TestLogsRangesAndFormats(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "robots.txt")
	os.WriteFile(file, []byte(logsV1), 0o666)
	ranges := filepath.Join(dir, "googlebot.json")
	os.WriteFile(ranges, []byte(`{"creationTime":"2026-11-01T00:00:00","prefixes":[{"ipv4Prefix":"66.249.64.0/19"},{"ipv6Prefix":"2001:4860:4801::/48"}]}`), 0o666)
	g := logsUAs[0]
	lines := []string{
		`{"time":"2026-11-01T10:00:00Z","host":"shop.example","path":"/private/a","status":200,"user_agent":"` + g + `","remote_addr":"66.249.66.1"}`,
		`{"time":"2026-11-01T10:00:01Z","host":"shop.example","path":"/private/b","status":200,"user_agent":"` + g + `","remote_addr":"203.0.113.9"}`,
		`{"time":"2026-11-01T10:00:02Z","host":"shop.example","path":"/ok","status":200,"user_agent":"` + g + `","remote_addr":"2001:4860:4801:10::1"}`,
		`not a log line`,
	}
	plain := filepath.Join(dir, "access.jsonl")
	os.WriteFile(plain, []byte(strings.Join(lines, "\n")+"\n"), 0o666)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(strings.Join(lines, "\n") + "\n"))
	zw.Close()
	zipped := filepath.Join(dir, "access.jsonl.gz")
	os.WriteFile(zipped, gz.Bytes(), 0o666)

	var outs []string
	for _, log := range []string{plain, zipped} {
		out, errs, code := runCLI(t, nil, "logs", "-file", file, "-ranges", "Googlebot="+ranges, "-format", "json", log)
		var rep struct {
			Robots []struct {
				Robot                string
				Requests, Violations int
				Impostors            int
				Examples             []struct{ URL string }
			}
			Bad      int    `json:"bad_lines"`
			FirstBad string `json:"first_bad"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil || code != exitFinding {
			t.Fatalf("%s: exit %d, %v\n%s", log, code, err, errs)
		}
		if len(rep.Robots) != 1 || rep.Robots[0].Requests != 2 || rep.Robots[0].Impostors != 1 || rep.Robots[0].Violations != 1 ||
			rep.Robots[0].Examples[0].URL != "https://shop.example/private/a" || rep.Bad != 1 || !strings.Contains(rep.FirstBad, "line 4") {
			t.Errorf("%s: %+v", log, rep)
		}
		outs = append(outs, strings.ReplaceAll(out, filepath.Base(log), "LOG"))
	}
	if outs[0] != outs[1] {
		t.Errorf("the gzip log reads otherwise:\n%s\n%s", outs[0], outs[1])
	}

	// Errors: a log that is no log, a missing one, a bad ranges file.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-file", file, file}, "none of its 9 lines is an access log line"},
		{[]string{"-file", file, filepath.Join(dir, "none.log")}, "no such file"},
		{[]string{"-file", file, "-ranges", "Googlebot=" + file, plain}, "-ranges " + file},
		{[]string{"-file", file, "-ranges", "Googlebot", plain}, "give ROBOT=FILE"},
		{[]string{"-file", file, "-robots", "GPTBoot", plain}, "GPTBot"},
		{[]string{plain}, "give -store PATH"},
		{[]string{"-file", file, dir}, "is a directory"},
	} {
		_, errs, code := runCLI(t, nil, append([]string{"logs"}, tc.args...)...)
		if code != exitError || !strings.Contains(errs, tc.want) {
			t.Errorf("robots logs %v: exit %d\n%s", tc.args, code, errs)
		}
	}
}
