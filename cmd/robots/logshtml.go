package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/robotskit/robots/internal/htmlreport"
)

// writeLogsHTML writes the report of robots logs as the page robots scan
// writes its report on (package htmlreport): a table of the robots, with
// the share of their requests that robots.txt disallowed as a bar, and
// the requests for disallowed URLs with the deciding line of the version
// in force.
func writeLogsHTML(w io.Writer, r *logsReport) error {
	v := &htmlreport.View{
		Title: "Robots in the access logs",
		Lead: fmt.Sprintf("%s read: %s from known robots, %s for URLs that the robots.txt in force when they came disallowed.",
			plural(int(r.Lines), "line"), plural(int(r.Requests-r.Others), "request"), plural(int(r.Violations), "request")),
		About: "Each request is judged as its robot (named by its User-Agent) reads the robots.txt in force at the request's time (" + sourceText(r.Source) +
			"); a request made while robots.txt was unreachable is judged by the status rules. Requests for /robots.txt are never counted against a robot.",
	}
	robotsTable := htmlreport.Table{
		ID: "robots", Title: "Robots",
		Note:    "Requests per robot; \"disallowed\": for a URL that robots.txt disallowed at the time; \"too soon\": sooner than the Crawl-delay of the robot's group after its previous request; \"impostors\": claiming the robot from outside its operator's published ranges (not judged).",
		Sources: []htmlreport.Link{{Text: "RFC 9309", URL: "https://www.rfc-editor.org/rfc/rfc9309.html"}},
		Cols:    []string{"robot", "requests", "disallowed", "crawl-delay", "too soon", "per minute", "impostors"},
		Legend:  []htmlreport.Seg{{Class: "yes", Name: "allowed"}, {Class: "no", Name: "disallowed"}},
		Empty:   "No known robot in the logs.",
	}
	for _, st := range r.Robots {
		delay := "-"
		if st.CrawlDelay > 0 {
			delay = strconv.FormatFloat(st.CrawlDelay, 'g', -1, 64) + " s"
		}
		row := htmlreport.Row{
			Cells:  []string{htmlreport.Shown(st.Robot), strconv.FormatInt(st.Requests, 10), strconv.FormatInt(st.Violations, 10), delay, strconv.FormatInt(st.TooSoon, 10), strconv.FormatFloat(st.PerMinute, 'f', -1, 64), strconv.FormatInt(st.Impostors, 10)},
			Shares: []string{"", "", logShare(st.Violations, st.Requests)},
		}
		if st.Requests > 0 {
			bad := float64(st.Violations) * 100 / float64(st.Requests)
			row.Bar = []htmlreport.Seg{{Class: "yes", Name: "allowed", Width: 100 - bad}, {Class: "no", Name: "disallowed", Width: bad}}
		}
		robotsTable.Rows = append(robotsTable.Rows, row)
	}
	examples := htmlreport.Table{
		ID: "disallowed", Title: "Requests for disallowed URLs",
		Note:  "The first requests of each robot for a URL that robots.txt disallowed when they came, with the version in force and the line that decided.",
		Cols:  []string{"request", "robot", "time (UTC)", "robots.txt", "deciding line"},
		Text:  true,
		Empty: "None: every robot kept to the robots.txt in force.",
	}
	for _, st := range r.Robots {
		for _, ex := range st.Examples {
			ver := r.Source
			if r.Source == "store" {
				ver = "version " + strconv.Itoa(ex.Version) + " of " + stamp(ex.Since)
			}
			examples.Rows = append(examples.Rows, htmlreport.Row{Cells: []string{
				htmlreport.Shown(ex.URL), htmlreport.Shown(st.Robot), stamp(ex.Time), ver, htmlreport.Shown(ex.Rule),
			}})
		}
		if n := st.Violations - int64(len(st.Examples)); n > 0 {
			examples.Hidden += int(n)
		}
	}
	v.Tables = []htmlreport.Table{robotsTable, examples}
	return htmlreport.WriteHTML(w, v)
}

// logShare is n's share of whole, "" when whole is 0.
func logShare(n, whole int64) string {
	if whole == 0 {
		return ""
	}
	return strconv.FormatFloat(float64(n)*100/float64(whole), 'f', 2, 64) + "%"
}

// sourceText names where the robots.txt came from.
func sourceText(src string) string {
	if src == "store" {
		return "the versions robots watch stored"
	}
	return "the file " + src + ", for every request"
}
