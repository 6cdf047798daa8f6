// Command robots-scan-beam runs `robots scan -out` as an Apache Beam
// pipeline: every robots.txt capture of the files that --input matches
// becomes one row, in the part of its file under the --output folder
// (Parquet, or JSON Lines with --format jsonl), and all rows add up to the
// --summary.
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
	input    = flag.String("input", "", "glob of the input files: a local path, gs://BUCKET/… or s3://BUCKET/… (required)")
	output   = flag.String("output", "", "folder of the rows: one part per input file, part-HASH.parquet (or .jsonl), and _manifest.jsonl")
	format   = flag.String("format", scanbeam.FormatParquet, "format of the parts: parquet or jsonl")
	summary  = flag.String("summary", "", "path of the summary: .json (the form robots scan merge reads), .md or .html")
	robots   = flag.String("robots", "", `robots each row gives a verdict for: "" (search and ai), "all", "search", "ai" or tokens "GPTBot,CCBot"`)
	lint     = flag.Bool("lint", false, "run the checker on each capture (far slower)")
	lintWork = flag.Int64("lint_work", 0, "the checker's work budget per capture, in lint's units of about 5ns (0: the default of robots scan)")
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
	_, sum, err := scanbeam.Build(s, *input, scanbeam.Options{Robots: *robots, Lint: *lint, LintWork: *lintWork, Output: *output, Format: *format})
	if err != nil {
		return err
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
		fmt.Fprintf(os.Stderr, "robots-scan-beam: %d files, %d captures, %d parts, %d open errors, %d read errors, %d encode errors in %v\n",
			counts[scanbeam.CounterFiles], counts[scanbeam.CounterCaptures], counts[scanbeam.CounterParts], counts[scanbeam.CounterOpenErrors],
			counts[scanbeam.CounterReadErrors], counts[scanbeam.CounterEncodeErrors], time.Since(start).Round(time.Millisecond))
	}
	return nil
}
