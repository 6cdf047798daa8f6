package robots

import "io"

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
	return Cut(body), len(body) > MaxBytes, nil
}

// Cut returns the part of body that robots read, as Read cuts it: all of
// it up to MaxBytes, else its first MaxBytes bytes up to their last line
// end, without the line the limit cuts through. It copies nothing.
func Cut[T string | []byte](body T) T {
	if len(body) <= MaxBytes {
		return body
	}
	for i := MaxBytes - 1; i >= 0; i-- {
		if body[i] == '\n' || body[i] == '\r' {
			return body[:i+1]
		}
	}
	return body[:0]
}
