// Package scanbeam is `robots scan` as an Apache Beam pipeline: the files
// a glob matches are read in parallel, each capture becomes a row (package
// scan's Analyze, the same code as the command's), the rows go to JSON
// Lines shards and add up to one summary.
//
// The pipeline runs on any Beam runner of the Go SDK: prism in-process
// (the default, offline), Dataflow, Flink or Spark
// (https://beam.apache.org/documentation/runners/capability-matrix/).
// Build adds the scan to a pipeline; WriteRows and WriteSummary add its
// outputs. Register nothing by hand: the package registers its DoFns,
// CombineFn and coders with the SDK when it is imported, as the Go SDK
// asks (https://pkg.go.dev/github.com/apache/beam/sdks/v2/go/pkg/beam/register).
//
// A file that cannot be opened, and a record or line of a file that
// cannot be read, never fail the pipeline: each is logged and counted in
// the Beam metrics of namespace Namespace (counters CounterFiles,
// CounterCaptures, CounterOpenErrors, CounterReadErrors and
// CounterEncodeErrors).
package scanbeam

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // plain paths
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/robotskit/robots/scan"
)

// Options says what each row holds beyond the facts of its capture, as
// the flags of `robots scan` do.
type Options struct {
	// Robots is a selection of robots as scan.SelectRobots reads it
	// ("" for the search and AI robots, "all", "ai", "GPTBot,CCBot" …):
	// each row has a verdict for each of them.
	Robots string
	// Lint runs the checker on each capture (scan.Options.Lint).
	Lint bool
	// LintBudget bounds the checker's time per capture; 0 means
	// scan.DefaultLintBudget.
	LintBudget time.Duration
}

// The Beam metrics the pipeline keeps, all counters of namespace
// Namespace (https://beam.apache.org/documentation/programming-guide/#metrics).
const (
	Namespace = "robots-scan"
	// CounterFiles counts the files the scan opened or tried to.
	CounterFiles = "files"
	// CounterCaptures counts the captures read, one row each.
	CounterCaptures = "captures"
	// CounterOpenErrors counts the files that could not be opened.
	CounterOpenErrors = "open_errors"
	// CounterReadErrors counts the records or lines that could not be
	// read (a corrupt gzip member, a malformed WARC header, a file cut
	// short), as scan.Reader reports them.
	CounterReadErrors = "read_errors"
	// CounterEncodeErrors counts the rows that could not be written as
	// JSON (a capture time past year 9999).
	CounterEncodeErrors = "encode_errors"
)

// MaxShards is the most JSON Lines shards WriteRows writes: each shard is
// one write transform of the pipeline's graph.
const MaxShards = 1024

// maxLogged is how many read errors one DoFn instance logs; later ones
// are only counted.
const maxLogged = 100

var (
	filesCounter        = beam.NewCounter(Namespace, CounterFiles)
	capturesCounter     = beam.NewCounter(Namespace, CounterCaptures)
	openErrorsCounter   = beam.NewCounter(Namespace, CounterOpenErrors)
	readErrorsCounter   = beam.NewCounter(Namespace, CounterReadErrors)
	encodeErrorsCounter = beam.NewCounter(Namespace, CounterEncodeErrors)
)

func init() {
	register.DoFn3x0[context.Context, fileio.ReadableFile, func(string)](&scanFileFn{})
	register.Emitter1[string]()
	register.Combiner2[scan.Summary, string](&summaryFn{})
	register.DoFn2x0[string, func(int, string)](&shardFn{})
	register.Emitter2[int, string]()
	register.Function2x1(shardOf)
	register.DoFn3x1[context.Context, []byte, func(*string) bool, error](&writeSummaryFn{})
	register.Iter1[string]()
	// A Summary crosses the wire in its own JSON form, which keeps every
	// map in full and which ReadSummary checks on the way back.
	beam.RegisterCoder(reflect.TypeOf(scan.Summary{}), encodeSummary, decodeSummary)
}

func encodeSummary(s scan.Summary) ([]byte, error) { return json.Marshal(s) }

func decodeSummary(b []byte) (scan.Summary, error) {
	s, err := scan.ReadSummary(bytes.NewReader(b))
	if err != nil {
		return scan.Summary{}, err
	}
	return *s, nil
}

