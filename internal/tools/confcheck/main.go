// Command confcheck runs the conformance sets through `robots test -jsonl`
// and fails on any disagreement with their labels. .ci/run uses it:
//
//	confcheck -robots ./robots -dir DIR
//
// DIR holds the labelled sets listed in sets (google-cases.jsonl …);
// testdata/conformance has the uncompressed ones.
//
// For every set it prints the agreement count; it ends with the line
// "N passed, N failed" (one per set) and exits 1 if anything failed, 2 on an
// error.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// set is one labelled file and how to check it.
type set struct {
	file    string
	profile string // robots test -profile
	label   string // field holding the expected verdict
	rows    int    // rows the set holds
}

var sets = []set{
	{"google-cases.jsonl", "google", "allowed", 545},
	{"google-java-cases.jsonl", "google", "allowed", 147},
	{"crawler-commons-cases.jsonl", "google", "allowed", 600},
	{"random-cases.jsonl.gz", "google", "allowed", 20000},
	{"realworld-cases.jsonl.gz", "google", "allowed", 19356},
	{"rfc9309-cases.jsonl", "google", "allowed", 65},
	{"rfc9309-cases.jsonl", "rfc9309", "rfc_allowed", 65},
}

func main() {
	bin := flag.String("robots", "robots", "the robots `binary` to check")
	dir := flag.String("dir", "", "the conformance `folder` (required)")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "confcheck: -dir is required")
		flag.Usage()
		os.Exit(2)
	}
	passed, failed := 0, 0
	for _, s := range sets {
		ok, err := run(*bin, *dir, s)
		if err != nil {
			fmt.Fprintf(os.Stderr, "confcheck: %s: %v\n", s.file, err)
			os.Exit(2)
		}
		if ok {
			passed++
		} else {
			failed++
		}
	}
	fmt.Printf("%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		os.Exit(1)
	}
}

// run checks one set and reports whether every verdict and deciding line
// agreed.
func run(bin, dir string, s set) (bool, error) {
	raw, err := os.ReadFile(filepath.Join(dir, s.file))
	if err != nil {
		return false, err
	}
	if filepath.Ext(s.file) == ".gz" {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return false, err
		}
		if raw, err = io.ReadAll(zr); err != nil {
			return false, err
		}
	}
	cmd := exec.Command(bin, "test", "-jsonl", "-profile", s.profile)
	cmd.Stdin = bytes.NewReader(raw)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return false, fmt.Errorf("%s: %v", bin, err)
	}

	in := bufio.NewScanner(bytes.NewReader(raw))
	in.Buffer(nil, 16<<20)
	ans := bufio.NewScanner(bytes.NewReader(out))
	ans.Buffer(nil, 1<<20)
	rows, verdicts, lines, lineRows := 0, 0, 0, 0
	var shown int
	for in.Scan() {
		rows++
		var c map[string]any
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			return false, fmt.Errorf("row %d: %v", rows, err)
		}
		if !ans.Scan() {
			return false, fmt.Errorf("%d answers for more rows", rows-1)
		}
		var a struct {
			Allowed *bool
			Line    *int
			Error   string
		}
		if err := json.Unmarshal(ans.Bytes(), &a); err != nil {
			return false, fmt.Errorf("answer %d: %v", rows, err)
		}
		want, _ := c[s.label].(bool)
		good := a.Allowed != nil && *a.Allowed == want
		if good {
			verdicts++
		}
		if l, ok := c["cxx_matching_line"].(float64); ok && s.label == "allowed" {
			lineRows++
			if a.Line != nil && *a.Line == int(l) {
				lines++
			} else {
				good = false
			}
		}
		if !good && shown < 5 {
			shown++
			fmt.Printf("  DISAGREE %v: got %s\n", c["id"], ans.Bytes())
		}
	}
	if err := in.Err(); err != nil {
		return false, err
	}
	if ans.Scan() {
		return false, fmt.Errorf("more answers than rows")
	}
	ok := verdicts == rows && lines == lineRows && rows == s.rows
	fmt.Printf("%-28s %-8s %-12s verdicts %d/%d", s.file, s.profile, s.label, verdicts, rows)
	if lineRows > 0 {
		fmt.Printf(", deciding lines %d/%d", lines, lineRows)
	}
	if rows != s.rows {
		fmt.Printf(" (expected %d rows)", s.rows)
	}
	fmt.Println()
	return ok, nil
}
