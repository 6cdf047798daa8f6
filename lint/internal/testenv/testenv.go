// Package testenv holds what the tests of lint and of its packages share:
// the -corpus folder of real robots.txt files, and the -update flag that
// rewrites golden files:
//
//	go test ./lint/... -run TestCorpus -corpus /path/to/corpus/robots
//	go test ./lint/... -run TestGolden -update
//
// Every test binary under lint imports it, so that every one accepts both
// flags and one command covers them all; without -corpus the corpus tests
// are skipped.
package testenv

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

var (
	corpus = flag.String("corpus", "", "folder of real robots.txt files for the corpus tests and benchmarks")
	update = flag.Bool("update", false, "rewrite the golden files (lint: testdata/checks/*.txtar, testdata/fmt/*.txtar and docs/checks.md)")
)

// Update reports whether -update asks to rewrite the golden files.
func Update() bool { return *update }

// Corpus returns the base names and the contents of the files of the
// -corpus folder, in name order. It skips tb when no folder was given,
// and fails it when the folder holds no file.
func Corpus(tb testing.TB) (names []string, srcs [][]byte) {
	tb.Helper()
	if *corpus == "" {
		tb.Skip("set -corpus DIR to run the tests over a folder of robots.txt files")
	}
	paths, err := filepath.Glob(filepath.Join(*corpus, "*"))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no files in %s: %v", *corpus, err)
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
