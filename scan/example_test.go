package scan_test

import (
	"fmt"
	"net/http"
	"os"

	"github.com/robotskit/robots/scan"
)

// Analyze reads one recorded response: the file's facts, how each fetch
// policy reads the status, and a verdict for each selected robot.
func ExampleAnalyze() {
	robots, err := scan.SelectRobots("GPTBot,Googlebot-Image,AdsBot-Google")
	if err != nil {
		panic(err)
	}
	body := []byte("User-agent: GPTBot\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /private/\n\nUser-agent: *\nDisallow: /\n")
	c := &scan.Capture{URL: "https://www.example.co.uk/robots.txt", Status: 200,
		Header: http.Header{"Content-Type": {"text/plain"}}, Body: body, Size: int64(len(body))}
	row := scan.Analyze(c, &scan.Options{Robots: robots})
	fmt.Println(row.Domain, row.Groups, "groups", row.Rules, "rules")
	for _, v := range row.Robots {
		fmt.Printf("%s: %s (%s, line %d)\n", v.Robot, v.State, v.Via, v.Line)
	}
	// Output:
	// example.co.uk 3 groups 3 rules
	// GPTBot: blocked (named, line 2)
	// Googlebot-Image: partly (fallback, line 0)
	// AdsBot-Google: open (none, line 0)
}

// A 503 is an outage for Google and RFC 9309 robots, and no file for
// Yandex, which reads only a 200.
func ExampleAnalyze_status() {
	robots, _ := scan.SelectRobots("Googlebot,YandexBot")
	row := scan.Analyze(&scan.Capture{URL: "https://example.com/robots.txt", Status: 503}, &scan.Options{Robots: robots})
	for _, o := range row.Outcomes[:4] {
		fmt.Println(o.Policy, o.Outcome)
	}
	for _, v := range row.Robots {
		fmt.Println(v.Robot, v.State)
	}
	// Output:
	// google unreachable
	// rfc9309 unreachable
	// bing unreachable
	// yandex unavailable
	// Googlebot blocked
	// YandexBot open
}

// NewWriter writes rows as Parquet, JSON lines or CSV.
func ExampleNewWriter() {
	robots, _ := scan.SelectRobots("GPTBot")
	o := &scan.Options{Robots: robots}
	w, err := scan.NewWriter(os.Stdout, "csv", o)
	if err != nil {
		panic(err)
	}
	body := []byte("User-agent: *\nDisallow: /tmp/\n")
	row := scan.Analyze(&scan.Capture{URL: "https://example.com/robots.txt", Status: 200, Body: body, Size: int64(len(body))}, o)
	w.Write(&row)
	w.Close()
	// Output:
	// url,host,domain,time,status,redirect_to,content_type,html,bytes,over_limit,groups,rules,sitemaps,GPTBot_state,GPTBot_via,GPTBot_line,lint
	// https://example.com/robots.txt,example.com,example.com,,200,,,false,30,false,1,1,0,partly,star,0,
}
