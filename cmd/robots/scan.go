package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"math"
	"net/http"
	neturl "net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/scan"
)

var scanCmd = &command{
	name: "scan",
	usage: "[-robots all|ai|search|TOKEN,...] [-format parquet|jsonl|csv] [-out DIR] [-summary FILE] [-j N] [-shard i/n] [-lint] [-base PREFIX] INPUT...\n" +
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
  DIR                      every regular file under DIR; a file that is
                           neither WARC nor JSON lines is one robots.txt
                           whose host is its name (example.com), read as
                           a 200 response
  -                        standard input, in any of these forms
  URL                      an http or https URL of any of these, streamed:
                           at most 4 downloads at once, each retried with
                           backoff on a 5xx or network error and resumed
                           where it broke off (an HTTP Range request)
  @LIST                    a file, plain or gzip, of inputs (paths or URLs),
                           one per line; -base PREFIX is put before each
                           line

The kind of an input, and its gzip compression, are told from its first
bytes, not from its name.

Without -out, rows go to standard output as JSON lines (or -format csv), in
the order of the inputs and of their records. With -out DIR, each input
gets its own part file DIR/part-HASH.EXT (HASH: the first 16 hex digits of
the SHA-256 of the input string), written under a temporary name and
renamed when the input is done, beside its summary (part-HASH.summary.json)
and a line of DIR/_manifest.jsonl: {"input", "part", "captures", "rows",
"errors", "bytes" read, "seconds"}. A rerun into the same DIR skips the inputs
that the manifest lists and whose part is there, so a run that stopped
resumes where it was. The default format is jsonl without -out, parquet
with it.

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

Exit status of robots scan:
  0    every input was read without error
  1    some input, or some record or line of one, could not be read
       (reported; it has no row)
  2    a usage error, or the rows or the summary could not be written
  130  interrupted

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

// Tuning of robots scan; tests change some of them.
var (
	// scanQueue is how many captures of one input may wait for their
	// analysis and for the writer: with at most -j inputs read at once,
	// memory stays within about -j × scanQueue captures.
	scanQueue = 32
	// scanMaxDownloads is how many URL inputs are streamed at once.
	scanMaxDownloads = 4
	// scanAttempts is how many times a download is tried, resumed included.
	scanAttempts = 5
	// scanRetryDelay is the wait before the first retry; it doubles after
	// each one.
	scanRetryDelay = time.Second
	// scanIdleTimeout ends a download attempt during which nothing arrived
	// for that long (connecting and the response's headers included).
	scanIdleTimeout = time.Minute
	// scanProgressEvery is how often the status line is rewritten.
	scanProgressEvery = time.Second
	// scanMaxErrorLines is how many errors of one input are shown; the
	// rest are counted in the manifest only.
	scanMaxErrorLines = 100
)

// scanManifest is the name of the manifest in the -out directory.
const scanManifest = "_manifest.jsonl"

// scanInput is one input: a file, standard input or a URL.
type scanInput struct {
	name string // the input string: what is read, reported and listed
	key  string // what -shard hashes
	kind int
	size int64 // in bytes, -1 when unknown
}

const (
	inputFile = iota
	inputStdin
	inputURL
)

func runScan(e *env, args []string) error {
	if len(args) > 0 && args[0] == "merge" {
		return runScanMerge(e, args[1:])
	}
	fs := newFlags(e, scanCmd)
	robotsSel := fs.String("robots", "search,ai", "give verdicts for the robots `SEL`: all, ai, search, or product tokens of the registry, comma-separated (robots agents)")
	format := fs.String("format", "", "write rows as `F`: parquet, jsonl or csv (default: jsonl on standard output, parquet with -out)")
	outDir := fs.String("out", "", "write one part file per input, and a manifest, to `DIR` (a rerun skips the inputs done)")
	summary := fs.String("summary", "", "write the summary of the rows to `FILE`, as .json (for robots scan merge), .md or .html")
	jobs := intFlag(fs, "j", 0, "analyse with `N` workers and read up to N inputs at once (default: GOMAXPROCS, the number of CPUs)")
	shard := fs.String("shard", "", "read only shard `i/n` of the inputs (0 ≤ i < n): those whose FNV-1a hash modulo n is i")
	lintFlag := fs.Bool("lint", false, "run the checker of robots check on each capture and record its codes (costs far more)")
	base := fs.String("base", "", "put `PREFIX` before each line of an @LIST (https://data.commoncrawl.org/ for Common Crawl)")
	if err := parseFlags(e, scanCmd, fs, args); err != nil {
		return err
	}
	s := &scanRun{e: e, out: *outDir, j: *jobs}
	switch {
	case isSet(fs, "format"):
		s.format = strings.ToLower(*format)
		if s.format != scan.FormatParquet && s.format != scan.FormatJSONL && s.format != scan.FormatCSV {
			return &usageError{msg: fmt.Sprintf("-format must be parquet, jsonl or csv, got %q", *format)}
		}
	case s.out != "":
		s.format = scan.FormatParquet
	default:
		s.format = scan.FormatJSONL
	}
	if s.format == scan.FormatParquet && s.out == "" {
		return &usageError{msg: "parquet needs -out DIR (a Parquet file ends with its footer); on standard output use -format jsonl or csv"}
	}
	if isSet(fs, "j") && s.j < 1 {
		return &usageError{msg: fmt.Sprintf("-j must be at least 1, got %d", s.j)}
	}
	if s.j < 1 {
		s.j = runtime.GOMAXPROCS(0)
	}
	shardI, shardN, err := parseShard(*shard)
	if err != nil {
		return err
	}
	robots, err := scan.SelectRobots(*robotsSel)
	if err != nil {
		return &usageError{msg: "-robots: " + err.Error()}
	}
	s.opts = &scan.Options{Robots: robots, Lint: *lintFlag}
	if *summary != "" {
		if s.sumFormat, err = scan.ReportFormat(*summary); err != nil {
			return &usageError{msg: "-summary: " + errorText(err)}
		}
	}
	if fs.NArg() == 0 {
		return &usageError{msg: "give the inputs: WARC files, directories, JSON lines files, URLs, - for standard input, or @LIST"}
	}
	hasList := false
	for _, a := range fs.Args() {
		hasList = hasList || strings.HasPrefix(a, "@")
	}
	if *base != "" && !hasList {
		return &usageError{msg: "-base is put before the lines of an @LIST: give one"}
	}

	s.ctx = e.ctx
	s.downloads = make(chan struct{}, scanMaxDownloads)
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ResponseHeaderTimeout = scanIdleTimeout
	s.client = &http.Client{Transport: t}
	if s.out != "" {
		if err := os.MkdirAll(s.out, 0o777); err != nil {
			return fmt.Errorf("-out: %w", err)
		}
	}
	inputs, err := s.expand(fs.Args(), *base)
	if err != nil {
		return err
	}
	if shardN > 0 {
		kept := inputs[:0]
		for _, in := range inputs {
			if shardOf(in.key, shardN) == shardI {
				kept = append(kept, in)
			}
		}
		inputs = kept
	}
	if s.out != "" {
		if inputs, err = s.skipDone(inputs); err != nil {
			return err
		}
	}
	if err := s.scan(inputs); err != nil {
		return err
	}
	if e.ctx.Err() != nil {
		return e.ctx.Err()
	}
	if *summary != "" {
		if err := writeSummaryFile(*summary, s.sumFormat, &s.sum); err != nil {
			return err
		}
	}
	if n := s.failed.Load(); n > 0 {
		s.note(fmt.Sprintf("robots scan: %d of %s had errors or could not be read\n", n, plural(s.total+s.others, "input")))
		return errFinding
	}
	return nil
}

// parseShard reads -shard i/n; n is 0 when s is empty.
func parseShard(s string) (i, n uint64, err error) {
	if s == "" {
		return 0, 0, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, erri := strconv.ParseUint(strings.TrimSpace(a), 10, 64)
	n, errn := strconv.ParseUint(strings.TrimSpace(b), 10, 64)
	if !ok || erri != nil || errn != nil || n == 0 || i >= n {
		return 0, 0, &usageError{msg: fmt.Sprintf("-shard must be i/n with 0 ≤ i < n, such as 0/4 or $JOB_COMPLETION_INDEX/200; got %q", s)}
	}
	return i, n, nil
}

// shardOf returns the shard of an input key among n: its FNV-1a 64-bit
// hash (Fowler, Noll and Vo, http://www.isthe.com/chongo/tech/comp/fnv/;
// draft-eastlake-fnv, https://datatracker.ietf.org/doc/draft-eastlake-fnv/)
// modulo n.
func shardOf(name string, n uint64) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64() % n
}

// partName returns the base name of an input's part file: "part-", the
// first 16 hex digits of the SHA-256 (FIPS 180-4) of the input string,
// and the format's extension.
func partName(input, format string) string {
	sum := sha256.Sum256([]byte(input))
	return "part-" + hex.EncodeToString(sum[:8]) + "." + format
}

// partSummaryName returns the name of the summary beside a part.
func partSummaryName(part string) string {
	return strings.TrimSuffix(part, filepath.Ext(part)) + ".summary.json"
}

// scanRun is one run of robots scan.
type scanRun struct {
	e         *env
	ctx       context.Context
	opts      *scan.Options
	format    string
	out       string
	sumFormat string
	j         int

	total  int   // inputs to read
	others int   // inputs with errors not read by this run: a directory walk's, those done before
	size   int64 // their bytes, -1 when some are unknown

	failed   atomic.Int64 // inputs with errors
	done     atomic.Int64 // inputs finished
	captures atomic.Int64
	bytes    atomic.Int64

	errMu    sync.Mutex // standard error
	progress bool       // a status line is shown

	sumMu sync.Mutex
	sum   scan.Summary

	rowsMu sync.Mutex
	rows   scan.RowWriter // standard output's, without -out

	manMu    sync.Mutex
	manifest *os.File

	fatalMu sync.Mutex
	fatal   error
	cancel  context.CancelFunc

	downloads chan struct{}
	client    *http.Client
}

// note writes a line to standard error, clearing the status line first.
func (s *scanRun) note(line string) {
	s.errMu.Lock()
	defer s.errMu.Unlock()
	if s.progress {
		fmt.Fprint(s.e.stderr, "\r\x1b[K")
	}
	fmt.Fprint(s.e.stderr, line)
}

// inputErr reports an error of an input: "robots scan: INPUT: message";
// an *scan.InputError says "INPUT: offset N: message" itself.
func (s *scanRun) inputErr(name string, err error) {
	var ie *scan.InputError
	msg := ""
	if errors.As(err, &ie) {
		msg = fmt.Sprintf("%s: offset %d: %s", ie.Source, ie.Offset, errorText(ie.Err))
	} else {
		msg = name + ": " + errorText(pathless(err))
	}
	s.note("robots scan: " + clean(msg) + "\n")
}

// pathless is err without the *fs.PathError around it: the input's name
// is already in the message.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// setFatal records an error that ends the run: the output cannot be
// written.
func (s *scanRun) setFatal(err error) {
	s.fatalMu.Lock()
	if s.fatal == nil {
		s.fatal = err
	}
	s.fatalMu.Unlock()
	s.cancel()
}

// expand turns the arguments into inputs, in order and each once:
// directories are walked, lists read.
func (s *scanRun) expand(args []string, base string) ([]scanInput, error) {
	var out []scanInput
	seen := make(map[string]bool)
	add := func(in scanInput) {
		if !seen[in.name] {
			seen[in.name] = true
			out = append(out, in)
		}
	}
	var outInfo os.FileInfo
	if s.out != "" {
		outInfo, _ = os.Stat(s.out)
	}
	one := func(arg, key string) {
		switch {
		case arg == "-":
			add(scanInput{name: "-", key: key, kind: inputStdin, size: -1})
			return
		case isURL(arg):
			add(scanInput{name: arg, key: key, kind: inputURL, size: -1})
			return
		}
		st, err := os.Stat(arg)
		if err != nil || !st.IsDir() {
			size := int64(-1)
			if err == nil {
				size = st.Size()
			}
			// A missing file is reported when it is read.
			add(scanInput{name: arg, key: key, kind: inputFile, size: size})
			return
		}
		// A directory: every regular file under it, in lexical order
		// (filepath.WalkDir), the -out directory left out.
		filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				s.others++
				s.failed.Add(1)
				s.inputErr(p, err)
				return nil
			}
			if d.IsDir() {
				if outInfo != nil && p != arg {
					if info, err := d.Info(); err == nil && os.SameFile(info, outInfo) {
						return filepath.SkipDir
					}
				}
				return nil
			}
			info, err := os.Stat(p) // follows a symbolic link
			if err != nil || !info.Mode().IsRegular() {
				return nil
			}
			rel, err := filepath.Rel(arg, p)
			if err != nil {
				rel = p
			}
			add(scanInput{name: p, key: filepath.ToSlash(rel), kind: inputFile, size: info.Size()})
			return nil
		})
	}
	for _, arg := range args {
		if list, ok := strings.CutPrefix(arg, "@"); ok {
			lines, err := s.readList(list)
			if err != nil {
				return nil, err
			}
			for _, l := range lines {
				one(base+l, l)
			}
			continue
		}
		one(arg, arg)
	}
	return out, nil
}

