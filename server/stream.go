package server

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"

	"github.com/robotskit/robots/internal/apicore"
)

// writeJSON answers v as JSON with status: indented by two spaces, with a
// final newline, as json.Encoder with SetIndent("", "  ") writes it. The
// answer is never held whole: the elements of v's top-level lists are
// encoded one at a time into a small buffer (encodeJSON). Once the header
// is written an error can only be a write's, or ctx's when it ends while
// the answer is written.
func writeJSON(ctx context.Context, w http.ResponseWriter, status int, v any) error {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	bw := bufio.NewWriterSize(w, 32<<10)
	if err := encodeJSON(ctx, bw, v); err != nil {
		return err
	}
	return bw.Flush()
}

// writeAnswer answers b, an answer encodeJSON wrote, with status.
func writeAnswer(w http.ResponseWriter, status int, b []byte) error {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, err := w.Write(b)
	return err
}

// smallAnswer is the size of an answer that is encoded into a buffer
// before it is sent.
const smallAnswer = 256 << 10

// A limitedBuffer keeps what is written to it up to max octets, and then
// fails with errTooLong.
type limitedBuffer struct {
	b   bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if l.b.Len()+len(p) > l.max {
		return 0, errTooLong
	}
	return l.b.Write(p)
}

// The answers' encoder is package apicore's, which the page's WebAssembly
// checker shares: one encoding of every answer.

// list is apicore.List: a JSON array made as it is written.
type list = apicore.List

// encodeJSON is apicore.Encode.
func encodeJSON(ctx context.Context, w io.Writer, v any) error { return apicore.Encode(ctx, w, v) }

// answerSize is apicore.Size.
func answerSize(ctx context.Context, v any, limit int64) (int64, bool, error) {
	return apicore.Size(ctx, v, limit)
}

// jsonLen is apicore.JSONLen.
func jsonLen(s string) int { return apicore.JSONLen(s) }

var errTooLong = apicore.ErrTooLong