// Build adds to s the scan of every file that pattern matches, a glob of
// one of Beam's file systems: a local path, gs://BUCKET/… or
// s3://BUCKET/… when the program imports the file system's package
// (io/filesystem/gcs, io/filesystem/s3). Each file is read as `robots
// scan` reads an input, by scan.ReadCaptures (a WARC file, plain or
// gzip-compressed, JSON lines, or one robots.txt), named by its path, and
// its bytes are read as stored: a ".gz" file is not decompressed on the way, so that
// Row.Offset is the offset of the record's gzip member, as `robots scan`
// gives it.
//
// rows is a PCollection<string> of the rows as JSON objects, as
// scan.NewWriter writes them in scan.FormatJSONL (without the newline);
// summary is a PCollection<string> holding the summary of all rows in its
// JSON form (scan.ReadSummary reads it), and nothing when no file held a
// capture. A pattern without a wildcard that matches nothing fails the
// pipeline; one with a wildcard matches nothing quietly
// (fileio.MatchFiles). Build returns an error for an empty pattern, an
// unknown file system or a selection of robots that SelectRobots rejects.
func Build(s beam.Scope, pattern string, opt Options) (rows, summary beam.PCollection, err error) {
	if strings.TrimSpace(pattern) == "" {
		return rows, summary, errors.New("scanbeam: empty input pattern")
	}
	if _, err := scan.SelectRobots(opt.Robots); err != nil {
		return rows, summary, fmt.Errorf("scanbeam: %w", err)
	}
	if opt.LintBudget < 0 {
		return rows, summary, fmt.Errorf("scanbeam: negative lint budget %v", opt.LintBudget)
	}
	// The SDK's construction functions panic on misuse (an unregistered
	// file system scheme, above all): they become an error here.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("scanbeam: building the pipeline: %v", r)
		}
	}()
	s = s.Scope("robots-scan")
	files := fileio.MatchFiles(s, pattern)
	// A Reshuffle between the match and the reads lets the runner spread
	// the files over its workers instead of reading them where the one
	// match ran (https://beam.apache.org/documentation/programming-guide/#reshuffle).
	files = beam.Reshuffle(s, files)
	readable := fileio.ReadMatches(s, files, fileio.ReadUncompressed())
	rows = beam.ParDo(s, &scanFileFn{Robots: opt.Robots, Lint: opt.Lint, LintBudget: int64(opt.LintBudget)}, readable)
	summary = beam.Combine(s, &summaryFn{}, rows)
	return rows, summary, nil
}

// scanFileFn reads one file and emits its rows as JSON.
type scanFileFn struct {
	Robots     string `json:"robots"`
	Lint       bool   `json:"lint"`
	LintBudget int64  `json:"lint_budget"` // nanoseconds

	opt    *scan.Options
	logged int
}

// Setup selects the robots once per instance.
func (fn *scanFileFn) Setup() error {
	robots, err := scan.SelectRobots(fn.Robots)
	if err != nil {
		return err
	}
	fn.opt = &scan.Options{Robots: robots, Lint: fn.Lint, LintBudget: time.Duration(fn.LintBudget)}
	return nil
}

// ProcessElement reads every capture of f: an error of the file or of a
// record is logged and counted, never returned.
func (fn *scanFileFn) ProcessElement(ctx context.Context, f fileio.ReadableFile, emit func(string)) {
	if fn.opt == nil {
		if err := fn.Setup(); err != nil {
			openErrorsCounter.Inc(ctx, 1)
			log.Errorf(ctx, "robots-scan: %s: %v", f.Metadata.Path, err)
			return
		}
	}
	filesCounter.Inc(ctx, 1)
	rc, err := f.Open(ctx)
	if err != nil {
		openErrorsCounter.Inc(ctx, 1)
		log.Warnf(ctx, "robots-scan: opening %s: %v", f.Metadata.Path, err)
		return
	}
	defer rc.Close()
	// The loop of robots scan over an input: a record that cannot be
	// read is skipped, a failure of the file itself ends it.
	scan.ReadCaptures(ctx, f.Metadata.Path, rc, func(c *scan.Capture) bool {
		row := scan.Analyze(c, fn.opt)
		b, err := json.Marshal(&row)
		if err != nil {
			encodeErrorsCounter.Inc(ctx, 1)
			fn.warn(ctx, "robots-scan: %s at %d: %v", c.Source, c.Offset, err)
			return true
		}
		capturesCounter.Inc(ctx, 1)
		emit(string(b))
		return true
	}, func(err error) {
		readErrorsCounter.Inc(ctx, 1)
		fn.warn(ctx, "robots-scan: %v", err)
	})
}

// warn logs the first maxLogged errors of the instance.
func (fn *scanFileFn) warn(ctx context.Context, format string, args ...any) {
	if fn.logged < maxLogged {
		fn.logged++
		log.Warnf(ctx, format, args...)
	}
}

