// Command robots-scan-beam runs `robots scan` as an Apache Beam pipeline:
// every robots.txt capture of the files that --input matches becomes one
// JSON row in the --output shards, and all rows add up to the --summary.
//
//	robots-scan-beam --input 'data/*.warc.gz' --output out/rows --summary out/summary.json
//
// It runs on prism in-process by default; --runner dataflow, flink or
// spark (with the Beam SDK's own flags: --project, --region,
// --temp_location, --staging_location, --endpoint, --environment_type …)
// send it to a cluster. beam/README.md gives the commands.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"   // gs://
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // plain paths
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"    // s3://
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/robotskit/robots/beam/scanbeam"
)

var (
	input      = flag.String("input", "", "glob of the input files: a local path, gs://BUCKET/… or s3://BUCKET/… (required)")
	output     = flag.String("output", "", "prefix of the JSON Lines row shards, PREFIX-NNNNN-of-NNNNN.jsonl")
	summary    = flag.String("summary", "", "path of the summary: .json (the form `robots scan merge` reads), .md or .html")
	robots     = flag.String("robots", "", `robots each row gives a verdict for: "" (search and ai), "all", "search", "ai" or tokens "GPTBot,CCBot"`)
	lint       = flag.Bool("lint", false, "run the checker on each capture (far slower)")
	lintBudget = flag.Duration("lint_budget", 0, "the checker's time budget per capture (0: 50ms)")
	shards     = flag.Int("shards", 16, fmt.Sprintf("number of row shards, 1 to %d", scanbeam.MaxShards))
)

func main() {
	flag.Parse()
	// beam.Init runs the worker harness when the runner starts this
	// binary as a worker, and returns at once otherwise.
	beam.Init()
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "robots-scan-beam:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	if *input == "" {
		return fmt.Errorf("--input is required")
	}
	if *output == "" && *summary == "" {
		return fmt.Errorf("give --output, --summary or both")
	}
	p, s := beam.NewPipelineWithRoot()
	rows, sum, err := scanbeam.Build(s, *input, scanbeam.Options{Robots: *robots, Lint: *lint, LintBudget: *lintBudget})
	if err != nil {
		return err
	}
	if *output != "" {
		if err := scanbeam.WriteRows(s, *output, *shards, rows); err != nil {
			return err
		}
	}
	if *summary != "" {
		if err := scanbeam.WriteSummary(s, *summary, sum); err != nil {
			return err
		}
	}
	start := time.Now()
	res, err := beamx.RunWithMetrics(ctx, p)
	if err != nil {
		return err
	}
	if res != nil {
		counts := map[string]int64{}
		for _, c := range res.Metrics().AllMetrics().Counters() {
			if c.Namespace() == scanbeam.Namespace {
				counts[c.Name()] += c.Result()
			}
		}
		fmt.Fprintf(os.Stderr, "robots-scan-beam: %d files, %d captures, %d open errors, %d read errors, %d encode errors in %v\n",
			counts[scanbeam.CounterFiles], counts[scanbeam.CounterCaptures], counts[scanbeam.CounterOpenErrors],
			counts[scanbeam.CounterReadErrors], counts[scanbeam.CounterEncodeErrors], time.Since(start).Round(time.Millisecond))
	}
	return nil
}
