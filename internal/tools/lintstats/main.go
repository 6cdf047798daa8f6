// Command lintstats runs the checker over a folder of robots.txt files and
// prints, as a Markdown table, how many files each check fires on: the most
// common problems of real robots.txt files. The README's table comes from
//
//	go run ./internal/tools/lintstats -dir /path/to/corpus/robots
//
// Every file is read as a robot reads it, up to 500 KiB. As robots check
// does, it reports by default what affects the major robot families;
// -robots all adds first-match robots, the 1994 standard and single
// libraries.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/lint"
	"github.com/robotskit/robots/syntax"
)

func main() {
	dir := flag.String("dir", "", "folder of robots.txt files")
	thorough := flag.Bool("thorough", false, "also run the thorough checks")
	top := flag.Int("top", 0, "print only the `N` most frequent checks (0: all)")
	set := flag.String("robots", "major", "robot families `SET`: major or all")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "lintstats: give -dir")
		os.Exit(2)
	}
	if *set != "major" && *set != "all" {
		fmt.Fprintf(os.Stderr, "lintstats: -robots must be major or all, got %q\n", *set)
		os.Exit(2)
	}
	names, err := filepath.Glob(filepath.Join(*dir, "*"))
	if err != nil || len(names) == 0 {
		fmt.Fprintf(os.Stderr, "lintstats: no files in %s\n", *dir)
		os.Exit(2)
	}
	type count struct {
		check           *lint.Check
		files, findings int
	}
	counts := map[string]*count{}
	clean, files := 0, 0
	var sev [4]int // files whose worst finding has this severity
	var perFile []int
	total, major := 0, 0
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(os.Stderr, "lintstats: %v\n", err)
			os.Exit(2)
		}
		body, _, err := robots.Read(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(os.Stderr, "lintstats: %s: %v\n", name, err)
			os.Exit(2)
		}
		files++
		ds := lint.Fold(lint.Run(syntax.Parse(name, body), &lint.Config{Thorough: *thorough, AllRobots: *set == "all"}))
		if len(ds) == 0 {
			clean++
		}
		perFile = append(perFile, len(ds))
		total += len(ds)
		for _, d := range ds {
			if namesMajor(d.Families()) {
				major++
			}
		}
		seen := map[string]bool{}
		worst := lint.Severity(0)
		for _, d := range ds {
			c := counts[d.Check.Code]
			if c == nil {
				c = &count{check: d.Check}
				counts[d.Check.Code] = c
			}
			c.findings++
			if !seen[d.Check.Code] {
				seen[d.Check.Code] = true
				c.files++
			}
			worst = max(worst, d.Check.Severity)
		}
		sev[worst]++
	}
	list := make([]*count, 0, len(counts))
	for _, c := range counts {
		list = append(list, c)
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].files != list[j].files {
			return list[i].files > list[j].files
		}
		return list[i].check.Code < list[j].check.Code
	})
	if *top > 0 && len(list) > *top {
		list = list[:*top]
	}
	pct := func(n int) string { return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(files)) }
	fmt.Printf("%d files: %d (%s) with no finding; worst finding an error in %d (%s), a warning in %d (%s), info in %d (%s).\n\n",
		files, clean, pct(clean), sev[lint.Error], pct(sev[lint.Error]), sev[lint.Warning], pct(sev[lint.Warning]), sev[lint.Info], pct(sev[lint.Info]))
	sort.Ints(perFile)
	q := func(p float64) int { return perFile[int(p*float64(len(perFile)-1)+0.5)] }
	share := 0.0
	if total > 0 {
		share = 100 * float64(major) / float64(total)
	}
	fmt.Printf("%d findings (-robots %s): median %d and 90th percentile %d per file; %.1f%% name a major family (%s).\n\n",
		total, *set, q(0.5), q(0.9), share, strings.Join([]string{"GOOG", "BING", "YNDX", "RFC", "ALL"}, ", "))
	fmt.Println("| Check | Severity | Files | Share | Findings |")
	fmt.Println("|---|---|---:|---:|---:|")
	for _, c := range list {
		fmt.Printf("| %s %s — %s | %s | %d | %s | %d |\n", c.check.Code, c.check.Name, c.check.Title, c.check.Severity, c.files, pct(c.files), c.findings)
	}
}

// namesMajor reports whether fs names a major family.
func namesMajor(fs []lint.Family) bool {
	for _, f := range fs {
		if f.Major() {
			return true
		}
	}
	return false
}
