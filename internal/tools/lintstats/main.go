// Command lintstats runs the checker over a folder of robots.txt files and
// prints, as a Markdown table, how many files each check fires on: the most
// common problems of real robots.txt files. The README's table comes from
//
//	go run ./internal/tools/lintstats -dir /path/to/corpus/robots
//
// Every file is read as a robot reads it, up to 500 KiB.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/lint"
	"github.com/robotskit/robots/syntax"
)

func main() {
	dir := flag.String("dir", "", "folder of robots.txt files")
	thorough := flag.Bool("thorough", false, "also run the thorough checks")
	top := flag.Int("top", 0, "print only the `N` most frequent checks (0: all)")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "lintstats: give -dir")
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
		ds := lint.Run(syntax.Parse(name, body), &lint.Config{Thorough: *thorough})
		if len(ds) == 0 {
			clean++
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
	fmt.Println("| Check | Severity | Files | Share | Findings |")
	fmt.Println("|---|---|---:|---:|---:|")
	for _, c := range list {
		fmt.Printf("| %s %s — %s | %s | %d | %s | %d |\n", c.check.Code, c.check.Name, c.check.Title, c.check.Severity, c.files, pct(c.files), c.findings)
	}
}
