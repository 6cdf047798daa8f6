package scan

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// A Job is a batch run of Analyze over many inputs: the engine of `robots
// scan`, which Run runs. Only Inputs is required; the zero value of every
// other field is a default. Run only reads a Job.
type Job struct {
	// Inputs are the inputs, in order: paths of files (WARC, plain or
	// gzip-compressed, JSON lines, or one robots.txt named by its host;
	// Reader tells them apart), directories (every regular file under
	// them, recursively, in lexical order, OutDir left out), http or
	// https URLs (streamed, with retries and resumption), "-" for Stdin,
	// and "@LIST": the inputs a file or URL lists, one per line (plain or
	// gzip-compressed; blank lines and lines starting with "#" left out).
	// An input named twice is read once. Under a directory, symbolic
	// links are not followed: a link whose target is inside the
	// directory is left out (the target is read under its own path,
	// once), and a link out of the directory, or one that leads nowhere
	// or into a loop, is told to OnError naming the link (ErrLinkOut,
	// ErrLinkBroken) and counted as failed; a directory input may itself
	// be a link.
	Inputs []string
	// Base is put before each line of an @LIST, as in
	// "https://data.commoncrawl.org/" for Common Crawl's paths.
	Base string
	// Stdin is what the input "-" reads; nil reads nothing.
	Stdin io.Reader

	// Options says what each row holds beyond the facts of its capture
	// (Analyze); nil is the zero Options.
	Options *Options
	// Format names the format of the rows: the extension of the parts
	// in OutDir, and, when NewWriter is nil, the format of NewWriter
	// (FormatJSONL or FormatCSV). "" is FormatJSONL.
	Format string
	// NewWriter returns a writer of rows to w in Format: Out's, or each
	// part's. nil uses NewWriter(w, Format, Options); the package
	// scan/parquet writes Parquet.
	NewWriter func(w io.Writer) (RowWriter, error)
	// Out receives the rows when OutDir is "": the rows of each input
	// together, in the order of the inputs and of their records, whatever
	// Workers is. nil discards them.
	Out io.Writer
	// OutDir, when not "", is a directory (made when missing) that
	// receives the rows in parts: files of the rows of whole inputs, in
	// Format, each written under a temporary name and renamed when done
	// (GroupPartName), with its summary beside it (PartSummaryName, JSON)
	// and a line of the manifest (ManifestName, a ManifestPart) that
	// records its inputs, rows, size and SHA-256. Each of the Workers
	// writers fills a part with inputs until it holds PartSize bytes.
	//
	// A run resumes the runs before it into the same OutDir: it checks
	// each part the manifest lists (size, SHA-256, summary), skips the
	// inputs of the parts that match and counts their summaries in its
	// own, and reads again the inputs of the parts that do not, which it
	// moves aside (PartError), as it does parts that no line names and
	// lines it cannot read (ManifestError). With OutDir, Result.Summary is
	// the summary of every part in OutDir. An input that failed part way
	// takes its part with it: the part is dropped (Result.Dropped), and a
	// rerun reads its inputs again. Standard input is always read again.
	OutDir string
	// PartSize is the size in bytes past which a part is closed and the
	// next begun; 0 means DefaultPartSize. A writer that holds rows before
	// it writes them (a Parquet row group) may say how many bytes they
	// will take with a method Buffered() int64, which the part's size
	// counts.
	PartSize int64

	// Workers is how many inputs are read, and how many captures are
	// analysed, at once; 0 means GOMAXPROCS. With OutDir, Workers parts
	// are written at once.
	Workers int
	// Shard keeps the inputs of one shard; the zero Shard keeps all.
	Shard Shard

	// Client makes the requests of URL inputs and URL lists; nil means a
	// client with http.DefaultTransport's settings whose wait for a
	// response's headers is IdleTimeout.
	Client *http.Client
	// MaxDownloads is how many URL inputs are streamed at once;
	// 0 means DefaultMaxDownloads.
	MaxDownloads int
	// Attempts is how many times a download is tried, resumptions
	// included; 0 means DefaultAttempts. A 5xx, a 429 or a network error
	// is tried again after RetryDelay (0 means DefaultRetryDelay), which
	// doubles after each retry.
	Attempts   int
	RetryDelay time.Duration
	// IdleTimeout ends a download attempt during which nothing arrived
	// for that long; the download resumes with a Range request. 0 means
	// DefaultIdleTimeout.
	IdleTimeout time.Duration

	// OnError, when not nil, is told of each error of an input: an
	// *InputError for a record or line that could not be read, or a
	// failure of the input itself (its offset is where it stopped); the
	// error of an input that could not be opened or downloaded, or of a
	// directory entry that could not be read, as it came (an
	// *fs.PathError from the file system, "HTTP 404 Not Found" …). input
	// is the input string. After MaxErrors errors of one input (0 means
	// DefaultMaxErrors), it is given one *MoreErrors and no more of that
	// input's errors; the manifest and Result count them all.
	OnError   func(input string, err error)
	MaxErrors int
	// OnSkip, when not nil, is told how many inputs an earlier run into
	// OutDir finished, when there are some, and the manifest's path,
	// before the first input is read.
	OnSkip func(n int, manifest string)
	// OnProgress, when not nil, is given the run's progress every
	// ProgressEvery (0 means DefaultProgressEvery) while the inputs are
	// read.
	OnProgress    func(Progress)
	ProgressEvery time.Duration
}

