package robots

import (
	"bytes"
	"io"
)

// Read reads a robots.txt body from rd as a robot reads it: at most
// [MaxBytes]. When the body is longer, the rest is ignored, as Google
// ignores what follows its 500 KiB limit (RFC 9309 §2.5 asks for a limit of
// at least 500 KiB), and so is the line the limit cuts through, since half
// a rule can allow what the whole file forbids ("Allow: /abc-public" cut
// to "Allow: /ab"). truncated reports that the limit was reached. Read
// never holds more than MaxBytes+1 bytes of rd.
func Read(rd io.Reader) (body []byte, truncated bool, err error) {
	body, err = io.ReadAll(io.LimitReader(rd, MaxBytes+1))
	if err != nil {
		return nil, false, err
	}
	if len(body) <= MaxBytes {
		return body, false, nil
	}
	body = body[:MaxBytes]
	if i := bytes.LastIndexAny(body, "\r\n"); i >= 0 {
		body = body[:i+1]
	} else {
		body = body[:0]
	}
	return body, true, nil
}