// maxListLine bounds a line of an @LIST.
const maxListLine = 64 << 10

// readList reads the lines of an @LIST: a file or URL, gzip-compressed
// (RFC 1952, told by its first two bytes) or plain; blank lines and lines
// that start with "#" are left out.
func (s *scanRun) readList(name string) ([]string, error) {
	if name == "" {
		return nil, &usageError{msg: "@ needs a file name: @LIST"}
	}
	var rc io.ReadCloser
	if isURL(name) {
		src, err := s.openURL(name)
		if err != nil {
			return nil, fmt.Errorf("@%s: %s", name, errorText(err))
		}
		rc = src
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("@%s: %v", name, pathless(err))
		}
		rc = f
	}
	defer rc.Close()
	br := bufio.NewReader(rc)
	var r io.Reader = br
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("@%s: %v", name, err)
		}
		r = zr
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), maxListLine)
	var lines []string
	for sc.Scan() {
		l := strings.TrimSpace(strings.TrimPrefix(sc.Text(), "\ufeff"))
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("@%s: line %d: %v", name, len(lines)+1, err)
	}
	return lines, nil
}

// manifestLine is one line of _manifest.jsonl: an input done.
type manifestLine struct {
	Input    string  `json:"input"`
	Part     string  `json:"part"`
	Captures int64   `json:"captures"`
	Rows     int64   `json:"rows"`
	Errors   int64   `json:"errors"`
	Bytes    int64   `json:"bytes"`
	Seconds  float64 `json:"seconds"`
}