// The defaults of a Job's zero fields.
const (
	DefaultMaxDownloads  = 4
	DefaultAttempts      = 5
	DefaultRetryDelay    = time.Second
	DefaultIdleTimeout   = time.Minute
	DefaultMaxErrors     = 100
	DefaultProgressEvery = time.Second
	// DefaultPartSize is 128 MiB: few enough files that a query engine
	// opens them quickly, small enough that a crawl of many gigabytes is
	// spread over parts that readers take in parallel.
	DefaultPartSize = 128 << 20
)

// queueSize is how many captures of one input may wait for their
// analysis and for the writer: with at most Workers inputs read at once,
// memory stays within about Workers × queueSize captures.
const queueSize = 32

// pieceQueue is how many captures of a piece may wait: about all of a
// piece of splitPiece bytes, so that a reader runs ahead of the writer
// through the piece without waiting; at most pieceSlots pieces are read
// and not yet written.
const pieceQueue = 4096

// A MoreErrors is given to Job.OnError after Max errors of one input:
// the input's further errors are counted but not told.
type MoreErrors struct{ Max int }

// Error says how many errors were told.
func (e *MoreErrors) Error() string {
	return fmt.Sprintf("more than %d errors; the rest are not shown", e.Max)
}

// Result is what a run did.
type Result struct {
	// Inputs counts the inputs of the run that its exit status speaks
	// for: those it read (after the Shard and the inputs done before are
	// left out) and the directory entries that could not be read. The
	// errors of inputs done before were told by the run that read them.
	Inputs int
	// Failed counts those of Inputs that had errors or could not be
	// read.
	Failed int
	// Skipped counts the inputs that an earlier run into OutDir
	// finished, in parts that this run checked.
	Skipped int
	// Parts counts the parts this run wrote to OutDir; Dropped counts the
	// inputs read to their end whose part was dropped, because another
	// input of it failed part way: a rerun reads them again.
	Parts, Dropped int
	// Captures counts the captures read, Bytes the bytes read.
	Captures, Bytes int64
	// Summary is the summary of every row: those written by this run and
	// those of the inputs skipped.
	Summary *Summary
}

// Progress is the state of a run, as Job.OnProgress is given it.
type Progress struct {
	// Done of Inputs inputs are finished.
	Done, Inputs int
	// Captures counts the captures written, Bytes the bytes read.
	Captures, Bytes int64
	// Size is the inputs' size in bytes, -1 when some sizes are unknown
	// (standard input, URLs).
	Size int64
	// Elapsed is the time since the first input was started.
	Elapsed time.Duration
}

