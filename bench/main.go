// Command bench compares the robots.txt parser and matcher of
// github.com/robotskit/robots with github.com/temoto/robotstxt and
// github.com/jimsmart/grobotstxt on a corpus of real robots.txt files.
//
// Usage:
//
//	go run . -corpus DIR [-rounds N] [-impls robots,temoto,grobotstxt] [-format text|markdown] [-quick]
//
// DIR holds robots/<host> (one robots.txt body per host) and urls.tsv
// (host<TAB>absolute URL lines). Every implementation is measured in the
// same run, in rotating order each round; the table reports medians and the
// median of per-round ratios against temoto. Progress goes to stderr, the
// table to stdout.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case err != nil:
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
}

// run parses args, measures and writes the table to stdout.
func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("corpus", "", "corpus `folder` with robots/<host> and urls.tsv (required)")
	rounds := fs.Int("rounds", 5, "timed `rounds`; figures are medians over rounds")
	impls := fs.String("impls", strings.Join([]string{nameRobots, nameTemoto, nameGrobots}, ","),
		"comma-separated `list` of implementations")
	format := fs.String("format", formatText, "output `format`: text or markdown")
	quick := fs.Bool("quick", false, "smoke test: every 10th file and short samples")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	if *dir == "" {
		return errors.New("-corpus is required")
	}
	if *rounds < 1 {
		return fmt.Errorf("-rounds must be at least 1, got %d", *rounds)
	}
	if *format != formatText && *format != formatMarkdown {
		return fmt.Errorf("-format must be %s or %s, got %q", formatText, formatMarkdown, *format)
	}
	engs, err := selectEngines(*impls)
	if err != nil {
		return fmt.Errorf("-impls: %w", err)
	}

	start := time.Now()
	c, err := loadCorpus(*dir)
	if err != nil {
		return err
	}
	cfg := defaultConfig()
	cfg.rounds = *rounds
	cfg.progress = stderr
	if *quick {
		c = c.every(10)
		cfg.minSample = 20 * time.Millisecond
	}
	fmt.Fprintf(stderr, "bench: %d files, %d queries, %d rounds of %s...\n",
		len(c.hosts), len(c.queries), cfg.rounds, *impls)
	res, err := measure(c, engs, cfg)
	if err != nil {
		return err
	}
	if err := writeTable(stdout, res, *format); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "bench: done in %v\n", time.Since(start).Round(time.Second))
	return nil
}