// skipDone drops the inputs that an earlier run into the -out directory
// finished: listed in the manifest, with their part and its summary
// there. Their summaries count in this run's, and so do their errors in
// the exit status. Standard input is never skipped.
func (s *scanRun) skipDone(inputs []scanInput) ([]scanInput, error) {
	done := make(map[string]int64) // errors by input and part
	f, err := os.Open(filepath.Join(s.out, scanManifest))
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	default:
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 4096), 1<<20)
		for sc.Scan() {
			var m manifestLine
			// A line cut by a crash does not parse, and is ignored.
			if json.Unmarshal(sc.Bytes(), &m) == nil && m.Input != "" {
				done[m.Input+"\x00"+m.Part] = m.Errors
			}
		}
		err := sc.Err()
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", filepath.Join(s.out, scanManifest), err)
		}
	}
	kept := inputs[:0]
	skipped := 0
	for _, in := range inputs {
		part := partName(in.name, s.format)
		errs, listed := done[in.name+"\x00"+part]
		if in.kind == inputStdin || !listed || !s.takePart(part) {
			kept = append(kept, in)
			continue
		}
		skipped++
		if errs > 0 {
			// Its errors, reported by the run that read it, still count.
			s.failed.Add(1)
			s.others++
		}
	}
	if skipped > 0 {
		s.note(fmt.Sprintf("robots scan: skipped %s done before (%s)\n", plural(skipped, "input"), filepath.Join(s.out, scanManifest)))
	}
	return kept, nil
}

