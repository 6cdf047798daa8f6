// Package scanbeam is `robots scan -out` as an Apache Beam pipeline: the
// files a glob matches are read in parallel, each capture becomes a row
// (package scan's Analyzer, the same code as the command's), each file's
// rows go straight to a part file of their own, in Parquet or JSON Lines,
// through the same writers as the command's, and the files' summaries
// add up to one.
//
// No row ever travels through the pipeline: the DoFn that reads a file
// writes its rows itself and emits only two small values, the file's
// manifest line (scan.ManifestEntry) and its summary (scan.Summary), so a
// worker's memory does not grow with the input and no row is shuffled.
// The summaries are added up by a CombineFn whose input is one summary
// per file.
//
// The pipeline runs on any Beam runner of the Go SDK: prism in-process
// (the default, offline), Dataflow, Flink or Spark
// (https://beam.apache.org/documentation/runners/capability-matrix/).
// Build adds the scan, and the writing of the parts, to a pipeline;
// WriteSummary adds the summary's file. Register nothing by hand: the
// package registers its DoFns, CombineFn and coders with the SDK when it
// is imported, as the Go SDK asks
// (https://pkg.go.dev/github.com/apache/beam/sdks/v2/go/pkg/beam/register).
//
// A file that cannot be opened, and a record or line of a file that
// cannot be read, never fail the pipeline: each is logged and counted in
// the Beam metrics of namespace Namespace. A part that cannot be written
// fails the file's bundle, which the runner retries.
package scanbeam

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // plain paths
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/robotskit/robots/scan"
	"github.com/robotskit/robots/scan/parquet"
)

// The formats of the parts (Options.Format): those of `robots scan -out
// DIR -format`, written by the same writers.
const (
	// FormatParquet is Apache Parquet, written by package scan/parquet's
	// Writer: the default, as for `robots scan -out`.
	FormatParquet = parquet.Format
	// FormatJSONL is JSON Lines, written by scan.NewWriter.
	FormatJSONL = scan.FormatJSONL
)

// Options says what each row holds beyond the facts of its capture, as
// the flags of `robots scan` do, and where the rows go.
type Options struct {
	// Robots is a selection of robots as scan.SelectRobots reads it
	// ("" for the search and AI robots, "all", "ai", "GPTBot,CCBot" …):
	// each row has a verdict for each of them.
	Robots string
	// Lint runs the checker on each capture (scan.Options.Lint).
	Lint bool
	// LintWork bounds the checker's work per capture
	// (scan.Options.LintWork); 0 means scan.DefaultLintWork. The work is
	// counted, not timed, so the rows do not depend on the machine.
	LintWork int64
	// Output is the folder of one of Beam's file systems that receives
	// the rows ("out/rows", "gs://BUCKET/robots/rows"): one part per
	// input file (PartPath) and, when every part is written, the
	// manifest (ManifestPath). "" writes no rows: the pipeline then only
	// adds them up.
	Output string
	// Format is the parts' format: FormatParquet ("" too) or FormatJSONL.
	Format string
}

// format returns the parts' format, "" meaning FormatParquet.
func (o *Options) format() string {
	if o.Format == "" {
		return FormatParquet
	}
	return strings.ToLower(o.Format)
}

// The Beam metrics the pipeline keeps, all counters of namespace
// Namespace (https://beam.apache.org/documentation/programming-guide/#metrics).
const (
	Namespace = "robots-scan"
	// CounterFiles counts the files the scan opened or tried to.
	CounterFiles = "files"
	// CounterCaptures counts the captures read.
	CounterCaptures = "captures"
	// CounterParts counts the parts written, one per file read to its
	// end (with Options.Output; else the files read to their end).
	CounterParts = "parts"
	// CounterOpenErrors counts the files that could not be opened.
	CounterOpenErrors = "open_errors"
	// CounterReadErrors counts the records or lines that could not be
	// read (a corrupt gzip member, a malformed WARC header, a file cut
	// short), as scan.ReadCaptures reports them, and the captures whose
	// analysis failed. A file whose reading itself failed (a disk or
	// network error, a directory) counts one more and has no part: its
	// rows are neither written nor summed, as with `robots scan -out`.
	CounterReadErrors = "read_errors"
	// CounterEncodeErrors counts the rows that the format could not
	// encode (JSON has no time past year 9999); each is left out.
	CounterEncodeErrors = "encode_errors"
)

// maxLogged is how many errors one DoFn instance logs; later ones are
// only counted.
const maxLogged = 100