// String is the status line of `robots scan`: inputs done of total,
// captures, captures/s, MB/s read and the time left, by the bytes when
// every input's size is known, else by the inputs:
// "1/4 inputs, 1000 captures, 100 captures/s, 1.0 MB/s, ETA 30s".
func (p Progress) String() string {
	sec := p.Elapsed.Seconds()
	if sec <= 0 {
		sec = 1e-9
	}
	line := fmt.Sprintf("%d/%d inputs, %d captures, %.0f captures/s, %.1f MB/s", p.Done, p.Inputs, p.Captures, float64(p.Captures)/sec, float64(p.Bytes)/1e6/sec)
	var frac float64
	switch {
	case p.Size > 0:
		frac = float64(p.Bytes) / float64(p.Size)
	case p.Inputs > 0:
		frac = float64(p.Done) / float64(p.Inputs)
	}
	if frac > 0 && frac < 1 {
		left := time.Duration(sec * (1 - frac) / frac * float64(time.Second)).Round(time.Second)
		line += ", ETA " + left.String()
	}
	return line
}

// Run reads the inputs of j, analyses each capture and writes its row,
// in a pipeline: up to Workers inputs are read at once, each into a
// bounded queue of its captures, which Workers analysers turn into rows;
// the rows are written in order, to Out or to each input's part.
//
// An input that cannot be read, or a record of it, is told to OnError
// and counted in Result.Failed; the run goes on. Run returns an error
// when the rows, a part, its summary or the manifest cannot be written,
// when an @LIST cannot be read, and ctx's error when ctx is done (the
// inputs done by then keep their parts and manifest lines; a part begun
// is removed). The callbacks of j are called one at a time, from Run's
// goroutines; none is called after Run returns.
func Run(ctx context.Context, j *Job) (*Result, error) {
	r := &runner{j: j, format: j.Format, newWriter: j.NewWriter, opts: j.Options}
	if r.format == "" {
		r.format = FormatJSONL
	}
	if r.opts == nil {
		r.opts = &Options{}
	}
	if r.newWriter == nil {
		if _, err := NewWriter(io.Discard, r.format, r.opts); err != nil {
			return nil, err
		}
		r.newWriter = func(w io.Writer) (RowWriter, error) { return NewWriter(w, r.format, r.opts) }
	}
	r.analyzer = NewAnalyzer(r.opts)
	// A writer whose rows can be encoded apart (JSON lines) has them
	// encoded by the analysers, in parallel.
	if w, err := r.newWriter(io.Discard); err == nil {
		_, r.preEncode = w.(rowEncoder)
		w.Close()
	}
	r.workers = orDefault(j.Workers, runtime.GOMAXPROCS(0))
	r.partSize = orDefault(j.PartSize, DefaultPartSize)
	r.pieceSlots = make(chan struct{}, 2*r.workers+1)
	r.attempts = orDefault(j.Attempts, DefaultAttempts)
	r.maxErrors = orDefault(j.MaxErrors, DefaultMaxErrors)
	r.retryDelay = orDefault(j.RetryDelay, DefaultRetryDelay)
	r.idle = orDefault(j.IdleTimeout, DefaultIdleTimeout)
	r.downloads = make(chan struct{}, orDefault(j.MaxDownloads, DefaultMaxDownloads))
	if r.client = j.Client; r.client == nil {
		r.client = newClient(r.idle)
	}
	r.ctx = ctx
	if j.OutDir != "" {
		if err := os.MkdirAll(j.OutDir, 0o777); err != nil {
			return nil, err
		}
	}
	inputs, err := r.expand()
	if err != nil {
		return nil, err
	}
	kept := inputs[:0]
	for _, in := range inputs {
		if j.Shard.Has(in.key) {
			kept = append(kept, in)
		}
	}
	inputs = kept
	if j.OutDir != "" {
		if inputs, err = r.resume(inputs); err != nil {
			return nil, err
		}
	}
	err = r.scan(inputs)
	res := &Result{Inputs: r.total + r.others, Failed: int(r.failed.Load()), Skipped: r.skipped,
		Parts: int(r.parts.Load()), Dropped: int(r.dropped.Load()),
		Captures: r.captures.Load(), Bytes: r.bytes.Load(), Summary: &r.sum}
	if err == nil {
		err = ctx.Err()
	}
	return res, err
}

