package scan

import (
	"context"
	"encoding/json"
	"fmt"
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
	// An input named twice is read once.
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
	// receives, for each input, its part (PartName), written under a
	// temporary name and renamed when the input is done, the part's
	// summary (PartSummaryName, JSON) and a line of the manifest
	// (ManifestName, a ManifestEntry). A run skips the inputs that the
	// manifest lists and whose part and summary are there, and counts
	// their summaries in its own: a run that stopped resumes where it
	// was. An input with errors that made it stop has no part, so a
	// rerun reads it again.
	OutDir string

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
)

// queueSize is how many captures of one input may wait for their
// analysis and for the writer: with at most Workers inputs read at once,
// memory stays within about Workers × queueSize captures.
const queueSize = 32

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
	// left out), the directory entries that could not be read, and the
	// inputs done before that had errors.
	Inputs int
	// Failed counts those of Inputs that had errors or could not be
	// read.
	Failed int
	// Skipped counts the inputs that an earlier run into OutDir
	// finished.
	Skipped int
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
		if inputs, err = r.skipDone(inputs); err != nil {
			return nil, err
		}
	}
	err = r.scan(inputs)
	res := &Result{Inputs: r.total + r.others, Failed: int(r.failed.Load()), Skipped: r.skipped,
		Captures: r.captures.Load(), Bytes: r.bytes.Load(), Summary: &r.sum}
	if err == nil {
		err = ctx.Err()
	}
	return res, err
}

// orDefault returns v, or def when v is not positive.
func orDefault[T int | time.Duration](v, def T) T {
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
	others  int   // inputs with errors not read by this run: a directory walk's, those done before
	skipped int   // inputs done before
	size    int64 // the bytes of the inputs to read, -1 when some are unknown

	failed   atomic.Int64 // inputs with errors
	done     atomic.Int64 // inputs finished
	captures atomic.Int64
	bytes    atomic.Int64

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

// job is one input on its way through the pipeline.
type job struct {
	in    input
	q     chan *slot // the captures in order; closed when read
	start time.Time

	// Set by the reader before it closes q.
	st ReadStats
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
	toRead := make(chan *job)
	work := make(chan *slot, r.workers)
	go func() {
		defer close(ordered)
		defer close(toRead)
		for _, in := range inputs {
			jb := &job{in: in, q: make(chan *slot, queueSize)}
			select {
			case ordered <- jb:
			case <-ctx.Done():
				return
			}
			select {
			case toRead <- jb:
			case <-ctx.Done():
				return
			}
		}
	}()
	var readers, analysers, writersWG sync.WaitGroup
	for range r.workers {
		readers.Go(func() {
			for jb := range toRead {
				r.read(jb, work)
			}
		})
		analysers.Go(func() {
			for sl := range work {
				r.analyse(sl)
			}
		})
	}
	for range writers {
		writersWG.Go(func() {
			for jb := range ordered {
				r.write(jb)
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
func (r *runner) analyse(sl *slot) {
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
		line, err := appendRow((*buf)[:0], &sl.row)
		*buf = append(line, '\n')
		sl.line, sl.lineErr = buf, err
	}
}

// linePool holds the buffers of the lines the analysers encode.
var linePool = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

// read streams the captures of jb's input into its queue and to the
// analysers.
func (r *runner) read(jb *job, work chan<- *slot) {
	defer close(jb.q)
	jb.start = time.Now()
	src, err := r.open(jb.in)
	if err != nil {
		jb.st.Failed = true
		if r.ctx.Err() == nil {
			r.inputErr(jb.in.name, err)
		}
		return
	}
	defer src.Close()
	var told int
	jb.st = ReadCaptures(r.ctx, jb.in.name, src, func(c *Capture) bool {
		sl := &slot{c: c, done: make(chan struct{})}
		select {
		case jb.q <- sl:
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
		switch told++; {
		case told <= r.maxErrors:
			r.inputErr(jb.in.name, err)
		case told == r.maxErrors+1:
			r.inputErr(jb.in.name, &MoreErrors{Max: r.maxErrors})
		}
	})
}

// write writes the rows of jb, in order, to Out or to the input's part,
// then records the input as done.
func (r *runner) write(jb *job) {
	var (
		f    *os.File
		rw   = r.rows
		tmp  string
		part string
		err  error
		out  = r.j.OutDir
	)
	if out != "" {
		part = PartName(jb.in.name, r.format)
		tmp = filepath.Join(out, part+".tmp")
		if f, err = os.Create(tmp); err != nil {
			r.setFatal(err)
			return
		}
		defer func() {
			if f != nil {
				f.Close()
				os.Remove(tmp)
			}
		}()
		if rw, err = r.newWriter(f); err != nil {
			r.setFatal(err)
			return
		}
	}
	sum := new(Summary)
	var rows, lost int64
	for {
		var sl *slot
		var more bool
		select {
		case sl, more = <-jb.q:
		case <-r.ctx.Done():
			return
		}
		if !more {
			break
		}
		select {
		case <-sl.done:
		case <-r.ctx.Done():
			return
		}
		r.captures.Add(1)
		if !sl.ok {
			lost++ // told by analyse
			continue
		}
		if out == "" {
			r.rowsMu.Lock()
			err = r.writeRow(rw, sl)
			r.rowsMu.Unlock()
		} else {
			err = r.writeRow(rw, sl)
		}
		if err != nil {
			r.setFatal(fmt.Errorf("writing rows: %w", err))
			return
		}
		sum.Add(&sl.row)
		rows++
	}
	// jb.q is closed: the reader is done with jb.
	errs := jb.st.Errors + lost
	if errs > 0 || jb.st.Failed {
		r.failed.Add(1)
	}
	defer r.done.Add(1)
	if out == "" {
		r.sumMu.Lock()
		r.sum.Merge(sum)
		r.sumMu.Unlock()
		return
	}
	if jb.st.Failed {
		return // no part: a rerun tries the input again
	}
	if err := rw.Close(); err != nil {
		r.setFatal(fmt.Errorf("%s: %w", tmp, err))
		return
	}
	err = f.Close()
	f = nil
	if err == nil {
		err = sum.WriteFile(filepath.Join(out, PartSummaryName(part)))
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(out, part))
	}
	if err != nil {
		os.Remove(tmp)
		r.setFatal(err)
		return
	}
	line, _ := json.Marshal(ManifestEntry{
		Input: jb.in.name, Part: part,
		Captures: jb.st.Captures, Rows: rows, Errors: errs, Bytes: jb.st.Bytes,
		Seconds: math.Round(time.Since(jb.start).Seconds()*1000) / 1000,
	})
	r.manMu.Lock()
	_, err = r.manifest.Write(append(line, '\n'))
	r.manMu.Unlock()
	if err != nil {
		r.setFatal(fmt.Errorf("%s: %w", ManifestName, err))
		return
	}
	r.sumMu.Lock()
	r.sum.Merge(sum)
	r.sumMu.Unlock()
}

// writeRow writes the row of sl: its line, when the analysers encoded it
// for a writer that takes lines.
func (r *runner) writeRow(rw RowWriter, sl *slot) error {
	if sl.line == nil {
		return rw.Write(&sl.row)
	}
	defer func() {
		if cap(*sl.line) <= 1<<20 {
			linePool.Put(sl.line)
		}
		sl.line = nil
	}()
	if enc, ok := rw.(rowEncoder); ok {
		if sl.lineErr != nil {
			return sl.lineErr
		}
		return enc.writeEncoded(*sl.line)
	}
	return rw.Write(&sl.row)
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