// takePart reports whether part and its summary are in the -out
// directory, and adds the summary to the run's.
func (s *scanRun) takePart(part string) bool {
	if _, err := os.Stat(filepath.Join(s.out, part)); err != nil {
		return false
	}
	f, err := os.Open(filepath.Join(s.out, partSummaryName(part)))
	if err != nil {
		return false
	}
	defer f.Close()
	sum, err := scan.ReadSummary(f)
	if err != nil {
		return false
	}
	s.sum.Merge(sum)
	return true
}

// scanJob is one input on its way through the pipeline.
type scanJob struct {
	in    scanInput
	q     chan *scanSlot // the captures in order; closed when read
	start time.Time

	// Set by the reader before it closes q.
	captures, errors, bytes int64
	failed                  bool // the input could not be read to its end
}

// scanSlot is one capture, then its row.
type scanSlot struct {
	c    *scan.Capture
	row  scan.Row
	ok   bool // row is set
	done chan struct{}
}

// scan runs the pipeline: a dispatcher hands the inputs in order to -j
// readers; each reader streams its input's captures into the input's
// bounded queue and to -j analysers; writers take the rows from the
// queues in order. Without -out, one writer takes the inputs in order,
// so that standard output holds them in order; with -out, -j writers
// each write their input's part.
func (s *scanRun) scan(inputs []scanInput) error {
	s.total = len(inputs)
	s.size = 0
	for _, in := range inputs {
		if in.size < 0 {
			s.size = -1
			break
		}
		s.size += in.size
	}
	ctx, cancel := context.WithCancel(s.e.ctx)
	defer cancel()
	s.ctx, s.cancel = ctx, cancel

	writers := 1
	if s.out == "" {
		w, err := scan.NewWriter(s.e.stdout, s.format, s.opts)
		if err != nil {
			return err
		}
		s.rows = w
	} else {
		writers = s.j
		f, err := os.OpenFile(filepath.Join(s.out, scanManifest), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
		if err != nil {
			return err
		}
		s.manifest = f
		defer f.Close()
	}
	stopProgress := s.startProgress()

	ordered := make(chan *scanJob, s.j)
	toRead := make(chan *scanJob)
	work := make(chan *scanSlot, s.j)
	go func() {
		defer close(ordered)
		defer close(toRead)
		for _, in := range inputs {
			job := &scanJob{in: in, q: make(chan *scanSlot, scanQueue)}
			select {
			case ordered <- job:
			case <-ctx.Done():
				return
			}
			select {
			case toRead <- job:
			case <-ctx.Done():
				return
			}
		}
	}()
	var readers, analysers, writersWG sync.WaitGroup
	for range s.j {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for job := range toRead {
				s.read(job, work)
			}
		}()
		analysers.Add(1)
		go func() {
			defer analysers.Done()
			for sl := range work {
				s.analyse(sl)
			}
		}()
	}
	for range writers {
		writersWG.Add(1)
		go func() {
			defer writersWG.Done()
			for job := range ordered {
				s.write(job)
			}
		}()
	}
	writersWG.Wait()
	cancel() // readers waiting on a job that no writer takes
	readers.Wait()
	close(work)
	analysers.Wait()
	stopProgress()

	if s.rows != nil {
		if err := s.rows.Close(); err != nil && s.fatal == nil {
			s.fatal = fmt.Errorf("writing rows: %w", err)
		}
	}
	if s.fatal != nil {
		return s.fatal
	}
	return nil
}

