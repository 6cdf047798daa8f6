package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/fetch"
)

// exampleRobots is the robots.txt of docs/assert.md's example.
const exampleRobots = "../../docs/examples/robots.txt"

// TestAssertAgreesWithTest: an assertion's verdict is robots test's,
// for every robot of the registry (its profile, token chain and quirks),
// a plain token and "*", on the example file and paths it names (the
// project's rule: one answer per question).
func TestAssertAgreesWithTest(t *testing.T) {
	paths := []string{"/", "/private/x", "/search?q=a", "/blog/", "/robots.txt", "/images/logo.png"}
	robotNames := []string{"*", "agent:ExampleBot"}
	for _, rb := range agents.All() {
		robotNames = append(robotNames, rb.Token)
	}
	var spec strings.Builder
	for _, r := range robotNames {
		for _, p := range paths {
			fmt.Fprintf(&spec, "%s allow %s\n", r, p)
		}
	}
	specFile := filepath.Join(t.TempDir(), "all.assert")
	if err := os.WriteFile(specFile, []byte(spec.String()), 0o666); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	run(context.Background(), []string{"assert", "-format", "json", "-file", exampleRobots, specFile}, strings.NewReader(""), &out, &errb)
	var got struct {
		Assertions []struct {
			Robot, Path, Got string
			Deciding         *struct{ Line int }
		}
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s%s", err, out.String(), errb.String())
	}
	if len(got.Assertions) != len(robotNames)*len(paths) {
		t.Fatalf("%d assertions, want %d", len(got.Assertions), len(robotNames)*len(paths))
	}
	for i, r := range robotNames {
		args := []string{"test", "-format", "json", "-file", exampleRobots}
		switch {
		case r == "*":
		case strings.HasPrefix(r, "agent:"):
			args = append(args, "-agent", strings.TrimPrefix(r, "agent:"))
		default:
			args = append(args, "-robot", r)
		}
		var tout, terr bytes.Buffer
		run(context.Background(), append(args, paths...), strings.NewReader(""), &tout, &terr)
		var want struct {
			Results []struct {
				Allowed bool
				Line    int
			}
		}
		if err := json.Unmarshal(tout.Bytes(), &want); err != nil {
			t.Fatalf("robots %s: %v\n%s", strings.Join(args, " "), err, terr.String())
		}
		for j, w := range want.Results {
			a := got.Assertions[i*len(paths)+j]
			line := 0
			if a.Deciding != nil {
				line = a.Deciding.Line
			}
			if (a.Got == "allowed") != w.Allowed || line != w.Line {
				t.Errorf("%s %s: assert says %s (line %d), robots test says allowed=%v (line %d)", r, paths[j], a.Got, line, w.Allowed, w.Line)
			}
		}
	}
}

