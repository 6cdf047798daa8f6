package scan

import (
	"bufio"
	"encoding/csv"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"
)

// A RowWriter writes rows to a stream in one format. Close writes what is
// buffered and the format's trailer (Parquet's footer, package
// scan/parquet); it does not close the underlying stream. A RowWriter is
// not safe for concurrent use.
type RowWriter interface {
	// Write writes one row. It does not keep r or its slices after it
	// returns.
	Write(r *Row) error
	// Close ends the output. A writer whose Close has returned is done:
	// further calls fail.
	Close() error
}

// The formats of NewWriter. Apache Parquet is written by the package
// scan/parquet, so that only the programs that write it link its library.
const (
	// FormatJSONL is one JSON object per line (https://jsonlines.org/),
	// with the JSON names of Row.
	FormatJSONL = "jsonl"
	// FormatCSV is RFC 4180 CSV with a header line and flat columns: the
	// facts of the response and the file, four columns per robot of
	// Options.Robots, and the checker's codes (see NewWriter).
	FormatCSV = "csv"
)

// errClosed is the error of a writer used after Close.
var errClosed = errors.New("scan: write to a closed RowWriter")

// NewWriter returns a writer of rows to w in format: FormatJSONL or
// FormatCSV.
//
// The CSV columns are url, host, domain, time (RFC 3339, empty when
// unknown), status, redirect_to, content_type, html, bytes, over_limit,
// groups, rules, sitemaps, encoding, bom, content_signal, content_usage
// and license (the values of those lines, one a line of the cell: no
// value holds a line break); then, for each robot of o.Robots in order
// (none for a nil o), TOKEN_state, TOKEN_via, TOKEN_line and
// TOKEN_ai_train, where TOKEN is the robot's registry token; then lint,
// the codes separated by spaces. A row without a verdict for a robot,
// such as a revisit record, leaves its cells empty. The lists of a Row that fit no flat column
// (outcomes, directives, agents) are in the JSONL and Parquet outputs
// only. Every cell is valid UTF-8: each byte that is not is written as
// U+FFFD, as the JSON lines and the Parquet parts write it.
func NewWriter(w io.Writer, format string, o *Options) (RowWriter, error) {
	switch strings.ToLower(format) {
	case FormatJSONL:
		return &jsonlWriter{bw: bufio.NewWriterSize(w, 64<<10)}, nil
	case FormatCSV:
		cw := &csvWriter{cw: csv.NewWriter(w)}
		if o != nil {
			for _, rb := range o.Robots {
				cw.tokens = append(cw.tokens, rb.Token)
			}
		}
		cw.header()
		return cw, nil
	}
	if strings.EqualFold(format, "parquet") {
		return nil, errors.New("scan: Parquet is written by the package scan/parquet (parquet.NewWriter)")
	}
	return nil, errors.New("scan: unknown output format " + strconv.Quote(format) + " (want jsonl or csv)")
}

type jsonlWriter struct {
	bw     *bufio.Writer
	buf    []byte // Write's line
	closed bool
}

func (w *jsonlWriter) Write(r *Row) error {
	if w.closed {
		return errClosed
	}
	b, err := appendRow(w.buf[:0], r)
	w.buf = b[:0]
	if err != nil {
		return err
	}
	return w.writeEncoded(append(b, '\n'))
}

// encode appends the line of r to dst; any goroutine may call it.
func (w *jsonlWriter) encode(dst []byte, r *Row) ([]byte, error) {
	b, err := appendRow(dst, r)
	return append(b, '\n'), err
}

// writeEncoded writes a line that encode made.
func (w *jsonlWriter) writeEncoded(line []byte) error {
	if w.closed {
		return errClosed
	}
	_, err := w.bw.Write(line)
	return err
}

// A rowEncoder is a RowWriter whose rows can be encoded apart from their
// writing, by many goroutines at once: Run's analysers encode the rows,
// and its writer only copies the bytes.
type rowEncoder interface {
	RowWriter
	encode(dst []byte, r *Row) ([]byte, error)
	writeEncoded(b []byte) error
}

func (w *jsonlWriter) Close() error {
	if w.closed {
		return errClosed
	}
	w.closed = true
	return w.bw.Flush()
}

type csvWriter struct {
	cw     *csv.Writer
	tokens []string // the robots' columns
	rec    []string // reused record
	err    error    // the header's error
	closed bool
}

// csvColumns are the columns before the robots'.
var csvColumns = [...]string{"url", "host", "domain", "time", "status", "redirect_to", "content_type",
	"html", "bytes", "over_limit", "groups", "rules", "sitemaps", "encoding", "bom",
	"content_signal", "content_usage", "license"}

func (w *csvWriter) header() {
	w.rec = append(w.rec[:0], csvColumns[:]...)
	for _, t := range w.tokens {
		w.rec = append(w.rec, t+"_state", t+"_via", t+"_line", t+"_ai_train")
	}
	w.rec = append(w.rec, "lint")
	w.err = w.cw.Write(w.rec)
}

func (w *csvWriter) Write(r *Row) error {
	if w.closed {
		return errClosed
	}
	if w.err != nil {
		return w.err
	}
	tm := ""
	if !r.Time.IsZero() {
		tm = r.Time.UTC().Format(time.RFC3339Nano)
	}
	w.rec = append(w.rec[:0], r.URL, r.Host, r.Domain, tm, strconv.Itoa(r.Status), r.RedirectTo, r.ContentType,
		strconv.FormatBool(r.HTML), strconv.FormatInt(r.Bytes, 10), strconv.FormatBool(r.OverLimit),
		strconv.Itoa(r.Groups), strconv.Itoa(r.Rules), strconv.Itoa(r.Sitemaps), r.Encoding, strconv.FormatBool(r.BOM),
		strings.Join(r.ContentSignal, "\n"), strings.Join(r.ContentUsage, "\n"), strings.Join(r.License, "\n"))
	for i, t := range w.tokens {
		v, ok := verdictOf(r, i, t)
		if !ok {
			w.rec = append(w.rec, "", "", "", "")
			continue
		}
		w.rec = append(w.rec, v.State, v.Via, strconv.Itoa(v.Line), v.AITrain)
	}
	w.rec = append(w.rec, strings.Join(r.Lint, " "))
	// Every cell valid UTF-8, as in the JSON lines and Parquet.
	for i, c := range w.rec {
		w.rec[i] = validKey(c)
	}
	return w.cw.Write(w.rec)
}

// verdictOf returns the verdict of the robot token in r: the i-th, as
// Analyze orders them, or else the first for token.
func verdictOf(r *Row, i int, token string) (*Verdict, bool) {
	if i < len(r.Robots) && r.Robots[i].Robot == token {
		return &r.Robots[i], true
	}
	for j := range r.Robots {
		if r.Robots[j].Robot == token {
			return &r.Robots[j], true
		}
	}
	return nil, false
}

func (w *csvWriter) Close() error {
	if w.closed {
		return errClosed
	}
	w.closed = true
	w.cw.Flush()
	return w.cw.Error()
}
