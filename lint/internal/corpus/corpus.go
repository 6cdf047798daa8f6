// Package corpus gives the tests of lint and of its packages the folder
// of real robots.txt files that -corpus names:
//
//	go test ./lint/... -run TestCorpus -corpus /path/to/corpus/robots
//
// Every test binary under lint accepts the flag, so that one command runs
// the corpus tests of all of them; without it they are skipped.
package corpus

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

var dir = flag.String("corpus", "", "folder of real robots.txt files for the corpus tests and benchmarks")

// Files returns the base names and the contents of the files of the
// -corpus folder, in name order. It skips tb when no folder was given,
// and fails it when the folder holds no file.
func Files(tb testing.TB) (names []string, srcs [][]byte) {
	tb.Helper()
	if *dir == "" {
		tb.Skip("set -corpus DIR to run the tests over a folder of robots.txt files")
	}
	paths, err := filepath.Glob(filepath.Join(*dir, "*"))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no files in %s: %v", *dir, err)
	}
	slices.Sort(paths)
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		names = append(names, filepath.Base(p))
		srcs = append(srcs, src)
	}
	return names, srcs
}
