package warc

import (
	"errors"
	"io"
	"testing"
)

// panicky is a decoder that panics on its first Read.
type panicky struct{}

func (panicky) Read([]byte) (int, error) { panic("bad table") }

// TestDecodePanic: a decoder of another package that panics on its input
// makes Response return an error wrapping ErrCoding, not panic: the
// library never panics on input.
func TestDecodePanic(t *testing.T) {
	saved := newBrotli
	defer func() { newBrotli = saved }()
	newBrotli = func(io.Reader) io.Reader { return panicky{} }
	block := "HTTP/1.1 200 OK\r\nContent-Encoding: gzip, br\r\n\r\n\x1b\x00\x00"
	resp, err := parseResponse([]byte(block), int64(len(block)), 100)
	if resp != nil || !errors.Is(err, ErrCoding) || err.Error() != `warc: cannot undo the content coding: decoding "gzip, br" failed: bad table` {
		t.Errorf("got %v, %v", resp, err)
	}
}