// orDefault returns v, or def when v is not positive.
func orDefault[T int | int64 | time.Duration](v, def T) T {
	if v > 0 {
		return v
	}
	return def
}

// runner is one Run.
type runner struct {
	j         *Job
	ctx       context.Context
	cancel    context.CancelFunc
	opts      *Options
	analyzer  *Analyzer // of opts, shared by the analysers
	preEncode bool      // the analysers encode the rows (a rowEncoder)
	format    string
	newWriter func(io.Writer) (RowWriter, error)

	workers, attempts, maxErrors int
	retryDelay, idle             time.Duration
	downloads                    chan struct{}
	client                       *http.Client

	total   int   // inputs to read
	others  int   // inputs with errors not read by this run: a directory walk's
	skipped int   // inputs done before
	size    int64 // the bytes of the inputs to read, -1 when some are unknown

	failed  atomic.Int64 // inputs with errors
	done    atomic.Int64 // inputs finished
	dropped atomic.Int64 // inputs read, whose part was dropped
	// pieceSlots bounds the pieces read and not yet written.
	pieceSlots chan struct{}
	parts      atomic.Int64 // parts committed
	partSize   int64
	captures   atomic.Int64
	bytes      atomic.Int64

	callMu sync.Mutex // the Job's callbacks

	sumMu sync.Mutex
	sum   Summary

	rowsMu sync.Mutex
	rows   RowWriter // Out's, without OutDir

	manMu    sync.Mutex
	manifest *os.File

	fatalMu sync.Mutex
	fatal   error
}

// call calls one of the Job's callbacks, one at a time.
func (r *runner) call(f func()) {
	r.callMu.Lock()
	defer r.callMu.Unlock()
	f()
}

// inputErr tells OnError of an error of an input.
func (r *runner) inputErr(name string, err error) {
	if r.j.OnError != nil {
		r.call(func() { r.j.OnError(name, err) })
	}
}

// setFatal records an error that ends the run: the output cannot be
// written.
func (r *runner) setFatal(err error) {
	r.fatalMu.Lock()
	if r.fatal == nil {
		r.fatal = err
	}
	r.fatalMu.Unlock()
	r.cancel()
}

// job is one input on its way through the pipeline: one piece, or the
// pieces of a large file read at once (split.go).
type job struct {
	in     input
	pieces []*piece
	start  time.Time
	told   atomic.Int64 // errors told of the input
}

// piece is a part of an input read by one reader.
type piece struct {
	jb    *job
	index int
	// base and size are the piece's offset and length in the file; size
	// is -1 for a whole input.
	base, size int64
	q          chan *slot // the captures in order; closed when read

	// Set by the reader before it closes q and done. seen is dropped
	// once no piece after it can need it.
	st   ReadStats
	seen atomic.Pointer[inputSeen]
	done chan struct{}
}

// slot is one capture, then its row.
type slot struct {
	c    *Capture
	row  Row
	ok   bool // row is set
	done chan struct{}
	// line is the row encoded, when the analysers encode (Run's
	// preEncode), and lineErr the encoder's error.
	line    *[]byte
	lineErr error
}

