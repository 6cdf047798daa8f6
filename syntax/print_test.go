package syntax_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/robotskit/robots/syntax"
)

// trickyInputs are inputs beyond the parse tables for the round-trip tests.
var trickyInputs = []string{
	"\xEF\xBB\xBF",
	"\xEF\xBB",
	"\xEF",
	"\xEF\xBB\xBF\xEF\xBB\xBF",
	"\xEF\x11\xBF\n\xEF\xBB\xBF",
	"\xEF\xBB\xBF\r\n\r\n",
	"\r\r\n\n\n\r",
	"\n\r\n\r",
	"\r",
	"\n",
	"\r\n",
	"\x00",
	"\x00\n\x00\r\x00",
	"\xff\xfe\x00U\x00s\x00e\x00r", // a UTF-16 BOM
	"\xfe\xff",
	"User-agent: *\nDisallow: /\n\n# end\n",
	"User-agent: *\r\nDisallow: /a # c\r\nAllow /b\r\n",
	"  \t \v\f\r\n\t",
	": :: :::",
	"# only # hashes ##\n###",
	"Disallow: /" + strings.Repeat("a", syntax.MaxLineLen) + "\nAllow: /b",
	"\xEF\xBB\xBF" + strings.Repeat("#", syntax.MaxLineLen+1) + "\r\n" + strings.Repeat(" ", syntax.MaxLineLen+5),
	"Disallow: /\xc3\xa1\xe3\x83\x84\xf0\x9f\x98\x80\xed\xa0\x80", // valid runes then a surrogate
}

func TestBytes(t *testing.T) {
	for _, in := range allInputs() {
		f := syntax.Parse("", []byte(in))
		if got := f.Bytes(); !bytes.Equal(got, []byte(in)) {
			t.Errorf("Parse(%q).Bytes(): got %q, want the input", in, got)
		}
		if got := f.String(); got != in {
			t.Errorf("Parse(%q).String(): got %q, want the input", in, got)
		}
	}
}

func TestWriteTo(t *testing.T) {
	for _, in := range allInputs() {
		f := syntax.Parse("", []byte(in))
		var b bytes.Buffer
		n, err := f.WriteTo(&b)
		if err != nil {
			t.Errorf("Parse(%q).WriteTo: error %v", in, err)
		}
		if n != int64(len(in)) {
			t.Errorf("Parse(%q).WriteTo: got count %d, want %d", in, n, len(in))
		}
		if b.String() != in {
			t.Errorf("Parse(%q).WriteTo: wrote %q, want the input", in, b.String())
		}
	}
}

var errFull = errors.New("full")

// limitWriter accepts up to max bytes, then fails.
type limitWriter struct {
	buf   bytes.Buffer
	max   int
	calls int // calls after the first error
	err   bool
}

func (w *limitWriter) Write(p []byte) (int, error) {
	if w.err {
		w.calls++
	}
	room := w.max - w.buf.Len()
	if len(p) <= room {
		return w.buf.Write(p)
	}
	w.buf.Write(p[:room])
	w.err = true
	return room, errFull
}

// TestWriteToError checks that WriteTo counts the bytes written before an
// error, returns the error and stops.
func TestWriteToError(t *testing.T) {
	const in = "\xEF\xBB\xBFUser-agent: *\r\nDisallow: /x\n\nAllow: /y"
	f := syntax.Parse("", []byte(in))
	for max := 0; max < len(in); max++ {
		w := &limitWriter{max: max}
		n, err := f.WriteTo(w)
		if err != errFull {
			t.Errorf("limit %d: got error %v, want %v", max, err, errFull)
		}
		if n != int64(max) {
			t.Errorf("limit %d: got count %d, want %d", max, n, max)
		}
		if w.buf.String() != in[:max] {
			t.Errorf("limit %d: wrote %q, want %q", max, w.buf.String(), in[:max])
		}
		if w.calls != 0 {
			t.Errorf("limit %d: %d writes after the error", max, w.calls)
		}
	}
}

// TestParseCopies checks that Parse does not keep the caller's slice.
func TestParseCopies(t *testing.T) {
	src := []byte("User-agent: *\nDisallow: /x\n")
	want := string(src)
	f := syntax.Parse("", src)
	for i := range src {
		src[i] = 'X'
	}
	if got := string(f.Bytes()); got != want {
		t.Errorf("Bytes after the input changed: got %q, want %q", got, want)
	}
	if got := f.Text(f.Lines[1].Value); got != "/x" {
		t.Errorf("value after the input changed: got %q, want %q", got, "/x")
	}
}
