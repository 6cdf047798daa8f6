package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/robotskit/robots/scan"
	"github.com/robotskit/robots/scan/parquet"
)

var scanCmd = &command{
	name: "scan",
	usage: "[-robots all|ai|search|TOKEN,...] [-format parquet|jsonl|csv] [-out DIR [-part-size SIZE]] [-summary FILE] [-j N] [-shard i/n] [-lint] [-base PREFIX] INPUT...\n" +
		"       robots scan merge [-summary FILE] SUMMARY.json...",
	short: "analyse robots.txt captures in bulk: WARC files, directories, JSON lines",
	long: `Scan reads robots.txt captures in bulk and writes one row per capture:
the facts of the response, how each family of robots reads it, what the
file says and, for each robot of -robots, whether it may crawl the site
(docs/scan.md lists the columns). -summary adds the rows up into the
tables of robots.txt studies.

Each INPUT is one of:
  FILE.warc, FILE.warc.gz  the response and revisit records of a WARC file,
                           such as Common Crawl's robots.txt WARC files
  FILE.jsonl               one capture per line: {"url", "status",
                           "headers", "body" or "body_b64", "time"}
  DIR                      every regular file under DIR (links are not
                           followed); a text file that is neither WARC
                           nor JSON lines is one robots.txt whose host is
                           its name (example.com), read as a 200 response
  -                        standard input, in any of these forms
  URL                      an http or https URL of any of these, streamed:
                           at most 4 downloads at once, each retried with
                           backoff on a 5xx or network error and resumed
                           where it broke off (an HTTP Range request)
  @LIST                    a file, plain or gzip, of inputs (paths or URLs),
                           one per line; -base PREFIX is put before each
                           line

The kind of an input, and its gzip compression, are told from its first
bytes, not from its name. An ARC file, or any other binary file that is
no WARC, is an error, not a row.

Without -out, rows go to standard output as JSON lines (or -format csv), in
the order of the inputs and of their records. With -out DIR, rows go to
part files DIR/part-HASH.EXT that hold the rows of whole inputs, about
-part-size bytes each (128MiB by default; each of the -j writers fills its
own), so a directory of thousands of files is a few parts, not one per
file. A part is written under a temporary name and renamed when done,
beside its summary (part-HASH.summary.json) and a line of
DIR/_manifest.jsonl: {"part", "rows", "bytes", "sha256", "inputs":
[{"input", "captures", "rows", "errors", "bytes" read, "seconds"}],
"seconds"}. A rerun into the same DIR checks every part the manifest
lists (its size, SHA-256 and summary) and skips their inputs, so a run
that stopped resumes where it was; a part that does not match, a part no
line names and a line cut short are reported, set aside (renamed
*.damaged or *.orphan) and their inputs read again. A rerun with nothing
left says so and exits 0. The default format is jsonl without -out,
parquet with it.

The input string is the argument as given, the path of a file under a
DIR argument (DIR joined with its path inside DIR), or the line of an
@LIST with -base before it.

-shard i/n keeps the inputs whose key, hashed with 64-bit FNV-1a, is i
modulo n. The key is the argument as given, the path of a file inside its
DIR argument ("sub/example.com"), or the line of an @LIST as written,
without -base: where the data sits does not change the shards. The shards
0/n to n-1/n of the same inputs are disjoint and together hold every
input, so n machines given the same arguments share the work.

An input that cannot be read, a corrupt record or line, a download that
fails: each is reported on standard error as
"robots scan: INPUT: offset N: message", N being the byte offset of the
record or line ("robots scan: INPUT: message" for an input that cannot
be opened), and the run goes on with the rest.

When standard error is a terminal, a status line there shows the inputs
done, the captures, captures/s, MB/s read and the time left.

robots scan merge reads summary files (-summary x.json of earlier runs) and
writes their sum, by default as Markdown on standard output.

Examples:
  robots scan -robots ai robots-dir/ > rows.jsonl
  robots scan -j 8 -out out -summary report.html crawl/*.warc.gz

  # a Common Crawl crawl's robots.txt captures (docs/scan.md):
  curl -sO https://data.commoncrawl.org/crawl-data/CC-MAIN-2024-51/robotstxt.paths.gz
  robots scan -base https://data.commoncrawl.org/ -robots ai -out out \
      -summary summary.json @robotstxt.paths.gz

  # one pod of a Kubernetes Indexed Job of 200 completions:
  robots scan -shard $JOB_COMPLETION_INDEX/200 -base https://data.commoncrawl.org/ \
      -out /data/out/$JOB_COMPLETION_INDEX \
      -summary /data/summary-$JOB_COMPLETION_INDEX.json @/data/robotstxt.paths.gz
  robots scan merge /data/summary-*.json -summary report.html`,
	exitCodes: `Exit codes:
  0    every input was read without error, or a rerun had nothing left to do
  1    some input, or some record or line of one, could not be read
       (reported; it has no row)
  2    a usage error, or the rows or the summary could not be written
  130  interrupted
`,
}