// scan runs the pipeline: a dispatcher hands the inputs in order to the
// readers; each reader streams its input's captures into the input's
// bounded queue and to the analysers; writers take the rows from the
// queues in order. Without OutDir, one writer takes the inputs in order,
// so that Out holds them in order; with OutDir, Workers writers each
// write their input's part.
func (r *runner) scan(inputs []input) error {
	r.total = len(inputs)
	r.size = 0
	for _, in := range inputs {
		if in.size < 0 {
			r.size = -1
			break
		}
		r.size += in.size
	}
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	r.ctx, r.cancel = ctx, cancel

	writers := 1
	if r.j.OutDir == "" {
		out := r.j.Out
		if out == nil {
			out = io.Discard
		}
		w, err := r.newWriter(out)
		if err != nil {
			return err
		}
		r.rows = w
	} else {
		writers = r.workers
		f, err := os.OpenFile(filepath.Join(r.j.OutDir, ManifestName), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
		if err != nil {
			return err
		}
		r.manifest = f
		defer f.Close()
	}
	stopProgress := r.startProgress()

	ordered := make(chan *job, r.workers)
	toRead := make(chan *piece)
	work := make(chan *slot, r.workers)
	go func() {
		defer close(ordered)
		defer close(toRead)
		for _, in := range inputs {
			jb := r.newJob(in)
			select {
			case ordered <- jb:
			case <-ctx.Done():
				return
			}
			for _, pc := range jb.pieces {
				if pc.size >= 0 {
					select {
					case r.pieceSlots <- struct{}{}: // given back once written
					case <-ctx.Done():
						return
					}
				}
				select {
				case toRead <- pc:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	var readers, analysers, writersWG sync.WaitGroup
	for range r.workers {
		readers.Go(func() {
			for pc := range toRead {
				r.read(pc, work)
			}
		})
		analysers.Go(func() {
			enc := new(rowEncoderCache)
			for sl := range work {
				r.analyse(sl, enc)
			}
		})
	}
	for range writers {
		writersWG.Go(func() {
			var p *part
			for jb := range ordered {
				p = r.write(jb, p)
			}
			if p != nil {
				r.commit(p)
			}
		})
	}
	writersWG.Wait()
	cancel() // readers waiting on a job that no writer takes
	readers.Wait()
	close(work)
	analysers.Wait()
	stopProgress()

	if r.rows != nil {
		if err := r.rows.Close(); err != nil && r.fatal == nil {
			r.fatal = fmt.Errorf("writing rows: %w", err)
		}
	}
	return r.fatal
}

// analyse turns a capture into its row. A panic, which Analyze should
// never raise, costs the capture its row, not the run.
func (r *runner) analyse(sl *slot, enc *rowEncoderCache) {
	defer close(sl.done)
	defer func() {
		if p := recover(); p != nil {
			r.inputErr(sl.c.Source, &InputError{Source: sl.c.Source, Offset: sl.c.Offset, Err: fmt.Errorf("internal error analysing the capture: %v", p)})
			sl.ok = false
		}
		sl.c = nil
	}()
	sl.row = r.analyzer.Analyze(sl.c)
	sl.ok = true
	if r.preEncode {
		buf := linePool.Get().(*[]byte)
		line, err := enc.appendRow((*buf)[:0], &sl.row)
		*buf = append(line, '\n')
		sl.line, sl.lineErr = buf, err
	}
}

// linePool holds the buffers of the lines the analysers encode.
var linePool = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

// newJob makes the job of an input: one piece, or, for a large WARC
// file compressed a record at a time and more than one worker, pieces
// of about splitPiece bytes cut at records (splitPoints).
func (r *runner) newJob(in input) *job {
	jb := &job{in: in}
	var cuts []int64
	if in.kind == inputFile && r.workers > 1 && in.size >= splitMin {
		if f, err := os.Open(in.name); err == nil {
			if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
				cuts = splitPoints(f, st.Size(), int(st.Size()/splitPiece))
				in.size = st.Size()
			}
			f.Close()
		}
	}
	if cuts == nil {
		jb.pieces = []*piece{{jb: jb, size: -1}}
	}
	for i, at := range cuts {
		end := in.size
		if i+1 < len(cuts) {
			end = cuts[i+1]
		}
		jb.pieces = append(jb.pieces, &piece{jb: jb, index: i, base: at, size: end - at})
	}
	for _, pc := range jb.pieces {
		pc.q, pc.done = make(chan *slot, queueSize), make(chan struct{})
		if len(jb.pieces) > 1 {
			pc.q = make(chan *slot, pieceQueue)
		}
	}
	return jb
}

// read streams the captures of a piece into its queue and to the
// analysers.
func (r *runner) read(pc *piece, work chan<- *slot) {
	jb := pc.jb
	defer close(pc.done)
	defer close(pc.q)
	if pc.index == 0 {
		jb.start = time.Now()
	}
	src, err := r.open(jb.in)
	if err != nil {
		pc.st.Failed = true
		if r.ctx.Err() == nil {
			r.inputErr(jb.in.name, err)
		}
		return
	}
	defer src.Close()
	var in io.Reader = src
	var earlier func(digest, refersTo string, own *inputSeen) *inputSeenEntry
	if pc.size >= 0 {
		ra, ok := src.r.(io.ReaderAt)
		if !ok {
			pc.st.Failed = true
			r.inputErr(jb.in.name, errors.New("a piece of an input that cannot be read at an offset"))
			return
		}
		in = &source{r: io.NewSectionReader(ra, pc.base, pc.size), total: &r.bytes}
		earlier = func(digest, refersTo string, own *inputSeen) *inputSeenEntry {
			if !splitLookBack {
				return nil
			}
			var before []*inputSeen
			for _, p := range jb.pieces[:pc.index] {
				select {
				case <-p.done:
				case <-r.ctx.Done():
					return nil
				}
				before = append(before, p.seen.Load())
			}
			return findBefore(before, own, digest, refersTo)
		}
	}
	var seen *inputSeen
	defer func() { pc.seen.Store(seen) }()
	pc.st, seen = readCaptures(r.ctx, jb.in.name, in, pc.base, earlier, func(c *Capture) bool {
		sl := &slot{c: c, done: make(chan struct{})}
		select {
		case pc.q <- sl:
		case <-r.ctx.Done():
			return false
		}
		select {
		case work <- sl:
		case <-r.ctx.Done():
			return false
		}
		return true
	}, func(err error) {
		switch told := jb.told.Add(1); {
		case told <= int64(r.maxErrors):
			r.inputErr(jb.in.name, err)
		case told == int64(r.maxErrors)+1:
			r.inputErr(jb.in.name, &MoreErrors{Max: r.maxErrors})
		}
	})
}

// A part is a part file of OutDir being written: the rows of whole
// inputs, under a temporary name until it is committed.
type part struct {
	tmp    string
	f      *os.File
	count  *hashCounter
	rw     RowWriter
	sum    Summary
	inputs []ManifestEntry
	rows   int64
	lines  int64 // the bytes of the rows encoded apart, buffered or not
	start  time.Time
}

// hashCounter counts and hashes the bytes written through it.
type hashCounter struct {
	w io.Writer
	h hash.Hash
	n int64
}

func (c *hashCounter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.h.Write(p[:n])
	c.n += int64(n)
	return n, err
}

// newPart begins a part.
func (r *runner) newPart() (*part, error) {
	f, err := os.CreateTemp(r.j.OutDir, "part-*.tmp")
	if err != nil {
		return nil, err
	}
	p := &part{tmp: f.Name(), f: f, start: time.Now()}
	p.count = &hashCounter{w: f, h: sha256.New()}
	if p.rw, err = r.newWriter(p.count); err != nil {
		p.drop()
		return nil, err
	}
	return p, nil
}

// drop removes a part that is not to be committed.
func (p *part) drop() {
	p.f.Close()
	os.Remove(p.tmp)
}

// write writes the rows of jb, in order, to Out or to the part p (begun
// when nil), and returns the part the next input goes to: p, or nil once
// p is committed (it reached the PartSize) or dropped.
func (r *runner) write(jb *job, p *part) *part {
	out := r.j.OutDir
	rw := r.rows
	if out != "" {
		if p == nil {
			var err error
			if p, err = r.newPart(); err != nil {
				r.setFatal(err) // the readers stop
				return nil
			}
		}
		rw = p.rw
	}
	sum := new(Summary)
	var rows, lost int64
	var st ReadStats
	// The rows of an Analyzer share their verdict lists: each list is
	// counted once, times its sites.
	var tally verdictTally
	for _, pc := range jb.pieces {
	captures:
		for {
			var sl *slot
			var more bool
			select {
			case sl, more = <-pc.q:
			case <-r.ctx.Done():
				if p != nil {
					p.drop() // its inputs are read again by a rerun
				}
				return nil
			}
			if !more {
				break captures
			}
			select {
			case <-sl.done:
			case <-r.ctx.Done():
				if p != nil {
					p.drop()
				}
				return nil
			}
			r.captures.Add(1)
			if !sl.ok {
				lost++ // told by analyse
				continue
			}
			var err error
			if out == "" {
				r.rowsMu.Lock()
				_, err = r.writeRow(rw, sl)
				r.rowsMu.Unlock()
			} else {
				var n int
				n, err = r.writeRow(rw, sl)
				p.lines += int64(n)
			}
			if err != nil {
				r.setFatal(fmt.Errorf("writing rows: %w", err))
				if p != nil {
					p.drop()
				}
				return nil
			}
			sum.add(&sl.row, false)
			if IsSite(&sl.row) {
				tally.add(sl.row.Robots)
			}
			rows++
		}
		// pc.q is closed: the reader is done with the piece.
		if pc.size >= 0 {
			<-r.pieceSlots
			releaseSeen(jb.pieces[:pc.index+1])
		}
		st.Captures += pc.st.Captures
		st.Errors += pc.st.Errors
		st.Bytes += pc.st.Bytes
		st.Failed = st.Failed || pc.st.Failed
	}
	tally.addTo(sum)
	errs := st.Errors + lost
	if errs > 0 || st.Failed {
		r.failed.Add(1)
	}
	defer r.done.Add(1)
	if out == "" {
		r.sumMu.Lock()
		r.sum.Merge(sum)
		r.sumMu.Unlock()
		return nil
	}
	if st.Failed {
		// Some of its rows are in the part, not all: the part is dropped,
		// and a rerun reads it and the part's other inputs again.
		r.dropped.Add(int64(len(p.inputs)))
		p.drop()
		return nil
	}
	p.sum.Merge(sum)
	p.rows += rows
	p.inputs = append(p.inputs, ManifestEntry{Input: jb.in.name, Captures: st.Captures, Rows: rows, Errors: errs, Bytes: st.Bytes,
		Seconds: math.Round(time.Since(jb.start).Seconds()*1000) / 1000})
	size := max(p.count.n, p.lines)
	if b, ok := p.rw.(interface{ Buffered() int64 }); ok {
		size = p.count.n + b.Buffered()
	}
	if size >= r.partSize {
		r.commit(p)
		return nil
	}
	return p
}

// releaseSeen drops the tables of responses of the pieces that no piece
// after the last of done can look into: those behind pieces that together
// hold as many keys as a table keeps (findBefore stops there), or behind
// a piece whose own table was full.
func releaseSeen(done []*piece) {
	keys := 0
	for i := len(done) - 1; i >= 0; i-- {
		s := done[i].seen.Load()
		if s == nil {
			continue
		}
		if keys >= inputSeenKeys {
			done[i].seen.Store(nil)
			continue
		}
		keys += len(s.order)
		if s.full {
			keys = inputSeenKeys
		}
	}
}

// A verdictTally counts the sites of each verdict list.
type verdictTally struct {
	n     map[*Verdict]int64
	lists [][]Verdict // in the order first seen
}

func (t *verdictTally) add(vs []Verdict) {
	if len(vs) == 0 {
		return
	}
	if t.n == nil {
		t.n = make(map[*Verdict]int64)
	}
	k := &vs[0]
	if _, ok := t.n[k]; !ok {
		t.lists = append(t.lists, vs)
	}
	t.n[k]++
}

// addTo counts the tallied verdicts in s and empties the tally.
func (t *verdictTally) addTo(s *Summary) {
	for _, vs := range t.lists {
		s.addVerdicts(vs, t.n[&vs[0]])
	}
	t.n, t.lists = nil, nil
}

// commit finishes a part: its footer, its summary, its name and its
// manifest line, in that order, so that a part in the manifest is whole.
func (r *runner) commit(p *part) {
	if r.ctx.Err() != nil {
		p.drop()
		return
	}
	if len(p.inputs) == 0 {
		p.drop()
		return
	}
	names := make([]string, len(p.inputs))
	for i, in := range p.inputs {
		names[i] = in.Input
	}
	name := GroupPartName(names, r.format)
	for i := range p.inputs {
		p.inputs[i].Part = name
	}
	err := p.rw.Close()
	if err == nil {
		err = p.f.Sync()
	}
	if cerr := p.f.Close(); err == nil {
		err = cerr
	}
	dir := r.j.OutDir
	if err == nil {
		err = p.sum.WriteFile(filepath.Join(dir, PartSummaryName(name)))
	}
	if err == nil {
		err = os.Rename(p.tmp, filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(p.tmp)
		r.setFatal(fmt.Errorf("%s: %w", name, err))
		return
	}
	line, _ := json.Marshal(ManifestPart{
		Part: name, Rows: p.rows, Bytes: p.count.n, SHA256: hex.EncodeToString(p.count.h.Sum(nil)), Inputs: p.inputs,
		Seconds: math.Round(time.Since(p.start).Seconds()*1000) / 1000,
	})
	r.manMu.Lock()
	_, err = r.manifest.Write(append(line, '\n'))
	r.manMu.Unlock()
	if err != nil {
		r.setFatal(fmt.Errorf("%s: %w", ManifestName, err))
		return
	}
	r.parts.Add(1)
	r.sumMu.Lock()
	r.sum.Merge(&p.sum)
	r.sumMu.Unlock()
}

// writeRow writes the row of sl: its line, when the analysers encoded it
// for a writer that takes lines. It returns the line's length, 0 when
// the writer encoded the row itself.
func (r *runner) writeRow(rw RowWriter, sl *slot) (int, error) {
	if sl.line == nil {
		return 0, rw.Write(&sl.row)
	}
	defer func() {
		if cap(*sl.line) <= 1<<20 {
			linePool.Put(sl.line)
		}
		sl.line = nil
	}()
	if enc, ok := rw.(rowEncoder); ok {
		if sl.lineErr != nil {
			return 0, sl.lineErr
		}
		return len(*sl.line), enc.writeEncoded(*sl.line)
	}
	return 0, rw.Write(&sl.row)
}

// startProgress gives OnProgress the run's progress every ProgressEvery;
// the returned function stops it.
func (r *runner) startProgress() (stop func()) {
	if r.j.OnProgress == nil {
		return func() {}
	}
	every := orDefault(r.j.ProgressEvery, DefaultProgressEvery)
	done, finished := make(chan struct{}), make(chan struct{})
	start := time.Now()
	go func() {
		defer close(finished)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-tick.C:
				p := Progress{Done: int(r.done.Load()), Inputs: r.total, Captures: r.captures.Load(),
					Bytes: r.bytes.Load(), Size: r.size, Elapsed: now.Sub(start)}
				r.call(func() { r.j.OnProgress(p) })
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