// summaryFn adds the rows up into a scan.Summary, whose Merge is exact
// whatever the split, as a CombineFn needs
// (https://beam.apache.org/documentation/programming-guide/#combine).
type summaryFn struct{}

// CreateAccumulator returns an empty Summary.
func (summaryFn) CreateAccumulator() scan.Summary { return scan.Summary{} }

// AddInput counts one row, given as JSON.
func (summaryFn) AddInput(a scan.Summary, row string) (scan.Summary, error) {
	var r scan.Row
	if err := json.Unmarshal([]byte(row), &r); err != nil {
		return a, fmt.Errorf("scanbeam: decoding a row: %w", err)
	}
	a.Add(&r)
	return a, nil
}

// MergeAccumulators adds b's counts to a.
func (summaryFn) MergeAccumulators(a, b scan.Summary) scan.Summary {
	a.Merge(&b)
	return a
}

// ExtractOutput returns the summary's JSON form.
func (summaryFn) ExtractOutput(a scan.Summary) (string, error) {
	b, err := json.Marshal(a)
	return string(b), err
}

// ShardName returns the name of shard i of n with prefix: prefix, the
// shard's number and the count on five digits, and ".jsonl", as in
// "out/rows-00003-of-00016.jsonl".
func ShardName(prefix string, i, n int) string {
	return fmt.Sprintf("%s-%05d-of-%05d.jsonl", prefix, i, n)
}

// WriteRows adds to s the writing of rows (Build's) to shards JSON Lines
// files named by ShardName(prefix, i, shards), each with textio.Write. A
// row goes to the shard of its bytes, scan.ShardOf (FNV-1a, the hash of
// `robots scan -shard`), so a rerun writes the same files; a shard that
// receives no row is not written. shards must be between 1 and
// MaxShards.
func WriteRows(s beam.Scope, prefix string, shards int, rows beam.PCollection) (err error) {
	if strings.TrimSpace(prefix) == "" {
		return errors.New("scanbeam: empty output prefix")
	}
	if shards < 1 || shards > MaxShards {
		return fmt.Errorf("scanbeam: %d shards, want 1 to %d", shards, MaxShards)
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("scanbeam: writing rows: %v", r)
		}
	}()
	s = s.Scope("robots-scan.WriteRows")
	keyed := beam.ParDo(s, &shardFn{N: shards}, rows)
	for i, part := range beam.Partition(s, shards, shardOf, keyed) {
		textio.Write(s, ShardName(prefix, i, shards), beam.DropKey(s, part))
	}
	return nil
}

// shardFn keys each row by its shard.
type shardFn struct {
	N int `json:"n"`
}

// ProcessElement emits the row under its shard's number.
func (fn *shardFn) ProcessElement(row string, emit func(int, string)) {
	emit(int(scan.ShardOf(row, uint64(max(fn.N, 1)))), row)
}

// shardOf is the partition function: the key shardFn gave.
func shardOf(shard int, _ string) int { return shard }

// WriteSummary adds to s the writing of summary (Build's) to path, in the
// format its extension names (scan.ReportFormat: ".json" for the JSON
// form that `robots scan merge` adds up, ".md" or ".html" for a report).
// An empty summary, when no file held a capture, is written too.
func WriteSummary(s beam.Scope, path string, summary beam.PCollection) (err error) {
	if strings.TrimSpace(path) == "" {
		return errors.New("scanbeam: empty summary path")
	}
	if _, err := scan.ReportFormat(path); err != nil {
		return fmt.Errorf("scanbeam: %w", err)
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("scanbeam: writing the summary: %v", r)
		}
	}()
	s = s.Scope("robots-scan.WriteSummary")
	filesystem.ValidateScheme(path)
	beam.ParDo0(s, &writeSummaryFn{Path: path}, beam.Impulse(s), beam.SideInput{Input: summary})
	return nil
}

// writeSummaryFn writes the summaries it is given, merged, to one file.
type writeSummaryFn struct {
	Path string `json:"path"`
}

// ProcessElement merges the summaries and writes the result.
func (fn *writeSummaryFn) ProcessElement(ctx context.Context, _ []byte, summaries func(*string) bool) (err error) {
	format, err := scan.ReportFormat(fn.Path)
	if err != nil {
		return err
	}
	var total scan.Summary
	var js string
	for summaries(&js) {
		s, err := scan.ReadSummary(strings.NewReader(js))
		if err != nil {
			return err
		}
		total.Merge(s)
	}
	var buf bytes.Buffer
	if err := total.Write(&buf, format); err != nil {
		return err
	}
	fs, err := filesystem.New(ctx, fn.Path)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, fn.Path)
	if err != nil {
		return err
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
