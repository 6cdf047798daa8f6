package scan

import (
	"net/http"
	"time"
)

// A Capture is one recorded robots.txt response.
type Capture struct {
	// URL is the robots.txt URL as requested.
	URL string
	// Time is when the response was recorded; zero when unknown.
	Time time.Time
	// Status is the HTTP status code; 0 when the input records none (a
	// file on disk), which Analyze reads as 200.
	Status int
	// Header holds the response's HTTP headers; nil when unknown.
	Header http.Header
	// Body is the payload with its transfer and content codings removed,
	// cut to at most MaxBody bytes.
	Body []byte
	// Size is the payload's length before any cut: len(Body) unless the
	// payload was longer than MaxBody.
	Size int64
	// Truncated is set when the recorder itself cut the payload
	// (WARC-Truncated).
	Truncated bool
	// Revisit is set for a WARC revisit record whose payload could not be
	// found earlier in the same input: Body is then empty and Size 0.
	Revisit bool
	// Digest is the payload digest as recorded (WARC-Payload-Digest), ""
	// when none.
	Digest string
	// Source names the input the capture came from, and Offset is the
	// byte offset of its record there: for a gzip WARC, of the record's
	// gzip member in the compressed file; for gzip JSON lines, of the
	// line in the decompressed stream.
	Source string
	Offset int64
}

// MaxBody is how much of a payload a Capture keeps: 500 KiB, the most any
// robot reads (RFC 9309 §2.5), and one byte more so that Analyze can tell
// a file that passes the limit.
const MaxBody = 500<<10 + 1
