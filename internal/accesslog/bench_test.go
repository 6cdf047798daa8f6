package accesslog

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

var benchAgents = []string{
	googlebot,
	"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36",
	"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Mobile/15E148 Safari/604.1",
	"curl/8.5.0",
}

var benchPaths = []string{"/", "/robots.txt", "/private/x?a=1", "/blog/2025/10/a-rather-long-post-title-here", "/static/app.3f9c1a.js", "/search?q=robots+txt&page=2", "/wp-login.php"}

// benchLog returns n realistic lines, a second apart, in runs of a client.
func benchLog(n int, json bool) string {
	rng := rand.New(rand.NewPCG(1, 2))
	var sb strings.Builder
	t := time.Date(2025, 10, 10, 13, 55, 36, 0, time.FixedZone("", -7*3600))
	ua, ip := benchAgents[0], "66.249.66.1"
	for i := range n {
		if rng.IntN(4) == 0 { // a new client now and then
			ua = benchAgents[rng.IntN(len(benchAgents))]
			ip = fmt.Sprintf("%d.%d.%d.%d", 1+rng.IntN(223), rng.IntN(256), rng.IntN(256), 1+rng.IntN(254))
		}
		path := benchPaths[rng.IntN(len(benchPaths))]
		status := []int{200, 200, 200, 304, 404, 301}[rng.IntN(6)]
		tm := t.Add(time.Duration(i) * time.Second)
		if json {
			fmt.Fprintf(&sb, `{"time":%q,"remote_addr":%q,"host":"www.example.com","method":"GET","path":%q,"status":%d,"bytes":%d,"user_agent":%q}`+"\n",
				tm.Format(time.RFC3339), ip, path, status, rng.IntN(50000), ua)
		} else {
			fmt.Fprintf(&sb, `%s - - [%s] "GET %s HTTP/1.1" %d %d "-" %q`+"\n",
				ip, tm.Format("02/Jan/2006:15:04:05 -0700"), path, status, rng.IntN(50000), ua)
		}
	}
	return sb.String()
}

func bench(b *testing.B, json bool) {
	const lines = 10_000
	in := benchLog(lines, json)
	b.SetBytes(int64(len(in) / lines))
	b.ReportAllocs()
	var e Entry
	n := 0
	var r *Reader
	for b.Loop() {
		if n%lines == 0 {
			r, _ = NewReader(strings.NewReader(in), Auto)
		}
		if err := r.Next(&e); err != nil {
			b.Fatal(err)
		}
		n++
	}
	if st := r.Stats(); st.Bad != 0 {
		b.Fatal(st.FirstBad)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "lines/s")
}

// BenchmarkCombined reads Combined Log Format lines, one per iteration.
func BenchmarkCombined(b *testing.B) { bench(b, false) }

// BenchmarkJSON reads JSON lines, one per iteration.
func BenchmarkJSON(b *testing.B) { bench(b, true) }
