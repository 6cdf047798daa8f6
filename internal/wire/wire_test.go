package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/robotskit/robots/lint"
	"github.com/robotskit/robots/syntax"
)

// sample is a file with findings of several kinds: a line with a fix, a
// file-level one (the byte-order mark is at line 1; an orphan rule),
// related lines where the checks give them, a problem on two lines of one
// group (the trailing "*"), and a finding that leaves out some of its
// check's families (the version Google reads as the token).
const sample = "\uFEFFDisallow: /tmp\nUser-agent: *\nDisallow: admin/\n\nUser-agent: *\nDisallow: /x\nDisallow: /a*\nDisallow: /b*\n\nUser-agent: Googlebot/2.1\nDisallow: /y\n"

func compile(t *testing.T, path string) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validate(t *testing.T, s *jsonschema.Schema, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(inst); err != nil {
		t.Errorf("%v\n%s", err, data)
	}
}

func diagnostics(t *testing.T) []lint.Diagnostic {
	ds := lint.Fold(lint.Run(syntax.Parse("robots.txt", []byte(sample)), &lint.Config{Thorough: true, AllRobots: true}))
	if len(ds) < 3 {
		t.Fatalf("the sample gives %d diagnostics, want at least 3", len(ds))
	}
	return ds
}

// TestCheckSchema validates the JSON output against docs/schema.
func TestCheckSchema(t *testing.T) {
	s := compile(t, filepath.Join("..", "..", "docs", "schema", "check.schema.json"))
	fixed := "x"
	validate(t, s, CheckResponse{Diagnostics: Diagnostics(diagnostics(t))})
	validate(t, s, CheckResponse{Diagnostics: Diagnostics(nil), Fixed: &fixed})
	// The schema can fail: a wrong severity is refused.
	bad := Diagnostics(diagnostics(t))
	bad[0].Severity = "fatal"
	data, _ := json.Marshal(CheckResponse{Diagnostics: bad})
	inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if s.Validate(inst) == nil {
		t.Error("the schema accepts severity \"fatal\"")
	}
	if got, _ := json.Marshal(CheckResponse{Diagnostics: Diagnostics(nil)}); string(got) != `{"diagnostics":[]}` {
		t.Errorf("no findings = %s, want an empty list", got)
	}
}

// TestSARIFSchema validates the SARIF output against the subset of the
// SARIF 2.1.0 schema in testdata.
func TestSARIFSchema(t *testing.T) {
	s := compile(t, filepath.Join("testdata", "sarif-2.1.0-subset.schema.json"))
	ds := diagnostics(t)
	log := NewSARIF("robots.txt", "test", ds)
	validate(t, s, log)
	validate(t, s, NewSARIF("robots.txt", "test", nil))
	r := log.Runs[0]
	// One result per place: a problem found on several lines is a
	// result at each (code scanning shows a result at its first
	// location only), the others as its related locations.
	type place struct {
		code string
		line int
	}
	var want []place
	for _, d := range ds {
		want = append(want, place{d.Check.Code, d.Line})
		for _, n := range d.Lines[min(1, len(d.Lines)):] {
			want = append(want, place{d.Check.Code, n})
		}
	}
	if len(r.Results) != len(want) || len(r.Tool.Driver.Rules) != len(lint.Checks()) {
		t.Fatalf("%d results, %d rules; want %d, %d", len(r.Results), len(r.Tool.Driver.Rules), len(want), len(lint.Checks()))
	}
	several := false
	for i, res := range r.Results {
		if r.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID || res.RuleID != want[i].code {
			t.Errorf("result %d: rule %s at index %d", i, res.RuleID, res.RuleIndex)
		}
		if len(res.Locations) != 1 {
			t.Errorf("result %d: %d locations, want one", i, len(res.Locations))
		}
		reg := res.Locations[0].PhysicalLocation.Region
		if (reg == nil) != (want[i].line == 0) || reg != nil && reg.StartLine != want[i].line {
			t.Errorf("result %d: region %v for line %d", i, reg, want[i].line)
		}
		if i > 0 && want[i].code == want[i-1].code && len(res.RelatedLocations) > 0 && res.RelatedLocations[0].Message.Text == "the same problem" {
			several = true
		}
	}
	if !several {
		t.Error("no problem on several lines among the test's diagnostics: the rule goes untested")
	}
	// The schema can fail: a misspelt property is refused.
	data, _ := json.Marshal(log)
	data = []byte(strings.Replace(string(data), `"ruleId"`, `"ruleID"`, 1))
	inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if s.Validate(inst) == nil {
		t.Error("the schema accepts ruleID")
	}
}

// TestDiagnosticsLinesAffects checks the JSON of a problem on several
// lines ("lines", every line, "line" the first) and of a finding that
// affects fewer families than its check.
func TestDiagnosticsLinesAffects(t *testing.T) {
	var lines, own *Diagnostic
	ws := Diagnostics(diagnostics(t))
	for i := range ws {
		switch ws[i].Code {
		case "RB509":
			lines = &ws[i]
		case "RB412":
			own = &ws[i]
		}
	}
	if lines == nil || lines.Line != 7 || fmt.Sprint(lines.Lines) != "[7 8]" {
		t.Errorf("RB509: %+v, want line 7, lines [7 8]", lines)
	}
	if own == nil || fmt.Sprint(own.Affects) != "[FM]" {
		t.Errorf("RB412: %+v, want affects [FM]", own)
	}
	data, _ := json.Marshal(ws)
	if !strings.Contains(string(data), `"line":7,"column":11,"lines":[7,8]`) {
		t.Errorf("no \"lines\" in %s", data)
	}
	if strings.Count(string(data), `"lines"`) != 1 {
		t.Errorf("\"lines\" on a problem of one line: %s", data)
	}
}