var (
	filesCounter        = beam.NewCounter(Namespace, CounterFiles)
	capturesCounter     = beam.NewCounter(Namespace, CounterCaptures)
	partsCounter        = beam.NewCounter(Namespace, CounterParts)
	openErrorsCounter   = beam.NewCounter(Namespace, CounterOpenErrors)
	readErrorsCounter   = beam.NewCounter(Namespace, CounterReadErrors)
	encodeErrorsCounter = beam.NewCounter(Namespace, CounterEncodeErrors)
)

func init() {
	register.DoFn4x1[context.Context, fileio.ReadableFile, func(scan.ManifestEntry), func(scan.Summary), error](&scanFileFn{})
	register.Emitter1[scan.ManifestEntry]()
	register.Emitter1[scan.Summary]()
	register.Combiner1[scan.Summary](&summaryFn{})
	register.DoFn3x1[context.Context, []byte, func(*scan.Summary) bool, error](&writeSummaryFn{})
	register.Iter1[scan.Summary]()
	register.DoFn3x1[context.Context, []byte, func(*scan.ManifestEntry) bool, error](&writeManifestFn{})
	register.Iter1[scan.ManifestEntry]()
	// A Summary crosses the wire in its own JSON form, which keeps every
	// map in full and which ReadSummary checks on the way back; a
	// manifest line in the JSON of the manifest.
	beam.RegisterCoder(reflect.TypeOf(scan.Summary{}), encodeSummary, decodeSummary)
	beam.RegisterCoder(reflect.TypeOf(scan.ManifestEntry{}), encodeEntry, decodeEntry)
}

func encodeSummary(s scan.Summary) ([]byte, error) { return json.Marshal(s) }

func decodeSummary(b []byte) (scan.Summary, error) {
	s, err := scan.ReadSummary(bytes.NewReader(b))
	if err != nil {
		return scan.Summary{}, err
	}
	return *s, nil
}

func encodeEntry(e scan.ManifestEntry) ([]byte, error) { return json.Marshal(e) }

func decodeEntry(b []byte) (scan.ManifestEntry, error) {
	var e scan.ManifestEntry
	err := json.Unmarshal(b, &e)
	return e, err
}

// PartPath returns the path of the part of the input file named input
// under the folder output, in format: output, a slash and
// scan.PartName(input, format), the name `robots scan -out` gives the
// part of the same input string, as in
// "out/rows/part-ba7816bf8f01cfea.parquet". A rerun writes the same
// names, so it replaces the parts of the one before.
func PartPath(output, input, format string) string {
	return joinPath(output, scan.PartName(input, strings.ToLower(format)))
}

// ManifestPath returns the path of the manifest under the folder output:
// scan.ManifestName there, "out/rows/_manifest.jsonl".
func ManifestPath(output string) string {
	return joinPath(output, scan.ManifestName)
}

// joinPath joins a folder of any of Beam's file systems and a name.
func joinPath(dir, name string) string {
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}