// analyse turns a capture into its row. A panic, which Analyze should
// never raise, costs the capture its row, not the run.
func (s *scanRun) analyse(sl *scanSlot) {
	defer close(sl.done)
	defer func() {
		if p := recover(); p != nil {
			s.inputErr("", &scan.InputError{Source: sl.c.Source, Offset: sl.c.Offset, Err: fmt.Errorf("internal error analysing the capture: %v", p)})
			sl.ok = false
		}
		sl.c = nil
	}()
	sl.row = scan.Analyze(sl.c, s.opts)
	sl.ok = true
}

// read streams the captures of job's input into its queue and to the
// analysers.
func (s *scanRun) read(job *scanJob, work chan<- *scanSlot) {
	defer close(job.q)
	job.start = time.Now()
	src, err := s.open(job.in)
	if err != nil {
		job.failed = true
		if s.ctx.Err() == nil {
			s.inputErr(job.in.name, err)
		}
		return
	}
	defer func() {
		src.Close()
		job.bytes = src.n
	}()
	r := scan.NewReader(job.in.name, src)
	for s.ctx.Err() == nil {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if s.ctx.Err() != nil {
				break // interrupted
			}
			job.errors++
			switch {
			case job.errors <= int64(scanMaxErrorLines):
				s.inputErr(job.in.name, err)
			case job.errors == int64(scanMaxErrorLines)+1:
				s.note(fmt.Sprintf("robots scan: %s: more than %d errors; the rest are not shown\n", clean(job.in.name), scanMaxErrorLines))
			}
			if src.err != nil {
				break // the input itself failed: nothing more to read
			}
			continue
		}
		job.captures++
		sl := &scanSlot{c: c, done: make(chan struct{})}
		select {
		case job.q <- sl:
		case <-s.ctx.Done():
			return
		}
		select {
		case work <- sl:
		case <-s.ctx.Done():
			return
		}
	}
	if src.err != nil {
		job.failed = true
		if job.errors == 0 && s.ctx.Err() == nil {
			job.errors++
			s.inputErr(job.in.name, &scan.InputError{Source: job.in.name, Offset: src.n, Err: src.err})
		}
	}
}

