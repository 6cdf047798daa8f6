package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// codesOf runs robots check -format json and returns the codes found.
func codesOf(t *testing.T, srv *httptest.Server, args ...string) (map[string]int, int) {
	t.Helper()
	out, _, code := runCLI(t, srv, append([]string{"check", "-format", "json"}, args...)...)
	var r struct {
		Diagnostics []struct {
			Code string `json:"code"`
			Line int    `json:"line"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	codes := map[string]int{}
	for _, d := range r.Diagnostics {
		codes[d.Code] = d.Line
	}
	return codes, code
}

// TestCheckURL: for a URL the fetch trace feeds the fetch checks (RB1xx)
// (issue 5): statuses, redirects, media type, the case of the file name.
func TestCheckURL(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("User-agent: *\nDisallow: admin/\n"))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	codes, code := codesOf(t, srv, srv.URL+"/robots.txt")
	if _, ok := codes["RB120"]; !ok {
		t.Errorf("text/html robots.txt: no RB120 in %v", codes)
	}
	if line, ok := codes["RB501"]; !ok || line != 2 {
		t.Errorf("the body's checks did not run or point elsewhere: %v", codes)
	}
	if code != exitFinding {
		t.Errorf("exit %d, want 1 (an error)", code)
	}

	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer down.Close()
	codes, _ = codesOf(t, down, down.URL+"/robots.txt")
	if _, ok := codes["RB108"]; !ok {
		t.Errorf("503: no RB108 in %v", codes)
	}
	for c := range codes {
		if !strings.HasPrefix(c, "RB1") {
			t.Errorf("503: %s reported, but only the fetch checks run without a body", c)
		}
	}

	upper := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/ROBOTS.TXT" {
			w.Write([]byte("User-agent: *\nDisallow: /\n"))
			return
		}
		http.NotFound(w, r)
	}))
	defer upper.Close()
	codes, _ = codesOf(t, upper, upper.URL+"/robots.txt")
	if _, ok := codes["RB131"]; !ok {
		t.Errorf("only /ROBOTS.TXT exists: no RB131 in %v", codes)
	}

	loop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/robots.txt", http.StatusFound)
	}))
	defer loop.Close()
	codes, _ = codesOf(t, loop, loop.URL+"/robots.txt")
	if _, ok := codes["RB113"]; !ok {
		t.Errorf("a redirect loop: no RB113 in %v", codes)
	}
}

// TestCheckSARIF: -format sarif writes a SARIF 2.1.0 log with the rules
// and one result per finding (its schema test is in internal/wire).
func TestCheckSARIF(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("Disallow: /x\nUser-agent: *\n"))
	}))
	defer srv.Close()
	out, _, _ := runCLI(t, srv, "check", "-format", "sarif", srv.URL+"/robots.txt")
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("not a SARIF 2.1.0 log: %v\n%s", err, out)
	}
	var ids []string
	for _, r := range log.Runs[0].Results {
		ids = append(ids, r.RuleID)
	}
	if !strings.Contains(strings.Join(ids, " "), "RB401") {
		t.Errorf("results %v lack RB401", ids)
	}
}
