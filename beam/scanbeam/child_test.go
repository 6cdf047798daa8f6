package scanbeam

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/robotskit/robots/scan"
	"github.com/robotskit/robots/scan/parquet"
)

// scaleChildEnv names the environment variable that makes the test
// binary a child of TestScale (TestMain): its value is a scaleJob, in
// JSON, which the child runs instead of the tests, so that the parent
// can read the child's peak RSS and CPU time from the kernel
// (getrusage(2) of a child that has exited).
const scaleChildEnv = "SCANBEAM_SCALE_CHILD"

// A scaleJob is one scan of TestScale: the pipeline on prism, or
// scan.Run, the engine of `robots scan -out`.
type scaleJob struct {
	Engine  string   `json:"engine"`  // "beam" or "cli"
	Pattern string   `json:"pattern"` // the pipeline's glob
	Files   []string `json:"files"`   // scan.Run's inputs: the files the glob matches
	Output  string   `json:"output"`
	Summary string   `json:"summary"`
	Robots  string   `json:"robots"`
	Format  string   `json:"format"`
}

// scaleChild runs the job of spec and returns the exit status.
func scaleChild(spec string) int {
	var job scaleJob
	if err := json.Unmarshal([]byte(spec), &job); err != nil {
		fmt.Fprintln(os.Stderr, "scanbeam: child:", err)
		return 2
	}
	if err := job.run(context.Background()); err != nil {
		fmt.Fprintf(os.Stderr, "scanbeam: child %s: %v\n", job.Engine, err)
		return 1
	}
	return 0
}

func (j *scaleJob) run(ctx context.Context) error {
	switch j.Engine {
	case "beam":
		// As a program of the SDK starts: flags, then beam.Init
		// (https://beam.apache.org/documentation/programming-guide/#pipeline-options-cli).
		flag.Parse()
		beam.Init()
		p, s := beam.NewPipelineWithRoot()
		_, sum, err := Build(s, j.Pattern, Options{Robots: j.Robots, Output: j.Output, Format: j.Format})
		if err != nil {
			return err
		}
		if err := WriteSummary(s, j.Summary, sum); err != nil {
			return err
		}
		_, err = beam.Run(ctx, "prism", p)
		return err
	case "cli":
		robots, err := scan.SelectRobots(j.Robots)
		if err != nil {
			return err
		}
		job := &scan.Job{Inputs: j.Files, OutDir: j.Output, Format: j.Format, Options: &scan.Options{Robots: robots}}
		if j.Format == FormatParquet {
			job.NewWriter = parquet.NewRowWriter
		}
		res, err := scan.Run(ctx, job)
		if err != nil {
			return err
		}
		if res.Failed > 0 {
			return fmt.Errorf("%d of %d inputs had errors", res.Failed, res.Inputs)
		}
		return res.Summary.WriteFile(j.Summary)
	}
	return errors.New("unknown engine " + j.Engine)
}