// write writes the rows of job, in order, to standard output or to the
// input's part, then records the input as done.
func (s *scanRun) write(job *scanJob) {
	var (
		f    *os.File
		rw   = s.rows
		tmp  string
		part string
		err  error
	)
	if s.out != "" {
		part = partName(job.in.name, s.format)
		tmp = filepath.Join(s.out, part+".tmp")
		if f, err = os.Create(tmp); err != nil {
			s.setFatal(err)
			return
		}
		defer func() {
			if f != nil {
				f.Close()
				os.Remove(tmp)
			}
		}()
		if rw, err = scan.NewWriter(f, s.format, s.opts); err != nil {
			s.setFatal(err)
			return
		}
	}
	sum := new(scan.Summary)
	var rows, lost int64
	for {
		var sl *scanSlot
		var more bool
		select {
		case sl, more = <-job.q:
		case <-s.ctx.Done():
			return
		}
		if !more {
			break
		}
		select {
		case <-sl.done:
		case <-s.ctx.Done():
			return
		}
		s.captures.Add(1)
		if !sl.ok {
			lost++ // reported by analyse
			continue
		}
		if s.out == "" {
			s.rowsMu.Lock()
			err = rw.Write(&sl.row)
			s.rowsMu.Unlock()
		} else {
			err = rw.Write(&sl.row)
		}
		if err != nil {
			s.setFatal(fmt.Errorf("writing rows: %w", err))
			return
		}
		sum.Add(&sl.row)
		rows++
	}
	// job.q is closed: the reader is done with job.
	errs := job.errors + lost
	if errs > 0 || job.failed {
		s.failed.Add(1)
	}
	defer s.done.Add(1)
	if s.out == "" {
		s.sumMu.Lock()
		s.sum.Merge(sum)
		s.sumMu.Unlock()
		return
	}
	if job.failed {
		return // no part: a rerun tries the input again
	}
	if err := rw.Close(); err != nil {
		s.setFatal(fmt.Errorf("%s: %w", tmp, err))
		return
	}
	err = f.Close()
	f = nil
	if err == nil {
		err = writeSummaryFile(filepath.Join(s.out, partSummaryName(part)), scan.ReportJSON, sum)
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(s.out, part))
	}
	if err != nil {
		os.Remove(tmp)
		s.setFatal(err)
		return
	}
	line, _ := json.Marshal(manifestLine{
		Input: job.in.name, Part: part,
		Captures: job.captures, Rows: rows, Errors: errs, Bytes: job.bytes,
		Seconds: math.Round(time.Since(job.start).Seconds()*1000) / 1000,
	})
	s.manMu.Lock()
	_, err = s.manifest.Write(append(line, '\n'))
	s.manMu.Unlock()
	if err != nil {
		s.setFatal(fmt.Errorf("%s: %w", scanManifest, err))
		return
	}
	s.sumMu.Lock()
	s.sum.Merge(sum)
	s.sumMu.Unlock()
}

// writeSummaryFile writes sum to name in format, through a temporary file
// renamed at the end.
func writeSummaryFile(name, format string, sum *scan.Summary) error {
	tmp := name + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	err = sum.Write(bw, format)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("%s: %v", name, err)
	}
	return nil
}

// scanSource is an input's byte stream: it counts the bytes read, and
// remembers a failure of the stream itself (as opposed to bad bytes in
// it).
type scanSource struct {
	r     io.Reader
	close func() error
	n     int64
	total *atomic.Int64
	err   error
}

func (s *scanSource) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.n += int64(n)
	s.total.Add(int64(n))
	if err != nil && err != io.EOF && s.err == nil {
		s.err = err
	}
	return n, err
}

func (s *scanSource) Close() error {
	if s.close == nil {
		return nil
	}
	return s.close()
}