// TestAssertUsageAgreesWithUsage: a usage line's verdict is robots usage
// -file's, purpose by purpose.
func TestAssertUsageAgreesWithUsage(t *testing.T) {
	robotNames := []string{"Googlebot", "bingbot", "GPTBot", "Applebot", "CCBot"}
	paths := []string{"/", "/blog/", "/private/x"}
	var spec strings.Builder
	for _, r := range robotNames {
		for _, p := range paths {
			for _, pur := range []string{"search", "ai-input", "ai-train"} {
				fmt.Fprintf(&spec, "%s usage %s none %s\n", r, pur, p)
			}
		}
	}
	specFile := filepath.Join(t.TempDir(), "usage.assert")
	if err := os.WriteFile(specFile, []byte(spec.String()), 0o666); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	run(context.Background(), []string{"assert", "-format", "json", "-file", exampleRobots, specFile}, strings.NewReader(""), &out, &errb)
	var got struct {
		Assertions []struct{ Robot, Path, Purpose, Got string }
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	k := 0
	for _, r := range robotNames {
		var uout bytes.Buffer
		run(context.Background(), append([]string{"usage", "-format", "json", "-file", exampleRobots, "-robot", r}, paths...), strings.NewReader(""), &uout, &errb)
		var want struct {
			Results []struct {
				Usage map[string]struct{ Value string }
			}
		}
		if err := json.Unmarshal(uout.Bytes(), &want); err != nil {
			t.Fatal(err)
		}
		for j := range paths {
			for _, pur := range []string{"search", "ai-input", "ai-train"} {
				a := got.Assertions[k]
				k++
				if w := want.Results[j].Usage[pur].Value; a.Got != w {
					t.Errorf("%s usage %s %s: assert says %s, robots usage says %s", r, pur, paths[j], a.Got, w)
				}
			}
		}
	}
}

// TestAssertURL: -url fetches the site's robots.txt as each robot does,
// once per fetch policy and User-Agent; a 503 is read by the status rules
// (Google: a server error keeps the robot out; Google's robots.txt
// documentation, HTTP status codes), and the failing lines say so.
func TestAssertURL(t *testing.T) {
	var mu sync.Mutex
	uas := map[string]int{}
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		uas[r.UserAgent()]++
		mu.Unlock()
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(status)
		if status == http.StatusOK {
			w.Write([]byte("User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n"))
		}
	}))
	defer srv.Close()
	spec := filepath.Join(t.TempDir(), "site.assert")
	body := "Googlebot allow /\nGooglebot-Image allow /x\nGooglebot disallow /private/a\nGPTBot disallow /\n* disallow /private/\n" +
		"agent:ExampleBot allow " + srv.URL + "/blog/\nGPTBot allow /blog/\n"
	if err := os.WriteFile(spec, []byte(body), 0o666); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCLI(t, srv, "assert", "-url", srv.URL, spec)
	want := strings.ReplaceAll(spec, "\\", "\\\\") + ":7: GPTBot allow /blog/: got disallowed ($SERVER/robots.txt:5: Disallow: /)\n7 assertions: 6 hold, 1 fail\n"
	if code != exitFinding || out != want {
		t.Errorf("exit %d\n%s\nwant exit 1\n%s\nstderr:\n%s", code, out, want, errs)
	}
	// Googlebot, Googlebot-Image and GPTBot send their own User-Agent;
	// "*" and agent:ExampleBot the fetcher's: four fetches, not seven.
	if n := len(uas); n != 4 {
		t.Errorf("%d distinct User-Agents fetched robots.txt, want 4: %v", n, uas)
	}
	for ua, n := range uas {
		if n != 1 {
			t.Errorf("User-Agent %q fetched robots.txt %d times, want once", ua, n)
		}
	}

	status = http.StatusServiceUnavailable
	out, errs, code = runCLI(t, srv, "assert", "-url", srv.URL, spec)
	want503 := "robots.txt unreachable"
	if code != exitFinding || !strings.Contains(out, want503) || !strings.Contains(out, "HTTP 503") {
		t.Errorf("503: exit %d\n%s\nwant exit 1 and lines that say %q and HTTP 503\nstderr:\n%s", code, out, want503, errs)
	}
	// The allows fail (complete disallow), the disallows hold.
	if !strings.Contains(out, ":1: Googlebot allow /: got disallowed") || !strings.Contains(out, "7 assertions: 3 hold, 4 fail") {
		t.Errorf("503: got\n%s", out)
	}
}

