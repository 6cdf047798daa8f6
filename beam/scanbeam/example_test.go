package scanbeam_test

import (
	"context"
	"log"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/robotskit/robots/beam/scanbeam"
)

// A pipeline that scans a directory of Common Crawl robots.txt WARC files
// for the AI robots, writes each file's rows to its Parquet part under
// out/rows (and the manifest there), writes the summary to one file, and
// runs on prism in-process.
func Example() {
	p, s := beam.NewPipelineWithRoot()
	_, summary, err := scanbeam.Build(s, "crawl/*.warc.gz", scanbeam.Options{Robots: "ai", Output: "out/rows"})
	if err != nil {
		log.Fatal(err)
	}
	if err := scanbeam.WriteSummary(s, "out/summary.json", summary); err != nil {
		log.Fatal(err)
	}
	if _, err := beam.Run(context.Background(), "prism", p); err != nil {
		log.Fatal(err)
	}
}
