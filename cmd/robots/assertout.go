package main

import (
	"encoding/xml"
	"fmt"
	"io"
	neturl "net/url"
	"path/filepath"
	"strings"

	"github.com/robotskit/robots/internal/wire"
)

// assertLine is the text of a result: "SPEC:LINE: ASSERTION: got X (WHY)"
// for a failing assertion, "SPEC:LINE: ASSERTION: holds (WHY)" for one
// that holds. Text from the files is escaped for a terminal (clean).
func assertLine(r assertResult) string {
	verdict := "got " + r.Got
	if r.Hold {
		verdict = "holds"
	}
	return fmt.Sprintf("%s:%d: %s: %s (%s)", clean(r.spec), r.line, clean(r.text), verdict, clean(r.Why))
}

// assertSummary is the count line: "N assertions: N hold, N fail".
func assertSummary(results []assertResult) string {
	fail := 0
	for _, r := range results {
		if !r.Hold {
			fail++
		}
	}
	hold := len(results) - fail
	verb := "hold"
	if hold == 1 {
		verb = "holds"
	}
	return fmt.Sprintf("%s: %d %s, %d fail", plural(len(results), "assertion"), hold, verb, fail)
}

// writeAssertText writes robots assert's text output: a line for each
// failing assertion (with verbose, for every assertion), in spec order,
// then the count. robots watch writes the failing assertions it finds so.
func writeAssertText(w io.Writer, results []assertResult, verbose bool) error {
	var b strings.Builder
	for _, r := range results {
		if verbose || !r.Hold {
			b.WriteString(assertLine(r) + "\n")
		}
	}
	b.WriteString(assertSummary(results) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// assertJSON is one assertion of robots assert -format json (docs/assert.md).
type assertJSON struct {
	Spec     string        `json:"spec"`
	Line     int           `json:"line"`
	Robot    string        `json:"robot"`
	Verb     string        `json:"verb"`
	Path     string        `json:"path"`
	Purpose  string        `json:"purpose,omitempty"`
	Want     string        `json:"want"`
	Got      string        `json:"got"`
	Hold     bool          `json:"hold"`
	Deciding *decidingLine `json:"deciding,omitempty"`
	Why      string        `json:"why"`
}

// json is the result as robots assert -format json and robots watch's
// reports give it.
func (r assertResult) json() assertJSON {
	a := assertJSON{Spec: r.spec, Line: r.line, Robot: r.robot, Verb: r.verb, Path: r.path,
		Want: r.want, Got: r.Got, Hold: r.Hold, Deciding: r.Deciding, Why: r.Why}
	if r.verb == "usage" {
		a.Purpose = r.purpose.String()
	}
	return a
}

// writeAssertJSON writes robots assert -format json: the robots.txt
// checked, every assertion in spec order, and the counts.
func writeAssertJSON(w io.Writer, file string, results []assertResult) error {
	out := struct {
		File       string       `json:"file"`
		Assertions []assertJSON `json:"assertions"`
		Hold       int          `json:"hold"`
		Fail       int          `json:"fail"`
	}{File: file, Assertions: make([]assertJSON, 0, len(results))}
	for _, r := range results {
		out.Assertions = append(out.Assertions, r.json())
		if r.Hold {
			out.Hold++
		} else {
			out.Fail++
		}
	}
	return writeJSON(w, out)
}

// JUnit XML, the report format of Ant's JUnit task that CI systems read
// (GitLab, Jenkins, Azure Pipelines, GitHub test reporters): the elements
// and attributes below are those Jenkins documents
// (https://llg.cubic.org/docs/junit/) and Windy Road's schema of Ant's
// format requires of them (https://github.com/windyroad/JUnit-Schema,
// JUnit.xsd), without the times, host names and time stamps, which an
// assertion has none of.
type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name     string      `xml:"name,attr"`
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Errors   int         `xml:"errors,attr"`
		Skipped  int         `xml:"skipped,attr"`
		Cases    []junitCase `xml:"testcase"`
	}
	junitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		Failure   *junitFailure `xml:"failure,omitempty"`
	}
	junitFailure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
)

