package syntax

import (
	"bytes"
	"io"
)

// Bytes returns the file's text, byte for byte as it was parsed. It is
// rebuilt from the nodes: the byte order mark, then every line's text and
// terminator.
func (f *File) Bytes() []byte {
	var b bytes.Buffer
	f.WriteTo(&b)
	return b.Bytes()
}

// WriteTo writes the file's text to w, as [File.Bytes] returns it.
func (f *File) WriteTo(w io.Writer) (int64, error) {
	var n int64
	write := func(s string) error {
		m, err := io.WriteString(w, s)
		n += int64(m)
		return err
	}
	if err := write(f.BOM); err != nil {
		return n, err
	}
	for i := range f.Lines {
		l := &f.Lines[i]
		end := l.Span.End.Offset
		if err := write(f.src[l.Span.Start.Offset : end+l.EOL]); err != nil {
			return n, err
		}
	}
	return n, nil
}
