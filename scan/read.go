package scan

import (
	"context"
	"errors"
	"io"
)

// ReadStats is what ReadCaptures read of one input.
type ReadStats struct {
	// Captures counts the captures passed on, Errors the errors.
	Captures, Errors int64
	// Bytes counts the bytes read from the input, as stored (a gzip
	// file's compressed bytes).
	Bytes int64
	// Failed is set when the input itself failed (a read error other
	// than io.EOF: a download given up, a disk error) and was not read to
	// its end.
	Failed bool
}

// ReadCaptures reads the captures of one input r, named name, as
// NewReader reads it, and is the loop that `robots scan` and the Beam
// pipeline both run over each input. Each capture goes to each, in order;
// each record or line that cannot be read goes to bad as an *InputError
// (with its offset), and reading goes on with the next one. A failure of
// r itself ends the input: when the Reader did not already report it, it
// goes to bad as an *InputError at the offset where r stopped.
//
// Reading stops early when each returns false, and when ctx is done;
// ctx's error is not passed to bad. each and bad are called from the
// calling goroutine.
func ReadCaptures(ctx context.Context, name string, r io.Reader, each func(*Capture) bool, bad func(error)) ReadStats {
	st, _ := readCaptures(ctx, name, r, 0, nil, each, bad)
	return st
}

// readCaptures is ReadCaptures of a piece of an input that starts at
// offset base of the input, whose revisits earlier looks up in the pieces
// before it (nil for a whole input). It returns the responses its Reader
// remembers at the end too, for the pieces after it.
func readCaptures(ctx context.Context, name string, r io.Reader, base int64,
	earlier func(digest, refersTo string, own *inputSeen) *inputSeenEntry,
	each func(*Capture) bool, bad func(error)) (ReadStats, *inputSeen) {
	var st ReadStats
	src := &counter{r: r}
	rd := NewReader(name, src)
	rd.earlier = earlier
	for ctx.Err() == nil {
		c, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if ctx.Err() != nil {
				break // interrupted
			}
			st.Errors++
			var ie *InputError
			if base != 0 && errors.As(err, &ie) {
				ie.Offset += base
			}
			bad(err)
			if src.err != nil {
				break // the input itself failed: nothing more to read
			}
			continue
		}
		st.Captures++
		c.Offset += base
		if !each(c) {
			st.Bytes = src.n
			return st, &rd.seen
		}
	}
	if src.err != nil {
		st.Failed = true
		if st.Errors == 0 && ctx.Err() == nil {
			st.Errors++
			bad(&InputError{Source: name, Offset: base + src.n, Err: src.err})
		}
	}
	st.Bytes = src.n
	return st, &rd.seen
}

// counter counts the bytes read from r, and remembers a failure of r
// itself (as opposed to bad bytes in it).
type counter struct {
	r   io.Reader
	n   int64
	err error
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && err != io.EOF && c.err == nil {
		c.err = err
	}
	return n, err
}