// writeAssertJUnit writes robots assert -format junit: a testsuite per
// spec file, a testcase per assertion (classname the spec file, name the
// assertion), and for a failing one a failure whose message is its text
// line. encoding/xml escapes what XML cannot hold.
func writeAssertJUnit(w io.Writer, results []assertResult) error {
	out := junitSuites{Name: "robots assert"}
	for _, r := range results {
		if n := len(out.Suites); n == 0 || out.Suites[n-1].Name != r.spec {
			out.Suites = append(out.Suites, junitSuite{Name: r.spec})
		}
		s := &out.Suites[len(out.Suites)-1]
		c := junitCase{Name: r.text, Classname: r.spec}
		if !r.Hold {
			c.Failure = &junitFailure{Message: assertLine(r), Type: r.verb,
				Text: fmt.Sprintf("line %d: want %s, got %s: %s", r.line, r.want, r.Got, r.Why)}
			s.Failures++
			out.Failures++
		}
		s.Tests++
		out.Tests++
		s.Cases = append(s.Cases, c)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// assertRules are the SARIF rules of robots assert, one per kind of
// assertion; a result's ruleId is "assert-" and its verb. GitHub code
// scanning keys its alerts on the ruleId, which must not change between
// runs, and shows shortDescription and fullDescription
// (https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning).
var assertRules = []wire.SARIFRule{
	{ID: "assert-allow", Name: "AllowAssertion",
		ShortDescription:     wire.SARIFMessage{Text: "A robot that should be allowed a path is not"},
		FullDescription:      wire.SARIFMessage{Text: "A spec line ROBOT allow PATH fails: read as that robot reads it, robots.txt disallows PATH."},
		DefaultConfiguration: wire.SARIFRuleConfig{Level: "error"}},
	{ID: "assert-disallow", Name: "DisallowAssertion",
		ShortDescription:     wire.SARIFMessage{Text: "A robot that should be kept out of a path is not"},
		FullDescription:      wire.SARIFMessage{Text: "A spec line ROBOT disallow PATH fails: read as that robot reads it, robots.txt allows PATH."},
		DefaultConfiguration: wire.SARIFRuleConfig{Level: "error"}},
	{ID: "assert-usage", Name: "UsageAssertion",
		ShortDescription:     wire.SARIFMessage{Text: "A usage preference is not the one expected"},
		FullDescription:      wire.SARIFMessage{Text: "A spec line ROBOT usage PURPOSE yes|no|none PATH fails: what robots.txt says of PURPOSE for PATH to that robot (Content-Usage, Content-Signal, control tokens) is another value."},
		DefaultConfiguration: wire.SARIFRuleConfig{Level: "error"}},
}

// sarifURI is a file name as a SARIF artifactLocation.uri, a URI
// reference (SARIF 2.1.0 §3.4.3): the name as given, relative or not, with
// forward slashes, and escaped where a URI needs it.
func sarifURI(name string) string {
	return (&neturl.URL{Path: filepath.ToSlash(name)}).String()
}

// writeAssertSARIF writes robots assert -format sarif: a SARIF 2.1.0 log
// (https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html) of
// one run, with the tool "robots", a rule per verb and a result per
// failing assertion, located at its spec line; with -file, the deciding
// robots.txt line is a related location. "results" is there even when
// empty: GitHub closes the alerts a run no longer reports.
func writeAssertSARIF(w io.Writer, t *assertTarget, results []assertResult) error {
	index := map[string]int{}
	for i, r := range assertRules {
		index[r.ID] = i
	}
	run := wire.SARIFRun{
		Tool: wire.SARIFTool{Driver: wire.SARIFDriver{
			Name: "robots", Version: buildVersion(),
			InformationURI: "https://github.com/robotskit/robots",
			Rules:          assertRules,
		}},
		ColumnKind: "unicodeCodePoints",
		Results:    []wire.SARIFResult{},
	}
	for _, r := range results {
		if r.Hold {
			continue
		}
		id := "assert-" + r.verb
		res := wire.SARIFResult{
			RuleID: id, RuleIndex: index[id], Level: "error",
			Message: wire.SARIFMessage{Text: fmt.Sprintf("%s: got %s (%s)", r.text, r.Got, r.Why)},
			Locations: []wire.SARIFLocation{{PhysicalLocation: wire.SARIFPhysicalLocation{
				ArtifactLocation: wire.SARIFArtifactLocation{URI: sarifURI(r.spec)},
				Region:           &wire.SARIFRegion{StartLine: r.line, StartColumn: 1},
			}}},
		}
		if t.file != nil && r.Deciding != nil {
			one := 1
			res.RelatedLocations = []wire.SARIFLocation{{
				ID: &one,
				PhysicalLocation: wire.SARIFPhysicalLocation{
					ArtifactLocation: wire.SARIFArtifactLocation{URI: sarifURI(t.name)},
					Region:           &wire.SARIFRegion{StartLine: r.Deciding.Line, StartColumn: 1},
				},
				Message: &wire.SARIFMessage{Text: "the deciding line: " + r.Deciding.Text},
			}}
		}
		run.Results = append(run.Results, res)
	}
	return writeJSON(w, wire.SARIF{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []wire.SARIFRun{run},
	})
}