// TestAssertURLOtherSite: a full URL of another origin in a spec is an
// error at its line and column, as robots test -url refuses one.
func TestAssertURLOtherSite(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	spec := filepath.Join(t.TempDir(), "other.assert")
	if err := os.WriteFile(spec, []byte("Googlebot allow https://example.com/x\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCLI(t, srv, "assert", "-url", srv.URL, spec)
	want := ":1:17: https://example.com/x is not on " + srv.URL + ": a robots.txt governs only its own origin (RFC 9309 §2.3)\n"
	if code != exitError || out != "" || !strings.Contains(strings.ReplaceAll(errs, "$SERVER", srv.URL), want) {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 2 and %q", code, out, errs, want)
	}
}

// TestEvalAssertions: robots watch's entry point, evalAssertions over one
// fetch, gives robots assert -url's verdicts, each robot reading the
// fetch under its own status rules.
func TestEvalAssertions(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer srv.Close()
	// A 401: Google reads it as no file (allow all); the 1996 draft's
	// rules as "keep out" (DESIGN: draft1996 401/403 disallow all).
	data := []byte("Googlebot allow /x\nagent:X allow /x\n")
	spec, err := parseAssertSpecs([]string{"s"}, [][]byte{data}, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	fr := &fetch.Fetcher{Policy: fetch.Google}
	res, err := fr.Fetch(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := evalAssertions(nil, spec, res)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if !r.Hold {
			t.Errorf("%s: got %s (%s)", r.text, r.Got, r.Why)
		}
	}
	res = res.Under(fetch.Draft1996)
	rs, err = evalAssertions(nil, spec, res)
	if err != nil {
		t.Fatal(err)
	}
	// Googlebot reads the fetch as Google does, whatever res's policy.
	if !rs[0].Hold {
		t.Errorf("Googlebot under a draft1996 fetch: got %s (%s), want allowed", rs[0].Got, rs[0].Why)
	}
	var b bytes.Buffer
	if err := writeAssertText(&b, rs, false); err != nil || !strings.HasSuffix(b.String(), "2 assertions: 2 hold, 0 fail\n") {
		t.Errorf("writeAssertText: %v\n%s", err, b.String())
	}
}

// TestAssertSpecBounds: a spec over 1 MiB or 100,000 lines is an error
// that says the bound, not a long wait.
func TestAssertSpecBounds(t *testing.T) {
	line := "* allow /\n" // 10 bytes: 100,000 lines fit in 1 MiB
	lines := bytes.Repeat([]byte(line), maxSpecLines)
	if _, err := parseAssertSpecs([]string{"ok"}, [][]byte{lines}, 0, false); err != nil {
		t.Errorf("%d lines: %v", maxSpecLines, err)
	}
	tooMany := append(append([]byte{}, lines...), "# one more\n"...)
	if _, err := parseAssertSpecs([]string{"many"}, [][]byte{tooMany}, 0, false); err == nil || !strings.Contains(err.Error(), "many: more than 100000 lines") {
		t.Errorf("%d lines: %v", maxSpecLines+1, err)
	}
	big := bytes.Repeat([]byte("#"), maxSpecBytes+1)
	if _, err := parseAssertSpecs([]string{"big"}, [][]byte{big}, 0, false); err == nil || !strings.Contains(err.Error(), "big: larger than 1 MiB") {
		t.Errorf("%d bytes: %v", len(big), err)
	}
	name := filepath.Join(t.TempDir(), "big.assert")
	if err := os.WriteFile(name, big, 0o666); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"assert", "-file", exampleRobots, name}, strings.NewReader(""), &out, &errb)
	if code != exitError || !strings.Contains(errb.String(), "larger than 1 MiB") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

// FuzzParseAssertSpecs: no spec makes the parser panic, and every error
// names its file.
func FuzzParseAssertSpecs(f *testing.F) {
	for _, s := range []string{"Googlebot allow /\n", "* usage ai-train no /x # c\n", "agent:\xff allow /\n", "\ufeffx\r\n", "a b c d e f\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		spec, err := parseAssertSpecs([]string{"f"}, [][]byte{data}, 0, false)
		if err != nil {
			for _, m := range err.(*assertSpecError).errs {
				if !strings.HasPrefix(m, "f:") {
					t.Errorf("error without its file: %q", m)
				}
			}
			return
		}
		(&assertTarget{name: "r", file: nil}).checkAll(spec)
	})
}

// TestAssertSARIFSchema validates robots assert -format sarif, with
// failing results and related locations, against the subset of the SARIF
// 2.1.0 schema the checker's log is validated against
// (internal/wire/testdata), and checks what GitHub code scanning reads of
// each result: ruleId, message.text and a location with a uri and a line
// (https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning).
func TestAssertSARIFSchema(t *testing.T) {
	f, err := os.Open("../../internal/wire/testdata/sarif-2.1.0-subset.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("schema.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("schema.json")
	if err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(t.TempDir(), "fail.assert")
	if err := os.WriteFile(spec, []byte("GPTBot allow /\n* disallow /\nGooglebot usage ai-input yes /\nGooglebot allow /\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"assert", "-format", "sarif", "-file", exampleRobots, spec}, strings.NewReader(""), &out, &errb); code != exitFinding {
		t.Fatalf("exit %d, want 1: %s", code, errb.String())
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Errorf("not valid SARIF: %v\n%s", err, out.String())
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
				RelatedLocations []json.RawMessage
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	rs := log.Runs[0].Results
	if len(rs) != 3 {
		t.Fatalf("%d results, want one per failing assertion (3)", len(rs))
	}
	for i, r := range rs {
		l := r.Locations[0].PhysicalLocation
		if r.RuleID == "" || r.Message.Text == "" || l.ArtifactLocation.URI == "" || l.Region.StartLine != i+1 {
			t.Errorf("result %d: %+v", i, r)
		}
	}
	if len(rs[0].RelatedLocations) != 1 || len(rs[1].RelatedLocations) != 0 {
		t.Errorf("related locations: %d and %d, want the deciding line of the first and none for the second (no rule matched)", len(rs[0].RelatedLocations), len(rs[1].RelatedLocations))
	}
}