// open opens an input.
func (s *scanRun) open(in scanInput) (*scanSource, error) {
	switch in.kind {
	case inputStdin:
		return &scanSource{r: s.e.stdin, total: &s.bytes}, nil
	case inputURL:
		return s.openURL(in.name)
	}
	if i := strings.Index(in.name, "://"); i > 0 && !strings.ContainsAny(in.name[:i], `/\.`) {
		if _, err := os.Stat(in.name); err != nil {
			return nil, errors.New("robots scan reads files and http or https URLs only")
		}
	}
	f, err := os.Open(in.name)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, errors.New("a directory")
	}
	return &scanSource{r: f, close: f.Close, total: &s.bytes}, nil
}

// openURL starts the download of a URL input, waiting for one of the
// scanMaxDownloads places.
func (s *scanRun) openURL(u string) (*scanSource, error) {
	if p, err := neturl.Parse(u); err != nil || p.Host == "" {
		return nil, fmt.Errorf("not a URL: %s", urlProblem(err))
	}
	select {
	case s.downloads <- struct{}{}:
	case <-s.ctx.Done():
		return nil, s.ctx.Err()
	}
	d := &download{ctx: s.ctx, client: s.client, url: u, attempts: scanAttempts}
	if err := d.open(); err != nil {
		<-s.downloads
		return nil, err
	}
	released := false
	return &scanSource{r: d, total: &s.bytes, close: func() error {
		d.closeBody()
		if !released {
			released = true
			<-s.downloads
		}
		return nil
	}}, nil
}

// download streams a URL. A response other than 200 is an error; a 5xx,
// a 429 or a network error is retried after a delay that doubles each
// time; a stream that breaks off is resumed from where it stopped with a
// Range request (RFC 9110 §14.2; a 206 whose Content-Range starts there,
// §15.3.7), or, from a server that ignores Range, by skipping what was
// read.
type download struct {
	ctx      context.Context
	client   *http.Client
	url      string
	off      int64
	attempts int // left
	delay    time.Duration
	lastErr  error

	body   io.ReadCloser
	cancel context.CancelFunc
	timer  *time.Timer
}

// open makes the request, with retries.
func (d *download) open() error {
	for {
		retry, err := d.try()
		if err == nil {
			return nil
		}
		if err := d.wait(retry); err != nil {
			return err
		}
	}
}

// wait waits before the next attempt, or says why there is none.
func (d *download) wait(retry bool) error {
	if d.ctx.Err() != nil {
		return d.ctx.Err()
	}
	d.attempts--
	if !retry || d.attempts <= 0 {
		return d.lastErr
	}
	if d.delay == 0 {
		d.delay = scanRetryDelay
	}
	t := time.NewTimer(d.delay)
	defer t.Stop()
	d.delay *= 2
	select {
	case <-t.C:
		return nil
	case <-d.ctx.Done():
		return d.ctx.Err()
	}
}

// try makes one request; retry says whether another may succeed.
func (d *download) try() (retry bool, err error) {
	defer func() { d.lastErr = err }()
	ctx, cancel := context.WithCancel(d.ctx)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.url, nil)
	if err != nil {
		cancel()
		return false, err
	}
	req.Header.Set("User-Agent", fetch.DefaultUserAgent)
	// The bytes as stored: a Range counts them, and a .gz stays one.
	req.Header.Set("Accept-Encoding", "identity")
	if d.off > 0 {
		req.Header.Set("Range", "bytes="+strconv.FormatInt(d.off, 10)+"-")
	}
	timer := time.AfterFunc(scanIdleTimeout, cancel)
	resp, err := d.client.Do(req)
	if err != nil {
		timer.Stop()
		cancel()
		var ue *neturl.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		if errors.Is(err, context.Canceled) && d.ctx.Err() == nil {
			err = fmt.Errorf("no response in %v", scanIdleTimeout)
		}
		return true, err
	}
	fail := func(err error, retry bool) (bool, error) {
		resp.Body.Close()
		timer.Stop()
		cancel()
		return retry, err
	}
	switch {
	case resp.StatusCode == http.StatusOK:
		if d.off > 0 {
			// The server ignored the Range: skip what was read.
			if _, err := io.CopyN(io.Discard, resp.Body, d.off); err != nil {
				return fail(err, true)
			}
		}
	case resp.StatusCode == http.StatusPartialContent && d.off > 0:
		if start, ok := contentRangeStart(resp.Header.Get("Content-Range")); !ok || start != d.off {
			return fail(fmt.Errorf("resuming at byte %d: the server sent Content-Range %q", d.off, resp.Header.Get("Content-Range")), false)
		}
	default:
		retry := resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests
		return fail(errors.New("HTTP "+resp.Status), retry)
	}
	d.body, d.cancel, d.timer = resp.Body, cancel, timer
	return false, nil
}