var scanMergeCmd = &command{
	name:  "scan merge",
	usage: "[-summary FILE] SUMMARY.json...",
	short: "add up the summaries of robots scan runs",
	long: `Each SUMMARY.json is a summary file that robots scan -summary x.json
wrote (- reads one from standard input). The sum is the summary of all
their rows, whatever the split, and goes to -summary FILE in the form its
extension picks (.json, .md or .html), by default to standard output as
Markdown.`,
}

func init() { scanCmd.run = runScan }

// scanProgressEvery is how often the status line is rewritten; tests
// change it.
var scanProgressEvery = scan.DefaultProgressEvery

func runScan(e *env, args []string) error {
	if len(args) > 0 && args[0] == "merge" {
		return runScanMerge(e, args[1:])
	}
	fs := newFlags(e, scanCmd)
	robotsSel := fs.String("robots", "search,ai", "give verdicts for the robots `SEL`: all, ai, search, or product tokens of the registry, comma-separated (robots agents)")
	format := fs.String("format", "", "write rows as `F`: parquet, jsonl or csv (default: jsonl on standard output, parquet with -out)")
	outDir := fs.String("out", "", "write the rows in part files, with a manifest, to `DIR` (a rerun checks the parts and skips the inputs done)")
	partSize := fs.String("part-size", "128MiB", "with -out, close a part once it holds `SIZE` bytes (a number, optionally with K, M or G: 512M, 1GiB)")
	summary := fs.String("summary", "", "write the summary of the rows to `FILE`, as .json (for robots scan merge), .md or .html")
	jobs := intFlag(fs, "j", 0, "analyse with `N` workers and read up to N inputs at once (default: GOMAXPROCS, the number of CPUs)")
	shard := fs.String("shard", "", "read only shard `i/n` of the inputs (0 ≤ i < n): those whose FNV-1a hash modulo n is i")
	lintFlag := fs.Bool("lint", false, "run the checker of robots check on each capture and record its codes (costs far more)")
	base := fs.String("base", "", "put `PREFIX` before each line of an @LIST (https://data.commoncrawl.org/ for Common Crawl)")
	if err := parseFlags(e, scanCmd, fs, args); err != nil {
		return err
	}
	job := &scan.Job{Inputs: fs.Args(), Base: *base, Stdin: e.stdin, Out: e.stdout, OutDir: *outDir, Workers: *jobs, ProgressEvery: scanProgressEvery}
	var err error
	switch {
	case isSet(fs, "format"):
		job.Format = strings.ToLower(*format)
		if job.Format != parquet.Format && job.Format != scan.FormatJSONL && job.Format != scan.FormatCSV {
			return &usageError{msg: fmt.Sprintf("-format must be parquet, jsonl or csv, got %q", *format)}
		}
	case job.OutDir != "":
		job.Format = parquet.Format
	default:
		job.Format = scan.FormatJSONL
	}
	if job.Format == parquet.Format {
		if job.OutDir == "" {
			return &usageError{msg: "parquet needs -out DIR (a Parquet file ends with its footer); on standard output use -format jsonl or csv"}
		}
		job.NewWriter = parquet.NewRowWriter
	}
	if job.PartSize, err = parseSize(*partSize); err != nil {
		return &usageError{msg: "-part-size: " + err.Error()}
	}
	if isSet(fs, "part-size") && job.OutDir == "" {
		return &usageError{msg: "-part-size sizes the parts of -out DIR: give -out"}
	}
	if isSet(fs, "j") && *jobs < 1 {
		return &usageError{msg: fmt.Sprintf("-j must be at least 1, got %d", *jobs)}
	}
	if job.Shard, err = scan.ParseShard(*shard); err != nil {
		return &usageError{msg: "-" + err.Error()}
	}
	robots, err := scan.SelectRobots(*robotsSel)
	if err != nil {
		return &usageError{msg: "-robots: " + err.Error()}
	}
	job.Options = &scan.Options{Robots: robots, Lint: *lintFlag}
	if _, err := scan.ReportFormat(*summary); *summary != "" && err != nil {
		return &usageError{msg: "-summary: " + errorText(err)}
	}
	if fs.NArg() == 0 {
		return &usageError{msg: "give the inputs: WARC files, directories, JSON lines files, URLs, - for standard input, or @LIST"}
	}
	hasList := slices.ContainsFunc(fs.Args(), func(a string) bool { return strings.HasPrefix(a, "@") })
	if *base != "" && !hasList {
		return &usageError{msg: "-base is put before the lines of an @LIST: give one"}
	}
	if job.OutDir != "" {
		if err := os.MkdirAll(job.OutDir, 0o777); err != nil {
			return fmt.Errorf("-out: %w", err)
		}
	}
	if slices.Contains(fs.Args(), "@") {
		return &usageError{msg: "@ needs a file name: @LIST"}
	}

	st := &scanStderr{w: e.stderr}
	job.OnError = st.inputErr
	job.OnSkip = func(n int, manifest string) {
		st.write(fmt.Sprintf("robots scan: skipped %s done before, in parts checked against %s\n", plural(n, "input"), manifest), false)
	}
	if e.tty {
		job.OnProgress = func(p scan.Progress) { st.write(p.String(), true) }
	}
	res, err := scan.Run(e.ctx, job)
	st.write("", false) // clears the status line
	if err != nil {
		return err
	}
	if *summary != "" {
		if err := res.Summary.WriteFile(*summary); err != nil {
			return err
		}
	}
	if res.Dropped > 0 {
		st.write(fmt.Sprintf("robots scan: %s read whole went with the part of an input that failed; a rerun reads them again\n", plural(res.Dropped, "input")), false)
	}
	if res.Failed > 0 {
		st.write(fmt.Sprintf("robots scan: %d of %s had errors or could not be read\n", res.Failed, plural(res.Inputs, "input")), false)
		return errFinding
	}
	if res.Inputs == 0 && res.Skipped > 0 {
		st.write(fmt.Sprintf("robots scan: nothing left to do: every input is in a part of %s\n", job.OutDir), false)
	}
	return nil
}