// Build adds to s the scan of every file that pattern matches, a glob of
// one of Beam's file systems: a local path, gs://BUCKET/… or
// s3://BUCKET/… when the program imports the file system's package
// (io/filesystem/gcs, io/filesystem/s3). Each file is read as `robots
// scan` reads an input, by scan.ReadCaptures (a WARC file, plain or
// gzip-compressed, JSON lines, or one robots.txt), named by its path, and
// its bytes are read as stored: a ".gz" file is not decompressed on the
// way, so that Row.Offset is the offset of the record's gzip member, as
// `robots scan` gives it.
//
// With opt.Output, each file's rows go to its part, PartPath(opt.Output,
// path, opt.Format), in the order of its records, as `robots scan -out`
// writes the part of the same input: the part is written under a
// temporary name and renamed when the file is done, so that a part never
// shows half written and a retried bundle replaces it whole. When every
// part is written, the manifest (ManifestPath) lists them, one
// scan.ManifestEntry per line, in the order of the inputs' paths.
//
// parts is a PCollection<scan.ManifestEntry>: one per file read to its
// end, its part's line of the manifest (Part is "" without opt.Output).
// summary is a PCollection<scan.Summary> that holds the summary of all
// rows (nothing when no file was read), the Combine of one summary per
// file. A pattern without a wildcard that matches nothing fails the
// pipeline; one with a wildcard matches nothing quietly
// (fileio.MatchFiles). Build returns an error for an empty pattern, an
// unknown file system, an unknown format or a selection of robots that
// SelectRobots rejects.
func Build(s beam.Scope, pattern string, opt Options) (parts, summary beam.PCollection, err error) {
	if strings.TrimSpace(pattern) == "" {
		return parts, summary, errors.New("scanbeam: empty input pattern")
	}
	if _, err := scan.SelectRobots(opt.Robots); err != nil {
		return parts, summary, fmt.Errorf("scanbeam: %w", err)
	}
	if opt.LintWork < 0 {
		return parts, summary, fmt.Errorf("scanbeam: negative lint work %d", opt.LintWork)
	}
	if f := opt.format(); f != FormatParquet && f != FormatJSONL {
		return parts, summary, fmt.Errorf("scanbeam: unknown format %q (want %s or %s)", opt.Format, FormatParquet, FormatJSONL)
	}
	if opt.Output != "" && strings.TrimSpace(opt.Output) == "" {
		return parts, summary, errors.New("scanbeam: blank output folder")
	}
	// The SDK's construction functions panic on misuse (an unregistered
	// file system scheme, above all): they become an error here.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("scanbeam: building the pipeline: %v", r)
		}
	}()
	if opt.Output != "" {
		filesystem.ValidateScheme(opt.Output)
	}
	s = s.Scope("robots-scan")
	files := fileio.MatchFiles(s, pattern)
	// A Reshuffle between the match and the reads lets the runner spread
	// the files over its workers instead of reading them where the one
	// match ran
	// (https://pkg.go.dev/github.com/apache/beam/sdks/v2/go/pkg/beam#Reshuffle).
	// It moves the files' names, never their rows.
	files = beam.Reshuffle(s, files)
	readable := fileio.ReadMatches(s, files, fileio.ReadUncompressed())
	fn := &scanFileFn{Robots: opt.Robots, Lint: opt.Lint, LintWork: opt.LintWork, Output: opt.Output, Format: opt.format()}
	// Two outputs of one DoFn
	// (https://beam.apache.org/documentation/programming-guide/#additional-outputs):
	// each file's manifest line and its summary.
	parts, sums := beam.ParDo2(s, fn, readable)
	// A global Combine (https://beam.apache.org/documentation/programming-guide/#combining-pcollection)
	// whose input is one Summary per file; the runner adds them up in
	// part where they are made, before any shuffle (the CombineFn's
	// AddInput and MergeAccumulators,
	// https://beam.apache.org/documentation/programming-guide/#advanced-combines).
	summary = beam.Combine(s, &summaryFn{}, sums)
	if opt.Output != "" {
		// The manifest waits for every part: it reads them all as a side
		// input (https://beam.apache.org/documentation/programming-guide/#side-inputs).
		beam.ParDo0(s, &writeManifestFn{Path: ManifestPath(opt.Output)}, beam.Impulse(s), beam.SideInput{Input: parts})
	}
	return parts, summary, nil
}

// scanFileFn reads one file, writes its rows to its part, and emits the
// part's manifest line and the file's summary.
type scanFileFn struct {
	Robots   string `json:"robots"`
	Lint     bool   `json:"lint"`
	LintWork int64  `json:"lint_work"`
	Output   string `json:"output"`
	Format   string `json:"format"`

	opt    *scan.Options
	an     *scan.Analyzer       // of opt, shared by the worker's instances
	fs     filesystem.Interface // Output's, opened at the first file
	logged int
}

// analyzers holds the worker's scan.Analyzers, by scanFileFn options: the
// instances of the DoFn that a worker runs at once, one per bundle, share
// one, which reads each distinct robots.txt once, as scan.Run's analysers
// share theirs. Each keeps at most about 16 MiB.
var analyzers sync.Map // string → *scan.Analyzer

// Setup selects the robots once per instance and takes the worker's
// Analyzer of the instance's options.
func (fn *scanFileFn) Setup() error {
	robots, err := scan.SelectRobots(fn.Robots)
	if err != nil {
		return err
	}
	key := fmt.Sprintf("%q %t %d", fn.Robots, fn.Lint, fn.LintWork)
	opt := &scan.Options{Robots: robots, Lint: fn.Lint, LintWork: fn.LintWork}
	an, _ := analyzers.LoadOrStore(key, scan.NewAnalyzer(opt))
	fn.an = an.(*scan.Analyzer)
	fn.opt = opt
	return nil
}

// Teardown closes the output's file system.
func (fn *scanFileFn) Teardown() error {
	if fn.fs == nil {
		return nil
	}
	err := fn.fs.Close()
	fn.fs = nil
	return err
}