// contentRangeStart returns the first byte of "bytes FIRST-LAST/LENGTH"
// (RFC 9110 §14.4).
func contentRangeStart(v string) (int64, bool) {
	v, ok := strings.CutPrefix(strings.TrimSpace(v), "bytes ")
	if !ok {
		return 0, false
	}
	first, _, ok := strings.Cut(v, "-")
	n, err := strconv.ParseInt(strings.TrimSpace(first), 10, 64)
	return n, ok && err == nil
}

func (d *download) Read(p []byte) (int, error) {
	for {
		if d.body == nil {
			if err := d.open(); err != nil {
				return 0, err
			}
		}
		n, err := d.body.Read(p)
		d.off += int64(n)
		d.timer.Reset(scanIdleTimeout)
		if err == nil || err == io.EOF {
			return n, err
		}
		// The stream broke off: resume on the next call.
		d.closeBody()
		if d.ctx.Err() != nil {
			return n, d.ctx.Err()
		}
		if errors.Is(err, context.Canceled) {
			err = fmt.Errorf("nothing received for %v", scanIdleTimeout)
		}
		d.lastErr = err
		if werr := d.wait(true); werr != nil {
			return n, werr
		}
		if n > 0 {
			return n, nil
		}
	}
}

func (d *download) closeBody() {
	if d.body != nil {
		d.timer.Stop()
		d.body.Close()
		d.cancel()
		d.body = nil
	}
}

// startProgress shows the status line on a terminal, rewritten every
// second; the returned function clears it.
func (s *scanRun) startProgress() (stop func()) {
	if !s.e.tty {
		return func() {}
	}
	done, finished := make(chan struct{}), make(chan struct{})
	start := time.Now()
	go func() {
		defer close(finished)
		tick := time.NewTicker(scanProgressEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				s.errMu.Lock()
				if s.progress {
					fmt.Fprint(s.e.stderr, "\r\x1b[K")
					s.progress = false
				}
				s.errMu.Unlock()
				return
			case now := <-tick.C:
				line := scanStatus(int(s.done.Load()), s.total, s.captures.Load(), s.bytes.Load(), s.size, now.Sub(start))
				s.errMu.Lock()
				fmt.Fprint(s.e.stderr, "\r\x1b[K"+line)
				s.progress = true
				s.errMu.Unlock()
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// scanStatus is the status line: inputs done of total, captures,
// captures/s, MB/s read and the time left, by the bytes when every
// input's size is known (size ≥ 0), else by the inputs.
func scanStatus(done, total int, captures, read, size int64, elapsed time.Duration) string {
	sec := elapsed.Seconds()
	if sec <= 0 {
		sec = 1e-9
	}
	line := fmt.Sprintf("%d/%d inputs, %d captures, %.0f captures/s, %.1f MB/s", done, total, captures, float64(captures)/sec, float64(read)/1e6/sec)
	var frac float64
	switch {
	case size > 0:
		frac = float64(read) / float64(size)
	case total > 0:
		frac = float64(done) / float64(total)
	}
	if frac > 0 && frac < 1 {
		left := time.Duration(sec * (1 - frac) / frac * float64(time.Second)).Round(time.Second)
		line += ", ETA " + left.String()
	}
	return line
}

// runScanMerge adds up summary files.
func runScanMerge(e *env, args []string) error {
	flags := newFlags(e, scanMergeCmd)
	summary := flags.String("summary", "", "write the sum to `FILE`, as .json, .md or .html (default: Markdown on standard output)")
	if err := parseFlags(e, scanMergeCmd, flags, args); err != nil {
		return err
	}
	format := scan.ReportMarkdown
	if *summary != "" {
		var err error
		if format, err = scan.ReportFormat(*summary); err != nil {
			return &usageError{msg: "-summary: " + errorText(err)}
		}
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
		return writeSummaryFile(*summary, format, &total)
	}
	var b bytes.Buffer
	if err := total.Write(&b, format); err != nil {
		return err
	}
	_, err := e.stdout.Write(b.Bytes())
	return err
}
