// Package parquet writes the rows of package scan as Apache Parquet
// (https://parquet.apache.org/docs/file-format/), the format of `robots
// scan -out DIR`'s parts by default. It is a package of its own, named
// after its dependency as fetch/diskcache and fetch/rediscache are, so
// that only the programs that write Parquet link parquet-go (about ninety
// packages); package scan writes JSON lines and CSV.
//
// A Row's columns are named by its parquet tags (docs/scan.md, "The
// row"), with one more, agents.raw, and every string is valid UTF-8 (see
// Writer): DuckDB, Spark and pandas read the parts as they are. To write
// Parquet parts with scan.Run:
//
//	job := &scan.Job{Format: parquet.Format, NewWriter: parquet.NewRowWriter, OutDir: "out", …}
package parquet

import (
	"errors"
	"io"

	pq "github.com/parquet-go/parquet-go"

	"github.com/robotskit/robots/scan"
)

// Format is the name of the format, and the extension of the parts that
// scan.Run writes in it.
const Format = "parquet"

// RowGroupSize is the number of rows in each row group: a group is held
// in memory until it is complete (a row with the default robots is about
// a kilobyte there), and readers such as DuckDB read groups in parallel.
const RowGroupSize = 16 << 10

// batchRows is the number of rows a Writer gathers before it hands them
// to parquet-go, which shreds a batch into the columns in one call and
// checks then, not after each row, whether a page is full.
const batchRows = 64

// errClosed is the error of a Writer used after Close.
var errClosed = errors.New("parquet: write to a closed Writer")

// A Writer writes rows to a stream as one Parquet file: zstd-compressed,
// one column per field of scan.Row named by its parquet tag, lists as
// Parquet LISTs of structs
// (https://parquet.apache.org/docs/file-format/nestedencoding/), and one
// column more, agents.raw (below). It is a scan.RowWriter; Close writes
// the footer, without which the file cannot be read, so a Parquet output
// must be a file of its own, not a shared stream. A Writer is not safe
// for concurrent use.
//
// Every string of the file is valid UTF-8, as Parquet's STRING type
// requires (LogicalTypes.md, "STRING",
// https://github.com/apache/parquet-format/blob/master/LogicalTypes.md#string):
// invalid bytes are replaced by U+FFFD one by one, as
// encoding/json replaces them in the JSON lines of the same rows and as
// scan.Summary counts them (appendValid). The User-agent value as written
// is kept beside it: agents.raw holds its bytes when they are not valid
// UTF-8, and is null otherwise.
//
// Each row is copied into the file's own row type (fileRow), whose
// column writers parquet-go compiles once, when the Writer is made, from
// the type's reflection: rows then go to the columns through those
// compiled functions, with no reflection on the way.
type Writer struct {
	pw *pq.GenericWriter[fileRow]
	// rows holds the batch, n of them; their slices are reused.
	rows   []fileRow
	n      int
	err    error // the first error of parquet-go's writer
	closed bool
	total  int64 // rows written
	lists  verdictLists
}

var _ scan.RowWriter = (*Writer)(nil)

// NewWriter returns a Writer of rows to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{
		pw:   pq.NewGenericWriter[fileRow](w, options...),
		rows: make([]fileRow, batchRows),
	}
}

// options are the settings of parquet-go's writer.
var options = append([]pq.WriterOption{
	pq.Compression(&pq.Zstd),
	pq.MaxRowsPerRowGroup(RowGroupSize),
}, skipBounds...)

// NewRowWriter is NewWriter in the form of scan.Job's NewWriter.
func NewRowWriter(w io.Writer) (scan.RowWriter, error) {
	return NewWriter(w), nil
}

// Write writes one row. It keeps no reference to r or to its slices once
// it returns: it copies the values, and keeps only r's strings, which Go
// never changes, until its batch of rows is written. An error of the
// stream may be returned by a later Write, or by Close, when the batch is
// written.
func (w *Writer) Write(r *scan.Row) error {
	if w.closed {
		return errClosed
	}
	if w.err != nil {
		return w.err
	}
	prev := &w.rows[(w.n+len(w.rows)-1)%len(w.rows)] // the last row written, or a zero row
	w.rows[w.n].set(r, prev, &w.lists)
	w.n++
	w.total++
	if w.n == len(w.rows) {
		w.flush()
	}
	return w.err
}

// bufferedRowBytes is what Buffered counts for a row held in memory:
// about what a row with the default robots takes in a part.
const bufferedRowBytes = 128

// Buffered estimates the bytes that the rows held in memory, those of
// the row group not yet written, will take in the file: Run adds them to
// the bytes written when it decides whether a part has reached its size
// (scan.Job.PartSize).
func (w *Writer) Buffered() int64 {
	return w.total % RowGroupSize * bufferedRowBytes
}

// Close writes the rows still buffered and the file's footer. It does
// not close the underlying stream.
func (w *Writer) Close() error {
	if w.closed {
		return errClosed
	}
	w.closed = true
	if w.flush(); w.err != nil {
		return w.err
	}
	return w.pw.Close()
}

// flush writes the batch.
func (w *Writer) flush() {
	if w.n > 0 && w.err == nil {
		_, w.err = w.pw.Write(w.rows[:w.n])
	}
	w.n = 0
}