// parseSize reads a size in bytes: a number, optionally followed by K, M
// or G (also KB, KiB …), each 1024 times the one before.
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	low := strings.ToLower(t)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"gib", 1 << 30}, {"gb", 1 << 30}, {"g", 1 << 30}, {"mib", 1 << 20}, {"mb", 1 << 20}, {"m", 1 << 20}, {"kib", 1 << 10}, {"kb", 1 << 10}, {"k", 1 << 10}, {"b", 1}} {
		if strings.HasSuffix(low, u.suffix) {
			t, mult = strings.TrimSpace(t[:len(t)-len(u.suffix)]), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 1 || n > (1<<62)/mult {
		return 0, fmt.Errorf("want a size such as 128MiB or 1000000, got %q", s)
	}
	return n * mult, nil
}

// scanStderr is robots scan's standard error: the errors of the inputs,
// notes and, on a terminal, the status line, cleared before each other
// line.
type scanStderr struct {
	w      io.Writer
	mu     sync.Mutex
	status bool // a status line is shown
}

// write writes text: a line, or the status line when status is set;
// with text "", it clears the status line.
func (s *scanStderr) write(text string, status bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.status || status {
		fmt.Fprint(s.w, "\r\x1b[K")
	}
	fmt.Fprint(s.w, text)
	s.status = status || (s.status && text != "")
}

// inputErr reports an error of an input: "robots scan: INPUT: message",
// or "robots scan: INPUT: offset N: message" for a record.
func (s *scanStderr) inputErr(name string, err error) {
	msg := name + ": " + errorText(pathless(err))
	if ie := (*scan.InputError)(nil); errors.As(err, &ie) {
		msg = fmt.Sprintf("%s: offset %d: %s", ie.Source, ie.Offset, errorText(ie.Err))
	}
	s.write("robots scan: "+clean(msg)+"\n", false)
}

// pathless is err without the *fs.PathError around it: the file's name
// is already in the message.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// runScanMerge adds up summary files.
func runScanMerge(e *env, args []string) error {
	flags := newFlags(e, scanMergeCmd)
	summary := flags.String("summary", "", "write the sum to `FILE`, as .json, .md or .html (default: Markdown on standard output)")
	if err := parseFlags(e, scanMergeCmd, flags, args); err != nil {
		return err
	}
	if _, err := scan.ReportFormat(*summary); *summary != "" && err != nil {
		return &usageError{msg: "-summary: " + errorText(err)}
	}
	if flags.NArg() == 0 {
		return &usageError{msg: "merge: give the summary files to add up (robots scan -summary x.json writes one)"}
	}
	var total scan.Summary
	for _, name := range flags.Args() {
		var r io.Reader
		if name == "-" {
			r = e.stdin
		} else {
			f, err := os.Open(name)
			if err != nil {
				return fmt.Errorf("%s: %v", name, pathless(err))
			}
			defer f.Close()
			r = f
		}
		sum, err := scan.ReadSummary(r)
		if err != nil {
			return fmt.Errorf("%s: %s", name, errorText(err))
		}
		total.Merge(sum)
	}
	if *summary != "" {
		return total.WriteFile(*summary)
	}
	var b bytes.Buffer
	if err := total.Write(&b, scan.ReportMarkdown); err != nil {
		return err
	}
	_, err := e.stdout.Write(b.Bytes())
	return err
}
