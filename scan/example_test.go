package scan_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"

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

// NewWriter writes rows as JSON lines or CSV (the package scan/parquet
// writes Parquet).
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
	// url,host,domain,time,status,redirect_to,content_type,html,bytes,over_limit,groups,rules,sitemaps,encoding,bom,content_signal,content_usage,license,GPTBot_state,GPTBot_via,GPTBot_line,GPTBot_ai_train,lint
	// https://example.com/robots.txt,example.com,example.com,,200,,,false,30,false,1,1,0,utf-8,false,,,,partly,star,0,none,
}

// Run is the batch engine of `robots scan`: here it reads JSON lines from
// standard input, one capture per line, and writes a CSV row for each;
// the line that is not JSON is told to OnError with its offset, and the
// run goes on. With OutDir, each input gets its own part, its summary and
// a manifest line instead, and a rerun skips the inputs done.
func ExampleRun() {
	in := `{"url": "https://a.example/robots.txt", "status": 200, "body": "User-agent: GPTBot\nDisallow: /\n"}
not json
{"url": "https://b.example/robots.txt", "status": 404}
`
	robots, _ := scan.SelectRobots("GPTBot")
	var told []string
	res, err := scan.Run(context.Background(), &scan.Job{
		Inputs:  []string{"-"},
		Stdin:   strings.NewReader(in),
		Options: &scan.Options{Robots: robots},
		Format:  scan.FormatCSV,
		Out:     os.Stdout,
		OnError: func(input string, err error) {
			var ie *scan.InputError
			if errors.As(err, &ie) {
				told = append(told, fmt.Sprintf("%s: line at offset %d", ie.Source, ie.Offset))
			}
		},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(told)
	fmt.Printf("%d captures, %d of %d inputs with errors, %d sites\n", res.Captures, res.Failed, res.Inputs, res.Summary.Sites)
	// Output:
	// url,host,domain,time,status,redirect_to,content_type,html,bytes,over_limit,groups,rules,sitemaps,encoding,bom,content_signal,content_usage,license,GPTBot_state,GPTBot_via,GPTBot_line,GPTBot_ai_train,lint
	// https://a.example/robots.txt,a.example,a.example,,200,,,false,31,false,1,1,0,utf-8,false,,,,blocked,named,2,none,
	// https://b.example/robots.txt,b.example,b.example,,404,,,false,0,false,0,0,0,,false,,,,open,none,0,none,
	// [-: line at offset 100]
	// 2 captures, 1 of 1 inputs with errors, 1 sites
}