// ProcessElement reads every capture of f. An error of the file or of a
// record is logged and counted, never returned; an error writing the
// part is returned, which fails the bundle: the runner retries it
// (https://beam.apache.org/documentation/runtime/model/#parallelism,
// "Failures within one transform"), and the retry writes the same part
// again, whole, under the same name
// (https://beam.apache.org/documentation/programming-guide/#user-code-idempotence).
func (fn *scanFileFn) ProcessElement(ctx context.Context, f fileio.ReadableFile, emitPart func(scan.ManifestEntry), emitSum func(scan.Summary)) (err error) {
	if fn.opt == nil {
		if err := fn.Setup(); err != nil {
			return err
		}
	}
	name := f.Metadata.Path
	filesCounter.Inc(ctx, 1)
	start := time.Now()
	rc, err := f.Open(ctx)
	if err != nil {
		openErrorsCounter.Inc(ctx, 1)
		fn.warn(ctx, "robots-scan: opening %s: %v", name, err)
		return nil
	}
	defer rc.Close()

	var part *partFile
	if fn.Output != "" {
		if part, err = fn.create(ctx, name); err != nil {
			return err
		}
		defer part.abort() // unless committed
	}
	var (
		sum        scan.Summary
		rows, lost int64
		werr       error // the part's stream failed
	)
	// The loop of robots scan over an input: a record that cannot be
	// read is skipped, a failure of the file itself ends it.
	st := scan.ReadCaptures(ctx, name, rc, func(c *scan.Capture) bool {
		row, ok := fn.analyse(ctx, c)
		if !ok {
			lost++
			readErrorsCounter.Inc(ctx, 1)
			return true
		}
		if part != nil {
			if err := part.rw.Write(&row); err != nil {
				if werr = part.failed(); werr != nil {
					return false
				}
				// The row itself could not be encoded.
				lost++
				encodeErrorsCounter.Inc(ctx, 1)
				fn.warn(ctx, "robots-scan: %s at %d: %v", c.Source, c.Offset, err)
				return true
			}
		}
		sum.Add(&row)
		rows++
		return true
	}, func(err error) {
		readErrorsCounter.Inc(ctx, 1)
		fn.warn(ctx, "robots-scan: %v", err)
	})
	capturesCounter.Inc(ctx, st.Captures)
	switch {
	case werr != nil:
		return fmt.Errorf("robots-scan: writing %s: %w", part.path, werr)
	case ctx.Err() != nil:
		return ctx.Err()
	case st.Failed:
		// As `robots scan -out`: an input cut short has no part, and its
		// rows are not summed (the error is counted and logged).
		fn.warn(ctx, "robots-scan: %s: reading failed at byte %d: no part", name, st.Bytes)
		return nil
	}
	entry := scan.ManifestEntry{Input: name, Captures: st.Captures, Rows: rows, Errors: st.Errors + lost, Bytes: st.Bytes}
	if part != nil {
		if err := part.commit(); err != nil {
			return fmt.Errorf("robots-scan: writing %s: %w", part.path, err)
		}
		entry.Part = scan.PartName(name, fn.Format)
	}
	partsCounter.Inc(ctx, 1)
	entry.Seconds = math.Round(time.Since(start).Seconds()*1000) / 1000
	emitPart(entry)
	emitSum(sum)
	return nil
}

// analyse returns the row of c. A panic, which the Analyzer should never
// raise, costs the capture its row, not the pipeline, as in scan.Run.
func (fn *scanFileFn) analyse(ctx context.Context, c *scan.Capture) (row scan.Row, ok bool) {
	defer func() {
		if p := recover(); p != nil {
			fn.warn(ctx, "robots-scan: %s at %d: internal error analysing the capture: %v", c.Source, c.Offset, p)
			ok = false
		}
	}()
	return fn.an.Analyze(c), true
}

// warn logs the first maxLogged errors of the instance.
func (fn *scanFileFn) warn(ctx context.Context, format string, args ...any) {
	if fn.logged < maxLogged {
		fn.logged++
		log.Warnf(ctx, format, args...)
	}
}

// A partFile is one part being written: rows go to rw, which writes to
// out, a file of fs under a temporary name until commit renames it.
type partFile struct {
	ctx       context.Context
	cancel    context.CancelFunc // abandons the write on object stores
	fs        filesystem.Interface
	path, tmp string
	out       *errWriter
	rw        scan.RowWriter
	done      bool
}

