package scan

import (
	"bytes"
	"io"

	"github.com/klauspost/compress/gzip"
)

// A WARC file compressed a record at a time, as Common Crawl writes them
// (WARC/1.1 annex D.2: "each record in a WARC file is compressed
// separately", each a gzip member, RFC 1952 §2.2), can be read from any
// member on: Run cuts a large one into pieces at members and reads the
// pieces at once, so that inflating it, the cost of reading it, is spread
// over the workers. The rows are the same as those of one reader: each
// piece's offsets count from the start of the file, a piece's revisits
// look up the responses before it as one reader would remember them
// (findBefore), and the pieces' rows are written in order.
//
// The sizes are variables for the tests.
var (
	// splitMin is the size under which a file is read whole.
	splitMin int64 = 4 << 20
	// splitPiece is the size of a piece: small enough that a reader
	// holds a whole piece's captures (pieceQueue) while the writer takes
	// the piece before it, so that the readers run at once.
	splitPiece int64 = 1 << 20
	// splitWindow is how far past a cut's target a member is looked for;
	// a cut with none there (a file of one gzip stream, a huge record)
	// is left out.
	splitWindow int64 = 4 << 20
	// splitLookBack lets a piece's revisits find the responses of the
	// pieces before it; a test turns it off.
	splitLookBack = true
)

// splitPoints returns where a gzip-per-record WARC file of size bytes
// may be cut into up to n pieces: offsets of members whose first bytes
// decode to a WARC record's version line, in increasing order, the first
// 0. It returns nil when the file is not such a file or is too small to
// cut.
func splitPoints(f io.ReaderAt, size int64, n int) []int64 {
	if n < 2 || size < splitMin || !memberAt(f, size, 0) {
		return nil
	}
	n = min(n, int(size/splitPiece))
	cuts := []int64{0}
	buf := make([]byte, 64<<10)
	for k := 1; k < n; k++ {
		target := size * int64(k) / int64(n)
		if target <= cuts[len(cuts)-1] {
			continue
		}
		at, ok := nextMember(f, size, target, buf)
		if !ok {
			break // one gzip stream, or records too large to cut between
		}
		if at > cuts[len(cuts)-1] && at < size {
			cuts = append(cuts, at)
		}
	}
	if len(cuts) < 2 {
		return nil
	}
	return cuts
}

// nextMember finds the first member at or after from, within
// splitWindow.
func nextMember(f io.ReaderAt, size, from int64, buf []byte) (int64, bool) {
	end := min(size, from+splitWindow)
	for off := from; off < end; {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), end-off+2)], off)
		if n < 3 {
			return 0, false
		}
		chunk := buf[:n]
		for i := 0; i+2 < len(chunk); {
			j := bytes.Index(chunk[i:], []byte{0x1f, 0x8b, 0x08})
			if j < 0 {
				break
			}
			at := off + int64(i+j)
			if at >= end {
				return 0, false
			}
			if memberAt(f, size, at) {
				return at, true
			}
			i += j + 1
		}
		if err != nil {
			return 0, false
		}
		off += int64(n - 2) // a signature cut by the buffer's end
	}
	return 0, false
}

// memberAt reports whether a gzip member starts at off whose data begins
// with a WARC version line ("WARC/1.0" or "WARC/1.1", WARC/1.1 §4).
func memberAt(f io.ReaderAt, size, off int64) bool {
	zr, err := gzip.NewReader(io.NewSectionReader(f, off, size-off))
	if err != nil {
		return false
	}
	zr.Multistream(false)
	var head [7]byte
	if _, err := io.ReadFull(zr, head[:]); err != nil {
		return false
	}
	return string(head[:]) == "WARC/1."
}
