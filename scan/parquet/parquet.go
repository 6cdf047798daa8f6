// Package parquet writes the rows of package scan as Apache Parquet
// (https://parquet.apache.org/docs/file-format/), the format of `robots
// scan -out DIR`'s parts by default. It is a package of its own, named
// after its dependency as fetch/diskcache and fetch/rediscache are, so
// that only the programs that write Parquet link parquet-go (about ninety
// packages); package scan writes JSON lines and CSV.
//
// A Row's columns are named by its parquet tags (docs/scan.md, "The
// row"): DuckDB, Spark and pandas read the parts as they are. To write
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

// errClosed is the error of a Writer used after Close.
var errClosed = errors.New("parquet: write to a closed Writer")

// A Writer writes rows to a stream as one Parquet file: zstd-compressed,
// one column per field of scan.Row named by its parquet tag, lists as
// Parquet LISTs of structs
// (https://parquet.apache.org/docs/file-format/nestedencoding/). It is a
// scan.RowWriter; Close writes the footer, without which the file cannot
// be read, so a Parquet output must be a file of its own, not a shared
// stream. A Writer is not safe for concurrent use.
type Writer struct {
	pw     *pq.GenericWriter[scan.Row]
	one    [1]scan.Row
	closed bool
}

var _ scan.RowWriter = (*Writer)(nil)

// NewWriter returns a Writer of rows to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{pw: pq.NewGenericWriter[scan.Row](w,
		pq.Compression(&pq.Zstd),
		pq.MaxRowsPerRowGroup(RowGroupSize),
	)}
}

// NewRowWriter is NewWriter in the form of scan.Job's NewWriter.
func NewRowWriter(w io.Writer) (scan.RowWriter, error) {
	return NewWriter(w), nil
}

// Write writes one row. It keeps nothing of r once it returns.
func (w *Writer) Write(r *scan.Row) error {
	if w.closed {
		return errClosed
	}
	w.one[0] = *r
	_, err := w.pw.Write(w.one[:])
	w.one[0] = scan.Row{} // keep no reference to r's slices
	return err
}

// Close writes the rows still buffered and the file's footer. It does
// not close the underlying stream.
func (w *Writer) Close() error {
	if w.closed {
		return errClosed
	}
	w.closed = true
	return w.pw.Close()
}