// create starts the part of the input name.
func (fn *scanFileFn) create(ctx context.Context, name string) (*partFile, error) {
	if fn.fs == nil {
		fs, err := filesystem.New(ctx, fn.Output)
		if err != nil {
			return nil, err
		}
		fn.fs = fs
	}
	var nonce [8]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return nil, err
	}
	p := &partFile{fs: fn.fs, path: PartPath(fn.Output, name, fn.Format)}
	// The temporary name keeps the part's, so that it sits beside it, and
	// ends otherwise, so that a glob of the parts ("*.parquet") leaves it
	// out; two attempts at the same part never share one.
	p.tmp = p.path + ".tmp-" + hex.EncodeToString(nonce[:])
	// A write to Cloud Storage or S3 is committed by Close; cancelling
	// its context abandons it instead (the io.WriteCloser of
	// filesystem.Interface.OpenWrite).
	p.ctx, p.cancel = context.WithCancel(ctx)
	w, err := fn.fs.OpenWrite(p.ctx, p.tmp)
	if err != nil {
		p.cancel()
		return nil, fmt.Errorf("robots-scan: creating %s: %w", p.tmp, err)
	}
	p.out = &errWriter{w: w}
	if fn.Format == FormatParquet {
		p.rw = parquet.NewWriter(p.out)
	} else if p.rw, err = scan.NewWriter(p.out, fn.Format, fn.opt); err != nil {
		p.abort()
		return nil, err
	}
	return p, nil
}

// failed returns the first error of the part's stream.
func (p *partFile) failed() error { return p.out.err }

// commit ends the part's format, closes its file and gives it its name.
// When it fails, the deferred abort of ProcessElement removes the file.
func (p *partFile) commit() error {
	err := p.rw.Close()
	if err == nil {
		err = p.out.err
	}
	if err != nil {
		return err
	}
	p.done = true
	defer p.cancel()
	if err := p.out.w.Close(); err != nil {
		p.remove()
		return err
	}
	if err := filesystem.Rename(p.ctx, p.fs, p.tmp, p.path); err != nil {
		p.remove()
		return err
	}
	return nil
}

// abort abandons a part not committed, and removes what it wrote.
func (p *partFile) abort() {
	if p.done {
		return
	}
	p.done = true
	p.cancel()
	p.out.w.Close()
	p.remove()
}

// remove removes the part's temporary file, when the file system can.
func (p *partFile) remove() {
	if rm, ok := p.fs.(filesystem.Remover); ok {
		// A fresh context: the part's own is cancelled by now.
		rm.Remove(context.WithoutCancel(p.ctx), p.tmp)
	}
}

// errWriter remembers the first error of w, so that an error of the
// stream can be told from a row that could not be encoded.
type errWriter struct {
	w   io.WriteCloser
	err error
}

func (e *errWriter) Write(b []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(b)
	if err != nil {
		e.err = err
	}
	return n, err
}

// summaryFn adds the files' summaries up. Summary.Merge is exact whatever
// the split, as a CombineFn needs
// (https://beam.apache.org/documentation/programming-guide/#advanced-combines):
// the accumulator, the input and the output are all a scan.Summary, so
// MergeAccumulators is all the CombineFn has.
type summaryFn struct{}

// MergeAccumulators adds b's counts to a.
func (summaryFn) MergeAccumulators(a, b scan.Summary) scan.Summary {
	a.Merge(&b)
	return a
}

// WriteSummary adds to s the writing of summary (Build's) to path, in the
// format its extension names (scan.ReportFormat: ".json" for the JSON
// form that `robots scan merge` adds up, ".md" or ".html" for a report).
// An empty summary, when no file was read, is written too.
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
func (fn *writeSummaryFn) ProcessElement(ctx context.Context, _ []byte, summaries func(*scan.Summary) bool) error {
	format, err := scan.ReportFormat(fn.Path)
	if err != nil {
		return err
	}
	var total, s scan.Summary
	for summaries(&s) {
		total.Merge(&s)
		s = scan.Summary{}
	}
	var buf bytes.Buffer
	if err := total.Write(&buf, format); err != nil {
		return err
	}
	return writeFile(ctx, fn.Path, buf.Bytes())
}

// writeManifestFn writes the manifest: the parts' lines, in the order of
// their inputs.
type writeManifestFn struct {
	Path string `json:"path"`
}

// ProcessElement gathers the lines, sorts them and writes them.
func (fn *writeManifestFn) ProcessElement(ctx context.Context, _ []byte, parts func(*scan.ManifestEntry) bool) error {
	var entries []scan.ManifestEntry
	var e scan.ManifestEntry
	for parts(&e) {
		entries = append(entries, e)
	}
	slices.SortFunc(entries, func(a, b scan.ManifestEntry) int { return cmp.Compare(a.Input, b.Input) })
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, e := range entries {
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	return writeFile(ctx, fn.Path, buf.Bytes())
}

// writeFile writes data to path, a file of one of Beam's file systems.
func writeFile(ctx context.Context, path string, data []byte) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	return filesystem.Write(ctx, fs, path, data)
}
